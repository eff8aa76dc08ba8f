/* The contents of one output file: the UGRID mesh (shared files) or the rows'
 * global ids (per-rank and group files), the time and level coordinates, the
 * data variables with their CF/UGRID attributes; and the XDMF sidecar that
 * lets ParaView draw a shared file on the 3-D shell. docs/output.md. */
#define _GNU_SOURCE /* fallocate */
#include "gale_outfile.h"

#include "gale_base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The model starts at t = 0 and has no calendar: a nominal epoch. */
static const char time_units[] = "seconds since 2000-01-01 00:00:00";

double gale_outfile_exaggeration(double radius, double top)
{
    double x = 0.1 * radius / top;
    return x > 1.0 ? x : 1.0;
}

static int def_level(gale_nc4_t *f, const char *name, int64_t n, const char *lname, int *dim,
                     int *var)
{
    int st = GALE_OK;
    GALE_TRY(gale_nc4_def_coord(f, name, n, GALE_NC4_DOUBLE, dim, var));
    GALE_TRY(gale_nc4_put_att_text(f, *var, "standard_name", "height"));
    GALE_TRY(gale_nc4_put_att_text(f, *var, "long_name", lname));
    GALE_TRY(gale_nc4_put_att_text(f, *var, "units", "m"));
    GALE_TRY(gale_nc4_put_att_text(f, *var, "positive", "up"));
    GALE_TRY(gale_nc4_put_att_text(f, *var, "axis", "Z"));
done:
    return st;
}

static int def_gid(gale_nc4_t *f, const char *name, const char *what, int dim, int *var)
{
    int st = GALE_OK;
    char lname[96];
    snprintf(lname, sizeof lname, "global id of each %s (its index in mesh.nc)", what);
    GALE_TRY(gale_nc4_def_var(f, name, GALE_NC4_INT, 1, &dim, NULL, var));
    GALE_TRY(gale_nc4_put_att_text(f, *var, "long_name", lname));
    /* not data for CDO, which would average the ids (io/mesh_file.c) */
    GALE_TRY(gale_nc4_put_att_text(f, *var, "cdi", "ignore"));
done:
    return st;
}

int gale_outfile_create(gale_outfile_t *of, const char *path, hid_t fapl,
                        const gale_outfile_spec_t *sp)
{
    int st = GALE_OK;
    const gale_writer_opts_t *o = sp->o;
    const int shared = sp->mode == GALE_WRITER_SHARED;
    gale_io_mesh_t mesh;
    gale_io_faces_t faces = {{-1, -1}, {-1, -1}, -1};
    of->nc = NULL;
    if (!(of->varid = malloc((size_t)o->nvars * sizeof *of->varid)))
        GALE_ERROR(GALE_ERR_MEM, "out of memory");
    for (int v = 0; v < o->nvars; v++) of->varid[v] = -1;
    GALE_TRY(gale_nc4_create(&of->nc, path, fapl));
    gale_nc4_t *f = of->nc;

    /* Rows: the global mesh's, or this file's share with their global ids. */
    int drow[2] = {-1, -1}, vgid[2] = {-1, -1};
    if (shared) {
        GALE_TRY(gale_io_mesh_def(f, o->cs, &mesh));
        drow[0] = mesh.dface;
        drow[1] = mesh.dedge;
    } else {
        /* A netCDF dimension cannot be empty (0 means unlimited): a rank
         * owning no edge has no edge variables. */
        int dfour = -1;
        if (sp->nface) GALE_TRY(gale_nc4_def_dim(f, "nface", sp->nface, &drow[0]));
        if (sp->nedge) GALE_TRY(gale_nc4_def_dim(f, "nedge", sp->nedge, &drow[1]));
        if (sp->nface) GALE_TRY(gale_nc4_def_dim(f, "Four", 4, &dfour));
        if (sp->nface) GALE_TRY(def_gid(f, "face_global_id", "face", drow[0], &vgid[0]));
        if (sp->nedge) GALE_TRY(def_gid(f, "edge_global_id", "edge", drow[1], &vgid[1]));
        /* the faces' cells, so that a file on its own is a grid CDO can use */
        if (sp->nface) GALE_TRY(gale_io_faces_def(f, drow[0], dfour, &faces));
    }
    int dtime, vtime, dlev[3] = {-1, -1, -1}, vlev[3];
    GALE_TRY(gale_nc4_def_coord(f, "time", 1, GALE_NC4_DOUBLE, &dtime, &vtime));
    GALE_TRY(gale_nc4_put_att_text(f, vtime, "standard_name", "time"));
    GALE_TRY(gale_nc4_put_att_text(f, vtime, "long_name", "model time"));
    GALE_TRY(gale_nc4_put_att_text(f, vtime, "units", time_units));
    GALE_TRY(gale_nc4_put_att_text(f, vtime, "calendar", "standard"));
    GALE_TRY(gale_nc4_put_att_text(f, vtime, "axis", "T"));
    GALE_TRY(def_level(f, "full_levels", o->nlev, "height of the layer centres", &dlev[GALE_OUT_LAYERS],
                       &vlev[GALE_OUT_LAYERS]));
    GALE_TRY(def_level(f, "interface_levels", o->nlev + 1,
                       "height of the layer interfaces (w and b live here)",
                       &dlev[GALE_OUT_INTERFACES], &vlev[GALE_OUT_INTERFACES]));

    static const char *const where[2] = {"face", "edge"};
    for (int i = 0; i < sp->nfv; i++) {
        const gale_outvar_t *v = &o->vars[sp->fvars[i]];
        if (drow[v->loc] < 0) continue;
        int dims[3] = {dtime, drow[v->loc], dlev[v->vert]}, nd = v->vert == GALE_OUT_2D ? 2 : 3;
        const int64_t nlevs = v->vert == GALE_OUT_INTERFACES ? o->nlev + 1 : o->nlev;
        const int64_t chunk[3] = {1, o->chunk_columns, nlevs};
        /* Every element is written: no fill (a parallel file would write
         * the variable twice). */
        gale_nc4_varopt_t opt = {o->chunk_columns > 0 ? chunk : NULL, 1};
        int id;
        GALE_TRY(gale_nc4_def_var_ex(f, v->name, GALE_NC4_DOUBLE, nd, dims, NULL, &opt, &id));
        of->varid[sp->fvars[i]] = id;
        if (v->standard_name[0])
            GALE_TRY(gale_nc4_put_att_text(f, id, "standard_name", v->standard_name));
        GALE_TRY(gale_nc4_put_att_text(f, id, "long_name", v->long_name));
        GALE_TRY(gale_nc4_put_att_text(f, id, "units", v->units));
        if (shared) {
            GALE_TRY(gale_nc4_put_att_text(f, id, "mesh", "Mesh2d"));
            GALE_TRY(gale_nc4_put_att_text(f, id, "location", where[v->loc]));
            GALE_TRY(gale_nc4_put_att_text(f, id, "coordinates",
                                           v->loc == GALE_OUT_FACE ? "Mesh2d_face_x Mesh2d_face_y"
                                                                   : "Mesh2d_edge_x Mesh2d_edge_y"));
        } else {
            GALE_TRY(gale_nc4_put_att_text(f, id, "location", where[v->loc]));
            GALE_TRY(gale_nc4_put_att_text(f, id, "global_id",
                                           v->loc == GALE_OUT_FACE ? "face_global_id"
                                                                   : "edge_global_id"));
            if (v->loc == GALE_OUT_FACE)
                GALE_TRY(gale_nc4_put_att_text(f, id, "coordinates", "Mesh2d_face_x Mesh2d_face_y"));
        }
        /* CDO weighs its means and conservative remapping with these areas */
        if (v->loc == GALE_OUT_FACE)
            GALE_TRY(gale_nc4_put_att_text(f, id, "cell_measures", "area: Mesh2d_face_area"));
        if (v->cell_methods[0])
            GALE_TRY(gale_nc4_put_att_text(f, id, "cell_methods", v->cell_methods));
    }

    static const char *const layouts[3] = {"shared", "per_rank", "aggregated"};
    char title[96];
    snprintf(title, sizeof title, "gale output after step %d", sp->step);
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "Conventions",
                                   shared ? "CF-1.8 UGRID-1.0" : "CF-1.8"));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "title", title));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "source", "gale " GALE_VERSION));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "gale_version", GALE_VERSION));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "output_layout", layouts[sp->mode]));
    GALE_TRY(gale_nc4_put_att_int(f, GALE_NC4_GLOBAL, "step", 1, &sp->step));
    if (!shared) {
        char mname[32];
        snprintf(mname, sizeof mname, "C%d", o->cs->n);
        GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "mesh_name", mname));
        GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "mesh_file", "mesh.nc"));
        GALE_TRY(gale_nc4_put_att_int(f, GALE_NC4_GLOBAL,
                                      sp->mode == GALE_WRITER_PER_RANK ? "rank" : "group", 1,
                                      &sp->part));
        GALE_TRY(gale_nc4_put_att_int(f, GALE_NC4_GLOBAL,
                                      sp->mode == GALE_WRITER_PER_RANK ? "ranks" : "groups", 1,
                                      &sp->nparts));
    }
    if (o->config_text)
        GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "configuration", o->config_text));

    /* Coordinates and the mesh are contiguous rows per rank: independent
     * writes, which need no exchange and do not make the ranks wait for
     * each other. The data variables' scattered rows go collectively. */
    GALE_TRY(gale_nc4_collective(f, 0));
    GALE_TRY(gale_nc4_put_var(f, vtime, &sp->time));
    GALE_TRY(gale_nc4_put_var(f, vlev[GALE_OUT_LAYERS], o->z_c));
    GALE_TRY(gale_nc4_put_var(f, vlev[GALE_OUT_INTERFACES], o->z_if));
    if (shared) {
        GALE_TRY(gale_io_mesh_put(f, o->cs, &mesh, sp->part, sp->nparts, 0));
    } else {
        if (sp->nface) GALE_TRY(gale_nc4_put_rows(f, vgid[0], 0, sp->nface, sp->face_gid));
        if (sp->nface)
            GALE_TRY(gale_io_faces_put(f, o->cs, &faces, sp->nface, sp->face_gid));
        if (sp->nedge) GALE_TRY(gale_nc4_put_rows(f, vgid[1], 0, sp->nedge, sp->edge_gid));
    }
    GALE_TRY(gale_nc4_collective(f, 1));
done:
    return st;
}

int gale_outfile_commit(gale_outfile_t *of)
{
    int st = gale_nc4_commit(&of->nc);
    free(of->varid);
    of->varid = NULL;
    return st;
}

void gale_outfile_abort(gale_outfile_t *of)
{
    gale_nc4_abort(&of->nc);
    free(of->varid);
    of->varid = NULL;
}

/* ---- disk space ---- */

long long gale_outfile_need(const gale_outfile_spec_t *sp)
{
    const gale_writer_opts_t *o = sp->o;
    const long long rows[2] = {sp->nface, sp->nedge};
    long long b = 512 << 10; /* superblock, coordinates, attributes, headroom */
    for (int i = 0; i < sp->nfv; i++) {
        const gale_outvar_t *v = &o->vars[sp->fvars[i]];
        const long long nl = v->vert == GALE_OUT_2D ? 1 : v->vert == GALE_OUT_INTERFACES
                                                              ? o->nlev + 1 : o->nlev;
        b += rows[v->loc] * nl * 8 + (64 << 10); /* values; object headers, chunk index */
    }
    /* the UGRID mesh of a shared file (measured: ~80 B per face and edge);
     * a partial one's global ids, and its faces' centres, corners and
     * areas (88 B a face) */
    if (sp->mode == GALE_WRITER_SHARED) b += (rows[0] + rows[1]) * 128;
    else b += (rows[0] + rows[1]) * 16 + rows[0] * 96;
    return b;
}

int gale_outfile_room(const char *path, long long need, char *why, size_t n)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else snprintf(dir, sizeof dir, ".");
    struct statvfs fs;
    if (statvfs(dir, &fs) != 0) return GALE_OK; /* the create will say what is wrong */
    const long long avail = (long long)fs.f_bavail * (long long)fs.f_frsize;
    if (avail >= need) return GALE_OK;
    snprintf(why, n, "not enough space for %s: %.2f MiB free in %s, the file needs up to %.2f MiB",
             path, avail / 1048576.0, dir, need / 1048576.0);
    return GALE_ERR_IO;
}

int gale_outfile_hold(const char *path, long long need, char *why, size_t n)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY);
    if (fd < 0) return GALE_OK;
    int st = GALE_OK;
    if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)need) != 0 && errno == ENOSPC) {
        snprintf(why, n, "not enough space for %s: %.2f MiB could not be reserved (%s)", path,
                 need / 1048576.0, strerror(ENOSPC));
        st = GALE_ERR_IO;
    }
    close(fd);
    return st;
}

void gale_outfile_release(const char *path)
{
    struct stat sb;
    /* truncating to its own size frees the blocks reserved past the end */
    if (stat(path, &sb) == 0) (void)truncate(path, sb.st_size);
}

/* ---- XDMF ---- */

static void data_item(FILE *x, const char *indent, const char *dims, int is_int, const char *file,
                      const char *dset)
{
    fprintf(x, "%s<DataItem Dimensions=\"%s\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">"
               "%s:/%s</DataItem>\n",
            indent, dims, is_int ? "Int" : "Float", is_int ? 4 : 8, file, dset);
}

int gale_outfile_xdmf(const char *xmf_path, const char *nc_name, const char *mesh_name,
                      const gale_outfile_spec_t *sp, long long *bytes)
{
    const gale_writer_opts_t *o = sp->o;
    const gale_cs_t *cs = o->cs;
    const long long nl = o->nlev, npt = (long long)cs->nverts * (nl + 1);
    char tmp[4200], dims[96];
    snprintf(tmp, sizeof tmp, "%s.tmp", xmf_path);
    FILE *x = fopen(tmp, "w");
    if (!x) GALE_ERROR(GALE_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    /* One uniform grid per kind of location, all on the same points: layers
     * (hexahedra), interfaces and the ground (quadrilaterals), the vertical
     * faces of the edges (quadrilaterals). ParaView shows them as blocks. */
    struct {
        const char *name, *topo, *conn;
        long long n;
        int nodes, loc, vert;
    } grids[4] = {
        {"layers", "Hexahedron", "Mesh3d_cell_nodes", cs->ncells * nl, 8, GALE_OUT_FACE, GALE_OUT_LAYERS},
        {"interfaces", "Quadrilateral", "Mesh3d_interface_nodes", cs->ncells * (nl + 1), 4,
         GALE_OUT_FACE, GALE_OUT_INTERFACES},
        {"edge_faces", "Quadrilateral", "Mesh3d_edge_face_nodes", cs->nedges * nl, 4,
         GALE_OUT_EDGE, GALE_OUT_LAYERS},
        {"ground", "Quadrilateral", "Mesh2d_face_nodes", cs->ncells, 4, GALE_OUT_FACE, GALE_OUT_2D},
    };
    fprintf(x, "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
               "<Xdmf Version=\"2.0\">\n  <Domain>\n");
    for (int g = 0; g < 4; g++) {
        int any = 0;
        for (int i = 0; i < sp->nfv; i++) {
            const gale_outvar_t *v = &o->vars[sp->fvars[i]];
            any |= v->loc == grids[g].loc && v->vert == grids[g].vert;
        }
        if (!any) continue;
        fprintf(x, "    <Grid Name=\"%s\" GridType=\"Uniform\">\n      <Time Value=\"%.17g\"/>\n",
                grids[g].name, sp->time);
        fprintf(x, "      <Topology TopologyType=\"%s\" NumberOfElements=\"%lld\">\n",
                grids[g].topo, grids[g].n);
        snprintf(dims, sizeof dims, "%lld %d", grids[g].n, grids[g].nodes);
        data_item(x, "        ", dims, 1, mesh_name, grids[g].conn);
        fprintf(x, "      </Topology>\n      <Geometry GeometryType=\"XYZ\">\n");
        snprintf(dims, sizeof dims, "%lld 3", npt);
        data_item(x, "        ", dims, 0, mesh_name, "Mesh3d_node_xyz");
        fprintf(x, "      </Geometry>\n");
        for (int i = 0; i < sp->nfv; i++) {
            const gale_outvar_t *v = &o->vars[sp->fvars[i]];
            if (v->loc != grids[g].loc || v->vert != grids[g].vert) continue;
            long long rows = v->loc == GALE_OUT_FACE ? cs->ncells : cs->nedges;
            if (v->vert == GALE_OUT_2D) snprintf(dims, sizeof dims, "1 %lld", rows);
            else snprintf(dims, sizeof dims, "1 %lld %lld", rows,
                          v->vert == GALE_OUT_INTERFACES ? nl + 1 : nl);
            fprintf(x, "      <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Cell\">\n",
                    v->name);
            data_item(x, "        ", dims, 0, nc_name, v->name);
            fprintf(x, "      </Attribute>\n");
        }
        fprintf(x, "    </Grid>\n");
    }
    fprintf(x, "  </Domain>\n</Xdmf>\n");
    const long size = ftell(x);
    char why[8600];
    if (gale_file_finish(x, tmp, xmf_path, why, sizeof why) != 0)
        GALE_ERROR(GALE_ERR_IO, "%s", why);
    *bytes += size;
    return GALE_OK;
}
