/* The vertical extrusion: layer interfaces as a fraction eta of the model
 * top, LFRic's defined spacings (docs/numerics.md, "The vertical grid"). */
#ifndef GALE_EXTRUSION_H
#define GALE_EXTRUSION_H

typedef enum {
    GALE_EXTRUDE_UNIFORM,   /* eta_k = k / n */
    GALE_EXTRUDE_QUADRATIC, /* (k / n)^2: thin layers near the ground */
    GALE_EXTRUDE_GEOMETRIC, /* each layer 1.03 times the one below */
    GALE_EXTRUDE_DCMIP,     /* (sqrt(15 (k/n)^2 + 1) - 1) / (sqrt(16) - 1), DCMIP's */
    GALE_EXTRUDE_UM_L38     /* the UM's 38-level set L38_29t_9s_40km (n = 38 only) */
} gale_extrude_t;

/* eta[0..n]: 0 at the ground, 1 at the top, increasing. GALE_ERR_INPUT when
 * the method has a fixed number of layers and n is not it. */
int gale_extrusion_eta(gale_extrude_t method, int n, double *eta);

#endif
