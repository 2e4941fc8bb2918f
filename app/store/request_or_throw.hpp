#pragma once
// The facade's one way to ask an actor and wait for the answer (not installed): the answer, or a
// store_error saying why there is none, so that every blocking call fails the same way.
#include "app/store/store_error.hpp"

#include "caf/actor_system.hpp"
#include "caf/error.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/sec.hpp"

#include <optional>
#include <string>
#include <utility>

namespace status_store {

/// Sends `xs...` to `target` and waits at most `timeout` for a `Result`. `what` names the call in the
/// error ("flush", "status query for connector 'c'"); a null `target` means the store is stopped.
template <class Result, class Handle, class... Ts>
Result request_or_throw(caf::actor_system& system, const Handle& target, caf::timespan timeout, const std::string& what,
                        Ts&&... xs) {
  if (!target) throw store_error{store_error_kind::stopped, what + " failed: the store is stopped"};
  std::optional<Result> result;
  caf::error failure;
  {
    caf::scoped_actor self{system};
    self->request(target, timeout, std::forward<Ts>(xs)...)
        .receive([&](Result& answer) { result = std::move(answer); },
                 [&](caf::error& err) { failure = std::move(err); });
  }
  if (result) return std::move(*result);
  const auto kind = failure == caf::sec::request_timeout ? store_error_kind::timed_out : store_error_kind::failed;
  throw store_error{kind, what + " failed: " + system.render(failure)};
}

}  // namespace status_store
