# Offload tests (label offload; docs/offload.md). From a CPU build, which is
# what `make test` and CI run, they build the offload-host preset themselves
# (once, a fixture, into this build's offload-host/) and compare its results
# with this build's bit for bit; in
# an offload build they test that build against its own kernels run on the
# host (OMP_TARGET_OFFLOAD=DISABLED). Every offload run is under
# OMP_TARGET_OFFLOAD=MANDATORY and must log an offload device (not the host
# fallback). All runs: the default case (configs/default.ini), output off.
set(_odir ${CMAKE_CURRENT_BINARY_DIR}/offload)
file(MAKE_DIRECTORY ${_odir})
set(_orun ${CMAKE_CURRENT_SOURCE_DIR}/offload_run.cmake)
set(_obuild ${CMAKE_CURRENT_SOURCE_DIR}/offload_build.sh)
if(GALE_OFFLOAD STREQUAL "none")
  set(_oexe ${PROJECT_BINARY_DIR}/offload-host/gale)
  set(_oref_policy "")
  add_test(NAME offload_host_build
           COMMAND sh ${_obuild} offload-host ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/offload-host)
  set_tests_properties(offload_host_build PROPERTIES FIXTURES_SETUP offload_host LABELS offload
                       TIMEOUT 900 PROCESSORS 2)
  # CI's check that offload code builds for NVIDIA GPUs (skipped without ptxas)
  add_test(NAME offload_nvptx_build
           COMMAND sh ${_obuild} offload-nvptx ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/offload-nvptx)
  set_tests_properties(offload_nvptx_build PROPERTIES LABELS offload TIMEOUT 900 PROCESSORS 2
                       SKIP_RETURN_CODE 77 ENVIRONMENT REF_EXE=${GALE_EXE})
  # and for AMD GPUs (gfx90a, gfx942 from Debian's ROCm 5.2), with the HIP
  # device query on (docs/offload.md)
  add_test(NAME offload_amdgcn_build
           COMMAND sh ${_obuild} offload-amdgcn ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/offload-amdgcn
                   -DGALE_HIP=ON)
  set_tests_properties(offload_amdgcn_build PROPERTIES LABELS offload TIMEOUT 900 PROCESSORS 2
                       ENVIRONMENT REF_EXE=${GALE_EXE})
  set(_ofix offload_host)
else()
  set(_oexe ${GALE_EXE})
  set(_oref_policy DISABLED)
  set(_ofix "")
endif()

# reference reports: this build (CPU), or the offload build's host fallback;
# the default case on 1 and 2 ranks, and its first 12 steps on 2 ranks
foreach(ref "np1;1;36" "np2;2;36" "np2_s12;2;12")
  list(GET ref 0 name)
  list(GET ref 1 np)
  list(GET ref 2 steps)
  add_test(NAME offload_ref_${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=${GALE_EXE} -DNP=${np} -DMPIEXEC=${GALE_MPIEXEC}
                   -DCONFIG=${PROJECT_SOURCE_DIR}/configs/default.ini -DPOLICY=${_oref_policy}
                   -DARGS=--timestepping.steps=${steps} -DOUT=${_odir}/ref_${name}.json -P ${_orun})
  set_tests_properties(offload_ref_${name} PROPERTIES FIXTURES_SETUP offload_ref LABELS offload
                       TIMEOUT 300 PROCESSORS ${np})
endforeach()

# gale_offload_test(NAME NP [POLICY p] [REF ref|RUN_REF] [ZERO kinds] [NONZERO kinds]
#                   [LOG regex] [ARGS overrides...])
function(gale_offload_test name np)
  cmake_parse_arguments(T "RUN_REF" "POLICY;REF;LOG;CONFIG" "ZERO;NONZERO;ARGS" ${ARGN})
  if(NOT T_CONFIG)
    set(T_CONFIG default.ini)
  endif()
  if(NOT T_POLICY)
    set(T_POLICY MANDATORY)
  endif()
  if(NOT T_LOG)
    set(T_LOG "offload: +device [0-9]+ of [0-9]+: (x86_64 host-offload|NVIDIA|AMD)")
  endif()
  set(ref "")
  if(T_RUN_REF)
    set(ref -DREF_EXE=${GALE_EXE} -DREF_POLICY=${_oref_policy})
  elseif(T_REF)
    set(ref -DREF=${_odir}/${T_REF}.json)
  endif()
  string(REPLACE ";" "\\;" args "${T_ARGS}")
  string(REPLACE ";" "\\;" zero "${T_ZERO}")
  string(REPLACE ";" "\\;" nonzero "${T_NONZERO}")
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=${_oexe} -DNP=${np} -DMPIEXEC=${GALE_MPIEXEC}
                   -DCONFIG=${PROJECT_SOURCE_DIR}/configs/${T_CONFIG} -DPOLICY=${T_POLICY}
                   -DOUT=${_odir}/${name}.json ${ref} -DARGS=${args} -DZERO=${zero}
                   -DNONZERO=${nonzero} -DLOG=${T_LOG} -P ${_orun})
  set(labels offload)
  if(np GREATER 1)
    list(APPEND labels mpi)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT 300 PROCESSORS ${np}
                       FIXTURES_REQUIRED "${_ofix};offload_ref")
endfunction()

# the default case, bit for bit, with no field moving between host and
# device after set-up; the default halo path packs on the device and stages
# the messages through the host
gale_offload_test(offload_default_np1 1 REF ref_np1 ZERO field)
gale_offload_test(offload_default_np2 2 REF ref_np2 ZERO field NONZERO halo reduction)
# both halo paths x both memory modes (12 steps: the paths are the same in
# every step)
gale_offload_test(offload_gpu_aware_np2 2 REF ref_np2_s12 ZERO field halo
                  LOG "halo device buffers to MPI"
                  ARGS --timestepping.steps=12 --halo.gpu_aware=true)
gale_offload_test(offload_unified_np2 2 REF ref_np2_s12 ZERO field halo
                  LOG "memory unified" ARGS --timestepping.steps=12 --offload.memory=unified)
gale_offload_test(offload_unified_gpu_aware_np2 2 REF ref_np2_s12 ZERO field halo
                  LOG "memory unified"
                  ARGS --timestepping.steps=12 --offload.memory=unified --halo.gpu_aware=true)
# the single-precision kernels, float halos and redundant computation into a
# depth-2 halo; pipelined cg (its split reduction) over device buffers
gale_offload_test(offload_single_redundant_np2 2 RUN_REF ZERO field
                  ARGS --timestepping.steps=12 --solver.precision=single --solver.tolerance=1e-5
                       --halo.depth=2 --halo.redundant_computation=true)
gale_offload_test(offload_pipecg_gpu_aware_np2 2 RUN_REF ZERO field halo
                  ARGS --timestepping.steps=12 --solver.method=pipelined_cg --halo.gpu_aware=true
                       --halo.overlap=false)
if(GALE_OFFLOAD STREQUAL "none")
  # no device at all: the kernels run on the host, said so, same answer
  gale_offload_test(offload_disabled_np1 1 POLICY DISABLED REF ref_np1
                    LOG "no offload device: the kernels run on the host")
endif()

# multigrid: every level's kernels, halos and child maps on the device, bit
# for bit against the CPU build; single precision with device halo buffers
# the lumped operator's exact elimination (the default is the consistent one)
gale_offload_test(offload_lumped_np2 2 RUN_REF ZERO field
                  ARGS --timestepping.steps=12 --dynamics.mass_matrix=lumped)
gale_offload_test(offload_multigrid_np2 2 RUN_REF ZERO field
                  ARGS --timestepping.steps=12 --solver.preconditioner=multigrid)
gale_offload_test(offload_multigrid_single_gpu_aware_np2 2 RUN_REF ZERO field halo
                  ARGS --timestepping.steps=6 --solver.preconditioner=multigrid --solver.method=bicgstab
                       --solver.precision=single --solver.tolerance=1e-5 --halo.gpu_aware=true)

# the nonlinear core (docs/nonlinear.md): dcmip31 and the baroclinic wave bit
# for bit against the CPU build, no field transfers
gale_offload_test(offload_nonlinear_np2 2 RUN_REF ZERO field CONFIG dcmip31.ini
  ARGS --mesh.name=C8 --extrusion.levels=6 --timestepping.steps=3 --multigrid.levels=3
       --solver.method=prec_only --logging.progress_every=0)
gale_offload_test(offload_baroclinic_np2 2 RUN_REF ZERO field CONFIG baroclinic_wave.ini
  ARGS --mesh.name=C6 --extrusion.levels=8 --timestepping.steps=2 --multigrid.levels=2
       --solver.method=prec_only --logging.progress_every=0)
# the deep atmosphere (its transport path, nl_dcor, nl_dvf) and substeps
gale_offload_test(offload_baroclinic_deep_np2 2 RUN_REF ZERO field CONFIG baroclinic_wave.ini
  ARGS --mesh.name=C6 --extrusion.levels=8 --timestepping.steps=2 --multigrid.levels=2
       --solver.method=prec_only --logging.progress_every=0 --dynamics.shallow=false
       --dynamics.transport_courant=0.02)

# the linear core's deep atmosphere (docs/numerics.md): the shells' factors
# in every kernel of the mixed solve and on every multigrid level, and in the
# lumped operator's single-precision solve
gale_offload_test(offload_deep_np2 2 RUN_REF ZERO field
  ARGS --timestepping.steps=6 --dynamics.shallow=false)
gale_offload_test(offload_deep_lumped_single_np2 2 RUN_REF ZERO field
  ARGS --timestepping.steps=6 --dynamics.shallow=false --dynamics.mass_matrix=lumped
       --solver.precision=single --solver.tolerance=1e-5)

# the transport kernels: advection cases bit for bit against the CPU build
gale_offload_test(offload_cosine_bell_np2 2 RUN_REF ZERO field
  ARGS --initial.case=cosine_bell --planet.scaling=1 --extrusion.levels=1 --mesh.name=C12 --transport.days=2)
gale_offload_test(offload_deformational_np2 2 RUN_REF
  ARGS --initial.case=deformational --planet.scaling=1 --extrusion.top=12000 --extrusion.levels=8 --mesh.name=C8 --transport.days=1)
gale_offload_test(offload_gravity_wave_advected_np2 2 RUN_REF ZERO field
  ARGS --initial.case=gravity_wave_advected --timestepping.steps=8)
