/* LFRic gravity_wave and GungHo namelists (configuration.nml) as a gale
 * configuration.
 * Fortran namelist syntax: groups "&name key = value, ... /", values quoted
 * ('C16' or "C16"), logical (.true./.false./T/F), numeric (1.0d-4), lists and
 * repeat counts (3*0.0), comments from '!'. Keys with a gale counterpart are
 * converted and set through the INI parser's own validation; LFRic keys
 * without one are logged once as not used; anything else is an error.
 * docs/lfric-namelist.md has the mapping and the reasons behind it. */
#include "gale_base.h"
#include "gale_config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every group and key the LFRic gravity_wave mini-app and the GungHo model
 * (lfric_apps applications/gungho_model) write to their configuration.nml
 * (rose metadata and examples): the keys an LFRic user may legitimately
 * bring. &files also takes any <field>_ancil_path. */
static const struct { const char *group, *keys; } lfric_keys[] = {
    {"base_mesh", "filename file_prefix prime_mesh_name geometry topology offline_partitioning "
                  "partitioner prepartitioned fplane f_lat_deg"},
    {"boundaries", "limited_area blend_frequency blending_weights boundary_e boundary_n "
                   "boundary_s boundary_w edge_cells_ew edge_cells_ns inner_width_ew "
                   "inner_width_ns lbc_method normal_only outer_width_ew outer_width_ns "
                   "output_lbcs rim_width_ew rim_width_ns solver_boundary_depth "
                   "transport_boundary_depth transport_overwrite_freq"},
    {"checks", "limit_cfl"},
    {"departure_points", "horizontal_limit horizontal_method n_dep_pt_iterations "
                         "share_stencil_extent vertical_limit vertical_method vertical_sorting"},
    {"development", "implement_consolidated_multigrid"},
    {"domain_size", "planar_domain_min_x planar_domain_max_x planar_domain_min_y "
                    "planar_domain_max_y"},
    {"energy_correction", "encorr_usage integral_method"},
    {"esm_couple", "l_esm_couple_test"},
    {"external_forcing", "hs_random temp_tend_coord temp_tend_data temp_tend_heights "
                         "temp_tend_size theta_forcing wind_forcing"},
    {"extrusion", "method domain_top domain_height number_of_layers planet_radius "
                  "stretching_method"},
    {"files", "ancil_directory coarse_ancil_directory checkpoint_stem_name diag_stem_name lbc_directory lbc_filename "
              "ls_directory ls_filename start_dump_directory start_dump_filename"},
    {"finite_element", "cellshape element_order element_order_h element_order_v coord_order "
                       "coord_order_nonprime coordinate_order coord_space coord_system "
                       "rehabilitate vorticity_in_w1"},
    {"formulation", "dlayer_on dry_static_adjust eos_method exner_from_eos "
                    "horizontal_physics_predictor horizontal_transport_predictor init_exner_bt "
                    "l_multigrid lagged_orog moisture_formulation moisture_in_solver "
                    "p2theta_vert rotating shallow si_momentum_equation "
                    "theta_moist_source use_multires_coupling use_physics use_wavedynamics "
                    "vector_invariant"},
    {"gravity_wave_constants", "speed_of_sound b_space"},
    {"helmholtz_solver", "method preconditioner si_pressure_tolerance si_pressure_a_tol "
                         "si_pressure_maximum_iterations gcrk fail_on_non_converged "
                         "monitor_convergence normalise jacobi_relaxation"},
    {"idealised", "test perturb_init f_lon_deg"},
    {"ideal_surface", "canopy_height leaf_area_index n_snow_layers snow_depth snow_layer_ice_mass "
                      "snow_layer_temp snow_layer_thickness soil_moisture soil_temperature "
                      "surf_tile_fracs surf_tile_temps tile_snow_mass"},
    {"initial_density", "density_background density_max r1 r2 x1 x2 y1 y2 z1 z2"},
    {"initial_pressure", "method surface_pressure"},
    {"initial_temperature", "bvf_square pert_centre pert_width_scaling perturb theta_surf "
                            "profile_data "
                            "profile_heights profile_size"},
    {"initial_vapour", "profile_data profile_heights profile_size"},
    {"initial_wind", "profile u0 v0 nl_constant sbr_angle_lat sbr_angle_lon smp_init_wind "
                     "wind_time_period"},
    {"initialization", "init_option ancil_option lbc_option ls_option hydro_coriolis "
                       "read_w2h_wind coarse_aerosol_ancil coarse_orography_ancil "
                       "coarse_ozone_ancil n_orog_smooth sea_ice_source snow_source "
                       "w0_orography_mapping zero_w2v_wind"},
    {"io", "checkpoint_read checkpoint_write counter_output_suffix diag_active_files "
           "diag_always_on_sampling diagnostic_frequency "
           "file_convention nodal_output_on_w3 subroutine_counters subroutine_timers "
           "timer_output_path use_xios_io write_conservation_diag write_diag write_dump "
           "write_fluxes write_minmax_tseries"},
    {"logging", "run_log_level"},
    {"mixed_solver", "si_method si_preconditioner si_tolerance si_maximum_iterations gcrk "
                     "mixed_solver_a_tol eliminate_variables fail_on_non_converged guess_np1 "
                     "jacobi_relaxation monitor_convergence normalise reference_reset_freq "
                     "reference_reset_time split_w"},
    {"mixing", "leonard_term smagorinsky viscosity viscosity_mu"},
    {"multigrid", "l_multigrid multigrid_chain_nitems chain_mesh_tags ugrid smooth_relaxation "
                  "n_presmooth n_postsmooth n_coarsesmooth coarsen_multigrid_tiles "
                  "max_tiled_multigrid_level"},
    {"orography", "orog_init_option"},
    {"partitioning", "partitioner panel_decomposition panel_xproc panel_yproc tile_size_x "
                     "tile_size_y inner_halo_tiles"},
    {"physics", ""},
    {"planet", "radius scaling_factor gravity omega cp rd p_zero"},
    {"radiative_gases", "cfc113_rad_opt cfc11_rad_opt cfc12_rad_opt ch4_rad_opt co2_rad_opt "
                        "co_rad_opt cs_rad_opt h2_rad_opt h2o_rad_opt hcfc22_rad_opt hcn_rad_opt "
                        "he_rad_opt hfc134a_rad_opt k_rad_opt l_cts_fcg_rates li_rad_opt "
                        "n2_rad_opt n2o_rad_opt na_rad_opt nh3_rad_opt o2_rad_opt o3_rad_opt "
                        "rb_rad_opt so2_rad_opt tio_rad_opt vo_rad_opt"},
    {"section_choice", "dynamics external_forcing aerosol boundary_layer cloud convection "
                       "iau iau_surf methane_oxidation microphysics orographic_drag radiation spectral_gwd "
                       "stochastic_physics surface"},
    {"solver", "method preconditioner tolerance maximum_iterations gcrk fail_on_non_converged "
               "monitor_convergence jacobi_relaxation"},
    {"time", "timestep_start timestep_end calendar calendar_start calendar_type "
             "calendar_origin"},
    {"timestepping", "method dt alpha outer_iterations inner_iterations runge_kutta_method "
                     "spinup_alpha spinup_period spinup_winds tau_r tau_t tau_u"},
    {"transport", "adjust_theta adjust_tracer_equation adjust_vhv_wind advective_then_flux "
                  "broken_w2_projection calculate_detj cap_density_predictor cfl_mol_1d_stab "
                  "cfl_mol_2d_stab cfl_mol_3d_stab cheap_update consistent_metric "
                  "dep_pt_stencil_extent dry_field_name enforce_min_value equation_form "
                  "ffsl_advective_splitting ffsl_flux_splitting ffsl_inner_order "
                  "ffsl_outer_order ffsl_splitting ffsl_unity_3d ffsl_vertical_order field_names "
                  "fv_horizontal_order fv_vertical_order horizontal_method horizontal_monotone "
                  "log_space max_vert_cfl_calc min_val_method min_value moisture_eqn "
                  "oned_reconstruction operators panel_edge_high_order panel_edge_treatment "
                  "profile_size reversible runge_kutta_method scheme si_outer_transport "
                  "slice_order special_edges_monotone splitting substep_transport "
                  "theta_dispersion_correction theta_variable use_density_predictor "
                  "vertical_method vertical_monotone vertical_monotone_order vertical_sl_order "
                  "wind_mono_top wind_mono_top_depth"},
};
enum { NGROUPS = sizeof lfric_keys / sizeof lfric_keys[0] };

/* How an LFRic value becomes a gale one. */
enum {
    NUM,     /* number: d/D exponent -> e */
    LOGICAL, /* .true./.false./T/F -> true/false */
    WORD,    /* a word translated by the "lfric=gale" list (a bare word maps to itself) */
    MESH,    /* prime_mesh_name or filename holding C<N>: resolved at the end */
    STEP,    /* timestep_start/timestep_end: steps = end - start + 1, at the end */
    CHAIN,   /* multigrid_chain_nitems, chain_mesh_tags (a list): [multigrid] levels, at the end */
    MGFLAG,  /* l_multigrid: whether the multigrid chain exists, checked at the end */
    /* GungHo's keys, held until the whole file is read: they apply only to a
     * GungHo namelist (&section_choice dynamics = 'gungho'); in a gravity_wave
     * one they are logged as not used (rotating: must be .false.) */
    CORE,    /* &section_choice dynamics: 'gungho' makes the namelist GungHo's */
    GH_NUM,  /* a number, as NUM */
    GH_CASE, /* &idealised test: the case, by the "lfric=gale" list */
    ROTATE,  /* &formulation rotating: .false. sets [planet] omega = 0 */
    WIND,    /* &initial_wind profile: must be the wind of the case, checked at the end */
    FORMS,   /* &transport equation_form, field_names: each field's form, checked at the end */
    SCHEME   /* &transport's choice of method (values checked): gale's one scheme stands for it */
};


/* Keys with a gale counterpart. section == NULL: no counterpart, but gale
 * models only the listed values, so any other value is an error rather than a
 * silently different model; note, when given, says why in that error instead
 * of "gale models only ...". Entries leave note out unless they have one. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct {
    const char *group, *key;
    int kind;
    const char *section, *gkey, *values, *note;
} lfric_map[] = {
    {"base_mesh", "prime_mesh_name", MESH, "mesh", "name", NULL},
    {"base_mesh", "filename", MESH, "mesh", "name", NULL},
    {"base_mesh", "file_prefix", MESH, "mesh", "name", NULL},
    {"base_mesh", "geometry", WORD, NULL, NULL, "spherical"},
    {"extrusion", "number_of_layers", NUM, "extrusion", "levels", NULL},
    {"extrusion", "domain_top", NUM, "extrusion", "top", NULL},
    {"extrusion", "domain_height", NUM, "extrusion", "top", NULL},
    {"extrusion", "planet_radius", NUM, "planet", "radius", NULL},
    {"extrusion", "method", WORD, "extrusion", "method",
     "uniform quadratic geometric dcmip um_L38_29t_9s_40km um_L70_50t_20s_80km "
     "um_L70_61t_9s_40km um_L85_50t_35s_85km"},
    {"planet", "radius", NUM, "planet", "radius", NULL},
    {"planet", "scaling_factor", NUM, "planet", "scaling", NULL},
    {"planet", "gravity", NUM, "planet", "gravity", NULL},
    {"initial_temperature", "bvf_square", NUM, "physics", "bvf_square", NULL},
    {"gravity_wave_constants", "speed_of_sound", NUM, "physics", "speed_of_sound", NULL},
    {"timestepping", "dt", NUM, "timestepping", "dt", NULL},
    {"timestepping", "alpha", NUM, "timestepping", "alpha", NULL},
    {"timestepping", "method", WORD, NULL, NULL, "semi_implicit"},
    /* GungHo (the nonlinear core) only */
    {"section_choice", "dynamics", CORE, "dynamics", "equations", NULL},
    {"timestepping", "outer_iterations", GH_NUM, "timestepping", "outer_iterations", NULL},
    {"timestepping", "inner_iterations", GH_NUM, "timestepping", "inner_iterations", NULL},
    {"mixed_solver", "reference_reset_time", GH_NUM, "timestepping", "reference_reset_time", NULL},
    {"planet", "omega", GH_NUM, "planet", "omega", NULL},
    {"planet", "cp", GH_NUM, "planet", "cp", NULL},
    {"planet", "rd", GH_NUM, "planet", "rd", NULL},
    {"planet", "p_zero", GH_NUM, "planet", "p_zero", NULL},
    {"initial_temperature", "theta_surf", GH_NUM, "initial", "theta0", NULL},
    {"idealised", "test", GH_CASE, "initial", "case",
     "deep_baroclinic_wave=baroclinic_wave gravity_wave=dcmip31 isot_atm=resting"},
    {"formulation", "rotating", ROTATE, "planet", "omega", NULL},
    {"time", "timestep_start", STEP, "timestepping", "steps", NULL},
    {"time", "timestep_end", STEP, "timestepping", "steps", NULL},
    {"helmholtz_solver", "method", WORD, "solver", "method", "cg bicgstab gcr prec_only"},
    {"helmholtz_solver", "preconditioner", WORD, "solver", "preconditioner",
     "none diagonal tridiagonal multigrid"},
    {"helmholtz_solver", "si_pressure_tolerance", NUM, "solver", "tolerance", NULL},
    {"helmholtz_solver", "si_pressure_a_tol", NUM, "solver", "abs_tolerance", NULL},
    {"helmholtz_solver", "si_pressure_maximum_iterations", NUM, "solver", "max_iterations", NULL},
    {"helmholtz_solver", "gcrk", NUM, "solver", "gcr_restart", NULL},
    {"helmholtz_solver", "fail_on_non_converged", LOGICAL, "solver", "fail_on_non_converged",
     NULL},
    {"helmholtz_solver", "monitor_convergence", LOGICAL, "solver", "monitor_convergence", NULL},
    /* the mixed (u, w, b, p) solve of [dynamics] mass_matrix = consistent, which
     * an LFRic namelist always gets (gale_config_read_nml_). LFRic's gmres:
     * restarted GMRES and GCR minimise the same residual over the same Krylov
     * space, so the same iterates in exact arithmetic. */
    {"mixed_solver", "si_method", WORD, "mixed_solver", "method",
     "gcr prec_only gmres=gcr block_gcr=gcr"},
    {"mixed_solver", "si_tolerance", NUM, "mixed_solver", "tolerance", NULL},
    {"mixed_solver", "mixed_solver_a_tol", NUM, "mixed_solver", "abs_tolerance", NULL},
    {"mixed_solver", "si_maximum_iterations", NUM, "mixed_solver", "max_iterations", NULL},
    {"mixed_solver", "gcrk", NUM, "mixed_solver", "gcrk", NULL},
    {"mixed_solver", "fail_on_non_converged", LOGICAL, "mixed_solver", "fail_on_non_converged",
     NULL},
    {"mixed_solver", "monitor_convergence", LOGICAL, "mixed_solver", "monitor_convergence", NULL},
    {"mixed_solver", "si_preconditioner", WORD, NULL, NULL, "pressure",
     "only 'pressure' is implemented (gale's approximate Schur complement: the Helmholtz "
     "problem of [solver] for the pressure, u, w and b recovered from it)"},
    {"mixed_solver", "eliminate_variables", WORD, NULL, NULL, "discrete",
     "only 'discrete' is implemented (gale eliminates u, w and b discretely, from the "
     "discretised equations)"},
    {"multigrid", "multigrid_chain_nitems", CHAIN, "multigrid", "levels", NULL},
    {"multigrid", "chain_mesh_tags", CHAIN, "multigrid", "levels", NULL},
    {"multigrid", "smooth_relaxation", NUM, "multigrid", "smooth_relaxation", NULL},
    {"multigrid", "n_presmooth", NUM, "multigrid", "n_presmooth", NULL},
    {"multigrid", "n_postsmooth", NUM, "multigrid", "n_postsmooth", NULL},
    {"multigrid", "n_coarsesmooth", NUM, "multigrid", "n_coarsesmooth", NULL},
    {"multigrid", "l_multigrid", MGFLAG, NULL, NULL, NULL},      /* the older layout's place */
    {"formulation", "l_multigrid", MGFLAG, NULL, NULL, NULL},    /* the newer layout's */
    {"logging", "run_log_level", WORD, "logging", "level",
     "error warning=warn info debug trace=debug"},
    {"finite_element", "element_order", WORD, NULL, NULL, "0"},
    {"finite_element", "element_order_h", WORD, NULL, NULL, "0"},
    {"finite_element", "element_order_v", WORD, NULL, NULL, "0"},
    {"boundaries", "limited_area", LOGICAL, NULL, NULL, "false"},
    /* Keys that change the equations or the test: gale's value or an error.
     * Lifting one (the deep atmosphere) is a change here. */
    {"formulation", "shallow", LOGICAL, "dynamics", "shallow", NULL},
    {"formulation", "vector_invariant", LOGICAL, "dynamics", "vector_invariant", NULL},
    {"initial_wind", "profile", WIND, NULL, NULL, NULL},
    /* the transport: each field's form is honoured (or an error); LFRic's
     * choice of method, among its documented values, is stood in for by
     * gale's one scheme, and the run's log lists those keys as such
     * (docs/lfric-namelist.md) */
    {"transport", "equation_form", FORMS, NULL, NULL, NULL},
    {"transport", "field_names", FORMS, NULL, NULL, NULL},
    {"transport", "cfl_mol_2d_stab", GH_NUM, "dynamics", "transport_courant", NULL},
    {"transport", "theta_variable", WORD, NULL, NULL, "dry",
     "gale's atmosphere is dry: it transports the dry potential temperature ('dry')"},
    {"transport", "scheme", SCHEME, NULL, NULL, "1 2 3"},
    {"transport", "splitting", SCHEME, NULL, NULL, "1 2 3 4 5 6 7 8"},
    {"transport", "horizontal_method", SCHEME, NULL, NULL, "0 1 2 3"},
    {"transport", "vertical_method", SCHEME, NULL, NULL, "0 1 2 3"},
    {"transport", "operators", SCHEME, NULL, NULL, "fv fem"},
    {"transport", "panel_edge_treatment", SCHEME, NULL, NULL,
     "none extended_mesh special_edges remapping"},
    {"transport", "panel_edge_high_order", SCHEME, NULL, NULL, ".true. .false. T F"},
    {"transport", "reversible", SCHEME, NULL, NULL, ".true. .false. T F"},
    {"transport", "consistent_metric", SCHEME, NULL, NULL, ".true. .false. T F"},
};
#pragma GCC diagnostic pop
enum { NMAP = sizeof lfric_map / sizeof lfric_map[0] };

enum { NAME = 64, MAXW = 64 };
/* Values kept of one assignment: a multigrid chain has at most 16 meshes
 * ([multigrid] levels), so one more tells a chain that is too long. */
enum { MAXV = 17 };
/* GungHo's keys held for the end (lfric_map kinds CORE to ROTATE) */
enum { NHELD = 16 };

/* The words of a space-separated list, in buf. */
static int words(const char *list, char *buf, size_t n, const char **out)
{
    snprintf(buf, n, "%s", list);
    char *save;
    int nw = 0;
    for (char *p = strtok_r(buf, " ", &save); p && nw < MAXW; p = strtok_r(NULL, " ", &save))
        out[nw++] = p;
    return nw;
}

static int find_group(const char *group)
{
    for (int g = 0; g < NGROUPS; g++)
        if (strcmp(lfric_keys[g].group, group) == 0) return g;
    return -1;
}

static int find_map(const char *group, const char *key)
{
    for (int m = 0; m < NMAP; m++)
        if (strcmp(lfric_map[m].group, group) == 0 && strcmp(lfric_map[m].key, key) == 0) return m;
    return -1;
}

/* ---------------- the namelist reader ---------------- */

typedef struct {
    const char *path, *p; /* file name, read position */
    int line;
    gale_config_t *cfg;
    FILE *unused;         /* "group.key, ..." of LFRic keys gale does not use */
    int nunused;
    struct held { char val[GALE_STR]; int line; } prime, file, prefix, start, end, nitems, pc,
        wind, tol[2]; /* tol: si_pressure_tolerance, si_tolerance */
    struct { char v[MAXV][NAME]; int n, line; } forms, names; /* equation_form, field_names */
    char approx[512]; /* " group.key ..." of &transport's methods gale's scheme stands for */
    char *seen; /* " key key ... " of the current group: no fixed limit on keys */
    size_t nseen, capseen;
    struct { char tag[MAXV][NAME], text[GALE_STR]; long n; int line; } chain; /* chain_mesh_tags */
    struct { const char *group; int line, on; } mg; /* l_multigrid: a .false. one wins */
    struct { int m, line; char val[GALE_STR]; } held[NHELD]; /* GungHo's keys, in file order */
    int nheld, gungho; /* gungho: the line of &section_choice dynamics = 'gungho', or 0 */
} nml_t;

/* The rest of the current line, at most 20 characters, for messages. */
static int shown(const char *p)
{
    size_t n = strcspn(p, "\r\n");
    return n < 20 ? (int)n : 20;
}

/* Lists &group key among the keys the run does not use (logged at the end). */
static void not_used(nml_t *r, const char *group, const char *key)
{
    fprintf(r->unused, "%s%s.%s", r->nunused++ ? ", " : "", group, key);
}

/* Skips blanks, newlines, comments and, with commas != 0, value separators. */
static void skip(nml_t *r, int commas)
{
    for (;;) {
        char c = *r->p;
        if (c == '\n') r->line++, r->p++;
        else if (c == ' ' || c == '\t' || c == '\r' || (commas && c == ',')) r->p++;
        else if (c == '!') r->p += strcspn(r->p, "\n");
        else return;
    }
}

/* A Fortran name, lower-cased (names are case-insensitive); 0 if none. */
static size_t read_name(nml_t *r, char *out)
{
    size_t n = 0;
    if (!isalpha((unsigned char)*r->p)) return 0;
    while ((isalnum((unsigned char)*r->p) || *r->p == '_') && n + 1 < NAME)
        out[n++] = (char)tolower((unsigned char)*r->p++);
    out[n] = '\0';
    return n;
}

/* Whether a "name =" follows: the start of the next assignment, not a value. */
static int at_assignment(nml_t *r)
{
    const char *p = r->p;
    int line = r->line, yes = 0;
    char name[NAME];
    if (read_name(r, name)) {
        skip(r, 0);
        yes = *r->p == '=';
    }
    r->p = p, r->line = line;
    return yes;
}

/* One value: a quoted string ('' or "" inside stands for the quote) or a
 * bare token. Returns -1 with why set on a malformed value. */
static int read_value(nml_t *r, char *out, char *why, size_t nwhy)
{
    size_t n = 0;
    char q = *r->p;
    if (q == '\'' || q == '"') {
        for (r->p++;; r->p++) {
            if (!*r->p || *r->p == '\n') {
                snprintf(why, nwhy, "unterminated string (missing %c)", q);
                return -1;
            }
            if (*r->p == q && r->p[1] != q) break;
            if (*r->p == q) r->p++;
            if (n + 1 == GALE_STR) {
                snprintf(why, nwhy, "value longer than %d characters", GALE_STR - 1);
                return -1;
            }
            out[n++] = *r->p;
        }
        r->p++;
    } else {
        size_t len = strcspn(r->p, " \t\r\n,/!&");
        if (len + 1 > GALE_STR) {
            snprintf(why, nwhy, "value longer than %d characters", GALE_STR - 1);
            return -1;
        }
        memcpy(out, r->p, len);
        n = len;
        r->p += len;
    }
    out[n] = '\0';
    return 0;
}

static int known_key(int g, const char *key)
{
    char buf[2048];
    const char *w[MAXW];
    int nw = words(lfric_keys[g].keys, buf, sizeof buf, w);
    for (int i = 0; i < nw; i++)
        if (strcmp(w[i], key) == 0) return 1;
    size_t n = strlen(key), s = strlen("_ancil_path");
    return strcmp(lfric_keys[g].group, "files") == 0 && n > s &&
           strcmp(key + n - s, "_ancil_path") == 0;
}

/* Sets a gale key from converted text; the message names both sides. */
static int set(nml_t *r, int line, const char *group, const char *key, const char *val,
               const char *section, const char *gkey, const char *text)
{
    char why[1024];
    if (gale_config_set_(r->cfg, section, gkey, text, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s' (gale [%s] %s = %s): %s", r->path, line,
                   group, key, val, section, gkey, text, why);
    return GALE_OK;
}

/* A logical value as 1 or 0; -1 if it is none. */
static int logical(const char *val)
{
    const char *t = val + (val[0] == '.');
    int c = tolower((unsigned char)*t);
    return c == 't' ? 1 : c == 'f' ? 0 : -1;
}

/* Whether s is a Fortran real or integer literal: sign, digits with at most
 * one '.', an e or d exponent. strtod would also take hexadecimal (0x1p3),
 * inf and nan, which Fortran namelist input has not. */
static int fortran_number(const char *s)
{
    size_t d = 0, e;
    s += *s == '+' || *s == '-';
    d = strspn(s, "0123456789"), s += d;
    if (*s == '.') s++, e = strspn(s, "0123456789"), d += e, s += e;
    if (!d) return 0;
    if (*s && strchr("eEdD", *s)) {
        s++;
        s += *s == '+' || *s == '-';
        if (!(e = strspn(s, "0123456789"))) return 0;
        s += e;
    }
    return !*s;
}

/* A value without its repeat count (3*'x' -> x) and quotes, in out. */
static void unrepeat(const char *v, char *out, size_t n)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') v += d + 1;
    size_t len = strlen(v);
    if (len >= 2 && (v[0] == '\'' || v[0] == '"') && v[len - 1] == v[0]) v++, len -= 2;
    snprintf(out, n, "%.*s", (int)len, v);
}

/* A list of one value per field (repeat counts r*c expanded), at most MAXV. */
static int hold_list(nml_t *r, int line, const char *group, const char *key,
                     const char (*vals)[GALE_STR], int nval, char (*out)[NAME], int *n)
{
    *n = 0;
    for (int i = 0; i < nval && i < MAXV; i++) {
        long times = 1;
        size_t d = strspn(vals[i], "0123456789");
        if (d && vals[i][d] == '*') times = d > 3 ? MAXV + 1 : strtol(vals[i], NULL, 10);
        for (long t = 0; t < times; t++) {
            if (*n == MAXV)
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: more than %d values (one per field)",
                           r->path, line, group, key, MAXV);
            unrepeat(vals[i], out[(*n)++], NAME);
        }
    }
    if (nval > MAXV)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: more than %d values (one per field)", r->path,
                   line, group, key, MAXV);
    return GALE_OK;
}

/* chain_mesh_tags = 'C16', 'C8', ... (nval values, the first MAXV in vals;
 * a repeat count 2*'C8' stands for two): kept for resolve(). */
static void hold_chain(nml_t *r, int line, const char (*vals)[GALE_STR], int nval)
{
    size_t len = 0;
    r->chain.n = 0, r->chain.line = line;
    for (int i = 0; i < nval; i++) {
        const char *v = i < MAXV ? vals[i] : "";
        long times = 1;
        size_t d = strspn(v, "0123456789");
        if (d && v[d] == '*') { /* r*c: the bare token still has the quotes of c */
            times = d > 12 ? LONG_MAX / 4 : strtol(v, NULL, 10); /* past 16 only the count matters */
            v += d + 1;
        }
        size_t n = strlen(v);
        if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) v++, n -= 2;
        long more = 0; /* past the stored ones and the "...", only the count */
        if (times > MAXV + 1) more = times - (MAXV + 1), times = MAXV + 1;
        for (long t = 0; t < times; t++, r->chain.n++) {
            if (r->chain.n < MAXV)
                snprintf(r->chain.tag[r->chain.n], NAME, "%.*s", (int)n, v);
            if (r->chain.n < MAXV && len < sizeof r->chain.text)
                len += (size_t)snprintf(r->chain.text + len, sizeof r->chain.text - len,
                                        "%s'%.*s'", r->chain.n ? ", " : "", (int)n, v);
            else if (r->chain.n == MAXV && len < sizeof r->chain.text)
                len += (size_t)snprintf(r->chain.text + len, sizeof r->chain.text - len, ", ...");
        }
        r->chain.n = more > LONG_MAX / 4 - r->chain.n ? LONG_MAX / 4 : r->chain.n + more;
    }
}

/* One assignment "key = value [, more values]" (nval values, the first MAXV
 * in vals) in group g. */
static int assign(nml_t *r, int line, int g, const char *key, const char (*vals)[GALE_STR],
                  int nval)
{
    const char *group = lfric_keys[g].group, *val = vals[0];
    char buf[2048], sugg[1024], text[GALE_STR];
    const char *w[MAXW];
    int m = find_map(group, key);
    if (m < 0) {
        if (!known_key(g, key)) {
            gale_config_suggest_(sugg, sizeof sugg, key, w,
                                 words(lfric_keys[g].keys, buf, sizeof buf, w), "'", "'");
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &%s %s: not a key of LFRic's gravity_wave or GungHo namelists; %s", r->path,
                       line, group, key, sugg);
        }
        not_used(r, group, key);
        return GALE_OK;
    }
    /* lists: the chain, and &transport's one value per field */
    const int list = strcmp(key, "chain_mesh_tags") == 0 || strcmp(group, "transport") == 0;
    if (nval != 1 && !list)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: expected one value, got %d", r->path, line,
                   group, key, nval);
    const char *section = lfric_map[m].section, *gkey = lfric_map[m].gkey;
    switch (lfric_map[m].kind) {
    case CORE:
    case GH_NUM:
    case GH_CASE:
    case ROTATE: {
        if (lfric_map[m].kind == CORE && strcasecmp(val, "gungho") && strcasecmp(val, "none"))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not one of 'gungho' (the nonlinear "
                       "core) and 'none' (the gravity_wave mini-app's linear one)", r->path, line,
                       group, key, val);
        if (lfric_map[m].kind == ROTATE && logical(val) < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        GALE_ASSERT(r->nheld < NHELD); /* one each: a duplicate key stops first */
        r->held[r->nheld].m = m, r->held[r->nheld].line = line;
        snprintf(r->held[r->nheld++].val, GALE_STR, "%.*s", GALE_STR - 1, val);
        if (lfric_map[m].kind == CORE && strcasecmp(val, "gungho") == 0) r->gungho = line;
        if (lfric_map[m].kind == GH_NUM) /* not used, unless the namelist is GungHo's */
            not_used(r, group, key);
        return GALE_OK;
    }
    case WIND:
        snprintf(r->wind.val, sizeof r->wind.val, "%s", val);
        r->wind.line = line;
        return GALE_OK;
    case FORMS: {
        const int names = strcmp(key, "field_names") == 0;
        r->names.line = names ? line : r->names.line, r->forms.line = names ? r->forms.line : line;
        return names ? hold_list(r, line, group, key, vals, nval, r->names.v, &r->names.n)
                     : hold_list(r, line, group, key, vals, nval, r->forms.v, &r->forms.n);
    }
    case SCHEME: {
        char v[MAXV][NAME];
        int n, nw = words(lfric_map[m].values, buf, sizeof buf, w);
        GALE_CALL(hold_list(r, line, group, key, vals, nval, v, &n));
        for (int i = 0; i < n; i++) {
            int ok = 0;
            for (int k = 0; k < nw && !ok; k++) ok = strcasecmp(v[i], w[k]) == 0;
            if (!ok)
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not one of LFRic's values (%s)",
                           r->path, line, group, key, v[i], lfric_map[m].values);
        }
        size_t len = strlen(r->approx);
        snprintf(r->approx + len, sizeof r->approx - len, "%s%s.%s", len ? ", " : "", group, key);
        return GALE_OK;
    }
    case CHAIN: /* multigrid_chain_nitems is held like the mesh keys */
    case MESH:
    case STEP: {
        if (list) {
            hold_chain(r, line, vals, nval);
            return GALE_OK;
        }
        struct held *h = strcmp(key, "prime_mesh_name") == 0  ? &r->prime
                         : strcmp(key, "filename") == 0       ? &r->file
                         : strcmp(key, "file_prefix") == 0    ? &r->prefix
                         : strcmp(key, "timestep_start") == 0 ? &r->start
                         : strcmp(key, "timestep_end") == 0   ? &r->end
                                                              : &r->nitems;
        snprintf(h->val, sizeof h->val, "%.*s", GALE_STR - 1, val); /* val < GALE_STR */
        h->line = line;
        return GALE_OK;
    }
    case MGFLAG: {
        int on = logical(val);
        if (on < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        if (!r->mg.line || !on) r->mg.group = group, r->mg.line = line, r->mg.on = on;
        return GALE_OK;
    }
    case NUM: {
        if (!fortran_number(val))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a number (Fortran: digits, "
                       "one '.', an e or d exponent)", r->path, line, group, key, val);
        snprintf(text, sizeof text, "%.*s", GALE_STR - 1, val);
        for (char *p = text; *p; p++)
            if (*p == 'd' || *p == 'D') *p = 'e';
        /* a relative tolerance of 0 is met only with an absolute one: checked at the end */
        const int t = strcmp(key, "si_pressure_tolerance") == 0 ? 0
                      : strcmp(key, "si_tolerance") == 0       ? 1 : -1;
        if (t >= 0) snprintf(r->tol[t].val, GALE_STR, "%s", val), r->tol[t].line = line;
        return set(r, line, group, key, val, section, gkey, text);
    }
    case LOGICAL: {
        int on = logical(val);
        if (on < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        snprintf(text, sizeof text, "%s", on ? "true" : "false");
        if (section) return set(r, line, group, key, val, section, gkey, text);
        if (strcmp(text, lfric_map[m].values) != 0 && lfric_map[m].note)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = %s: %s", r->path, line, group, key, val,
                       lfric_map[m].note);
        if (strcmp(text, lfric_map[m].values) != 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = %s: gale models only %s = .%s.", r->path,
                       line, group, key, val, key, lfric_map[m].values);
        return GALE_OK;
    }
    case WORD: {
        int nw = words(lfric_map[m].values, buf, sizeof buf, w);
        if (nval > 1) { /* &transport: every field's value must be gale's */
            for (int i = 0; i < nval && i < MAXV; i++) {
                unrepeat(vals[i], text, sizeof text);
                GALE_CALL(assign(r, line, g, key, (const char(*)[GALE_STR])text, 1));
            }
            return GALE_OK;
        }
        if (strspn(val, "0123456789") && val[strspn(val, "0123456789")] == '*')
            unrepeat(val, text, sizeof text), val = text;
        for (int i = 0; i < nw; i++) {
            size_t len = strcspn(w[i], "=");
            if (strlen(val) == len && strncasecmp(val, w[i], len) == 0) {
                if (!section) return GALE_OK;
                if (strcmp(key, "preconditioner") == 0) { /* for the l_multigrid check */
                    snprintf(r->pc.val, sizeof r->pc.val, "%.*s", GALE_STR - 1, val);
                    r->pc.line = line;
                }
                return set(r, line, group, key, val, section, gkey,
                           w[i][len] ? w[i] + len + 1 : w[i]);
            }
        }
        char allowed[512];
        size_t n = 0;
        for (int i = 0; i < nw && n < sizeof allowed; i++)
            n += (size_t)snprintf(allowed + n, sizeof allowed - n, "%s'%.*s'", i ? ", " : "",
                                  (int)strcspn(w[i], "="), w[i]);
        if (!section && lfric_map[m].note)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': %s", r->path, line, group, key,
                       val, lfric_map[m].note);
        if (!section)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': gale models only %s", r->path, line,
                       group, key, val, allowed);
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': no gale counterpart; allowed: %s",
                   r->path, line, group, key, val, allowed);
    }
    }
    GALE_ERROR(GALE_ERR_INTERNAL, "namelist mapping of &%s %s has no kind", group, key);
}

/* Whether a bare token is a value: a number, a logical or a repeat count
 * r*c; anything else (a name) after a value is a key missing its '='. */
static int bare_value(const char *v)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') return !v[d + 1] || v[d + 1] == '\'' || v[d + 1] == '"' ||
                                 bare_value(v + d + 1);
    if (*v == '.') return strchr("tTfF", v[1]) && v[1];
    if (!strcasecmp(v, "t") || !strcasecmp(v, "f") || !strcasecmp(v, "true") ||
        !strcasecmp(v, "false"))
        return 1;
    return strchr("+-.0123456789", *v) != NULL;
}

/* The body of group g, after "&name", up to and including its "/". */
static int read_group(nml_t *r, int g, int opened)
{
    const char *group = lfric_keys[g].group;
    char key[NAME], vals[MAXV][GALE_STR], extra[GALE_STR], why[256], look[NAME + 2];
    r->nseen = 0;
    for (;;) {
        skip(r, 1);
        if (*r->p == '/') {
            r->p++;
            return GALE_OK;
        }
        if (!*r->p || *r->p == '&')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s (opened on line %d): missing '/' at its end",
                       r->path, r->line, group, opened);
        int line = r->line;
        if (!read_name(r, key))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s: expected a key name, found '%.*s'", r->path,
                       line, group, shown(r->p), r->p);
        skip(r, 0);
        if (*r->p != '=')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: expected '=' after the key name", r->path,
                       line, group, key);
        r->p++;
        snprintf(look, sizeof look, " %s ", key);
        if (r->nseen && strstr(r->seen, look))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: duplicate key", r->path, line, group, key);
        if (r->nseen + sizeof look >= r->capseen) {
            char *b = realloc(r->seen, r->capseen = 2 * r->capseen + sizeof look);
            if (!b) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", r->path);
            r->seen = b;
        }
        r->nseen += (size_t)sprintf(r->seen + r->nseen, "%s", look + !!r->nseen);
        int nval = 0;
        for (;;) {
            skip(r, 1);
            if (!*r->p || *r->p == '/' || *r->p == '&' || at_assignment(r)) break;
            const int vline = r->line, quoted = *r->p == '\'' || *r->p == '"';
            char *v = nval < MAXV ? vals[nval] : extra;
            if (read_value(r, v, why, sizeof why))
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: %s", r->path, r->line, group, key, why);
            /* a name where a further value should be: the next key lacks its
             * '=' (strict Fortran reading; the value list ends at "name =") */
            if (nval && !quoted && !bare_value(v)) {
                if (isalpha((unsigned char)*v))
                    GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %.*s: expected '=' after the key name",
                               r->path, vline, group, (int)strcspn(v, "'\""), v);
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: '%s' is not a value (a number, a "
                           "logical or a quoted string)", r->path, vline, group, key, v);
            }
            nval++;
        }
        if (!nval)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: no value", r->path, line, group, key);
        GALE_CALL(assign(r, line, g, key, vals, nval));
    }
}

/* "C<N>" as the whole of s (whole != 0) or as a word in it (mesh_C16_MG.nc
 * -> C16), copied to out; 0 if none. */
static int mesh_word(const char *s, int whole, char *out, size_t n)
{
    for (const char *p = s; *p; p++) {
        size_t d = strspn(p + 1, "0123456789");
        int start = p == s || !isalnum((unsigned char)p[-1]);
        int stop = whole ? !p[1 + d] : !isalnum((unsigned char)p[1 + d]);
        if (*p == 'C' && d && start && stop) {
            snprintf(out, n, "%.*s", (int)d + 1, p);
            return 1;
        }
        if (whole) return 0;
    }
    return 0;
}

/* The multigrid keys, once the mesh is known: chain_mesh_tags starts at the
 * prime mesh and halves N at every step, agrees with multigrid_chain_nitems
 * and sets [multigrid] levels; a 'multigrid' preconditioner needs l_multigrid
 * (LFRic builds no chain without it). mesh_from: where the prime mesh came
 * from, for messages. */
static int resolve_multigrid(nml_t *r, const char *mesh_from)
{
    char text[32], why[1024];
    const char *tags = r->chain.text;
    const long n = r->chain.n;
    if (r->chain.line && r->nitems.line) {
        char *e;
        errno = 0;
        long v = strtol(r->nitems.val, &e, 10);
        if (e == r->nitems.val || *e || errno)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &multigrid multigrid_chain_nitems = '%s': not an "
                       "integer", r->path, r->nitems.line, r->nitems.val);
        if (v != n)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &multigrid chain_mesh_tags = %s: %ld meshes, but "
                       "multigrid_chain_nitems = %ld (line %d): expected as many meshes as "
                       "multigrid_chain_nitems says",
                       r->path, r->chain.line, tags, n, v, r->nitems.line);
    }
    if (r->chain.line) {
        snprintf(text, sizeof text, "%ld", n);
        if (gale_config_set_(r->cfg, "multigrid", "levels", text, why, sizeof why))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &multigrid chain_mesh_tags = %s (gale [multigrid] "
                       "levels = %ld): %s", r->path, r->chain.line, tags, n, why);
        int prev = 0;
        for (int i = 0; i < n; i++) { /* n <= 16 < MAXV: every tag is stored */
            char want[32], *e = "";
            const char *t = r->chain.tag[i];
            long v = (t[0] == 'C' || t[0] == 'c') && isdigit((unsigned char)t[1])
                         ? strtol(t + 1, &e, 10) : -1;
            if (v < 0 || *e || v > 8192)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: mesh %d, '%s', is not a "
                           "cubed-sphere mesh name gale knows: expected C<N> (e.g. 'C8')",
                           r->path, r->chain.line, tags, i + 1, t);
            if (i == 0 && v != r->cfg->mesh.n)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: the first mesh, '%s', should "
                           "be the prime mesh 'C%d' (%s)",
                           r->path, r->chain.line, tags, t, r->cfg->mesh.n, mesh_from);
            if (i > 0 && (prev % 2 || v != prev / 2)) {
                if (prev % 2) snprintf(want, sizeof want, "none: N = %d is odd", prev);
                else snprintf(want, sizeof want, "'C%d'", prev / 2);
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: mesh %d, '%s', should halve "
                           "N of the mesh before it ('C%d'): expected %s",
                           r->path, r->chain.line, tags, i + 1, t, prev, want);
            }
            prev = (int)v;
        }
    } else if (r->nitems.line) {
        GALE_CALL(set(r, r->nitems.line, "multigrid", "multigrid_chain_nitems", r->nitems.val,
                      "multigrid", "levels", r->nitems.val));
        /* C_N, C_N/2, ... while N is even: gale would silently build fewer */
        int most = 1;
        for (int n2 = r->cfg->mesh.n; n2 % 2 == 0; n2 /= 2) most++;
        if (r->cfg->multigrid.levels > most)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &multigrid multigrid_chain_nitems = %s: mesh C%d allows at most %d "
                       "levels (C%d, halved while N is even; %s)", r->path, r->nitems.line,
                       r->nitems.val, r->cfg->mesh.n, most, r->cfg->mesh.n, mesh_from);
    }
    if (r->mg.line && !r->mg.on && r->pc.line && strcasecmp(r->pc.val, "multigrid") == 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &helmholtz_solver preconditioner = '%s' needs the multigrid mesh "
                   "chain, but &%s l_multigrid = .false. (line %d) has none (LFRic cannot run "
                   "this either): set l_multigrid = .true. or choose another preconditioner",
                   r->path, r->pc.line, r->pc.val, r->mg.group, r->mg.line);
    return GALE_OK;
}

/* &initial_wind profile: gale's cases set their own wind, so the profile
 * must be the one LFRic's test of that case uses. */
static int resolve_wind(nml_t *r)
{
    static const struct { int kase; const char *profiles; } wind[] = {
        {GALE_CASE_GRAVITY_WAVE, "none zero"},
        {GALE_CASE_RESTING, "none zero"},
        {GALE_CASE_DCMIP31, "solid_body_rotation"},
        {GALE_CASE_BAROCLINIC_WAVE, "deep_baroclinic_perturbed"},
    };
    char buf[256];
    const char *w[MAXW];
    if (!r->wind.line) return GALE_OK;
    for (size_t i = 0; i < sizeof wind / sizeof wind[0]; i++) {
        if (wind[i].kase != r->cfg->initial.kase) continue;
        int nw = words(wind[i].profiles, buf, sizeof buf, w);
        for (int k = 0; k < nw; k++)
            if (strcasecmp(r->wind.val, w[k]) == 0) return GALE_OK;
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &initial_wind profile = '%s': gale's case %s sets its own wind, "
                   "LFRic's profile '%s'%s%s%s", r->path, r->wind.line, r->wind.val,
                   gale_config_choice("initial", "case", r->cfg->initial.kase), w[0],
                   nw > 1 ? " or '" : "", nw > 1 ? w[1] : "", nw > 1 ? "'" : "");
    }
    GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &initial_wind profile = '%s': gale's case %s has no LFRic "
               "wind profile", r->path, r->wind.line, r->wind.val,
               gale_config_choice("initial", "case", r->cfg->initial.kase));
}

/* &transport equation_form, field by field (field_names): LFRic's 1
 * conservative, 2 advective, 3 consistent (advective, consistent with the
 * density's flux). gale transports density in flux form and theta and the
 * wind in advective form, theta's as its flux form less theta div u, which
 * is consistent with the density's: 2 and 3 both stand for it. Fields gale
 * does not carry (moisture, tracers: it is dry) take any form. Only a GungHo
 * namelist transports. */
static int resolve_forms(nml_t *r)
{
    if (!r->gungho) { /* the linear core transports nothing */
        if (r->forms.line) not_used(r, "transport", "equation_form");
        if (r->names.line) not_used(r, "transport", "field_names");
        return GALE_OK;
    }
    if (!r->forms.line) return GALE_OK;
    if (!r->names.line)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form needs field_names, to say "
                   "which field each form is for", r->path, r->forms.line);
    if (r->names.n != r->forms.n)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form has %d values, field_names "
                   "(line %d) %d: one form per field", r->path, r->forms.line, r->forms.n,
                   r->names.line, r->names.n);
    for (int i = 0; i < r->forms.n; i++) {
        const char *f = r->forms.v[i], *name = r->names.v[i];
        if (strcmp(f, "1") && strcmp(f, "2") && strcmp(f, "3"))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = '%s' (field '%s'): not "
                       "1 (conservative), 2 (advective) or 3 (consistent)", r->path,
                       r->forms.line, f, name);
        const int cons = strcmp(f, "1") == 0;
        if (strcmp(name, "density") == 0 && !cons)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = %s for 'density': gale "
                       "transports the density in conservative (flux) form only (1)", r->path,
                       r->forms.line, f);
        if ((strcmp(name, "potential_temperature") == 0 ||
             (strcmp(name, "wind") == 0 && !r->cfg->dynamics.vector_invariant)) && cons)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = 1 (conservative) for "
                       "'%s': gale transports it in advective form only (2, or 3: consistent)",
                       r->path, r->forms.line, name);
    }
    return GALE_OK;
}

/* GungHo's keys, once the whole file is read. A GungHo namelist
 * (&section_choice dynamics = 'gungho') sets [dynamics] equations = nonlinear
 * and the held keys; &formulation rotating = .false. then sets [planet] omega
 * = 0, whatever &planet omega says. In a gravity_wave namelist they stay not
 * used, and rotating must be .false. (its linear equations have no Coriolis
 * term). */
static int resolve_gungho(nml_t *r)
{
    char buf[2048];
    const char *w[MAXW];
    int rotating = -1, rline = 0, test = 0;
    if (r->gungho)
        GALE_CALL(set(r, r->gungho, "section_choice", "dynamics", "gungho", "dynamics",
                      "equations", "nonlinear"));
    for (int i = 0; i < r->nheld; i++) {
        const int m = r->held[i].m, line = r->held[i].line;
        const char *group = lfric_map[m].group, *key = lfric_map[m].key, *val = r->held[i].val;
        switch (lfric_map[m].kind) {
        case ROTATE:
            rotating = logical(val), rline = line; /* checked in assign() */
            if (!r->gungho && rotating)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &%s %s = %s: gale models only rotating = .false. in a "
                           "gravity_wave namelist (its linear equations have no Coriolis term; a "
                           "GungHo one, &section_choice dynamics = 'gungho', may rotate)",
                           r->path, line, group, key, val);
            break;
        case GH_NUM:
            if (r->gungho) {
                char text[GALE_STR];
                snprintf(text, sizeof text, "%s", val);
                for (char *p = text; *p; p++)
                    if (*p == 'd' || *p == 'D') *p = 'e';
                GALE_CALL(set(r, line, group, key, val, lfric_map[m].section, lfric_map[m].gkey,
                              text));
            }
            break;
        case GH_CASE: {
            test = line;
            if (!r->gungho && strcasecmp(val, "gravity_wave") != 0)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &%s %s = '%s': a gravity_wave namelist runs only the linear "
                           "gravity wave (test = 'gravity_wave'); GungHo's tests need "
                           "&section_choice dynamics = 'gungho'", r->path, line, group, key, val);
            if (!r->gungho) break;
            int nw = words(lfric_map[m].values, buf, sizeof buf, w), found = 0;
            for (int k = 0; k < nw && !found; k++) {
                size_t len = strcspn(w[k], "=");
                if (strlen(val) != len || strncasecmp(val, w[k], len) != 0) continue;
                found = 1;
                GALE_CALL(set(r, line, group, key, val, "initial", "case", w[k] + len + 1));
                if (strcmp(w[k] + len + 1, "resting") == 0) /* LFRic's isothermal atmosphere */
                    GALE_CALL(set(r, line, group, key, val, "initial", "profile", "isothermal"));
            }
            if (!found)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &%s %s = '%s': gale's nonlinear core has no such case; it "
                           "runs 'deep_baroclinic_wave' (gale's baroclinic_wave), 'gravity_wave' "
                           "(the DCMIP 3-1 gravity wave, gale's dcmip31) and 'isot_atm' (the "
                           "isothermal atmosphere at rest, gale's resting)",
                           r->path, line, group, key, val);
            break;
        }
        default: /* CORE: r->gungho */
            break;
        }
    }
    if (r->gungho && rotating == 0)
        GALE_CALL(set(r, rline, "formulation", "rotating", ".false.", "planet", "omega", "0.0"));
    if (r->gungho && !test)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &section_choice dynamics = 'gungho' needs &idealised test: gale's "
                   "nonlinear core runs 'deep_baroclinic_wave', 'gravity_wave' or 'isot_atm'",
                   r->path, r->gungho);
    GALE_CALL(resolve_forms(r));
    return resolve_wind(r);
}

/* Keys that combine: the mesh from prime_mesh_name or filename, the step
 * count from timestep_start and timestep_end, the multigrid chain, GungHo's
 * keys. */
static int resolve(nml_t *r)
{
    char text[GALE_STR], why[1024];
    const char *mesh_from = "gale's default [mesh] name: the namelist gives no &base_mesh mesh";
    if (r->prime.line || r->file.line || r->prefix.line) {
        /* prime_mesh_name when it is C<N>, else the C<N> word of the mesh
         * file's name (filename, or the newer layout's file_prefix) */
        struct held *h = NULL;
        const char *from = NULL;
        if (r->prime.line && mesh_word(r->prime.val, 1, text, sizeof text))
            h = &r->prime, from = "prime_mesh_name";
        else if (r->file.line && mesh_word(r->file.val, 0, text, sizeof text))
            h = &r->file, from = "filename";
        else if (r->prefix.line && mesh_word(r->prefix.val, 0, text, sizeof text))
            h = &r->prefix, from = "file_prefix";
        if (!h)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &base_mesh: cannot tell the cubed-sphere mesh from prime_mesh_name "
                       "= '%s', filename = '%s' or file_prefix = '%s': gale needs C<N> (e.g. "
                       "'C16') in one of them",
                       r->path, r->prime.line ? r->prime.line : r->file.line ? r->file.line
                                                                            : r->prefix.line,
                       r->prime.val, r->file.val, r->prefix.val);
        /* the others must name the same mesh, or which one runs is a guess */
        struct held *o[3] = {&r->prime, &r->file, &r->prefix};
        const char *oname[3] = {"prime_mesh_name", "filename", "file_prefix"};
        for (int i = 0; i < 3; i++) {
            char other[GALE_STR];
            if (o[i] == h || !o[i]->line || !mesh_word(o[i]->val, o[i] == &r->prime, other,
                                                        sizeof other))
                continue;
            if (strcmp(other, text) != 0)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &base_mesh %s = '%s' names mesh %s, but %s = '%s' (line %d) "
                           "names %s: make them agree", r->path, o[i]->line, oname[i],
                           o[i]->val, other, from, h->val, h->line, text);
        }
        GALE_CALL(set(r, h->line, "base_mesh", from, h->val, "mesh", "name", text));
        mesh_from = h == &r->prime ? "from &base_mesh prime_mesh_name"
                    : h == &r->file ? "from &base_mesh filename"
                                    : "from &base_mesh file_prefix";
    }
    long v[2] = {1, 0};
    struct held *h[2] = {&r->start, &r->end};
    for (int i = 0; i < 2; i++) { /* both in [1, INT_MAX]: end - start + 1 cannot overflow */
        char *e;
        if (!h[i]->line) continue;
        errno = 0;
        v[i] = strtol(h[i]->val, &e, 10);
        if (e == h[i]->val || *e || errno || v[i] < 1 || v[i] > INT_MAX)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &time %s = '%s': not a time-step number (an "
                       "integer in [1, %d])", r->path, h[i]->line,
                       i ? "timestep_end" : "timestep_start", h[i]->val, INT_MAX);
    }
    if (r->end.line) {
        snprintf(text, sizeof text, "%ld", v[1] - v[0] + 1);
        if (gale_config_set_(r->cfg, "timestepping", "steps", text, why, sizeof why))
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &time timestep_start = %ld, timestep_end = %ld (gale [timestepping] "
                       "steps = %s): %s",
                       r->path, r->end.line, v[0], v[1], text, why);
    }
    GALE_CALL(resolve_multigrid(r, mesh_from));
    /* a relative tolerance of 0 with no absolute one is never met: the
     * solve would fail at run time instead */
    const double rel[2] = {r->cfg->solver.tolerance, r->cfg->mixed_solver.tolerance},
                 abs_[2] = {r->cfg->solver.abs_tolerance, r->cfg->mixed_solver.abs_tolerance};
    static const char *const tkey[2][3] = {{"helmholtz_solver", "si_pressure_tolerance",
                                            "si_pressure_a_tol"},
                                           {"mixed_solver", "si_tolerance", "mixed_solver_a_tol"}};
    for (int i = 0; i < 2; i++)
        if (r->tol[i].line && rel[i] == 0 && abs_[i] == 0)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &%s %s = '%s': a relative tolerance of 0 can never be met without "
                       "an absolute one (%s): give a positive tolerance or %s",
                       r->path, r->tol[i].line, tkey[i][0], tkey[i][1], r->tol[i].val,
                       tkey[i][2], tkey[i][2]);
    return resolve_gungho(r);
}

static int read_groups(nml_t *r)
{
    char name[NAME], sugg[1024];
    const char *cand[NGROUPS];
    int opened[NGROUPS] = {0};
    for (int g = 0; g < NGROUPS; g++) cand[g] = lfric_keys[g].group;
    for (;;) {
        skip(r, 0);
        if (!*r->p) return resolve(r);
        int line = r->line;
        if (*r->p != '&')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: expected '&group', found '%.*s'", r->path, line,
                       shown(r->p), r->p);
        r->p++;
        if (!read_name(r, name))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: expected a group name after '&'", r->path, line);
        int g = find_group(name);
        if (g < 0) {
            gale_config_suggest_(sugg, sizeof sugg, name, cand, NGROUPS, "&", "");
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &%s: not a group of LFRic's gravity_wave or GungHo namelists; %s", r->path,
                       line, name, sugg);
        }
        if (opened[g])
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s: group given twice (first on line %d)",
                       r->path, line, name, opened[g]);
        opened[g] = line;
        GALE_CALL(read_group(r, g, line));
    }
}

/* A GungHo namelist uses the held keys: they leave the "not used" list
 * ("group.key, ..."), which is rewritten in place; returns how many remain. */
static int drop_used(const nml_t *r, char *list)
{
    char *out = list, *save, *copy = strdup(list);
    int n = 0;
    if (!copy) return r->nunused; /* the log keeps them: harmless */
    *out = '\0';
    for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        int used = 0;
        for (int i = 0; i < r->nheld && !used; i++) {
            const int m = r->held[i].m;
            size_t g = strlen(lfric_map[m].group);
            used = lfric_map[m].kind != ROTATE && strncmp(t, lfric_map[m].group, g) == 0 &&
                   t[g] == '.' && strcmp(t + g + 1, lfric_map[m].key) == 0;
        }
        if (!used) out += sprintf(out, "%s%s", n++ ? ", " : "", t);
    }
    free(copy);
    return n;
}

int gale_config_read_nml_(gale_config_t *cfg, const char *path)
{
    char *text = NULL, *unused = NULL;
    size_t len = 0;
    GALE_CALL(gale_config_read_text_(path, &text));
    /* LFRic always uses the consistent W2 mass matrix (&finite_element
     * rehabilitate only chooses its basis): so does a namelist run, whatever
     * cfg held; a command-line override, applied after, may still choose lumped. */
    char why[256];
    if (gale_config_set_(cfg, "dynamics", "mass_matrix", "consistent", why, sizeof why)) {
        free(text);
        GALE_ERROR(GALE_ERR_INTERNAL, "%s", why);
    }
    nml_t r = {.path = path, .p = text, .line = 1, .cfg = cfg};
    r.unused = open_memstream(&unused, &len);
    int st = r.unused ? read_groups(&r) : GALE_ERR_MEM;
    if (r.unused) fclose(r.unused);
    free(r.seen);
    free(text);
    if (st == GALE_OK && r.gungho && unused) r.nunused = drop_used(&r, unused);
    if (st == GALE_OK && r.nunused)
        gale_log(GALE_LOG_INFO, "LFRic namelist %s: not used (no gale counterpart): %s", path,
                 unused);
    if (st == GALE_OK && r.approx[0])
        gale_log(GALE_LOG_INFO, "LFRic namelist %s: LFRic's transport methods, stood in for by "
                 "gale's one scheme (upwind-biased reconstruction, SSP-RK3, substeps at [dynamics] "
                 "transport_courant; docs/lfric-namelist.md): %s", path, r.approx);
    free(unused);
    if (st == GALE_ERR_MEM) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", path);
    return st;
}
