/* LFRic's layer spacings (docs/numerics.md, "The vertical grid"). */
#include "gale_extrusion.h"

#include "gale_base.h"

#include <math.h>

/* The UM's level sets, eta at the interfaces (LFRic's tables). L38_29t_9s_40km:
 * 29 levels in the troposphere, 9 above, to 40 km */
static const double um_l38[39] = {
    0.0,       .0005095, .0020380, .0045854, .0081519, .0127373, .0183417, .0249651,
    .0326074,  .0412688, .0509491, .0616485, .0733668, .0861040, .0998603, .1146356,
    .1304298,  .1472430, .1650752, .1839264, .2037966, .2246857, .2465938, .2695209,
    .2934670,  .3184321, .3444162, .3714396, .3998142, .4298913, .4620737, .4968308,
    .5347160,  .5763897, .6230643, .6772068, .7443435, .8383348, 1.0};

/* L70_50t_20s_80km: 50 levels in the troposphere, 20 above, to 80 km */
static const double um_l70_50t[71] = {
    0.0, 0.00025, 0.0006667, 0.00125, 0.002, 0.0029167, 0.004, 0.00525, 0.0066667, 0.00825,
    0.01, 0.0119167, 0.014, 0.01625, 0.0186667, 0.02125, 0.024, 0.0269167, 0.03, 0.03325,
    0.0366667, 0.04025, 0.044, 0.0479167, 0.052, 0.05625, 0.0606667, 0.06525, 0.07, 0.0749167,
    0.08, 0.08525, 0.0906668, 0.0962505, 0.1020017, 0.1079213, 0.1140113, 0.1202745, 0.1267154,
    0.1333406, 0.1401592, 0.1471838, 0.1544313, 0.1619238, 0.1696895, 0.1777643, 0.1861929,
    0.1950307, 0.2043451, 0.2142178, 0.2247466, 0.236048, 0.2482597, 0.2615432, 0.2760868,
    0.2921094, 0.3098631, 0.3296378, 0.3517651, 0.3766222, 0.4046373, 0.4362943, 0.4721379,
    0.5127798, 0.5589045, 0.6112759, 0.6707432, 0.73825, 0.8148403, 0.9016668, 1.0};

/* L70_61t_9s_40km: 61 levels in the troposphere, 9 above, to 40 km */
static const double um_l70_61t[71] = {
    0.0, 0.000125, 0.0005416666, 0.001125, 0.001875, 0.002791667, 0.003875, 0.005125,
    0.006541667, 0.008125, 0.009875, 0.01179167, 0.013875, 0.016125, 0.01854167, 0.021125,
    0.023875, 0.02679167, 0.029875, 0.033125, 0.03654167, 0.040125, 0.043875, 0.04779167,
    0.051875, 0.05612501, 0.06054167, 0.065125, 0.069875, 0.07479167, 0.079875, 0.085125,
    0.09054167, 0.096125, 0.101875, 0.1077917, 0.113875, 0.120125, 0.1265417, 0.133125,
    0.139875, 0.1467917, 0.1538752, 0.1611287, 0.1685623, 0.1761954, 0.184059, 0.192198,
    0.2006732, 0.2095645, 0.2189729, 0.2290236, 0.239869, 0.2516917, 0.2647077, 0.2791699,
    0.2953717, 0.3136506, 0.3343919, 0.358033, 0.3850676, 0.4160496, 0.4515977, 0.4924007,
    0.5392213, 0.5929016, 0.6543679, 0.7246365, 0.8048183, 0.8961251, 1.0};

/* L85_50t_35s_85km: 50 levels in the troposphere, 35 above, to 85 km */
static const double um_l85[86] = {
    0.0, 0.0002352941, 0.000627451, 0.001176471, 0.001882353, 0.002745098, 0.003764706,
    0.004941176, 0.00627451, 0.007764705, 0.009411764, 0.01121569, 0.01317647, 0.01529412,
    0.01756863, 0.02, 0.02258823, 0.02533333, 0.02823529, 0.03129411, 0.0345098, 0.03788235,
    0.04141176, 0.04509804, 0.04894118, 0.05294117, 0.05709804, 0.06141176, 0.06588235,
    0.0705098, 0.07529411, 0.08023529, 0.08533333, 0.09058823, 0.09600001, 0.1015687, 0.1072942,
    0.1131767, 0.1192161, 0.1254127, 0.1317666, 0.1382781, 0.1449476, 0.1517757, 0.1587633,
    0.1659115, 0.1732221, 0.1806969, 0.188339, 0.1961518, 0.20414, 0.2123093, 0.2206671,
    0.2292222, 0.2379856, 0.2469709, 0.2561942, 0.2656752, 0.2754372, 0.285508, 0.2959203,
    0.3067128, 0.3179307, 0.3296266, 0.3418615, 0.3547061, 0.3682416, 0.3825613, 0.3977717,
    0.4139944, 0.4313675, 0.4500474, 0.4702109, 0.4920571, 0.5158098, 0.5417201, 0.5700686,
    0.6011688, 0.6353697, 0.673059, 0.7146671, 0.7606701, 0.8115944, 0.8680208, 0.9305884, 1.0};


static const struct {
    gale_extrude_t method;
    int n;
    const double *eta;
} um_sets[] = {
    {GALE_EXTRUDE_UM_L38, 38, um_l38},
    {GALE_EXTRUDE_UM_L70_50T, 70, um_l70_50t},
    {GALE_EXTRUDE_UM_L70_61T, 70, um_l70_61t},
    {GALE_EXTRUDE_UM_L85, 85, um_l85},
};

int gale_extrusion_fixed_layers(gale_extrude_t method)
{
    for (size_t i = 0; i < sizeof um_sets / sizeof um_sets[0]; i++)
        if (um_sets[i].method == method) return um_sets[i].n;
    return 0;
}

int gale_extrusion_eta(gale_extrude_t method, int n, double *eta)
{
    for (size_t i = 0; i < sizeof um_sets / sizeof um_sets[0]; i++) {
        if (um_sets[i].method != method) continue;
        if (n != um_sets[i].n)
            GALE_ERROR(GALE_ERR_INPUT, "this UM level set has %d layers, not %d: set the "
                       "number of layers to %d", um_sets[i].n, n, um_sets[i].n);
        for (int k = 0; k <= n; k++) eta[k] = um_sets[i].eta[k];
        return GALE_OK;
    }
    const double s = 1.03, phi = 15.0; /* geometric stretching, DCMIP's flattening */
    for (int k = 0; k <= n; k++) {
        const double u = (double)k / n;
        switch (method) {
        case GALE_EXTRUDE_UNIFORM: eta[k] = u; break;
        case GALE_EXTRUDE_QUADRATIC: eta[k] = u * u; break;
        case GALE_EXTRUDE_GEOMETRIC: eta[k] = (pow(s, k) - 1.0) / (pow(s, n) - 1.0); break;
        case GALE_EXTRUDE_DCMIP: eta[k] = (sqrt(phi * u * u + 1.0) - 1.0) / (sqrt(phi + 1.0) - 1.0); break;
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
