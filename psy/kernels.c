/* The typed launches, derived from the kernel rows (gale_kdesc.h): each
 * fills a gale_psy_call_t (a reduction: one per set) with its fields,
 * scalars, weights and static data in the row's order and hands it to
 * gale_psy_launch (psy.c), which checks it against the row, exchanges what
 * is stale and runs the kernel. */
#include "gale_psy.h"

#include "gale_base.h"

#include <string.h>

#define GALE_PSY_SET_(n, loc, acc, st) GALE_PSY_SET_##loc(n)
#define GALE_PSY_SET_C(n) c_.f[nf_++] = n;
#define GALE_PSY_SET_E(n) c_.f[nf_++] = n;
#define GALE_PSY_SET_I(n) c_.f[nf_++] = n;
#define GALE_PSY_SET_CI(n) c_.f[nf_++] = n;
#define GALE_PSY_SET_A(n) c_.f[nf_++] = n;
#define GALE_PSY_SET_S(n) c_.s[ns_++] = n;
#define GALE_PSY_AUXS_M
#define GALE_PSY_AUXS_T c_.tr = tr_;
#define GALE_PSY_AUXS_N c_.nk = nk_;
#define GALE_PSY_DEF_RUN(name, aux, args)                                                  \
    GALE_PSY_SIG_(name, aux, args)                                                         \
    {                                                                                      \
        gale_psy_call_t c_;                                                                \
        memset(&c_, 0, sizeof c_);                                                        \
        int nf_ = 0, ns_ = 0;                                                              \
        GALE_PSY_AUXS_##aux GALE_PP_MAPT(GALE_PSY_SET_, args)(void) nf_;                   \
        (void)ns_;                                                                         \
        return gale_psy_launch(psy_, GALE_K_##name, &c_);                                  \
    }
#define GALE_PSY_DEF_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)          \
    GALE_PSY_DEF_##space(name, aux, args)
#define GALE_PSY_DEF_CELLS(name, aux, args) GALE_PSY_DEF_RUN(name, aux, args)
#define GALE_PSY_DEF_EDGES(name, aux, args) GALE_PSY_DEF_RUN(name, aux, args)
#define GALE_PSY_DEF_FLAT(name, aux, args) GALE_PSY_DEF_RUN(name, aux, args)
#define GALE_PSY_DEF_COLS(name, aux, args) GALE_PSY_DEF_RUN(name, aux, args)
#define GALE_PSY_DEF_BATCH(name, aux, args) GALE_PSY_DEF_RUN(name, aux, args)
/* a reduction writes no field and exchanges nothing: its const fields go
 * into the call as they are */
#define GALE_PSY_RSET_(n, loc, acc, st) GALE_PSY_RSET_##loc(n)
#define GALE_PSY_RSET_C(n) c_[j_].f[nf_++] = (gale_field_t *)a_[j_].n;
#define GALE_PSY_RSET_E(n) GALE_PSY_RSET_C(n)
#define GALE_PSY_RSET_I(n) GALE_PSY_RSET_C(n)
#define GALE_PSY_RSET_CI(n) GALE_PSY_RSET_C(n)
#define GALE_PSY_RSET_A(n) GALE_PSY_RSET_C(n)
#define GALE_PSY_RSET_S(n) c_[j_].s[ns_++] = a_[j_].n;
#define GALE_PSY_RSET_WC(n) c_[j_].w[nw_++] = a_[j_].n;
#define GALE_PSY_RSET_WL(n) c_[j_].w[nw_++] = a_[j_].n;
#define GALE_PSY_DEF_RED_(name, aux, args)                                                 \
    GALE_PSY_RSIG_(name)                                                                   \
    {                                                                                      \
        if (n_ < 1) return GALE_OK;                                                        \
        gale_psy_call_t c_[n_];                                                            \
        memset(c_, 0, sizeof c_);                                                          \
        for (int j_ = 0; j_ < n_; j_++) {                                                  \
            int nf_ = 0, ns_ = 0, nw_ = 0;                                                 \
            GALE_PP_MAPT(GALE_PSY_RSET_, args)(void) nf_, (void)ns_, (void)nw_;            \
            c_[j_].red = &r_[j_];                                                          \
        }                                                                                  \
        c_[0].nset = n_;                                                                   \
        return gale_psy_launch(psy_, GALE_K_##name, c_);                                   \
    }
#define GALE_PSY_DEF_SUM(name, aux, args) GALE_PSY_DEF_RED_(name, aux, args)
#define GALE_PSY_DEF_MAXABS(name, aux, args) GALE_PSY_DEF_RED_(name, aux, args)
#define GALE_PSY_DEF_MINMAX(name, aux, args) GALE_PSY_DEF_RED_(name, aux, args)
GALE_KERNELS(GALE_PSY_DEF_)

double gale_psy_triad(double bytes, int ntimes) { return gale_k_triad(bytes, ntimes); }

int gale_psy_helmholtz_also(gale_psy_t *p, gale_field_t *x, gale_field_t *y, gale_field_t *also)
{
    gale_psy_call_t c = {.f = {x, y}, .also = also};
    return gale_psy_launch(p, GALE_K_helmholtz, &c);
}

int gale_psy_precond(gale_psy_t *p, int pc, gale_field_t *r, gale_field_t *z)
{
    switch (pc) {
    case GALE_PC_DIAGONAL: return gale_psy_pc_diag(p, r, z);
    case GALE_PC_TRIDIAGONAL: return gale_psy_pc_tridiag(p, r, z);
    case GALE_PC_NONE: return gale_psy_copy(p, z, r);
    default: GALE_ERROR(GALE_ERR_INTERNAL, "gale_psy_precond: preconditioner %d is not a kernel", pc);
    }
}
