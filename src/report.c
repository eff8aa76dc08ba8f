/* JSON writer, timer reduction and table. */
#include "gale_report.h"

#include "gale_base.h"

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

void gale_json_config(gale_json_t *j, const char *key, const gale_config_t *cfg)
{
    gale_json_obj(j, key);
    const char *section = NULL;
    for (int i = 0; i < gale_nkeys; i++) {
        const gale_key_t *k = &gale_keys[i];
        if (!section || strcmp(section, k->section) != 0) {
            if (section) gale_json_end(j, '}');
            gale_json_obj(j, k->section);
            section = k->section;
        }
        const void *v = (const char *)cfg + k->offset;
        switch (k->type) {
        case GALE_KT_INT: gale_json_int(j, k->key, *(const int *)v); break;
        case GALE_KT_REAL: gale_json_num(j, k->key, *(const double *)v); break;
        case GALE_KT_BOOL: gale_json_bool(j, k->key, *(const int *)v); break;
        case GALE_KT_STRING: gale_json_str(j, k->key, (const char *)v); break;
        case GALE_KT_ENUM:
            gale_json_str(j, k->key, gale_config_choice(k->section, k->key, *(const int *)v));
            break;
        case GALE_KT_MESH: {
            char name[32];
            snprintf(name, sizeof name, "C%d", *(const int *)v);
            gale_json_str(j, k->key, name);
            break;
        }
        }
    }
    if (section) gale_json_end(j, '}');
    gale_json_end(j, '}');
}

void gale_hex_bits(double x, char out[17])
{
    unsigned long long b;
    memcpy(&b, &x, sizeof b);
    snprintf(out, 17, "%016llx", b);
}

int gale_timing_reduce(MPI_Comm comm, double wall, gale_timing_t *t)
{
    int n = gale_timer_ntimers(), size;
    GALE_MPI(MPI_Comm_size(comm, &size));
    double s[GALE_MAX_TIMERS + 1], cnt[GALE_MAX_TIMERS + 1];
    double cats = 0;
    for (int i = 0; i < n; i++) {
        s[i] = gale_timer_seconds(i);
        cnt[i] = (double)gale_timer_count(i);
        if (gale_timer_parent(i) < 0) cats += s[i];
    }
    s[n] = wall - cats;  /* "other": everything not in a category */
    cnt[n] = 1;
    t->n = n + 1;
    GALE_MPI(MPI_Allreduce(s, t->min, n + 1, MPI_DOUBLE, MPI_MIN, comm));
    GALE_MPI(MPI_Allreduce(s, t->max, n + 1, MPI_DOUBLE, MPI_MAX, comm));
    GALE_MPI(MPI_Allreduce(s, t->mean, n + 1, MPI_DOUBLE, MPI_SUM, comm));
    double cmax[GALE_MAX_TIMERS + 1];
    GALE_MPI(MPI_Allreduce(cnt, cmax, n + 1, MPI_DOUBLE, MPI_MAX, comm));
    for (int i = 0; i <= n; i++) {
        t->mean[i] /= size;
        t->count[i] = (long)cmax[i];
        t->name[i] = i < n ? gale_timer_name(i) : "other";
        t->parent[i] = i < n ? gale_timer_parent(i) : -1;
    }
    return GALE_OK;
}

void gale_timing_print(const gale_timing_t *t, FILE *out)
{
    fprintf(out, "%-22s %11s %11s %11s %10s\n", "timer [s]", "min", "mean", "max", "count");
    /* categories, each followed by its sub-timers */
    for (int i = 0; i < t->n; i++) {
        if (t->parent[i] >= 0) continue;
        fprintf(out, "%-22s %11.4f %11.4f %11.4f %10ld\n", t->name[i], t->min[i], t->mean[i],
                t->max[i], t->count[i]);
        for (int k = 0; k < t->n; k++)
            if (t->parent[k] == i)
                fprintf(out, "  %-20s %11.4f %11.4f %11.4f %10ld\n", t->name[k], t->min[k],
                        t->mean[k], t->max[k], t->count[k]);
    }
}
