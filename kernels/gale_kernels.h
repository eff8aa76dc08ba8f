/* The launch-layer interface. kernels_cpu/ and kernels_offload/ both implement
 * exactly these functions, and gale_k_run (gale_kdesc.h) for every described
 * kernel, over the one set of column kernel bodies, so the algorithm layer
 * and the solver never know which launch layer they run on (the PSyKAl
 * split: this is the "PSy" layer).
 *
 * Ranges are half-open [c0, c1) of local columns (cells or edges). Fields are
 * raw column blocks: column i at x + i*stride. None of these functions is
 * collective: they compute local values only. */
#ifndef GALE_KERNELS_H
#define GALE_KERNELS_H

#include "gale_chain.h" /* gale_geom_t */
#include "gale_field.h"

#include <stddef.h>
#include <stdint.h>

enum { GALE_F64 = 0, GALE_F32 = 1 };

/* Batch width of the column-batched tridiagonal solve (docs/numerics.md):
 * 16 columns give each level of the sweeps 4 (double) or 2 (float)
 * independent 256-bit chains, which the recurrence's latency needs (8
 * columns were 1.4x slower in cache on Zen 4). */
#define GALE_LANES 16

/* Everything the kernels read that does not change during a run: the local
 * connectivity, the geometry-derived coefficients and the Helmholtz operator
 * coefficients. Filled by the algorithm layer (src/model/model.c); the launch
 * layer owns its placement (the offload layer maps it to the device once). */
typedef struct {
    int nlev;            /* layers */
    int sc, si;          /* column strides of layer and interface fields */
    int ncell, nedge;    /* local columns, halos included */
    int ncell_alloc;     /* ncell rounded up to GALE_LANES (batched storage) */
    const int *cell_nbr;     /* [4*ncell] neighbour across W,S,E,N (-1: outside) */
    const int *cell_edge;    /* [4*ncell] */
    const double *cell_sign; /* [4*ncell] +1 if the cell is the edge's first cell, else -1 */
    const int *edge_cell;    /* [2*nedge] first, second (-1: outside) */
    const int *edge_side;    /* [2*nedge] the edge's side in its first, second cell */
    const double *area;      /* [ncell] A_c [m^2] */
    const double *elen;      /* [nedge] l_e [m] */
    const double *erdist;    /* [nedge] 1/d_e [1/m] */
    const double *mfd;       /* [16*ncell] the cells' mimetic inner products (gale_geom_t) */
    const double *dz;        /* [nlev] layer depth [m] */
    const double *dzi;       /* [nlev+1] distance between layer centres at interfaces; 0 at 0, nlev */
    const double *rdzi;      /* [nlev+1] 1/(distance between layer centres) at interfaces; 0 at 0, nlev */
    /* the linear core's layers as flat columns (dzv = dzf = dz, hl = qi = 1, dzqi = dzi: the
     * shallow atmosphere) or spherical shells (docs/numerics.md, "The deep atmosphere") */
    const double *dzv;       /* [nlev] a layer's volume over the cell's area at r = a */
    const double *dzf;       /* [nlev] a side face's area over the edge's length at r = a */
    const double *hl;        /* [nlev] dzf / dzv: the horizontal gradient's factor */
    const double *qi;        /* [nlev+1] an interface's area over the cell's area at r = a */
    const double *dzqi;      /* [nlev+1] qi dzi: M_w over A_c; 0 at 0, nlev */
    int deep;                /* shells: the kernels take the factors per level */
    /* physics and time step */
    double c2, n2;           /* c^2, N^2 */
    double tau;              /* alpha*dt */
    /* Helmholtz operator A = diag(V/c^2) + tau^2 (G_h^T M_u G_h + G_z^T M_w G_z / (1 + tau^2 N^2)):
     * per column and per level, in each precision, see gale_kbodies_solver.h */
    const double *h_ad;      /* [ncell] A_c / c^2 */
    const double *h_av;      /* [ncell] A_c tau^2/(1+tau^2 N^2) */
    const double *h_hs;      /* [4*ncell] tau^2 l_e/d_e per side */
    const double *h_dzh;     /* [nlev] dzf hl: the horizontal part's depth (dz when flat) */
    const double *h_rho;     /* [nlev] dzv / h_dzh: the diagonal's share (1 when flat) */
    const double *h_rq;      /* [nlev+1] qi / dzi: the vertical part's (rdzi when flat) */
    const float *h_ad_f, *h_av_f, *h_hs_f, *h_dzh_f, *h_rho_f, *h_rq_f;
    /* tridiagonal preconditioner factors, batched: [(c/L)*nlev + k]*L + c%L, L = GALE_LANES */
    const double *tri_m, *tri_c;
    const float *tri_m_f, *tri_c_f;
    const double *diag_inv;  /* [ncell*sc] 1/diag(A) */
    const float *diag_inv_f;
    /* a coarse multigrid level only (else 0, NULL): its owned cells' four
     * children on the next finer level, as local indices there */
    int nchild;              /* owned cells */
    const int *child;        /* [4*nchild] */
    void *impl;              /* launch-layer private data (scratch, device copies) */
} gale_kmesh_t;

/* The mesh part of km: one rank's local mesh (halos included) and its
 * geometry, with ncell_alloc (>= the local cells, a multiple of GALE_LANES)
 * columns of batched storage. */
static inline void gale_kmesh_set_mesh(gale_kmesh_t *km, const gale_local_t *lm,
                                       const gale_geom_t *g, int ncell_alloc)
{
    km->ncell = lm->ncell[lm->depth];
    km->nedge = lm->nedge[lm->depth];
    km->ncell_alloc = ncell_alloc;
    km->cell_nbr = lm->cell_nbr;
    km->cell_edge = lm->cell_edge;
    km->edge_cell = lm->edge_cell;
    km->edge_side = g->edge_side;
    km->cell_sign = g->cell_sign;
    km->area = g->area;
    km->elen = g->elen;
    km->erdist = g->erdist;
    km->mfd = g->mfd;
}

/* ---- device and memory (before gale_k_init; the CPU layer accepts and
 * ignores the options) ---- */
enum { GALE_MEM_DISCRETE = 0, GALE_MEM_UNIFIED = 1 }; /* [offload] memory, in choice order */
typedef struct {
    int memory;     /* GALE_MEM_*: device copies (map/update) or zero-copy host memory */
    int gpu_aware;  /* [halo] gpu_aware: halo messages in device buffers */
    int local_rank; /* this rank's index on its node: picks one of several GPUs */
} gale_kopts_t;
typedef struct {
    char desc[160]; /* for the start-up log */
    char runtime[160]; /* the vendor runtime's own word, logged when set (HIP, GALE_HIP=ON) */
    int gpu;        /* 1: a GPU, whose memory MPI cannot read unless it is GPU-aware */
    int vendor;     /* of the GPU: 0 none, 1 NVIDIA (CUDA), 2 AMD (HIP) */
} gale_kdevice_t;
/* Not collective. Picks the device and checks the memory mode. On a
 * problem the user can fix (no device under OMP_TARGET_OFFLOAD=MANDATORY,
 * unified memory the device cannot use) writes the reason to msg and returns
 * GALE_ERR_INPUT without printing: the caller agrees on it across ranks
 * (psy/device.c, gale_psy_device_setup). */
int gale_k_configure(const gale_kopts_t *o, gale_kdevice_t *dev, char *msg, size_t n);

/* ---- life cycle ---- */
const char *gale_k_name(void);                  /* "cpu" or "offload-<target>" */
int gale_k_init(gale_kmesh_t *km);              /* after every array above is set */
void gale_k_finalize(gale_kmesh_t *km);
/* Fields used by kernels: the offload layer places them on the device, and
 * kernels (the reductions included) read the device copy. */
int gale_k_field_register(gale_field_t *f);
void gale_k_field_release(gale_field_t *f);
int gale_k_field_to_host(gale_field_t *f);      /* make the host copy current */
int gale_k_field_to_device(gale_field_t *f);    /* after the host wrote it */

/* Bytes moved between host and device by this rank since start-up, by what
 * moved (all zero in the CPU layer and in unified memory). */
typedef struct {
    double field_h2d, field_d2h; /* whole fields: registration, to_device, to_host */
    double halo_h2d, halo_d2h;   /* host-staged halo messages ([halo] gpu_aware = false) */
    double small_h2d, small_d2h; /* reduction results and their initial values */
    double const_h2d;            /* read-only arrays: gale_k_init, dot weights, halo lists */
} gale_kxfer_t;
void gale_k_transfers(gale_kxfer_t *x);

/* ---- halo packing for halo/ plans (psy/psy.c installs these as a
 * plan's packer; the signatures match gale_pack_fn / gale_unpack_fn). attach
 * receives a plan's flattened index lists and host message buffers (ns and
 * nr columns of nlev values of elem bytes) and returns the buffers MPI must
 * use: device buffers with gpu_aware in discrete memory, else the host ones.
 * The pack/unpack idx argument is the plan's list; the layer uses its own
 * copy of it. ---- */
typedef struct gale_khalo gale_khalo_t;
int gale_k_halo_attach(gale_khalo_t **kh, const int *sidx, int ns, const int *ridx, int nr,
                       int nlev, int elem, void *sbuf, void *rbuf, void **msg_sbuf,
                       void **msg_rbuf);
void gale_k_halo_pack(void *kh, const void *field, int stride, int elem, int nlev,
                      const int *idx, int n, void *buf);
void gale_k_halo_unpack(void *kh, void *field, int stride, int elem, int nlev, const int *idx,
                        int n, const void *buf);
void gale_k_halo_detach(void *kh);

/* ---- the machine's limit ---- */
/* The STREAM triad a[i] = b[i] + s c[i] on three arrays of `bytes` in all,
 * where the kernels run (the host's threads, or the device), the best of
 * ntimes passes after a first one: GB/s (1e9 B; 24 B per element, write
 * allocation not counted, as STREAM). The run report's roofline (docs/report.md).
 * Not collective; the caller makes ranks that share a node run it together. */
double gale_k_triad(double bytes, int ntimes);

/* ---- the described kernels: gale_kdesc.h (gale_k_run) ---- */

/* ---- local parts of global sums ----
 * A reproducible sum holds the exact sum of the values added to it in fixed
 * point: signed 46-bit digits in int64 words, weights 2^(138 - 46 j);
 * |values| < 2^184 and resolution 2^-184 (below it truncated toward zero, the
 * same way everywhere). A SUM reduction (gale_kdesc.h: dots) adds one value
 * per column: the column's sum in a fixed order (gale_kbodies.h), the same
 * bits wherever the column is summed. Integer addition is associative, so the
 * total is independent of the order, the thread count and the rank count.
 * `bad` counts NaN, Inf and out-of-range values. `plain` is the ordinary
 * floating-point sum. */
#define GALE_RSUM_WORDS 8
typedef struct {
    int64_t w[GALE_RSUM_WORDS];
    int64_t bad;
    double plain;
} gale_rsum_t;
void gale_rsum_zero(gale_rsum_t *s);
void gale_rsum_add(gale_rsum_t *s, double x);            /* one term (host, scalar) */
double gale_rsum_value(const gale_rsum_t *s);            /* after a global integer sum */

#endif
