# Install rules: libraries, public headers and an exported CMake package so a worker can
#   find_package(status_store REQUIRED)  and  target_link_libraries(w PRIVATE status_store::status_store)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# What an embedder links: the facade, the actors beneath it and the pure core; the app's libraries
# (REST listener, routing, formats) stay in the build tree.
install(TARGETS status_store status_store_actors status_store_core EXPORT status_store_targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS status-store RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The public headers only: <status_store/store.hpp> and what it includes (the protocol in messages/,
# the worker configuration). Nothing from actors/ and no librdkafka header; tests/app/example_worker_test.sh
# compiles each installed header alone to keep it so.
set(STATUS_STORE_PUBLIC_CONFIG_HEADERS config/worker_config.hpp config/retry_settings.hpp config/alert_settings.hpp
    config/defaults.hpp
    config/properties.hpp config/config_error.hpp config/logging.hpp)
install(FILES app/store/store.hpp app/store/store_error.hpp app/store/metric_names.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/status_store)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/messages/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/status_store/messages
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${STATUS_STORE_PUBLIC_CONFIG_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/status_store/config)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/cmake/FindCAF017.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/status_store)
# librdkafka's licences (BSD-2-Clause and its bundled parts) with the executable that loads it.
if(STATUS_STORE_LIBRDKAFKA_LICENSES)
  install(FILES ${STATUS_STORE_LIBRDKAFKA_LICENSES} DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME librdkafka-LICENSES.txt)
endif()
install(EXPORT status_store_targets NAMESPACE status_store::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/status_store)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/status_storeConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/status_storeConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/status_store)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/status_storeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/status_storeConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/status_storeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/status_store)
