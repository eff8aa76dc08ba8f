/* The baroclinic wave as its reference code defines it: the initial wind
 * and potential temperature of configs/baroclinic_wave.ini against the DCMIP
 * 2016 test's formulas (Ullrich et al. 2014, the shallow atmosphere and,
 * with [dynamics] shallow = false, the deep one (the code's deep = 1), dry, the
 * stream-function perturbation with pertu0 = 0.5 m/s), written out here
 * out here from the reference code (its constants, its pi to 15 digits, its
 * order of operations: the perturbation's centred differences of 1e-5 rad
 * amplify rounding 1e5-fold), at points inside and outside the
 * perturbation; and the perturbation's peak wind, 2 pi (3 sqrt(3) / 16)
 * pertu0 = 1.02 m/s (docs/nonlinear.md, "Test cases"). */
#include "gale_cases.h"
#include "gale_test.h"

#include <math.h>

/* the reference code's constants */
static const double A = 6371220.0, RD = 287.0, G = 9.80616, CP = 1004.5, P0 = 100000.0,
                    OM = 7.29212e-5, PI = 3.14159265358979, T0E = 310.0, T0P = 240.0, BB = 2.0,
                    KK = 3.0, LAPSE = 0.005, PERTU0 = 0.5, PERTR = 1.0 / 6.0, PERTZ = 15000.0,
                    EPS = 1e-5;

static void ref_pt(int deep, double lat, double z, double *p, double *t)
{
    const double rr = deep ? (z + A) / A : 1.0;
    const double t0 = 0.5 * (T0E + T0P), ca = 1.0 / LAPSE, cb = (t0 - T0P) / (t0 * T0P);
    const double cc = 0.5 * (KK + 2.0) * (T0E - T0P) / (T0E * T0P), h = RD * t0 / G;
    const double s = z / (BB * h);
    const double tau1 = ca * LAPSE / t0 * exp(LAPSE * z / t0) + cb * (1 - 2 * s * s) * exp(-s * s);
    const double tau2 = cc * (1 - 2 * s * s) * exp(-s * s);
    const double i1 = ca * (exp(LAPSE * z / t0) - 1) + cb * z * exp(-s * s);
    const double i2 = cc * z * exp(-s * s);
    const double it = pow(rr * cos(lat), KK) - KK / (KK + 2) * pow(rr * cos(lat), KK + 2);
    *t = 1.0 / (rr * rr * (tau1 - tau2 * it));
    *p = P0 * exp(-G / RD * (i1 - i2 * it));
}

static double ref_psi(double lon, double lat, double z)
{
    const double plon = PI / 9.0, plat = 2.0 * PI / 9.0;
    const double r =
        1.0 / PERTR * acos(sin(plat) * sin(lat) + cos(plat) * cos(lat) * cos(lon - plon));
    const double taper = z < PERTZ ? 1.0 - 3.0 * (z * z) / (PERTZ * PERTZ) +
                                         2.0 * (z * z * z) / (PERTZ * PERTZ * PERTZ)
                                   : 0.0;
    const double c = r < 1.0 ? cos(0.5 * PI * r) : 0.0, c4 = (c * c) * (c * c);
    return -PERTU0 * PERTR * taper * c4;
}

/* the total wind (east, north) and theta of the reference at a point */
static void ref_point(int deep, double lon, double lat, double z, double *u, double *v,
                      double *th)
{
    double p, t;
    ref_pt(deep, lat, z, &p, &t);
    const double rr = deep ? (z + A) / A : 1.0;
    const double t0 = 0.5 * (T0E + T0P), s = z / (BB * RD * t0 / G);
    const double i2 = 0.5 * (KK + 2.0) * (T0E - T0P) / (T0E * T0P) * z * exp(-s * s);
    const double bigu =
        G / A * KK * i2 * (pow(rr * cos(lat), KK - 1) - pow(rr * cos(lat), KK + 1)) * t;
    const double rc = (deep ? z + A : A) * cos(lat), orc = OM * rc;
    *u = -orc + sqrt(orc * orc + rc * bigu);
    *u -= 1.0 / (2.0 * EPS) * (ref_psi(lon, lat + EPS, z) - ref_psi(lon, lat - EPS, z));
    *v = 1.0 / (2.0 * EPS * cos(lat)) * (ref_psi(lon + EPS, lat, z) - ref_psi(lon - EPS, lat, z));
    *th = t * pow(P0 / p, RD / CP);
}

int main(void)
{
    gale_config_t c;
    CHECK_OK(gale_config_parse(&c, GALE_SOURCE_DIR "/configs/baroclinic_wave.ini", 0, NULL));
    const double a = c.planet.radius / c.planet.scaling, d = PI / 180.0;
    CHECK(a == A, "the preset's radius %.17g is not the test's %.17g", a, A);
    /* (lon, lat) in degrees, z in m: the perturbation's centre and flanks,
     * its edge, above its cap, the jet, the other hemisphere */
    const double pts[][3] = {{20, 40, 0},     {20, 43.2, 500}, {20, 40, 5000},  {25, 42, 100},    {14, 37, 2500},
                             {20, 45, 10000}, {30, 35, 14900}, {20, 40, 15100},  {60, 40, 1000},
                             {-100, 45, 8000}, {20, -40, 3000}, {200, 10, 20000}, {0, 0, 0}};
    const int np = (int)(sizeof pts / sizeof pts[0]);
    double du_deep = 0.0; /* the deep atmosphere's largest change of u at the sample points */
    for (int deep = 0; deep < 2; deep++) {
        c.dynamics.shallow = !deep;
        int inside = 0;
        for (int i = 0; i < np; i++) {
            const double lon = pts[i][0] * d, lat = pts[i][1] * d, z = pts[i][2];
            double u, v, th, th_g, ex, ue, vn, pu, pv, us, vs, ths;
            ref_point(deep, lon, lat, z, &u, &v, &th);
            gale_case_background(&c, a, lon, lat, z, &th_g, &ex, &ue, &vn);
            gale_case_wind_perturbation(&c, lon, lat, z, &pu, &pv);
            CHECK(fabs(ue + pu - u) <= 1e-12, "deep %d point %d: u %.17g, reference %.17g", deep, i,
                  ue + pu, u);
            CHECK(fabs(vn + pv - v) <= 1e-12, "deep %d point %d: v %.17g, reference %.17g", deep, i,
                  vn + pv, v);
            CHECK_REL(th_g, th, 1e-12);
            inside += hypot(pu, pv) > 0.05;
            ref_point(0, lon, lat, z, &us, &vs, &ths);
            if (deep) du_deep = fmax(du_deep, fabs(u - us));
        }
        CHECK(inside >= 4, "only %d sample points see the perturbation", inside);
    }
    /* the deep state differs from the shallow one (up to 0.35 m/s at these
     * points): the two are not the same formula */
    printf("the deep wind differs from the shallow by up to %.3f m/s at the sample points\n", du_deep);
    CHECK(du_deep > 0.05, "the deep wind differs from the shallow by at most %.3g m/s", du_deep);
    c.dynamics.shallow = 1;
    /* the perturbation's peak at the surface, on a 0.05 degree grid around the centre */
    double peak = 0.0;
    for (double lat = 30; lat <= 50; lat += 0.05)
        for (double lon = 8; lon <= 32; lon += 0.05) {
            double pu, pv;
            gale_case_wind_perturbation(&c, lon * d, lat * d, 0.0, &pu, &pv);
            peak = fmax(peak, hypot(pu, pv));
        }
    CHECK(fabs(peak - 2 * PI * 3 * sqrt(3.0) / 16 * PERTU0) < 2e-3,
          "peak perturbation wind %.6f m/s, the test's %.6f", peak, 2 * PI * 3 * sqrt(3.0) / 16 * PERTU0);
    return gale_test_result("test_cases");
}
