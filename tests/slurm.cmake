# Slurm (issue 27, docs/slurm.md): each test starts its own private one-node
# Slurm (tests/slurm_local.py: munged, slurmctld, slurmd on free ports under a
# temporary folder, all stopped at the end, also on failure or timeout), so
# the Slurm tests cannot collide with each other or with a system Slurm.
# Exit 77 (SKIPPED, with the reason) where no local Slurm can run: not root,
# or the slurmctld/slurmd/slurm-client/munge packages missing.
set(GALE_SLURM_WORK ${CMAKE_CURRENT_BINARY_DIR}/slurm)

# gale by srun --mpi=pmi2 -n 2 (one 2-rank job) and by Hydra's mpiexec in an
# sbatch allocation: the checksums of gale-mpiexec's run, bit for bit
add_test(NAME slurm_srun
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_slurm.py launch
                 --gale ${GALE_EXE} --gale-mpiexec ${GALE_MPIEXEC} --mpiexec ${MPIEXEC_EXECUTABLE}
                 --source ${PROJECT_SOURCE_DIR} --work ${GALE_SLURM_WORK} --deadline 100)
set_tests_properties(slurm_srun PROPERTIES LABELS "slurm;mpi" TIMEOUT 120 PROCESSORS 2
                     SKIP_RETURN_CODE 77)

# MPI CTest tests under srun: a second tree of this source configured with
# -DMPIEXEC_EXECUTABLE=srun -DMPIEXEC_PREFLAGS=--mpi=pmi2 (kept between runs:
# the first run builds gale there), its ctest -L mpi -R ... inside salloc
add_test(NAME slurm_ctest
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_slurm.py ctest
                 --source ${PROJECT_SOURCE_DIR} --build ${CMAKE_BINARY_DIR}
                 --work ${GALE_SLURM_WORK} --deadline 150)
set_tests_properties(slurm_ctest PROPERTIES LABELS "slurm;mpi" TIMEOUT 600 PROCESSORS 2
                     SKIP_RETURN_CODE 77)
