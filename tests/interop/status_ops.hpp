#pragma once
// A worker's status reports as data, so one script of reports can be played through either store:
// through status-store's facade (play) or, as the Java driver's ops file (to_driver_ops), through
// Kafka Connect's KafkaStatusBackingStore. DESTROYED statuses are tombstones in both, as the herder
// writes them when a connector is deleted.
#include "app/store/store.hpp"
#include "messages/status.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace status_store::interop {

struct status_op {
  enum class kind { put, put_safe, put_topic, delete_topic, flush };
  kind what = kind::flush;
  std::variant<std::monostate, connector_status, task_status, topic_status> status;
};

status_op put(connector_status status);
status_op put(task_status status);
status_op put_safe(connector_status status);
status_op put_safe(task_status status);
status_op put_topic(topic_status status);
status_op delete_topic(std::string connector, std::string topic);
/// Waits until everything reported so far is acknowledged: the next record of a key is then sent only
/// after the previous one is written, in both stores (status-store would otherwise coalesce them).
status_op flush();

/// Plays `ops` through status-store's facade; every flush must complete within 30 s (false if not).
bool play(store& s, const std::vector<status_op>& ops);

/// The Java driver's ops file: one JSON object per line (tests/interop/java, InteropDriver `write`).
std::string to_driver_ops(const std::vector<status_op>& ops);

}  // namespace status_store::interop
