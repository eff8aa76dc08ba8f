/* The tables of the nonlinear core's vector-invariant terms: gale_vecinv.h. */
#include "gale_vecinv.h"

#include "gale_base.h"

#include <math.h>
#include <stdlib.h>

void gale_east_north(const double x[3], double e[3], double n[3])
{
    const double lon = atan2(x[1], x[0]), lat = asin(fmax(-1.0, fmin(1.0, x[2])));
    e[0] = -sin(lon), e[1] = cos(lon), e[2] = 0.0;
    n[0] = -sin(lat) * cos(lon), n[1] = -sin(lat) * sin(lon), n[2] = cos(lat);
}

typedef struct { gale_gid_t gid; int local; } pair_t;

static int pair_cmp(const void *a, const void *b)
{
    gale_gid_t x = ((const pair_t *)a)->gid, y = ((const pair_t *)b)->gid;
    return x < y ? -1 : x > y;
}

static int find_local(const pair_t *p, int n, gale_gid_t g)
{
    pair_t key = {g, 0}, *hit = bsearch(&key, p, (size_t)n, sizeof key, pair_cmp);
    return hit ? hit->local : -1;
}

/* Per cell: the reconstruction U_c = G^-1 sum_s l_s d_s (sigma_s u_s), d_s
 * the tangent-plane vector from the centre to the edge's midpoint, G =
 * sum_s l_s d_s n_s^T (exact for a uniform wind whatever the cell's shape);
 * the Coriolis parameter and the deep atmosphere's cos(lat) part. Per edge:
 * its normal in both cells' bases. */
static int build_recon(const gale_cs_t *cs, const gale_local_t *lm, const double *cell_sign, int nc,
                       int ne, double om, gale_vecinv_t *s)
{
    const double R = cs->radius;
    GALE_ALLOC(s->fcor, nc);
    GALE_ALLOC(s->fcos, nc);
    GALE_ALLOC(s->enb, 6 * (size_t)nc);
    GALE_ALLOC(s->prc, 8 * (size_t)nc);
    GALE_ALLOC(s->nrm, 4 * (size_t)ne);
    GALE_ALLOC(s->tng, 4 * (size_t)ne);
    for (int c = 0; c < nc; c++) {
        double x[3], E[3], N[3], d[4][2], nn[4][2], l[4];
        gale_cs_cell_centre(cs, lm->cell_gid[c], x);
        gale_east_north(x, E, N);
        double lon, lat;
        gale_lonlat(x, &lon, &lat);
        s->fcor[c] = 2.0 * om * x[2];
        s->fcos[c] = 2.0 * om * cos(lat);
        for (int i = 0; i < 3; i++) s->enb[6 * c + i] = E[i], s->enb[6 * c + 3 + i] = N[i];
        double G[2][2] = {{0, 0}, {0, 0}};
        for (int k = 0; k < 4; k++) {
            gale_edge_geom_t eg;
            gale_cs_edge_geom(cs, lm->edge_gid[lm->cell_edge[4 * c + k]], &eg);
            const double sg = cell_sign[4 * c + k], cm = gale_dot3(eg.mid, x);
            double v[3];
            for (int i = 0; i < 3; i++) v[i] = eg.mid[i] - cm * x[i];
            const double vl = sqrt(gale_dot3(v, v)), arc = gale_arc(x, eg.mid);
            for (int i = 0; i < 3; i++) v[i] *= R * arc / vl;
            d[k][0] = gale_dot3(v, E), d[k][1] = gale_dot3(v, N);
            nn[k][0] = sg * gale_dot3(eg.normal, E), nn[k][1] = sg * gale_dot3(eg.normal, N);
            l[k] = eg.length;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) G[i][j] += l[k] * d[k][i] * nn[k][j];
        }
        const double det = G[0][0] * G[1][1] - G[0][1] * G[1][0];
        GALE_ASSERT(det > 0);
        const double Gi[2][2] = {{G[1][1] / det, -G[0][1] / det}, {-G[1][0] / det, G[0][0] / det}};
        for (int k = 0; k < 4; k++) {
            const double sg = cell_sign[4 * c + k];
            for (int i = 0; i < 2; i++)
                s->prc[8 * c + 2 * k + i] = sg * l[k] * (Gi[i][0] * d[k][0] + Gi[i][1] * d[k][1]);
        }
    }
    for (int e = 0; e < ne; e++) {
        gale_edge_geom_t eg;
        gale_cs_edge_geom(cs, lm->edge_gid[e], &eg);
        for (int j = 0; j < 2; j++) {
            const int c = lm->edge_cell[2 * e + j];
            if (c < 0) continue;
            double x[3], E[3], N[3];
            gale_cs_cell_centre(cs, lm->cell_gid[c], x);
            gale_east_north(x, E, N);
            s->nrm[4 * e + 2 * j] = gale_dot3(eg.normal, E);
            s->nrm[4 * e + 2 * j + 1] = gale_dot3(eg.normal, N);
        }
        /* the direction from the first cell's centre to the second's, in each tangent plane */
        const int c1 = lm->edge_cell[2 * e], c2 = lm->edge_cell[2 * e + 1];
        if (c1 < 0 || c2 < 0) continue;
        double x1[3], x2[3];
        gale_cs_cell_centre(cs, lm->cell_gid[c1], x1);
        gale_cs_cell_centre(cs, lm->cell_gid[c2], x2);
        for (int j = 0; j < 2; j++) {
            const double *a = j ? x2 : x1, *b = j ? x1 : x2, sg = j ? -1.0 : 1.0;
            double v[3], E[3], N[3];
            const double cm = gale_dot3(a, b);
            for (int i = 0; i < 3; i++) v[i] = b[i] - cm * a[i];
            const double vl = sqrt(gale_dot3(v, v));
            gale_east_north(a, E, N);
            s->tng[4 * e + 2 * j] = sg * gale_dot3(v, E) / vl;
            s->tng[4 * e + 2 * j + 1] = sg * gale_dot3(v, N) / vl;
        }
    }
    return GALE_OK;
}

/* Per cell (those whose corners' edges are all local): the vorticity as the
 * mean of the circulations about its four corners, each the sum over the
 * corner's edges of +-d_e U_e.t_e divided by the corner's dual area (a
 * quarter of each cell about it); U_e.t_e is the reconstructed wind along
 * the line between the edge's cell centres, the mean of the two cells'.
 * Not u_e: the normal wind is not the wind along that line on this
 * non-orthogonal grid, and its circulation is wrong at O(1) near the cube's
 * edges (docs/nonlinear.md). */
static int build_vorticity(const gale_cs_t *cs, const gale_local_t *lm, int nc, int ne, int nst,
                           gale_vecinv_t *s)
{
    GALE_ALLOC(s->vidx, 12 * (size_t)nc);
    GALE_ALLOC(s->vw, 12 * (size_t)nc);
    pair_t *ep = NULL;
    GALE_ALLOC(ep, ne);
    for (int e = 0; e < ne; e++) ep[e] = (pair_t){lm->edge_gid[e], e};
    qsort(ep, (size_t)ne, sizeof *ep, pair_cmp);
    for (int c = 0; c < nc; c++) {
        int *vi = s->vidx + 12 * c;
        double *vw = s->vw + 12 * c;
        for (int j = 0; j < 12; j++) vi[j] = lm->cell_edge[4 * c], vw[j] = 0.0;
        if (c >= nst) continue; /* never read: its corners reach outside the halo */
        const gale_gid_t g = lm->cell_gid[c];
        gale_gid_t cand[9], verts[4];
        int ncand = gale_cs_cell_vnbrs(cs, g, cand);
        cand[ncand++] = g;
        gale_cs_cell_verts(cs, g, verts);
        int n = 0;
        gale_gid_t egid[12];
        for (int v = 0; v < 4; v++) {
            double xv[3];
            gale_cs_vert_xyz(cs, verts[v], xv);
            /* the edges about the corner, each once */
            double av = 0;
            gale_gid_t seen[8];
            int nseen = 0;
            for (int i = 0; i < ncand; i++) {
                gale_gid_t cv[4], ce[4];
                gale_cs_cell_verts(cs, cand[i], cv);
                int has = 0;
                for (int j = 0; j < 4; j++) has |= cv[j] == verts[v];
                if (!has) continue;
                gale_cs_cell_edges(cs, cand[i], ce);
                for (int j = 0; j < 4; j++) {
                    gale_gid_t ev[2];
                    gale_cs_edge_verts(cs, ce[j], ev);
                    if (ev[0] != verts[v] && ev[1] != verts[v]) continue;
                    int dup = 0;
                    for (int q = 0; q < nseen; q++) dup |= seen[q] == ce[j];
                    if (!dup) seen[nseen++] = ce[j];
                }
            }
            /* the dual cell's area: the triangles of the corner and each of its
             * edges' two cell centres (a quarter of each cell's area is 40%
             * too big at the cube's corners) */
            av = 0;
            const double R = cs->radius;
            for (int q = 0; q < nseen; q++) {
                gale_gid_t ec[2];
                double x1[3], x2[3], a[3], b[3], cr[3];
                gale_cs_edge_cells(cs, seen[q], ec);
                gale_cs_cell_centre(cs, ec[0], x1);
                gale_cs_cell_centre(cs, ec[1], x2);
                for (int i = 0; i < 3; i++) a[i] = x1[i] - xv[i], b[i] = x2[i] - xv[i];
                gale_cross3(a, b, cr);
                av += 0.5 * sqrt(gale_dot3(cr, cr)) * R * R;
            }
            /* the circulation's sign: + when the normal turns counterclockwise about the corner */
            double wts[8];
            for (int q = 0; q < nseen; q++) {
                gale_edge_geom_t eg;
                gale_cs_edge_geom(cs, seen[q], &eg);
                double t[3], ccw[3];
                for (int i = 0; i < 3; i++) t[i] = eg.mid[i] - xv[i];
                gale_cross3(xv, t, ccw);
                wts[q] = (gale_dot3(eg.normal, ccw) > 0 ? 1.0 : -1.0) * eg.dist / av * 0.25;
            }
            for (int q = 0; q < nseen; q++) {
                int j = 0;
                while (j < n && egid[j] != seen[q]) j++;
                if (j == n) {
                    GALE_ASSERT(n < 12);
                    egid[n] = seen[q];
                    vw[n] = 0.0;
                    n++;
                }
                vw[j] += wts[q];
            }
        }
        /* in gid order: the same sum on every rank */
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && egid[b] < egid[b - 1]; b--) {
                gale_gid_t tg = egid[b];
                egid[b] = egid[b - 1], egid[b - 1] = tg;
                double tw = vw[b];
                vw[b] = vw[b - 1], vw[b - 1] = tw;
            }
        for (int j = 0; j < n; j++) {
            vi[j] = find_local(ep, ne, egid[j]);
            GALE_ASSERT(vi[j] >= 0);
        }
    }
    gale_free(ep);
    return GALE_OK;
}

int gale_vecinv_build(const gale_cs_t *cs, const gale_local_t *lm, const double *cell_sign, int ncell,
                      int nedge, int nstencil, double omega, gale_vecinv_t *t)
{
    GALE_CALL(build_recon(cs, lm, cell_sign, ncell, nedge, omega, t));
    return build_vorticity(cs, lm, ncell, nedge, nstencil, t);
}

void gale_vecinv_free(gale_vecinv_t *t)
{
    void *a[] = {t->fcor, t->fcos, t->enb, t->prc, t->nrm, t->tng, t->vw, t->vidx};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_free(a[i]);
}
