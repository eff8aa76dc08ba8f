/* LFRic's layer spacings (docs/numerics.md, "The vertical grid"). */
#include "gale_extrusion.h"

#include "gale_base.h"

#include <math.h>

/* the UM's L38_29t_9s_40km levels (29 in the troposphere, 9 above, to 40 km) */
static const double um_l38[39] = {
    0.0,       .0005095, .0020380, .0045854, .0081519, .0127373, .0183417, .0249651,
    .0326074,  .0412688, .0509491, .0616485, .0733668, .0861040, .0998603, .1146356,
    .1304298,  .1472430, .1650752, .1839264, .2037966, .2246857, .2465938, .2695209,
    .2934670,  .3184321, .3444162, .3714396, .3998142, .4298913, .4620737, .4968308,
    .5347160,  .5763897, .6230643, .6772068, .7443435, .8383348, 1.0};

int gale_extrusion_eta(gale_extrude_t method, int n, double *eta)
{
    if (method == GALE_EXTRUDE_UM_L38 && n != 38)
        GALE_ERROR(GALE_ERR_INPUT,
                   "extrusion um_L38_29t_9s_40km has 38 layers, not %d: set the number of "
                   "layers to 38",
                   n);
    const double s = 1.03, phi = 15.0; /* geometric stretching, DCMIP's flattening */
    for (int k = 0; k <= n; k++) {
        const double u = (double)k / n;
        switch (method) {
        case GALE_EXTRUDE_UNIFORM: eta[k] = u; break;
        case GALE_EXTRUDE_QUADRATIC: eta[k] = u * u; break;
        case GALE_EXTRUDE_GEOMETRIC: eta[k] = (pow(s, k) - 1.0) / (pow(s, n) - 1.0); break;
        case GALE_EXTRUDE_DCMIP: eta[k] = (sqrt(phi * u * u + 1.0) - 1.0) / (sqrt(phi + 1.0) - 1.0); break;
        case GALE_EXTRUDE_UM_L38: eta[k] = um_l38[k]; break;
        default: GALE_ERROR(GALE_ERR_INTERNAL, "extrusion method %d", (int)method);
        }
    }
    eta[n] = 1.0; /* the top exactly, whatever the rounding */
    return GALE_OK;
}

int gale_shell_build(int nl, int sc, int si, const double *z_if, const double *z_c, double a,
                     double g, int deep, gale_shell_t *s)
{
    *s = (gale_shell_t){.deep = deep};
    double **lay[] = {&s->dzv, &s->dzf, &s->dzh, &s->hl, &s->rdzv, &s->rc};
    double **itf[] = {&s->hi, &s->qi, &s->gi, &s->ri};
    for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) GALE_ALLOC(*lay[i], sc);
    for (size_t i = 0; i < sizeof itf / sizeof itf[0]; i++) GALE_ALLOC(*itf[i], si);
    for (int k = 0; k < nl; k++) {
        const double dz = z_if[k + 1] - z_if[k];
        if (!deep) {
            s->dzv[k] = s->dzf[k] = s->dzh[k] = dz;
            s->hl[k] = 1.0;
            s->rdzv[k] = 1.0 / dz;
            continue;
        }
        /* r_t^n - r_b^n over n a^(n-1), as dz times the mean of (r/a)^(n-1)
         * over the layer: no cancellation between two large powers */
        const double b = 1.0 + z_if[k] / a, t = 1.0 + z_if[k + 1] / a;
        s->dzf[k] = dz * 0.5 * (b + t);
        s->dzv[k] = dz * (b * b + b * t + t * t) / 3.0;
        s->hl[k] = s->dzf[k] / s->dzv[k];
        s->dzh[k] = dz * s->hl[k];
        s->rdzv[k] = 1.0 / s->dzv[k];
        s->rc[k] = 1.0 / (a + z_c[k]);
    }
    for (int k = 0; k <= nl; k++) {
        const double q = deep ? 1.0 + z_if[k] / a : 1.0;
        s->hi[k] = 1.0 / q;
        s->qi[k] = q * q;
        s->gi[k] = deep ? g / (q * q) : g;
        s->ri[k] = deep ? 1.0 / (a + z_if[k]) : 0.0;
    }
    return GALE_OK;
}

void gale_shell_free(gale_shell_t *s)
{
    void *p[] = {s->dzv, s->dzf, s->dzh, s->hl, s->rdzv, s->rc, s->hi, s->qi, s->gi, s->ri};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) gale_free(p[i]);
    *s = (gale_shell_t){0};
}
