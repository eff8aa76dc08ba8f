/* Transport: stencils, prescribed winds, SSP-RK3 and the error norms of the
 * advection test cases. docs/transport.md derives the scheme. */
#include "gale_transport.h"

#include "gale_base.h"
#include "gale_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* DCMIP 2012 test 1-1 (Kent, Ullrich & Jablonowski) */
#define DC_TAU (12.0 * 86400.0)
#define DC_RD 287.0
#define DC_G 9.80616
#define DC_T0 300.0
#define DC_P0 100000.0
#define DC_B 0.2

/* ---- geometry ---- */


/* An orthonormal basis of the tangent plane at x, a function of x alone (so
 * every rank builds the same one for the same cell), regular at the poles. */
static void tangent_basis(const double x[3], double e1[3], double e2[3])
{
    int ax = 0;
    for (int d = 1; d < 3; d++)
        if (fabs(x[d]) < fabs(x[ax])) ax = d;
    double a[3] = {0, 0, 0};
    a[ax] = 1.0;
    double s = gale_dot3(a, x);
    for (int d = 0; d < 3; d++) e1[d] = a[d] - s * x[d];
    double n = sqrt(gale_dot3(e1, e1));
    for (int d = 0; d < 3; d++) e1[d] /= n;
    gale_cross3(x, e1, e2);
}

/* Gnomonic projection of y onto the tangent plane at xc, in metres. */
static void project(const double xc[3], const double e1[3], const double e2[3], const double y[3],
                    double radius, double d[2])
{
    double s = 1.0 / gale_dot3(y, xc), p[3];
    for (int k = 0; k < 3; k++) p[k] = y[k] * s - xc[k];
    d[0] = radius * gale_dot3(p, e1);
    d[1] = radius * gale_dot3(p, e2);
}

typedef struct { gale_gid_t gid; int local; } gid_pair_t;

static int pair_cmp(const void *a, const void *b)
{
    gale_gid_t x = ((const gid_pair_t *)a)->gid, y = ((const gid_pair_t *)b)->gid;
    return x < y ? -1 : x > y;
}

/* Face-value coefficients from a quadratic least-squares fit over the
 * vertex neighbours (q - q_c = g.d + d^T H d / 2, distances in the gnomonic
 * tangent plane, weights 1/|d|^2), for cells to depth-1, whose neighbours
 * are all local. Quadratic fields are reproduced exactly; the face value is
 * a fixed linear combination of neighbour differences, so the kernel only
 * needs the coefficients. */
static int build_stencils(gale_transport_t *t, gale_model_t *m)
{
    const gale_local_t *lm = &m->lm;
    const int nc = gale_psy_local(m->psy, GALE_LOC_CELL), nrec = gale_psy_stencil_cells(m->psy);
    const int ne = gale_psy_local(m->psy, GALE_LOC_EDGE), NB = GALE_TR_NB;
    GALE_ALLOC(t->nb, (size_t)NB * nc);
    GALE_ALLOC(t->rc, (size_t)4 * NB * nc);
    GALE_ALLOC(t->eside, 2 * (size_t)ne);
    GALE_ALLOC(t->rarea, nc);
    GALE_ALLOC(t->rdz, m->km.nlev);
    gid_pair_t *pairs = NULL;
    GALE_ALLOC(pairs, nc);
    for (int c = 0; c < nc; c++) pairs[c] = (gid_pair_t){lm->cell_gid[c], c};
    qsort(pairs, (size_t)nc, sizeof *pairs, pair_cmp);
    for (int c = 0; c < nc; c++) {
        t->rarea[c] = 1.0 / m->area[c];
        for (int n = 0; n < NB; n++) t->nb[NB * c + n] = c; /* padding: the cell itself */
    }
    for (int c = 0; c < nrec; c++) {
        gale_gid_t g = lm->cell_gid[c], vn[8];
        int nn = gale_cs_cell_vnbrs(&m->cs, g, vn);
        GALE_ASSERT(nn >= 1 && nn <= NB);
        double xc[3], e1[3], e2[3], d[8][2], wt[8];
        gale_cs_cell_centre(&m->cs, g, xc);
        tangent_basis(xc, e1, e2);
        for (int n = 0; n < nn; n++) {
            gid_pair_t key = {vn[n], 0}, *hit = bsearch(&key, pairs, (size_t)nc, sizeof key, pair_cmp);
            GALE_ASSERT(hit != NULL);
            t->nb[NB * c + n] = hit->local;
            double y[3];
            gale_cs_cell_centre(&m->cs, vn[n], y);
            project(xc, e1, e2, y, m->cs.radius, d[n]);
            wt[n] = 1.0 / (d[n][0] * d[n][0] + d[n][1] * d[n][1]);
        }
        /* quadratic least squares: q - q_c = g.d + d^T H d / 2, five unknowns */
        double A[5][5] = {{0}}, P[8][5];
        for (int n = 0; n < nn; n++) {
            double x = d[n][0], y = d[n][1];
            double b5[5] = {x, y, 0.5 * x * x, x * y, 0.5 * y * y};
            for (int i = 0; i < 5; i++) P[n][i] = b5[i];
            for (int i = 0; i < 5; i++)
                for (int j = 0; j < 5; j++) A[i][j] += wt[n] * b5[i] * b5[j];
        }
        /* invert A (symmetric positive definite) by Gauss-Jordan */
        double inv[5][5] = {{0}};
        for (int i = 0; i < 5; i++) inv[i][i] = 1.0;
        for (int i = 0; i < 5; i++) {
            double piv = A[i][i];
            GALE_ASSERT(piv > 0);
            for (int j = 0; j < 5; j++) A[i][j] /= piv, inv[i][j] /= piv;
            for (int r = 0; r < 5; r++)
                if (r != i) {
                    double f = A[r][i];
                    for (int j = 0; j < 5; j++) A[r][j] -= f * A[i][j], inv[r][j] -= f * inv[i][j];
                }
        }
        for (int s = 0; s < 4; s++) {
            gale_edge_geom_t eg;
            gale_cs_edge_geom(&m->cs, lm->edge_gid[lm->cell_edge[4 * c + s]], &eg);
            double r[2];
            project(xc, e1, e2, eg.mid, m->cs.radius, r);
            const double rb[5] = {r[0], r[1], 0.5 * r[0] * r[0], r[0] * r[1], 0.5 * r[1] * r[1]};
            for (int n = 0; n < nn; n++) {
                double v = 0;
                for (int i = 0; i < 5; i++) {
                    double coef = 0;
                    for (int j = 0; j < 5; j++) coef += inv[i][j] * P[n][j];
                    v += rb[i] * coef;
                }
                t->rc[(size_t)(4 * c + s) * NB + n] = wt[n] * v;
            }
        }
    }
    /* the transport's own copy: its kernel data is placed apart from the kmesh's */
    memcpy(t->eside, m->geom.edge_side, sizeof(int) * 2 * (size_t)ne);
    for (int k = 0; k < m->km.nlev; k++) t->rdz[k] = 1.0 / m->dz[k];
    gale_free(pairs);
    gale_ktr_t *k = &t->ktr;
    k->ncell = nc;
    k->nedge = ne;
    k->nb = t->nb;
    k->rc = t->rc;
    k->eside = t->eside;
    k->rarea = t->rarea;
    k->zc = m->z_c;
    k->zi = m->z_if;
    k->rdz = t->rdz;
    GALE_CALL(gale_ktr_init(k, &m->km));
    return GALE_OK;
}

/* ---- winds ---- */

static int t_wind = -1; /* timer of the time-dependent analytic wind (DCMIP 1-1) */

/* Per edge: midpoint lon/lat and the normal's east and north components;
 * the end vertices for the stream function. */
static int build_edge_geometry(gale_transport_t *t, gale_model_t *m)
{
    const int ne = gale_psy_local(m->psy, GALE_LOC_EDGE);
    GALE_ALLOC(t->emid_lon, ne);
    GALE_ALLOC(t->emid_lat, ne);
    GALE_ALLOC(t->en_lon, ne);
    GALE_ALLOC(t->en_lat, ne);
    GALE_ALLOC(t->ev0, 3 * (size_t)ne);
    GALE_ALLOC(t->ev1, 3 * (size_t)ne);
    for (int e = 0; e < ne; e++) {
        gale_edge_geom_t eg;
        gale_gid_t v[2];
        gale_cs_edge_geom(&m->cs, m->lm.edge_gid[e], &eg);
        gale_cs_edge_verts(&m->cs, m->lm.edge_gid[e], v);
        gale_cs_vert_xyz(&m->cs, v[0], t->ev0 + 3 * e);
        gale_cs_vert_xyz(&m->cs, v[1], t->ev1 + 3 * e);
        double lon, lat;
        gale_lonlat(eg.mid, &lon, &lat);
        t->emid_lon[e] = lon;
        t->emid_lat[e] = lat;
        const double east[3] = {-sin(lon), cos(lon), 0.0};
        const double north[3] = {-sin(lat) * cos(lon), -sin(lat) * sin(lon), cos(lat)};
        t->en_lon[e] = gale_dot3(eg.normal, east);
        t->en_lat[e] = gale_dot3(eg.normal, north);
    }
    return GALE_OK;
}

/* Solid-body rotation about the axis tilted by alpha (Williamson et al.
 * 1992): psi = -a u0 (sin(lat) cos(alpha) - cos(lon) cos(lat) sin(alpha)).
 * The flux through an edge per unit height is the difference of psi at its
 * ends, so the discrete divergence vanishes (to round-off) and a constant
 * tracer stays constant. */
static double solid_psi(const gale_transport_t *t, const double x[3])
{
    double lat = asin(fmax(-1.0, fmin(1.0, x[2]))), lon = atan2(x[1], x[0]);
    return -t->radius * t->u0 *
           (sin(lat) * cos(t->alpha) - cos(lon) * cos(lat) * sin(t->alpha));
}

static void solid_fluxes(gale_transport_t *t, gale_model_t *m, gale_field_t *f)
{
    const int ne = gale_psy_cell_edges(m->psy);
    double *fd = gale_fd(f);
    for (int e = 0; e < ne; e++) {
        gale_edge_geom_t eg;
        gale_cs_edge_geom(&m->cs, m->lm.edge_gid[e], &eg);
        /* along the edge in the direction of n x r: flux = psi(end) - psi(start) */
        double tang[3], d[3];
        gale_cross3(eg.normal, eg.mid, tang);
        for (int k = 0; k < 3; k++) d[k] = t->ev1[3 * e + k] - t->ev0[3 * e + k];
        double p0 = solid_psi(t, t->ev0 + 3 * e), p1 = solid_psi(t, t->ev1 + 3 * e);
        double flux = gale_dot3(d, tang) > 0 ? p1 - p0 : p0 - p1;
        for (int k = 0; k < f->nlev; k++) fd[(size_t)e * f->stride + k] = flux;
    }
}

/* DCMIP 2012 test 1-1 mass fluxes at time tm: rho u.n l per unit height on
 * edges (layers), rho w at interfaces. */
static void deform_fluxes(gale_transport_t *t, gale_model_t *m, double tm)
{
    const double a = t->radius, H = DC_RD * DC_T0 / DC_G, ztop = m->cfg.extrusion.top;
    const double ptop = DC_P0 * exp(-ztop / H), bp = DC_B * ptop;
    const double k0 = 10.0 * a / DC_TAU, u0 = 2.0 * GALE_PI * a / DC_TAU;
    const double om0 = 23000.0 * GALE_PI / DC_TAU;
    const double c1 = cos(GALE_PI * tm / DC_TAU), c2 = cos(2.0 * GALE_PI * tm / DC_TAU);
    const int nl = m->km.nlev, ne = gale_psy_cell_edges(m->psy);
    const int nc = gale_psy_owned(m->psy, GALE_LOC_CELL);
    double *f = gale_fd(&t->f), *w = gale_fd(&t->wflux);
    for (int e = 0; e < ne; e++) {
        const double lam = t->emid_lon[e] - 2.0 * GALE_PI * tm / DC_TAU, phi = t->emid_lat[e];
        const double sl = sin(lam), cp = cos(phi);
        const double un = k0 * sl * sl * sin(2.0 * phi) * c1 + u0 * cp;
        const double vn = k0 * sin(2.0 * lam) * cp * c1;
        const double ud = om0 * a / bp * cos(lam) * cp * cp * c2;
        const double nd = un * t->en_lon[e] + vn * t->en_lat[e], dd = ud * t->en_lon[e];
        const double l = m->elen[e];
        for (int k = 0; k < nl; k++) {
            const double p = DC_P0 * exp(-m->z_c[k] / H), rho = p / (DC_RD * DC_T0);
            const double prof = -exp((p - DC_P0) / bp) + exp((ptop - p) / bp);
            f[(size_t)e * t->f.stride + k] = rho * l * (nd + dd * prof);
        }
    }
    for (int c = 0; c < nc; c++) {
        const double lam = m->lon[c] - 2.0 * GALE_PI * tm / DC_TAU;
        const double amp = -(om0 / DC_G) * sin(lam) * cos(m->lat[c]) * c2;
        double *wc = w + (size_t)c * t->wflux.stride;
        wc[0] = wc[nl] = 0.0; /* s(p0) = s(ptop) = 0 */
        for (int k = 1; k < nl; k++) {
            const double p = DC_P0 * exp(-m->z_if[k] / H);
            const double s = 1.0 + exp((ptop - DC_P0) / bp) - exp((p - DC_P0) / bp) -
                             exp((ptop - p) / bp);
            wc[k] = amp * s;
        }
    }
}

/* ---- analytic tracers ---- */

static double cosine_bell(const gale_transport_t *t, const double x[3])
{
    /* Williamson test 1: h0 = 1000 m, R = a/3, centre (3 pi/2, 0) */
    const double xc[3] = {0.0, -1.0, 0.0};
    double r = t->radius * gale_arc(xc, x), R = t->radius / 3.0;
    return r < R ? 500.0 * (1.0 + cos(GALE_PI * r / R)) : 0.0;
}

/* x rotated back by the solid-body rotation over time tm (Rodrigues). */
static void unrotate(const gale_transport_t *t, const double x[3], double tm, double out[3])
{
    const double ax[3] = {-sin(t->alpha), 0.0, cos(t->alpha)};
    const double ang = -t->u0 / t->radius * tm, c = cos(ang), s = sin(ang);
    double kx[3], kd = gale_dot3(ax, x);
    gale_cross3(ax, x, kx);
    for (int d = 0; d < 3; d++) out[d] = x[d] * c + kx[d] * s + ax[d] * kd * (1.0 - c);
}

static double dcmip_q1(const gale_model_t *m, int c, double z)
{
    const double lon = m->lon[c], lat = m->lat[c];
    const double x[3] = {cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)};
    double q = 0;
    for (int i = 0; i < 2; i++) {
        const double l0 = (i == 0 ? 5.0 : 7.0) * GALE_PI / 6.0;
        const double xc[3] = {cos(l0), sin(l0), 0.0};
        double r = gale_arc(xc, x) / 0.5, dz = (z - 5000.0) / 1000.0;
        double d = fmin(1.0, r * r + dz * dz);
        q += 0.5 * (1.0 + cos(GALE_PI * d));
    }
    return q;
}

/* The analytic q of the transport-only cases at time tm, on owned cells. */
static void analytic(gale_transport_t *t, gale_model_t *m, double tm, double *out, int stride)
{
    const int nc = gale_psy_owned(m->psy, GALE_LOC_CELL), nl = m->km.nlev;
    for (int c = 0; c < nc; c++) {
        double x[3], x0[3];
        gale_cs_cell_centre(&m->cs, m->lm.cell_gid[c], x);
        for (int k = 0; k < nl; k++) {
            double v;
            if (m->cfg.initial.kase == GALE_CASE_COSINE_BELL) {
                unrotate(t, x, tm, x0);
                v = cosine_bell(t, x0);
            } else {
                v = dcmip_q1(m, c, m->z_c[k]); /* the flow returns it at day 12 */
            }
            out[(size_t)c * stride + k] = v;
        }
    }
}

/* ---- the stepper ---- */

static int tfield(gale_model_t *m, gale_field_t *f, const char *name, gale_loc_t loc, int layers)
{
    return gale_psy_field_create(m->psy, f, name, loc, layers, 8);
}

int gale_transport_tendency(gale_transport_t *t, gale_psy_t *psy, gale_field_t *q,
                            gale_field_t *flux, gale_field_t *wflux, gale_field_t *out)
{
    gale_field_t *fq = q->loc == GALE_LOC_IFACE ? &t->fqi : &t->fq, *wq = NULL;
    if (t->ktr.limit) { /* the limiter needs all four faces of a cell first */
        GALE_CALL(gale_psy_tr_faces(psy, &t->ktr, q, &t->qf));
        GALE_CALL(gale_psy_tr_hflux(psy, &t->ktr, flux, &t->qf, fq));
    } else {
        GALE_CALL(gale_psy_tr_eflux(psy, &t->ktr, flux, q, fq));
    }
    if (wflux) {
        GALE_CALL(gale_psy_tr_vflux(psy, &t->ktr, q, wflux, &t->wq));
        wq = &t->wq;
    }
    return gale_psy_tr_tend(psy, &t->ktr, fq, wq, out);
}

/* tend = L(x): the tracer tendency (and the density's when there is one). */
static int tendency(gale_transport_t *t, gale_model_t *m, gale_field_t *x, gale_field_t *rho,
                    gale_field_t *f, gale_field_t *tend)
{
    gale_psy_t *psy = m->psy;
    if (!rho) return gale_transport_tendency(t, psy, x, f, NULL, tend);
    /* the mixing ratio is what gets reconstructed; the air density is the same with q = 1 */
    GALE_CALL(gale_psy_tr_ratio(psy, &t->q, x, rho));
    GALE_CALL(gale_psy_tr_tend(psy, &t->ktr, f, &t->wflux, &t->trho));
    return gale_transport_tendency(t, psy, &t->q, f, &t->wflux, tend);
}

/* One SSP-RK3 step (Shu & Osher) of x (and rho) over dt from time tm. */
static int rk3(gale_transport_t *t, gale_model_t *m, gale_field_t *x, gale_field_t *rho,
               double tm, double dt)
{
    static const double a[3] = {0.0, 0.75, 1.0 / 3.0}, ts[3] = {0.0, 1.0, 0.5};
    gale_psy_t *psy = m->psy;
    gale_field_t *f = x->loc == GALE_LOC_IFACE ? &t->fi : &t->f;
    GALE_CALL(gale_psy_copy(psy, &t->s0, x));
    if (rho) GALE_CALL(gale_psy_copy(psy, &t->r0, rho));
    for (int s = 0; s < 3; s++) {
        /* weights that sum to exactly 1: with a = fl(1/3), a + fl(1 - a) is
         * 1 + 2^-54, which grew the mass by that much every step (1.5e-13
         * after 2357 steps); 1 - b is exact (Sterbenz) */
        const double b = 1.0 - a[s], aa = 1.0 - b;
        if (t->wind == GALE_WIND_DEFORM) {
            const double t0 = gale_wtime();
            deform_fluxes(t, m, tm + ts[s] * dt);
            gale_timer_add(t_wind, gale_wtime() - t0);
            GALE_CALL(gale_psy_host_wrote(psy, &t->f, 0));
            GALE_CALL(gale_psy_host_wrote(psy, &t->wflux, 0));
        }
        GALE_CALL(tendency(t, m, x, rho, f, &t->tend));
        /* x = a x0 + (1 - a) (x + dt L(x)) */
        GALE_CALL(gale_psy_axpby(psy, x, 1.0, x, dt, &t->tend));
        GALE_CALL(gale_psy_axpby(psy, x, aa, &t->s0, b, x));
        if (rho) {
            GALE_CALL(gale_psy_axpby(psy, rho, 1.0, rho, dt, &t->trho));
            GALE_CALL(gale_psy_axpby(psy, rho, aa, &t->r0, b, rho));
        }
    }
    return GALE_OK;
}

static int update_extrema(gale_transport_t *t, gale_model_t *m)
{
    gale_field_t *q = t->has_rho ? &t->q : &t->m;
    if (t->has_rho) GALE_CALL(gale_psy_tr_ratio(m->psy, q, &t->m, &t->rho));
    double mn, mx;
    GALE_CALL(gale_psy_range(m->psy, q, &mn, &mx));
    t->qmin = fmin(t->qmin, mn);
    t->qmax = fmax(t->qmax, mx);
    return GALE_OK;
}

int gale_transport_step(gale_transport_t *t, gale_model_t *m, double t0, double dt)
{
    const double h = dt / t->nsub;
    for (int i = 0; i < t->nsub; i++) {
        const double tm = t0 + i * h;
        if (m->cfg.initial.kase == GALE_CASE_GRAVITY_WAVE_ADVECTED) {
            /* the slow part: the background flow carries p, b and w */
            GALE_CALL(rk3(t, m, &m->p, NULL, tm, h));
            GALE_CALL(rk3(t, m, &m->b, NULL, tm, h));
            GALE_CALL(rk3(t, m, &m->w, NULL, tm, h));
        } else {
            GALE_CALL(rk3(t, m, &t->m, t->has_rho ? &t->rho : NULL, tm, h));
        }
    }
    if (m->cfg.initial.kase != GALE_CASE_GRAVITY_WAVE_ADVECTED) GALE_CALL(update_extrema(t, m));
    return GALE_OK;
}

int gale_transport_mass(gale_transport_t *t, gale_model_t *m, double *mass)
{
    gale_psy_sum_t sum;
    gale_psy_sum_init(&sum);
    GALE_CALL(gale_psy_to_host(&t->m));
    gale_psy_sum_dot(&sum, &t->m, &t->one, m->area, m->dz);
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, mass));
    return GALE_OK;
}

int gale_transport_checksum(gale_transport_t *t, gale_model_t *m, double *sum)
{
    gale_psy_sum_t s;
    gale_psy_sum_init(&s);
    GALE_CALL(gale_psy_to_host(&t->m));
    gale_psy_sum_dot(&s, &t->m, &t->m, NULL, NULL);
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &s, sum));
    return GALE_OK;
}

int gale_transport_norms(gale_transport_t *t, gale_model_t *m, double tm, double norms[3])
{
    const int c0 = gale_psy_owned(m->psy, GALE_LOC_CELL), nl = m->km.nlev, st = m->km.sc;
    gale_field_t *q = t->has_rho ? &t->q : &t->m;
    if (t->has_rho) GALE_CALL(gale_psy_tr_ratio(m->psy, q, &t->m, &t->rho));
    GALE_CALL(gale_psy_to_host(q));
    double *qt = gale_fd(&t->q0), *qv = gale_fd(q);
    analytic(t, m, tm, qt, st);
    /* I|q - qT|, I|qT|, I(q - qT)^2, I qT^2 with I the volume integral */
    gale_psy_sum_t sum;
    gale_psy_sum_init(&sum);
    gale_rsum_t *acc[4];
    for (int i = 0; i < 4; i++) acc[i] = gale_psy_sum_term(&sum);
    double emax = 0, tmax = 0;
    for (int c = 0; c < c0; c++)
        for (int k = 0; k < nl; k++) {
            const double v = m->area[c] * m->dz[k], a = qv[(size_t)c * st + k], b = qt[(size_t)c * st + k];
            gale_rsum_add(acc[0], v * fabs(a - b));
            gale_rsum_add(acc[1], v * fabs(b));
            gale_rsum_add(acc[2], v * (a - b) * (a - b));
            gale_rsum_add(acc[3], v * b * b);
            emax = fmax(emax, fabs(a - b));
            tmax = fmax(tmax, fabs(b));
        }
    double s[4], mx[2] = {emax, tmax};
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, s));
    GALE_CALL(gale_psy_max(m->psy, 2, mx));
    norms[0] = s[0] / s[1];
    norms[1] = sqrt(s[2]) / sqrt(s[3]);
    norms[2] = mx[0] / mx[1];
    return GALE_OK;
}

/* The fastest outflow rate [1/s] of any owned cell at time 0, over all ranks. */
int gale_transport_dt(gale_transport_t *t, gale_model_t *m, double cfl, double seconds,
                      double *dt, int *steps)
{
    const gale_local_t *lm = &m->lm;
    const int nl = t->f.nlev, nc = gale_psy_owned(m->psy, GALE_LOC_CELL);
    if (t->wind == GALE_WIND_DEFORM) deform_fluxes(t, m, 0.0);
    const double *f = gale_fd(&t->f), *w = gale_fd(&t->wflux);
    double rate = 0;
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < nl; k++) {
            double out = 0, mass = 1.0;
            for (int s = 0; s < 4; s++) {
                double fl = m->cell_sign[4 * c + s] * f[(size_t)lm->cell_edge[4 * c + s] * t->f.stride + k];
                out += fl > 0 ? fl : 0;
            }
            out *= t->rarea[c];
            if (t->has_rho) {
                const double *wc = w + (size_t)c * t->wflux.stride;
                mass = gale_fd(&t->rho)[(size_t)c * t->rho.stride + k];
                out += (fmax(wc[k + 1], 0.0) + fmax(-wc[k], 0.0)) * t->rdz[k];
            }
            rate = fmax(rate, out / mass);
        }
    GALE_CALL(gale_psy_max(m->psy, 1, &rate));
    if (!(rate > 0)) GALE_ERROR(GALE_ERR_INPUT, "transport: the wind is zero everywhere");
    double h = cfl / rate;
    *steps = seconds > 0 ? (int)ceil(seconds / h) : 1;
    *dt = seconds > 0 ? seconds / *steps : h;
    return GALE_OK;
}

int gale_transport_stencils(gale_transport_t *t, gale_model_t *m, int limit,
                            const gale_shell_t *shell)
{
    memset(t, 0, sizeof *t);
    t->ktr.limit = limit;
    if (shell && shell->deep) { /* the flux divergences of shells (gale_ktransport.h) */
        t->ktr.hl = shell->hl, t->ktr.hi = shell->hi, t->ktr.qi = shell->qi;
        t->ktr.rdzv = shell->rdzv;
    }
    const int nl = m->km.nlev;
    if (m->lm.depth < 2) GALE_ERROR(GALE_ERR_INTERNAL, "transport needs a halo of depth 2");
    if (m->cs.n < 2) /* C1 cells have 4 neighbours: too few for a quadratic fit */
        GALE_ERROR(GALE_ERR_INPUT, "case %s needs a mesh of at least C2 (got C%d)",
                   gale_config_choice("initial", "case", m->cfg.initial.kase), m->cs.n);
    GALE_CALL(build_stencils(t, m));
    GALE_CALL(tfield(m, &t->fq, "tr_fq", GALE_LOC_EDGE, nl));
    GALE_CALL(tfield(m, &t->fqi, "tr_fqi", GALE_LOC_EDGE, nl + 1));
    GALE_CALL(tfield(m, &t->wq, "tr_wq", GALE_LOC_IFACE, nl));
    /* four faces per column, of either shape: a cell field of 4 si levels;
     * only the limiter stores them (unlimited, tr_eflux makes them on the fly) */
    if (limit) GALE_CALL(tfield(m, &t->qf, "tr_facevals", GALE_LOC_CELL, 4 * m->km.si));
    return GALE_OK;
}

int gale_transport_setup(gale_transport_t *t, gale_model_t *m)
{
    GALE_CALL(gale_transport_stencils(t, m, 1, NULL));
    const gale_config_t *cfg = &m->cfg;
    const int kase = cfg->initial.kase, nl = m->km.nlev, c0 = gale_psy_owned(m->psy, GALE_LOC_CELL);
    t->radius = m->cs.radius;
    t->alpha = cfg->transport.alpha;
    t->wind = kase == GALE_CASE_DEFORMATIONAL ? GALE_WIND_DEFORM : GALE_WIND_SOLID;
    t->has_rho = kase == GALE_CASE_DEFORMATIONAL;
    /* the analytic wind of every stage is computed on the host: its own
     * timer, or it would be the report's unexplained rest */
    if (t->wind == GALE_WIND_DEFORM && t_wind < 0) t_wind = gale_timer_register("tr_wind", GALE_T_COMPUTE);
    t->u0 = cfg->transport.u0 > 0 ? cfg->transport.u0
            : kase == GALE_CASE_COSINE_BELL ? 2.0 * GALE_PI * t->radius / (12.0 * 86400.0)
                                            : 20.0;
    GALE_CALL(build_edge_geometry(t, m));
    GALE_CALL(tfield(m, &t->q, "tr_q", GALE_LOC_CELL, nl));
    GALE_CALL(tfield(m, &t->m, "tr_m", GALE_LOC_CELL, nl));
    GALE_CALL(tfield(m, &t->one, "tr_one", GALE_LOC_CELL, nl));
    GALE_CALL(tfield(m, &t->rho, "tr_rho", GALE_LOC_CELL, nl));
    GALE_CALL(tfield(m, &t->q0, "tr_q0", GALE_LOC_CELL, nl));
    GALE_CALL(tfield(m, &t->f, "tr_flux", GALE_LOC_EDGE, nl));
    GALE_CALL(tfield(m, &t->fi, "tr_fluxi", GALE_LOC_EDGE, nl + 1));
    GALE_CALL(tfield(m, &t->wflux, "tr_w", GALE_LOC_IFACE, nl));
    GALE_CALL(tfield(m, &t->tend, "tr_tend", GALE_LOC_IFACE, nl));
    GALE_CALL(tfield(m, &t->trho, "tr_trho", GALE_LOC_CELL, nl));
    GALE_CALL(tfield(m, &t->s0, "tr_s0", GALE_LOC_IFACE, nl));
    GALE_CALL(tfield(m, &t->r0, "tr_r0", GALE_LOC_CELL, nl));
    if (t->wind == GALE_WIND_SOLID) {
        solid_fluxes(t, m, &t->f);
        solid_fluxes(t, m, &t->fi);
    }
    /* initial tracer on owned cells (the gravity-wave fields are the model's) */
    double *one = gale_fd(&t->one), *mm = gale_fd(&t->m), *rho = gale_fd(&t->rho);
    for (int c = 0; c < c0; c++)
        for (int k = 0; k < nl; k++) one[(size_t)c * m->km.sc + k] = 1.0;
    if (kase != GALE_CASE_GRAVITY_WAVE_ADVECTED) {
        analytic(t, m, 0.0, mm, m->km.sc);
        if (t->has_rho) {
            const double H = DC_RD * DC_T0 / DC_G;
            for (int c = 0; c < c0; c++)
                for (int k = 0; k < nl; k++) {
                    const size_t i = (size_t)c * m->km.sc + k;
                    rho[i] = DC_P0 * exp(-m->z_c[k] / H) / (DC_RD * DC_T0);
                    mm[i] *= rho[i];
                }
        }
    }
    gale_field_t *all[] = {&t->m, &t->rho, &t->one, &t->f, &t->fi, &t->wflux};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) GALE_CALL(gale_psy_host_wrote(m->psy, all[i], 0));
    t->qmin = INFINITY;
    t->qmax = -INFINITY;
    if (kase != GALE_CASE_GRAVITY_WAVE_ADVECTED) {
        GALE_CALL(update_extrema(t, m));
        t->qmin0 = t->qmin;
        t->qmax0 = t->qmax;
        GALE_CALL(gale_transport_mass(t, m, &t->mass0));
    }
    return GALE_OK;
}

void gale_transport_free(gale_transport_t *t)
{
    gale_field_t *f[] = {&t->q, &t->m, &t->one, &t->rho, &t->q0, &t->f, &t->fi, &t->fq, &t->fqi,
                         &t->wflux, &t->wq, &t->tend, &t->trho, &t->s0, &t->r0, &t->qf};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i]->data) gale_psy_field_free(f[i]); /* the stencils' users create only some */
    void *a[] = {t->nb, t->rc, t->eside, t->rarea, t->rdz, t->emid_lon, t->emid_lat,
                 t->en_lon, t->en_lat, t->ev0, t->ev1};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_free(a[i]);
    gale_ktr_finalize(&t->ktr);
}
