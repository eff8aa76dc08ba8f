/* Cubed-sphere mesh invariants (issue 2): area, Euler characteristic,
 * edge/cell/vertex incidence, the 8 cube corners, z -> -z symmetry,
 * edge geometry. */
#include "gale_base.h"
#include "gale_extrusion.h"
#include "gale_mesh.h"
#include "gale_test.h"

#include <stdlib.h>
#include <string.h>

static void check_mesh(int n)
{
    gale_cs_t cs;
    const double a = 6371229.0 / 125.0;
    CHECK_OK(gale_cs_init(&cs, n, a));
    gale_gid_t nc = cs.ncells, ne = cs.nedges, nv = cs.nverts;

    /* V - E + F = 2 */
    CHECK(nv - ne + nc == 2, "C%d: V-E+F = %lld", n, (long long)(nv - ne + nc));

    /* areas sum to 4 pi a^2; long double accumulation so that the test
     * measures the areas, not the summation */
    long double area = 0;
    for (gale_gid_t c = 0; c < nc; c++) area += gale_cs_cell_area(&cs, c);
    CHECK_REL((double)area, 4 * GALE_PI * a * a, 1e-12);

    /* every cell: 4 distinct edges, 4 distinct vertices, each edge lists the cell */
    int *vcount = calloc((size_t)nv, sizeof(int));
    int *ecount = calloc((size_t)ne, sizeof(int));
    for (gale_gid_t c = 0; c < nc; c++) {
        gale_gid_t e[4], v[4];
        gale_cs_cell_edges(&cs, c, e);
        gale_cs_cell_verts(&cs, c, v);
        for (int s = 0; s < 4; s++) {
            CHECK(e[s] >= 0 && e[s] < ne, "edge id %lld out of range", (long long)e[s]);
            CHECK(v[s] >= 0 && v[s] < nv, "vertex id %lld out of range", (long long)v[s]);
            for (int t = 0; t < s; t++) {
                CHECK(e[s] != e[t], "C%d cell %lld repeats an edge", n, (long long)c);
                CHECK(v[s] != v[t], "C%d cell %lld repeats a vertex", n, (long long)c);
            }
            gale_gid_t ec[2], ev[2];
            gale_cs_edge_cells(&cs, e[s], ec);
            CHECK(ec[0] == c || ec[1] == c, "edge %lld does not list cell %lld", (long long)e[s],
                  (long long)c);
            CHECK(gale_cs_cell_nbr(&cs, c, s) == (ec[0] == c ? ec[1] : ec[0]),
                  "neighbour across side %d of %lld disagrees with the edge", s, (long long)c);
            /* the edge's end vertices are the cell's side vertices */
            gale_cs_edge_verts(&cs, e[s], ev);
            gale_gid_t s0 = v[(s + 3) % 4], s1 = v[s];
            CHECK((ev[0] == s0 && ev[1] == s1) || (ev[0] == s1 && ev[1] == s0),
                  "edge %lld vertices differ from the side of cell %lld", (long long)e[s],
                  (long long)c);
            ecount[e[s]]++;
            vcount[v[s]]++;
        }
    }
    int three = 0, bad = 0;
    for (gale_gid_t e = 0; e < ne; e++) {
        gale_gid_t ec[2];
        gale_cs_edge_cells(&cs, e, ec);
        CHECK(ec[0] < ec[1], "edge %lld: cells %lld %lld not distinct/ordered", (long long)e,
              (long long)ec[0], (long long)ec[1]);
        bad += ecount[e] != 2;
    }
    CHECK(bad == 0, "C%d: %d edges not shared by exactly two cells", n, bad);
    bad = 0;
    for (gale_gid_t v = 0; v < nv; v++) {
        three += vcount[v] == 3;
        bad += vcount[v] != 3 && vcount[v] != 4;
    }
    CHECK(three == 8, "C%d: %d vertices shared by 3 cells, expected 8", n, three);
    CHECK(bad == 0, "C%d: %d vertices with other than 3 or 4 cells", n, bad);

    /* vertex neighbours: 8, or 7 for the 24 cells touching a cube corner */
    int seven = 0;
    for (gale_gid_t c = 0; c < nc; c++) {
        gale_gid_t vn[8];
        int k = gale_cs_cell_vnbrs(&cs, c, vn);
        if (n >= 2) {
            CHECK(k == 7 || k == 8, "cell %lld has %d vertex neighbours", (long long)c, k);
            seven += k == 7;
        }
    }
    if (n >= 2) CHECK(seven == 24, "C%d: %d cells with 7 vertex neighbours", n, seven);

    /* z -> -z symmetry: every cell centre has an exact mirror image, with the
     * same area to round-off (the triangle split is not mirror-symmetric) */
    double *cz = malloc(sizeof(double) * 4 * (size_t)nc);
    for (gale_gid_t c = 0; c < nc; c++) {
        gale_cs_cell_centre(&cs, c, cz + 4 * c);
        cz[4 * c + 3] = gale_cs_cell_area(&cs, c);
    }
    int unmatched = 0;
    for (gale_gid_t c = 0; c < nc; c++) {
        int found = 0;
        for (gale_gid_t d = 0; d < nc && !found; d++)
            found = cz[4 * d] == cz[4 * c] && cz[4 * d + 1] == cz[4 * c + 1] &&
                    cz[4 * d + 2] == -cz[4 * c + 2] &&
                    fabs(cz[4 * d + 3] - cz[4 * c + 3]) <= 1e-14 * cz[4 * c + 3];
        unmatched += !found;
    }
    CHECK(unmatched == 0, "C%d: %d cells without a mirror image under z -> -z", n, unmatched);
    free(cz);

    /* edge geometry: normal is a tangent unit vector at the midpoint, pointing
     * from the first to the second cell; lengths positive */
    double lsum = 0;
    for (gale_gid_t e = 0; e < ne; e++) {
        gale_edge_geom_t g;
        gale_cs_edge_geom(&cs, e, &g);
        double nn = g.normal[0] * g.normal[0] + g.normal[1] * g.normal[1] + g.normal[2] * g.normal[2];
        double nm = g.normal[0] * g.mid[0] + g.normal[1] * g.mid[1] + g.normal[2] * g.mid[2];
        CHECK(fabs(nn - 1) < 1e-14 && fabs(nm) < 1e-14, "edge %lld normal not a unit tangent",
              (long long)e);
        CHECK(g.length > 0 && g.dist > 0, "edge %lld length %g dist %g", (long long)e, g.length,
              g.dist);
        lsum += g.length;
    }
    /* the mean edge length tends to the equal-area value sqrt(4 pi / 6N^2) a */
    double mean = lsum / (double)ne, ideal = sqrt(4 * GALE_PI / (double)nc) * a;
    if (n >= 8) CHECK(fabs(mean / ideal - 1) < 0.1, "C%d mean edge %g vs %g", n, mean, ideal);
    free(vcount);
    free(ecount);
}

/* LFRic's spacings by their defining properties (docs/numerics.md) */
static void check_extrusion(void)
{
    enum { N = 30 };
    double e[39];
    for (int m = GALE_EXTRUDE_UNIFORM; m <= GALE_EXTRUDE_DCMIP; m++) {
        CHECK_OK(gale_extrusion_eta((gale_extrude_t)m, N, e));
        CHECK(e[0] == 0.0 && e[N] == 1.0, "method %d: ends %g %g", m, e[0], e[N]);
        for (int k = 1; k <= N; k++) {
            const double u = (double)k / N, dz = e[k] - e[k - 1];
            CHECK(dz > 0, "method %d: layer %d of depth %g", m, k, dz);
            if (m == GALE_EXTRUDE_UNIFORM) CHECK_REL(dz, 1.0 / N, 1e-12);
            if (m == GALE_EXTRUDE_QUADRATIC) CHECK_REL(e[k], u * u, 1e-15);
            if (m == GALE_EXTRUDE_GEOMETRIC && k > 1) CHECK_REL(dz / (e[k - 1] - e[k - 2]), 1.03, 1e-10);
            /* DCMIP: (3 eta + 1)^2 = 15 u^2 + 1 */
            if (m == GALE_EXTRUDE_DCMIP) CHECK_REL((3 * e[k] + 1) * (3 * e[k] + 1), 15 * u * u + 1, 1e-14);
        }
    }
    /* DCMIP at L30 to 30 km: an 83 m bottom layer, a 1249 m top one */
    CHECK_OK(gale_extrusion_eta(GALE_EXTRUDE_DCMIP, N, e));
    CHECK(fabs(30000 * e[1] - 82.99) < 0.01 && fabs(30000 * (1 - e[N - 1]) - 1248.66) < 0.01,
          "dcmip layers %g m, %g m", 30000 * e[1], 30000 * (1 - e[N - 1]));
    CHECK_OK(gale_extrusion_eta(GALE_EXTRUDE_UM_L38, 38, e));
    CHECK(e[1] == 0.0005095 && e[37] == 0.8383348 && e[38] == 1.0, "L38 %g %g", e[1], e[37]);
    CHECK(gale_extrusion_eta(GALE_EXTRUDE_UM_L38, N, e) == GALE_ERR_INPUT, "L38 with 30 layers");
    /* the longer UM sets: LFRic's tables (first interior value, last below the
     * top), increasing, and refused at another number of layers */
    static const struct { gale_extrude_t m; int n; double e1, elast; } um[] = {
        {GALE_EXTRUDE_UM_L70_50T, 70, 0.0002500, 0.9016668},
        {GALE_EXTRUDE_UM_L70_61T, 70, 0.1250000e-3, 0.8961251},
        {GALE_EXTRUDE_UM_L85, 85, 0.2352941e-3, 0.9305884},
    };
    static double eu[86];
    for (size_t i = 0; i < sizeof um / sizeof um[0]; i++) {
        CHECK(gale_extrusion_fixed_layers(um[i].m) == um[i].n, "fixed layers %d", um[i].n);
        CHECK_OK(gale_extrusion_eta(um[i].m, um[i].n, eu));
        const int n = um[i].n;
        CHECK(eu[0] == 0.0 && eu[1] == um[i].e1 && eu[n - 1] == um[i].elast && eu[n] == 1.0,
              "UM set %d: %g %g", n, eu[1], eu[n - 1]);
        for (int k = 0; k < n; k++) CHECK(eu[k + 1] > eu[k], "UM set %d increases at %d", n, k);
        CHECK(gale_extrusion_eta(um[i].m, N, eu) == GALE_ERR_INPUT, "UM set %d with %d layers", n, N);
    }
    CHECK(gale_extrusion_fixed_layers(GALE_EXTRUDE_DCMIP) == 0, "dcmip takes any number of layers");
}

/* The shells' metric (docs/nonlinear.md, "The deep atmosphere"): the
 * layers' volumes and faces sum to the shell's, the factors follow r, and
 * the flat column's are exactly dz, 1 and g */
static void check_shell(void)
{
    enum { N = 30, SC = 32, SI = 32 };
    const double a = 6371229.0, top = 30000.0, g = 9.80616;
    double e[N + 1], zi[N + 1], zc[N];
    CHECK_OK(gale_extrusion_eta(GALE_EXTRUDE_DCMIP, N, e));
    for (int k = 0; k <= N; k++) zi[k] = top * e[k];
    for (int k = 0; k < N; k++) zc[k] = 0.5 * (zi[k] + zi[k + 1]);
    gale_shell_t s, f;
    CHECK_OK(gale_shell_build(N, SC, SI, zi, zc, a, g, 1, &s));
    CHECK_OK(gale_shell_build(N, SC, SI, zi, zc, a, g, 0, &f));
    double vol = 0, face = 0;
    for (int k = 0; k < N; k++) {
        const double dz = zi[k + 1] - zi[k], rm = a + zc[k];
        vol += s.dzv[k], face += s.dzf[k];
        CHECK(f.dzv[k] == dz && f.dzf[k] == dz && f.dzh[k] == dz && f.hl[k] == 1.0 &&
                  f.rdzv[k] == 1.0 / dz && f.rc[k] == 0.0,
              "flat layer %d", k);
        CHECK_REL(s.hl[k], a / rm, 1e-8); /* the mean of r over the mean of r^2: (dz/r)^2 / 12 */
        CHECK_REL(s.dzh[k], dz * s.hl[k], 1e-15);
        CHECK_REL(s.rc[k], 1.0 / rm, 1e-15);
    }
    const double rt = a + top;
    CHECK_REL(vol, (rt * rt * rt - a * a * a) / (3 * a * a), 1e-12);
    CHECK_REL(face, (rt * rt - a * a) / (2 * a), 1e-12);
    for (int k = 0; k <= N; k++) {
        const double q = (a + zi[k]) / a;
        CHECK(f.qi[k] == 1.0 && f.hi[k] == 1.0 && f.gi[k] == g && f.ri[k] == 0.0, "flat iface %d", k);
        CHECK_REL(s.qi[k], q * q, 1e-15);
        CHECK_REL(s.gi[k], g / (q * q), 1e-15);
        CHECK_REL(s.hi[k], 1.0 / q, 1e-15);
    }
    CHECK(s.gi[N] < 0.991 * g, "gravity at 30 km %g: 0.9906 g", s.gi[N] / g);
    gale_shell_free(&s);
    gale_shell_free(&f);
}

int main(void)
{
    check_extrusion();
    check_shell();
    int ns[] = {1, 2, 3, 4, 7, 12, 24};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) check_mesh(ns[k]);
    /* bad input */
    gale_cs_t cs;
    CHECK(gale_cs_init(&cs, 0, 1.0) == GALE_ERR_INPUT, "C0 accepted");
    return gale_test_result("test_mesh");
}
