/* The configuration as JSON, timer reduction and table (the JSON writer is
 * base/json.c). */
#include "gale_report.h"

#include "gale_base.h"
#include "gale_base_mpi.h"

#include <string.h>

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
    int n = gale_timer_ntimers();
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
    GALE_CALL(gale_mmm(comm, n + 1, s, t->min, t->mean, t->max));
    double cmax[GALE_MAX_TIMERS + 1], b[GALE_MAX_TIMERS + 1];
    GALE_MPI(MPI_Allreduce(cnt, cmax, n + 1, MPI_DOUBLE, MPI_MAX, comm));
    for (int i = 0; i < n; i++) b[i] = gale_timer_bytes(i);
    b[n] = 0;
    GALE_MPI(MPI_Allreduce(b, t->bytes, n + 1, MPI_DOUBLE, MPI_SUM, comm));
    for (int i = 0; i <= n; i++) {
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
