#include "actors/producer_actor.hpp"

#include "actors/kafka/kafka_producer_client.hpp"

#include "config/logging.hpp"

#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

namespace status_store {

namespace {

struct producer_state {
  producer_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.producer-io";

  std::shared_ptr<kafka_producer_client> client;
  coalescer_actor coalescer;
  std::shared_ptr<spdlog::logger> log;

  // The state dies with the actor: stop the poll thread and release the producer then, which also
  // drops the poll thread's handle on the coalescer (no reference cycle outlives shutdown).
  ~producer_state() {
    if (client) client->shutdown();
  }
};

using self_ptr = producer_actor::stateful_pointer<producer_state>;

producer_actor::behavior_type producer(self_ptr self, std::shared_ptr<kafka_producer_client> client) {
  self->state.client = std::move(client);
  self->state.log = component_logger("producer-io");
  return {
      [=](report_to_atom, coalescer_actor& coalescer) {
        auto& st = self->state;
        st.coalescer = coalescer;
        st.client->start_polling(
            [coalescer](std::vector<delivery_result>&& batch) {
              caf::anon_send(coalescer, delivered_atom::value, std::move(batch));
            },
            [coalescer](bool reachable) { caf::anon_send(coalescer, brokers_atom::value, reachable); });
      },
      [=](produce_atom, std::vector<outgoing_record>& records) {
        auto& st = self->state;
        std::vector<delivery_result> refused;
        if (st.client->brokers_down()) {
          // Outage hold: queued here they would be written late, before each key's latest value; the
          // coalescer holds them instead (brokers, false is on its way or already there).
          for (const auto& r : records) refused.push_back(st.client->not_sent(r));
          self->send(st.coalescer, delivered_atom::value, std::move(refused));
          return;
        }
        for (const auto& r : records) {
          if (auto report = st.client->produce(r)) refused.push_back(std::move(*report));
        }
        if (!refused.empty()) {
          st.log->debug("{} of {} record(s) refused by the producer at once (e.g. key '{}': {})", refused.size(),
                        records.size(), refused.front().key, refused.front().error_text);
          self->send(st.coalescer, delivered_atom::value, std::move(refused));
        }
      },
  };
}

}  // namespace

producer_actor spawn_producer(caf::actor_system& system, std::shared_ptr<kafka_producer_client> client) {
  return system.spawn(producer, std::move(client));
}

}  // namespace status_store
