/* Host-side helpers of the reproducible sums (gale_kernels.h), the same for
 * both launch layers: each compiles this file once. */
#include "gale_kbodies.h"

#include <string.h>

void gale_rsum_zero(gale_rsum_t *s) { memset(s, 0, sizeof *s); }

void gale_rsum_add(gale_rsum_t *s, double x)
{
    gale_kb_rsum_term(x, s->w, &s->bad);
    s->plain += x;
}

double gale_rsum_value(const gale_rsum_t *s)
{
    gale_rsum_t t = *s;
    gale_kb_rsum_carry(t.w);
    return gale_kb_rsum_value(t.w);
}
