#include "actors/coalescer_actor.hpp"

#include "actors/policy/coalescing_table.hpp"
#include "config/logging.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include <algorithm>
#include <iterator>
#include <memory>

namespace status_store {

namespace {

struct coalescer_state {
  coalescer_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.coalescer";

  std::unique_ptr<coalescing_table> table;  // the per-key rules; this actor only moves messages
  std::shared_ptr<ingest_table> ingest;     // the facade's callers put here; may be null
  producer_actor producer;
  retry_scheduler_actor scheduler;
  metrics_actor metrics;
  std::shared_ptr<spdlog::logger> log;

  // Work collected while the mailbox is busy is shipped by one self-sent tick per burst.
  bool tick_pending = false;
  std::vector<std::pair<uint64_t, caf::typed_response_promise<ok_atom>>> flushes;
  bool stopping = false;
  std::vector<caf::typed_response_promise<drain_report>> drains;
  bool refused_logged = false;
  int64_t attempt_timeout_ns = 0;
  bool hold_check_scheduled = false;
};

using self_ptr = coalescer_actor::stateful_pointer<coalescer_state>;

int64_t now_ns(self_ptr self) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(self->clock().now().time_since_epoch()).count();
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
  st.table->accept(u, now_ns(self));
}

// How often held attempts are checked against the attempt timeout: the timeout is met to within this.
constexpr std::chrono::milliseconds hold_check_interval{250};

// Large enough that a burst costs few messages, small enough that the mailbox (delivery reports,
// flushes) is served between batches of a storm.
constexpr size_t ingest_batch = 16384;

/// Takes one batch from the ingest table; true if more wait. `by_wake_up`: serving the wake message.
bool take_from_ingest(self_ptr self, bool by_wake_up) {
  auto& st = self->state;
  if (!st.ingest) return false;
  auto batch = st.ingest->take(ingest_batch, by_wake_up);
  st.table->count_coalesced_before_accept(batch.replaced);
  const int64_t now = now_ns(self);
  for (auto& u : batch.updates) st.table->accept(u, now);
  return batch.more;
}

/// Everything waiting in the ingest table, before a flush watermark or a drain. An outstanding
/// wake-up stays outstanding (its message is on its way), so there is never a second one.
void take_all_from_ingest(self_ptr self) {
  while (take_from_ingest(self, false)) {
  }
}

/// A drain timeout as any caller may send it, within [0, status.storage.shutdown.drain.timeout.ms's
/// maximum]: the deadline is now() + timeout in ns, which must not overflow into the past.
caf::timespan bounded_drain(caf::timespan requested) {
  return std::clamp(requested, caf::timespan{0},
                    caf::timespan{std::chrono::milliseconds{defaults::max_shutdown_drain_timeout_ms}});
}

/// A delivery report in the per-key table's words: the verdict the producer client judged, and the
/// client's text and code for the log line of a failure (written into `detail`, reused per report).
attempt_report attempt_report_of(const delivery_result& r, std::string& detail) {
  attempt_end end = attempt_end::acknowledged;
  switch (r.verdict.outcome) {
    case delivery_outcome::success:
      end = attempt_end::acknowledged;
      break;
    case delivery_outcome::retriable:
      end = attempt_end::retriable;
      break;
    case delivery_outcome::non_retriable:
      end = attempt_end::non_retriable;
      break;
    case delivery_outcome::not_sent:
      end = attempt_end::taken_back;
      break;
  }
  detail.clear();
  if (end != attempt_end::acknowledged) fmt::format_to(std::back_inserter(detail), "{} ({})", r.error_text, r.error);
  return attempt_report{r.key, r.send_id, end, r.verdict.authentication, r.verdict.advice, detail};
}

/// The counters to the metrics actor (cumulative: an extra publish is harmless).
void publish(self_ptr self) {
  auto& st = self->state;
  self->send(st.metrics, publish_atom::value, write_side_report{st.table->counters(), st.table->take_ack_latencies()});
}

void on_drain_deadline(self_ptr self) {
  auto& st = self->state;
  if (st.drains.empty()) return;
  const drain_report report = st.table->fail_all_unresolved();
  publish(self);  // before the answer, so that the final metrics report, asked for next, counts these
  if (report.failed > 0) {
    std::string sample;
    for (size_t i = 0; i < report.failed_keys.size() && i < 20; ++i) sample += (i ? ", " : "") + report.failed_keys[i];
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
  if (auto sends = st.table->take_sends(); !sends.empty())
    self->send(st.producer, produce_atom::value, std::move(sends));
  if (auto retries = st.table->take_retries(); !retries.empty())
    self->send(st.scheduler, schedule_atom::value, std::move(retries));
  publish(self);
  if (!st.flushes.empty()) {
    auto done = std::remove_if(st.flushes.begin(), st.flushes.end(), [&](auto& f) {
      if (!st.table->resolved_through(f.first)) return false;
      f.second.deliver(ok_atom::value);
      return true;
    });
    st.flushes.erase(done, st.flushes.end());
  }
  if (st.stopping && !st.drains.empty() && st.table->unresolved() == 0) {
    for (auto& rp : st.drains) rp.deliver(drain_report{});
    st.drains.clear();
  }
}

coalescer_actor::behavior_type coalescer(self_ptr self, coalescer_config config, producer_actor producer,
                                         retry_scheduler_actor scheduler, metrics_actor metrics,
                                         std::shared_ptr<ingest_table> ingest) {
  auto& st = self->state;
  st.log = component_logger("coalescer");
  st.table = std::make_unique<coalescing_table>(static_cast<uint32_t>(config.retry.max_retries), st.log);
  st.attempt_timeout_ns = config.attempt_timeout_ms * 1'000'000;
  st.ingest = std::move(ingest);
  st.producer = std::move(producer);
  st.scheduler = std::move(scheduler);
  st.metrics = std::move(metrics);
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
      [=](wake_atom) {
        if (take_from_ingest(self, true)) self->send(self, wake_atom::value);  // the same wake-up, continued
        after_change(self);
      },
      [=](observe_atom, std::vector<observed_status>& observed) {
        for (const auto& o : observed) self->state.table->observed(o);
        after_change(self);
      },
      [=](delivered_atom, std::vector<delivery_result>& results) {
        size_t retriable = 0;
        const delivery_result* example = nullptr;
        const int64_t now = now_ns(self);
        std::string detail;
        for (const auto& r : results) {
          if (!self->state.table->delivered(attempt_report_of(r, detail), now)) continue;
          ++retriable;
          if (!example) example = &r;
        }
        if (retriable > 0)  // one line per report batch, not per key: outages produce thousands
          self->state.log->warn("{} status update(s) hit retriable errors (e.g. key '{}': {}); retrying with backoff",
                                retriable, example->key, example->error_text);
        after_change(self);
      },
      [=](retry_due_atom, std::vector<retry_request>& due) {
        const int64_t now = now_ns(self);
        for (const auto& r : due) self->state.table->retry_due(r, now);
        after_change(self);
      },
      [=](flush_atom) -> caf::result<ok_atom> {
        auto rp = self->make_response_promise<ok_atom>();
        take_all_from_ingest(self);  // the caller's puts before the flush may still wait there
        self->state.flushes.emplace_back(self->state.table->last_accept_seq(), rp);
        after_change(self);
        return rp;
      },
      [=](stop_atom, caf::timespan drain_timeout) -> caf::result<drain_report> {
        auto& s = self->state;
        drain_timeout = bounded_drain(drain_timeout);
        auto rp = self->make_response_promise<drain_report>();
        s.drains.push_back(rp);
        if (!s.stopping) {
          if (s.ingest) s.ingest->close();  // later puts are refused by the facade
          take_all_from_ingest(self);
          s.stopping = true;
          s.log->info("stopping: draining {} pending status update(s) for at most {} ms", s.table->unresolved(),
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
      [=](brokers_atom, bool reachable) {
        auto& s = self->state;
        if (reachable == !s.table->holding()) return;
        if (!reachable) {
          s.table->hold();
          s.log->warn(
              "no broker reachable: holding status updates until one is (each key then writes its latest "
              "value once); a held attempt still ends after {} ms",
              s.attempt_timeout_ns / 1'000'000);
          if (!s.hold_check_scheduled) {
            s.hold_check_scheduled = true;
            self->delayed_send(self, hold_check_interval, hold_check_atom::value);
          }
        } else {
          s.log->info("a broker is reachable again: writing the latest value of {} held key(s)", s.table->held());
          s.table->release();
        }
        after_change(self);
      },
      [=](hold_check_atom) {
        auto& s = self->state;
        s.hold_check_scheduled = false;
        if (const size_t expired = s.table->expire_held(now_ns(self), s.attempt_timeout_ns); expired > 0)
          s.log->warn(
              "{} held status update(s) reached the attempt timeout with no broker reachable; retrying with "
              "backoff while retries last",
              expired);
        if (s.table->holding() || s.table->held() > 0) {
          s.hold_check_scheduled = true;
          self->delayed_send(self, hold_check_interval, hold_check_atom::value);
        }
        after_change(self);
      },
  };
}

}  // namespace

coalescer_actor spawn_coalescer(caf::actor_system& system, coalescer_config config, producer_actor producer,
                                retry_scheduler_actor scheduler, metrics_actor metrics,
                                std::shared_ptr<ingest_table> ingest) {
  return system.spawn(coalescer, config, std::move(producer), std::move(scheduler), std::move(metrics),
                      std::move(ingest));
}

}  // namespace status_store
