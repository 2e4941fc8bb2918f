#pragma once
// The tests' one polling helper, for those that wait on real threads (the integration tests, and
// unit tests of a librdkafka client's own threads); tests on virtual time never poll.
#include <chrono>
#include <thread>

namespace status_store::test_support {

/// Polls `condition` until it holds or `timeout` passes (real time).
template <class F>
bool eventually(F condition, std::chrono::milliseconds timeout = std::chrono::seconds{20}) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds{20});
  }
  return condition();
}

}  // namespace status_store::test_support
