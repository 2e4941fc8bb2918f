#include "actors/coalescer_actor.hpp"

#include "actors/delivery_error_table.hpp"
#include "actors/latency_histogram.hpp"
#include "config/logging.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace status_store {

namespace {

/// An accepted update waiting to be written (the key is the map's key).
struct pending_update {
  bool tombstone = false;
  std::string value;
  bool safe = false;
  std::string worker_id;
  int32_t generation = 0;
  uint64_t accept_seq = 0;
};

// Memory per key matters (a worker may track a million keys): an idle key keeps no update, only
// what putSafe needs; updates live on the heap only while they are pending. Flat fields, no
// std::optional, widest first: 56 bytes, so a key's hash-map node is one 112-byte allocation
// (it was 80 bytes and a 144-byte allocation with an optional known status).
struct key_state {
  std::unique_ptr<pending_update> head;  // being written, or waiting for its retry
  std::unique_ptr<pending_update> next;  // the newest value behind it (latest wins)
  uint64_t retry_ticket = 0;  // the failed send's id; only the matching due notice counts
  uint64_t send_id = 0;       // matches delivery reports to the current send
  // The value putSafe decides on: read back from the topic or acknowledged by it; nullptr when none.
  // The worker id is interned: a cluster has a handful of workers and many keys.
  const std::string* known_worker = nullptr;
  int32_t known_generation = 0;
  uint32_t retries_done = 0;  // retries used by the current failure episode
  bool in_flight = false;
  bool retry_scheduled = false;
  // The known value was written by this store (acknowledged, or read back with our writer header):
  // it never makes a retry of ours stale, whatever worker id it names.
  bool known_own = false;
};
static_assert(sizeof(key_state) <= 56, "a million keys: keep the per-key state small");

struct coalescer_state {
  coalescer_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.coalescer";

  coalescer_config config;
  producer_actor producer;
  retry_scheduler_actor scheduler;
  metrics_actor metrics;
  std::shared_ptr<spdlog::logger> log;

  std::unordered_map<std::string, key_state> keys;
  std::unordered_set<std::string> worker_ids;  // the interned worker ids of key_state::known_worker
  /// accept_seq → put time (the facade's, else the accept; clock ns) of every unresolved update: gives pending, the oldest
  /// unacknowledged age, and flush watermarks in one ordered structure.
  std::map<uint64_t, int64_t> unresolved;
  uint64_t last_accept_seq = 0;
  uint64_t last_send_id = 0;
  store_counters counters;
  /// Accept-to-acknowledgement time of every written update; its quantiles go out with the
  /// counters, recomputed only after a tick in which something was acknowledged.
  latency_histogram ack_latency;
  bool ack_latency_changed = false;

  // Work collected while the mailbox is busy, shipped by one self-sent tick per burst.
  std::vector<outgoing_record> outbox;
  std::vector<retry_request> retry_outbox;
  bool tick_pending = false;

  std::vector<std::pair<uint64_t, caf::typed_response_promise<ok_atom>>> flushes;
  bool stopping = false;
  std::vector<caf::typed_response_promise<drain_report>> drains;
  bool refused_logged = false;
};

using self_ptr = coalescer_actor::stateful_pointer<coalescer_state>;

int64_t now_ns(self_ptr self) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(self->clock().now().time_since_epoch()).count();
}

bool can_write_safely(const key_state& ks, const pending_update& u) {
  return !ks.known_worker || *ks.known_worker == u.worker_id || ks.known_generation <= u.generation;
}

void remember(self_ptr self, key_state& ks, const std::string& worker_id, int32_t generation, bool own) {
  ks.known_worker = &*self->state.worker_ids.insert(worker_id).first;
  ks.known_generation = generation;
  ks.known_own = own;
}

void forget(key_state& ks) {
  ks.known_worker = nullptr;
  ks.known_generation = 0;
  ks.known_own = false;
}

void resolve(self_ptr self, const pending_update& u) {
  self->state.unresolved.erase(u.accept_seq);
}

/// resolve() for an acknowledged update: the same one lookup also yields its put-to-ack latency.
void resolve_acknowledged(self_ptr self, const pending_update& u) {
  auto& st = self->state;
  const auto accepted = st.unresolved.find(u.accept_seq);
  if (accepted == st.unresolved.end()) return;
  st.ack_latency.record(static_cast<uint64_t>(std::max<int64_t>(0, now_ns(self) - accepted->second)) / 1000);
  st.ack_latency_changed = true;
  st.unresolved.erase(accepted);
}

void start_send(self_ptr self, const std::string& key, key_state& ks) {
  auto& st = self->state;
  ks.in_flight = true;
  ks.send_id = ++st.last_send_id;
  ++st.counters.in_flight;
  st.outbox.push_back(outgoing_record{key, ks.head->tombstone, ks.head->value, ks.send_id});
}

/// The head is resolved (acknowledged, failed or dropped): the waiting value, if any, goes next. A
/// waiting putSafe is a delayed call, so its rule is checked again against what is known now.
void advance(self_ptr self, const std::string& key, key_state& ks) {
  ks.head.reset();
  ks.retries_done = 0;
  if (!ks.next) return;
  ks.head = std::move(ks.next);
  ks.next.reset();
  if (ks.head->safe && !can_write_safely(ks, *ks.head)) {
    auto& st = self->state;
    ++st.counters.dropped_stale;
    st.log->debug("waiting putSafe for key '{}' dropped: worker '{}' wrote generation {} meanwhile", key,
                  *ks.known_worker, ks.known_generation);
    resolve(self, *ks.head);
    ks.head.reset();
    return;
  }
  start_send(self, key, ks);
}

void fail_head(self_ptr self, const std::string& key, key_state& ks, const delivery_result& r,
               std::string_view why) {
  auto& st = self->state;
  ++st.counters.failure;
  st.log->error("status update for key '{}' failed after {} attempt(s): {} ({}); {}", key, ks.retries_done + 1,
                r.error_text, r.error, why);
  resolve(self, *ks.head);
  advance(self, key, ks);
}

void accept(self_ptr self, status_update& u) {
  auto& st = self->state;
  if (st.stopping) {
    // Not accepted, so outside the conservation law; say so once rather than per update.
    if (!st.refused_logged) {
      st.log->warn("refusing status updates (first key '{}'): the store is stopping", u.key);
      st.refused_logged = true;
    }
    return;
  }
  ++st.counters.accepted;
  pending_update p{u.tombstone, std::move(u.value), u.safe, std::move(u.worker_id), u.generation,
                   ++st.last_accept_seq};
  st.unresolved.emplace(p.accept_seq, u.put_ns > 0 ? u.put_ns : now_ns(self));
  auto& ks = st.keys[u.key];
  if (p.safe && !can_write_safely(ks, p)) {
    ++st.counters.dropped_stale;
    st.log->debug("putSafe for key '{}' (worker '{}', generation {}) dropped: known value is from worker '{}' "
                  "generation {}",
                  u.key, p.worker_id, p.generation, *ks.known_worker, ks.known_generation);
    resolve(self, p);
    return;
  }
  if (!ks.head) {
    ks.head = std::make_unique<pending_update>(std::move(p));
    start_send(self, u.key, ks);
    return;
  }
  if (ks.next) {
    ++st.counters.coalesced;
    resolve(self, *ks.next);
    *ks.next = std::move(p);  // reuse the allocation
    return;
  }
  ks.next = std::make_unique<pending_update>(std::move(p));
}

void on_delivery(self_ptr self, const delivery_result& r, size_t& retriable_seen, const delivery_result*& example) {
  auto& st = self->state;
  auto it = st.keys.find(r.key);
  // A report for a send we no longer wait for (e.g. after the drain deadline) changes nothing.
  if (it == st.keys.end() || !it->second.in_flight || it->second.send_id != r.send_id) return;
  auto& ks = it->second;
  ks.in_flight = false;
  --st.counters.in_flight;
  switch (classify_delivery_error(static_cast<rd_kafka_resp_err_t>(r.error))) {
    case delivery_outcome::success:
      ++st.counters.success;
      if (ks.head->tombstone)
        forget(ks);
      else if (!ks.head->worker_id.empty())  // connector and task statuses: our write is now known
        remember(self, ks, ks.head->worker_id, ks.head->generation, true);
      resolve_acknowledged(self, *ks.head);
      advance(self, r.key, ks);
      return;
    case delivery_outcome::non_retriable: {
      if (is_authentication_error(static_cast<rd_kafka_resp_err_t>(r.error))) ++st.counters.authentication_failure;
      const auto advice = delivery_error_advice(static_cast<rd_kafka_resp_err_t>(r.error));
      fail_head(self, r.key, ks, r, advice.empty() ? std::string{"not retriable"} : "not retriable: " + std::string{advice});
      return;
    }
    case delivery_outcome::retriable:
      if (ks.retries_done >= st.config.max_retries) {
        fail_head(self, r.key, ks, r, "retries exhausted");
        return;
      }
      ks.retry_scheduled = true;
      ks.retry_ticket = r.send_id;
      ++st.counters.waiting_retry;
      st.retry_outbox.push_back(retry_request{r.key, ks.retries_done, r.send_id});
      ++retriable_seen;
      if (!example) example = &r;
      return;
  }
}

void on_retry_due(self_ptr self, const retry_request& due) {
  auto& st = self->state;
  const std::string& key = due.key;
  auto it = st.keys.find(key);
  // A notice for a retry abandoned meanwhile (its key may be backing off again, for another send).
  if (it == st.keys.end() || !it->second.retry_scheduled || it->second.retry_ticket != due.ticket) return;
  auto& ks = it->second;
  ks.retry_scheduled = false;
  --st.counters.waiting_retry;
  ++ks.retries_done;
  if (ks.next) {  // the retry sends the latest value; the failed one is superseded
    ++st.counters.coalesced;
    resolve(self, *ks.head);
    ks.head = std::move(ks.next);
    ks.next.reset();
  }
  // A retry is a delayed copy: re-check putSafe's rule against what the topic now shows, for plain
  // puts too. Another writer's record of another worker's newer generation means ownership moved on;
  // a record of our own (a send that timed out but was written, say) never does.
  if (!ks.known_own && !ks.head->worker_id.empty() && !can_write_safely(ks, *ks.head)) {
    ++st.counters.dropped_stale;
    st.log->debug("retry for key '{}' (worker '{}', generation {}) abandoned: worker '{}' wrote generation {}", key,
                  ks.head->worker_id, ks.head->generation, *ks.known_worker, ks.known_generation);
    resolve(self, *ks.head);
    ks.head.reset();
    ks.retries_done = 0;
    return;
  }
  ++st.counters.retry;
  start_send(self, key, ks);
}

/// A value read back from the topic. A tombstone written by another writer abandons a retry waiting
/// for its backoff (as Connect does when the entry is deleted): the key was deleted meanwhile, and
/// re-sending would resurrect it. Our own records read back (the writer header says so) never abandon
/// anything: an echo of an acknowledged send, of one that timed out but reached the topic, or a
/// duplicate librdkafka wrote, all the same (docs/retries.md, "Own writes").
void on_observe(self_ptr self, observed_status& o) {
  auto& st = self->state;
  auto it = st.keys.find(o.key);
  if (it == st.keys.end()) {
    if (o.tombstone) return;  // nothing known, nothing to forget: no entry for deleted keys
    it = st.keys.emplace(o.key, key_state{}).first;
  }
  auto& ks = it->second;
  if (!o.tombstone) {
    remember(self, ks, o.worker_id, o.generation, o.own);
    return;
  }
  forget(ks);
  if (o.own || !ks.retry_scheduled) return;
  ks.retry_scheduled = false;
  --st.counters.waiting_retry;
  ++st.counters.dropped_stale;
  st.log->info("retry for key '{}' abandoned: another writer's tombstone for it was read back", o.key);
  resolve(self, *ks.head);
  advance(self, o.key, ks);
}

void on_drain_deadline(self_ptr self) {
  auto& st = self->state;
  if (st.drains.empty()) return;
  drain_report report;
  for (auto& [key, ks] : st.keys) {
    bool failed = false;
    for (auto* u : {&ks.head, &ks.next}) {
      if (!*u) continue;
      ++report.failed;
      ++st.counters.failure;
      resolve(self, **u);
      u->reset();
      failed = true;
    }
    if (failed) report.failed_keys.push_back(key);
    ks.in_flight = ks.retry_scheduled = false;
    ks.retries_done = 0;
  }
  st.counters.in_flight = st.counters.waiting_retry = 0;
  if (report.failed > 0) {
    std::string sample;
    for (size_t i = 0; i < report.failed_keys.size() && i < 20; ++i)
      sample += (i ? ", " : "") + report.failed_keys[i];
    st.log->error("shutdown drain timeout elapsed: {} status update(s) for {} key(s) counted as failed: {}{}",
                  report.failed, report.failed_keys.size(), sample, report.failed_keys.size() > 20 ? ", ..." : "");
  }
  for (auto& rp : st.drains) rp.deliver(report);
  st.drains.clear();
}

/// Runs after every handler: makes sure one tick ships the work of this mailbox burst.
void after_change(self_ptr self) {
  auto& st = self->state;
  if (!st.tick_pending) {
    st.tick_pending = true;
    self->send(self, tick_atom::value);
  }
}

/// Ships what the burst produced — one produce batch, one schedule batch, one counters publish — and
/// then answers the flushes and drains that are complete, so that whoever was waiting reads metrics
/// that already include everything the flush covered.
void on_tick(self_ptr self) {
  auto& st = self->state;
  st.tick_pending = false;
  if (!st.outbox.empty()) {
    self->send(st.producer, produce_atom::value, std::move(st.outbox));
    st.outbox.clear();
  }
  if (!st.retry_outbox.empty()) {
    self->send(st.scheduler, schedule_atom::value, std::move(st.retry_outbox));
    st.retry_outbox.clear();
  }
  st.counters.pending = st.unresolved.size();
  st.counters.oldest_unacked_since_ns = st.unresolved.empty() ? -1 : st.unresolved.begin()->second;
  if (st.ack_latency_changed) {
    st.ack_latency_changed = false;
    st.counters.ack_latency_p50_us = static_cast<int64_t>(st.ack_latency.quantile(0.50));
    st.counters.ack_latency_p99_us = static_cast<int64_t>(st.ack_latency.quantile(0.99));
    st.counters.ack_latency_max_us = static_cast<int64_t>(st.ack_latency.max());
  }
  self->send(st.metrics, publish_atom::value, st.counters);
  const uint64_t first_unresolved = st.unresolved.empty() ? UINT64_MAX : st.unresolved.begin()->first;
  if (!st.flushes.empty()) {
    auto done = std::remove_if(st.flushes.begin(), st.flushes.end(), [&](auto& f) {
      if (f.first >= first_unresolved) return false;
      f.second.deliver(ok_atom::value);
      return true;
    });
    st.flushes.erase(done, st.flushes.end());
  }
  if (st.stopping && !st.drains.empty() && st.unresolved.empty()) {
    for (auto& rp : st.drains) rp.deliver(drain_report{});
    st.drains.clear();
  }
}

coalescer_actor::behavior_type coalescer(self_ptr self, coalescer_config config, producer_actor producer,
                                         retry_scheduler_actor scheduler, metrics_actor metrics) {
  auto& st = self->state;
  st.config = config;
  st.producer = std::move(producer);
  st.scheduler = std::move(scheduler);
  st.metrics = std::move(metrics);
  st.log = component_logger("coalescer");
  self->send(st.producer, report_to_atom::value, caf::actor_cast<coalescer_actor>(self));
  self->send(st.scheduler, report_to_atom::value, caf::actor_cast<coalescer_actor>(self));
  return {
      [=](put_atom, status_update& u) {
        accept(self, u);
        after_change(self);
      },
      [=](put_atom, std::vector<status_update>& batch) {
        for (auto& u : batch) accept(self, u);
        after_change(self);
      },
      [=](observe_atom, std::vector<observed_status>& observed) {
        for (auto& o : observed) on_observe(self, o);
        after_change(self);
      },
      [=](delivered_atom, std::vector<delivery_result>& results) {
        size_t retriable = 0;
        const delivery_result* example = nullptr;
        for (auto& r : results) on_delivery(self, r, retriable, example);
        if (retriable > 0)  // one line per report batch, not per key: outages produce thousands
          self->state.log->warn("{} status update(s) hit retriable errors (e.g. key '{}': {}); retrying with backoff",
                                retriable, example->key, example->error_text);
        after_change(self);
      },
      [=](retry_due_atom, std::vector<retry_request>& due) {
        for (auto& r : due) on_retry_due(self, r);
        after_change(self);
      },
      [=](flush_atom) -> caf::result<ok_atom> {
        auto rp = self->make_response_promise<ok_atom>();
        self->state.flushes.emplace_back(self->state.last_accept_seq, rp);
        after_change(self);
        return rp;
      },
      [=](stop_atom, caf::timespan drain_timeout) -> caf::result<drain_report> {
        auto& s = self->state;
        auto rp = self->make_response_promise<drain_report>();
        s.drains.push_back(rp);
        if (!s.stopping) {
          s.stopping = true;
          s.log->info("stopping: draining {} pending status update(s) for at most {} ms", s.unresolved.size(),
                      std::chrono::duration_cast<std::chrono::milliseconds>(drain_timeout).count());
          self->delayed_send(self, drain_timeout, deadline_atom::value);
        }
        after_change(self);
        return rp;
      },
      [=](tick_atom) { on_tick(self); },
      [=](deadline_atom) {
        on_drain_deadline(self);
        after_change(self);
      },
  };
}

}  // namespace

coalescer_actor spawn_coalescer(caf::actor_system& system, coalescer_config config, producer_actor producer,
                                retry_scheduler_actor scheduler, metrics_actor metrics) {
  return system.spawn(coalescer, config, std::move(producer), std::move(scheduler), std::move(metrics));
}

}  // namespace status_store
