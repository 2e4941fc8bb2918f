#include "app/rest/http_session.hpp"

#include "config/logging.hpp"

#include <boost/asio/write.hpp>

namespace status_store {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

const std::string continue_reply = "HTTP/1.1 100 Continue\r\n\r\n";

/// True when the buffered bytes hold no complete request line: an over-long target (414), not
/// over-long headers (431).
bool request_line_incomplete(const beast::flat_buffer& buffer) {
  const std::string_view data{static_cast<const char*>(buffer.data().data()), buffer.size()};
  return data.find("\r\n") == std::string_view::npos;
}

}  // namespace

// ---- slots ---------------------------------------------------------------------------------------------

void http_shared_state::note_shed() {
  const uint64_t count = ++shed;
  if ((count & (count - 1)) == 0)  // visible, but no log flood under attack
    component_logger("http")->warn(
        "{} connection(s) refused with 503 so far: past the {} connection slots (or a client's {}) and the health "
        "lane, or not a health check on the lane",
        count, limits.max_connections, limits.per_client_bound());
}

connection_slot::~connection_slot() {
  if (state_) state_->release(kind_, client_);
}

connection_slot http_shared_state::admit(const std::string& client) {
  std::lock_guard lock{mutex_};
  auto kind = connection_kind::refused;
  size_t& mine = per_client_[client];
  if (regular_ < limits.max_connections && mine < limits.per_client_bound()) {
    kind = connection_kind::regular;
    ++regular_;
    ++mine;
  } else if (lane_ < limits.health_lane_connections) {
    kind = connection_kind::health_only;
    ++lane_;
  }
  if (mine == 0) per_client_.erase(client);
  return connection_slot{kind == connection_kind::refused ? nullptr : shared_from_this(), kind, client};
}

std::pair<uint64_t, uint64_t> http_shared_state::open_connections() const {
  std::lock_guard lock{mutex_};
  return {regular_, lane_};
}

void http_shared_state::release(connection_kind kind, const std::string& client) {
  std::lock_guard lock{mutex_};
  if (kind == connection_kind::health_only) {
    --lane_;
    return;
  }
  --regular_;
  const auto mine = per_client_.find(client);
  if (mine != per_client_.end() && --mine->second == 0) per_client_.erase(mine);
}

event_stream_ticket::~event_stream_ticket() {
  if (state_) --state_->open_streams;
}

std::optional<event_stream_ticket> http_shared_state::admit_event_stream() {
  for (uint64_t open = open_streams.load(); open < limits.event_streams.max_open;)
    if (open_streams.compare_exchange_weak(open, open + 1)) {
      ++streams_opened;
      return event_stream_ticket{shared_from_this()};
    }
  ++streams_refused;
  return std::nullopt;
}

void http_shared_state::note_stream_dropped(const std::string& client, std::string_view why) {
  const uint64_t count = ++streams_dropped;
  if ((count & (count - 1)) == 0)
    component_logger("http")->warn("event stream of {} closed: {} ({} stream(s) dropped so far)", client, why, count);
}

// ---- the immediate 503 -----------------------------------------------------------------------------

void shed_connection::run() {
  asio::async_write(socket_, asio::buffer(state_->shed_reply),
                    [self = shared_from_this()](boost::system::error_code ec, size_t) {
                      if (ec) return;
                      self->socket_.shutdown(plain_stream::shutdown_send, ec);
                      self->timer_.expires_after(std::chrono::milliseconds{500});
                      self->timer_.async_wait([self](boost::system::error_code) {
                        boost::system::error_code ignored;
                        self->socket_.close(ignored);
                      });
                      self->drain();
                    });
}

void shed_connection::drain() {
  socket_.async_read_some(asio::buffer(scratch_), [self = shared_from_this()](boost::system::error_code ec, size_t) {
    if (ec) {
      self->timer_.cancel();
      return;
    }
    self->drain();
  });
}

// ---- a session -------------------------------------------------------------------------------------

template <class Stream>
http_session<Stream>::http_session(Stream stream, std::shared_ptr<http_shared_state> state, connection_slot slot,
                                   std::string client, std::shared_ptr<asio::ssl::context> tls)
    : stream_{std::move(stream)},
      timer_{beast::get_lowest_layer(stream_).get_executor()},
      state_{std::move(state)},
      slot_{std::move(slot)},
      client_{std::move(client)},
      tls_{std::move(tls)},
      buffer_{state_->limits.max_header_bytes + 16 * 1024} {}

template <class Stream>
void http_session<Stream>::run() {
  if constexpr (secure) {
    arm(request_deadline());
    stream_.async_handshake(asio::ssl::stream_base::server, [self = this->shared_from_this()](error_code ec) {
      if (ec) return self->close();  // a refused or broken handshake: nothing to answer in HTTP
      self->await_request();
    });
  } else {
    await_request();
  }
}

template <class Stream>
std::chrono::milliseconds http_session<Stream>::request_deadline() const {
  return slot_.kind() == connection_kind::health_only ? state_->limits.health_lane_timeout
                                                      : state_->limits.request_timeout;
}

template <class Stream>
void http_session<Stream>::arm(std::chrono::milliseconds timeout) {
  timer_.expires_after(timeout);
  timer_.async_wait([self = this->shared_from_this()](error_code ec) {
    if (!ec) self->close();  // the deadline passed: every pending read or write ends
  });
}

template <class Stream>
void http_session<Stream>::close() {
  error_code ignored;
  timer_.cancel();
  socket().close(ignored);
}

template <class Stream>
void http_session<Stream>::await_request() {
  if (buffer_.size() > 0) return read_header();  // a pipelined request is already here
  // Waiting for a first byte is the idle timeout; from it on, the request deadline.
  arm(slot_.kind() == connection_kind::health_only ? state_->limits.health_lane_timeout : state_->limits.idle_timeout);
  stream_.async_read_some(buffer_.prepare(4096), [self = this->shared_from_this()](error_code ec, size_t n) {
    self->buffer_.commit(n);
    if (ec) return self->close();
    self->read_header();
  });
}

template <class Stream>
void http_session<Stream>::read_header() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(state_->limits.max_header_bytes));
  parser_->body_limit(state_->limits.max_body_bytes);
  arm(request_deadline());
  http::async_read_header(stream_, buffer_, *parser_,
                          [self = this->shared_from_this()](error_code ec, size_t) { self->on_header(ec); });
}

template <class Stream>
void http_session<Stream>::on_header(error_code ec) {
  if (ec) return refuse_read(ec);
  const auto& request = parser_->get();
  head_ = request.method() == http::verb::head;
  if (slot_.kind() == connection_kind::health_only &&
      !state_->handlers.is_probe(std::string_view{request.method_string()}, std::string_view{request.target()})) {
    keep_alive_ = false;
    state_->note_shed();
    return write_raw(state_->shed_reply, false);
  }
  if (beast::iequals(request[http::field::expect], "100-continue") && !parser_->is_done())
    return write_raw(continue_reply, true);
  read_body();
}

template <class Stream>
void http_session<Stream>::read_body() {
  if (parser_->is_done()) return on_request();
  http::async_read(stream_, buffer_, *parser_, [self = this->shared_from_this()](error_code ec, size_t) {
    if (ec) return self->refuse_read(ec);
    self->on_request();
  });
}

template <class Stream>
void http_session<Stream>::refuse_read(error_code ec) {
  // A request that cannot be read whole ends its connection: what follows cannot be framed.
  keep_alive_ = false;
  if (ec == http::error::header_limit) {
    const bool target = request_line_incomplete(buffer_);
    const int status = target ? 414 : 431;
    return respond(
        {status,
         "application/json",
         http_error_json(status, target ? "HTTP 414 URI Too Long" : "HTTP 431 Request Header Fields Too Large"),
         {}});
  }
  if (ec == http::error::body_limit)
    return respond({413, "application/json", http_error_json(413, "HTTP 413 Payload Too Large"), {}});
  if (ec.category() == beast::http::make_error_code(http::error::bad_method).category() &&
      ec != http::error::end_of_stream && ec != http::error::partial_message)
    return respond({400, "application/json", http_error_json(400, "HTTP 400 Bad Request"), {}});
  close();  // the client left, or the deadline passed
}

template <class Stream>
void http_session<Stream>::on_request() {
  timer_.cancel();  // the handler's own timeouts bound it from here
  auto message = parser_->release();
  ++served_;
  keep_alive_ = message.keep_alive() && slot_.kind() == connection_kind::regular &&
                served_ < state_->limits.max_requests_per_connection;
  http_request request;
  request.method = std::string{message.method_string()};
  request.target = std::string{message.target()};
  for (const auto& field : message)
    request.headers.emplace_back(std::string{field.name_string()}, std::string{field.value()});
  request.body = std::move(message.body());
  request.client_address = client_;
  request.secure = secure;
  dispatch(std::move(request));
}

template <class Stream>
void http_session<Stream>::dispatch(http_request request) {
  const auto& handlers = state_->handlers;
  if (handlers.is_probe(request.method, request.target)) return respond(handlers.handle(request));
  asio::post(*state_->workers, [self = this->shared_from_this(), request = std::move(request)] {
    http_response response;
    try {
      response = self->state_->handlers.handle(request);
    } catch (const std::exception& e) {
      component_logger("http")->warn("{} {}: answered 500: {}", request.method, request.target, e.what());
      response = {500, "application/json", http_error_json(500, "Internal server error"), {}};
    }
    asio::post(self->timer_.get_executor(),
               [self, response = std::move(response)]() mutable { self->respond(std::move(response)); });
  });
}

template <class Stream>
void http_session<Stream>::respond(http_response response) {
  if (response.event_stream && response.status == 200 && !head_) return start_event_stream(std::move(response));
  response_ = {};
  response_.version(11);
  response_.result(static_cast<unsigned>(response.status));
  response_.set(http::field::content_type, response.content_type);
  for (auto& [name, value] : response.headers) response_.set(name, value);
  response_.keep_alive(keep_alive_);
  if (head_) {
    response_.content_length(response.body.size());  // what a GET would send, without the body
  } else {
    response_.body() = std::move(response.body);
    response_.prepare_payload();
  }
  raw_ = nullptr;
  arm(state_->limits.write_timeout);
  http::async_write(stream_, response_,
                    [self = this->shared_from_this()](error_code ec, size_t) { self->on_written(ec); });
}

template <class Stream>
void http_session<Stream>::write_raw(const std::string& bytes, bool then_read_body) {
  raw_ = &bytes;
  arm(state_->limits.write_timeout);
  asio::async_write(stream_, asio::buffer(bytes),
                    [self = this->shared_from_this(), then_read_body](error_code ec, size_t) {
                      if (ec) return self->close();
                      if (then_read_body) {
                        self->arm(self->request_deadline());
                        return self->read_body();
                      }
                      self->on_written(ec);
                    });
}

template <class Stream>
void http_session<Stream>::on_written(error_code ec) {
  if (ec) return close();
  if (keep_alive_) return await_request();
  finish();
}

template <class Stream>
void http_session<Stream>::finish() {
  if constexpr (secure) {
    arm(state_->limits.health_lane_timeout);  // a close_notify is polite, not worth waiting for
    stream_.async_shutdown([self = this->shared_from_this()](error_code) { self->close(); });
  } else {
    error_code ignored;
    socket().shutdown(plain_stream::shutdown_both, ignored);
    close();
  }
}

template class http_session<plain_stream>;
template class http_session<tls_stream>;

}  // namespace status_store
