#include "actors/credential_failure_watch.hpp"

#include "actors/delivery_error_table.hpp"
#include "config/logging.hpp"

namespace status_store {

bool credential_failure_watch::is_credential_error(rd_kafka_resp_err_t error) {
  return is_authentication_error(error);
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
    return;
  }
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (failing_.load(std::memory_order_relaxed)) return;  // logged once per episode
    failure_ = {error, reason ? reason : ""};
    failing_.store(true, std::memory_order_release);
  }
  log->error("{}: {} ({}): the broker refused this client's credentials or TLS set-up; this is not retried — check "
             "security.protocol, sasl.* and ssl.* (librdkafka keeps reconnecting and logs it again only after a "
             "success)",
             client_, reason ? reason : "", rd_kafka_err2name(error));
}

void credential_failure_watch::clear() {
  if (!failing_.load(std::memory_order_acquire)) return;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    failing_.store(false, std::memory_order_release);
    failure_ = {};
  }
  component_logger("credentials")->info("{}: the broker accepts this client's credentials again", client_);
}

std::optional<credential_failure> credential_failure_watch::failure() const {
  std::lock_guard<std::mutex> guard{mutex_};
  if (!failing_.load(std::memory_order_relaxed)) return std::nullopt;
  return failure_;
}

}  // namespace status_store
