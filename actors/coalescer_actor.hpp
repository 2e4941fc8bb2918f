#pragma once
// The coalescer: per-key latest-status coalescing, the store's entry point.
//
// A shell of message handlers around the per-key rules of actors/policy/coalescing_table.hpp: it
// takes updates, delivery reports, due retries and read-backs in, and ships what the table queued —
// one produce batch, one schedule batch and one counters publish per mailbox burst (a self-sent tick).
// Updates come as put messages (callers that are actors) or wait in the ingest table (the facade's
// callers), taken in batches when a wake message says so. It also answers flush (once every update
// accepted or waiting in the ingest before it is resolved) and stop (close the ingest, drain, then
// count what is left as failed at the deadline). Rules and their tests: docs/retries.md and
// tests/actor/coalescer_test.cpp, tests/unit/coalescing_table_test.cpp.
#include "actors/ingest/ingest_table.hpp"
#include "actors/policy/coalescing_table.hpp"
#include "config/retry_settings.hpp"
#include "messages/protocol.hpp"

#include <cstdint>
#include <memory>

namespace status_store {

struct coalescer_config {
  retry_settings retry;  // status.storage.retry.*, as configured: the coalescer uses max_retries
  // One attempt's bound (message.timeout.ms): a record held while no broker is reachable fails its
  // attempt after this long, as a timed-out send would (docs/retries.md, "Outage: hold and purge").
  int64_t attempt_timeout_ms = defaults::message_timeout_ms;
  // Told of every acknowledged record, on the coalescer's thread (store_options::on_acknowledged).
  ack_listener on_acknowledged = nullptr;
};

/// Spawns the coalescer, which fails an update after `config.retry.max_retries` retries; it introduces
/// itself to the producer and the scheduler (report_to), each as the narrow handle it reports to.
/// `ingest` (may be null) is the table the facade's callers put into; a wake message says it has
/// updates. Returns the full interface, for wiring: embedders get status_store_actor from it, each
/// peer the sink it reports to (messages/protocol.hpp).
coalescer_actor spawn_coalescer(caf::actor_system& system, coalescer_config config, producer_actor producer,
                                retry_scheduler_actor scheduler, metrics_actor metrics,
                                std::shared_ptr<ingest_table> ingest = nullptr);

}  // namespace status_store
