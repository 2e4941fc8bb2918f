#include "actors/alert_sender_actor.hpp"

#include "actors/policy/alert_queue.hpp"
#include "actors/policy/log_rate_limiter.hpp"
#include "actors/policy/log_text.hpp"
#include "config/defaults.hpp"
#include "config/logging.hpp"
#include "messages/codec/alert_document.hpp"

#include "caf/actor_cast.hpp"
#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include <chrono>
#include <optional>

namespace status_store {

namespace {

/// An alert as a log line may name it: escaped and bounded (a connector's name is anyone's bytes).
std::string loggable(const alert_event& alert) {
  return escape_for_log(alert_text(alert), static_cast<std::size_t>(defaults::logged_record_text_max_bytes));
}

class alert_sender_state {
 public:
  alert_sender_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.alert-sender";

  // Typed with the transport's answers and the backoff timer; the view holds alert_sink_actor only.
  using self_ptr = alert_sender_actor::stateful_pointer<alert_sender_state>;

  ~alert_sender_state() {
    if (log_ && pending() > 0) log_->warn("stopped with {} alert(s) not sent to {}", pending(), receiver_);
  }

  void init(self_ptr self, alert_sender_config config, std::shared_ptr<alert_transport> transport,
            metrics_actor metrics) {
    self_ = self;
    queue_ = alert_queue{config.queue_capacity};
    jitter_.emplace(config.jitter_seed);
    config_ = std::move(config);
    transport_ = std::move(transport);
    receiver_ = transport_->describe();
    metrics_ = std::move(metrics);
    log_ = component_logger("alert-sender");
  }

  alert_sender_actor::behavior_type make_behavior() {
    return {
        [this](alert_atom, std::vector<alert_event>& alerts) { handle_alerts(alerts); },
        [this](posted_atom, uint64_t attempt, const alert_post_result& result) { handle_posted(attempt, result); },
        [this](fire_atom, uint64_t attempt) { handle_backoff_over(attempt); },
    };
  }

 private:
  /// The alert being sent or backing off, and which attempt of it the next answer must name.
  struct current_alert {
    alert_event alert;
    std::string body;
    uint32_t retries = 0;
    uint64_t attempt = 0;
  };

  // -- handlers for peers --
  void handle_alerts(std::vector<alert_event>& alerts);
  void handle_posted(uint64_t attempt, const alert_post_result& result);

  // -- timers --
  void handle_backoff_over(uint64_t attempt);

  // -- helpers --
  void send_next();
  void post();
  void retry_later(const alert_post_result& result);
  void give_up(const alert_post_result& result);
  void warn_limited(std::string_view reason, const std::string& line);
  void publish();
  uint64_t pending() const { return queue_.size() + (current_ ? 1 : 0); }
  int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(self_->clock().now().time_since_epoch()).count();
  }

  self_ptr self_ = nullptr;
  alert_sender_config config_;
  std::shared_ptr<alert_transport> transport_;
  std::string receiver_;  // the transport's origin: all a log line says of the receiver
  metrics_actor metrics_;
  std::shared_ptr<spdlog::logger> log_;
  std::optional<jitter_source> jitter_;
  alert_queue queue_{1};
  std::optional<current_alert> current_;
  uint64_t last_attempt_ = 0;
  alert_counters counters_;
  log_rate_limiter warnings_{{defaults::alert_failure_log_lines, defaults::alert_failure_log_interval_ms * 1'000'000}};
};

// -- handlers for peers --

void alert_sender_state::handle_alerts(std::vector<alert_event>& alerts) {
  for (auto& alert : alerts) {
    ++counters_.raised;
    if (const auto dropped = queue_.push(std::move(alert))) {
      ++counters_.dropped;
      warn_limited("dropped", "alert queue full (" + std::to_string(queue_.capacity()) + " waiting for " + receiver_ +
                                  "): dropped the oldest, " + loggable(*dropped));
    }
    send_next();  // an idle sender takes each at once: the queue bounds what waits, not what arrives
  }
  publish();
}

void alert_sender_state::handle_posted(uint64_t attempt, const alert_post_result& result) {
  if (!current_ || attempt != current_->attempt) return;  // an answer to an attempt no longer current
  if (result.delivered()) {
    ++counters_.sent;
    log_->debug("alert sent to {} (HTTP {}): {}", receiver_, result.http_status, loggable(current_->alert));
    current_.reset();
  } else if (result.retriable() && current_->retries < static_cast<uint32_t>(config_.retry.max_retries)) {
    retry_later(result);
  } else {
    give_up(result);
    current_.reset();
  }
  send_next();
  publish();
}

// -- timers --

void alert_sender_state::handle_backoff_over(uint64_t attempt) {
  if (!current_ || attempt != current_->attempt) return;
  ++counters_.retried;
  post();
  publish();
}

// -- helpers --

/// Starts the oldest waiting alert unless one is being sent: alerts reach the receiver in order.
void alert_sender_state::send_next() {
  if (current_) return;
  auto next = queue_.pop();
  if (!next) return;
  std::string body = alert_document(*next, config_.status_topic);
  current_ = current_alert{std::move(*next), std::move(body), 0, 0};
  post();
}

/// One attempt of the current alert; its answer comes back as a message naming the attempt.
void alert_sender_state::post() {
  const uint64_t attempt = current_->attempt = ++last_attempt_;
  const auto me = caf::actor_cast<alert_sender_actor>(self_);
  transport_->post(current_->body, [me, attempt](alert_post_result result) {
    caf::anon_send(me, posted_atom_v, attempt, std::move(result));
  });
}

std::string outcome_of(const alert_post_result& result) {
  return result.http_status != 0 ? "HTTP " + std::to_string(result.http_status) : result.error;
}

void alert_sender_state::retry_later(const alert_post_result& result) {
  const auto delay = backoff_delay(config_.retry, current_->retries, jitter_->next());
  ++current_->retries;
  log_->debug("alert to {} not delivered ({}); retry {} of {} in {:.0f} ms", receiver_, outcome_of(result),
              current_->retries, config_.retry.max_retries, std::chrono::duration<double, std::milli>(delay).count());
  self_->delayed_send(self_, delay, fire_atom_v, current_->attempt);
}

void alert_sender_state::give_up(const alert_post_result& result) {
  ++counters_.failed;
  warn_limited("failed", "alert not delivered to " + receiver_ + " after " + std::to_string(current_->retries + 1) +
                             " attempt(s), lost (" + outcome_of(result) + "): " + loggable(current_->alert));
}

/// A warning at most so often per reason (config/defaults.hpp); then one line of how many were held back.
void alert_sender_state::warn_limited(std::string_view reason, const std::string& line) {
  const int64_t now = now_ns();
  const auto summarize = [this](const log_rate_limiter::summary& s) {
    log_->warn("... and {} more alert(s) {} in the last {:.1f} s; status-alert-{}-total counts every one", s.suppressed,
               s.reason, std::chrono::duration<double>(std::chrono::nanoseconds{s.window_ns}).count(),
               s.reason == "failed" ? "failure" : s.reason);
  };
  for (const auto& s : warnings_.take_due(now)) summarize(s);
  const auto verdict = warnings_.admit(reason, now);
  if (verdict.closed) summarize(*verdict.closed);
  if (verdict.write) log_->warn("{}", line);
}

void alert_sender_state::publish() {
  counters_.pending = pending();
  self_->send(metrics_, publish_atom_v, counters_);
}

alert_sender_actor::behavior_type alert_sender(alert_sender_state::self_ptr self, alert_sender_config config,
                                               std::shared_ptr<alert_transport> transport, metrics_actor metrics) {
  self->state.init(self, std::move(config), std::move(transport), std::move(metrics));
  return self->state.make_behavior();
}

}  // namespace

alert_sender_actor spawn_alert_sender(caf::actor_system& system, alert_sender_config config,
                                      std::shared_ptr<alert_transport> transport, metrics_actor metrics) {
  return system.spawn(alert_sender, std::move(config), std::move(transport), std::move(metrics));
}

}  // namespace status_store
