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

/* Collective, from gale_nl_setup: the case's initial state on every local
 * column (u, w, theta, rho; Pi from the equation of state). */
struct gale_model;
int gale_case_initial_state(struct gale_model *m);

#endif
