# Which librdkafka status-store builds against: PkgConfig::RDKAFKA, RDKAFKA_VERSION.
#
#   -DSTATUS_STORE_LIBRDKAFKA_PREFIX=<dir>     the librdkafka installed in <dir> (its lib/pkgconfig/rdkafka.pc).
#                                              Default: scripts/build-librdkafka.sh's cache (scripts/install-deps.sh
#                                              builds it), which logs in with SCRAM to current Kafka.
#   -DSTATUS_STORE_LIBRDKAFKA_PREFIX=system    the system's rdkafka.pc (Debian 12: 2.0.2, the oldest supported).
#
# Executables get the library's directory as their RPATH (build and install), so they load the librdkafka
# they were built against and not another one on the loader's path.
execute_process(COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/scripts/build-librdkafka.sh prefix
                OUTPUT_VARIABLE _status_store_default_rdkafka OUTPUT_STRIP_TRAILING_WHITESPACE)
set(STATUS_STORE_LIBRDKAFKA_PREFIX "${_status_store_default_rdkafka}" CACHE STRING
    "librdkafka install prefix to build against, or 'system' (default: scripts/build-librdkafka.sh's cache)")

# A changed choice in an existing build directory (or one configured before this option existed):
# forget the previous pkg-config result.
if(NOT "${_STATUS_STORE_RDKAFKA_CHOSEN}" STREQUAL "${STATUS_STORE_LIBRDKAFKA_PREFIX}")
  unset(__pkg_config_checked_RDKAFKA CACHE)
  unset(pkgcfg_lib_RDKAFKA_rdkafka CACHE)
endif()
set(_STATUS_STORE_RDKAFKA_CHOSEN "${STATUS_STORE_LIBRDKAFKA_PREFIX}" CACHE INTERNAL "")

if(STATUS_STORE_LIBRDKAFKA_PREFIX STREQUAL "system")
  pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET GLOBAL rdkafka)
else()
  set(_rdkafka_pc_dir "${STATUS_STORE_LIBRDKAFKA_PREFIX}/lib/pkgconfig")
  if(NOT EXISTS "${_rdkafka_pc_dir}/rdkafka.pc")
    message(FATAL_ERROR
      "No librdkafka in ${STATUS_STORE_LIBRDKAFKA_PREFIX}.\n"
      "Build the default one with scripts/build-librdkafka.sh (scripts/install-deps.sh does), or pass "
      "-DSTATUS_STORE_LIBRDKAFKA_PREFIX=<prefix of another librdkafka install>, or "
      "-DSTATUS_STORE_LIBRDKAFKA_PREFIX=system for the system's package.")
  endif()
  # Searched before the system's pkg-config directories; the check below makes sure it was this one.
  set(_saved_pkg_config_path "$ENV{PKG_CONFIG_PATH}")
  set(ENV{PKG_CONFIG_PATH} "${_rdkafka_pc_dir}:$ENV{PKG_CONFIG_PATH}")
  pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET GLOBAL rdkafka)
  set(ENV{PKG_CONFIG_PATH} "${_saved_pkg_config_path}")
  get_filename_component(_want "${STATUS_STORE_LIBRDKAFKA_PREFIX}" REALPATH)
  get_filename_component(_got "${RDKAFKA_PREFIX}" REALPATH)
  if(NOT _want STREQUAL _got)
    message(FATAL_ERROR "pkg-config found the rdkafka of ${RDKAFKA_PREFIX}, not of ${STATUS_STORE_LIBRDKAFKA_PREFIX}")
  endif()
  # Installed executables keep loading this librdkafka, not the loader's default one.
  list(APPEND CMAKE_INSTALL_RPATH "${RDKAFKA_LIBDIR}")
endif()

message(STATUS "librdkafka ${RDKAFKA_VERSION} (${STATUS_STORE_LIBRDKAFKA_PREFIX}: ${RDKAFKA_LINK_LIBRARIES})")
if(RDKAFKA_VERSION VERSION_LESS 2.6.1)
  message(WARNING
    "librdkafka ${RDKAFKA_VERSION} predates 2.6.1: its SCRAM-SHA-256/512 login repeats the client nonce "
    "(librdkafka PR #4895), which Kafka 3.7.2, 3.8.1, 3.9.x and 4.x refuse (CVE-2024-56128 fix), so a "
    "worker on such a cluster with SCRAM cannot use this build. Everything else works. The default "
    "build (scripts/build-librdkafka.sh) has the fix.")
endif()

# librdkafka's licences go with what is installed alongside it (the cache keeps them in share/doc).
set(STATUS_STORE_LIBRDKAFKA_LICENSES "")
foreach(_dir share/doc/librdkafka share/licenses/librdkafka)
  if(NOT STATUS_STORE_LIBRDKAFKA_PREFIX STREQUAL "system"
     AND EXISTS "${STATUS_STORE_LIBRDKAFKA_PREFIX}/${_dir}/LICENSES.txt" AND NOT STATUS_STORE_LIBRDKAFKA_LICENSES)
    set(STATUS_STORE_LIBRDKAFKA_LICENSES "${STATUS_STORE_LIBRDKAFKA_PREFIX}/${_dir}/LICENSES.txt")
  endif()
endforeach()
