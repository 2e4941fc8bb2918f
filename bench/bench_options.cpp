#include "bench_options.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace status_store::bench {

namespace {

/// The sizes and rates a child needs, by flag: parse_options() reads them, run_child() passes them on, so a
/// new option is named once.
struct numeric_option {
  const char* flag;
  uint64_t options::*count = nullptr;
  double options::*real = nullptr;
};
constexpr numeric_option numeric_options[] = {
    {"--updates", &options::updates},
    {"--keys", &options::keys},
    {"--replay-records", &options::replay_records},
    {"--memory-keys", &options::memory_keys},
    {"--latency-rate", nullptr, &options::latency_rate},
    {"--latency-seconds", nullptr, &options::latency_seconds},
    {"--latency-warmup-seconds", nullptr, &options::latency_warmup_seconds},
    {"--latency-point", &options::latency_point},
    {"--outage-seconds", nullptr, &options::outage_seconds},
    {"--outage-updates", &options::outage_updates},
    {"--outage-keys", &options::outage_keys},
    {"--storm-updates", &options::storm_updates},
    {"--storm-keys", &options::storm_keys},
    {"--rebalance-connectors", &options::rebalance_connectors},
    {"--rest-connectors", &options::rest_connectors},
    {"--rest-tasks", &options::rest_tasks},
    {"--rest-requests", &options::rest_requests},
    {"--rest-rounds", &options::rest_rounds},
    {"--history-keys", &options::history_keys},
};

}  // namespace

nlohmann::json run_child(const std::string& self, const std::string& mode, const options& o) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    std::vector<std::string> args{self, "--child", mode, "--bootstrap-servers", o.bootstrap};
    for (const auto& n : numeric_options) {
      args.emplace_back(n.flag);
      args.push_back(n.count ? std::to_string(o.*n.count) : std::to_string(o.*n.real));
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(self.c_str(), argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(mode + " failed: " + out);
  // The figures are the child's last line (librdkafka or CAF may have printed before it).
  return last_json_line(out);
}

options parse_options(int argc, char** argv, std::string& child_mode, std::string& only) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--child")
      child_mode = next();
    else if (a == "--bootstrap-servers")
      o.bootstrap = next();
    else if (a == "--java-driver")
      o.java_driver = next();
    else if (a == "--json")
      o.json_path = next();
    else if (a == "--only")
      only = next();
    else if (const auto* n = std::find_if(std::begin(numeric_options), std::end(numeric_options),
                                          [&](const numeric_option& x) { return a == x.flag; });
             n != std::end(numeric_options)) {
      if (n->count)
        o.*n->count = std::stoull(next());
      else
        o.*n->real = std::stod(next());
    } else
      throw std::runtime_error("unknown option " + a + " (see the comment at the top of bench/status_store_bench.cpp)");
  }
  return o;
}

}  // namespace status_store::bench
