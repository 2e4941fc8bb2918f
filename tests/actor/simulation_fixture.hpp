#pragma once
// The fixture that drives the real actors in the fault simulation (simulation_test.cpp says what it
// checks): its model of the store and the topic, the fake topic and reader, and every send's seeded
// fate.
#include "simulation_model.hpp"
#include "store_fixture.hpp"

#include "actors/kafka/delivery_error_table.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace status_store::testing::simulation {

using namespace std::chrono_literals;

struct sim_base : store_fixture {
  uint64_t seed = 0;
  bool trace = false;
  std::mt19937_64 random;
  uint32_t max_retries = 5;
  std::vector<std::string> violations;
  std::map<std::string, key_model> keys;
  std::map<std::string, topic_entry> topic;
  std::map<std::string, known_entry> known;
  std::deque<unread_record> unread;
  time_point last_readable{};
  std::multimap<time_point, broker_write> broker_writes;
  bool other_writers = true;  // false: the store is the topic's only writer
  bool via_ingest = false;    // puts through the ingest table (as the facade's callers) or as messages
  uint64_t wakes = 0;
  uint64_t duplicates = 0, written_anyway = 0, late_reads = 0;  // fates drawn, for the summary
  std::multimap<time_point, delivery_result> deliveries;
  size_t produced_seen = 0;
  uint64_t next_seq = 0;
  int32_t generation = 1;
  bool outage = false;
  time_point outage_ends{};
  bool hold_mode = false;    // the outage hold (every third seed)
  bool holding = false;      // brokers, false was sent and brokers, true not yet
  time_point released_at{};  // the instant the last hold ended
  bool has_released = false;
  uint64_t purged = 0, holds = 0;  // for the summary
  bool faults = true;
  std::vector<caf::actor> flush_probes;

  double uniform() { return std::uniform_real_distribution<double>{0.0, 1.0}(random); }
  int pick(int n) { return static_cast<int>(random() % static_cast<uint64_t>(n)); }
  time_point now() { return sched.clock().now(); }

  void violation(const std::string& what) {
    if (violations.size() < 20) violations.push_back(what);
  }
  void log(const std::string& what) {
    if (trace) CAF_MESSAGE(what);
  }
  // ---- the topic ---------------------------------------------------------------------------------------

  static std::string name_of_connector(int c) { return "conn-" + std::to_string(c); }

  /// Appends a record to the topic; the reader delivers it after a lag, never before an earlier one.
  void write_topic(const std::string& key, const std::optional<std::string>& value, const std::string& worker,
                   int32_t generation_of_value, bool own) {
    topic[key] = topic_entry{value, value ? worker : std::string{}, generation_of_value};
    auto lag = std::chrono::milliseconds{0};
    if (const int roll = pick(100); faults && roll < 5) {
      lag = std::chrono::milliseconds{500 + pick(3000)};  // a stalled reader (a broker failing over)
      ++late_reads;
    } else if (roll < 60) {
      lag = std::chrono::milliseconds{pick(50)};
    }
    last_readable = std::max(last_readable, now() + lag);
    unread.push_back(
        unread_record{key, value, value ? worker : std::string{}, generation_of_value, own, last_readable});
  }

  /// The view reads the due records back (and tells the coalescer); each read is judged at once.
  void deliver_reads() {
    while (!unread.empty() && unread.front().readable_at <= now()) {
      auto r = std::move(unread.front());
      unread.pop_front();
      auto& km = keys[r.key];
      if (!r.value && !r.own) {  // another writer's tombstone may abandon a retry and send what waits
        km.last_foreign_delete = now();
        km.has_foreign_delete = true;
      }
      if (r.value && !r.worker.empty())
        known[r.key] = known_entry{r.worker, r.generation, r.own};
      else
        known.erase(r.key);
      log(std::string{"read back "} + r.key + (r.own ? " (own)" : " (other writer)"));
      read_back(r.key, r.value, r.own);
      classify_new_sends();
    }
  }

  static bool rule_allows(const known_entry* k, const accepted_update& u) {
    if (!k || k->worker.empty()) return true;
    return k->worker == u.worker || k->generation <= u.generation;
  }

  // ---- sends and their fates -------------------------------------------------------------------------------

  caf::timespan capped(uint32_t n) const {
    const double ms = std::min(static_cast<double>(retry.initial_backoff_ms) * std::pow(retry.backoff_multiplier, n),
                               static_cast<double>(retry.max_backoff_ms));
    return caf::timespan{static_cast<int64_t>(ms * 1e6)};
  }

  void classify_send(const outgoing_record& r) {
    auto& km = keys[r.key];
    const auto t = now();
    std::optional<uint64_t> seq;
    if (!r.tombstone) {
      auto it = km.seq_of_value.find(r.value);
      if (it == km.seq_of_value.end()) {
        violation("sent a value never accepted for " + r.key);
        return;
      }
      seq = it->second;
    }
    // A fresh send happens at the instant of a put, of a report for the key, or of another worker's
    // tombstone (which abandons a retry); anything else is a retry fired by the scheduler.
    if (holding) violation("send of " + r.key + " while no broker is reachable (the hold)");
    const bool released = has_released && released_at == t;
    const bool fresh = (km.has_put && km.last_put == t) || (km.has_report && km.last_report == t) ||
                       (km.has_foreign_delete && km.last_foreign_delete == t) || released;
    if (!fresh && km.held_episode) {
      // A retry of an episode the hold took part in: held attempts end and schedule retries the
      // simulation does not see, so neither its delay nor its number can be checked here.
    } else if (!fresh) {
      if (!km.awaiting_retry) {
        violation("send of " + r.key + " that is neither fresh nor a retry");
      } else {
        const uint32_t n = km.retries;
        if (n >= max_retries)
          violation("send of " + r.key + " after the retry limit (" + std::to_string(max_retries) + ")");
        const auto delay = t - km.failure_at;
        const auto low = capped(n);
        const auto high =
            low + caf::timespan{static_cast<int64_t>(static_cast<double>(low.count()) * retry.jitter_factor)};
        if (delay < low - 2ns || delay > high + 2ns)
          violation("retry " + std::to_string(n + 1) + " of " + r.key + " after " + std::to_string(delay.count()) +
                    " ns, outside [" + std::to_string(low.count()) + ", " + std::to_string(high.count()) + "]");
        if (seq && *seq < km.failed_seq) violation("retry of " + r.key + " sent an older value than the failed one");
        ++km.retries;
      }
    } else if (!released) {
      km.retries = 0;
      if (!holding) km.held_episode = false;  // a new episode: its retries are timed again
    }
    km.awaiting_retry = false;
    // putSafe: a safe update must be allowed by what the store knows at this moment (read back or
    // acknowledged), and a retry of a connector or task status too unless that is its own record.
    if (seq) {
      const auto& a = *std::find_if(km.accepted.begin(), km.accepted.end(), [&](auto& x) { return x.seq == *seq; });
      auto k = known.find(r.key);
      const known_entry* kp = k == known.end() ? nullptr : &k->second;
      const bool allowed = rule_allows(kp, a) || (!fresh && kp && kp->own);
      if ((a.safe || !fresh) && !a.worker.empty() && !allowed)
        violation("sent " + r.key + " seq " + std::to_string(*seq) +
                  " although another worker's newer generation is known");
    }
    // Its fate.
    int32_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    auto delay = std::chrono::milliseconds{1 + pick(20)};
    bool kept = false;       // the broker keeps the record although the client is told it failed
    bool duplicate = false;  // the broker writes it twice (the client retried a request whose answer was lost)
    if (outage) {
      err = RD_KAFKA_RESP_ERR__MSG_TIMED_OUT;
      delay = std::chrono::milliseconds{1000};  // message.timeout.ms
      kept = pick(100) < 15;                    // the leader wrote it, then died before answering
    } else if (faults) {
      const int roll = pick(100);
      if (roll < 6) {
        err = pick(2) ? RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS : RD_KAFKA_RESP_ERR__TRANSPORT;
        kept = err == RD_KAFKA_RESP_ERR__TRANSPORT && pick(2) == 0;
      } else if (roll < 7) {
        err = RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE;
      } else if (roll < 10) {
        delay = std::chrono::milliseconds{500 + pick(2500)};  // slow acknowledgement
      } else if (roll < 13) {
        err = RD_KAFKA_RESP_ERR__MSG_TIMED_OUT;
        delay = std::chrono::milliseconds{1000};
        kept = true;
      } else if (roll < 16) {
        duplicate = true;
      }
    }
    // The partition keeps a key's records in order (one request in flight, no client retries): a
    // record's fate lands after the fates of the key's earlier records.
    const auto after_earlier = km.last_fate_at + 1ns;
    const auto deliver_at = std::max(t + delay, after_earlier);
    km.last_fate_at = deliver_at;
    if (kept || duplicate) {
      // The broker-side copy lands before the client hears anything of the send.
      const auto drawn = t + std::chrono::milliseconds{pick(static_cast<int>(delay.count()))};
      broker_writes.emplace(std::clamp(drawn, after_earlier, deliver_at),
                            broker_write{r.key, r.tombstone ? std::nullopt : std::optional<std::string>{r.value},
                                         worker_of(r.key, seq), generation_of(r.key, seq), r.send_id});
      ++(kept ? written_anyway : duplicates);
    }
    deliveries.emplace(deliver_at, delivery_result{r.key, r.send_id, err, 0, err ? "simulated" : "",
                                                   judge_delivery_error(static_cast<rd_kafka_resp_err_t>(err))});
    log("send " + r.key + (seq ? " seq " + std::to_string(*seq) : " <tombstone>") + (fresh ? "" : " (retry)") + " -> " +
        std::to_string(err) + (kept ? " (kept by the broker)" : "") + (duplicate ? " (written twice)" : ""));
  }

  const accepted_update* accepted_of(const std::string& key, std::optional<uint64_t> seq) {
    if (!seq) return nullptr;
    auto& acc = keys[key].accepted;
    auto it = std::find_if(acc.begin(), acc.end(), [&](auto& x) { return x.seq == *seq; });
    return it == acc.end() ? nullptr : &*it;
  }
  std::string worker_of(const std::string& key, std::optional<uint64_t> seq) {
    const auto* a = accepted_of(key, seq);
    return a ? a->worker : std::string{};
  }
  int32_t generation_of(const std::string& key, std::optional<uint64_t> seq) {
    const auto* a = accepted_of(key, seq);
    return a ? a->generation : 0;
  }

  void classify_new_sends() {
    auto& sent = produced();
    while (produced_seen < sent.size()) classify_send(sent[produced_seen++]);
  }

  // `sent` by value: settle() below lets the fake producer append to produced(), which may move the
  // record a reference would point at (found by ASan in the sanitizer run of this suite).
  void deliver(const delivery_result& d, outgoing_record sent) {
    auto& km = keys[d.key];
    km.last_report = now();
    km.has_report = true;
    const auto outcome = classify_delivery_error(static_cast<rd_kafka_resp_err_t>(d.error));
    std::optional<uint64_t> seq;
    if (!sent.tombstone) seq = km.seq_of_value[sent.value];
    const std::string worker = worker_of(d.key, seq);
    const int32_t gen = generation_of(d.key, seq);
    if (outcome == delivery_outcome::retriable) {
      km.awaiting_retry = true;
      km.failure_at = now();
      km.failed_seq = seq.value_or(0);
    } else if (outcome != delivery_outcome::not_sent) {
      km.awaiting_retry = false;
    }
    if (outcome == delivery_outcome::success) {  // an acknowledged write is known to the store at once
      if (sent.tombstone)
        known.erase(d.key);
      else if (!worker.empty())
        known[d.key] = known_entry{worker, gen, true};
    }
    self->send(coalescer, delivered_atom::value, std::vector<delivery_result>{d});
    settle();
    classify_new_sends();
    if (outcome == delivery_outcome::success) {
      if (seq) {
        if (*seq <= km.last_acked_seq)
          violation("stale overwrite of " + d.key + ": seq " + std::to_string(*seq) + " after " +
                    std::to_string(km.last_acked_seq));
        km.last_acked_seq = *seq;
      }
      write_topic(d.key, sent.tombstone ? std::nullopt : std::optional<std::string>{sent.value}, worker, gen, true);
    }
  }

  /// Runs everything that is due now: messages, new sends, broker-side writes, read-backs, deliveries.
  void pump() {
    for (;;) {
      settle();
      classify_new_sends();
      while (!broker_writes.empty() && broker_writes.begin()->first <= now()) {
        auto w = std::move(broker_writes.begin()->second);
        broker_writes.erase(broker_writes.begin());
        log("the broker writes a copy of " + w.key + " the client will not hear of as acknowledged");
        write_topic(w.key, w.value, w.worker, w.generation, true);
      }
      deliver_reads();
      std::vector<delivery_result> due;
      while (!deliveries.empty() && deliveries.begin()->first <= now()) {
        due.push_back(deliveries.begin()->second);
        deliveries.erase(deliveries.begin());
      }
      if (due.empty()) return;
      for (auto& d : due) {
        auto& sent = produced();
        auto it = std::find_if(sent.rbegin(), sent.rend(), [&](auto& r) { return r.send_id == d.send_id; });
        deliver(d, *it);
      }
    }
  }

  /// Moves virtual time to the next event (delivery, broker-side write, read-back or timer), but not
  /// past `limit`.
  void advance_until(time_point limit) {
    time_point next = limit;
    if (!deliveries.empty()) next = std::min(next, deliveries.begin()->first);
    if (!broker_writes.empty()) next = std::min(next, broker_writes.begin()->first);
    if (!unread.empty()) next = std::min(next, unread.front().readable_at);
    if (!sched.clock().schedule().empty()) next = std::min(next, sched.clock().schedule().begin()->first);
    if (outage && outage_ends > now()) next = std::min(next, outage_ends);
    if (next > now()) advance_time(next - now());
    if (outage && now() >= outage_ends) {
      outage = false;
      log("outage ends");
      if (holding) end_hold();
    }
    pump();
  }

  /// The producer saw _ALL_BROKERS_DOWN: it purges what is still queued (a coin flip per pending send:
  /// queued, or already on a connection and left to its fate) and tells the coalescer.
  void begin_hold() {
    // What the mailbox holds now is served first: sends it causes reach the producer before the
    // hold and may be purged below (a send racing the hold is refused by producer I/O as not sent).
    settle();
    classify_new_sends();
    ++holds;
    holding = true;
    for (auto& [key, km] : keys)
      if (km.has_put) km.held_episode = true;
    std::multimap<time_point, delivery_result> kept;
    std::vector<delivery_result> purged_now;
    for (auto& [at, d] : deliveries) {
      if (pick(2) == 0) {
        kept.emplace(at, d);
        continue;
      }
      for (auto it = broker_writes.begin(); it != broker_writes.end();)  // a queued send reached no broker
        it = it->second.send_id == d.send_id ? broker_writes.erase(it) : std::next(it);
      purged_now.push_back(delivery_result{d.key, d.send_id, RD_KAFKA_RESP_ERR__PURGE_QUEUE, -1, "purged",
                                           judge_delivery_error(RD_KAFKA_RESP_ERR__PURGE_QUEUE)});
    }
    deliveries = std::move(kept);
    purged += purged_now.size();
    log("no broker reachable: hold, " + std::to_string(purged_now.size()) + " queued send(s) purged");
    self->send(coalescer, brokers_atom::value, false);
    settle();
    for (auto& d : purged_now) deliveries.emplace(now(), std::move(d));  // served by the next pump
  }

  void end_hold() {
    holding = false;
    released_at = now();
    has_released = true;
    log("a broker is reachable again: release");
    self->send(coalescer, brokers_atom::value, true);
  }

  /// Advances until nothing is pending; a store that never gets there is a hang.
  void settle_everything() {
    const auto give_up = now() + 1h;
    for (;;) {
      pump();
      if (deliveries.empty() && broker_writes.empty() && unread.empty() && snapshot().counters.pending == 0) return;
      if (now() >= give_up) {
        violation("the store did not settle within an hour of virtual time (pending " +
                  std::to_string(snapshot().counters.pending) + ")");
        return;
      }
      advance_until(give_up);
    }
  }
};

}  // namespace status_store::testing::simulation
