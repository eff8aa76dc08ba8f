/* Global partitions of the cubed sphere: a space-filling curve (any rank
 * count) and LFRic-style panel blocks. See gale_partition.h. */
#include "gale_partition.h"

#include "gale_base.h"

#include <stdlib.h>
#include <string.h>

int gale_part_method_parse(const char *name)
{
    if (strcmp(name, "sfc") == 0) return GALE_PART_SFC;
    if (strcmp(name, "panel") == 0) return GALE_PART_PANEL;
    return -1;
}

const char *gale_part_method_name(int method)
{
    return method == GALE_PART_SFC ? "sfc" : method == GALE_PART_PANEL ? "panel" : "unknown";
}

/* ---- generalised Hilbert curve ("gilbert", after J. Cerveny's recursive
 * construction): fills any w x h rectangle, not just 2^k squares, with unit
 * steps except for at most one diagonal step when w and h have awkward
 * parities. The rectangle starts at (x, y); (ax, ay) spans its major axis and
 * (bx, by) its minor one; exactly one component of each is non-zero. ---- */

static int sgn(int v) { return (v > 0) - (v < 0); }
/* Floor division by two: the construction relies on it for negative spans. */
static int half(int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

typedef struct {
    int n, k;
    int *out; /* out[k] = j*n + i of the k-th cell along the curve */
} curve_t;

static void gilbert(curve_t *c, int x, int y, int ax, int ay, int bx, int by)
{
    int w = abs(ax + ay), h = abs(bx + by);
    int dax = sgn(ax), day = sgn(ay), dbx = sgn(bx), dby = sgn(by);
    if (h == 1 || w == 1) { /* a single row or column: walk it */
        int len = h == 1 ? w : h, sx = h == 1 ? dax : dbx, sy = h == 1 ? day : dby;
        for (int t = 0; t < len; t++, x += sx, y += sy) c->out[c->k++] = y * c->n + x;
        return;
    }
    int ax2 = half(ax), ay2 = half(ay), bx2 = half(bx), by2 = half(by);
    if (2 * w > 3 * h) {
        /* Long rectangle: split the major axis in two, keeping the halves even
         * so each sub-curve ends on the corner the next one starts from. */
        if ((abs(ax2 + ay2) & 1) && w > 2) ax2 += dax, ay2 += day;
        gilbert(c, x, y, ax2, ay2, bx, by);
        gilbert(c, x + ax2, y + ay2, ax - ax2, ay - ay2, bx, by);
    } else {
        /* Squarish: up the first half of the minor axis, along the whole major
         * axis, back down -- the classic Hilbert U. */
        if ((abs(bx2 + by2) & 1) && h > 2) bx2 += dbx, by2 += dby;
        gilbert(c, x, y, bx2, by2, ax2, ay2);
        gilbert(c, x + bx2, y + by2, ax, ay, bx - bx2, by - by2);
        gilbert(c, x + (ax - dax) + (bx2 - dbx), y + (ay - day) + (by2 - dby), -bx2, -by2,
                -(ax - ax2), -(ay - ay2));
    }
}

/* One of the 8 symmetries of the n x n square (bit 0: mirror i, bit 1: mirror
 * j, bit 2: transpose) applied to panel position q = j*n + i. */
static void orient(int n, int o, int q, int *i, int *j)
{
    int a = q % n, b = q / n;
    if (o & 1) a = n - 1 - a;
    if (o & 2) b = n - 1 - b;
    if (o & 4) { int t = a; a = b; b = t; }
    *i = a, *j = b;
}

/* First or last cell of panel p's curve under option o (bit 3 reverses it). */
static gale_gid_t curve_end(const gale_cs_t *cs, const int *cur, int p, int o, int last)
{
    int nn = cs->n * cs->n, i, j;
    int k = (last ^ (o >> 3)) ? nn - 1 : 0;
    orient(cs->n, o & 7, cur[k], &i, &j);
    return gale_cs_cell(cs, p, i, j);
}

static int edge_adjacent(const gale_cs_t *cs, gale_gid_t a, gale_gid_t b)
{
    for (int s = 0; s < 4; s++)
        if (gale_cs_cell_nbr(cs, a, s) == b) return 1;
    return 0;
}

/* The same curve on every panel, each panel's copy oriented (16 options: 8
 * symmetries x 2 directions) so that as many consecutive panels as possible
 * join edge to edge, which keeps a rank straddling two panels in one piece.
 * Dynamic programming over the panels; ties go to the lowest option, so the
 * result is deterministic. Panels 4 and 5 are opposite: that join is a jump. */
static int build_sfc(const gale_cs_t *cs, gale_partition_t *part)
{
    int n = cs->n, nn = n * n;
    curve_t c = {.n = n, .k = 0};
    GALE_ALLOC(c.out, nn);
    gilbert(&c, 0, 0, n, 0, 0, n);
    if (c.k != nn) {
        GALE_FREE(c.out);
        GALE_ERROR(GALE_ERR_INTERNAL, "gilbert curve covers %d of %d cells", c.k, nn);
    }
    int best[6][16], from[6][16], opt[6];
    for (int o = 0; o < 16; o++) best[0][o] = 0;
    for (int p = 1; p < 6; p++)
        for (int o = 0; o < 16; o++) {
            best[p][o] = -1;
            gale_gid_t first = curve_end(cs, c.out, p, o, 0);
            for (int u = 0; u < 16; u++) {
                int v = best[p - 1][u] + edge_adjacent(cs, curve_end(cs, c.out, p - 1, u, 1), first);
                if (v > best[p][o]) best[p][o] = v, from[p][o] = u;
            }
        }
    opt[5] = 0;
    for (int o = 1; o < 16; o++)
        if (best[5][o] > best[5][opt[5]]) opt[5] = o;
    for (int p = 5; p > 0; p--) opt[p - 1] = from[p][opt[p]];

    /* Rank r owns curve positions [floor(r nc / P), floor((r+1) nc / P)). */
    int64_t nc = cs->ncells, P = part->nranks, pos = 0;
    int r = 0;
    int64_t next = nc / P;
    for (int p = 0; p < 6; p++)
        for (int k = 0; k < nn; k++, pos++) {
            while (pos >= next) r++, next = (r + 1) * nc / P;
            int i, j, kk = (opt[p] & 8) ? nn - 1 - k : k;
            orient(n, opt[p] & 7, c.out[kk], &i, &j);
            part->owner[gale_cs_cell(cs, p, i, j)] = r;
        }
    GALE_FREE(c.out);
    return GALE_OK;
}

/* Panel blocks: P = 6 px py, px >= py as close to square as possible. Block
 * (a, b) of panel p covers i in [a n / px, (a+1) n / px) and likewise j, so
 * block sizes differ by at most one row or column; ranks go panel-major, then
 * b, then a. */
static int build_panel(const gale_cs_t *cs, gale_partition_t *part)
{
    int n = cs->n, P = part->nranks;
    if (P == 1) return GALE_OK; /* owner[] is zero-filled: everything on rank 0 */
    if (P % 6 != 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "panel partition: %d ranks is not 1 or a multiple of 6 (6 x px x py blocks);"
                   " the sfc method takes any count from 1 to %lld",
                   P, (long long)cs->ncells);
    int m = P / 6, py = 1;
    for (int d = 1; (int64_t)d * d <= m; d++)
        if (m % d == 0) py = d;
    int px = m / py;
    if (px > n)
        GALE_ERROR(GALE_ERR_INPUT,
                   "panel partition: %d ranks need %d x %d blocks per panel, but C%d panels are"
                   " only %d cells wide; use fewer ranks or the sfc method",
                   P, px, py, n, n);
    part->px = px, part->py = py;
    for (int p = 0; p < 6; p++)
        for (int b = 0; b < py; b++)
            for (int a = 0; a < px; a++) {
                int rank = (p * py + b) * px + a;
                for (int j = (int)((int64_t)b * n / py); j < (int64_t)(b + 1) * n / py; j++)
                    for (int i = (int)((int64_t)a * n / px); i < (int64_t)(a + 1) * n / px; i++)
                        part->owner[gale_cs_cell(cs, p, i, j)] = rank;
            }
    return GALE_OK;
}

int gale_partition_build(const gale_cs_t *cs, int nranks, int method, gale_partition_t *part)
{
    memset(part, 0, sizeof *part);
    if (nranks < 1 || nranks > cs->ncells)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%d ranks for C%d: the rank count must be between 1 and %lld (one cell each)",
                   nranks, cs->n, (long long)cs->ncells);
    if (method != GALE_PART_SFC && method != GALE_PART_PANEL)
        GALE_ERROR(GALE_ERR_INPUT, "partitioning method %d: allowed are sfc and panel", method);
    part->nranks = nranks;
    part->method = method;
    GALE_ALLOC(part->owner, cs->ncells);
    int err = method == GALE_PART_SFC ? build_sfc(cs, part) : build_panel(cs, part);
    if (err) {
        gale_partition_free(part);
        return gale_error_trace(err, __FILE__, __LINE__, __func__);
    }
    return GALE_OK;
}

void gale_partition_free(gale_partition_t *part)
{
    GALE_FREE(part->owner);
    memset(part, 0, sizeof *part);
}
