// A minimal Connect-style worker that embeds status-store in its *own* actor system: the store's
// actors run next to the worker's, and the worker's actor talks to the store through the typed
// coalescer interface while plain code uses the facade. Runs on the embedded mock cluster.
#include <status_store/store.hpp>
#include <status_store/messages/status_record_codec.hpp>

#include <caf/all.hpp>

#include <iostream>

using namespace status_store;

namespace {

/// The worker's own actor: reports its tasks RUNNING by sending typed messages to the coalescer,
/// then flushes. Messages from one sender arrive in order, so the flush covers these puts.
caf::behavior task_runner(caf::event_based_actor* self, coalescer_actor store_actor, int tasks) {
  for (int t = 0; t < tasks; ++t) {
    auto record = encode_task_record(task_status{"example-source", t, status_value{status_state::running, {}, "worker-a:8083", 1}});
    self->send(store_actor, put_atom::value,
               status_update{record.key, false, *record.value, false, "worker-a:8083", 1});
  }
  self->request(store_actor, std::chrono::seconds{30}, flush_atom::value)
      .then([=](ok_atom) { self->quit(); },
            [=](caf::error& err) { self->quit(err); });
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
    statuses.put(connector_status{"example-source", status_value{status_state::running, {}, "worker-a:8083", 1}});
    {
      caf::scoped_actor self{system};
      self->spawn<caf::monitored>(task_runner, statuses.actor(), 3);
      self->receive([](caf::down_msg&) {});
    }
    const bool flushed = statuses.flush(std::chrono::seconds{30});
    const auto m = statuses.metrics();
    statuses.stop();
    std::cout << "flushed=" << flushed << " accepted=" << m.counters.accepted << " success=" << m.counters.success
              << " failure=" << m.counters.failure << "\n";
    if (!flushed || m.counters.success != 4 || m.counters.failure != 0) return 1;
  }
  std::cout << "example worker: 4 statuses acknowledged through its own actor system\n";
  return 0;
}
