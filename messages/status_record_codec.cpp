#include "messages/status_record_codec.hpp"

namespace status_store {

status_record encode_connector_record(const connector_status& status) {
  status_record record{connector_key(status.connector), std::nullopt};
  if (status.value.state != status_state::destroyed) record.value = encode_status_value(status.value);
  return record;
}

status_record encode_task_record(const task_status& status) {
  status_record record{task_key(status.connector, status.task), std::nullopt};
  if (status.value.state != status_state::destroyed) record.value = encode_status_value(status.value);
  return record;
}

status_record encode_topic_record(const topic_status& status) {
  return status_record{topic_key(status.topic, status.connector), encode_topic_value(status)};
}

status_record encode_topic_tombstone(std::string_view topic, std::string_view connector) {
  return status_record{topic_key(topic, connector), std::nullopt};
}

}  // namespace status_store
