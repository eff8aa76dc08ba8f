/* The table of configuration keys: the one place a key is described. */
#include "gale_config.h"

#include "gale_base.h"

#include <float.h>
#include <stddef.h>

#define OFF(member) offsetof(gale_config_t, member)
#define BIG DBL_MAX

/* Entries leave out the last member, min_open, unless it is 1: zero-filled,
 * a closed range. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

const gale_key_t gale_keys[] = {
    {"mesh", "name", GALE_KT_MESH, OFF(mesh.n), "C24", 1, 8192, NULL,
     "cubed-sphere mesh C<N>: 6 N^2 columns"},

    {"extrusion", "levels", GALE_KT_INT, OFF(extrusion.levels), "10", 1, 4096, NULL,
     "number of layers"},
    {"extrusion", "top", GALE_KT_REAL, OFF(extrusion.top), "10000.0", 1e-3, BIG, NULL,
     "height of the model top [m]"},
    {"extrusion", "method", GALE_KT_ENUM, OFF(extrusion.method), "uniform", 0, 0,
     "uniform|quadratic|geometric|dcmip|um_L38_29t_9s_40km|um_L70_50t_20s_80km|"
     "um_L70_61t_9s_40km|um_L85_50t_35s_85km",
     "layer spacing, LFRic's: uniform; quadratic (thin near the ground); geometric (x1.03 a "
     "layer); dcmip (DCMIP's flattened, thin near the ground); the UM's level sets, each with "
     "its own number of levels: um_L38_29t_9s_40km (38), um_L70_50t_20s_80km and "
     "um_L70_61t_9s_40km (70), um_L85_50t_35s_85km (85)"},

    {"planet", "radius", GALE_KT_REAL, OFF(planet.radius), "6371229.0", 1.0, BIG, NULL,
     "planet radius [m]"},
    {"planet", "scaling", GALE_KT_REAL, OFF(planet.scaling), "125.0", 1.0, BIG, NULL,
     "small-planet factor X: the model sphere has radius radius/X"},
    {"planet", "gravity", GALE_KT_REAL, OFF(planet.gravity), "9.80616", 0.0, BIG, NULL,
     "gravitational acceleration [m s-2] (buoyancy of the initial perturbation)", .min_open = 1},
    {"planet", "omega", GALE_KT_REAL, OFF(planet.omega), "7.292116e-5", 0.0, BIG, NULL,
     "rotation rate [s-1]: the nonlinear core's Coriolis term (LFRic's &planet omega; the linear "
     "core has none)"},
    {"planet", "cp", GALE_KT_REAL, OFF(planet.cp), "1005.0", 0.0, BIG, NULL,
     "nonlinear core: specific heat of dry air at constant pressure [J kg-1 K-1]", .min_open = 1},
    {"planet", "rd", GALE_KT_REAL, OFF(planet.rd), "287.05", 0.0, BIG, NULL,
     "nonlinear core: gas constant of dry air [J kg-1 K-1]", .min_open = 1},
    {"planet", "p_zero", GALE_KT_REAL, OFF(planet.p_zero), "100000.0", 0.0, BIG, NULL,
     "nonlinear core: reference pressure of the Exner function [Pa]", .min_open = 1},

    {"physics", "bvf_square", GALE_KT_REAL, OFF(physics.bvf_square), "1.0e-4", 1e-12, BIG, NULL,
     "Brunt-Vaisala frequency squared N^2 [s-2]"},
    {"physics", "speed_of_sound", GALE_KT_REAL, OFF(physics.speed_of_sound), "340.0", 1e-3, BIG,
     NULL, "speed of sound c [m s-1]"},

    {"timestepping", "dt", GALE_KT_REAL, OFF(timestepping.dt), "100.0", 1e-9, BIG, NULL,
     "time step [s]"},
    {"timestepping", "steps", GALE_KT_INT, OFF(timestepping.steps), "36", 0, 100000000, NULL,
     "number of time steps"},
    {"timestepping", "alpha", GALE_KT_REAL, OFF(timestepping.alpha), "0.5", 0.5, 1.0, NULL,
     "Crank-Nicolson off-centring weight of the new time level (0.5: centred)"},
    {"timestepping", "outer_iterations", GALE_KT_INT, OFF(timestepping.outer_iterations), "2", 1,
     20, NULL, "nonlinear core: outer (transport) iterations per step (the linear core ignores it)"},
    {"timestepping", "inner_iterations", GALE_KT_INT, OFF(timestepping.inner_iterations), "2", 1,
     20, NULL, "nonlinear core: inner (Newton) iterations, one mixed solve each, per outer "
     "iteration (the linear core ignores it)"},
    {"timestepping", "reference_reset_time", GALE_KT_REAL, OFF(timestepping.reference_reset_time),
     "3600.0", 0.0, BIG, NULL, "nonlinear core: interval [s] at which the solver's reference "
     "state is reset to the current one (0: set once, at the start; the linear core ignores it)"},
    {"timestepping", "reference_state", GALE_KT_ENUM, OFF(timestepping.reference_state), "mean",
     0, 0, "column|mean",
     "nonlinear core: the state the mixed operator is linearised about, the horizontal mean "
     "profile in every column, or each column's own (GungHo's; more GCR iterations with gale's "
     "horizontally uniform preconditioner, docs/nonlinear.md)"},

    {"initial", "case", GALE_KT_ENUM, OFF(initial.kase), "gravity_wave", 0, 0,
     "gravity_wave|balanced|normal_mode|cosine_bell|deformational|gravity_wave_advected|resting|"
     "dcmip31|baroclinic_wave",
     "initial state / test case (docs/numerics.md, docs/transport.md; resting, dcmip31 and "
     "baroclinic_wave: the nonlinear core's, docs/nonlinear.md)"},
    {"initial", "profile", GALE_KT_ENUM, OFF(initial.profile), "isothermal", 0, 0,
     "isothermal|constant_n",
     "resting: the isothermal atmosphere at theta0 [K] surface temperature, or constant "
     "Brunt-Vaisala frequency [physics] bvf_square with surface potential temperature theta0"},
    {"initial", "u0", GALE_KT_REAL, OFF(initial.u0), "20.0", 0.0, BIG, NULL,
     "dcmip31: solid-body wind at the equator [m/s] (DCMIP 2012 test 3-1)"},
    {"initial", "perturbation", GALE_KT_REAL, OFF(initial.perturbation), "0.5", 0.0, BIG, NULL,
     "baroclinic_wave: u_p of the stream-function perturbation of Ullrich et al. (2014), DCMIP "
     "2016's pertu0 [m/s]: the test's 0.5 gives a peak wind of 1.02 m/s (0: the balanced jet "
     "alone)"},
    {"initial", "mode", GALE_KT_ENUM, OFF(initial.mode), "vertical", 0, 0, "vertical|horizontal",
     "normal_mode: horizontally uniform vertical mode, or spherical-harmonic horizontal mode"},
    {"initial", "vertical_wavenumber", GALE_KT_INT, OFF(initial.vertical_wavenumber), "1", 1, 4096,
     NULL, "normal_mode vertical: j in m = j pi / top"},
    {"initial", "degree", GALE_KT_INT, OFF(initial.degree), "1", 1, 2, NULL,
     "normal_mode horizontal: spherical-harmonic degree l (zonal, m = 0)"},
    {"initial", "amplitude", GALE_KT_REAL, OFF(initial.amplitude), "1.0", 0.0, BIG, NULL,
     "normal_mode and balanced: amplitude of p [m2 s-2]"},
    {"initial", "dtheta", GALE_KT_REAL, OFF(initial.dtheta), "1.0", -BIG, BIG, NULL,
     "gravity_wave: potential temperature perturbation [K]"},
    {"initial", "theta0", GALE_KT_REAL, OFF(initial.theta0), "300.0", 1e-3, BIG, NULL,
     "gravity_wave: reference potential temperature [K]; b = g dtheta / theta0"},
    {"initial", "half_width", GALE_KT_REAL, OFF(initial.half_width), "5000.0", 1e-3, BIG, NULL,
     "gravity_wave: half-width d of the perturbation on the model sphere [m]"},
    {"initial", "vertical_wavelength", GALE_KT_REAL, OFF(initial.vertical_wavelength), "20000.0",
     1e-3, BIG, NULL, "gravity_wave: vertical wavelength L_z of the perturbation [m]"},
    {"initial", "centre_lon", GALE_KT_REAL, OFF(initial.centre_lon), "120.0", -360, 360, NULL,
     "gravity_wave: longitude of the perturbation centre [degrees]"},
    {"initial", "centre_lat", GALE_KT_REAL, OFF(initial.centre_lat), "0.0", -90, 90, NULL,
     "gravity_wave: latitude of the perturbation centre [degrees]"},

    {"transport", "wind", GALE_KT_ENUM, OFF(transport.wind), "none", 0, 0,
     "none|solid_body|deformational",
     "background wind advecting the gravity-wave case (the advection cases set their own)"},
    {"transport", "u0", GALE_KT_REAL, OFF(transport.u0), "0.0", 0.0, BIG, NULL,
     "solid-body wind speed [m/s] (0: the case's own: 2 pi a / 12 days for cosine_bell, 20 m/s "
     "for the gravity wave)"},
    {"transport", "alpha", GALE_KT_REAL, OFF(transport.alpha), "0.0", -GALE_PI, GALE_PI, NULL,
     "solid-body rotation axis tilt [rad] (Williamson: 0, 0.05, pi/2-0.05, pi/2)"},
    {"transport", "cfl", GALE_KT_REAL, OFF(transport.cfl), "0.5", 1e-6, 1.0, NULL,
     "advective Courant number: sets the transport step (outflow per step / cell content)"},
    {"transport", "days", GALE_KT_REAL, OFF(transport.days), "12.0", 1e-9, 1e6, NULL,
     "length of the cosine_bell and deformational runs [days] (steps follow from cfl)"},

    {"dynamics", "mass_matrix", GALE_KT_ENUM, OFF(dynamics.mass_matrix), "consistent", 0, 0,
     "consistent|lumped",
     "horizontal velocity inner product: consistent (mimetic, non-diagonal; solved with "
     "[mixed_solver]) or lumped (two-point, diagonal; u, w, b eliminated exactly, one Helmholtz "
     "solve per step)"},
    {"dynamics", "equations", GALE_KT_ENUM, OFF(dynamics.equations), "linear", 0, 0,
     "linear|nonlinear",
     "linear: LFRic's gravity_wave mini-app; nonlinear: GungHo's compressible Euler equations "
     "(docs/nonlinear.md)"},
    {"dynamics", "vector_invariant", GALE_KT_BOOL, OFF(dynamics.vector_invariant), "false", 0, 0,
     NULL,
     "nonlinear core: the wind equation in advective form (false, GungHo's: the reconstructed "
     "wind's Cartesian components transported as theta is) or in vector-invariant form (the "
     "vorticity force and the kinetic-energy gradient in the forcing; it needs grid_damping); "
     "LFRic's &formulation vector_invariant; docs/nonlinear.md"},
    {"dynamics", "shallow", GALE_KT_BOOL, OFF(dynamics.shallow), "true", 0, 0, NULL,
     "the shallow atmosphere (true: flat columns) or the deep one (false, both LFRic examples': "
     "layers as spherical shells of radius a + z). The linear core takes the shells' volumes, "
     "faces and gradients (LFRic's gravity_wave geometry; docs/numerics.md); the nonlinear core "
     "also gravity g (a/r)^2, the full Coriolis vector and the metric terms of Ullrich et al. "
     "2014, with the advective wind only (docs/nonlinear.md); the transport cases are shallow. "
     "LFRic's &formulation shallow"},
    {"dynamics", "grid_damping", GALE_KT_REAL, OFF(dynamics.grid_damping), "0.0", 0.0, 1.0, NULL,
     "nonlinear core: damping per time step of the wind's grid-scale modes that the cell "
     "reconstruction does not see, a biharmonic-like filter with e-folding time dt / grid_damping "
     "(0: off; at most 1, the explicit limit; docs/nonlinear.md; the linear core ignores it)"},
    {"dynamics", "transport_courant", GALE_KT_REAL, OFF(dynamics.transport_courant), "1.0", 0.0,
     BIG, NULL,
     "nonlinear core: the largest horizontal Courant number of one transport substep; each outer "
     "iteration's transport takes ceil(C / transport_courant) SSP-RK3 substeps, C the advecting "
     "wind's largest (0: one, whatever C; LFRic's &transport cfl_mol_2d_stab; docs/nonlinear.md)"},
    {"dynamics", "transport_stand_in", GALE_KT_BOOL, OFF(dynamics.transport_stand_in), "false", 0,
     0, NULL,
     "LFRic namelists: let gale's one transport scheme (the method of lines: unsplit, SSP-RK3, "
     "upwind-biased quadratic reconstruction) stand in for the &transport method a GungHo "
     "namelist names (split, FFSL, semi-Lagrangian, ...), listing those keys in the log; false: "
     "such a namelist is refused (docs/lfric-namelist.md)"},

    {"mixed_solver", "method", GALE_KT_ENUM, OFF(mixed_solver.method), "gcr", 0, 0,
     "gcr|prec_only|pipelined_gcr",
     "method for the mixed (u, w, b, p) system of mass_matrix = consistent; prec_only: one "
     "application of the approximate-Schur preconditioner, no global sum (LFRic's si_method "
     "'prec_only'); pipelined_gcr: gcr whose one global sum per iteration overlaps the next "
     "preconditioner and operator applications (needs [solver] method = prec_only)"},
    {"mixed_solver", "tolerance", GALE_KT_REAL, OFF(mixed_solver.tolerance), "1.0e-4", 0.0, 1.0,
     NULL, "relative tolerance in the energy-weighted norm: stop when |r| <= tolerance |b| "
     "(LFRic's si_tolerance; 0 only with abs_tolerance > 0)"},
    {"mixed_solver", "abs_tolerance", GALE_KT_REAL, OFF(mixed_solver.abs_tolerance), "0.0", 0.0,
     BIG, NULL, "absolute tolerance: stop when |r| <= abs_tolerance (0: off)"},
    {"mixed_solver", "max_iterations", GALE_KT_INT, OFF(mixed_solver.max_iterations), "20", 1,
     1000, NULL, "iteration cap per solve (LFRic's si_maximum_iterations)"},
    {"mixed_solver", "gcrk", GALE_KT_INT, OFF(mixed_solver.gcrk), "4", 1, 10, NULL,
     "gcr: directions kept before a restart (LFRic's gcrk)"},
    {"mixed_solver", "lookahead", GALE_KT_REAL, OFF(mixed_solver.lookahead), "2.0", 0.0, 1.0e6,
     NULL, "pipelined_gcr: make the next preconditioner and operator applications while an "
     "iteration's sum is in flight unless the residual, falling by the last iteration's factor "
     "again, would come within lookahead x the target (then they wait for the sum, and are not "
     "wasted if it converges); 0: always, as PETSc's KSPPIPEGCR (docs/numerics.md)"},
    {"mixed_solver", "fail_on_non_converged", GALE_KT_BOOL,
     OFF(mixed_solver.fail_on_non_converged), "true", 0, 0, NULL,
     "stop the run (with the residual history) when a solve does not converge"},
    {"mixed_solver", "monitor_convergence", GALE_KT_BOOL, OFF(mixed_solver.monitor_convergence),
     "false", 0, 0, NULL, "log the residual of every iteration"},

    {"solver", "method", GALE_KT_ENUM, OFF(solver.method), "cg", 0, 0,
     "cg|pipelined_cg|bicgstab|gcr|prec_only",
     "Krylov method for the Helmholtz problem; prec_only: one multigrid V-cycle per solve, no "
     "global sum (LFRic's GungHo setting); needs preconditioner = multigrid"},
    {"solver", "preconditioner", GALE_KT_ENUM, OFF(solver.preconditioner), "tridiagonal", 0, 0,
     "none|diagonal|tridiagonal|multigrid",
     "tridiagonal: exact vertical solve per column, horizontal part lumped; multigrid: one "
     "V-cycle over the mesh chain ([multigrid])"},
    {"solver", "tolerance", GALE_KT_REAL, OFF(solver.tolerance), "1.0e-10", 0.0, 1.0, NULL,
     "relative tolerance: stop when |r| <= tolerance |b| (0 only with abs_tolerance > 0)"},
    {"solver", "abs_tolerance", GALE_KT_REAL, OFF(solver.abs_tolerance), "0.0", 0.0, BIG, NULL,
     "absolute tolerance: stop when |r| <= abs_tolerance (0: off)"},
    {"solver", "max_iterations", GALE_KT_INT, OFF(solver.max_iterations), "500", 1, 1000000, NULL,
     "iteration cap per solve"},
    {"solver", "reproducible_sums", GALE_KT_BOOL, OFF(solver.reproducible_sums), "true", 0, 0,
     NULL, "order-invariant global sums: bit-identical for any rank and thread count"},
    {"solver", "fail_on_non_converged", GALE_KT_BOOL, OFF(solver.fail_on_non_converged), "true",
     0, 0, NULL, "stop the run (with the residual history) when a solve does not converge"},
    {"solver", "monitor_convergence", GALE_KT_BOOL, OFF(solver.monitor_convergence), "false", 0,
     0, NULL, "log the residual of every iteration"},
    {"solver", "precision", GALE_KT_ENUM, OFF(solver.precision), "double", 0, 0, "double|single",
     "precision of the linear solves: the Helmholtz solver's vectors and operator and, with "
     "mass_matrix = consistent, the whole mixed solve (single: LFRic's r_solver, 32 bits in its "
     "default build; the model's state stays double, the global sums exact; docs/numerics.md)"},
    {"solver", "gcr_restart", GALE_KT_INT, OFF(solver.gcr_restart), "8", 1, 200, NULL,
     "gcr: directions kept before a restart"},
    {"solver", "replace_every", GALE_KT_INT, OFF(solver.replace_every), "50", 0, 1000000, NULL,
     "pipelined_cg: recompute the true residual every this many iterations (0: only at the end)"},

    {"multigrid", "levels", GALE_KT_INT, OFF(multigrid.levels), "4", 1, 16, NULL,
     "levels of the mesh chain C_N, C_N/2, ... including the finest; fewer when N is not "
     "divisible by 2^(levels-1)"},
    {"multigrid", "smooth_relaxation", GALE_KT_REAL, OFF(multigrid.smooth_relaxation), "0.8", 0.0,
     2.0, NULL, "relaxation rho of the block-Jacobi smoother u += rho H_z^-1 (b - H u)",
     .min_open = 1},
    {"multigrid", "n_presmooth", GALE_KT_INT, OFF(multigrid.n_presmooth), "2", 0, 100, NULL,
     "smoothing sweeps on each level before restricting the residual to the next coarser one"},
    {"multigrid", "n_postsmooth", GALE_KT_INT, OFF(multigrid.n_postsmooth), "2", 0, 100, NULL,
     "smoothing sweeps on each level after adding the coarser level's correction"},
    {"multigrid", "n_coarsesmooth", GALE_KT_INT, OFF(multigrid.n_coarsesmooth), "4", 1, 1000,
     NULL, "smoothing sweeps on the coarsest level (no direct solve)"},

    {"partitioning", "method", GALE_KT_ENUM, OFF(partitioning.method), "sfc", 0, 0, "sfc|panel",
     "sfc: Hilbert curve, any rank count; panel: LFRic blocks, ranks = 1 or 6*px*py"},

    {"halo", "depth", GALE_KT_INT, OFF(halo.depth), "1", 1, 3, NULL, "halo depth in cells"},
    {"halo", "redundant_computation", GALE_KT_BOOL, OFF(halo.redundant_computation), "false", 0,
     0, NULL, "compute into the halo instead of exchanging where the depth allows"},
    {"halo", "overlap", GALE_KT_BOOL, OFF(halo.overlap), "true", 0, 0, NULL,
     "overlap halo exchanges with computation on inner cells"},
    {"halo", "gpu_aware", GALE_KT_BOOL, OFF(halo.gpu_aware), "false", 0, 0, NULL,
     "offload builds: hand device buffers to MPI"},
    {"halo", "progress_points", GALE_KT_BOOL, OFF(halo.progress_points), "true", 0, 0, NULL,
     "test the pending non-blocking global sums between kernel launches, so that they advance "
     "while kernels run with an MPI that has no progress thread (docs/emulate.md)"},

    {"offload", "memory", GALE_KT_ENUM, OFF(offload.memory), GALE_OFFLOAD_MEMORY_DEFAULT, 0, 0,
     "discrete|unified",
     "offload builds: discrete device copies (map/update), or unified zero-copy host memory "
     "(APUs such as MI300A, Grace Hopper)"},

    {"io", "dir", GALE_KT_STRING, OFF(io.dir), "output", 0, 0, NULL,
     "directory for output files (created if missing)"},
    {"io", "mode", GALE_KT_ENUM, OFF(io.mode), "shared", 0, 0, "shared|per_rank|aggregated",
     "shared: one file, parallel HDF5; per_rank: a file per rank; aggregated: one writer per group"},
    {"io", "aggregators", GALE_KT_INT, OFF(io.aggregators), "0", 0, 1000000, NULL,
     "aggregated: ranks per writer group (0: one writer per node)"},
    {"io", "synchronous", GALE_KT_BOOL, OFF(io.synchronous), "false", 0, 0, NULL,
     "write on the model thread instead of the asynchronous writer thread"},
    {"io", "buffers", GALE_KT_INT, OFF(io.buffers), "4", 1, 1024, NULL,
     "output buffers in the ring between the model and the writer thread"},
    {"io", "buffer_mib", GALE_KT_REAL, OFF(io.buffer_mib), "64", 0.001, 1048576, NULL,
     "size of each output buffer [MiB]"},
    {"io", "on_error", GALE_KT_ENUM, OFF(io.on_error), "abort", 0, 0, "abort|continue",
     "after an output failure: stop the run (keeping the last good checkpoint) or carry on without output"},
    {"io", "xdmf", GALE_KT_BOOL, OFF(io.xdmf), "true", 0, 0, NULL,
     "write an XDMF sidecar next to each output file (ParaView)"},
    {"io", "cb_nodes", GALE_KT_INT, OFF(io.cb_nodes), "0", 0, 1000000, NULL,
     "MPI-IO hint cb_nodes (0: leave unset)"},
    {"io", "cb_buffer_size", GALE_KT_INT, OFF(io.cb_buffer_size), "0", 0, 2147483647, NULL,
     "MPI-IO hint cb_buffer_size in bytes (0: leave unset)"},
    {"io", "romio_cb_write", GALE_KT_ENUM, OFF(io.romio_cb_write), "automatic", 0, 0,
     "automatic|enable|disable", "MPI-IO hint romio_cb_write (automatic: leave unset)"},
    {"io", "striping_factor", GALE_KT_INT, OFF(io.striping_factor), "0", 0, 1000000, NULL,
     "MPI-IO hint striping_factor, Lustre stripe count (0: leave unset)"},
    {"io", "striping_unit", GALE_KT_INT, OFF(io.striping_unit), "0", 0, 2147483647, NULL,
     "MPI-IO hint striping_unit in bytes (0: leave unset)"},
    {"io", "alignment", GALE_KT_INT, OFF(io.alignment), "0", 0, 2147483647, NULL,
     "HDF5 H5Pset_alignment in bytes for objects of at least that size (0: HDF5 default)"},
    {"io", "chunk_columns", GALE_KT_INT, OFF(io.chunk_columns), "0", 0, 2147483647, NULL,
     "HDF5 chunking of output variables in columns (0: contiguous)"},
    {"io", "servers", GALE_KT_INT, OFF(io.servers), "0", 0, 1000000, NULL,
     "ranks of the job that are I/O servers, out of the model's partition, writing its shared "
     "files as XIOS's servers do (0: every rank writes through its own writer thread)"},
    {"io", "server_placement", GALE_KT_ENUM, OFF(io.server_placement), "spread", 0, 0,
     "spread|last", "I/O servers: the last rank of each of [io] servers equal blocks of the job's "
     "ranks (one per node under block placement), or the job's last ranks"},
    {"io", "pools", GALE_KT_INT, OFF(io.pools), "1", 1, 64, NULL,
     "I/O servers: pools they form (XIOS's pools); output times go to the pools in turn, each "
     "pool writing whole files"},
    {"io", "buffer_size", GALE_KT_INT, OFF(io.buffer_size), "0", 0, 2147483647, NULL,
     "I/O servers: each client's buffer in bytes, in [io] buffers pieces (0: buffers x "
     "buffer_mib); the servers' writers keep buffers x buffer_mib"},

    {"diagnostics", "fields", GALE_KT_STRING, OFF(diagnostics.fields), "", 0, 0, NULL,
     "comma-separated output fields NAME[@PERIOD], PERIOD in steps or with s/min/h for model time "
     "(docs/output.md lists the names); empty: no output"},
    {"diagnostics", "period", GALE_KT_INT, OFF(diagnostics.period), "1", 1, 100000000, NULL,
     "default output period in steps for fields without @PERIOD"},

    {"checkpoint", "period", GALE_KT_INT, OFF(checkpoint.period), "0", 0, 100000000, NULL,
     "write a checkpoint every this many steps (0: off)"},
    {"checkpoint", "dir", GALE_KT_STRING, OFF(checkpoint.dir), "checkpoint", 0, 0, NULL,
     "directory for checkpoint files"},

    {"run", "allow_overcommit", GALE_KT_BOOL, OFF(run.allow_overcommit), "false", 0, 0, NULL,
     "run even when the memory estimate per rank exceeds the node's available memory over its "
     "ranks (docs/memory.md)"},

    {"logging", "level", GALE_KT_ENUM, OFF(logging.level), "info", 0, 0, "error|warn|info|debug",
     "log level"},
    {"logging", "progress_every", GALE_KT_INT, OFF(logging.progress_every), "1", 0, 100000000,
     NULL, "print a progress line every this many steps (0: never)"},

    {"emulate", "machine", GALE_KT_STRING, OFF(emulate.machine), "none", 0, 0, NULL,
     "complete every global sum and halo exchange no earlier than it would on nodes x "
     "ranks_per_node ranks of this machine: archer2, setonix (built in) or a machine file; "
     "none: off. Every time an emulated run reports is emulated (docs/emulate.md)"},
    {"emulate", "nodes", GALE_KT_INT, OFF(emulate.nodes), "1", 1, 1000000, NULL,
     "nodes of the emulated machine"},
    {"emulate", "ranks_per_node", GALE_KT_INT, OFF(emulate.ranks_per_node), "128", 1, 65536, NULL,
     "MPI ranks per node of the emulated machine (nodes x ranks_per_node: at least the run's "
     "ranks)"},
};

const int gale_nkeys = (int)(sizeof gale_keys / sizeof gale_keys[0]);
_Static_assert(sizeof gale_keys / sizeof gale_keys[0] <= GALE_MAXKEYS,
               "gale_config_t's origin[] holds one entry per key: raise GALE_MAXKEYS");
