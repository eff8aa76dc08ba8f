/* The JSON run report of `gale run --report FILE.json` (docs/report.md):
 * the build, the resolved configuration and every result of the run, from
 * the one structure that the summary prints (gale_run_results_t, computed
 * by cmd_run.c), written to FILE.json.tmp and renamed when complete. */
#include "gale_app.h"
#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_io.h"
#include "gale_kdesc.h"
#include "gale_model.h"
#include "gale_netmodel.h"
#include "gale_output.h"
#include "gale_report.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* The category of the kernel or fused group whose timer is named name (its
 * row list's, its declaration's: kernels/gale_kdesc.h), or NULL when none
 * has that name. */
static const char *kernel_category(const char *name)
{
    for (int k = 0; k < GALE_K_N; k++)
        if (strcmp(gale_kdesc[k].name, name) == 0) return gale_kdesc[k].category;
    for (int g = 0; g < GALE_KG_N; g++)
        if (strcmp(gale_kgroup[g].name, name) == 0) return gale_kgroup[g].category;
    return NULL;
}

int gale_run_write_report(const char *path, const gale_model_t *m, const gale_run_results_t *r,
                          const gale_output_t *out)
{
    char tmp[4096], mpi[MPI_MAX_LIBRARY_VERSION_STRING + 32], h5[64];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) GALE_ERROR(GALE_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
    const gale_config_t *c = &m->cfg;
    const gale_solver_stats_t *st = r->st;
    const gale_timing_t *tm = &r->tm;
    gale_json_t j;
    gale_json_open(&j, f);
    gale_json_str(&j, "gale_version", gale_version());
    gale_json_obj(&j, "build");
    gale_json_str(&j, "compiler", gale_build_compiler());
    gale_json_str(&j, "flags", gale_build_flags());
    gale_json_str(&j, "isa", gale_build_isa());
    gale_json_str(&j, "offload", gale_build_offload());
    gale_json_str(&j, "kernels", gale_k_name());
    gale_build_mpi(mpi, sizeof mpi);
    gale_json_str(&j, "mpi", mpi);
    gale_io_version(h5, sizeof h5);
    gale_json_str(&j, "hdf5", h5);
    gale_json_end(&j, '}');
    gale_json_obj(&j, "config");
    gale_json_str(&j, "source", c->source);
    gale_json_config(&j, "resolved", c);
    gale_json_end(&j, '}');
    gale_json_int(&j, "ranks", m->nranks);
    gale_json_int(&j, "threads", m->nthreads);
    gale_json_int(&j, "steps", r->nrun);
    gale_json_num(&j, "setup_s", m->setup_s);
    gale_json_obj(&j, "memory");
    gale_json_num(&j, "estimate_bytes_per_rank", m->mem_estimate);
    gale_json_num(&j, "peak_resident_bytes_max_rank", r->peak_rss);
    gale_json_end(&j, '}');
    gale_json_num(&j, "wall_s", r->wall);
    gale_json_num(&j, "time_per_step_s", r->time_per_step);
    gale_json_obj(&j, "fom");
    gale_json_num(&j, "column_updates_per_s", r->fom);
    gale_json_num(&j, "column_updates_per_s_per_core", r->fom_per_core);
    gale_json_end(&j, '}');
    gale_json_obj(&j, "checksums");
    for (int i = 0; i < r->nsums; i++) gale_json_str(&j, gale_run_sum_name(r, i), r->hex[i]);
    gale_json_end(&j, '}');
    gale_json_obj(&j, "checksum_values");
    for (int i = 0; i < r->nprog; i++) gale_json_num(&j, gale_run_sum_name(r, i), r->sums[i]);
    gale_json_end(&j, '}');
    gale_json_obj(&j, "energy");
    gale_json_num(&j, "initial", m->energy0);
    gale_json_num(&j, "final", m->energy);
    gale_json_num(&j, "rel_change", r->energy_change);
    gale_json_num(&j, "max_step_increase", m->max_step_increase);
    gale_json_end(&j, '}');
    if (m->nl) {
        const gale_nl_t *s = m->nl;
        gale_json_obj(&j, "nonlinear");
        gale_json_int(&j, "outer_iterations", c->timestepping.outer_iterations);
        gale_json_int(&j, "inner_iterations", c->timestepping.inner_iterations);
        gale_json_int(&j, "reference_states", s->resets);
        gale_json_num(&j, "mass0", s->b0.mass);
        gale_json_num(&j, "mass", s->b.mass);
        gale_json_num(&j, "mass_rel_change", (s->b.mass - s->b0.mass) / s->b0.mass);
        gale_json_num(&j, "max_mass_rel_change", s->max_mass_change);
        gale_json_num(&j, "energy0", s->b0.energy);
        gale_json_num(&j, "energy", s->b.energy);
        gale_json_num(&j, "kinetic", s->b.kinetic);
        gale_json_num(&j, "internal", s->b.internal);
        gale_json_num(&j, "potential", s->b.potential);
        gale_json_num(&j, "max_energy_step_change", s->max_energy_change);
        gale_json_num(&j, "entropy0", s->b0.entropy);
        gale_json_num(&j, "entropy", s->b.entropy);
        gale_json_num(&j, "ps_min", s->b.ps_min);
        gale_json_num(&j, "ps_max", s->b.ps_max);
        gale_json_num(&j, "ps_min0", s->b0.ps_min);
        gale_json_num(&j, "ps_max0", s->b0.ps_max);
        gale_json_num(&j, "max_v", s->b.max_v);
        gale_json_num(&j, "max_ps_change", s->b.max_dps);
        gale_json_num(&j, "max_grid_mode", s->b.max_grid);
        gale_json_num(&j, "courant", s->b.max_cfl);
        gale_json_num(&j, "max_courant", gale_nl_max_cfl(m));
        gale_json_num(&j, "transport_substeps_max", m->nl->substeps_max);
        gale_json_num(&j, "transport_substeps", (double)m->nl->substeps);
        /* the budgets after each step (0: the initial state) */
        static const char *const bn[GALE_NL_NHIST] = {"mass", "energy", "entropy", "ps_min",
                                                         "grid_mode", "courant"};
        gale_json_obj(&j, "per_step");
        for (int q = 0; q < GALE_NL_NHIST; q++) {
            gale_json_arr(&j, bn[q]);
            for (int st = 0; st <= m->step && st <= m->steps; st++)
                gale_json_num(&j, NULL, s->hist[GALE_NL_NHIST * (size_t)st + q]);
            gale_json_end(&j, ']');
        }
        gale_json_end(&j, '}');
        gale_json_end(&j, '}');
    }
    gale_json_num(&j, "max_u", m->max_u);
    gale_json_num(&j, "max_w", m->max_w);
    gale_json_num(&j, "max_u_over_run", m->run_max_u);
    gale_json_num(&j, "max_w_over_run", m->run_max_w);
    gale_json_obj(&j, "solver");
    gale_json_str(&j, "method", gale_solver_method_name(c->solver.method));
    gale_json_str(&j, "preconditioner", gale_solver_pc_name(c->solver.preconditioner));
    gale_json_str(&j, "precision", gale_config_choice("solver", "precision", c->solver.precision));
    gale_json_int(&j, "solves", st->solves);
    gale_json_int(&j, "iterations_total", st->iterations);
    gale_json_num(&j, "iterations_mean", r->iterations_mean);
    gale_json_int(&j, "global_sums", st->global_sums);
    gale_json_bool(&j, "reproducible_sums", c->solver.reproducible_sums);
    gale_json_bool(&j, "converged", st->converged);
    gale_json_num(&j, "final_residual", r->residual);
    gale_json_end(&j, '}');
    if (r->mst) {
        const gale_mixed_stats_t *ms = r->mst;
        gale_json_obj(&j, "mixed_solver");
        gale_json_str(&j, "method", gale_mixed_method_name(c->mixed_solver.method));
        gale_json_int(&j, "gcrk", c->mixed_solver.gcrk);
        gale_json_num(&j, "tolerance", c->mixed_solver.tolerance);
        gale_json_str(&j, "precision", gale_config_choice("solver", "precision", c->solver.precision));
        gale_json_int(&j, "solves", ms->solves);
        gale_json_int(&j, "iterations_total", ms->iterations);
        gale_json_num(&j, "iterations_mean", r->mixed_iterations_mean);
        gale_json_int(&j, "global_sums", ms->global_sums);
        gale_json_bool(&j, "converged", ms->converged);
        gale_json_num(&j, "final_residual", r->mixed_residual);
        gale_json_int(&j, "overlapped_sums", ms->overlapped_sums);
        gale_json_int(&j, "unused_applications", ms->unused_applications);
        gale_json_end(&j, '}');
    }
    gale_json_arr(&j, "solve_levels");
    for (int i = 0; i < r->nlev; i++) {
        gale_json_obj(&j, NULL);
        gale_json_str(&j, "level", r->lev[i].name);
        gale_json_num(&j, "seconds", r->lev[i].seconds);
        gale_json_int(&j, "global_sums", r->lev[i].global_sums);
        gale_json_num(&j, "global_sum_s", r->lev[i].global_sum_s);
        gale_json_int(&j, "halo_exchanges", r->lev[i].exchanges);
        gale_json_end(&j, '}');
    }
    gale_json_end(&j, ']');
    gale_json_obj(&j, "halo");
    gale_json_int(&j, "depth", c->halo.depth);
    gale_json_bool(&j, "redundant_computation", c->halo.redundant_computation);
    gale_json_bool(&j, "overlap", c->halo.overlap);
    gale_json_int(&j, "bytes_per_exchange", r->halo_bytes);
    gale_json_int(&j, "messages_per_exchange", r->halo_msgs);
    gale_json_end(&j, '}');
    gale_json_obj(&j, "comm");
    gale_json_int(&j, "global_sums", r->comm.sums);
    gale_json_num(&j, "global_sum_wait_s", r->comm.sum_wait_s);
    gale_json_bool(&j, "progress_points", c->halo.progress_points);
    gale_json_int(&j, "progress_tests", r->comm.progress_tests);
    gale_json_int(&j, "sums_done_at_progress_point", r->comm.sums_early);
    gale_json_int(&j, "other_reductions", r->comm.reductions);
    gale_json_num(&j, "other_reduction_wait_s", r->comm.reduction_wait_s);
    gale_json_int(&j, "halo_exchanges", r->comm.exchanges);
    gale_json_num(&j, "halo_wait_s", r->comm.halo_wait_s);
    gale_json_int(&j, "node_ranks", m->node_ranks);
    gale_json_int(&j, "node_cores", m->node_cores);
    gale_json_bool(&j, "waits_yield", gale_mpi_yield());
    const gale_emulate_t *e = gale_emulate();
    if (e) {
        gale_json_obj(&j, "emulated");
        gale_json_str(&j, "machine", c->emulate.machine);
        gale_json_int(&j, "nodes", e->nodes);
        gale_json_int(&j, "ranks_per_node", e->ranks_per_node);
        gale_json_int(&j, "ranks", (long long)e->nodes * e->ranks_per_node);
        gale_json_bool(&j, "async_progress", e->async);
        gale_json_num(&j, "allreduce_s_per_sum",
                      r->comm.sums ? r->comm.sum_model_s / r->comm.sums : 0);
        gale_json_num(&j, "allreduce_8B_s",
                      gale_netmodel_allreduce_s(&e->m, 8, e->nodes, e->ranks_per_node));
        gale_json_num(&j, "halo_s_per_exchange",
                      r->comm.exchanges ? r->comm.halo_model_s / r->comm.exchanges : 0);
        /* rank 0's waits as the model imposed them, computed: robust where
         * the machine preempts the spin (docs/emulate.md) */
        gale_json_num(&j, "global_sum_wait_imposed_s", r->comm.sum_imposed_s);
        gale_json_num(&j, "halo_wait_imposed_s", r->comm.halo_imposed_s);
        gale_json_end(&j, '}');
    } else {
        gale_json_num(&j, "emulated", NAN); /* written as null: not emulated */
    }
    gale_json_end(&j, '}');
    gale_json_obj(&j, "timers");
    for (int i = 0; i < tm->n; i++) {
        gale_json_obj(&j, tm->name[i]);
        gale_json_num(&j, "min_s", tm->min[i]);
        gale_json_num(&j, "mean_s", tm->mean[i]);
        gale_json_num(&j, "max_s", tm->max[i]);
        gale_json_int(&j, "count", tm->count[i]);
        if (tm->parent[i] >= 0) gale_json_str(&j, "category", tm->name[tm->parent[i]]);
        const char *kc = kernel_category(tm->name[i]);
        if (kc) gale_json_str(&j, "kernel_category", kc);
        if (tm->bytes[i] > 0) { /* a kernel's: its minimum bytes, all ranks, and their rate */
            gale_json_num(&j, "bytes", tm->bytes[i]);
            gale_json_num(&j, "gbs", tm->max[i] > 0 ? tm->bytes[i] / tm->max[i] * 1e-9 : 0);
        }
        gale_json_end(&j, '}');
    }
    gale_json_end(&j, '}');
    gale_json_obj(&j, "roofline");
    gale_json_num(&j, "triad_gbs", r->roof.triad_gbs);
    gale_json_num(&j, "triad_array_MiB", r->roof.triad_mib);
    gale_json_num(&j, "triad_s", r->roof.triad_s);
    gale_json_num(&j, "bytes", r->roof.bytes_per_step);
    gale_json_num(&j, "bytes_run", r->roof.bytes);
    gale_json_num(&j, "seconds_at_triad", r->roof.seconds_at_triad);
    gale_json_num(&j, "compute_s", r->roof.compute_s);
    gale_json_num(&j, "fraction", r->roof.fraction);
    gale_json_end(&j, '}');
    gale_json_obj(&j, "transfers"); /* host<->device bytes per step, all ranks */
    static const char *const xn[8] = {"h2d_bytes_per_step", "d2h_bytes_per_step",
                                      "field_h2d_bytes_per_step", "field_d2h_bytes_per_step",
                                      "halo_h2d_bytes_per_step", "halo_d2h_bytes_per_step",
                                      "reduction_h2d_bytes_per_step", "reduction_d2h_bytes_per_step"};
    for (int i = 0; i < 8; i++) gale_json_num(&j, xn[i], r->xf[i]);
    gale_json_end(&j, '}');
    gale_output_json(out, &j);
    if (c->initial.kase == GALE_CASE_NORMAL_MODE) {
        gale_json_obj(&j, "normal_mode");
        gale_json_str(&j, "mode", gale_config_choice("initial", "mode", c->initial.mode));
        gale_json_num(&j, "omega_measured", r->omega);
        gale_json_num(&j, "omega_analytic", r->omega0);
        gale_json_num(&j, "rel_error", r->omega_error);
        gale_json_end(&j, '}');
    }
    if (r->transport_only) {
        gale_json_obj(&j, "error_norms"); /* Williamson et al. 1992, volume-weighted */
        gale_json_num(&j, "l1", r->norms[0]);
        gale_json_num(&j, "l2", r->norms[1]);
        gale_json_num(&j, "linf", r->norms[2]);
        gale_json_end(&j, '}');
        gale_json_obj(&j, "transport");
        gale_json_num(&j, "dt", m->dt);
        gale_json_num(&j, "mass_initial", r->mass0);
        gale_json_num(&j, "mass_final", r->mass);
        gale_json_num(&j, "mass_rel_change", r->mass_change);
        gale_json_num(&j, "q_min_initial", r->qmin0);
        gale_json_num(&j, "q_max_initial", r->qmax0);
        gale_json_num(&j, "q_min", r->qmin);
        gale_json_num(&j, "q_max", r->qmax);
        gale_json_end(&j, '}');
    }
    if (r->advected_gw) gale_json_num(&j, "b_equator_asymmetry", r->asymmetry);
    gale_json_close(&j);
    char why[2 * sizeof tmp + 128];
    if (gale_file_finish(f, tmp, path, why, sizeof why) != 0)
        GALE_ERROR(GALE_ERR_IO, "the report: %s", why);
    return GALE_OK;
}
