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

// How often held attempts are checked against the attempt timeout: the timeout is met to within this.
constexpr std::chrono::milliseconds hold_check_interval{250};

// Large enough that a burst costs few messages, small enough that the mailbox (delivery reports,
// flushes) is served between batches of a storm.
constexpr size_t ingest_batch = 16384;

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
  return attempt_report{r.key,  r.send_id,     end,       r.verdict.authentication, r.verdict.advice,
                        detail, r.reported_ns, r.queue_us};
}

class coalescer_state {
 public:
  coalescer_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.coalescer";

  using self_ptr = coalescer_actor::stateful_pointer<coalescer_state>;

  /// Wires the state to its actor and peers, and introduces the actor to the producer and the
  /// scheduler (report_to), each as the narrow handle it reports to.
  void init(self_ptr self, const coalescer_config& config, producer_actor producer, retry_scheduler_actor scheduler,
            metrics_actor metrics, std::shared_ptr<ingest_table> ingest);

  coalescer_actor::behavior_type make_behavior() {
    return {
        [this](put_atom, status_update& u) { handle_put(u); },
        [this](put_atom, std::vector<status_update>& batch) { handle_put_batch(batch); },
        [this](flush_atom) { return handle_flush(); },
        [this](wake_atom) { handle_wake(); },
        [this](stop_atom, caf::timespan drain_timeout) { return handle_stop(drain_timeout); },
        [this](delivered_atom, std::vector<delivery_result>& results) { handle_delivered(results); },
        [this](brokers_atom, bool reachable) { handle_brokers(reachable); },
        [this](retry_due_atom, std::vector<retry_request>& due) { handle_retry_due(due); },
        [this](observe_atom, std::vector<observed_status>& observed) { handle_observe(observed); },
        [this](tick_atom) { handle_tick(); },
        [this](deadline_atom) { handle_deadline(); },
        [this](hold_check_atom) { handle_hold_check(); },
    };
  }

 private:
  // -- handlers for the embedder --
  void handle_put(status_update& u);
  void handle_put_batch(std::vector<status_update>& batch);
  caf::result<ok_atom> handle_flush();

  // -- handlers for the facade --
  void handle_wake();
  caf::result<drain_report> handle_stop(caf::timespan drain_timeout);

  // -- handlers for peers --
  void handle_delivered(std::vector<delivery_result>& results);
  void handle_brokers(bool reachable);
  void handle_retry_due(std::vector<retry_request>& due);
  void handle_observe(std::vector<observed_status>& observed);

  // -- timers --
  void handle_tick();
  void handle_deadline();
  void handle_hold_check();

  // -- helpers --
  int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(self_->clock().now().time_since_epoch()).count();
  }
  void accept(status_update& u);
  bool take_from_ingest(bool by_wake_up);
  void take_all_from_ingest();
  void publish();
  void after_change();
  void answer_completed();
  void schedule_hold_check();

  self_ptr self_ = nullptr;
  std::unique_ptr<coalescing_table> table_;  // the per-key rules; this actor only moves messages
  std::shared_ptr<ingest_table> ingest_;     // the facade's callers put here; may be null
  producer_actor producer_;
  retry_scheduler_actor scheduler_;
  metrics_actor metrics_;
  std::shared_ptr<spdlog::logger> log_;
  int64_t attempt_timeout_ns_ = 0;

  // Work collected while the mailbox is busy is shipped by one self-sent tick per burst.
  bool tick_pending_ = false;
  std::vector<std::pair<uint64_t, caf::typed_response_promise<ok_atom>>> flushes_;
  bool stopping_ = false;
  std::vector<caf::typed_response_promise<drain_report>> drains_;
  bool refused_logged_ = false;
  bool hold_check_scheduled_ = false;
};

using self_ptr = coalescer_state::self_ptr;

void coalescer_state::init(self_ptr self, const coalescer_config& config, producer_actor producer,
                           retry_scheduler_actor scheduler, metrics_actor metrics,
                           std::shared_ptr<ingest_table> ingest) {
  self_ = self;
  log_ = component_logger("coalescer");
  table_ = std::make_unique<coalescing_table>(static_cast<uint32_t>(config.retry.max_retries), log_);
  if (config.on_acknowledged) table_->listen_to_acks(config.on_acknowledged);
  attempt_timeout_ns_ = config.attempt_timeout_ms * 1'000'000;
  ingest_ = std::move(ingest);
  producer_ = std::move(producer);
  scheduler_ = std::move(scheduler);
  metrics_ = std::move(metrics);
  const coalescer_actor whole{self};
  self->send(producer_, report_to_atom::value, delivery_sink_actor{whole});
  self->send(scheduler_, report_to_atom::value, retry_sink_actor{whole});
}

// -- handlers for the embedder --

void coalescer_state::handle_put(status_update& u) {
  accept(u);
  after_change();
}

void coalescer_state::handle_put_batch(std::vector<status_update>& batch) {
  for (auto& u : batch) accept(u);
  after_change();
}

caf::result<ok_atom> coalescer_state::handle_flush() {
  auto rp = self_->make_response_promise<ok_atom>();
  take_all_from_ingest();  // the caller's puts before the flush may still wait there
  flushes_.emplace_back(table_->last_accept_seq(), rp);
  after_change();
  return rp;
}

// -- handlers for the facade --

void coalescer_state::handle_wake() {
  if (take_from_ingest(true)) self_->send(self_, wake_atom::value);  // the same wake-up, continued
  after_change();
}

caf::result<drain_report> coalescer_state::handle_stop(caf::timespan drain_timeout) {
  drain_timeout = bounded_drain(drain_timeout);
  auto rp = self_->make_response_promise<drain_report>();
  drains_.push_back(rp);
  if (!stopping_) {
    if (ingest_) ingest_->close();  // later puts are refused by the facade
    take_all_from_ingest();
    stopping_ = true;
    log_->info("stopping: draining {} pending status update(s) for at most {} ms", table_->unresolved(),
               std::chrono::duration_cast<std::chrono::milliseconds>(drain_timeout).count());
    self_->delayed_send(self_, drain_timeout, deadline_atom::value);
  }
  after_change();
  return rp;
}

// -- handlers for peers --

void coalescer_state::handle_delivered(std::vector<delivery_result>& results) {
  size_t retriable = 0;
  const delivery_result* example = nullptr;
  const int64_t now = now_ns();
  std::string detail;
  for (const auto& r : results) {
    if (!table_->delivered(attempt_report_of(r, detail), now)) continue;
    ++retriable;
    if (!example) example = &r;
  }
  if (retriable > 0)  // one line per report batch, not per key: outages produce thousands
    log_->warn("{} status update(s) hit retriable errors (e.g. key '{}': {}); retrying with backoff", retriable,
               example->key, example->error_text);
  after_change();
}

void coalescer_state::handle_brokers(bool reachable) {
  if (reachable == !table_->holding()) return;
  if (!reachable) {
    table_->hold();
    log_->warn(
        "no broker reachable: holding status updates until one is (each key then writes its latest "
        "value once); a held attempt still ends after {} ms",
        attempt_timeout_ns_ / 1'000'000);
    if (!hold_check_scheduled_) schedule_hold_check();
  } else {
    log_->info("a broker is reachable again: writing the latest value of {} held key(s)", table_->held());
    table_->release(now_ns());
  }
  after_change();
}

void coalescer_state::handle_retry_due(std::vector<retry_request>& due) {
  const int64_t now = now_ns();
  for (const auto& r : due) table_->retry_due(r, now);
  after_change();
}

void coalescer_state::handle_observe(std::vector<observed_status>& observed) {
  for (const auto& o : observed) table_->observed(o);
  after_change();
}

// -- timers --

/// Ships what the burst produced — one produce batch, one schedule batch, one counters publish — and
/// then answers the flushes and drains that are complete, so that whoever was waiting reads metrics
/// that already include everything the flush covered.
void coalescer_state::handle_tick() {
  tick_pending_ = false;
  if (auto sends = table_->take_sends(); !sends.empty()) self_->send(producer_, produce_atom::value, std::move(sends));
  if (auto retries = table_->take_retries(); !retries.empty())
    self_->send(scheduler_, schedule_atom::value, std::move(retries));
  publish();
  answer_completed();
}

void coalescer_state::handle_deadline() {
  if (!drains_.empty()) {
    const drain_report report = table_->fail_all_unresolved();
    publish();  // before the answer, so that the final metrics report, asked for next, counts these
    if (report.failed > 0) {
      std::string sample;
      for (size_t i = 0; i < report.failed_keys.size() && i < 20; ++i)
        sample += (i ? ", " : "") + report.failed_keys[i];
      log_->error("shutdown drain timeout elapsed: {} status update(s) for {} key(s) counted as failed: {}{}",
                  report.failed, report.failed_keys.size(), sample, report.failed_keys.size() > 20 ? ", ..." : "");
    }
    for (auto& rp : drains_) rp.deliver(report);
    drains_.clear();
  }
  after_change();
}

void coalescer_state::handle_hold_check() {
  hold_check_scheduled_ = false;
  if (const size_t expired = table_->expire_held(now_ns(), attempt_timeout_ns_); expired > 0)
    log_->warn(
        "{} held status update(s) reached the attempt timeout with no broker reachable; retrying with "
        "backoff while retries last",
        expired);
  if (table_->holding() || table_->held() > 0) schedule_hold_check();
  after_change();
}

// -- helpers --

void coalescer_state::accept(status_update& u) {
  if (stopping_) {
    // Not accepted, so outside the conservation law; say so once rather than per update.
    if (!refused_logged_) {
      log_->warn("refusing status updates (first key '{}'): the store is stopping", u.key);
      refused_logged_ = true;
    }
    return;
  }
  table_->accept(u, now_ns());
}

/// Takes one batch from the ingest table; true if more wait. `by_wake_up`: serving the wake message.
bool coalescer_state::take_from_ingest(bool by_wake_up) {
  if (!ingest_) return false;
  auto batch = ingest_->take(ingest_batch, by_wake_up);
  table_->count_coalesced_before_accept(batch.replaced);
  const int64_t now = now_ns();
  for (auto& u : batch.updates) table_->accept(u, now);
  return batch.more;
}

/// Everything waiting in the ingest table, before a flush watermark or a drain. An outstanding
/// wake-up stays outstanding (its message is on its way), so there is never a second one.
void coalescer_state::take_all_from_ingest() {
  while (take_from_ingest(false)) {
  }
}

/// The counters to the metrics actor (cumulative: an extra publish is harmless).
void coalescer_state::publish() {
  self_->send(metrics_, publish_atom::value, write_side_report{table_->counters(), table_->take_ack_timings()});
}

/// Runs after every handler: makes sure one tick ships the work of this mailbox burst.
void coalescer_state::after_change() {
  if (tick_pending_) return;
  tick_pending_ = true;
  self_->send(self_, tick_atom::value);
}

/// Answers the flushes whose watermark is resolved, and the drains once nothing is unresolved.
void coalescer_state::answer_completed() {
  if (!flushes_.empty()) {
    auto done = std::remove_if(flushes_.begin(), flushes_.end(), [&](auto& f) {
      if (!table_->resolved_through(f.first)) return false;
      f.second.deliver(ok_atom::value);
      return true;
    });
    flushes_.erase(done, flushes_.end());
  }
  if (stopping_ && !drains_.empty() && table_->unresolved() == 0) {
    for (auto& rp : drains_) rp.deliver(drain_report{});
    drains_.clear();
  }
}

void coalescer_state::schedule_hold_check() {
  hold_check_scheduled_ = true;
  self_->delayed_send(self_, hold_check_interval, hold_check_atom::value);
}

coalescer_actor::behavior_type coalescer(self_ptr self, const coalescer_config& config, producer_actor producer,
                                         retry_scheduler_actor scheduler, metrics_actor metrics,
                                         std::shared_ptr<ingest_table> ingest) {
  self->state.init(self, config, std::move(producer), std::move(scheduler), std::move(metrics), std::move(ingest));
  return self->state.make_behavior();
}

}  // namespace

coalescer_actor spawn_coalescer(caf::actor_system& system, coalescer_config config, producer_actor producer,
                                retry_scheduler_actor scheduler, metrics_actor metrics,
                                std::shared_ptr<ingest_table> ingest) {
  return system.spawn(coalescer, config, std::move(producer), std::move(scheduler), std::move(metrics),
                      std::move(ingest));
}

}  // namespace status_store
