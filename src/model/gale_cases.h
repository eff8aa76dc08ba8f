/* The test cases' analytic states (docs/nonlinear.md, "Cases"): point
 * functions of (lon, lat, z) that the tests compare with the cases'
 * reference code, and their sampling onto the nonlinear core's grid. */
#ifndef GALE_CASES_H
#define GALE_CASES_H

#include "gale_config.h"

/* The case's balanced background at (lon, lat) [rad], height z [m] on a
 * sphere of radius a [m]: potential temperature, Exner pressure, and the
 * wind's east and north components [m/s]. */
void gale_case_background(const gale_config_t *cfg, double a, double lon, double lat, double z,
                          double *th, double *ex, double *ue, double *vn);

/* baroclinic_wave: the stream-function perturbation's wind (east, north)
 * with amplitude [initial] perturbation (DCMIP 2016's pertu0); 0 elsewhere. */
void gale_case_wind_perturbation(const gale_config_t *cfg, double lon, double lat, double z,
                                 double *ue, double *vn);

/* normal_mode (docs/numerics.md, "Test cases"): the vertical wavenumber
 * m = j pi / top, the zonal harmonic Y_l^0(lat) (l = 1, 2), and the mode's
 * pressure p [m2 s-2] at height z [m] and buoyancy b [m s-2] at interface
 * height z, at rest, for the linear core's c^2 and N^2 on a sphere of
 * radius a, in flat columns or (deep) spherical shells: the vertical mode's
 * deep shape has r w = sin(m z) (docs/numerics.md, "The deep atmosphere"). */
double gale_case_mode_m(const gale_config_t *cfg);
double gale_case_sph_harm(int l, double lat);
void gale_case_normal_mode(const gale_config_t *cfg, double c2, double n2, double a, int deep,
                           double lat, double z, double *p, double *b);

/* Collective, from gale_nl_setup: the case's initial state on every local
 * column (u, w, theta, rho; Pi from the equation of state). */
struct gale_model;
int gale_case_initial_state(struct gale_model *m);

#endif
