#include "actors/kafka/topic_snapshot.hpp"

#include "actors/kafka/topic_consumer.hpp"

#include <stdexcept>

namespace status_store {

topic_contents read_topic_to_end(const kafka_settings& settings, const std::string& topic,
                                 std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  topic_consumer consumer{settings, topic, timeout};
  topic_contents out;
  out.partitions = consumer.partitions();
  std::vector<consumed_record> batch;
  while (!consumer.caught_up()) {
    if (std::chrono::steady_clock::now() >= deadline)
      throw std::runtime_error("timed out reading '" + topic + "' to its end (" + std::to_string(out.records) +
                               " records read)");
    batch.clear();
    consumer.poll(batch, 10000, std::chrono::milliseconds{200});
    for (auto& r : batch) {
      ++out.records;
      topic_record rec;
      if (!r.tombstone) rec.value = std::move(r.value);
      rec.partition = r.partition;
      rec.offset = r.offset;
      out.latest[std::move(r.key)] = std::move(rec);
    }
  }
  return out;
}

}  // namespace status_store
