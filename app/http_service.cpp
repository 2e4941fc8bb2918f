#include "app/http_service.hpp"

#include "app/http_routes.hpp"
#include "config/logging.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace status_store {

namespace {

using clock_type = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How the connection the current thread runs is to be served; set by connection_pool.
enum class connection_kind {
  regular,      // a slot of its own: any request, keep-alive
  health_only,  // every slot was taken: one quick /healthz request, anything else 503
  refused,      // the health lane was full too: 503 without reading
};
thread_local connection_kind current_kind = connection_kind::regular;

/// cpp-httplib's task queue: one thread per connection up to max_connections, then a few more
/// threads for health checks only (the health lane), then an immediate 503 on the accepting
/// thread. A full service never queues work it cannot start, and probes still get an answer.
class connection_pool final : public httplib::TaskQueue {
 public:
  connection_pool(size_t max_connections, size_t health_lane)
      : max_(std::max<size_t>(max_connections, 1)), lane_max_(health_lane) {}

  void enqueue(std::function<void()> job) override {
    {
      std::lock_guard lock{mutex_};
      const auto kind = regular_ < max_     ? connection_kind::regular
                        : lane_ < lane_max_ ? connection_kind::health_only
                                            : connection_kind::refused;
      if (kind != connection_kind::refused) {
        ++(kind == connection_kind::regular ? regular_ : lane_);
        jobs_.push_back({std::move(job), kind});
        // Threads are made on demand and kept: each busy slot has a thread, so no job waits.
        if (threads_.size() < regular_ + lane_) threads_.emplace_back([this] { work(); });
        wake_.notify_one();
        return;
      }
    }
    current_kind = connection_kind::refused;
    job();
    current_kind = connection_kind::regular;
  }

  void shutdown() override {
    {
      std::lock_guard lock{mutex_};
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  struct task {
    std::function<void()> run;
    connection_kind kind;
  };

  void work() {
    for (;;) {
      task next;
      {
        std::unique_lock lock{mutex_};
        wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        next = std::move(jobs_.front());
        jobs_.pop_front();
      }
      current_kind = next.kind;
      next.run();
      std::lock_guard lock{mutex_};
      --(next.kind == connection_kind::regular ? regular_ : lane_);
    }
  }

  const size_t max_, lane_max_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<task> jobs_;
  std::vector<std::thread> threads_;
  size_t regular_ = 0, lane_ = 0;  // jobs queued or running, of each kind
  bool stopping_ = false;
};

int remaining_ms(clock_type::time_point deadline) {
  const auto left = std::chrono::duration_cast<milliseconds>(deadline - clock_type::now()).count();
  return static_cast<int>(std::clamp<int64_t>(left, 0, 1'000'000));
}

bool wait_for(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  int rc;
  do rc = ::poll(&p, 1, timeout_ms);
  while (rc < 0 && errno == EINTR);
  return rc > 0;
}

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if ((peer ? ::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len)
            : ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len)) != 0)
    return;
  char text[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(addr);
    ::inet_ntop(AF_INET, &a.sin_addr, text, sizeof text);
    port = ntohs(a.sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(addr);
    ::inet_ntop(AF_INET6, &a.sin6_addr, text, sizeof text);
    port = ntohs(a.sin6_port);
  }
  ip = text;
}

/// One connection's socket with the service's deadlines: a request must arrive in full within
/// request_timeout of its first byte and within max_request_bytes; each write must progress within
/// write_timeout. Reads are buffered (cpp-httplib reads request lines a byte at a time). Waits for
/// input end early once the server is stopping (`listener` closed), so stop() does not wait out
/// slow clients.
class connection_stream final : public httplib::Stream {
 public:
  connection_stream(int fd, const http_limits& limits, const std::atomic<socket_t>& listener)
      : fd_(fd), limits_(limits), listener_(listener) {}

  /// Waits for the first byte of the next request, at most idle_timeout; false if none came.
  bool await_request() {
    if (begin_ == end_ && !readable_before(clock_type::now() + limits_.idle_timeout)) return false;
    deadline_ = clock_type::now() + limits_.request_timeout;
    request_bytes_ = 0;
    return true;
  }

  bool is_readable() const override { return begin_ < end_ || readable_before(deadline_); }

  /// The request's first line (without its line end) as far as it arrived within the request
  /// deadline and the buffer, without consuming it.
  std::string_view peek_line() {
    if (begin_ > 0) {
      std::copy(buffer_ + begin_, buffer_ + end_, buffer_);
      end_ -= begin_;
      begin_ = 0;
    }
    for (;;) {
      const std::string_view line{buffer_, end_};
      const auto newline = line.find('\n');
      if (newline != std::string_view::npos) return line.substr(0, newline);
      if (end_ == sizeof buffer_ || !readable_before(deadline_)) return line;
      ssize_t n;
      do n = ::recv(fd_, buffer_ + end_, sizeof buffer_ - end_, 0);
      while (n < 0 && errno == EINTR);
      if (n <= 0) return line;
      end_ += static_cast<size_t>(n);
    }
  }
  bool is_writable() const override { return wait_for(fd_, POLLOUT, static_cast<int>(limits_.write_timeout.count())); }

  ssize_t read(char* ptr, size_t size) override {
    if (request_bytes_ >= limits_.max_request_bytes) return -1;
    if (begin_ == end_) {
      if (!is_readable()) return -1;  // the request deadline passed
      ssize_t n;
      do n = ::recv(fd_, buffer_, sizeof buffer_, 0);
      while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
    }
    const size_t n = std::min({size, end_ - begin_, limits_.max_request_bytes - request_bytes_});
    std::copy_n(buffer_ + begin_, n, ptr);
    begin_ += n;
    request_bytes_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { address_of(fd_, true, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address_of(fd_, false, ip, port); }
  socket_t socket() const override { return fd_; }

 private:
  bool readable_before(clock_type::time_point deadline) const {
    for (;;) {  // in slices of 100 ms, to notice a stopping server
      if (listener_ == INVALID_SOCKET) return false;
      const int left = remaining_ms(deadline);
      if (wait_for(fd_, POLLIN, std::min(left, 100))) return true;
      if (left == 0) return false;
    }
  }

  const int fd_;
  const http_limits& limits_;
  const std::atomic<socket_t>& listener_;
  clock_type::time_point deadline_{};
  size_t request_bytes_ = 0;
  char buffer_[4096];
  size_t begin_ = 0, end_ = 0;
};

const char* reason(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Payload Too Large";
    case 414:
      return "URI Too Long";
    case 416:
      return "Range Not Satisfiable";
    case 503:
      return "Service Unavailable";
    default:
      return status < 500 ? "Client Error" : "Server Error";
  }
}

}  // namespace

std::string http_error_json(int code, std::string_view message) {
  return nlohmann::json{{"error_code", code}, {"message", message}}.dump(-1, ' ', false,
                                                                         nlohmann::json::error_handler_t::replace);
}

http_service::http_service(http_limits limits) : limits_(limits) {
  const std::string body =
      http_error_json(503, "too many open connections (" + std::to_string(limits_.max_connections) + "); try again");
  shed_reply_ = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: " +
                std::to_string(body.size()) + "\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body;
  new_task_queue = [this] { return new connection_pool(limits_.max_connections, limits_.health_lane_connections); };
  set_payload_max_length(limits_.max_body_bytes);
  // Errors the library answers itself (a malformed request line, 413, 414, 416) get Connect's JSON
  // body too. Left alone when a handler wrote a body, or when a Range was parsed: the library would
  // apply it to this body.
  set_error_handler(HandlerWithResponse{[](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty() || !req.ranges.empty()) return HandlerResponse::Unhandled;
    res.set_content(http_error_json(res.status, "HTTP " + std::to_string(res.status) + " " + reason(res.status)),
                    "application/json");
    return HandlerResponse::Handled;
  }});
}

int http_service::bind(const std::string& host, int port) {
  const int bound = port == 0 ? bind_to_any_port(host) : (bind_to_port(host, port) ? port : -1);
  // cpp-httplib listens with a backlog of 5 (compiled into Debian's library); listen() again on the
  // listening socket raises it.
  if (bound >= 0 && ::listen(svr_sock_, limits_.listen_backlog) != 0)
    component_logger("http")->warn("cannot raise the listen backlog to {}: {}", limits_.listen_backlog,
                                   std::strerror(errno));
  return bound;
}

void http_service::shed(socket_t sock) {
  // Never blocks: a fresh socket's send buffer holds the reply. Shutting down the write side and
  // draining what already arrived lets the client read the reply instead of a reset.
  (void)::send(sock, shed_reply_.data(), shed_reply_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(sock, SHUT_WR);
  char drain[4096];
  while (::recv(sock, drain, sizeof drain, MSG_DONTWAIT) > 0) {
  }
  ::close(sock);
  const uint64_t count = ++shed_;
  if ((count & (count - 1)) == 0)  // 1, 2, 4, 8, ...: visible, but no log flood under attack
    component_logger("http")->warn("{} connection(s) refused with 503 so far: all {} connection slots were taken",
                                   count, limits_.max_connections);
}

namespace {
// After the library has parsed the Range header: no endpoint serves ranges, and applying many of
// them made a 1 MB answer out of a 6 KB request.
void ignore_ranges(httplib::Request& req) { req.ranges.clear(); }
}  // namespace

bool http_service::serve_health_only(socket_t sock) {
  http_limits quick = limits_;
  quick.idle_timeout = quick.request_timeout = limits_.health_lane_timeout;
  connection_stream stream{sock, quick, svr_sock_};
  if (!stream.await_request() || !is_health_request_line(stream.peek_line())) {
    shed(sock);
    return false;
  }
  bool closed = false;
  const bool ok = process_request(stream, true, closed, ignore_ranges);
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

bool http_service::process_and_close_socket(socket_t sock) {
  if (current_kind == connection_kind::refused) {
    shed(sock);
    return false;
  }
  const int on = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  if (current_kind == connection_kind::health_only) return serve_health_only(sock);
  connection_stream stream{sock, limits_, svr_sock_};
  bool ok = true;
  for (size_t served = 0; served < limits_.max_requests_per_connection && stream.await_request(); ++served) {
    bool closed = false;
    const bool last = served + 1 == limits_.max_requests_per_connection;
    ok = process_request(stream, last, closed, ignore_ranges);
    if (!ok || closed) break;
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

}  // namespace status_store
