#include "actors/producer_actor.hpp"

#include "actors/kafka/kafka_producer_client.hpp"

#include "config/logging.hpp"

#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

namespace status_store {

namespace {

class producer_state {
 public:
  producer_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.producer-io";

  using self_ptr = producer_actor::stateful_pointer<producer_state>;

  // The state dies with the actor: stop the poll thread and release the producer then, which also
  // drops the poll thread's handle on the coalescer (no reference cycle outlives shutdown).
  ~producer_state() {
    if (client_) client_->shutdown();
  }

  void init(self_ptr self, std::shared_ptr<kafka_producer_client> client) {
    self_ = self;
    client_ = std::move(client);
    log_ = component_logger("producer-io");
  }

  producer_actor::behavior_type make_behavior() {
    return {
        [this](report_to_atom, delivery_sink_actor& sink) { handle_report_to(sink); },
        [this](produce_atom, std::vector<outgoing_record>& records) { handle_produce(records); },
    };
  }

 private:
  // -- handlers for peers --
  void handle_report_to(const delivery_sink_actor& sink);
  void handle_produce(std::vector<outgoing_record>& records);

  self_ptr self_ = nullptr;
  std::shared_ptr<kafka_producer_client> client_;
  delivery_sink_actor sink_;  // the coalescer, as far as delivery reports go
  std::shared_ptr<spdlog::logger> log_;
};

using self_ptr = producer_state::self_ptr;

// -- handlers for peers --

void producer_state::handle_report_to(const delivery_sink_actor& sink) {
  sink_ = sink;
  client_->start_polling(
      [sink](std::vector<delivery_result>&& batch) { caf::anon_send(sink, delivered_atom::value, std::move(batch)); },
      [sink](bool reachable) { caf::anon_send(sink, brokers_atom::value, reachable); });
}

void producer_state::handle_produce(std::vector<outgoing_record>& records) {
  std::vector<delivery_result> refused;
  if (client_->brokers_down()) {
    // Outage hold: queued here they would be written late, before each key's latest value; the
    // coalescer holds them instead (brokers, false is on its way or already there).
    for (const auto& r : records) refused.push_back(client_->not_sent(r));
    self_->send(sink_, delivered_atom::value, std::move(refused));
    return;
  }
  for (const auto& r : records) {
    if (auto report = client_->produce(r)) refused.push_back(std::move(*report));
  }
  if (!refused.empty()) {
    log_->debug("{} of {} record(s) refused by the producer at once (e.g. key '{}': {})", refused.size(),
                records.size(), refused.front().key, refused.front().error_text);
    self_->send(sink_, delivered_atom::value, std::move(refused));
  }
}

producer_actor::behavior_type producer(self_ptr self, std::shared_ptr<kafka_producer_client> client) {
  self->state.init(self, std::move(client));
  return self->state.make_behavior();
}

}  // namespace

producer_actor spawn_producer(caf::actor_system& system, std::shared_ptr<kafka_producer_client> client) {
  return system.spawn(producer, std::move(client));
}

}  // namespace status_store
