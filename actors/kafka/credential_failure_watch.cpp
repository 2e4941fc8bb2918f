#include "actors/kafka/credential_failure_watch.hpp"

#include "actors/kafka/delivery_error_table.hpp"
#include "config/logging.hpp"

namespace status_store {

bool credential_failure_watch::is_credential_error(rd_kafka_resp_err_t error) { return is_authentication_error(error); }

bool credential_failure_watch::is_connection_error(rd_kafka_resp_err_t error) {
  return error == RD_KAFKA_RESP_ERR__TRANSPORT || error == RD_KAFKA_RESP_ERR__RESOLVE;
}

void credential_failure_watch::install(rd_kafka_conf_t* conf) {
  rd_kafka_conf_set_opaque(conf, this);
  rd_kafka_conf_set_error_cb(conf, &credential_failure_watch::error_callback);
}

void credential_failure_watch::error_callback(rd_kafka_t*, int error, const char* reason, void* opaque) {
  static_cast<credential_failure_watch*>(opaque)->on_error(static_cast<rd_kafka_resp_err_t>(error), reason);
}

void credential_failure_watch::on_error(rd_kafka_resp_err_t error, const char* reason) {
  static const auto log = component_logger("credentials");
  if (!is_credential_error(error)) {
    // What librdkafka logs for an error when no error callback is set.
    static const auto librdkafka_log = component_logger("librdkafka");
    librdkafka_log->error("[{}] ERROR: {}: {}", client_, rd_kafka_err2name(error), reason ? reason : "");
    if (is_connection_error(error)) {
      end_episode(std::string{"a connection failed for another reason ("} + rd_kafka_err2name(error) +
                  "): timeouts are retried again until the broker refuses the credentials anew");
    }
    return;
  }
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (failing_.load(std::memory_order_relaxed)) return;  // logged once per episode
    failure_ = {error, reason ? reason : ""};
    failing_.store(true, std::memory_order_release);
  }
  log->error(
      "{}: {} ({}): the broker refused this client's credentials or TLS set-up; this is not retried — check "
      "security.protocol, sasl.* and ssl.* (librdkafka keeps reconnecting; logged again only after a success "
      "or a connection failure of another kind)",
      client_, reason ? reason : "", rd_kafka_err2name(error));
}

void credential_failure_watch::clear() { end_episode("the broker accepts this client's credentials again"); }

bool credential_failure_watch::end_episode(std::string_view why) {
  if (!failing_.load(std::memory_order_acquire)) return false;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (!failing_.load(std::memory_order_relaxed)) return false;  // another thread ended it first
    failing_.store(false, std::memory_order_release);
    failure_ = {};
  }
  component_logger("credentials")->info("{}: {}", client_, why);
  return true;
}

std::optional<credential_failure> credential_failure_watch::failure() const {
  std::lock_guard<std::mutex> guard{mutex_};
  if (!failing_.load(std::memory_order_relaxed)) return std::nullopt;
  return failure_;
}

}  // namespace status_store
