// The browser test's workload (docs/testing.md#the-status-page-in-a-real-browser): exactly CONNECTORS
// connectors with exactly TASKS task statuses each, every key written once, the same mix every run —
// unlike `status-store demo`, whose random steps also delete connectors. One process and one store,
// because `status-store put` starts a store per status (seconds each on the mock cluster).
// The mix, by connector index i: every 40th (i % 40 == 13) FAILED; every 25th (i % 25 == 7) PAUSED with
// its tasks; every 125th (i % 125 == 99) RESTARTING; every 10th (i % 10 == 3) has task i % 8 FAILED (so
// RUNNING ones are degraded); every 50th (i % 50 == 21) has tasks 4.. UNASSIGNED; every 60th
// (i % 60 == 33) has task (i + 1) % 8 RESTARTING; the rest RUNNING. Connector 0 is RUNNING throughout.
// Prints what it wrote by state, and exits 0 once every status is acknowledged.
// Usage: fleet_writer BOOTSTRAP_SERVERS TOPIC CONNECTORS TASKS
#include "app/store/store.hpp"
#include "config/worker_config.hpp"
#include "messages/status.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>

using namespace status_store;

namespace {

status_state connector_state(int i) {
  if (i % 40 == 13) return status_state::failed;
  if (i % 25 == 7) return status_state::paused;
  if (i % 125 == 99) return status_state::restarting;
  return status_state::running;
}

status_state task_state(int i, int t) {
  if (connector_state(i) == status_state::paused) return status_state::paused;
  if (i % 10 == 3 && t == i % 8) return status_state::failed;
  if (i % 50 == 21 && t >= 4) return status_state::unassigned;
  if (i % 60 == 33 && t == (i + 1) % 8) return status_state::restarting;
  return status_state::running;
}

status_value value_of(status_state state, int i) {
  std::optional<std::string> trace;
  if (state == status_state::failed)
    trace = "org.apache.kafka.connect.errors.ConnectException: fleet failure #" + std::to_string(i) +
            "\n\tat fleet.Task.poll(Task.java:42)";
  return {state, trace, "fleet-worker-" + std::to_string(i % 4) + ":8083", 1};
}

std::string name_of(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "fleet-%04d", i);
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: fleet_writer BOOTSTRAP_SERVERS TOPIC CONNECTORS TASKS\n";
    return 2;
  }
  const int connectors = std::stoi(argv[3]), tasks = std::stoi(argv[4]);
  store s{parse_worker_config({{"bootstrap.servers", argv[1]}, {"status.storage.topic", argv[2]}})};
  std::map<std::string, int> by_state;  // "connector RUNNING", "task FAILED", ...
  int with_failed = 0;                  // connectors ?state=FAILED lists: their own or a task's
  for (int i = 0; i < connectors; ++i) {
    const status_state own = connector_state(i);
    s.put(connector_status{name_of(i), value_of(own, i)});
    ++by_state["connector " + std::string{to_string(own)}];
    bool failed = own == status_state::failed;
    for (int t = 0; t < tasks; ++t) {
      const status_state state = task_state(i, t);
      s.put(task_status{name_of(i), t, value_of(state, i)});
      ++by_state["task " + std::string{to_string(state)}];
      failed = failed || state == status_state::failed;
    }
    with_failed += failed ? 1 : 0;
  }
  const bool flushed = s.flush(std::chrono::seconds{120});
  const auto m = s.metrics();
  s.stop();
  std::cout << "fleet: " << connectors << " connectors x " << tasks << " tasks written;";
  for (const auto& [what, count] : by_state) std::cout << " " << what << " " << count << ";";
  std::cout << " with a FAILED status " << with_failed << "\n";
  const bool all = flushed && m.counters.failure == 0 && m.counters.success == m.counters.accepted &&
                   m.counters.accepted == static_cast<uint64_t>(connectors) * (tasks + 1);
  std::cout << "acknowledged " << m.counters.success << " of " << m.counters.accepted << " accepted; "
            << (all ? "every status written" : "FAILED: not every status was written") << "\n";
  return all ? 0 : 1;
}
