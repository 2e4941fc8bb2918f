#include "app/rest/http_listener.hpp"

#include "app/rest/http_session.hpp"
#include "config/logging.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <nlohmann/json.hpp>

#include <cctype>
#include <mutex>
#include <thread>

namespace status_store {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

std::string_view http_request::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() && std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return value;
  }
  return {};
}

std::string http_error_json(int code, std::string_view message) {
  return nlohmann::json{{"error_code", code}, {"message", message}}.dump(-1, ' ', false,
                                                                         nlohmann::json::error_handler_t::replace);
}

namespace {

struct endpoint {
  std::unique_ptr<tcp::acceptor> acceptor;
  std::unique_ptr<asio::steady_timer> pause;  // after a failed accept
  std::shared_ptr<asio::ssl::context> tls;
  std::string name;  // host:port, for logs
};

std::string lowercase_first(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

}  // namespace

struct http_listener::impl {
  impl(http_limits limits, http_handlers handlers)
      : workers{std::max<size_t>(1, limits.handler_threads)}, shared{std::make_shared<http_shared_state>()} {
    shared->limits = limits;
    shared->handlers = std::move(handlers);
    shared->workers = &workers;
    const std::string body =
        http_error_json(503, "too many open connections (" + std::to_string(limits.max_connections) + "); try again");
    shared->shed_reply = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: " +
                         std::to_string(body.size()) + "\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body;
  }

  void accept(endpoint& at) {
    at.acceptor->async_accept(asio::make_strand(io), [this, &at](boost::system::error_code ec, tcp::socket s) {
      if (ec == asio::error::operation_aborted || !at.acceptor->is_open()) return;
      if (!ec) return start_session(std::move(s), at.tls), accept(at);
      // Out of file descriptors and the like: pause, so accepting does not spin, then go on.
      const uint64_t count = ++accept_errors;
      if ((count & (count - 1)) == 0)
        component_logger("http")->warn("accepting a connection on {} failed ({} time(s) so far): {}", at.name, count,
                                       ec.message());
      at.pause->expires_after(std::chrono::milliseconds{100});
      at.pause->async_wait([this, &at](boost::system::error_code) { accept(at); });
    });
  }

  void start_session(tcp::socket socket, const std::shared_ptr<asio::ssl::context>& tls) {
    boost::system::error_code ec;
    const auto remote = socket.remote_endpoint(ec);
    if (ec) return;  // already gone
    socket.set_option(tcp::no_delay(true), ec);
    std::string client = remote.address().to_string();
    auto slot = shared->admit(client);
    if (slot.kind() == connection_kind::refused) {
      shed(std::move(socket), tls != nullptr);
      return;
    }
    if (tls)
      std::make_shared<http_session<tls_stream>>(tls_stream{std::move(socket), *tls}, shared, std::move(slot),
                                                 std::move(client), tls)
          ->run();
    else
      std::make_shared<http_session<plain_stream>>(std::move(socket), shared, std::move(slot), std::move(client),
                                                   nullptr)
          ->run();
  }

  void shed(tcp::socket socket, bool tls) {
    shared->note_shed();
    // A TLS client cannot read a plain 503: it is closed at once. Otherwise the reply goes out without
    // reading the request; then the write side is shut and what arrived drained, so the client reads
    // the reply instead of a reset.
    if (tls) return;
    std::make_shared<shed_connection>(std::move(socket), shared)->run();
  }

  // Destroyed last: sessions still queued in it at shutdown go with it, giving their slots back.
  asio::io_context io{2};
  asio::thread_pool workers;
  std::shared_ptr<http_shared_state> shared;
  std::vector<endpoint> endpoints;
  std::vector<std::thread> io_threads;
  std::atomic<uint64_t> accept_errors{0};
  bool started = false, stopped = false;
};

http_listener::http_listener(http_limits limits, http_handlers handlers)
    : impl_{std::make_unique<impl>(limits, std::move(handlers))} {}

http_listener::~http_listener() { stop(); }

int http_listener::listen(const std::string& host, int port, std::shared_ptr<asio::ssl::context> tls) {
  const std::string name = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
  boost::system::error_code ec;
  const auto address = host.empty() ? asio::ip::address{asio::ip::address_v6::any()} : asio::ip::make_address(host, ec);
  if (ec) throw listen_error("cannot listen on " + name + ": not an IP address");
  auto acceptor = std::make_unique<tcp::acceptor>(impl_->io);
  tcp::endpoint at{address, static_cast<unsigned short>(port)};
  acceptor->open(at.protocol(), ec);
  if (host.empty()) {  // every interface: IPv6 and IPv4 on one socket, or IPv4 alone where IPv6 is off
    if (!ec) acceptor->set_option(asio::ip::v6_only(false), ec);
    if (ec) {
      ec.clear();
      at = tcp::endpoint{asio::ip::address_v4::any(), static_cast<unsigned short>(port)};
      acceptor = std::make_unique<tcp::acceptor>(impl_->io);
      acceptor->open(at.protocol(), ec);
    }
  }
  // SO_REUSEADDR only (a restart may bind while old connections linger in TIME_WAIT); never
  // SO_REUSEPORT, which would let a second process share the port.
  if (!ec) acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor->bind(at, ec);
  if (!ec) acceptor->listen(impl_->shared->limits.listen_backlog, ec);
  if (ec) throw listen_error("cannot listen on " + name + ": " + lowercase_first(ec.message()));
  const int bound = acceptor->local_endpoint().port();
  auto pause = std::make_unique<asio::steady_timer>(impl_->io);
  impl_->endpoints.push_back({std::move(acceptor), std::move(pause), std::move(tls), name});
  return bound;
}

void http_listener::start() {
  if (impl_->started) return;
  impl_->started = true;
  for (auto& at : impl_->endpoints) impl_->accept(at);
  // Two I/O threads: one core's worth of parsing and TLS, and a second so a long write or handshake
  // never delays the health checks.
  auto& io = impl_->io;
  for (int i = 0; i < 2; ++i) impl_->io_threads.emplace_back([&io] { io.run(); });
}

void http_listener::stop() {
  if (impl_->stopped) return;
  impl_->stopped = true;
  // Connections in progress are not waited for: a slow client must not hold up a shutdown.
  impl_->io.stop();
  for (auto& t : impl_->io_threads) t.join();
  impl_->workers.join();
  for (auto& at : impl_->endpoints) {
    boost::system::error_code ignored;
    at.acceptor->close(ignored);
  }
}

listener_counts http_listener::counts() const {
  const auto& shared = *impl_->shared;
  const auto [regular, lane] = shared.open_connections();
  return {regular,
          shared.limits.max_connections,
          lane,
          shared.shed.load(),
          shared.open_streams.load(),
          shared.limits.event_streams.max_open,
          shared.streams_opened.load(),
          shared.streams_refused.load(),
          shared.streams_dropped.load()};
}

}  // namespace status_store
