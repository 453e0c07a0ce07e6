# The installed C++ package: headers under include/, the static libraries, the revwave command,
# and lib/cmake/revwave/{revwaveConfig,revwaveConfigVersion,revwaveTargets}.cmake exporting
# revwave::revwave. Included by the top-level CMakeLists.txt once every library target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The umbrella a downstream project links (EXPORT_NAME: the executable is already called revwave).
add_library(revwave_package INTERFACE)
set_target_properties(revwave_package PROPERTIES EXPORT_NAME revwave)
target_link_libraries(revwave_package INTERFACE revwave_host ${REVWAVE_BACKENDS})
add_library(revwave::revwave ALIAS revwave_package)

set(_revwave_exported revwave_package revwave_host revwave_core revwave_schedule revwave_store revwave_numerics
    revwave_misfit revwave_io revwave_optim revwave_driver revwave_survey revwave_setup revwave_inversion revwave_mpi)
if(REVWAVE_CUDA)
  list(APPEND _revwave_exported revwave_cuda revwave_cuda_runtime revwave_cuda_kernels revwave_cuda_store revwave_cuda_backend)
else()
  list(APPEND _revwave_exported revwave_cuda_stub)
endif()
# The parts' include paths are their source folders in the build (BUILD_INTERFACE); INCLUDES
# DESTINATION gives the exported targets the installed include/ instead.
install(TARGETS ${_revwave_exported} EXPORT revwaveTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS revwave RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Public headers: every part's include/ tree (revwave/<part>/..., revwave/revwave.hpp).
foreach(part core schedule store numerics misfit io optim driver survey setup inversion mpi)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/host/${part}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
if(REVWAVE_CUDA)
  foreach(part runtime kernels store backend)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/cuda/${part}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endforeach()
endif()

set(_revwave_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/revwave)
install(EXPORT revwaveTargets NAMESPACE revwave:: DESTINATION ${_revwave_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/revwaveConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/revwaveConfig.cmake INSTALL_DESTINATION ${_revwave_cmake_dir})
# The project's one version number; 0.x: a minor release may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/revwaveConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/revwaveConfig.cmake ${PROJECT_BINARY_DIR}/revwaveConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/revwaveThirdParty.cmake
        DESTINATION ${_revwave_cmake_dir})
