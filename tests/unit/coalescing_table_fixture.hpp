#pragma once
// The coalescing table's unit-test fixture: puts, reports, retries and read-backs on the plain table,
// what it sent and scheduled, and the conservation law (coalescing_table_test.cpp,
// coalescing_table_pipeline_test.cpp).
#include "actors/policy/coalescing_table.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>
#include <optional>

namespace status_store::testing {

/// How an attempt ends, as the coalescer tells the table (key and send id filled in by report()).
struct attempt_ending {
  attempt_end end;
  bool authentication;
  std::string_view advice;
};
inline const attempt_ending acknowledged{attempt_end::acknowledged, false, {}};
inline const attempt_ending timed_out{attempt_end::retriable, false, {}};
inline const attempt_ending too_large{attempt_end::non_retriable, false, "raise max.message.bytes"};
inline const attempt_ending refused_password{attempt_end::non_retriable, true, {}};

struct CoalescingTable : ::testing::Test {
  coalescing_table table{2, std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>())};
  std::vector<outgoing_record> sent;
  std::vector<retry_request> scheduled;
  int64_t now = 1'000'000;

  void put(std::string key, std::string value, std::string worker = "w1", int32_t generation = 1, bool safe = false) {
    status_update u{std::move(key), false, std::move(value), safe, std::move(worker), generation, 0};
    table.accept(u, now);
    collect();
  }
  void put_tombstone(std::string key) {
    status_update u{std::move(key), true, {}, false, {}, 0, 0};
    table.accept(u, now);
    collect();
  }
  bool report(const outgoing_record& r, const attempt_ending& e) {
    const bool retry =
        table.delivered(attempt_report{r.key, r.send_id, e.end, e.authentication, e.advice, "error"}, now);
    collect();
    return retry;
  }
  void retry_now() {
    for (auto r : std::exchange(scheduled, {})) table.retry_due(r, now);
    collect();
  }
  void read_back(std::string key, bool tombstone, std::string worker, int32_t generation, bool own) {
    table.observed(observed_status{std::move(key), tombstone, std::move(worker), generation, own});
    collect();
  }
  void collect() {
    for (auto& r : table.take_sends()) sent.push_back(std::move(r));
    for (auto& r : table.take_retries()) scheduled.push_back(std::move(r));
  }
  /// The counts a test names; a field left unset is not checked (`= {}`: no designated-initializer warning).
  struct expected_counts {
    std::optional<uint64_t> success = {}, failure = {}, coalesced = {}, dropped_stale = {}, retry = {}, pending = {};
  };
  /// The conservation law, then the named counts.
  void expect_counts(const expected_counts& e) {
    const auto c = check_conservation();
    const auto check = [](const std::optional<uint64_t>& want, uint64_t got, const char* what) {
      if (want) {
        EXPECT_EQ(got, *want) << what;
      }
    };
    check(e.success, c.success, "success");
    check(e.failure, c.failure, "failure");
    check(e.coalesced, c.coalesced, "coalesced");
    check(e.dropped_stale, c.dropped_stale, "dropped_stale");
    check(e.retry, c.retry, "retry");
    check(e.pending, c.pending, "pending");
  }
  store_counters check_conservation() {
    const auto c = table.counters();
    EXPECT_EQ(c.accepted, c.success + c.failure + c.coalesced + c.dropped_stale + c.pending);
    return c;
  }
};

inline const attempt_ending purged_for_hold{attempt_end::taken_back, false, {}};
inline constexpr int64_t attempt_timeout = 15'000'000'000;  // message.timeout.ms = 15 s

}  // namespace status_store::testing
