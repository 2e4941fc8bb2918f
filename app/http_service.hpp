#pragma once
// cpp-httplib's server, hardened for a service that faces more than well-behaved clients: one
// thread per connection up to a bound; beyond it a few quick /healthz-only slots, then an
// immediate 503; deadlines for idle
// connections, for receiving a request and for each write, a bounded request size, TCP_NODELAY on
// every connection (keep-alive responses otherwise wait ~40 ms for the client's delayed ACK), a
// listen backlog for bursts, no Range handling, and error bodies in Connect's JSON form.
// See docs/http-service.md.
#include "config/defaults.hpp"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace status_store {

struct http_limits {
  size_t max_connections = defaults::http_max_connections;
  size_t health_lane_connections = defaults::http_health_lane_connections;
  std::chrono::milliseconds health_lane_timeout{defaults::http_health_lane_timeout_ms};
  std::chrono::milliseconds idle_timeout{defaults::http_idle_timeout_ms};
  std::chrono::milliseconds request_timeout{defaults::http_request_timeout_ms};
  std::chrono::milliseconds write_timeout{defaults::http_write_timeout_ms};
  size_t max_requests_per_connection = defaults::http_max_requests_per_connection;
  size_t max_request_bytes = defaults::http_max_request_bytes;
  size_t max_body_bytes = defaults::http_max_body_bytes;
  int listen_backlog = defaults::http_listen_backlog;
};

/// {"error_code":N,"message":"..."} — Connect's error body; bytes that are not UTF-8 become U+FFFD.
std::string http_error_json(int code, std::string_view message);

class http_service : public httplib::Server {
 public:
  explicit http_service(http_limits limits = {});

  /// Binds HOST:PORT (port 0: any free port) with the configured backlog; the bound port, or -1.
  int bind(const std::string& host, int port);

  /// Connections answered with the overload 503 so far.
  uint64_t shed_connections() const { return shed_.load(); }

 private:
  // Replaces cpp-httplib's per-connection loop (the library calls it on a pool thread for each
  // accepted socket) with one that enforces the limits above; requests still go through the
  // library's parser, routing and response writer (process_request).
  bool process_and_close_socket(socket_t sock) override;
  bool serve_health_only(socket_t sock);
  void shed(socket_t sock);

  http_limits limits_;
  std::string shed_reply_;  // the whole 503 response, made once
  std::atomic<uint64_t> shed_{0};
};

}  // namespace status_store
