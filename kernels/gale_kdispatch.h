/* The dispatch of every described kernel (gale_kdesc.h), one source for both
 * launch layers: included inside a layer's gale_k_run, which has in scope
 *   a        the launch (gale_kargs_t *) with the addresses the bodies use,
 *   i0, i1   the columns,
 *   KM, TR, NK  the static data the bodies read,
 * and has defined its loop heads GALE_KLOOP_CELLS, _EDGES, _FLAT, _COLS and _BATCH
 * (devptrs, body): devptrs is "(, f1, f2 ...)" (the field arguments' names,
 * for an offload layer's is_device_ptr: GALE_PP_UNPAREN devptrs), body one
 * call of the kernel's body with
 * i the column (FLAT: the element; BATCH: the batch, with l0, l1 and T). */
#define GALE_KD_BIND_(n, loc, acc, st) GALE_KD_BIND_##loc(n)
#define GALE_KD_FIELD_(n)                                                                  \
    void *const n = ka_->f[kf_].p;                                                         \
    const int n##_nlev = ka_->f[kf_].nlev, n##_stride = ka_->f[kf_++].stride;             \
    (void)n##_nlev;                                                                        \
    (void)n##_stride;
#define GALE_KD_BIND_C(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_E(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_I(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_CI(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_A(n) GALE_KD_FIELD_(n)
#define GALE_KD_BIND_S(n) const double n = ka_->s[ks_++];
#define GALE_KD_DEV_(n, loc, acc, st) GALE_KD_DEV_##loc(n)
#define GALE_KD_DEV_C(n) , n
#define GALE_KD_DEV_E(n) , n
#define GALE_KD_DEV_I(n) , n
#define GALE_KD_DEV_CI(n) , n
#define GALE_KD_DEV_A(n) , n
#define GALE_KD_DEV_S(n)
#define GALE_KD_LOOP_(space, args, body) GALE_KLOOP_##space((GALE_PP_MAPT(GALE_KD_DEV_, args)), body)
#define GALE_KD_PREC_D(space, args, cd, cf) GALE_KD_LOOP_(space, args, cd);
#define GALE_KD_PREC_DF(space, args, cd, cf)                                               \
    if (ka_->prec == GALE_F32) {                                                             \
        GALE_KD_LOOP_(space, args, cf);                                                    \
    } else {                                                                               \
        GALE_KD_LOOP_(space, args, cd);                                                    \
    }
#define GALE_KD_CASE_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)          \
    GALE_KD_CASE_##space(name, space, prec, args, cd, cf)
#define GALE_KD_RUN_(name, space, prec, args, cd, cf)                                      \
    case GALE_K_##name: {                                                                  \
        int kf_ = 0, ks_ = 0;                                                              \
        GALE_PP_MAPT(GALE_KD_BIND_, args)                                                  \
        (void)kf_;                                                                         \
        (void)ks_;                                                                         \
        GALE_KD_PREC_##prec(space, args, cd, cf)                                           \
    } break;
#define GALE_KD_CASE_CELLS(...) GALE_KD_RUN_(__VA_ARGS__)
#define GALE_KD_CASE_EDGES(...) GALE_KD_RUN_(__VA_ARGS__)
#define GALE_KD_CASE_FLAT(...) GALE_KD_RUN_(__VA_ARGS__)
#define GALE_KD_CASE_COLS(...) GALE_KD_RUN_(__VA_ARGS__)
#define GALE_KD_CASE_BATCH(...) GALE_KD_RUN_(__VA_ARGS__)
#define GALE_KD_CASE_REDUCE(...)

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
#undef GALE_KD_DEV_
#undef GALE_KD_DEV_C
#undef GALE_KD_DEV_E
#undef GALE_KD_DEV_I
#undef GALE_KD_DEV_CI
#undef GALE_KD_DEV_A
#undef GALE_KD_DEV_S
#undef GALE_KD_LOOP_
#undef GALE_KD_PREC_D
#undef GALE_KD_PREC_DF
#undef GALE_KD_CASE_
#undef GALE_KD_RUN_
#undef GALE_KD_CASE_CELLS
#undef GALE_KD_CASE_EDGES
#undef GALE_KD_CASE_FLAT
#undef GALE_KD_CASE_COLS
#undef GALE_KD_CASE_BATCH
#undef GALE_KD_CASE_REDUCE
