# Every external program the build, the tests and bench/ invoke comes from a
# package tools/install-deps installs, or is optional with a stated reason
# (tools/programs, docs/dependencies.md); skipped off Debian (no dpkg).
add_test(NAME deps_programs
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_deps.py ${PROJECT_SOURCE_DIR})
set_tests_properties(deps_programs PROPERTIES LABELS unit TIMEOUT 120 SKIP_RETURN_CODE 77)
