#pragma once
// What a delivery report means for the write path, in our own terms: the producer client judges each
// report where the Kafka client hands it over (actors/kafka/delivery_error_table.hpp), and the
// coalescing rules decide on this verdict, never on the client's error codes.
#include <cstdint>
#include <string>

namespace status_store {

enum class delivery_outcome : uint8_t {
  success,        // acknowledged
  retriable,      // transient: back off and send the latest value of the key again
  non_retriable,  // re-sending the same bytes would fail again: give up at once
  not_sent,       // taken back from the producer's queue before any broker saw it (the outage hold):
                  // the attempt goes on; the key waits for a reachable broker (docs/retries.md)
};

/// One delivery report, judged.
struct delivery_verdict {
  delivery_outcome outcome = delivery_outcome::success;
  bool authentication = false;  // the broker refused credentials or TLS set-up (counted apart)
  std::string advice;           // what an operator can change, for errors configuration causes
  friend bool operator==(const delivery_verdict&, const delivery_verdict&) = default;
};

}  // namespace status_store
