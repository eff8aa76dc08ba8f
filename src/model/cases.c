/* The test cases' analytic states (docs/nonlinear.md, "Cases") and
 * the initial state sampled from them. */
#include "gale_cases.h"

#include "gale_base.h"
#include "gale_mesh.h"
#include "gale_model.h"
#include "gale_nonlinear.h"
#include "gale_vecinv.h"

#include <math.h>

/* The balanced background of the case at (lon, lat, z): theta, Exner, and
 * the wind (east, north). */
void gale_case_background(const gale_config_t *cfg, double a, double lon, double lat, double z,
                          double *th, double *ex, double *ue, double *vn)
{
    const double g = cfg->planet.gravity, cp = cfg->planet.cp, rd = cfg->planet.rd;
    const double kap = rd / cp, om = cfg->planet.omega;
    *ue = *vn = 0.0;
    switch (cfg->initial.kase) {
    case GALE_CASE_RESTING:
    case GALE_CASE_NORMAL_MODE: /* the resting atmosphere, perturbed by gale_case_initial_state */
        if (cfg->initial.profile == GALE_PROFILE_ISOTHERMAL) {
            const double T0 = cfg->initial.theta0;
            *ex = exp(-g * z / (cp * T0));
            *th = T0 / *ex;
        } else {
            const double n2 = cfg->physics.bvf_square, ts = cfg->initial.theta0;
            *th = ts * exp(n2 * z / g);
            *ex = 1.0 + g * g / (cp * ts * n2) * (exp(-n2 * z / g) - 1.0);
        }
        break;
    case GALE_CASE_DCMIP31: {
        /* DCMIP 2012 test 3-1: T_eq = 300 K, p_eq = 1000 hPa at the equator */
        const double n2 = cfg->physics.bvf_square, u0 = cfg->initial.u0, teq = 300.0, peq = 1.0e5;
        const double G = g * g / (n2 * cp), c2l = cos(2.0 * lat) - 1.0, w2 = u0 + 2.0 * om * a;
        const double ts = G + (teq - G) * exp(-(u0 * n2 / (4.0 * g * g)) * w2 * c2l);
        const double ps = peq * exp(u0 / (4.0 * G * rd) * w2 * c2l) * pow(ts / teq, cp / rd);
        const double p = ps * pow(G / ts * exp(-n2 * z / g) + 1.0 - G / ts, cp / rd);
        *ex = pow(p / cfg->planet.p_zero, kap);
        *th = ts * pow(cfg->planet.p_zero / ps, kap) * exp(n2 * z / g);
        *ue = u0 * cos(lat);
        break;
    }
    case GALE_CASE_BAROCLINIC_WAVE: {
        /* Ullrich et al. (2014), the shallow atmosphere or, with [dynamics]
         * shallow = false, the deep one: r/a where the shallow has 1, the
         * radius a + z (docs/nonlinear.md) */
        const double te = 310.0, tp = 240.0, lapse = 0.005, kk = 3.0, bb = 2.0;
        const double t0 = 0.5 * (te + tp), A = 1.0 / lapse, B = (t0 - tp) / (t0 * tp);
        const double C = 0.5 * (kk + 2.0) * (te - tp) / (te * tp), H = rd * t0 / g;
        const double sz = z / (bb * H), ez = exp(-sz * sz);
        const double tau1 = A * lapse / t0 * exp(lapse * z / t0) + B * (1.0 - 2.0 * sz * sz) * ez;
        const double tau2 = C * (1.0 - 2.0 * sz * sz) * ez;
        const double it1 = A * (exp(lapse * z / t0) - 1.0) + B * z * ez, it2 = C * z * ez;
        const int deep = !cfg->dynamics.shallow;
        const double rr = deep ? (a + z) / a : 1.0, rad = deep ? a + z : a, cl = cos(lat);
        const double rc = rr * cl, ft = pow(rc, kk) - kk / (kk + 2.0) * pow(rc, kk + 2.0);
        const double T = deep ? 1.0 / (rr * rr * (tau1 - tau2 * ft)) : 1.0 / (tau1 - tau2 * ft);
        const double p = cfg->planet.p_zero * exp(-g / rd * (it1 - it2 * ft));
        *ex = pow(p / cfg->planet.p_zero, kap);
        *th = T / *ex;
        const double bigu = g / a * kk * it2 * (pow(rc, kk - 1.0) - pow(rc, kk + 1.0)) * T;
        const double orc = om * rad * cl;
        *ue = -orc + sqrt(orc * orc + rad * cl * bigu);
        break;
    }
    default: *th = 300.0, *ex = 1.0; break;
    }
}

/* The baroclinic wave's stream-function perturbation (Ullrich et al. 2014;
 * DCMIP 2016's baroclinic_wave_test): psi = -u_p d0 Z(z) cos^4(pi d / (2 d0)),
 * d the great-circle distance to (20 E, 40 N) in radians, d0 = 1/6,
 * Z = 1 - 3 z^2/zp^2 + 2 z^3/zp^3 below zp = 15 km; u' = -dpsi/dlat,
 * v' = dpsi/dlon / cos(lat) by centred differences of 1e-5 rad. The
 * differences amplify rounding 1e5-fold (and acos near the centre more), so
 * this follows the reference code's constants (its pi to 15 digits) and
 * order of operations: the wind then equals the reference's to 1e-12
 * (test_cases), not only to the differences' 1e-9 truncation error. */
static double bw_psi(double up, double lon, double lat, double z)
{
    const double pi = 3.14159265358979, plon = pi / 9.0, plat = 2.0 * pi / 9.0;
    const double d0 = 1.0 / 6.0, zp = 15000.0;
    if (!(z < zp)) return 0.0;
    const double x = sin(plat) * sin(lat) + cos(plat) * cos(lat) * cos(lon - plon);
    const double r = 1.0 / d0 * acos(fmax(-1.0, fmin(1.0, x)));
    if (!(r < 1.0)) return 0.0;
    const double zt = 1.0 - 3.0 * (z * z) / (zp * zp) + 2.0 * (z * z * z) / (zp * zp * zp);
    const double c = cos(0.5 * pi * r), c2 = c * c;
    return -up * d0 * zt * (c2 * c2);
}

void gale_case_wind_perturbation(const gale_config_t *cfg, double lon, double lat, double z,
                                 double *ue, double *vn)
{
    const double up = cfg->initial.perturbation, h = 1e-5;
    *ue = *vn = 0.0;
    if (cfg->initial.kase != GALE_CASE_BAROCLINIC_WAVE || up == 0.0) return;
    *ue = -(1.0 / (2.0 * h) * (bw_psi(up, lon, lat + h, z) - bw_psi(up, lon, lat - h, z)));
    *vn = 1.0 / (2.0 * h * cos(lat)) * (bw_psi(up, lon + h, lat, z) - bw_psi(up, lon - h, lat, z));
}

double gale_case_mode_m(const gale_config_t *cfg)
{
    return cfg->initial.vertical_wavenumber * GALE_PI / cfg->extrusion.top;
}

double gale_case_sph_harm(int l, double lat)
{
    double s = sin(lat);
    return l == 1 ? s : 0.5 * (3.0 * s * s - 1.0);
}

void gale_case_normal_mode(const gale_config_t *cfg, double c2, double n2, double a, int deep,
                           double lat, double z, double *p, double *b)
{
    const double amp = cfg->initial.amplitude;
    *p = *b = 0.0;
    if (cfg->initial.mode == GALE_MODE_HORIZONTAL) { /* uniform in height */
        *p = amp * gale_case_sph_harm(cfg->initial.degree, lat);
        return;
    }
    /* standing mode w = 0, p = P cos(mz), b = B sin(mz) with the continuous
     * ratio B = N^2 P/(c^2 m); w then oscillates as sin(omega t). Deep: w =
     * (a/r) sin(mz) sin(omega t), and p, b from its divergence and N^2 w */
    const double mm = gale_case_mode_m(cfg), bb = n2 * amp / (c2 * mm);
    if (!deep) {
        *p = amp * cos(mm * z);
        *b = bb * sin(mm * z);
        return;
    }
    const double r = a + z, q = a / r;
    *p = amp * q * (cos(mm * z) + sin(mm * z) / (mm * r));
    *b = bb * q * sin(mm * z);
}

/* dcmip31's potential temperature perturbation (the linear core's). */
static double theta_perturbation(const gale_config_t *cfg, double a, double lon, double lat,
                                 double z)
{
    if (cfg->initial.kase != GALE_CASE_DCMIP31) return 0.0;
    const double lonc = cfg->initial.centre_lon * GALE_PI / 180.0;
    const double latc = cfg->initial.centre_lat * GALE_PI / 180.0;
    const double xc[3] = {cos(latc) * cos(lonc), cos(latc) * sin(lonc), sin(latc)};
    const double x[3] = {cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)};
    const double d = cfg->initial.half_width, r = a * gale_arc(xc, x);
    return cfg->initial.dtheta * d * d / (d * d + r * r) *
           sin(2.0 * GALE_PI * z / cfg->initial.vertical_wavelength);
}

/* Every local column: theta at interfaces (background + perturbation), Pi
 * of the background in discrete hydrostatic balance (with the interfaces'
 * gravity, less in the deep atmosphere the lift of the background's wind
 * that nl_dvf applies) from the lowest layer's
 * analytic value, rho from the equation of state with the perturbed theta
 * (DCMIP: the pressure is not perturbed), u the normal wind on edges.
 * normal_mode perturbs the resting state by the linear core's mode, p =
 * cp theta* Pi' and b = g theta' / theta* (docs/nonlinear.md, "The linear
 * system about the reference state"), with its reference c^2 and N^2. */
int gale_case_initial_state(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    const gale_config_t *cfg = &m->cfg;
    const int nc = gale_psy_local(m->psy, GALE_LOC_CELL), ne = gale_psy_local(m->psy, GALE_LOC_EDGE);
    const int nl = m->km.nlev, sc = m->km.sc, si = m->km.si;
    const double cp = cfg->planet.cp, rd = cfg->planet.rd, *gi = s->shell.gi; /* g, or g(r) */
    const double p0 = cfg->planet.p_zero, kap = s->k.kap;
    double *th = gale_fd(&m->b), *pi = gale_fd(&m->p), *rho = gale_fd(&s->rho), *u = gale_fd(&m->u);
    double *thb = NULL;
    GALE_ALLOC(thb, nl + 1);
    if (cfg->initial.kase == GALE_CASE_NORMAL_MODE) GALE_ALLOC(s->mode_ref, 2 * nl);
    for (int c = 0; c < nc; c++) {
        const double lon = m->lon[c], lat = m->lat[c];
        double *tc = th + (size_t)c * si, *pc = pi + (size_t)c * sc, *rc = rho + (size_t)c * sc;
        double ex, ue, vn;
        for (int k = 0; k <= nl; k++) {
            gale_case_background(cfg, m->cs.radius, lon, lat, m->z_if[k], &thb[k], &ex, &ue, &vn);
            tc[k] = thb[k] + theta_perturbation(cfg, m->cs.radius, lon, lat, m->z_if[k]);
        }
        if (cfg->initial.kase == GALE_CASE_NORMAL_MODE)
            for (int k = 1; k < nl; k++) {
                double pm, bm;
                gale_case_normal_mode(cfg, m->km.c2, m->km.n2, m->cs.radius, s->deep, lat,
                                      m->z_if[k], &pm, &bm);
                tc[k] += thb[k] * bm / cfg->planet.gravity;
            }
        double t0, ulo;
        gale_case_background(cfg, m->cs.radius, lon, lat, m->z_c[0], &t0, &pc[0], &ulo, &vn);
        for (int k = 1; k < nl; k++) {
            double g = gi[k];
            if (s->deep) { /* the deep forcing's balance (nl_dvf): g less the wind's lift */
                double up, pk;
                gale_case_background(cfg, m->cs.radius, lon, lat, m->z_c[k], &t0, &pk, &up, &vn);
                const double ui = 0.5 * (ulo + up);
                g -= gale_knl_deep_lift(s->geo.fcos[c], ui, 0.0, s->shell.ri[k]);
                ulo = up;
            }
            pc[k] = pc[k - 1] - g * m->dzi[k] / (cp * thb[k]);
        }
        if (cfg->initial.kase == GALE_CASE_NORMAL_MODE) /* after the balance: Pi' is no part of it */
            for (int k = 0; k < nl; k++) {
                double pm, bm, cth = cp * (0.5 * (thb[k] + thb[k + 1]));
                gale_case_normal_mode(cfg, m->km.c2, m->km.n2, m->cs.radius, s->deep, lat,
                                      m->z_c[k], &pm, &bm);
                /* the resting state is the same in every column: the probe's reference */
                s->mode_ref[k] = pc[k], s->mode_ref[nl + k] = cth;
                pc[k] += pm / cth;
            }
        for (int k = 0; k < nl; k++)
            rc[k] = p0 * pow(pc[k], 1.0 / kap) / (rd * (0.5 * (tc[k] + tc[k + 1])));
    }
    gale_free(thb);
    for (int e = 0; e < ne; e++) {
        gale_edge_geom_t eg;
        gale_cs_edge_geom(&m->cs, m->lm.edge_gid[e], &eg);
        double E[3], N[3], lon, lat;
        gale_east_north(eg.mid, E, N);
        gale_lonlat(eg.mid, &lon, &lat);
        const double ne_ = gale_dot3(eg.normal, E), nn = gale_dot3(eg.normal, N);
        for (int k = 0; k < nl; k++) {
            double t, ex, ue, vn, pu, pv;
            gale_case_background(cfg, m->cs.radius, lon, lat, m->z_c[k], &t, &ex, &ue, &vn);
            gale_case_wind_perturbation(cfg, lon, lat, m->z_c[k], &pu, &pv);
            u[(size_t)e * sc + k] = (ue + pu) * ne_ + (vn + pv) * nn;
        }
    }
    gale_field_t *f[4] = {&m->u, &m->b, &m->p, &s->rho};
    for (int i = 0; i < 4; i++) GALE_CALL(gale_psy_host_wrote(m->psy, f[i], 1));
    GALE_CALL(gale_psy_host_wrote(m->psy, &m->w, 1)); /* zero */
    /* Pi from the equation of state, as every step leaves it */
    return gale_psy_nl_eos(m->psy, &s->k, &s->rho, &m->b, &m->p);
}
