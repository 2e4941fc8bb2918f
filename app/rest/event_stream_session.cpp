#include "app/rest/event_stream_session.hpp"

#include "config/logging.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

namespace status_store {

namespace asio = boost::asio;

namespace {

const auto heartbeat_frame = std::make_shared<const std::string>(": keep-alive\n\n");

/// The head of a 200 event stream: no length (the body ends when the connection does), then its
/// first lines from the handler's body.
std::string stream_head(const http_response& response) {
  std::string head = "HTTP/1.1 200 OK\r\nContent-Type: " + response.content_type + "\r\nConnection: close\r\n";
  for (const auto& [name, value] : response.headers) head += name + ": " + value + "\r\n";
  return head + "\r\n" + response.body;
}

}  // namespace

/// The hub's side of a stream: called on an actor's thread, it only posts onto the stream's strand.
template <class Stream>
class event_stream_session<Stream>::sink : public event_stream_sink {
 public:
  sink(std::weak_ptr<event_stream_session> session, asio::any_io_executor executor)
      : session_{std::move(session)}, executor_{std::move(executor)} {}

  bool offer(frames f) override {
    if (ended_.load(std::memory_order_acquire)) return false;
    asio::post(executor_, [session = session_, f = std::move(f)]() mutable {
      if (auto s = session.lock()) s->enqueue(std::move(f));
    });
    return true;
  }
  void ended() { ended_.store(true, std::memory_order_release); }

 private:
  std::weak_ptr<event_stream_session> session_;
  asio::any_io_executor executor_;
  std::atomic<bool> ended_{false};
};

template <class Stream>
event_stream_session<Stream>::event_stream_session(Stream stream, std::shared_ptr<http_shared_state> state,
                                                   connection_slot slot, event_stream_ticket ticket, std::string client,
                                                   std::shared_ptr<asio::ssl::context> tls)
    : stream_{std::move(stream)},
      write_timer_{boost::beast::get_lowest_layer(stream_).get_executor()},
      heartbeat_{boost::beast::get_lowest_layer(stream_).get_executor()},
      state_{std::move(state)},
      slot_{std::move(slot)},
      ticket_{std::move(ticket)},
      client_{std::move(client)},
      tls_{std::move(tls)},
      queue_{state_->limits.event_streams.queue_bytes} {}

template <class Stream>
event_stream_session<Stream>::~event_stream_session() {
  if (sink_) sink_->ended();
  if (leave_) leave_();
}

template <class Stream>
void event_stream_session<Stream>::start(std::string head) {
  queue_.push(std::make_shared<const std::string>(std::move(head)));
  write_next();
  sink_ = std::make_shared<sink>(this->weak_from_this(), boost::beast::get_lowest_layer(stream_).get_executor());
  if (state_->handlers.attach_event_stream) leave_ = state_->handlers.attach_event_stream(sink_);
  watch_client();
  arm_heartbeat();
}

template <class Stream>
void event_stream_session<Stream>::enqueue(frames f) {
  if (ended_) return;
  if (!queue_.push(std::move(f))) return end("more than its queue bound waiting to be written");
  if (writing_.empty()) write_next();
}

template <class Stream>
void event_stream_session<Stream>::write_next() {
  if (ended_ || queue_.empty()) return;
  writing_ = queue_.take();
  std::vector<asio::const_buffer> buffers;
  buffers.reserve(writing_.size());
  for (const auto& f : writing_) buffers.emplace_back(asio::buffer(*f));
  // A timer that fired just as its write completed must not end the next write: each write has its number.
  const uint64_t write = ++writes_;
  write_timer_.expires_after(state_->limits.write_timeout);
  write_timer_.async_wait([self = this->shared_from_this(), write](error_code ec) {
    if (!ec && write == self->writes_ && !self->writing_.empty())
      self->end("a write took longer than the write timeout");
  });
  asio::async_write(stream_, buffers,
                    [self = this->shared_from_this()](error_code ec, size_t) { self->on_written(ec); });
}

template <class Stream>
void event_stream_session<Stream>::on_written(error_code ec) {
  write_timer_.cancel();
  writing_.clear();
  queue_.written();
  if (ec) return end(nullptr);
  write_next();
}

template <class Stream>
void event_stream_session<Stream>::arm_heartbeat() {
  heartbeat_.expires_after(state_->limits.event_streams.heartbeat);
  heartbeat_.async_wait([self = this->shared_from_this()](error_code ec) {
    if (ec || self->ended_) return;
    if (self->writing_.empty() && self->queue_.empty()) self->enqueue(heartbeat_frame);
    self->arm_heartbeat();
  });
}

template <class Stream>
void event_stream_session<Stream>::watch_client() {
  // A stream's client sends nothing: a read ends when it leaves. Bytes it sends anyway are dropped.
  stream_.async_read_some(asio::buffer(scratch_), [self = this->shared_from_this()](error_code ec, size_t) {
    if (ec) return self->end(nullptr);
    self->watch_client();
  });
}

template <class Stream>
void event_stream_session<Stream>::end(const char* dropped_why) {
  if (ended_) return;
  ended_ = true;
  if (sink_) sink_->ended();
  if (leave_) std::exchange(leave_, nullptr)();
  if (dropped_why != nullptr) state_->note_stream_dropped(client_, dropped_why);
  write_timer_.cancel();
  heartbeat_.cancel();
  error_code ignored;
  boost::beast::get_lowest_layer(stream_).close(ignored);
}

template <class Stream>
void http_session<Stream>::start_event_stream(http_response response) {
  auto ticket = state_->admit_event_stream();
  if (!ticket) {
    keep_alive_ = false;
    const std::string max = std::to_string(state_->limits.event_streams.max_open);
    return respond({503,
                    "application/json",
                    http_error_json(503, "too many event streams open (" + max + "); try again"),
                    {{"Retry-After", "1"}}});
  }
  std::make_shared<event_stream_session<Stream>>(std::move(stream_), state_, std::move(slot_), std::move(*ticket),
                                                 client_, tls_)
      ->start(stream_head(response));
}

template class event_stream_session<plain_stream>;
template class event_stream_session<tls_stream>;
template void http_session<plain_stream>::start_event_stream(http_response);
template void http_session<tls_stream>::start_event_stream(http_response);

}  // namespace status_store
