#pragma once
// Where the alert sender's POSTs go. The sender (actors/alert_sender_actor.hpp) never waits on the
// network: it hands one request body to the transport and hears the outcome as a message. The
// transport owns the receiver's URL, its headers (secrets) and its own thread; status-store run's is
// app/webhook/ (Boost.Beast on an io_context of its own), tests give a fake. An embedder that wants
// webhooks gives one in store_options (app/store/store.hpp).
#include "messages/alert.hpp"

#include <functional>
#include <string>

namespace status_store {

class alert_transport {
 public:
  virtual ~alert_transport() = default;

  /// Starts one POST of `body` (a JSON document) and returns at once. Calls `done` exactly once, on a
  /// thread of the transport's (or, for an immediate failure, the caller's), with how it ended, within
  /// the transport's timeout.
  virtual void post(std::string body, std::function<void(alert_post_result)> done) = 0;

  /// The receiver as a log line may name it: scheme, host and port, never a path, a query or a header.
  virtual std::string describe() const = 0;
};

}  // namespace status_store
