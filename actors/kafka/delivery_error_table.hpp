#pragma once
// Which delivery errors are worth a retry. One table, following Kafka's RetriableException
// hierarchy (clients/.../common/protocol/Errors.java) for broker errors, plus librdkafka's local
// transient errors. librdkafka 2.0.2 treats a few Java-retriable errors as permanent
// (NETWORK_EXCEPTION, CORRUPT_MESSAGE, FENCED/UNKNOWN_LEADER_EPOCH, THROTTLING_QUOTA_EXCEEDED);
// with retries=0 they reach us in the delivery report and *we* retry them, as Java would.
// Pure logic: uses librdkafka's error enum, never a librdkafka call.
#include "messages/delivery_outcome.hpp"

#include <librdkafka/rdkafka.h>

#include <span>
#include <string_view>

namespace status_store {

struct delivery_error_row {
  int code;               // rd_kafka_resp_err_t value
  std::string_view name;  // Kafka's / librdkafka's name
  bool retriable;
  std::string_view reason;  // why, in a few words (shown in the table of docs/retries.md)
};

/// Every error code with an explicit decision. Codes not in the table are non-retriable, like
/// Java's ApiException (UnknownServerException included).
std::span<const delivery_error_row> delivery_error_table();

delivery_outcome classify_delivery_error(rd_kafka_resp_err_t err);

/// What an operator can do about a non-retriable error that configuration causes (empty for the
/// others): appended to the failure's log line, because "Message size too large" alone does not say
/// which of three size limits to change.
std::string_view delivery_error_advice(rd_kafka_resp_err_t err);

/// The broker refused the client's credentials or TLS set-up: _AUTHENTICATION, _SSL,
/// SASL_AUTHENTICATION_FAILED. Not retriable (no retry can fix a password), and counted apart in
/// status-update-authentication-failure-total, because it needs an operator, not a wait.
bool is_authentication_error(rd_kafka_resp_err_t err);

/// The three above in one: what the write path needs to know of a delivery report.
delivery_verdict judge_delivery_error(rd_kafka_resp_err_t err);

}  // namespace status_store
