#pragma once
// Every compile-time default of status-store in one place. Why a setting's default is what it is, its
// row of config/worker_settings.cpp says (docs/configuration.md's table); the others say it here.
#include <cstdint>
#include <string_view>

namespace status_store::defaults {

// --- Kafka Connect's DistributedConfig, unchanged so a worker file means the same here ----------
inline constexpr std::string_view bootstrap_servers = "localhost:9092";
inline constexpr std::string_view group_id = "connect";  // Connect's client id base fallback
inline constexpr int32_t partitions = 5;
inline constexpr int16_t replication_factor = 3;

// --- the KIP's five retry settings --------------------------------------------------------------
inline constexpr int32_t max_retries = 5;
inline constexpr int64_t initial_backoff_ms = 300;
inline constexpr int64_t max_backoff_ms = 10000;
inline constexpr double backoff_multiplier = 2.0;
inline constexpr double jitter_factor = 0.25;

// --- status-store's own settings ------------------------------------------------------------------
inline constexpr int64_t message_timeout_ms = 15000;
inline constexpr int64_t shutdown_drain_timeout_ms = 10000;
inline constexpr int64_t startup_timeout_ms = 60000;
inline constexpr int32_t trace_max_bytes = 65536;
inline constexpr int32_t history_max_transitions = 16;
inline constexpr int64_t history_max_total = 100000;
inline constexpr int32_t flap_threshold = 3;
inline constexpr int64_t flap_window_ms = 600000;
inline constexpr bool topic_tracking_allow_reset = false;
inline constexpr bool topic_tracking_enable = true;
inline constexpr int64_t alert_webhook_timeout_ms = 10000;
inline constexpr int32_t alert_queue_capacity = 1000;
// The drain's largest value: Integer.MAX_VALUE ms (24.8 days), as Kafka bounds its ms settings and status-store
// its other timeouts; "drain until every update resolves" still fits, and in ns (2.1e15) it is far from int64's
// 9.2e18.
inline constexpr int64_t max_shutdown_drain_timeout_ms = 2147483647;

// --- defaults that are no setting -----------------------------------------------------------------
// The client library 2.0.2 (measured; the oldest supported) with its default reconnect.backoff.max.ms (10 s)
// reports a timed-out message up to ~8 s late while the leader is down; 1 s keeps delivery reports
// close to message.timeout.ms. Kept for every version: it only shortens reconnect waits.
inline constexpr int64_t reconnect_backoff_max_ms = 1000;
// Batching delay of the status producer: a few ms amortize requests under load and are invisible
// next to a status change's human time scale.
inline constexpr int64_t linger_ms = 5;
// The status view logs at most this many malformed records per rule they break per minute, then one
// line saying how many more it held back (status-record-read-errors-total counts every one): anyone who
// can write to the status topic can write a million, and must not be able to fill the logs. Ten
// lines of one kind a minute is enough to find the writer by its offsets.
inline constexpr int32_t malformed_record_log_lines = 10;
inline constexpr int64_t malformed_record_log_interval_ms = 60000;
// A key or reason read from the topic is escaped and cut to this many bytes in a log line: Connect's
// keys are far shorter, and a megabyte key must not become a megabyte log line.
inline constexpr int32_t logged_record_text_max_bytes = 256;

// A webhook's failed alerts (retries exhausted, refused) are logged at most this many a minute, then one
// line says how many more were held back: a receiver that is down for an hour must not fill the logs;
// status-alert-failure-total counts every one.
inline constexpr int32_t alert_failure_log_lines = 10;
inline constexpr int64_t alert_failure_log_interval_ms = 60000;

// --- the HTTP service (`status-store run`, app/rest/http_listener.hpp) -------------------------------
// Open connections (asynchronous: a socket, a timer and a buffer each, no thread); one more gets the
// health lane or an immediate 503. Slow or idle clients then hold slots, never the answers to others.
inline constexpr int32_t http_max_connections = 256;
// Past the bound (or past a client's own share of it, three quarters by default, so one address can
// never take every slot) this many more connections may each send one health check within
// http_health_lane_timeout_ms (anything else, or too slow: 503), so probes are answered even under a
// flood; a slow client holds a lane slot for 250 ms at most. Cheap, as every connection is.
inline constexpr int32_t http_health_lane_connections = 256;
inline constexpr int64_t http_health_lane_timeout_ms = 250;
// A connection that has not started a request within this long is closed (also between keep-alive
// requests); ms, so idle probes and scanners cannot pile up.
inline constexpr int64_t http_idle_timeout_ms = 2000;
// From a request's first byte to its last (body included; a TLS handshake has the same bound): a
// client trickling its request is cut off after this.
inline constexpr int64_t http_request_timeout_ms = 5000;
// Writing one response may take this long (a client that does not read is dropped).
inline constexpr int64_t http_write_timeout_ms = 5000;
// Requests per keep-alive connection before the service closes it.
inline constexpr int32_t http_max_requests_per_connection = 1000;
// The request line and headers together (Jetty's default request header size is 8 KiB; twice that
// leaves room for long Authorization and Cookie headers): past it a 431, or a 414 if the request line
// alone did not fit. Bodies past http_max_body_bytes are a 413: the one PUT here has no body at all.
inline constexpr int32_t http_max_header_bytes = 16 * 1024;
inline constexpr int32_t http_max_body_bytes = 64 * 1024;
// Pending connections the kernel queues for accept() (Linux caps it at net.core.somaxconn).
inline constexpr int32_t http_listen_backlog = 1024;
// Threads that run requests which wait for the store (status queries, bounded by their 5 s timeout),
// so the I/O threads never block; probes do not use them.
inline constexpr int32_t http_handler_threads = 4;
// Event streams (GET /status-store/v1/events) open at once, each also holding a connection slot but
// exempt from the idle timeout while it streams; one more gets a 503 (--max-event-streams).
inline constexpr int32_t http_max_event_streams = 32;
// What one event stream may hold queued and not yet written: past it the stream is closed and counted,
// so a client that reads slower than the topic changes cannot grow the service's memory. A queue with
// nothing waiting takes one batch of any size, so a client that keeps up survives a burst.
inline constexpr int64_t http_event_stream_queue_bytes = 4 * 1024 * 1024;
// A comment line on a quiet event stream this often: proxies and the client see the stream alive, and
// a client that vanished is noticed at the next write.
inline constexpr int64_t http_event_stream_heartbeat_ms = 15000;

}  // namespace status_store::defaults
