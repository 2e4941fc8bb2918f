#pragma once
// Every compile-time default of status-store in one place, each with the reason it has that value.
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

// --- status-store's own ---------------------------------------------------------------------------
// One attempt (the client library's message.timeout.ms) is bounded at 15 s: long enough to ride out a
// leader election on a real cluster (broker.session.timeout.ms defaults to 9 s) within one attempt,
// short enough that the 6 attempts of the default retry policy give up within about 100 s of an
// outage instead of Java's 120 s per attempt (delivery.timeout.ms) times unbounded retries.
inline constexpr int64_t message_timeout_ms = 15000;
// The client library 2.0.2 (measured; the oldest supported) with its default reconnect.backoff.max.ms (10 s)
// reports a timed-out message up to ~8 s late while the leader is down; 1 s keeps delivery reports
// close to message.timeout.ms. Kept for every version: it only shortens reconnect waits.
inline constexpr int64_t reconnect_backoff_max_ms = 1000;
// Batching delay of the status producer: a few ms amortize requests under load and are invisible
// next to a status change's human time scale.
inline constexpr int64_t linger_ms = 5;
// stop() drains for at most this long; then what is left is counted failed and logged by key.
inline constexpr int64_t shutdown_drain_timeout_ms = 10000;
// Start-up (topic set-up and replay to the end) gives up after this long. Connect retries for up
// to 15 minutes and blocks the worker meanwhile; a minute is enough for brokers that are starting
// and for replaying millions of records, and a clear error beats a silent hang.
inline constexpr int64_t startup_timeout_ms = 60000;
// A trace longer than this many bytes is cut (head and tail kept, marked) so its status is written at
// all: Connect sends the whole trace, and a record above the broker's max.message.bytes (1 MB by
// default) is refused as non-retriable, losing the FAILED status. 64 KiB holds any ordinary Java
// trace whole, and even if JSON escaping grew every byte sixfold (control characters become
// \u00XX) the record would stay under 1 MB.
inline constexpr int32_t trace_max_bytes = 65536;
// PUT /connectors/{name}/topics/reset deletes what a worker recorded; Connect allows it by default, but a
// status store serving a read-mostly API refuses it unless the operator says otherwise.
inline constexpr bool topic_tracking_allow_reset = false;
// GET /connectors/{name}/topics and the reset are served unless the operator turns topic tracking off,
// as in Connect (topic.tracking.enable defaults to true there too).
inline constexpr bool topic_tracking_enable = true;

// --- the HTTP service (`status-store run`) ------------------------------------------------------------
// One thread per open connection up to this many; a connection beyond it gets an immediate 503.
// Slow or idle clients then hold threads, never the answers to everyone else (health probes).
inline constexpr int32_t http_max_connections = 256;
// With every one of them taken, this many more connections may each send one GET /healthz within
// http_health_lane_timeout_ms (anything else, or too slow: 503), so liveness probes are answered
// even then; a slow client holds such a slot for 250 ms at most.
inline constexpr int32_t http_health_lane_connections = 4;
inline constexpr int64_t http_health_lane_timeout_ms = 250;
// A connection that has not started a request within this long is closed (also between keep-alive
// requests); ms, so idle probes and scanners cannot pile up.
inline constexpr int64_t http_idle_timeout_ms = 2000;
// From a request's first byte to its last: a client trickling its request is cut off after this.
inline constexpr int64_t http_request_timeout_ms = 5000;
// A write that makes no progress for this long (a client that does not read) ends the connection.
inline constexpr int64_t http_write_timeout_ms = 5000;
// Requests per keep-alive connection before the service closes it (cpp-httplib's default is 5).
inline constexpr int32_t http_max_requests_per_connection = 1000;
// Request line, headers and body together; more is cut off. GET requests carry no body, and the
// library itself answers 414 past 8 KiB of request line and 413 past http_max_body_bytes.
inline constexpr int32_t http_max_request_bytes = 256 * 1024;
inline constexpr int32_t http_max_body_bytes = 64 * 1024;
// Pending connections the kernel queues for accept() (cpp-httplib compiles in 5; Linux caps it at
// net.core.somaxconn).
inline constexpr int32_t http_listen_backlog = 1024;

}  // namespace status_store::defaults
