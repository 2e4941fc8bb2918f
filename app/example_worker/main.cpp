// A minimal Connect-style worker that embeds status-store in its *own* actor system: the store's
// actors run next to the worker's, and the worker's actor talks to the store through the typed
// coalescer interface while plain code uses the facade. The worker's metrics registry takes the
// store's metrics through a reporter (the KIP's setMetrics). Runs on the embedded mock cluster.
#include <status_store/messages/status_record_codec.hpp>
#include <status_store/store.hpp>

#include <caf/all.hpp>

#include <condition_variable>
#include <iostream>
#include <mutex>
#include <optional>

using namespace status_store;

namespace {

/// Stands in for the worker's own metrics registry: keeps what the store reports.
struct received_reports {
  std::mutex mutex;
  std::condition_variable arrived;
  int periodic = 0;
  std::optional<metrics_report> final_report;
  // The report's name views point into the store's static tables; copy what outlives the call.
  std::vector<std::pair<std::string, double>> final_values;
  std::string group;
};

/// The worker's own actor: reports its tasks RUNNING by sending typed messages to the coalescer,
/// then flushes. Messages from one sender arrive in order, so the flush covers these puts.
caf::behavior task_runner(caf::event_based_actor* self, status_store_actor store_actor, int tasks) {
  for (int t = 0; t < tasks; ++t) {
    auto record = encode_task_record(
        task_status{"example-source", t, status_value{status_state::running, {}, "worker-a:8083", 1}});
    self->send(store_actor, put_atom::value,
               status_update{record.key, false, *record.value, false, "worker-a:8083", 1});
  }
  self->request(store_actor, std::chrono::seconds{30}, flush_atom::value)
      .then([=](ok_atom) { self->quit(); }, [=](caf::error& err) { self->quit(err); });
  return {[](int) {}};
}

}  // namespace

int main() {
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  worker_config config = parse_worker_config({{"bootstrap.servers", "mock"},
                                              {"group.id", "example"},
                                              {"status.storage.topic", "example-status"},
                                              {"status.storage.replication.factor", "1"}});
  {
    store statuses{system, config};
    received_reports received;
    statuses.set_metrics_reporter(
        [&received](const metrics_report& report) {
          std::lock_guard lock{received.mutex};
          if (!report.final) {
            ++received.periodic;
          } else {
            received.final_report = metrics_report{report.group, report.tags, {}, true};
            for (const auto& m : report.metrics) received.final_values.emplace_back(m.name, m.value);
          }
          received.group = std::string{report.group};
          received.arrived.notify_all();
        },
        std::chrono::milliseconds{100});
    statuses.put(connector_status{"example-source", status_value{status_state::running, {}, "worker-a:8083", 1}});
    {
      caf::scoped_actor self{system};
      self->spawn<caf::monitored>(task_runner, statuses.actor(), 3);
      self->receive([](caf::down_msg&) {});
    }
    const bool flushed = statuses.flush(std::chrono::seconds{30});
    const auto m = statuses.metrics();
    {  // at least one report at the interval before stopping, so both kinds are shown
      std::unique_lock lock{received.mutex};
      received.arrived.wait_for(lock, std::chrono::seconds{5}, [&] { return received.periodic > 0; });
    }
    statuses.stop();  // reports once more, with the values after the drain
    std::cout << "flushed=" << flushed << " accepted=" << m.counters.accepted << " success=" << m.counters.success
              << " failure=" << m.counters.failure << "\n";
    if (!flushed || m.counters.success != 4 || m.counters.failure != 0) return 1;

    std::lock_guard lock{received.mutex};
    if (!received.final_report || received.periodic == 0) {
      std::cout << "metrics reporter: " << received.periodic << " periodic report(s), "
                << (received.final_report ? "a" : "no") << " final report\n";
      return 1;
    }
    std::cout << "metrics reporter: " << received.periodic
              << " periodic report(s) every 100 ms, then the final one: group " << received.group << ", tags";
    for (const auto& [tag, value] : received.final_report->tags) std::cout << " " << tag << "=" << value;
    std::cout << ", " << received.final_values.size() << " metrics\n";
    double final_success = -1;
    for (const auto& [name, value] : received.final_values) {
      std::cout << "  " << name << " " << value << "\n";
      if (name == "status-update-success-total") final_success = value;
    }
    if (final_success != 4) return 1;
  }
  std::cout << "example worker: 4 statuses acknowledged through its own actor system\n";
  return 0;
}
