#pragma once
// The event hub: between the status view and the event streams of GET /status-store/v1/events
// (docs/http-service.md#the-event-stream). Rules (tests/actor/event_hub_test.cpp):
// - It subscribes to the view once; the view sends it the events of each batch of records it reads
//   (and of each tick that ends flapping), once its replay is complete.
// - Each batch is made Server-Sent Events text once (messages/codec/status_event_json.hpp) and offered,
//   shared, to every stream that joined; with no stream joined nothing is formatted.
// - A stream joins and leaves by messages from the HTTP listener's threads; one whose sink refuses an
//   offer (its client left, or it fell too far behind and was dropped) is forgotten at once. The hub
//   never waits on a stream: the bound on what a slow stream may queue is the stream's own
//   (app/rest/event_stream_queue.hpp).
#include "messages/event_stream_sink.hpp"
#include "messages/protocol.hpp"

namespace status_store {

/// Spawns the hub and subscribes it to `view`. It runs until it is sent an exit: its owner's job.
event_hub_actor spawn_event_hub(caf::actor_system& system, status_view_actor view);

}  // namespace status_store
