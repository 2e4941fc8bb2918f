# Finds Debian's CAF 0.17 (libcaf-dev), which ships neither a CMake config nor a .pc file.
# Defines the imported target CAF::core. Refuses CAF >= 0.18: its API (typed interfaces, atoms,
# inspectors, the test framework) is incompatible with the code here.
find_path(CAF_INCLUDE_DIR caf/all.hpp)
find_library(CAF_CORE_LIBRARY NAMES caf_core)
if(NOT CAF_INCLUDE_DIR OR NOT CAF_CORE_LIBRARY)
  message(FATAL_ERROR "CAF not found. Install it with: apt-get install libcaf-dev (or run scripts/install-deps.sh)")
endif()
file(STRINGS "${CAF_INCLUDE_DIR}/caf/config.hpp" _caf_version_line REGEX "^#define CAF_VERSION [0-9]+")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" CAF_VERSION_NUM "${_caf_version_line}")
if(NOT CAF_VERSION_NUM)
  message(FATAL_ERROR "Cannot read CAF_VERSION from ${CAF_INCLUDE_DIR}/caf/config.hpp")
endif()
if(CAF_VERSION_NUM LESS 1700 OR CAF_VERSION_NUM GREATER_EQUAL 1800)
  message(FATAL_ERROR "status-store needs CAF 0.17.x (found CAF_VERSION ${CAF_VERSION_NUM} in ${CAF_INCLUDE_DIR}). "
                      "CAF 0.18 and later changed typed actors, atoms and the test DSL.")
endif()
message(STATUS "Found CAF ${CAF_VERSION_NUM}: ${CAF_CORE_LIBRARY}")
find_package(Threads REQUIRED)
if(NOT TARGET CAF::core)
  add_library(CAF::core INTERFACE IMPORTED GLOBAL)
  set_target_properties(CAF::core PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${CAF_CORE_LIBRARY};Threads::Threads")
endif()
