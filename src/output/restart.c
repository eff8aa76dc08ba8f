/* Checkpoint and restart of the model: gale_restart.h, docs/checkpoint.md.
 *
 * What is saved: the prognostics u, w, b, p (every entity once, in global id
 * order) and the run state step, time, energy0, energy, max_step_increase,
 * max|u|, max|w| (last step and over the run) and the normal-mode probe
 * history. Nothing else carries
 * from one step to the next (the solver starts each solve from p^n, which is
 * in the state), so a restarted run continues bit for bit. Solver statistics
 * and timers describe the restarted run only.
 *
 * What must agree on restart: the mesh, extrusion, planet, physics, dynamics
 * and initial-case keys and [timestepping] dt and alpha (they define the
 * experiment); a difference is an error that names every differing key with
 * both values, and one of those keys that the file does not record is an
 * error too (its value then is unknown: docs/checkpoint.md "Format
 * versions"). [solver], [mixed_solver] and [multigrid] differences are allowed with a warning (the answer
 * then changes); everything else (ranks, threads, partitioning, halo, io,
 * diagnostics, checkpoint, logging, steps) comes from this run. */
#include "gale_restart.h"

#include "gale_app.h"
#include "gale_base.h"
#include "gale_checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int t_checkpoint = -1; /* timer id: registered on every rank at set-up */

/* ---- the configuration check ---- */

/* Finds "[section]" / "key = value" in gale_config_dump text; copies the
 * value (as dumped) to out. Returns 1 if found. */
static int dump_value(const char *text, const char *section, const char *key, char *out,
                      size_t n)
{
    char cur[64] = "";
    const size_t kl = strlen(key);
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (p[0] == '[' && len > 2 && len - 2 < sizeof cur) {
            memcpy(cur, p + 1, len - 2);
            cur[len - 2] = '\0';
        } else if (strcmp(cur, section) == 0 && len > kl + 3 && strncmp(p, key, kl) == 0 &&
                   strncmp(p + kl, " = ", 3) == 0) {
            size_t vl = len - kl - 3 < n - 1 ? len - kl - 3 : n - 1;
            memcpy(out, p + kl + 3, vl);
            out[vl] = '\0';
            return 1;
        }
        p = e ? e + 1 : NULL;
    }
    return 0;
}

static int must_match(const char *section, const char *key)
{
    static const char *const whole[] = {"mesh", "extrusion", "planet", "physics", "initial",
                                        "dynamics"};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        if (strcmp(section, whole[i]) == 0) return 1;
    return strcmp(section, "timestepping") == 0 &&
           (strcmp(key, "dt") == 0 || strcmp(key, "alpha") == 0);
}

/* Every rank compares the same two texts: the verdict is collective. */
static int check_config(const gale_model_t *m, const gale_ckpt_t *ck, const char *path)
{
    size_t need = gale_config_dump(&m->cfg, NULL, 0) + 1;
    char *mine = malloc(need), bad[1536] = "", warn[1024] = "";
    if (!mine) GALE_ERROR(GALE_ERR_MEM, "cannot allocate %zu bytes", need);
    gale_config_dump(&m->cfg, mine, need);
    char lack[1024] = "";
    size_t nb = 0, nw = 0, nl = 0;
    int nbad = 0;
    for (int i = 0; i < gale_nkeys; i++) {
        const gale_key_t *k = &gale_keys[i];
        const int strict = must_match(k->section, k->key);
        if (!strict && strcmp(k->section, "solver") != 0 && strcmp(k->section, "multigrid") != 0 &&
            strcmp(k->section, "mixed_solver") != 0)
            continue;
        char here[GALE_STR + 8], there[GALE_STR + 8];
        if (!dump_value(mine, k->section, k->key, here, sizeof here)) continue;
        /* A key the writer did not know. Its default then need not be its
         * default now, so for a key that defines the experiment its value
         * in the file is unknown: an error (the format version should have
         * gone up with the key; GALE_CKPT_VERSION). A solver key's default
         * changes only the answer's last bits: nothing to compare. */
        if (!dump_value(ck->config, k->section, k->key, there, sizeof there)) {
            if (strict && nl < sizeof lack)
                nl += (size_t)snprintf(lack + nl, sizeof lack - nl, "%s[%s] %s", nl ? ", " : "",
                                       k->section, k->key);
            continue;
        }
        if (strcmp(here, there) == 0) continue;
        char *buf = strict ? bad : warn;
        size_t *len = strict ? &nb : &nw, cap = strict ? sizeof bad : sizeof warn;
        if (*len < cap)
            *len += (size_t)snprintf(buf + *len, cap - *len, "%s[%s] %s = %s in the file, %s here",
                                     *len ? "; " : "", k->section, k->key, there, here);
        nbad += strict;
    }
    free(mine);
    if (nw)
        gale_log(GALE_LOG_WARN,
                 "restart file '%s': the solver configuration differs (%s): the run continues, "
                 "but not bit for bit with one that kept the checkpoint's solver", path, warn);
    if (!m->cfg.solver.reproducible_sums)
        gale_log(GALE_LOG_WARN,
                 "[solver] reproducible_sums = false: a restart on another rank count does not "
                 "continue bit for bit");
    if (nl)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s' does not record %s, which define the experiment (written "
                   "by %s, which did not know them): what it ran cannot be known, so it cannot "
                   "be restarted exactly; rerun from step 0, or restart it with the gale that "
                   "wrote it", path, lack, ck->writer);
    if (nbad)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s' is for another experiment: %s (mesh, extrusion, planet, "
                   "physics, initial and [timestepping] dt/alpha must match the checkpoint)",
                   path, bad);
    return GALE_OK;
}

/* The mesh identity in binary, after the keys: catches a file whose text and
 * numbers disagree, and a change in how gale builds the levels. */
static int check_mesh(const gale_model_t *m, const gale_ckpt_t *ck, const char *path)
{
    const gale_config_t *c = &m->cfg;
    if (ck->mesh_n != c->mesh.n || ck->nlev != c->extrusion.levels)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s' is for mesh C%d with %d levels; this run has C%d with %d "
                   "levels ([mesh] name, [extrusion] levels)",
                   path, ck->mesh_n, ck->nlev, c->mesh.n, c->extrusion.levels);
    if (ck->ext_method != c->extrusion.method || ck->top != c->extrusion.top)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s' is for extrusion method %s to %.17g m; this run has %s to "
                   "%.17g m ([extrusion] method, top)", path,
                   gale_config_choice("extrusion", "method", ck->ext_method), ck->top,
                   gale_config_choice("extrusion", "method", c->extrusion.method),
                   c->extrusion.top);
    if (ck->radius != c->planet.radius || ck->scaling != c->planet.scaling)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s' is for radius %.17g m, scaling %.17g; this run has %.17g m, "
                   "%.17g ([planet] radius, scaling)",
                   path, ck->radius, ck->scaling, c->planet.radius, c->planet.scaling);
    for (int k = 0; k <= ck->nlev; k++)
        if (ck->z_if[k] != m->z_if[k])
            GALE_ERROR(GALE_ERR_INPUT,
                       "restart file '%s': level interface %d is at %.17g m in the file, %.17g m "
                       "here ([extrusion] top, method)",
                       path, k, ck->z_if[k], m->z_if[k]);
    return GALE_OK;
}

/* ---- the state <-> the file's fields ---- */

static gale_field_t *prognostic(gale_model_t *m, int i) { return m->prog[i]; }

/* The local view of prognostic i: every local column, owned ones first. */
static void local_view(gale_model_t *m, int i, gale_ckpt_field_t *v)
{
    const gale_local_t *lm = &m->lm;
    gale_field_t *f = prognostic(m, i);
    const int edge = f->loc == GALE_LOC_EDGE;
    snprintf(v->name, sizeof v->name, "%s", m->prog_names[i]);
    v->nlev = f->nlev;
    v->ncol = edge ? m->cs.nedges : m->cs.ncells;
    v->nlocal = gale_psy_local(m->psy, edge ? GALE_LOC_EDGE : GALE_LOC_CELL);
    v->nowned = gale_psy_owned(m->psy, edge ? GALE_LOC_EDGE : GALE_LOC_CELL);
    v->gid = edge ? lm->edge_gid : lm->cell_gid;
    v->data = gale_fd(f);
    v->stride = f->stride;
}

static int config_text(const gale_config_t *cfg, char **out)
{
    size_t need = gale_config_dump(cfg, NULL, 0) + 1;
    *out = malloc(need);
    if (!*out) GALE_ERROR(GALE_ERR_MEM, "cannot allocate %zu bytes", need);
    gale_config_dump(cfg, *out, need);
    return GALE_OK;
}

/* gale_ckpt_write as a job of the thread that owns MPI-IO and HDF5 */
typedef struct {
    const char *path;
    gale_ckpt_t *ck;
    MPI_Comm comm;
    MPI_Info info;
    gale_ckpt_stats_t *st;
} ckpt_job_t;

static int ckpt_job(void *arg)
{
    ckpt_job_t *j = arg;
    return gale_ckpt_write(j->path, j->ck, j->comm, j->info, j->st);
}

/* Writes a checkpoint of m to path now, on out's writer thread (out may be
 * NULL: no output, the calling thread). Collective. */
static int write_checkpoint(gale_model_t *m, const char *path, gale_output_t *out)
{
    const double t0 = gale_wtime(), c0 = gale_timer_counted();
    gale_ckpt_t ck;
    memset(&ck, 0, sizeof ck);
    double sums[GALE_NPROG_MAX];
    GALE_CALL(gale_model_checksums(m, sums));
    for (int i = 0; i < m->nprog; i++) {
        GALE_CALL(gale_psy_to_host(prognostic(m, i)));
        local_view(m, i, &ck.field[i]);
        ck.field[i].sumsq = sums[i];
    }
    ck.nfield = m->nprog;
    const gale_config_t *c = &m->cfg;
    ck.mesh_n = c->mesh.n, ck.nlev = c->extrusion.levels, ck.ext_method = c->extrusion.method;
    ck.radius = c->planet.radius, ck.scaling = c->planet.scaling, ck.top = c->extrusion.top;
    ck.z_if = m->z_if;
    ck.step = m->step, ck.time = m->time, ck.energy0 = m->energy0, ck.energy = m->energy;
    ck.max_step_increase = m->max_step_increase, ck.max_u = m->max_u, ck.max_w = m->max_w;
    ck.run_max_u = m->run_max_u, ck.run_max_w = m->run_max_w;
    ck.nprobe = m->probe ? m->step + 1 : 0;
    ck.probe = m->probe;
    snprintf(ck.writer, sizeof ck.writer, "gale %s", gale_version());
    GALE_CALL(config_text(c, &ck.config));
    /* the [io] MPI-IO hints serve checkpoints too: on Lustre, striping
     * matters most for the largest file a run writes */
    MPI_Info info;
    GALE_MPI(MPI_Info_create(&info));
    char v[32];
    const struct { const char *key; int val; } h[] = {
        {"cb_nodes", c->io.cb_nodes}, {"cb_buffer_size", c->io.cb_buffer_size},
        {"striping_factor", c->io.striping_factor}, {"striping_unit", c->io.striping_unit}};
    for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
        if (h[i].val > 0) {
            snprintf(v, sizeof v, "%d", h[i].val);
            GALE_MPI(MPI_Info_set(info, h[i].key, v));
        }
    if (c->io.romio_cb_write != GALE_ROMIO_AUTO)
        GALE_MPI(MPI_Info_set(info, "romio_cb_write",
                              c->io.romio_cb_write == GALE_ROMIO_ENABLE ? "enable" : "disable"));
    gale_ckpt_stats_t st;
    /* the MPI-IO runs where the output's HDF5 runs: ROMIO serialises a
     * process's MPI-IO calls, so collective file calls from two threads of a
     * rank can wait on each other across ranks (docs/checkpoint.md). The
     * model thread waits here, so m->comm is the writer's alone meanwhile. */
    ckpt_job_t job = {path, &ck, m->comm, info, &st};
    int s = gale_output_exec(out, ckpt_job, &job);
    free(ck.config);
    GALE_MPI(MPI_Info_free(&info));
    GALE_CALL(s);
    const double dt = gale_wtime() - t0;
    if (t_checkpoint >= 0) gale_timer_add_region(t_checkpoint, t0, c0);
    gale_log(GALE_LOG_INFO, "checkpoint: %s (step %d, %.2f MiB, %.3f s, %.1f MiB/s)", path,
             m->step, st.bytes / 1048576.0, dt, dt > 0 ? st.bytes / 1048576.0 / dt : 0);
    return GALE_OK;
}

int gale_restart_checkpoint(gale_model_t *m, gale_output_t *out)
{
    const int period = m->cfg.checkpoint.period;
    if (period <= 0 || m->step % period != 0) return GALE_OK;
    char path[GALE_STR + 64];
    snprintf(path, sizeof path, "%s/gale_ckpt_%06d.ckpt", m->cfg.checkpoint.dir, m->step);
    GALE_CALL(write_checkpoint(m, path, out));
    return GALE_OK;
}

static int restore(gale_model_t *m, gale_ckpt_t *ck, const char *path)
{
    GALE_CALL(check_config(m, ck, path));
    GALE_CALL(check_mesh(m, ck, path));
    const int steps = m->cfg.timestepping.steps;
    if (ck->step > steps)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s' is at step %lld, beyond [timestepping] steps = %d (steps "
                   "is the total count from step 0, not the number still to run)",
                   path, (long long)ck->step, steps);
    /* time is step dt's added one by one, as gale_model_step does: bit for
     * bit, or the file's state is not what this experiment reached */
    double t = 0;
    for (int64_t s = 0; s < ck->step; s++) t += m->dt;
    if (memcmp(&t, &ck->time, sizeof t) != 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s': time = %.17g s at step = %lld, but %lld steps of dt = "
                   "%.17g s end at %.17g s (the file is forged or corrupt)", path, ck->time,
                   (long long)ck->step, (long long)ck->step, m->dt, t);
    /* the keys that define the initial state match, so set-up has just
     * computed the file's energy0 and first probe value (decomposition-free
     * sums, as the energy check below); the writer stores step + 1 values */
    if (memcmp(&m->energy0, &ck->energy0, sizeof m->energy0) != 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s': energy0 = %.17g, but this experiment's initial state has "
                   "%.17g (the file is forged or corrupt)", path, ck->energy0, m->energy0);
    if (m->probe && (ck->nprobe != ck->step + 1 || memcmp(&m->probe[0], &ck->probe[0],
                                                           sizeof m->probe[0]) != 0))
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s': probe length = %d at step = %lld, first value %.17g; the "
                   "run stores step + 1 values, the first %.17g here (the file is forged or "
                   "corrupt)", path, ck->nprobe, (long long)ck->step,
                   ck->nprobe ? ck->probe[0] : 0.0, m->probe[0]);
    /* the field table must be the model's (name, levels, columns) */
    if (ck->nfield != m->nprog)
        GALE_ERROR(GALE_ERR_INPUT, "restart file '%s' holds %d fields; this run's state has %d "
                   "(%s)", path, ck->nfield, m->nprog,
                   m->nl ? "u, w, theta, pi, rho" : "u, w, b, p");
    for (int i = 0; i < m->nprog; i++) {
        gale_ckpt_field_t want;
        memset(&want, 0, sizeof want);
        local_view(m, i, &want);
        gale_ckpt_field_t *f = &ck->field[i];
        if (strcmp(f->name, want.name) != 0 || f->nlev != want.nlev || f->ncol != want.ncol)
            GALE_ERROR(GALE_ERR_INPUT,
                       "restart file '%s': field %d is %s with %d levels x %lld columns; this run "
                       "needs %s with %d x %lld", path, i, f->name, f->nlev, (long long)f->ncol,
                       want.name, want.nlev, (long long)want.ncol);
        f->nlocal = want.nlocal, f->nowned = want.nowned, f->gid = want.gid;
        f->data = want.data, f->stride = want.stride;
    }
    /* Every local column, halos included, comes from the file: the same
     * values a halo exchange would bring (an entity has one value whoever
     * holds it), so halos are valid to the full depth -- as after
     * initial_state -- and u is valid on every edge of the owned cells. */
    GALE_CALL(gale_ckpt_read_fields(path, ck, m->comm));
    for (int i = 0; i < m->nprog; i++) {
        gale_field_t *f = prognostic(m, i);
        GALE_CALL(gale_psy_host_wrote(m->psy, f, 1));
    }
    m->step = (int)ck->step;
    m->time = ck->time;
    m->energy0 = ck->energy0;
    m->max_step_increase = ck->max_step_increase;
    m->max_u = ck->max_u;
    m->max_w = ck->max_w;
    m->run_max_u = ck->run_max_u;
    m->run_max_w = ck->run_max_w;
    if (m->probe)
        for (int s = 0; s < ck->nprobe && s <= steps; s++) m->probe[s] = ck->probe[s];
    /* End-to-end checks: the reproducible sums of squares and the energy do
     * not depend on the decomposition, so the restored state must give the
     * writer's bits exactly. */
    double sums[GALE_NPROG_MAX];
    GALE_CALL(gale_model_checksums(m, sums));
    for (int i = 0; i < m->nprog; i++)
        if (memcmp(&sums[i], &ck->field[i].sumsq, sizeof sums[i]) != 0)
            GALE_ERROR(GALE_ERR_INPUT,
                       "restart file '%s': field %s restored with sum of squares %.17g, the file "
                       "says %.17g", path, ck->field[i].name, sums[i], ck->field[i].sumsq);
    GALE_CALL(gale_model_energy(m, &m->energy));
    if (memcmp(&m->energy, &ck->energy, sizeof m->energy) != 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "restart file '%s': the restored state has energy %.17g, the file says %.17g",
                   path, m->energy, ck->energy);
    gale_log(GALE_LOG_INFO,
             "restart:   %s (written by %s): step %d, t %.1f s; continuing to step %d", path,
             ck->writer, m->step, m->time, steps);
    return GALE_OK;
}

int gale_restart_setup(gale_model_t *m, const char *restart_path)
{
    if (m->cfg.checkpoint.period > 0 || restart_path)
        t_checkpoint = gale_timer_register("checkpoint", -1);
    if (!restart_path) return GALE_OK;
    const double t0 = gale_wtime();
    gale_ckpt_t ck;
    GALE_CALL(gale_ckpt_read_header(restart_path, &ck, m->comm));
    int s = restore(m, &ck, restart_path);
    gale_ckpt_free(&ck);
    GALE_CALL(s);
    gale_log(GALE_LOG_DEBUG, "restart read in %.3f s", gale_wtime() - t0);
    return GALE_OK;
}
