/* The dispatch of every described kernel (gale_kdesc.h), one source for both
 * launch layers: included inside a layer's gale_k_run, which has in scope
 *   ka_      the launch (gale_kargs_t *; a reduction's: its nset sets),
 *   i0, i1   the columns,
 *   KM, TR, NK  the static data the bodies read,
 * and has defined GALE_KADDR(p) and GALE_KWEIGHT(w, n), the addresses the
 * bodies use for a field's and an n-double weight's host address p, w, and
 * its loop heads GALE_KLOOP_CELLS, _EDGES, _FLAT, _COLS, _BATCH (devptrs,
 * body) and GALE_KLOOP_SUM, _MAXABS, _MINMAX (devptrs, bind, body): devptrs
 * is "(, f1, f2 ...)" (the field and weight arguments' names, for an offload
 * layer's is_device_ptr: GALE_PP_UNPAREN devptrs), body one call of the
 * kernel's body with i the column (FLAT: the element; BATCH: the batch, with
 * l0, l1 and T), and bind, for a reduction, binds the arguments of its set
 * j_ (a head loops j_ over [0, nset_), each set into its result kb_->red). */
#define GALE_KD_BIND_(n, loc, acc, st) GALE_KD_BIND_##loc(n)
#define GALE_KD_FIELD_(n)                                                                  \
    void *const n = GALE_KADDR(kb_->f[kf_].p);                                             \
    const int n##_nlev = kb_->f[kf_].nlev, n##_stride = kb_->f[kf_++].stride;             \
    (void)n##_nlev;                                                                        \
    (void)n##_stride;
#define GALE_KD_BIND_C(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_E(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_I(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_CI(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_A(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_S(n) const double n = kb_->s[ks_++];
/* a weight per column of the range, per level of the first field */
#define GALE_KD_BIND_WC(n) const double *const n = GALE_KWEIGHT(kb_->w[kw_++], (size_t)i1);
#define GALE_KD_BIND_WL(n) const double *const n = GALE_KWEIGHT(kb_->w[kw_++], (size_t)kb_->nlev);
#define GALE_KD_BINDS_(args)                                                               \
    int kf_ = 0, ks_ = 0, kw_ = 0;                                                         \
    GALE_PP_MAPT(GALE_KD_BIND_, args)                                                      \
    (void)kf_, (void)ks_, (void)kw_;
#define GALE_KD_DEV_(n, loc, acc, st) GALE_KD_DEV_##loc(n)
#define GALE_KD_DEV_C(n) , n
#define GALE_KD_DEV_E(n) , n
#define GALE_KD_DEV_I(n) , n
#define GALE_KD_DEV_CI(n) , n
#define GALE_KD_DEV_A(n) , n
#define GALE_KD_DEV_S(n)
#define GALE_KD_DEV_WC(n) , n
#define GALE_KD_DEV_WL(n) , n
#define GALE_KD_LOOP_(space, args, body) GALE_KD_LOOP_##space(space, args, body)
/* a fused group's dispatch (GALE_KD_COLUMN defined) runs the columns the
 * layer gives a thread through its GALE_KCOL_<space> heads instead
 * (docs/fusion.md) */
#ifdef GALE_KD_COLUMN
#define GALE_KD_HEAD_(space) GALE_KCOL_##space
#else
#define GALE_KD_HEAD_(space) GALE_KLOOP_##space
#endif
#define GALE_KD_LOOP_RUN_(space, args, body)                                               \
    GALE_KD_HEAD_(space)((GALE_PP_MAPT(GALE_KD_DEV_, args)), body)
#define GALE_KD_LOOP_RED_(space, args, body)                                               \
    GALE_KD_HEAD_(space)((GALE_PP_MAPT(GALE_KD_DEV_, args)),                               \
                         const gale_kargs_t *const kb_ = ka_ + j_; GALE_KD_BINDS_(args), body)
#define GALE_KD_LOOP_CELLS(...) GALE_KD_LOOP_RUN_(__VA_ARGS__)
#define GALE_KD_LOOP_EDGES(...) GALE_KD_LOOP_RUN_(__VA_ARGS__)
#define GALE_KD_LOOP_FLAT(...) GALE_KD_LOOP_RUN_(__VA_ARGS__)
#define GALE_KD_LOOP_COLS(...) GALE_KD_LOOP_RUN_(__VA_ARGS__)
#ifdef GALE_KD_COLUMN /* a group holds no batch kernel and no reduction (psy/ refuses them) */
#define GALE_KD_LOOP_BATCH(...)
#define GALE_KD_LOOP_SUM(...)
#define GALE_KD_LOOP_MAXABS(...)
#define GALE_KD_LOOP_MINMAX(...)
#else
#define GALE_KD_LOOP_BATCH(...) GALE_KD_LOOP_RUN_(__VA_ARGS__)
#define GALE_KD_LOOP_SUM(...) GALE_KD_LOOP_RED_(__VA_ARGS__)
#define GALE_KD_LOOP_MAXABS(...) GALE_KD_LOOP_RED_(__VA_ARGS__)
#define GALE_KD_LOOP_MINMAX(...) GALE_KD_LOOP_RED_(__VA_ARGS__)
#endif
#define GALE_KD_PREC_D(space, args, cd, cf) GALE_KD_LOOP_(space, args, cd);
#define GALE_KD_PREC_DF(space, args, cd, cf)                                               \
    if (ka_->prec == GALE_F32) {                                                             \
        GALE_KD_LOOP_(space, args, cf);                                                    \
    } else {                                                                               \
        GALE_KD_LOOP_(space, args, cd);                                                    \
    }
/* a kernel over columns binds its arguments once; a reduction, in its head */
#ifdef GALE_KD_COLUMN /* only the groups' kernels: the others are never in one */
#define GALE_KD_WANT_(name)                                                                \
    if (!gale_kg_member(GALE_K_##name)) break;
#else
#define GALE_KD_WANT_(name)
#endif
#define GALE_KD_CASE_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)          \
    case GALE_K_##name: {                                                                  \
        GALE_KD_WANT_(name)                                                                \
        const gale_kargs_t *const kb_ = ka_;                                               \
        const int nset_ = ka_->nset > 1 ? ka_->nset : 1;                                   \
        (void)kb_, (void)nset_;                                                            \
        GALE_KD_ONCE_##space(args)                                                         \
        GALE_KD_PREC_##prec(space, args, cd, cf)                                           \
    } break;
#define GALE_KD_ONCE_CELLS(args) GALE_KD_BINDS_(args)
#define GALE_KD_ONCE_EDGES(args) GALE_KD_BINDS_(args)
#define GALE_KD_ONCE_FLAT(args) GALE_KD_BINDS_(args)
#define GALE_KD_ONCE_COLS(args) GALE_KD_BINDS_(args)
#ifdef GALE_KD_COLUMN
#define GALE_KD_ONCE_BATCH(args)
#else
#define GALE_KD_ONCE_BATCH(args) GALE_KD_BINDS_(args)
#endif
#define GALE_KD_ONCE_SUM(args)
#define GALE_KD_ONCE_MAXABS(args)
#define GALE_KD_ONCE_MINMAX(args)

switch (id) {
    GALE_KERNELS(GALE_KD_CASE_)
default: break;
}

#undef GALE_KD_BIND_
#undef GALE_KD_FIELD_
#undef GALE_KD_BIND_C
#undef GALE_KD_BIND_E
#undef GALE_KD_BIND_I
#undef GALE_KD_BIND_CI
#undef GALE_KD_BIND_A
#undef GALE_KD_BIND_S
#undef GALE_KD_BIND_WC
#undef GALE_KD_BIND_WL
#undef GALE_KD_BINDS_
#undef GALE_KD_DEV_
#undef GALE_KD_DEV_C
#undef GALE_KD_DEV_E
#undef GALE_KD_DEV_I
#undef GALE_KD_DEV_CI
#undef GALE_KD_DEV_A
#undef GALE_KD_DEV_S
#undef GALE_KD_DEV_WC
#undef GALE_KD_DEV_WL
#undef GALE_KD_LOOP_
#undef GALE_KD_HEAD_
#undef GALE_KD_LOOP_RUN_
#undef GALE_KD_LOOP_RED_
#undef GALE_KD_LOOP_CELLS
#undef GALE_KD_LOOP_EDGES
#undef GALE_KD_LOOP_FLAT
#undef GALE_KD_LOOP_COLS
#undef GALE_KD_LOOP_BATCH
#undef GALE_KD_LOOP_SUM
#undef GALE_KD_LOOP_MAXABS
#undef GALE_KD_LOOP_MINMAX
#undef GALE_KD_PREC_D
#undef GALE_KD_PREC_DF
#undef GALE_KD_CASE_
#undef GALE_KD_WANT_
#undef GALE_KD_ONCE_CELLS
#undef GALE_KD_ONCE_EDGES
#undef GALE_KD_ONCE_FLAT
#undef GALE_KD_ONCE_COLS
#undef GALE_KD_ONCE_BATCH
#undef GALE_KD_ONCE_SUM
#undef GALE_KD_ONCE_MAXABS
#undef GALE_KD_ONCE_MINMAX
