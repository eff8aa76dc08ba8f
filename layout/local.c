/* placeholder: being written */
typedef int gale_placeholder_t;
