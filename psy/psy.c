/* The PSy layer's engine: halo validity, loop ranges, exchanges and the
 * halo plans (gale_psy.h, docs/architecture.md).
 *
 * Validity rules. A loop over depth d covers ncell[d] cells or nedge[d]
 * edges (the edges of those cells). An argument read with stencil s must
 * then be valid to depth d + s; an edge field read by a cell loop with
 * stencil 0 needs the edges of the loop's cells: depth d. What a loop
 * writes is valid to depth d. Halo values are computed by the same bodies
 * from the same inputs as the owner's, so they are bit-identical to what
 * an exchange would bring: validity decides only what is exchanged and how
 * far loops reach, never an answer. */
#include "gale_psy.h"

#include "gale_base.h"

#include <stdio.h>
#include <string.h>

#define MAXPLAN 32 /* distinct (shape, slot) plans */
#define MAXX 8     /* fields exchanged together by one launch */

typedef struct {
    gale_field_t shape; /* the field it was made for: any of the same shape uses it */
    int depth, slot;
    gale_halo_t *h;
} plan_t;

/* A launch of the fused group being made (docs/fusion.md). */
typedef struct {
    int id;
    gale_kargs_t ka;
    gale_field_t *f[GALE_KMAXF];
} fmember_t;

struct gale_psy {
    gale_psy_opts_t o;
    MPI_Comm comm;
    const gale_local_t *lm;
    gale_kmesh_t *km;
    int kinit; /* gale_k_init done */
    int np;
    plan_t plan[MAXPLAN];
    int fg, fn, fd, fedges; /* the group being made (-1: none), its launches so far, loop */
    fmember_t fm[GALE_KG_MAX];
};

int gale_psy_create(gale_psy_t **out, const gale_psy_opts_t *o, MPI_Comm comm,
                    const gale_local_t *lm, gale_kmesh_t *km)
{
    gale_psy_t *p = NULL;
    *out = NULL;
    GALE_ALLOC(p, 1);
    p->o = *o;
    p->comm = comm;
    p->lm = lm;
    p->km = km;
    p->fg = -1;
    *out = p;
    return GALE_OK;
}

void gale_psy_destroy(gale_psy_t **pp)
{
    gale_psy_t *p = *pp;
    if (!p) return;
    for (int i = 0; i < p->np; i++) gale_halo_destroy(&p->plan[i].h);
    if (p->kinit) gale_k_finalize(p->km);
    gale_free(p);
    *pp = NULL;
}

int gale_psy_kernels_init(gale_psy_t *p)
{
    GALE_CALL(gale_k_init(p->km));
    p->kinit = 1;
    return GALE_OK;
}

MPI_Comm gale_psy_comm(const gale_psy_t *p) { return p->comm; }
const gale_psy_opts_t *gale_psy_options(const gale_psy_t *p) { return &p->o; }
const gale_local_t *gale_psy_local_mesh(const gale_psy_t *p) { return p->lm; }
const gale_kmesh_t *gale_psy_kmesh(const gale_psy_t *p) { return p->km; }

/* ---- fields ---- */

int gale_psy_field_create(gale_psy_t *p, gale_field_t *f, const char *name, gale_loc_t loc,
                          int layers, int elem)
{
    GALE_CALL(gale_field_create(f, name, loc, layers, elem, p->lm));
    GALE_CALL(gale_k_field_register(f));
    return GALE_OK;
}

void gale_psy_field_free(gale_field_t *f)
{
    gale_k_field_release(f);
    gale_field_free(f);
}

int gale_psy_to_host(gale_field_t *f) { return gale_k_field_to_host(f); }

int gale_psy_host_wrote(gale_psy_t *p, gale_field_t *f, int all)
{
    f->halo_valid = all ? p->lm->depth : 0;
    return gale_k_field_to_device(f);
}

int gale_psy_owned(const gale_psy_t *p, gale_loc_t loc)
{
    return loc == GALE_LOC_EDGE ? p->lm->nedge_owned : p->lm->ncell[0];
}

int gale_psy_local(const gale_psy_t *p, gale_loc_t loc)
{
    const gale_local_t *lm = p->lm;
    return loc == GALE_LOC_EDGE ? lm->nedge[lm->depth] : lm->ncell[lm->depth];
}

int gale_psy_cell_edges(const gale_psy_t *p) { return p->lm->nedge[0]; }
int gale_psy_stencil_cells(const gale_psy_t *p) { return p->lm->ncell[p->lm->depth - 1]; }

/* ---- halo plans: one per field shape and per field exchanged at once ---- */

/* gale_halo_create with the launch layer's packing and message buffers
 * (device packing, GPU-aware or host-staged messages in the offload build):
 * halo/ and the launch layers do not include each other. */
static int plan_create(gale_psy_t *p, const gale_field_t *f, int depth, gale_halo_t **h)
{
    GALE_CALL(gale_halo_create(h, p->lm, p->comm, f->loc, f->nlev, f->stride, f->elem, depth));
    gale_halo_info_t in;
    gale_halo_info(*h, &in);
    gale_khalo_t *kh = NULL;
    void *ms, *mr;
    GALE_CALL(gale_k_halo_attach(&kh, in.sidx, in.nsend_col, in.ridx, in.nrecv_col, f->nlev,
                                 f->elem, in.sbuf, in.rbuf, &ms, &mr));
    gale_halo_set_finalizer(*h, gale_k_halo_detach, kh);
    gale_halo_set_packer(*h, gale_k_halo_pack, gale_k_halo_unpack, kh);
    if (ms != in.sbuf || mr != in.rbuf) GALE_CALL(gale_halo_set_buffers(*h, ms, mr));
    return GALE_OK;
}

/* The plan for f to depth, slot-th of its shape in one launch. Created on
 * first use: every rank makes the same launches, so the same plans in the
 * same order (plan creation is collective). */
static int plan_get(gale_psy_t *p, const gale_field_t *f, int depth, int slot, gale_halo_t **h)
{
    for (int i = 0; i < p->np; i++) {
        plan_t *q = &p->plan[i];
        if (gale_field_same_shape(&q->shape, f) && q->depth == depth && q->slot == slot) {
            *h = q->h;
            return GALE_OK;
        }
    }
    if (p->np == MAXPLAN) GALE_ERROR(GALE_ERR_INTERNAL, "more than %d halo plans", MAXPLAN);
    plan_t *q = &p->plan[p->np];
    *q = (plan_t){*f, depth, slot, NULL};
    GALE_CALL(plan_create(p, f, depth, &q->h));
    p->np++;
    *h = q->h;
    return GALE_OK;
}

int gale_psy_halo_size(gale_psy_t *p, const gale_field_t *f, long long *bytes, long long *msgs)
{
    gale_halo_t *h = NULL;
    GALE_CALL(plan_get(p, f, p->o.redundant ? p->o.depth : 1, 0, &h));
    *bytes = (long long)gale_halo_bytes(h);
    *msgs = gale_halo_messages(h);
    return GALE_OK;
}

/* ---- launches ---- */

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* Columns of a loop of kernel k over depth d. */
static int range_end(const gale_psy_t *p, int on_edges, int d)
{
    return on_edges ? p->lm->nedge[d] : p->lm->ncell[d];
}

/* A FLAT or COLS kernel iterates over the columns of its first written field. */
static int on_edges(const gale_kdesc_t *k, const gale_psy_call_t *c)
{
    if (k->space != GALE_KS_FLAT && k->space != GALE_KS_COLS) return k->space == GALE_KS_EDGES;
    for (int i = 0; i < k->nfield; i++)
        if ((k->field[i].access & GALE_PSY_WRITE) && c->f[i]) return c->f[i]->loc == GALE_LOC_EDGE;
    return 0;
}

/* The depth each read argument allows a loop to reach (its validity less
 * its stencil), the least of them. */
static int reach(const gale_kdesc_t *k, const gale_psy_call_t *c)
{
    int d = GALE_MAX_DEPTH;
    for (int i = 0; i < k->nfield; i++)
        if ((k->field[i].access & GALE_PSY_READ) && c->f[i])
            d = imin(d, c->f[i]->halo_valid - k->field[i].stencil);
    return d;
}

static const char *loc_name(int loc)
{
    return loc == GALE_LOC_EDGE ? "edge" : loc == GALE_LOC_IFACE ? "interface" : "cell";
}
static const char *locs_name(int mask)
{
    switch (mask) {
    case GALE_KL_C: return "a cell field";
    case GALE_KL_E: return "an edge field";
    case GALE_KL_I: return "an interface field";
    case GALE_KL_CI: return "a cell or interface field";
    default: return "a field";
    }
}

/* The launch against its row: every field where the row says it lives (all
 * mismatches in one message, so that two swapped fields are both named), of
 * the row's precision, with columns to the halo depth its stencil reads.
 * Each is a bug in the caller: GALE_ERR_INTERNAL. */
static int check_call(const gale_psy_t *p, int id, const gale_kdesc_t *k, const gale_psy_call_t *c)
{
    char msg[1024];
    int n = 0, bad = 0, elem = 0;
    for (int i = 0; i < k->nfield; i++) {
        const gale_field_t *f = c->f[i];
        const gale_karg_t *a = &k->field[i];
        if (!f) continue;
        if (!(a->loc & (1 << f->loc))) {
            n += snprintf(msg + n, sizeof msg - (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg),
                          "%sargument '%s' is %s, but got the %s field '%s'", bad ? "; " : "",
                          a->name, locs_name(a->loc), loc_name(f->loc), f->name);
            if (n >= (int)sizeof msg) n = (int)sizeof msg - 1;
            bad = 1;
        }
        if (!elem) elem = f->elem;
        if (id == GALE_K_convert ? i > 0 && f->elem == elem : f->elem != elem)
            GALE_ERROR(GALE_ERR_INTERNAL, "kernel %s: argument '%s' (field '%s') is %s precision, "
                       "%s", k->name, a->name, f->name, f->elem == 8 ? "double" : "single",
                       id == GALE_K_convert ? "the same as the first: convert goes between precisions"
                                            : "not the first field's");
        if (!k->two_prec && f->elem != 8)
            GALE_ERROR(GALE_ERR_INTERNAL, "kernel %s: argument '%s' (field '%s') is single "
                       "precision; the kernel has a double-precision body only", k->name, a->name,
                       f->name);
        /* the halo the loop and the stencil read must exist in f */
        const int need = k->extent + a->stencil;
        if (need > p->lm->depth)
            GALE_ERROR(GALE_ERR_INTERNAL, "kernel %s: argument '%s' is read to halo depth %d, "
                       "beyond the mesh's halo depth %d ([halo] depth)", k->name, a->name, need,
                       p->lm->depth);
    }
    if (bad) GALE_ERROR(GALE_ERR_INTERNAL, "kernel %s: %s", k->name, msg);
    return GALE_OK;
}

/* The launch as the launch layer sees it: host addresses, shapes, the
 * precision of its first field, the points per column. */
static void kargs(const gale_psy_t *p, const gale_kdesc_t *k, const gale_psy_call_t *c,
                  gale_kargs_t *a)
{
    *a = (gale_kargs_t){.km = p->km, .tr = c->tr, .nk = c->nk, .prec = GALE_F64};
    int first = 1;
    for (int i = 0; i < k->nfield; i++) {
        const gale_field_t *f = c->f[i];
        if (!f) continue;
        a->f[i] = (gale_kfield_t){f->data, f->nlev, f->stride, f->elem, f->loc};
        if (first) {
            a->prec = f->elem == 8 ? GALE_F64 : GALE_F32;
            a->nlev = f->nlev;
            first = 0;
        }
        /* whole column blocks of the smallest: the transport keeps stage
         * copies of layer and interface fields in buffers of the larger */
        if (!a->flat || f->stride < a->flat) a->flat = f->stride;
    }
    for (int i = 0; i < k->nscalar; i++) a->s[i] = c->s[i];
    for (int i = 0; i < GALE_KMAXW; i++) a->w[i] = c->w[i];
    a->red = c->red;
}

static gale_psy_rec_t *g_rec; /* gale_psy_record */
void gale_psy_record(gale_psy_rec_t *rec) { g_rec = rec; }
static gale_psy_grec_t *g_grec; /* gale_psy_record_groups */
void gale_psy_record_groups(gale_psy_grec_t *grec) { g_grec = grec; }

/* A reduction: its sets c[0..nset), fields of one shape, in one launch over
 * the owned columns of their location, each into its own result. Its
 * stencils are 0 and its loop owned: no halo is read, none exchanged. */
static int launch_reduce(gale_psy_t *p, int id, const gale_kdesc_t *k, gale_psy_call_t *c)
{
    const int n = c->nset > 1 ? c->nset : 1;
    gale_kargs_t ka[n];
    for (int j = 0; j < n; j++) {
        GALE_CALL(check_call(p, id, k, &c[j]));
        if (!c[j].f[0] || !c[j].red || !gale_field_same_shape(c[j].f[0], c[0].f[0]))
            GALE_ERROR(GALE_ERR_INTERNAL, "kernel %s: set %d has no first field, no result or "
                       "a first field of another shape than set 0's", k->name, j);
        kargs(p, k, &c[j], &ka[j]);
    }
    ka[0].nset = n;
    const int i1 = gale_psy_owned(p, c->f[0]->loc);
    if (i1 > 0) gale_k_run(id, ka, 0, i1);
    gale_psy_rec_t *r = g_rec ? &g_rec[2 * id + ka[0].prec] : NULL;
    if (r && !r->have && i1 > 0) {
        *r = (gale_psy_rec_t){.have = 1, .i1 = i1, .a = ka[0], .red = *c->red};
        r->a.nset = 1;
        r->a.red = &r->red;
    }
    return GALE_OK;
}

/* ---- fused groups (docs/fusion.md) ---- */

/* Exchanges f to depth need now (a fused group's input, synchronously). */
static int exchange(gale_psy_t *p, gale_field_t *f, int need)
{
    const int depth = p->o.redundant ? imax(need, p->o.depth) : need;
    gale_halo_t *h;
    GALE_CALL(plan_get(p, f, depth, 0, &h));
    GALE_CALL(gale_halo_begin(h, f->data));
    GALE_CALL(gale_halo_end(h, f->data));
    f->halo_valid = depth;
    return GALE_OK;
}

/* The group's next launch, checked against its declaration and the rows:
 * its kernel is the declared one; it loops over the group's columns (cells
 * or edges) at the group's extent; it reads through a stencil no field an
 * earlier launch of the group writes (that column's neighbours may not be
 * written yet), and writes no field an earlier launch reads through one
 * (they may have read it already). What it reads from before the group is
 * exchanged now; what the group writes is valid to its extent. Each breach
 * is a bug in the caller: GALE_ERR_INTERNAL naming the group, the kernels
 * and the argument. */
static int fuse_add(gale_psy_t *p, int id, const gale_kdesc_t *k, gale_psy_call_t *c)
{
    const gale_kgroup_t *g = &gale_kgroup[p->fg];
    const int m = p->fn;
    if (m >= g->n || g->k[m] != id)
        GALE_ERROR(GALE_ERR_INTERNAL, "fused group %s: launch %d is %s, but the group declares %s "
                   "(kernels/gale_kdesc.h)", g->name, m + 1, k->name,
                   m < g->n ? gale_kdesc[g->k[m]].name : "no more launches");
    if (k->space == GALE_KS_BATCH || GALE_KS_REDUCES(k->space))
        GALE_ERROR(GALE_ERR_INTERNAL, "fused group %s: kernel %s is a %s: only column and flat "
                   "kernels fuse", g->name, k->name, k->space == GALE_KS_BATCH ? "batch kernel"
                                                                             : "reduction");
    GALE_CALL(check_call(p, id, k, c));
    const int edges = on_edges(k, c);
    if (m == 0) p->fedges = edges, p->fd = k->extent;
    if (edges != p->fedges || k->extent != p->fd)
        GALE_ERROR(GALE_ERR_INTERNAL, "fused group %s: kernel %s loops over %s columns to depth "
                   "%d, the group over %s columns to depth %d", g->name, k->name,
                   edges ? "edge" : "cell", k->extent, p->fedges ? "edge" : "cell", p->fd);
    for (int i = 0; i < k->nfield; i++) {
        gale_field_t *f = c->f[i];
        const gale_karg_t *a = &k->field[i];
        if (!f) continue;
        for (int e = 0; e < m; e++) {
            const gale_kdesc_t *ke = &gale_kdesc[p->fm[e].id];
            for (int j = 0; j < ke->nfield; j++) {
                if (p->fm[e].f[j] != f) continue;
                const gale_karg_t *b = &ke->field[j];
                if ((a->access & GALE_PSY_READ) && a->stencil > 0 && (b->access & GALE_PSY_WRITE))
                    GALE_ERROR(GALE_ERR_INTERNAL, "fused group %s: kernel %s reads '%s' (field "
                               "'%s') through a stencil of depth %d, and %s writes it ('%s') "
                               "earlier in the group", g->name, k->name, a->name, f->name,
                               a->stencil, ke->name, b->name);
                if ((a->access & GALE_PSY_WRITE) && (b->access & GALE_PSY_READ) && b->stencil > 0)
                    GALE_ERROR(GALE_ERR_INTERNAL, "fused group %s: kernel %s writes '%s' (field "
                               "'%s'), which %s reads ('%s') through a stencil of depth %d "
                               "earlier in the group", g->name, k->name, a->name, f->name,
                               ke->name, b->name, b->stencil);
            }
        }
        const int need = p->fd + a->stencil;
        if ((a->access & GALE_PSY_READ) && f->halo_valid < need) GALE_CALL(exchange(p, f, need));
    }
    for (int i = 0; i < k->nfield; i++)
        if ((k->field[i].access & GALE_PSY_WRITE) && c->f[i]) c->f[i]->halo_valid = p->fd;
    p->fm[m].id = id;
    kargs(p, k, c, &p->fm[m].ka);
    memcpy(p->fm[m].f, c->f, sizeof p->fm[m].f);
    p->fn++;
    return GALE_OK;
}

int gale_psy_fuse_begin(gale_psy_t *p, int group)
{
    GALE_ASSERT(group >= 0 && group < GALE_KG_N);
    if (p->fg >= 0)
        GALE_ERROR(GALE_ERR_INTERNAL, "fused group %s begins inside group %s",
                   gale_kgroup[group].name, gale_kgroup[p->fg].name);
    p->fg = group;
    p->fn = 0;
    return GALE_OK;
}

int gale_psy_fuse_end(gale_psy_t *p)
{
    GALE_ASSERT(p->fg >= 0);
    const int g = p->fg, n = p->fn;
    p->fg = -1;
    if (n != gale_kgroup[g].n)
        GALE_ERROR(GALE_ERR_INTERNAL, "fused group %s ends after %d launches of the %d it declares",
                   gale_kgroup[g].name, n, gale_kgroup[g].n);
    if (p->o.progress) GALE_CALL(gale_psy_progress());
    int ids[GALE_KG_MAX];
    gale_kargs_t ka[GALE_KG_MAX];
    for (int m = 0; m < n; m++) ids[m] = p->fm[m].id, ka[m] = p->fm[m].ka;
    const int i1 = range_end(p, p->fedges, p->fd);
    if (i1 > 0) gale_k_run_group(g, n, ids, ka, 0, i1);
    if (g_grec && !g_grec[g].have && i1 > 0) {
        gale_psy_grec_t *r = &g_grec[g];
        *r = (gale_psy_grec_t){.have = 1, .n = n, .i1 = i1};
        memcpy(r->ids, ids, sizeof ids);
        memcpy(r->a, ka, sizeof ka);
    }
    return GALE_OK;
}

int gale_psy_launch(gale_psy_t *p, int id, gale_psy_call_t *c)
{
    const gale_kdesc_t *k = &gale_kdesc[id];
    if (p->fg >= 0) return fuse_add(p, id, k, c);
    /* a progress point: a pending non-blocking sum advances between kernels
     * even where MPI has no progress thread (docs/emulate.md) */
    if (p->o.progress) GALE_CALL(gale_psy_progress());
    if (GALE_KS_REDUCES(k->space)) return launch_reduce(p, id, k, c);
    GALE_CALL(check_call(p, id, k, c));
    gale_kargs_t ka;
    kargs(p, k, c, &ka);
    const gale_local_t *lm = p->lm;
    gale_field_t *also = c->also;
    const int redundant = p->o.redundant && k->redundant, edges = on_edges(k, c);
    int d = k->extent;
    if (redundant) d = imax(d, imin(reach(k, c), lm->depth));
    /* what is too stale for a loop over depth d, exchanged to the depth it
     * needs -- or, with redundant computation, to [halo] depth so that later
     * loops can compute into the halo instead of exchanging again */
    gale_field_t *ex[MAXX];
    int nx = 0, xdepth = 0, maxst = 0;
    for (int i = 0; i < k->nfield; i++) {
        gale_field_t *f = c->f[i];
        if (!(k->field[i].access & GALE_PSY_READ) || !f) continue;
        const int need = d + k->field[i].stencil;
        if (f->halo_valid >= need) continue;
        int dup = 0;
        for (int j = 0; j < nx; j++) dup |= ex[j] == f;
        if (dup) continue;
        GALE_ASSERT(nx < MAXX && need <= lm->depth);
        ex[nx++] = f;
        xdepth = imax(xdepth, p->o.redundant ? imax(need, p->o.depth) : need);
        maxst = imax(maxst, k->field[i].stencil);
    }
    if (nx == 0) {
        const int i1 = range_end(p, edges, d);
        if (i1 > 0) gale_k_run(id, &ka, 0, i1);
    } else {
        int dup = 0;
        for (int j = 0; also && j < nx; j++) dup |= ex[j] == also;
        if (also && !dup && p->o.redundant && xdepth >= 2 && also->halo_valid < xdepth) {
            GALE_ASSERT(nx < MAXX);
            ex[nx++] = also;
        }
        gale_halo_t *h[MAXX];
        for (int j = 0; j < nx; j++) {
            int slot = 0;
            for (int i = 0; i < j; i++) slot += gale_field_same_shape(ex[i], ex[j]);
            GALE_CALL(plan_get(p, ex[j], xdepth, slot, &h[j]));
            GALE_CALL(gale_halo_begin(h[j], ex[j]->data));
        }
        /* overlap: owned cells none of whose neighbours is in the halo need
         * no halo data from a depth-1 stencil; they run while messages fly */
        int split = 0;
        if (p->o.overlap && !edges && k->extent == 0 && maxst <= 1) {
            split = lm->ncell_inner;
            if (split > 0) gale_k_run(id, &ka, 0, split);
        }
        for (int j = 0; j < nx; j++) {
            GALE_CALL(gale_halo_end(h[j], ex[j]->data));
            ex[j]->halo_valid = xdepth;
        }
        if (redundant) d = imax(k->extent, imin(reach(k, c), lm->depth));
        /* on one rank the interior is every column: no empty launch */
        const int i1 = range_end(p, edges, d);
        if (split < i1) gale_k_run(id, &ka, split, i1);
    }
    for (int i = 0; i < k->nfield; i++)
        if ((k->field[i].access & GALE_PSY_WRITE) && c->f[i]) c->f[i]->halo_valid = d;
    gale_psy_rec_t *r = g_rec ? &g_rec[2 * id + ka.prec] : NULL;
    if (r && !r->have && range_end(p, edges, d) > 0)
        *r = (gale_psy_rec_t){.have = 1, .i1 = range_end(p, edges, d), .a = ka};
    return GALE_OK;
}
