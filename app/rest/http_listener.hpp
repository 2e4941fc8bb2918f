#pragma once
// The HTTP/1.1 listener of `status-store run`: Boost.Beast over Asio owns the framing (every request
// read whole, its body included, before the next one is parsed), the limits and TLS. Connections are
// asynchronous, on an io_context of their own; handlers that may block (status queries) run on a
// small worker pool, probes inline. Past the connection bounds a connection may only ask a probe
// (the health lane), past that it gets an immediate 503. A GET of the event stream becomes a stream of
// its own (app/rest/event_stream_session.hpp), bounded in number and in what it may queue. See
// docs/http-service.md.
#include "config/defaults.hpp"
#include "messages/event_stream_sink.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace boost::asio::ssl {
class context;
}

namespace status_store {

/// How many event streams may be open at once, what one may hold unwritten, and how often a quiet one
/// says it is alive.
struct event_stream_limits {
  size_t max_open = defaults::http_max_event_streams;
  size_t queue_bytes = defaults::http_event_stream_queue_bytes;
  std::chrono::milliseconds heartbeat{defaults::http_event_stream_heartbeat_ms};
};

struct http_limits {
  size_t max_connections = defaults::http_max_connections;
  /// Connections one client address may hold; 0: three quarters of max_connections.
  size_t max_connections_per_client = 0;
  size_t health_lane_connections = defaults::http_health_lane_connections;
  std::chrono::milliseconds health_lane_timeout{defaults::http_health_lane_timeout_ms};
  std::chrono::milliseconds idle_timeout{defaults::http_idle_timeout_ms};
  std::chrono::milliseconds request_timeout{defaults::http_request_timeout_ms};
  std::chrono::milliseconds write_timeout{defaults::http_write_timeout_ms};
  size_t max_requests_per_connection = defaults::http_max_requests_per_connection;
  size_t max_header_bytes = defaults::http_max_header_bytes;
  size_t max_body_bytes = defaults::http_max_body_bytes;
  int listen_backlog = defaults::http_listen_backlog;
  size_t handler_threads = defaults::http_handler_threads;

  size_t per_client_bound() const {
    return max_connections_per_client != 0 ? max_connections_per_client : std::max<size_t>(1, max_connections * 3 / 4);
  }

  event_stream_limits event_streams;  // docs/http-service.md#the-event-stream
};

/// One request, read whole.
struct http_request {
  std::string method;
  std::string target;  // as sent: path and query, still percent-encoded
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string client_address;
  bool secure = false;  // came over TLS

  /// The first header of that name (case-insensitive), or empty.
  std::string_view header(std::string_view name) const;
};

struct http_response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra ones (CORS, WWW-Authenticate, ...)
  /// A GET answered 200 with this becomes an event stream: the head is written, then whatever the
  /// handlers' attach_event_stream source offers, until the client leaves or falls too far behind.
  bool event_stream = false;
};

/// What the listener counts: its connections and its event streams (GET /metrics and
/// GET /status-store/v1/metrics show them; app/listener_metrics.hpp).
struct listener_counts {
  uint64_t connections_open = 0;  // holding a regular slot (event streams included)
  uint64_t connections_max = 0;
  uint64_t health_lane_open = 0;  // past a bound, allowed one health check
  uint64_t shed_total = 0;        // answered with the overload 503 (or closed, on a TLS listener)
  uint64_t streams_open = 0;      // event streams
  uint64_t streams_max = 0;
  uint64_t streams_opened_total = 0;
  uint64_t streams_refused_total = 0;  // past max_event_streams: a 503
  uint64_t streams_dropped_total = 0;  // closed for falling behind: the queue bound or the write timeout
};

struct http_handlers {
  /// Requests answered without waiting for anything (health checks): on the I/O thread, and the only
  /// ones the health lane serves.
  std::function<bool(std::string_view method, std::string_view target)> is_probe;
  /// Every request; for non-probes it runs on the worker pool and may block (bounded by its own timeouts).
  std::function<http_response(const http_request&)> handle;
  /// Joins a new event stream's sink to the events' source and returns what ends its membership
  /// (called once, when the stream ends). Unset: event streams end at once.
  std::function<std::function<void()>(std::shared_ptr<event_stream_sink>)> attach_event_stream;
};

/// {"error_code":N,"message":"..."}: Connect's error body; bytes that are not UTF-8 become U+FFFD.
std::string http_error_json(int code, std::string_view message);

/// "cannot listen on HOST:PORT: address already in use" and the like.
class listen_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class http_listener {
 public:
  http_listener(http_limits limits, http_handlers handlers);
  ~http_listener();
  http_listener(const http_listener&) = delete;
  http_listener& operator=(const http_listener&) = delete;

  /// Binds HOST:PORT (port 0: any free port; an empty host: every interface), TLS when `tls` is given.
  /// Returns the bound port; throws listen_error. Call before start().
  int listen(const std::string& host, int port, std::shared_ptr<boost::asio::ssl::context> tls = nullptr);

  /// Starts accepting on every bound address (the I/O and worker threads).
  void start();

  /// Closes the listening sockets and every connection, and joins the threads. Idempotent.
  void stop();

  /// The connections and event streams open now and counted so far; thread-safe.
  listener_counts counts() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace status_store
