/* Closed-form equiangular gnomonic cubed sphere. See gale_mesh.h. */
#include "gale_mesh.h"

#include "gale_base.h"

#include <math.h>
#include <string.h>

/* Panel frames: the point (X, Y) on panel p is n + X e1 + Y e2 on the cube
 * [-1,1]^3, with e1 x e2 = n (i grows along e1, j along e2). Panels 0-3 go
 * round the equator, 4 is north, 5 south. {axis, sign} pairs. */
static const int frame[6][3][2] = {
    {{0, +1}, {1, +1}, {2, +1}},
    {{1, +1}, {0, -1}, {2, +1}},
    {{0, -1}, {1, -1}, {2, +1}},
    {{1, -1}, {0, +1}, {2, +1}},
    {{2, +1}, {1, +1}, {0, -1}},
    {{2, -1}, {1, +1}, {0, +1}},
};

/* tan of the equiangular coordinate of lattice point q out of m:
 * tan((2q - m) pi / (4m)), exactly +-1 at the cube edges and exactly odd,
 * so that the mesh is bitwise symmetric. */
static double tanfrac(long q, long m)
{
    if (2 * q > m) return -tanfrac(m - q, m);
    if (2 * q == m) return 0.0;
    if (q == 0) return -1.0;
    return tan((double)(2 * q - m) * (GALE_PI / (4.0 * (double)m)));
}

static void normalise(double x[3])
{
    double r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    x[0] /= r;
    x[1] /= r;
    x[2] /= r;
}

double gale_arc(const double a[3], const double b[3])
{
    double c[3];
    gale_cross3(a, b, c);
    return atan2(sqrt(gale_dot3(c, c)), gale_dot3(a, b));
}

void gale_lonlat(const double x[3], double *lon, double *lat)
{
    double l = atan2(x[1], x[0]);
    if (l < 0) l += 2 * GALE_PI;
    *lon = l;
    *lat = atan2(x[2], hypot(x[0], x[1]));
}

/* ---- vertices: lattice points of [0,N]^3 on the cube surface ---- */

/* Lattice point of panel-corner (i, j), 0 <= i, j <= N. */
static void corner_lattice(int n, int p, int i, int j, long L[3])
{
    L[frame[p][0][0]] = frame[p][0][1] > 0 ? n : 0;
    L[frame[p][1][0]] = frame[p][1][1] > 0 ? i : n - i;
    L[frame[p][2][0]] = frame[p][2][1] > 0 ? j : n - j;
}

static gale_gid_t lattice_id(long n, const long L[3])
{
    long a = L[0], b = L[1], c = L[2];
    gale_gid_t face = (gale_gid_t)(n + 1) * (n + 1);
    if (a == 0) return (gale_gid_t)b * (n + 1) + c;
    if (a == n) return face + (gale_gid_t)(n - 1) * 4 * n + (gale_gid_t)b * (n + 1) + c;
    long ring;
    if (c == 0 && b < n) ring = b;
    else if (b == n && c < n) ring = n + c;
    else if (c == n && b > 0) ring = 2 * n + (n - b);
    else ring = 3 * n + (n - c); /* b == 0 && c > 0 */
    return face + (gale_gid_t)(a - 1) * 4 * n + ring;
}

static void lattice_of_id(long n, gale_gid_t v, long L[3])
{
    gale_gid_t face = (gale_gid_t)(n + 1) * (n + 1);
    if (v < face) {
        L[0] = 0, L[1] = (long)(v / (n + 1)), L[2] = (long)(v % (n + 1));
        return;
    }
    v -= face;
    if (v >= (gale_gid_t)(n - 1) * 4 * n) {
        v -= (gale_gid_t)(n - 1) * 4 * n;
        L[0] = n, L[1] = (long)(v / (n + 1)), L[2] = (long)(v % (n + 1));
        return;
    }
    L[0] = (long)(v / (4 * n)) + 1;
    long r = (long)(v % (4 * n)), seg = r / n, o = r % n;
    switch (seg) {
    case 0: L[1] = o, L[2] = 0; break;
    case 1: L[1] = n, L[2] = o; break;
    case 2: L[1] = n - o, L[2] = n; break;
    default: L[1] = 0, L[2] = n - o; break;
    }
}

static gale_gid_t corner_id(const gale_cs_t *cs, int p, int i, int j)
{
    long L[3];
    corner_lattice(cs->n, p, i, j, L);
    return lattice_id(cs->n, L);
}

void gale_cs_vert_xyz(const gale_cs_t *cs, gale_gid_t v, double x[3])
{
    long L[3];
    lattice_of_id(cs->n, v, L);
    for (int d = 0; d < 3; d++) x[d] = tanfrac(L[d], cs->n);
    normalise(x);
}

/* ---- panel connectivity ---- */

/* Corners at the t = 0 and t = N ends of side s (W, E run along j; S, N along i). */
static void side_corners(const gale_cs_t *cs, int p, int s, gale_gid_t *a, gale_gid_t *b)
{
    int n = cs->n;
    static const int c0[4][2] = {{0, 0}, {0, 0}, {1, 0}, {0, 1}};
    static const int c1[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, 1}};
    *a = corner_id(cs, p, c0[s][0] * n, c0[s][1] * n);
    *b = corner_id(cs, p, c1[s][0] * n, c1[s][1] * n);
}

int gale_cs_init(gale_cs_t *cs, int n, double radius)
{
    memset(cs, 0, sizeof *cs);
    if (n < 1 || n > 8192)
        GALE_ERROR(GALE_ERR_INPUT, "mesh C%d: N must be between 1 and 8192", n);
    if (!(radius > 0))
        GALE_ERROR(GALE_ERR_INPUT, "sphere radius %g must be positive", radius);
    cs->n = n;
    cs->radius = radius;
    cs->ncells = 6 * (gale_gid_t)n * n;
    cs->nedges = 12 * (gale_gid_t)n * n;
    cs->nverts = 6 * (gale_gid_t)n * n + 2;
    for (int p = 0; p < 6; p++)
        for (int s = 0; s < 4; s++) cs->cube_edge[p][s] = -1;
    int nce = 0;
    for (int p = 0; p < 6; p++)
        for (int s = 0; s < 4; s++) {
            gale_gid_t a, b;
            side_corners(cs, p, s, &a, &b);
            int found = 0;
            for (int q = 0; q < 6 && !found; q++)
                for (int t = 0; t < 4 && !found; t++) {
                    if (q == p) continue;
                    gale_gid_t a2, b2;
                    side_corners(cs, q, t, &a2, &b2);
                    if ((a == a2 && b == b2) || (a == b2 && b == a2)) {
                        cs->nbr[p][s].panel = q;
                        cs->nbr[p][s].side = t;
                        cs->nbr[p][s].rev = a != a2;
                        found = 1;
                    }
                }
            GALE_ASSERT(found);
            if (cs->cube_edge[p][s] < 0) {
                GALE_ASSERT(nce < 12);
                cs->cube_edge[p][s] = nce;
                cs->cube_edge[cs->nbr[p][s].panel][cs->nbr[p][s].side] = nce;
                cs->ce_panel[nce] = p;
                cs->ce_side[nce] = s;
                nce++;
            }
        }
    GALE_ASSERT(nce == 12);
    return GALE_OK;
}

/* ---- cells and edges ---- */

/* The cell of panel p next to side s at position t along it. */
static gale_gid_t side_cell(const gale_cs_t *cs, int p, int s, int t)
{
    int n = cs->n;
    switch (s) {
    case GALE_SIDE_W: return gale_cs_cell(cs, p, 0, t);
    case GALE_SIDE_S: return gale_cs_cell(cs, p, t, 0);
    case GALE_SIDE_E: return gale_cs_cell(cs, p, n - 1, t);
    default: return gale_cs_cell(cs, p, t, n - 1);
    }
}

static int on_boundary(int n, int i, int j, int s)
{
    return (s == GALE_SIDE_W && i == 0) || (s == GALE_SIDE_E && i == n - 1) ||
           (s == GALE_SIDE_S && j == 0) || (s == GALE_SIDE_N && j == n - 1);
}

gale_gid_t gale_cs_cell_nbr(const gale_cs_t *cs, gale_gid_t c, int s)
{
    int p, i, j, n = cs->n;
    gale_cs_cell_pij(cs, c, &p, &i, &j);
    if (!on_boundary(n, i, j, s)) {
        static const int di[4] = {-1, 0, 1, 0}, dj[4] = {0, -1, 0, 1};
        return gale_cs_cell(cs, p, i + di[s], j + dj[s]);
    }
    int t = (s == GALE_SIDE_W || s == GALE_SIDE_E) ? j : i;
    int q = cs->nbr[p][s].panel;
    return side_cell(cs, q, cs->nbr[p][s].side, cs->nbr[p][s].rev ? n - 1 - t : t);
}

void gale_cs_cell_verts(const gale_cs_t *cs, gale_gid_t c, gale_gid_t v[4])
{
    int p, i, j;
    gale_cs_cell_pij(cs, c, &p, &i, &j);
    v[0] = corner_id(cs, p, i, j);
    v[1] = corner_id(cs, p, i + 1, j);
    v[2] = corner_id(cs, p, i + 1, j + 1);
    v[3] = corner_id(cs, p, i, j + 1);
}

static gale_gid_t cell_edge(const gale_cs_t *cs, int p, int i, int j, int s)
{
    gale_gid_t n = cs->n, per_panel = 2 * n * (n - 1), base = p * per_panel;
    switch (on_boundary(cs->n, i, j, s) ? -1 : s) {
    case GALE_SIDE_W: return base + j * (n - 1) + (i - 1);
    case GALE_SIDE_E: return base + j * (n - 1) + i;
    case GALE_SIDE_S: return base + n * (n - 1) + (j - 1) * n + i;
    case GALE_SIDE_N: return base + n * (n - 1) + j * n + i;
    default: break;
    }
    int ce = cs->cube_edge[p][s];
    int t = (s == GALE_SIDE_W || s == GALE_SIDE_E) ? j : i;
    if (!(cs->ce_panel[ce] == p && cs->ce_side[ce] == s) && cs->nbr[p][s].rev) t = (int)n - 1 - t;
    return 6 * per_panel + ce * n + t;
}

void gale_cs_cell_edges(const gale_cs_t *cs, gale_gid_t c, gale_gid_t e[4])
{
    int p, i, j;
    gale_cs_cell_pij(cs, c, &p, &i, &j);
    for (int s = 0; s < 4; s++) e[s] = cell_edge(cs, p, i, j, s);
}

/* An edge as (cell, side of that cell): the cell is the first one in the
 * panel-local sense (west/south of an interior edge, the numbering panel's
 * cell on a cube edge). */
static void edge_decode(const gale_cs_t *cs, gale_gid_t e, gale_gid_t *cell, int *side)
{
    gale_gid_t n = cs->n, per_panel = 2 * n * (n - 1);
    if (e < 6 * per_panel) {
        int p = (int)(e / per_panel);
        gale_gid_t r = e % per_panel;
        if (r < n * (n - 1)) {
            int j = (int)(r / (n - 1)), i = (int)(r % (n - 1)) + 1;
            *cell = gale_cs_cell(cs, p, i, j);
            *side = GALE_SIDE_W;
        } else {
            r -= n * (n - 1);
            int j = (int)(r / n) + 1, i = (int)(r % n);
            *cell = gale_cs_cell(cs, p, i, j);
            *side = GALE_SIDE_S;
        }
        return;
    }
    gale_gid_t r = e - 6 * per_panel;
    int ce = (int)(r / n), t = (int)(r % n);
    *cell = side_cell(cs, cs->ce_panel[ce], cs->ce_side[ce], t);
    *side = cs->ce_side[ce];
}

void gale_cs_edge_cells(const gale_cs_t *cs, gale_gid_t e, gale_gid_t c[2])
{
    gale_gid_t a;
    int s;
    edge_decode(cs, e, &a, &s);
    gale_gid_t b = gale_cs_cell_nbr(cs, a, s);
    c[0] = a < b ? a : b;
    c[1] = a < b ? b : a;
}

void gale_cs_edge_verts(const gale_cs_t *cs, gale_gid_t e, gale_gid_t v[2])
{
    gale_gid_t a, cv[4];
    int s;
    edge_decode(cs, e, &a, &s);
    gale_cs_cell_verts(cs, a, cv);
    static const int v0[4] = {3, 0, 1, 2}, v1[4] = {0, 1, 2, 3}; /* W: NW-SW, S: SW-SE, ... */
    v[0] = cv[v0[s]];
    v[1] = cv[v1[s]];
}

static int shares_vertex(const gale_gid_t a[4], const gale_gid_t b[4])
{
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            if (a[x] == b[y]) return 1;
    return 0;
}

int gale_cs_cell_vnbrs(const gale_cs_t *cs, gale_gid_t c, gale_gid_t out[8])
{
    int p, i, j, n = cs->n, k = 0;
    gale_cs_cell_pij(cs, c, &p, &i, &j);
    if (i >= 1 && j >= 1 && i <= n - 2 && j <= n - 2) {
        for (int dj = -1; dj <= 1; dj++)
            for (int di = -1; di <= 1; di++)
                if (di || dj) out[k++] = gale_cs_cell(cs, p, i + di, j + dj);
        return k; /* already in gid order */
    }
    gale_gid_t cv[4], cand[20];
    int nc = 0;
    for (int s = 0; s < 4; s++) {
        gale_gid_t a = gale_cs_cell_nbr(cs, c, s);
        cand[nc++] = a;
        for (int t = 0; t < 4; t++) cand[nc++] = gale_cs_cell_nbr(cs, a, t);
    }
    gale_cs_cell_verts(cs, c, cv);
    for (int x = 0; x < nc; x++) {
        gale_gid_t a = cand[x], av[4];
        if (a == c) continue;
        int dup = 0;
        for (int y = 0; y < k; y++) dup |= out[y] == a;
        if (dup) continue;
        gale_cs_cell_verts(cs, a, av);
        if (shares_vertex(cv, av)) {
            if (k == 8) return -1; /* cannot happen on a cubed sphere */
            out[k++] = a;
        }
    }
    for (int x = 1; x < k; x++) /* insertion sort: k <= 8 */
        for (int y = x; y > 0 && out[y - 1] > out[y]; y--) {
            gale_gid_t t = out[y];
            out[y] = out[y - 1];
            out[y - 1] = t;
        }
    return k;
}

/* ---- geometry ---- */

void gale_cs_cell_centre(const gale_cs_t *cs, gale_gid_t c, double x[3])
{
    int p, i, j;
    long n2 = 2L * cs->n;
    gale_cs_cell_pij(cs, c, &p, &i, &j);
    long q[3];
    q[frame[p][0][0]] = frame[p][0][1] > 0 ? n2 : 0;
    q[frame[p][1][0]] = frame[p][1][1] > 0 ? 2L * i + 1 : n2 - (2L * i + 1);
    q[frame[p][2][0]] = frame[p][2][1] > 0 ? 2L * j + 1 : n2 - (2L * j + 1);
    for (int d = 0; d < 3; d++) x[d] = tanfrac(q[d], n2);
    normalise(x);
}

/* Solid angle of the spherical triangle abc (Van Oosterom & Strackee). */
static double tri_area(const double a[3], const double b[3], const double c[3])
{
    double bc[3];
    gale_cross3(b, c, bc);
    double num = fabs(gale_dot3(a, bc));
    double den = 1.0 + gale_dot3(a, b) + gale_dot3(b, c) + gale_dot3(c, a);
    return 2.0 * atan2(num, den);
}

double gale_cs_cell_area(const gale_cs_t *cs, gale_gid_t c)
{
    gale_gid_t v[4];
    double x[4][3];
    gale_cs_cell_verts(cs, c, v);
    for (int k = 0; k < 4; k++) gale_cs_vert_xyz(cs, v[k], x[k]);
    /* Split along the diagonal through the SW corner. */
    double s = tri_area(x[0], x[1], x[2]) + tri_area(x[0], x[2], x[3]);
    return s * cs->radius * cs->radius;
}

void gale_cs_edge_geom(const gale_cs_t *cs, gale_gid_t e, gale_edge_geom_t *g)
{
    gale_gid_t v[2], c[2];
    double a[3], b[3], ca[3], cb[3], nrm[3];
    gale_cs_edge_verts(cs, e, v);
    gale_cs_edge_cells(cs, e, c);
    gale_cs_vert_xyz(cs, v[0], a);
    gale_cs_vert_xyz(cs, v[1], b);
    gale_cs_cell_centre(cs, c[0], ca);
    gale_cs_cell_centre(cs, c[1], cb);
    g->length = gale_arc(a, b) * cs->radius;
    g->dist = gale_arc(ca, cb) * cs->radius;
    for (int d = 0; d < 3; d++) g->mid[d] = a[d] + b[d];
    normalise(g->mid);
    gale_cross3(a, b, nrm);
    normalise(nrm);
    double dir[3] = {cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]};
    double sgn = gale_dot3(nrm, dir) >= 0 ? 1.0 : -1.0;
    for (int d = 0; d < 3; d++) g->normal[d] = sgn * nrm[d];
}

/* The mimetic inner product of one cell (docs/numerics.md, "The consistent
 * operator"): M = R (R^T N)_sym^-1 R^T + gamma (I - N (N^T N)^-1 N^T), with
 * rows s of N the outward unit normals and rows of R the vectors
 * l_s (x_s - x_c), both in the tangent plane at the centre (the midpoint's
 * offset by the logarithmic map, its normal parallel-transported along the
 * great circle). gamma = trace(M0)/2 makes M the two-point matrix
 * diag(l_s |x_s - x_c|) on a rectangle. */
void gale_cs_cell_mfd(const gale_cs_t *cs, gale_gid_t c, double m[16])
{
    double xc[3], e1[3], e2[3], nn[4][2], rr[4][2];
    gale_cs_cell_centre(cs, c, xc);
    /* a tangent basis: the axis least aligned with the centre, projected */
    int ax = 0;
    for (int d = 1; d < 3; d++)
        if (fabs(xc[d]) < fabs(xc[ax])) ax = d;
    double a[3] = {0, 0, 0};
    a[ax] = 1.0;
    for (int d = 0; d < 3; d++) e1[d] = a[d] - xc[ax] * xc[d];
    normalise(e1);
    gale_cross3(xc, e1, e2);
    gale_gid_t e[4];
    gale_cs_cell_edges(cs, c, e);
    for (int s = 0; s < 4; s++) {
        gale_edge_geom_t eg;
        gale_gid_t ec[2];
        gale_cs_edge_geom(cs, e[s], &eg);
        gale_cs_edge_cells(cs, e[s], ec);
        const double sg = ec[0] == c ? 1.0 : -1.0;
        const double th = gale_arc(xc, eg.mid), mc = gale_dot3(eg.mid, xc);
        double t[3], k[3], n[3], kn[3];
        for (int d = 0; d < 3; d++) t[d] = eg.mid[d] - mc * xc[d];
        normalise(t);
        gale_cross3(eg.mid, xc, k);
        normalise(k);
        for (int d = 0; d < 3; d++) n[d] = sg * eg.normal[d];
        /* Rodrigues: the rotation about k by th takes the midpoint to the centre */
        gale_cross3(k, n, kn);
        const double kd = gale_dot3(k, n), ct = cos(th), st = sin(th);
        double nt[3];
        for (int d = 0; d < 3; d++) nt[d] = n[d] * ct + kn[d] * st + k[d] * kd * (1.0 - ct);
        nn[s][0] = gale_dot3(nt, e1), nn[s][1] = gale_dot3(nt, e2);
        const double r = eg.length * th * cs->radius;
        rr[s][0] = r * gale_dot3(t, e1), rr[s][1] = r * gale_dot3(t, e2);
    }
    double q[2][2] = {{0, 0}, {0, 0}}, g[2][2] = {{0, 0}, {0, 0}};
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                q[i][j] += rr[s][i] * nn[s][j];
                g[i][j] += nn[s][i] * nn[s][j];
            }
    const double q01 = 0.5 * (q[0][1] + q[1][0]);
    const double qd = q[0][0] * q[1][1] - q01 * q01, gd = g[0][0] * g[1][1] - g[0][1] * g[1][0];
    const double qi[2][2] = {{q[1][1] / qd, -q01 / qd}, {-q01 / qd, q[0][0] / qd}};
    const double gi[2][2] = {{g[1][1] / gd, -g[0][1] / gd}, {-g[1][0] / gd, g[0][0] / gd}};
    double m0[4][4], pp[4][4], tr = 0;
    for (int i = 0; i < 4; i++)
        for (int j = i; j < 4; j++) {
            double s0 = 0, s1 = 0;
            for (int u = 0; u < 2; u++)
                for (int v = 0; v < 2; v++) {
                    s0 += rr[i][u] * qi[u][v] * rr[j][v];
                    s1 += nn[i][u] * gi[u][v] * nn[j][v];
                }
            m0[i][j] = s0;
            pp[i][j] = (i == j ? 1.0 : 0.0) - s1;
            if (i == j) tr += s0;
        }
    const double gamma = 0.5 * tr;
    for (int i = 0; i < 4; i++)
        for (int j = i; j < 4; j++) m[4 * i + j] = m[4 * j + i] = m0[i][j] + gamma * pp[i][j];
}
