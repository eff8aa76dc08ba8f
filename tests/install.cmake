# `cmake --install` and the modulefile (docs/sites.md): the installed tree,
# the installed gale's checksums against this build's, `module load gale`
# under Lmod, also after the prefix is moved (exit 77 without Lmod).
add_test(NAME install_modulefile
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_install.sh ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install_check)
set_tests_properties(install_modulefile PROPERTIES LABELS unit TIMEOUT 120 SKIP_RETURN_CODE 77)
