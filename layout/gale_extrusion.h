/* The vertical extrusion: layer interfaces as a fraction eta of the model
 * top, LFRic's defined spacings (docs/numerics.md, "The vertical grid"). */
#ifndef GALE_EXTRUSION_H
#define GALE_EXTRUSION_H

typedef enum {
    GALE_EXTRUDE_UNIFORM,   /* eta_k = k / n */
    GALE_EXTRUDE_QUADRATIC, /* (k / n)^2: thin layers near the ground */
    GALE_EXTRUDE_GEOMETRIC, /* each layer 1.03 times the one below */
    GALE_EXTRUDE_DCMIP,     /* (sqrt(15 (k/n)^2 + 1) - 1) / (sqrt(16) - 1), DCMIP's */
    GALE_EXTRUDE_UM_L38,    /* the UM's level sets, tables of a fixed n: L38_29t_9s_40km, */
    GALE_EXTRUDE_UM_L70_50T, /* L70_50t_20s_80km, */
    GALE_EXTRUDE_UM_L70_61T, /* L70_61t_9s_40km, */
    GALE_EXTRUDE_UM_L85     /* L85_50t_35s_85km */
} gale_extrude_t;

/* The number of layers of a level set that has a fixed one, else 0. */
int gale_extrusion_fixed_layers(gale_extrude_t method);

/* eta[0..n]: 0 at the ground, 1 at the top, increasing. GALE_ERR_INPUT when
 * the method has a fixed number of layers and n is not it. */
int gale_extrusion_eta(gale_extrude_t method, int n, double *eta);

/* The metric of the layers as spherical shells of radius r = a + z
 * (docs/nonlinear.md, "The deep atmosphere"): each factor relative to the
 * flat column (the shallow atmosphere's, where every factor is 1 and each
 * product below equals dz, g, ... exactly). Layer arrays have sc entries,
 * interface arrays si (the fields' strides); the padding is 0. */
typedef struct {
    double *dzv;  /* [sc] a layer's volume over its area at r = a: (r_t^3 - r_b^3) / (3 a^2) */
    double *dzf;  /* [sc] a side face's area over its length at r = a: (r_t^2 - r_b^2) / (2 a) */
    double *dzh;  /* [sc] dz dzf / dzv: the weak horizontal gradient's depth (dz / r-mean) */
    double *hl;   /* [sc] dzf / dzv: a layer's horizontal divergence over the flat one's */
    double *hi;   /* [si] a / r_k: an interface's horizontal divergence over the flat one's */
    double *qi;   /* [si] (r_k / a)^2: an interface's area over its area at r = a */
    double *rdzv; /* [sc] 1 / dzv */
    double *gi;   /* [si] gravity at interface k: g (a / r_k)^2, or g */
    double *rc;   /* [sc] 1 / r at layer centres (0 in the shallow atmosphere: no metric terms) */
    double *ri;   /* [si] 1 / r at interfaces (0 likewise) */
    int deep;
} gale_shell_t;

/* From the interfaces z_if[0..nl] and layer centres z_c[0..nl-1] on a
 * planet of radius a with surface gravity g; deep 0 gives the flat column's
 * factors. gale_shell_free releases them. */
int gale_shell_build(int nl, int sc, int si, const double *z_if, const double *z_c, double a,
                     double g, int deep, gale_shell_t *s);
void gale_shell_free(gale_shell_t *s);

#endif
