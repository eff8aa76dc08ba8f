/* A small JSON writer: objects and arrays nest, commas are automatic.
 * Part of the serial base layer (gale_base); any layer may write JSON with it. */
#ifndef GALE_JSON_H
#define GALE_JSON_H

#include <stdio.h>

typedef struct {
    FILE *f;
    int depth;
    int count[32];
} gale_json_t;
void gale_json_open(gale_json_t *j, FILE *f);       /* writes the outer '{' */
void gale_json_close(gale_json_t *j);               /* writes the outer '}' */
void gale_json_obj(gale_json_t *j, const char *key); /* key NULL inside arrays */
void gale_json_arr(gale_json_t *j, const char *key);
void gale_json_end(gale_json_t *j, char close);     /* '}' or ']' */
void gale_json_num(gale_json_t *j, const char *key, double v); /* NaN and Inf as null */
void gale_json_int(gale_json_t *j, const char *key, long long v);
void gale_json_str(gale_json_t *j, const char *key, const char *v);
void gale_json_bool(gale_json_t *j, const char *key, int v);

#endif
