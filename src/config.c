/* placeholder: being written */
#include "gale_config.h"
void gale_config_print_keys(int md) { (void)md; }
