#pragma once
// At most so many log lines per reason per interval, and a count of the lines it held back: for
// messages whose rate someone else chooses, like the status view's malformed records (anyone who can
// write to the status topic can write a million). Pure logic: no clock, no logger, no actor; the
// caller passes the time and writes the lines. Unit-tested on a fake clock in
// tests/unit/log_rate_limiter_test.cpp.
//
// Each reason has a window that opens at its first line and lasts `interval_ns`. The window's first
// `lines_per_interval` lines are written and the rest counted. A window with counted lines closes
// with a summary (how many, over how long): when the next line of its reason comes after it, or
// when the caller asks for what is due (a timer: next_due() says when). A window with none just ends.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

class log_rate_limiter {
 public:
  struct limits {
    uint32_t lines_per_interval = 10;
    int64_t interval_ns = 60'000'000'000;
    // Reasons with a window at once; the lines of any further reason share the reason "other". The
    // callers' reasons are a fixed set of rules, so this only bounds the memory should one not be.
    std::size_t max_reasons = 64;
  };
  struct summary {
    std::string reason;
    uint64_t suppressed = 0;  // lines not written in the window
    int64_t window_ns = 0;    // from the window's first line to when it closed
    friend bool operator==(const summary&, const summary&) = default;
  };
  struct verdict {
    bool write = false;             // write this line
    std::optional<summary> closed;  // the reason's previous window, closed by this line: write it first
  };

  explicit log_rate_limiter(limits l) : limits_{l} {}

  /// One line for `reason` at `now_ns` (times must not go back): whether to write it.
  verdict admit(std::string_view reason, int64_t now_ns);
  /// The summaries of every window with held-back lines that has passed by `now_ns`, oldest window
  /// first; those windows close (the next line of their reason opens a new one).
  std::vector<summary> take_due(int64_t now_ns);
  /// When the first window with held-back lines passes; nullopt when no line is held back.
  std::optional<int64_t> next_due() const;

 private:
  struct window {
    int64_t opened_ns = 0;
    uint32_t written = 0;
    uint64_t suppressed = 0;
  };
  bool passed(const window& w, int64_t now_ns) const { return now_ns - w.opened_ns >= limits_.interval_ns; }

  limits limits_;
  std::map<std::string, window, std::less<>> windows_;
};

}  // namespace status_store
