#pragma once
// Status updates for the system tests, and the check that matters most: every key's latest status
// is what the topic holds. A key is a connector or one of its tasks; update i of key k carries
// generation i, so any stale value on the topic is visible.
#include "actors/kafka/topic_snapshot.hpp"
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "messages/status_record_codec.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace status_store::system_test {

class workload {
 public:
  /// `keys` keys: the first keys/5 are connectors "<prefix>-<c>", the rest their tasks.
  workload(std::string prefix, int keys)
      : prefix_(std::move(prefix)), keys_(keys), connectors_(std::max(keys / 5, 1)) {}

  int keys() const { return keys_; }
  std::string connector_name(int c) const { return prefix_ + "-" + std::to_string(c); }

  /// Puts update `i` for key `key` (generation `i`); `destroyed` writes a tombstone.
  void put(store& s, int key, int i, bool destroyed = false) {
    status_value value{state_for(i, destroyed), trace_for(i, destroyed), "worker-" + std::to_string(i % 3) + ":8083",
                       i};
    std::lock_guard lock{mutex_};
    if (key < connectors_) {
      connector_status status{connector_name(key), value};
      auto record = encode_connector_record(status);
      latest_[record.key] = record.value;
      s.put(status);
    } else {
      task_status status{connector_name(key % connectors_), key / connectors_ - 1, value};
      auto record = encode_task_record(status);
      latest_[record.key] = record.value;
      s.put(status);
    }
  }

  /// Update `i` to key i % keys.
  void put_round_robin(store& s, int i, bool destroyed = false) { put(s, i % keys_, i, destroyed); }

  /// Key -> latest value bytes (nullopt = tombstone), as put so far.
  std::map<std::string, std::optional<std::string>> expected() const {
    std::lock_guard lock{mutex_};
    return latest_;
  }

  /// Keys whose latest value on `topic` differs from the latest put (missing, stale or wrong).
  std::vector<std::string> wrong_keys(const worker_config& config, const std::string& topic,
                                      topic_contents* contents_out = nullptr) const {
    auto contents = read_topic_to_end(consumer_settings(config), topic, std::chrono::seconds{60});
    std::vector<std::string> wrong;
    for (const auto& [key, value] : expected()) {
      auto it = contents.latest.find(key);
      if (it == contents.latest.end() || it->second.value != value) wrong.push_back(key);
    }
    if (contents_out) *contents_out = std::move(contents);
    return wrong;
  }

 private:
  static status_state state_for(int i, bool destroyed) {
    if (destroyed) return status_state::destroyed;
    static constexpr status_state cycle[] = {status_state::running, status_state::paused,     status_state::running,
                                             status_state::failed,  status_state::unassigned, status_state::restarting};
    return cycle[i % 6];
  }
  static std::optional<std::string> trace_for(int i, bool destroyed) {
    if (destroyed || state_for(i, false) != status_state::failed) return std::nullopt;
    return "org.apache.kafka.connect.errors.ConnectException: update " + std::to_string(i) +
           "\n\tat Task.run(Task.java:42)";
  }

  std::string prefix_;
  int keys_;
  int connectors_;
  mutable std::mutex mutex_;
  std::map<std::string, std::optional<std::string>> latest_;
};

inline void expect_conservation(const store_counters& c) {
  EXPECT_EQ(c.accepted, c.success + c.failure + c.coalesced + c.dropped_stale + c.pending)
      << "accepted " << c.accepted << " success " << c.success << " failure " << c.failure << " coalesced "
      << c.coalesced << " stale " << c.dropped_stale << " pending " << c.pending;
}

inline std::string describe(const store_counters& c) {
  return "accepted " + std::to_string(c.accepted) + ", success " + std::to_string(c.success) + ", failure " +
         std::to_string(c.failure) + ", retry " + std::to_string(c.retry) + ", attempt errors " +
         std::to_string(c.attempt_errors) + ", coalesced " + std::to_string(c.coalesced) + ", pending " +
         std::to_string(c.pending);
}

}  // namespace status_store::system_test
