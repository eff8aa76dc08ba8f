/* Minimal test harness: CHECK records a failure with file:line and carries on;
 * a test's main returns gale_test_result(). */
#ifndef GALE_TEST_H
#define GALE_TEST_H
#include <math.h>
#include <stdio.h>

static int gale_test_failures = 0;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            gale_test_failures++;                                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)
/* |a - b| <= tol * max(|b|, tiny) */
#define CHECK_REL(a, b, tol)                                                    \
    CHECK(fabs((double)(a) - (double)(b)) <= (tol) * fmax(fabs((double)(b)), 1e-300), \
          "%s = %.17g, expected %.17g (rel tol %g)", #a, (double)(a), (double)(b), (double)(tol))
#define CHECK_OK(expr) CHECK((expr) == 0, "call failed")

static inline int gale_test_result(const char *name)
{
    if (gale_test_failures) fprintf(stderr, "%s: %d check(s) failed\n", name, gale_test_failures);
    else printf("%s: all checks passed\n", name);
    return gale_test_failures ? 1 : 0;
}
#endif
