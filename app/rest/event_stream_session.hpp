#pragma once
// One event stream of GET /status-store/v1/events (docs/http-service.md#the-event-stream): a
// connection that http_session handed over once the request was answered 200. It writes the head,
// joins the event hub through the handlers' attach_event_stream, and from then on writes what the hub
// offers, in order, until the client leaves or the listener stops. Bounds:
// - it keeps its connection slot, but no idle timeout applies: a quiet stream sends a comment line
//   every event_stream_heartbeat instead;
// - what it has queued and not yet written is bounded (app/rest/event_stream_queue.hpp), and one write
//   may take write_timeout: past either it is closed and counted as dropped, so a slow reader costs
//   bounded memory and a slot for a few seconds, never the service;
// - how many may be open at once is max_event_streams (event_stream_ticket).
// The hub's offers arrive from an actor's thread: the sink posts them onto this connection's strand,
// where everything else about it runs.
#include "app/rest/event_stream_queue.hpp"
#include "app/rest/http_session.hpp"

#include <atomic>

namespace status_store {

template <class Stream>
class event_stream_session : public std::enable_shared_from_this<event_stream_session<Stream>> {
 public:
  event_stream_session(Stream stream, std::shared_ptr<http_shared_state> state, connection_slot slot,
                       event_stream_ticket ticket, std::string client, std::shared_ptr<boost::asio::ssl::context> tls);
  ~event_stream_session();

  /// Writes `head` (the response's status line, headers and the stream's first lines), then joins the hub.
  void start(std::string head);

 private:
  using error_code = boost::system::error_code;
  using frames = event_stream_queue::frames;
  class sink;

  void enqueue(frames f);
  void write_next();
  void on_written(error_code ec);
  void arm_heartbeat();
  void watch_client();
  /// Ends the stream once: leaves the hub, closes the connection; `dropped_why` counts it as dropped.
  void end(const char* dropped_why);

  Stream stream_;
  boost::asio::steady_timer write_timer_;
  boost::asio::steady_timer heartbeat_;
  std::shared_ptr<http_shared_state> state_;
  connection_slot slot_;
  event_stream_ticket ticket_;
  std::string client_;
  std::shared_ptr<boost::asio::ssl::context> tls_;  // kept alive as long as its stream
  event_stream_queue queue_;
  std::vector<frames> writing_;  // what the pending write is sending
  std::shared_ptr<sink> sink_;
  std::function<void()> leave_;
  char scratch_[512];
  uint64_t writes_ = 0;  // writes started, so a late timer knows whether its write is still the current one
  bool ended_ = false;
};

}  // namespace status_store
