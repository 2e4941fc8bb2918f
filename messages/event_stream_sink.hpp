#pragma once
// Where the event hub (actors/event_hub_actor.hpp) hands an event stream its frames. The hub never
// waits on a client: it offers the Server-Sent Events text of one batch (made once, shared by every
// stream) and goes on; the stream queues it, bounded, and writes it on its own I/O thread. status-store
// run's streams are app/rest/event_stream_session.hpp; tests give fakes (docs/http-service.md).
#include "caf/allowed_unsafe_message_type.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace status_store {

class event_stream_sink {
 public:
  virtual ~event_stream_sink() = default;

  /// Takes `frames` for the stream and returns at once, from the hub's thread. False once the stream
  /// has ended (its client left, or it fell too far behind and was dropped): the hub forgets it.
  virtual bool offer(std::shared_ptr<const std::string> frames) = 0;
};

/// A stream as it joins the hub: its id (which its leave names) and its sink.
struct event_stream_port {
  uint64_t id = 0;
  std::shared_ptr<event_stream_sink> sink;
};

}  // namespace status_store

// The sink is an object in this process: a port is sent between local actors only, never serialized.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(status_store::event_stream_port)
