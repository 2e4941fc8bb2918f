// The delivery-error decision table: one row per code with an explicit decision; every other code is
// non-retriable, like a Java ApiException that is not a RetriableException. Broker codes follow
// Kafka's RetriableException set (Errors.java), librdkafka's local codes what they mean; codes newer
// than librdkafka 2.0.2 (the oldest supported) are written as numbers, so every supported version
// compiles the same table. The decisions that differ from either source, and why: docs/retries.md,
// "Which errors are retried", whose copy of the table tests/unit/docs_error_table_test.cpp keeps equal.
#include "actors/kafka/delivery_error_table.hpp"

#include <algorithm>

namespace status_store {

namespace {

// A plain array so the row count is deduced; order: local codes, then broker codes, by code.
constexpr delivery_error_row table[] = {
    // --- librdkafka-local errors ------------------------------------------------------------------
    {RD_KAFKA_RESP_ERR__BAD_MSG, "_BAD_MSG", false, "malformed message: the same bytes fail again"},
    {RD_KAFKA_RESP_ERR__BAD_COMPRESSION, "_BAD_COMPRESSION", false, "invalid compressed data"},
    {RD_KAFKA_RESP_ERR__DESTROY, "_DESTROY", false, "producer handle is being destroyed"},
    {RD_KAFKA_RESP_ERR__TRANSPORT, "_TRANSPORT", true, "connection lost (Java NetworkException)"},
    {RD_KAFKA_RESP_ERR__RESOLVE, "_RESOLVE", true, "broker host name did not resolve (DNS blip)"},
    {RD_KAFKA_RESP_ERR__MSG_TIMED_OUT, "_MSG_TIMED_OUT", true, "message.timeout.ms expired (Java TimeoutException)"},
    {RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION, "_UNKNOWN_PARTITION", true,
     "partition not in metadata yet (UnknownTopicOrPartition)"},
    {RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC, "_UNKNOWN_TOPIC", true, "topic not in metadata yet (UnknownTopicOrPartition)"},
    {RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, "_ALL_BROKERS_DOWN", true, "no broker reachable: wait for reconnect"},
    {RD_KAFKA_RESP_ERR__INVALID_ARG, "_INVALID_ARG", false, "invalid argument or configuration"},
    {RD_KAFKA_RESP_ERR__TIMED_OUT, "_TIMED_OUT", true, "local operation timed out"},
    {RD_KAFKA_RESP_ERR__QUEUE_FULL, "_QUEUE_FULL", true, "producer queue full: back off, then resend"},
    {RD_KAFKA_RESP_ERR__NODE_UPDATE, "_NODE_UPDATE", true, "broker address changed"},
    {RD_KAFKA_RESP_ERR__SSL, "_SSL", false, "TLS failure: fix certificates or config"},
    {RD_KAFKA_RESP_ERR__STATE, "_STATE", false, "client in an erroneous state"},
    {RD_KAFKA_RESP_ERR__NOT_IMPLEMENTED, "_NOT_IMPLEMENTED", false, "operation not implemented"},
    {RD_KAFKA_RESP_ERR__AUTHENTICATION, "_AUTHENTICATION", false,
     "authentication failed (Java AuthenticationException)"},
    {RD_KAFKA_RESP_ERR__TIMED_OUT_QUEUE, "_TIMED_OUT_QUEUE", true, "timed out in the local queue"},
    {RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE, "_UNSUPPORTED_FEATURE", false, "broker lacks a required feature"},
    {RD_KAFKA_RESP_ERR__RETRY, "_RETRY", true, "librdkafka asks for a retry"},
    {RD_KAFKA_RESP_ERR__PURGE_QUEUE, "_PURGE_QUEUE", false, "taken back by our outage hold: held, not failed"},
    {RD_KAFKA_RESP_ERR__PURGE_INFLIGHT, "_PURGE_INFLIGHT", false, "purged in flight by our own shutdown"},
    {RD_KAFKA_RESP_ERR__FATAL, "_FATAL", false, "fatal producer error: instance unusable"},
    {RD_KAFKA_RESP_ERR__FENCED, "_FENCED", false, "instance fenced by a newer one"},
    {-139, "_LOG_TRUNCATION", false, "consumer-side log truncation: not a produce error"},
    {-138, "_INVALID_DIFFERENT_RECORD", true, "another record of the batch was invalid: this one is fine"},
    {-137, "_DESTROY_BROKER", true, "its broker left the cluster: re-send to the new one"},

    // --- broker errors ----------------------------------------------------------------------------
    {RD_KAFKA_RESP_ERR_UNKNOWN, "UNKNOWN", false, "UnknownServerException: not retriable in Java"},
    {RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE, "OFFSET_OUT_OF_RANGE", false, "not a produce error: re-send cannot fix it"},
    {RD_KAFKA_RESP_ERR_INVALID_MSG, "INVALID_MSG", true, "CORRUPT_MESSAGE: CRC error in transit (Java retriable)"},
    {RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART, "UNKNOWN_TOPIC_OR_PART", true,
     "metadata not propagated yet (Java retriable)"},
    {RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE, "LEADER_NOT_AVAILABLE", true, "leader election in progress"},
    {RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION, "NOT_LEADER_FOR_PARTITION", true,
     "NOT_LEADER_OR_FOLLOWER: leadership moved"},
    {RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, "REQUEST_TIMED_OUT", true, "broker did not answer in time"},
    {RD_KAFKA_RESP_ERR_BROKER_NOT_AVAILABLE, "BROKER_NOT_AVAILABLE", true,
     "broker restarting (not Retriable in Java; transient)"},
    {RD_KAFKA_RESP_ERR_REPLICA_NOT_AVAILABLE, "REPLICA_NOT_AVAILABLE", true, "replica not available yet"},
    {RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, "MSG_SIZE_TOO_LARGE", false,
     "record larger than allowed: same bytes fail again"},
    {RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION, "NETWORK_EXCEPTION", true,
     "disconnected before the response (Java retriable)"},
    {RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION, "TOPIC_EXCEPTION", false, "invalid topic name"},
    {RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE, "RECORD_LIST_TOO_LARGE", false, "batch larger than the segment size"},
    {RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, "NOT_ENOUGH_REPLICAS", true, "ISR below min.insync.replicas (not written)"},
    {RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS_AFTER_APPEND, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", true,
     "ISR shrank after append (maybe written)"},
    {RD_KAFKA_RESP_ERR_INVALID_REQUIRED_ACKS, "INVALID_REQUIRED_ACKS", false,
     "acks setting rejected: configuration error"},
    {RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED, "TOPIC_AUTHORIZATION_FAILED", false, "no ACL to write the topic"},
    {RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED, "CLUSTER_AUTHORIZATION_FAILED", false, "no cluster ACL"},
    {RD_KAFKA_RESP_ERR_INVALID_TIMESTAMP, "INVALID_TIMESTAMP", false, "timestamp outside the broker's accepted range"},
    {RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION, "UNSUPPORTED_VERSION", false, "API version not supported by the broker"},
    {RD_KAFKA_RESP_ERR_NOT_CONTROLLER, "NOT_CONTROLLER", true, "controller moved (Java retriable)"},
    {RD_KAFKA_RESP_ERR_UNSUPPORTED_FOR_MESSAGE_FORMAT, "UNSUPPORTED_FOR_MESSAGE_FORMAT", false,
     "message format not supported by the topic"},
    {RD_KAFKA_RESP_ERR_POLICY_VIOLATION, "POLICY_VIOLATION", false, "rejected by a broker policy"},
    {RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER, "OUT_OF_ORDER_SEQUENCE_NUMBER", false,
     "idempotence error (idempotence is off)"},
    {RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH, "INVALID_PRODUCER_EPOCH", false, "producer epoch fenced"},
    {RD_KAFKA_RESP_ERR_CONCURRENT_TRANSACTIONS, "CONCURRENT_TRANSACTIONS", true,
     "transaction in progress (Java retriable)"},
    {RD_KAFKA_RESP_ERR_KAFKA_STORAGE_ERROR, "KAFKA_STORAGE_ERROR", true, "broker disk error; partition moves"},
    {RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED, "SASL_AUTHENTICATION_FAILED", false, "SASL credentials rejected"},
    {RD_KAFKA_RESP_ERR_UNKNOWN_PRODUCER_ID, "UNKNOWN_PRODUCER_ID", false, "idempotence error (idempotence is off)"},
    {RD_KAFKA_RESP_ERR_LISTENER_NOT_FOUND, "LISTENER_NOT_FOUND", true, "listener not yet known to the broker"},
    {RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH, "FENCED_LEADER_EPOCH", true, "stale leader epoch: refresh metadata"},
    {RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH, "UNKNOWN_LEADER_EPOCH", true, "broker behind on leader epoch"},
    {RD_KAFKA_RESP_ERR_UNSUPPORTED_COMPRESSION_TYPE, "UNSUPPORTED_COMPRESSION_TYPE", false,
     "compression type not supported"},
    {RD_KAFKA_RESP_ERR_OFFSET_NOT_AVAILABLE, "OFFSET_NOT_AVAILABLE", true, "high watermark not caught up"},
    {RD_KAFKA_RESP_ERR_PREFERRED_LEADER_NOT_AVAILABLE, "PREFERRED_LEADER_NOT_AVAILABLE", true,
     "preferred leader not available yet"},
    {RD_KAFKA_RESP_ERR_ELIGIBLE_LEADERS_NOT_AVAILABLE, "ELIGIBLE_LEADERS_NOT_AVAILABLE", true,
     "no eligible leader yet"},
    {RD_KAFKA_RESP_ERR_INVALID_RECORD, "INVALID_RECORD", false, "broker failed to validate the record"},
    {RD_KAFKA_RESP_ERR_THROTTLING_QUOTA_EXCEEDED, "THROTTLING_QUOTA_EXCEEDED", true,
     "quota exceeded: back off (Java retriable)"},
    {RD_KAFKA_RESP_ERR_PRODUCER_FENCED, "PRODUCER_FENCED", false, "transactional producer fenced"},
    {100, "UNKNOWN_TOPIC_ID", true, "topic id not known yet (Java retriable)"},
    {103, "INCONSISTENT_TOPIC_ID", true, "topic id changed under us (Java retriable)"},
    {129, "REBOOTSTRAP_REQUIRED", true, "KIP-1102: client re-bootstraps, then a re-send works"},
};

}  // namespace

std::span<const delivery_error_row> delivery_error_table() { return table; }

delivery_outcome classify_delivery_error(rd_kafka_resp_err_t err) {
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return delivery_outcome::success;
  if (err == RD_KAFKA_RESP_ERR__PURGE_QUEUE) return delivery_outcome::not_sent;
  const auto rows = delivery_error_table();
  const auto it = std::find_if(rows.begin(), rows.end(),
                               [err](const delivery_error_row& row) { return row.code == static_cast<int>(err); });
  if (it != rows.end() && it->retriable) return delivery_outcome::retriable;
  return delivery_outcome::non_retriable;
}

std::string_view delivery_error_advice(rd_kafka_resp_err_t err) {
  switch (err) {
    case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE:
      return "the record is larger than the topic's max.message.bytes or the producer's message.max.bytes; "
             "a long trace is the usual cause: lower status.storage.trace.max.bytes below those limits";
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
      return "the worker's principal needs Write (and Describe) on the status topic";
    case RD_KAFKA_RESP_ERR__AUTHENTICATION:
    case RD_KAFKA_RESP_ERR__SSL:
    case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
      return "the broker refused the client's credentials or TLS set-up: check security.protocol, sasl.* and ssl.* "
             "(status-store.credentials logs the broker's reason)";
    default:
      return {};
  }
}

bool is_authentication_error(rd_kafka_resp_err_t err) {
  return err == RD_KAFKA_RESP_ERR__AUTHENTICATION || err == RD_KAFKA_RESP_ERR__SSL ||
         err == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED;
}

delivery_verdict judge_delivery_error(rd_kafka_resp_err_t err) {
  return delivery_verdict{classify_delivery_error(err), is_authentication_error(err),
                          std::string{delivery_error_advice(err)}};
}

}  // namespace status_store
