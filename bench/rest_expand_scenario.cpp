// The REST scenario: how long a client takes to learn every connector's status from `status-store
// run`, the way UIs do it since Connect 2.3 (GET /connectors?expand=status, one request) beside the
// way they did before (GET /connectors, then GET /connectors/{name}/status per connector). C
// connectors with T tasks each (every 10th connector with a FAILED task and a 2 KB trace) are written
// through the facade; then the real executable serves them on loopback, and one keep-alive client
// times each request.
#include "bench_support.hpp"

#include "messages/status_updates.hpp"

#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace status_store::bench {

namespace {

/// Requests per second of one keep-alive client: how many were timed over the time they took.
double per_second(const std::vector<double>& seconds) {
  double total = 0;
  for (const double s : seconds) total += s;
  return total > 0 ? static_cast<double>(seconds.size()) / total : -1;
}

double percentile_ms(std::vector<double> seconds, double p) {
  if (seconds.empty()) return -1;
  std::sort(seconds.begin(), seconds.end());
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(seconds.size())));
  return seconds[std::min(seconds.size(), std::max<size_t>(rank, 1)) - 1] * 1000.0;
}

std::string connector_name(uint64_t i) {
  std::string number = std::to_string(i);
  if (number.size() < 4) number.insert(0, 4 - number.size(), '0');
  return "rest-connector-" + number;
}

/// `status-store run` on the topic, stopped by its PID when this goes out of scope.
class service_process {
 public:
  service_process(const std::string& bootstrap, const std::string& topic) {
    log_ = "/tmp/status-store-bench-rest-" + std::to_string(getpid()) + ".log";
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      // STATUS_STORE_BENCH_EXECUTABLE: another build's executable, to compare two listeners in one run.
      const char* other = std::getenv("STATUS_STORE_BENCH_EXECUTABLE");
      const char* executable = other != nullptr && *other != '\0' ? other : STATUS_STORE_EXECUTABLE;
      execl(executable, executable, "run", "--bootstrap-servers", bootstrap.c_str(), "--topic", topic.c_str(),
            "--listen", "127.0.0.1:0", "--log-level", "warn", static_cast<char*>(nullptr));
      _exit(127);
    }
    // stdout's line once the store has started (the log says "listening on" before the replay)
    const std::regex listening{"status-store running: .*HTTP on http://127\\.0\\.0\\.1:([0-9]+)"};
    for (int i = 0; i < 1200; ++i) {
      std::ifstream in{log_};
      std::stringstream text;
      text << in.rdbuf();
      std::smatch m;
      const std::string s = text.str();
      if (std::regex_search(s, m, listening)) {
        port_ = std::stoi(m[1]);
        return;
      }
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) break;
      usleep(50000);
    }
    throw std::runtime_error("status-store run did not start (log: " + log_ + ")");
  }
  ~service_process() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    unlink(log_.c_str());
  }
  int port() const { return port_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string log_;
};

std::string get(httplib::Client& client, const std::string& path) {
  auto result = client.Get(path.c_str());
  if (!result || result->status != 200) throw std::runtime_error("GET " + path + " failed");
  return std::move(result->body);
}

}  // namespace

nlohmann::json rest_expand(const options& o) {
  const std::string topic = "bench-rest";
  {
    const std::string trace(2048, 'x');
    std::vector<status_update> updates;
    for (uint64_t c = 0; c < o.rest_connectors; ++c) {
      const std::string name = connector_name(c);
      updates.push_back(make_update(connector_status{name, {status_state::running, {}, "bench-worker-1:8083", 1}}));
      for (uint64_t t = 0; t < o.rest_tasks; ++t) {
        const bool failed = c % 10 == 0 && t == 3;
        updates.push_back(make_update(
            task_status{name,
                        static_cast<int32_t>(t),
                        {failed ? status_state::failed : status_state::running,
                         failed ? std::optional<std::string>{trace} : std::nullopt, "bench-worker-1:8083", 1}}));
      }
    }
    store s{bench_config(o.bootstrap, topic)};
    s.put_all(std::move(updates));
    if (!s.flush(std::chrono::minutes{2})) throw std::runtime_error("flush timed out");
    s.stop();
  }
  service_process service{o.bootstrap, topic};
  httplib::Client client{"127.0.0.1", service.port()};
  client.set_keep_alive(true);
  client.set_read_timeout(std::chrono::seconds{30});

  // Once: the answer holds every connector with all its tasks (the service replayed the topic).
  const auto all = nlohmann::json::parse(get(client, "/connectors?expand=status"));
  if (all.size() != o.rest_connectors) throw std::runtime_error("expand=status lists " + std::to_string(all.size()));
  for (const auto& [name, entry] : all.items())
    if (entry["status"]["tasks"].size() != o.rest_tasks) throw std::runtime_error(name + " lacks tasks");

  std::vector<double> expand, rounds, per_status;
  size_t expand_bytes = 0, round_bytes = 0;
  for (uint64_t i = 0; i < o.rest_requests + 5; ++i) {  // the first 5 warm up
    const auto start = clock_type::now();
    expand_bytes = get(client, "/connectors?expand=status").size();
    if (i >= 5) expand.push_back(seconds_since(start));
  }
  for (uint64_t r = 0; r < o.rest_rounds + 1; ++r) {  // the first round warms up
    const auto start = clock_type::now();
    const std::string list = get(client, "/connectors");
    size_t bytes = list.size();
    for (const auto& name : nlohmann::json::parse(list)) {
      const auto one = clock_type::now();
      bytes += get(client, "/connectors/" + name.get<std::string>() + "/status").size();
      if (r > 0) per_status.push_back(seconds_since(one));
    }
    if (r > 0) rounds.push_back(seconds_since(start));
    round_bytes = bytes;
  }
  return {{"connectors", o.rest_connectors},
          {"tasks_per_connector", o.rest_tasks},
          {"expand",
           {{"requests", expand.size()},
            {"p50_ms", percentile_ms(expand, 0.5)},
            {"p99_ms", percentile_ms(expand, 0.99)},
            {"requests_per_s", per_second(expand)},
            {"bytes", expand_bytes}}},
          {"per_connector",
           {{"rounds", rounds.size()},
            {"requests_per_round", o.rest_connectors + 1},
            {"round_p50_ms", percentile_ms(rounds, 0.5)},
            {"round_p99_ms", percentile_ms(rounds, 0.99)},
            {"request_p50_ms", percentile_ms(per_status, 0.5)},
            {"request_p99_ms", percentile_ms(per_status, 0.99)},
            {"requests_per_s", per_second(per_status)},
            {"bytes_per_round", round_bytes}}}};
}

}  // namespace status_store::bench
