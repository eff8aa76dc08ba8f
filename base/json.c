/* The JSON writer (gale_json.h). */
#include "gale_json.h"

#include <math.h>
#include <string.h>

static void put_string(FILE *f, const char *v)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
        if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
        else if (*c == '\n') fputs("\\n", f);
        else if (*c == '\t') fputs("\\t", f);
        else if (*c < 0x20) fprintf(f, "\\u%04x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

/* Comma, newline and indent before a value; then its key, if any. */
static void sep(gale_json_t *j, const char *key)
{
    if (j->count[j->depth]++) fputc(',', j->f);
    fputc('\n', j->f);
    for (int i = 0; i <= j->depth; i++) fputs("  ", j->f);
    if (key) {
        put_string(j->f, key);
        fputs(": ", j->f);
    }
}

void gale_json_open(gale_json_t *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    fputc('{', f);
}

void gale_json_close(gale_json_t *j) { fputs("\n}\n", j->f); }

void gale_json_obj(gale_json_t *j, const char *key)
{
    sep(j, key);
    fputc('{', j->f);
    j->count[++j->depth] = 0;
}

void gale_json_arr(gale_json_t *j, const char *key)
{
    sep(j, key);
    fputc('[', j->f);
    j->count[++j->depth] = 0;
}

void gale_json_end(gale_json_t *j, char close)
{
    int had = j->count[j->depth];
    j->depth--;
    if (had) {
        fputc('\n', j->f);
        for (int i = 0; i <= j->depth; i++) fputs("  ", j->f);
    }
    fputc(close, j->f);
}

void gale_json_num(gale_json_t *j, const char *key, double v)
{
    sep(j, key);
    if (isfinite(v)) fprintf(j->f, "%.17g", v);
    else fputs("null", j->f); /* JSON has no NaN */
}

void gale_json_int(gale_json_t *j, const char *key, long long v)
{
    sep(j, key);
    fprintf(j->f, "%lld", v);
}

void gale_json_bool(gale_json_t *j, const char *key, int v)
{
    sep(j, key);
    fputs(v ? "true" : "false", j->f);
}

void gale_json_str(gale_json_t *j, const char *key, const char *v)
{
    sep(j, key);
    put_string(j->f, v);
}
