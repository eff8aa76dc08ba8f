/* The netCDF-4 writer layer (io/gale_nc4.h): a small file must read back
 * through ncdump exactly as netCDF-C would have written it, and failures must
 * leave no file behind.  usage: test_io_nc4 NCDUMP DIR */
#include "gale_nc4.h"
#include "gale_test.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char expected[] =
    "netcdf io_nc4 {\n"
    "dimensions:\n"
    "\tn = 3 ;\n"
    "\tx = 2 ;\n"
    "variables:\n"
    "\tdouble x(x) ;\n"
    "\t\tx:units = \"m\" ;\n"
    "\tint v(n, x) ;\n"
    "\t\tv:_FillValue = -1 ;\n"
    "\t\tv:long_name = \"a test variable\" ;\n"
    "\t\tv:weights = 2.5, -1.e+300 ;\n"
    "\tfloat t(x) ;\n"
    "\tdouble s ;\n"
    "\n"
    "// global attributes:\n"
    "\t\t:title = \"nc4 test\" ;\n"
    "\t\t:count = 1, 2, 3 ;\n"
    "\t\t:empty = \"\" ;\n"
    "data:\n"
    "\n"
    " x = 10.5, 20.5 ;\n"
    "\n"
    " v =\n"
    "  1, 2,\n"
    "  3, _,\n"
    "  5, 6 ;\n"
    "\n"
    " t = 0.25, 0.5 ;\n"
    "\n"
    " s = _ ;\n"
    "}\n";

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Every kind of definition, in an order netCDF would not allow (attributes
 * after data, a variable after writes): the writer has no define mode. */
static int write_file(const char *path)
{
    int st = GALE_OK, dn, dx, vx, vv, vt, vs;
    gale_nc4_t *f = NULL;
    const double xs[2] = {10.5, 20.5}, scale[2] = {2.5, -1e300};
    const int fill = -1, count[3] = {1, 2, 3}, v[6] = {1, 2, 3, -1, 5, 6};
    const float t[2] = {0.25f, 0.5f};
    GALE_TRY(gale_nc4_create(&f, path, H5P_DEFAULT));
    GALE_TRY(gale_nc4_def_dim(f, "n", 3, &dn));
    GALE_TRY(gale_nc4_def_coord(f, "x", 2, GALE_NC4_DOUBLE, &dx, &vx));
    GALE_TRY(gale_nc4_put_var(f, vx, xs));
    GALE_TRY(gale_nc4_put_att_text(f, vx, "units", "m"));
    const int dims[2] = {dn, dx};
    GALE_TRY(gale_nc4_def_var(f, "v", GALE_NC4_INT, 2, dims, &fill, &vv));
    GALE_TRY(gale_nc4_put_rows(f, vv, 0, 2, v));
    GALE_TRY(gale_nc4_put_rows(f, vv, 2, 1, v + 4));
    GALE_TRY(gale_nc4_put_att_text(f, vv, "long_name", "a test variable"));
    GALE_TRY(gale_nc4_put_att_double(f, vv, "weights", 2, scale));
    GALE_TRY(gale_nc4_def_var(f, "t", GALE_NC4_FLOAT, 1, &dx, NULL, &vt));
    GALE_TRY(gale_nc4_put_var(f, vt, t));
    GALE_TRY(gale_nc4_def_var(f, "s", GALE_NC4_DOUBLE, 0, NULL, NULL, &vs)); /* never written */
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "title", "nc4 test"));
    GALE_TRY(gale_nc4_put_att_int(f, GALE_NC4_GLOBAL, "count", 3, count));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "empty", ""));
    GALE_TRY(gale_nc4_commit(&f));
done:
    gale_nc4_abort(&f);
    return st;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s NCDUMP DIR\n", argv[0]);
        return 2;
    }
    char path[4096], tmp[4400], cmd[8400];
    snprintf(path, sizeof path, "%s/io_nc4.nc", argv[2]);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    remove(path);

    CHECK_OK(write_file(path));
    CHECK(exists(path) && !exists(tmp), "committed file present, temporary gone");

    snprintf(cmd, sizeof cmd, "'%s' '%s'", argv[1], path);
    FILE *p = popen(cmd, "r");
    static char out[8192];
    size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[n] = '\0';
    CHECK(p && pclose(p) == 0, "ncdump %s failed", path);
    CHECK(strcmp(out, expected) == 0, "ncdump output differs:\n%s\nexpected:\n%s", out, expected);

    /* ncdump -s: the file is netCDF-4 (not classic model), with provenance. */
    snprintf(cmd, sizeof cmd, "'%s' -hs '%s'", argv[1], path);
    p = popen(cmd, "r");
    n = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[n] = '\0';
    CHECK(p && pclose(p) == 0, "ncdump -hs failed");
    CHECK(strstr(out, ":_Format = \"netCDF-4\" ;"), "not netCDF-4:\n%s", out);
    CHECK(strstr(out, ":_NCProperties = \"version=2,gale="), "no provenance:\n%s", out);

    /* Failures: an error reported, and neither the file nor the temporary. */
    gale_nc4_t *f = NULL;
    CHECK(gale_nc4_create(&f, "/nonexistent-gale-dir/x.nc", H5P_DEFAULT) == GALE_ERR_IO,
          "create in a missing directory must fail");
    CHECK(f == NULL, "failed create frees the handle");
    CHECK(!exists("/nonexistent-gale-dir/x.nc.tmp"), "no temporary");

    remove(path);
    int dn, v1, v2;
    CHECK_OK(gale_nc4_create(&f, path, H5P_DEFAULT));
    CHECK_OK(gale_nc4_def_dim(f, "n", 3, &dn));
    CHECK_OK(gale_nc4_def_var(f, "a", GALE_NC4_INT, 1, &dn, NULL, &v1));
    CHECK(gale_nc4_def_var(f, "a", GALE_NC4_INT, 1, &dn, NULL, &v2) == GALE_ERR_IO,
          "a second variable of the same name must fail");
    CHECK(exists(tmp), "temporary exists while writing");
    gale_nc4_abort(&f);
    CHECK(f == NULL && !exists(tmp) && !exists(path), "abort leaves nothing");

    /* A commit that cannot rename (the final name is a directory) cleans up. */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/io_nc4_dir.nc", argv[2]);
    mkdir(dir, 0755);
    snprintf(tmp, sizeof tmp, "%s.tmp", dir);
    CHECK_OK(gale_nc4_create(&f, dir, H5P_DEFAULT));
    CHECK(gale_nc4_commit(&f) == GALE_ERR_IO, "rename onto a directory must fail");
    CHECK(f == NULL && !exists(tmp), "failed commit removes the temporary");
    rmdir(dir);

    /* Recreate the good file for the Python reader test. */
    CHECK_OK(write_file(path));
    return gale_test_result("test_io_nc4");
}
