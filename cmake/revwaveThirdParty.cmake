# The third-party libraries the library links that ship no usable CMake package file in Debian,
# as imported targets: included by host/CMakeLists.txt (the build) and by the installed
# revwaveConfig.cmake (a downstream project), so both find them the same way.
#   revwave_zfp     zfp (libzfp-dev): its package file asks for OpenMP in C, a language a C++
#                   project need not enable
#   revwave_segyio  segyio (libsegyio-dev): its package file is broken in Debian
#   PkgConfig::FFTW3  FFTW3 (libfftw3-dev): a pkg-config file only
if(NOT TARGET revwave_zfp)
  find_path(ZFP_INCLUDE_DIR zfp.h REQUIRED)
  find_library(ZFP_LIBRARY zfp REQUIRED)
  add_library(revwave_zfp INTERFACE IMPORTED GLOBAL)
  set_target_properties(revwave_zfp PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${ZFP_INCLUDE_DIR}"
                                               INTERFACE_LINK_LIBRARIES "${ZFP_LIBRARY}")
endif()
if(NOT TARGET revwave_segyio)
  find_path(SEGYIO_INCLUDE_DIR segyio/segy.h REQUIRED)
  find_library(SEGYIO_LIBRARY segyio REQUIRED)
  add_library(revwave_segyio INTERFACE IMPORTED GLOBAL)
  set_target_properties(revwave_segyio PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SEGYIO_INCLUDE_DIR}"
                                                  INTERFACE_LINK_LIBRARIES "${SEGYIO_LIBRARY}")
endif()
if(NOT TARGET PkgConfig::FFTW3)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET GLOBAL fftw3)
endif()
