/* Shared by the symmetry tests of the operator and of the V-cycle: vectors
 * whose values depend only on a cell's global id and level (the same on any
 * decomposition), and a reproducible global dot product. */
#ifndef GALE_TEST_SYM_H
#define GALE_TEST_SYM_H

#include "gale_model.h"

#include <math.h>
#include <stdint.h>

/* a value in [-1, 1) from a global id, level and seed (splitmix64) */
static double val(int64_t gid, int k, uint64_t seed)
{
    uint64_t z = (uint64_t)gid * 0x9e3779b97f4a7c15ULL + (uint64_t)k * 0xbf58476d1ce4e5b9ULL + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 4503599627370496.0 - 1.0;
}

static double dot(gale_model_t *m, const gale_field_t *a, const gale_field_t *b)
{
    gale_psy_sum_t s;
    gale_psy_sum_init(&s);
    gale_psy_sum_dot(&s, a, b, NULL, NULL);
    double out = NAN;
    if (gale_psy_sum(&m->gsum_diag, &s, &out) != GALE_OK) return NAN;
    return out;
}

#endif
