#pragma once
// The benchmark's command line, and one measurement run in a child process of its own (the same
// binary with --child MODE), so memory figures and allocator state never mix.
#include "bench_support.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace status_store::bench {

/// The options of a run; `child_mode` and `only` get --child's and --only's values.
options parse_options(int argc, char** argv, std::string& child_mode, std::string& only);

/// Runs `self --child mode` with `o`'s sizes and rates; returns the JSON line it printed last.
nlohmann::json run_child(const std::string& self, const std::string& mode, const options& o);

}  // namespace status_store::bench
