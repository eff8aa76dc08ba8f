/* Preprocessor helpers of the kernel descriptions (gale_kdesc.h): a map over
 * a parenthesised list of tuples, so that one row per kernel can be turned
 * into parameter lists, bindings and tables. Up to 16 tuples. */
#ifndef GALE_KPP_H
#define GALE_KPP_H

#define GALE_PP_CAT(a, b) GALE_PP_CAT_(a, b)
#define GALE_PP_CAT_(a, b) a##b
#define GALE_PP_STR(x) GALE_PP_STR_(x)
#define GALE_PP_STR_(x) #x
/* _Pragma of a macro-expanded text (the offload layer's is_device_ptr lists) */
#define GALE_PP_PRAGMA(x) _Pragma(GALE_PP_STR(x))
#define GALE_PP_UNPAREN(...) __VA_ARGS__
#define GALE_PP_NARG(...)                                                                  \
    GALE_PP_NARG_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define GALE_PP_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, \
                      ...)                                                                 \
    N

/* GALE_PP_MAPT(m, ((a, b), (c, d))) -> m(a, b) m(c, d) */
#define GALE_PP_MAPT(m, tuples) GALE_PP_MAPT_(m, GALE_PP_UNPAREN tuples)
#define GALE_PP_MAPT_(m, ...) GALE_PP_CAT(GALE_PP_MAP_, GALE_PP_NARG(__VA_ARGS__))(m, __VA_ARGS__)
#define GALE_PP_MAP_1(m, t) m t
#define GALE_PP_MAP_2(m, t, ...) m t GALE_PP_MAP_1(m, __VA_ARGS__)
#define GALE_PP_MAP_3(m, t, ...) m t GALE_PP_MAP_2(m, __VA_ARGS__)
#define GALE_PP_MAP_4(m, t, ...) m t GALE_PP_MAP_3(m, __VA_ARGS__)
#define GALE_PP_MAP_5(m, t, ...) m t GALE_PP_MAP_4(m, __VA_ARGS__)
#define GALE_PP_MAP_6(m, t, ...) m t GALE_PP_MAP_5(m, __VA_ARGS__)
#define GALE_PP_MAP_7(m, t, ...) m t GALE_PP_MAP_6(m, __VA_ARGS__)
#define GALE_PP_MAP_8(m, t, ...) m t GALE_PP_MAP_7(m, __VA_ARGS__)
#define GALE_PP_MAP_9(m, t, ...) m t GALE_PP_MAP_8(m, __VA_ARGS__)
#define GALE_PP_MAP_10(m, t, ...) m t GALE_PP_MAP_9(m, __VA_ARGS__)
#define GALE_PP_MAP_11(m, t, ...) m t GALE_PP_MAP_10(m, __VA_ARGS__)
#define GALE_PP_MAP_12(m, t, ...) m t GALE_PP_MAP_11(m, __VA_ARGS__)
#define GALE_PP_MAP_13(m, t, ...) m t GALE_PP_MAP_12(m, __VA_ARGS__)
#define GALE_PP_MAP_14(m, t, ...) m t GALE_PP_MAP_13(m, __VA_ARGS__)
#define GALE_PP_MAP_15(m, t, ...) m t GALE_PP_MAP_14(m, __VA_ARGS__)
#define GALE_PP_MAP_16(m, t, ...) m t GALE_PP_MAP_15(m, __VA_ARGS__)

#endif
