#pragma once
// The facade's one error type, installed as <status_store/store_error.hpp>: a call that cannot do what
// it says throws it, with the reason in what() and its kind to branch on (docs/embedding.md, "Errors").
#include <stdexcept>
#include <string>

namespace status_store {

enum class store_error_kind {
  stopped,    // stop() was called (or start-up failed): no actor is left to ask
  timed_out,  // the actor did not answer within the call's timeout
  failed,     // the actor answered with an error, or exited while asked
};

/// A std::runtime_error, so code that caught the facade's runtime_error before still does.
class store_error : public std::runtime_error {
 public:
  store_error(store_error_kind kind, const std::string& what) : std::runtime_error{what}, kind_{kind} {}
  store_error_kind kind() const noexcept { return kind_; }

 private:
  store_error_kind kind_;
};

}  // namespace status_store
