#include "app/webhook/webhook_transport.hpp"

#include "config/webhook_url.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/http.hpp>

#include <openssl/ssl.h>

#include <chrono>
#include <thread>
#include <type_traits>

namespace status_store {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using tls_stream = asio::ssl::stream<tcp::socket>;
using done_fn = std::function<void(alert_post_result)>;

/// What every request of one transport shares: where it goes, its extra headers, its deadline.
struct request_plan {
  webhook_url url;
  std::vector<std::pair<std::string, std::string>> headers;  // secrets: only ever written to the socket
  std::chrono::milliseconds timeout;
};

http::request<http::string_body> make_request(const request_plan& plan, std::string body) {
  http::request<http::string_body> request{http::verb::post, plan.url.target, 11};
  request.set(http::field::host, plan.url.host_header());
  request.set(http::field::user_agent, "status-store");
  request.set(http::field::content_type, "application/json");
  request.set(http::field::connection, "close");
  for (const auto& [name, value] : plan.headers) request.insert(name, value);
  request.body() = std::move(body);
  request.prepare_payload();
  return request;
}

template <class Stream>
Stream open_stream(asio::io_context& io, asio::ssl::context& tls) {
  if constexpr (std::is_same_v<Stream, tcp::socket>) {
    return tcp::socket{io};
  } else {
    return Stream{io, tls};
  }
}

/// One POST, on the transport's thread: resolve, connect, (handshake,) write, read the answer's head;
/// the deadline, or the first error, ends it. `done` is called once, whatever happens first.
template <class Stream>
class exchange : public std::enable_shared_from_this<exchange<Stream>> {
 public:
  exchange(asio::io_context& io, asio::ssl::context& tls, const request_plan& plan, std::string body, done_fn done)
      : plan_{plan},
        resolver_{io},
        deadline_{io},
        stream_{open_stream<Stream>(io, tls)},
        request_{make_request(plan, std::move(body))},
        done_{std::move(done)} {
    parser_.header_limit(16 * 1024);
  }

  void start() {
    auto self = this->shared_from_this();
    deadline_.expires_after(plan_.timeout);
    deadline_.async_wait([self](beast::error_code ec) {
      if (!ec) self->finish({0, "timed out after " + std::to_string(self->plan_.timeout.count()) + " ms"});
    });
    resolver_.async_resolve(plan_.url.host, plan_.url.port,
                            [self](beast::error_code ec, const tcp::resolver::results_type& endpoints) {
                              if (ec) return self->fail("resolving the host", ec);
                              self->connect(endpoints);
                            });
  }

 private:
  void connect(const tcp::resolver::results_type& endpoints) {
    auto self = this->shared_from_this();
    asio::async_connect(beast::get_lowest_layer(stream_), endpoints,
                        [self](beast::error_code ec, const tcp::endpoint&) {
                          if (ec) return self->fail("connecting", ec);
                          self->handshake();
                        });
  }

  void handshake() {
    if constexpr (std::is_same_v<Stream, tcp::socket>) {
      write();
    } else {
      const std::string& host = plan_.url.host;
      beast::error_code not_an_address;
      asio::ip::make_address(host, not_an_address);
      if (not_an_address) SSL_set_tlsext_host_name(stream_.native_handle(), host.c_str());  // SNI names a name only
      stream_.set_verify_mode(asio::ssl::verify_peer);
      stream_.set_verify_callback(asio::ssl::host_name_verification(host));
      auto self = this->shared_from_this();
      stream_.async_handshake(asio::ssl::stream_base::client, [self](beast::error_code ec) {
        if (ec) return self->fail("the TLS handshake", ec);
        self->write();
      });
    }
  }

  void write() {
    auto self = this->shared_from_this();
    http::async_write(stream_, request_, [self](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("sending the request", ec);
      http::async_read_header(self->stream_, self->buffer_, self->parser_, [self](beast::error_code ec, std::size_t) {
        if (ec) return self->fail("reading the answer", ec);
        self->finish({static_cast<int32_t>(self->parser_.get().result_int()), ""});
      });
    });
  }

  void fail(std::string_view step, const beast::error_code& ec) {
    finish({0, std::string{step} + ": " + ec.message()});
  }

  void finish(alert_post_result result) {
    if (!done_) return;  // the deadline or an error came first
    const done_fn done = std::move(done_);
    done_ = nullptr;
    deadline_.cancel();
    resolver_.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).close(ignored);  // what is still pending ends with operation_aborted
    done(std::move(result));
  }

  const request_plan& plan_;
  tcp::resolver resolver_;
  asio::steady_timer deadline_;
  Stream stream_;
  http::request<http::string_body> request_;
  beast::flat_buffer buffer_;
  http::response_parser<http::empty_body> parser_;
  done_fn done_;
};

class webhook_transport final : public alert_transport {
 public:
  explicit webhook_transport(request_plan plan) : plan_{std::move(plan)} {
    if (plan_.url.tls()) {
      tls_.set_default_verify_paths();
      tls_.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                       asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1);
    }
    thread_ = std::thread{[this] { io_.run(); }};
  }
  ~webhook_transport() override {
    work_.reset();
    io_.stop();
    thread_.join();
  }
  webhook_transport(const webhook_transport&) = delete;
  webhook_transport& operator=(const webhook_transport&) = delete;

  void post(std::string body, done_fn done) override {
    asio::post(io_, [this, body = std::move(body), done = std::move(done)]() mutable {
      if (plan_.url.tls())
        std::make_shared<exchange<tls_stream>>(io_, tls_, plan_, std::move(body), std::move(done))->start();
      else
        std::make_shared<exchange<tcp::socket>>(io_, tls_, plan_, std::move(body), std::move(done))->start();
    });
  }

  std::string describe() const override { return plan_.url.origin(); }

 private:
  // Destroyed in reverse: the thread is joined first, the exchanges go with io_, then the TLS context.
  const request_plan plan_;
  asio::ssl::context tls_{asio::ssl::context::tls_client};
  asio::io_context io_{1};
  asio::executor_work_guard<asio::io_context::executor_type> work_ = asio::make_work_guard(io_);
  std::thread thread_;
};

}  // namespace

std::shared_ptr<alert_transport> make_webhook_transport(const alert_settings& settings) {
  const std::string_view key = "status.alert.webhook.url";
  return std::make_shared<webhook_transport>(request_plan{parse_webhook_url(key, settings.webhook_url),
                                                          settings.webhook_headers,
                                                          std::chrono::milliseconds{settings.webhook_timeout_ms}});
}

}  // namespace status_store
