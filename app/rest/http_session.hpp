#pragma once
// One connection of the HTTP listener (used by app/rest/http_listener.cpp only): read a request whole
// within its deadline, answer it, repeat while keep-alive allows. A template over the stream, so
// plain TCP and TLS share every step. See docs/http-service.md.
#include "app/rest/http_listener.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <utility>

namespace status_store {

using plain_stream = boost::asio::ip::tcp::socket;
using tls_stream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;

enum class connection_kind {
  regular,      // a slot of its own: any request, keep-alive
  health_only,  // past a bound: one probe within the health lane's timeout, anything else 503
  refused,      // past the lane too: 503 without reading
};

struct http_shared_state;

/// A connection's claim on a slot (and on its client's share), given back when it ends.
class connection_slot {
 public:
  connection_slot(std::shared_ptr<http_shared_state> state, connection_kind kind, std::string client)
      : state_{std::move(state)}, kind_{kind}, client_{std::move(client)} {}
  connection_slot(connection_slot&& other) noexcept = default;
  connection_slot& operator=(connection_slot&&) = delete;
  ~connection_slot();
  connection_kind kind() const { return kind_; }

 private:
  std::shared_ptr<http_shared_state> state_;
  connection_kind kind_;
  std::string client_;
};

/// An event stream's claim on one of the listener's max_event_streams, given back when it ends.
class event_stream_ticket {
 public:
  explicit event_stream_ticket(std::shared_ptr<http_shared_state> state) : state_{std::move(state)} {}
  event_stream_ticket(event_stream_ticket&& other) noexcept = default;
  event_stream_ticket& operator=(event_stream_ticket&&) = delete;
  ~event_stream_ticket();

 private:
  std::shared_ptr<http_shared_state> state_;
};

/// What every connection of one listener shares: the limits, the handlers and the slot counts.
struct http_shared_state : std::enable_shared_from_this<http_shared_state> {
  http_limits limits;
  http_handlers handlers;
  boost::asio::thread_pool* workers = nullptr;  // owned by the listener, joined before it goes
  std::string shed_reply;                       // the whole 503 response, made once
  std::atomic<uint64_t> shed{0};

  /// Counts a connection answered with the overload 503 and logs the 1st, 2nd, 4th, 8th, ...
  void note_shed();

  // The event streams: open now, and counted (http_listener::counts()).
  std::atomic<uint64_t> open_streams{0}, streams_opened{0}, streams_refused{0}, streams_dropped{0};
  /// A slot for one more event stream, or none past max_event_streams (counted as refused).
  std::optional<event_stream_ticket> admit_event_stream();
  /// Counts a stream closed for falling behind and logs the 1st, 2nd, 4th, 8th, ...
  void note_stream_dropped(const std::string& client, std::string_view why);

  /// Decides what a new connection from `client` may do, and counts it.
  connection_slot admit(const std::string& client);
  /// Regular connections and health-lane connections open now.
  std::pair<uint64_t, uint64_t> open_connections() const;
  void release(connection_kind kind, const std::string& client);

 private:
  mutable std::mutex mutex_;
  size_t regular_ = 0, lane_ = 0;
  std::map<std::string, size_t> per_client_;  // regular connections by client address
};

/// The immediate 503 of a refused connection: written without reading, then the write side shut and
/// what arrived drained for a moment, so the client reads the reply rather than a reset.
class shed_connection : public std::enable_shared_from_this<shed_connection> {
 public:
  shed_connection(plain_stream socket, std::shared_ptr<http_shared_state> state)
      : socket_{std::move(socket)}, timer_{socket_.get_executor()}, state_{std::move(state)} {}
  void run();

 private:
  void drain();
  plain_stream socket_;
  boost::asio::steady_timer timer_;
  std::shared_ptr<http_shared_state> state_;
  char scratch_[1024];
};

template <class Stream>
class http_session : public std::enable_shared_from_this<http_session<Stream>> {
 public:
  http_session(Stream stream, std::shared_ptr<http_shared_state> state, connection_slot slot, std::string client,
               std::shared_ptr<boost::asio::ssl::context> tls);
  void run();

 private:
  using error_code = boost::system::error_code;
  using request_parser = boost::beast::http::request_parser<boost::beast::http::string_body>;
  static constexpr bool secure = std::is_same_v<Stream, tls_stream>;

  plain_stream& socket() { return boost::beast::get_lowest_layer(stream_); }
  std::chrono::milliseconds request_deadline() const;
  void arm(std::chrono::milliseconds timeout);
  void close();

  // ---- reading -------------------------------------------------------------------------------------
  void await_request();
  void read_header();
  void on_header(error_code ec);
  void read_body();
  void on_request();
  void refuse_read(error_code ec);

  // ---- answering -----------------------------------------------------------------------------------
  void dispatch(http_request request);
  void respond(http_response response);
  /// Hands the connection to an event stream (app/rest/event_stream_session.cpp), or answers a 503
  /// past max_event_streams.
  void start_event_stream(http_response response);
  void write_raw(const std::string& bytes, bool then_read_body);
  void on_written(error_code ec);
  void finish();

  Stream stream_;
  boost::asio::steady_timer timer_;
  std::shared_ptr<http_shared_state> state_;
  connection_slot slot_;
  std::string client_;
  std::shared_ptr<boost::asio::ssl::context> tls_;  // kept alive as long as its stream
  boost::beast::flat_buffer buffer_;
  std::optional<request_parser> parser_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
  const std::string* raw_ = nullptr;  // a fixed reply being written (100 Continue, the lane's 503)
  bool head_ = false;
  bool keep_alive_ = false;
  size_t served_ = 0;
};

}  // namespace status_store
