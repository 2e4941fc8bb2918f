#pragma once
// Producer I/O: the only actor that talks to Kafka on the write path. It owns the librdkafka
// producer (through kafka_producer_client), turns produce batches into librdkafka calls, and sends
// delivery reports — asynchronous ones from the poll thread, synchronous produce errors at once — to
// the coalescer as `delivered` batches.
#include "actors/kafka/kafka_producer_client.hpp"
#include "messages/protocol.hpp"

#include <memory>

namespace status_store {

producer_actor spawn_producer(caf::actor_system& system, std::shared_ptr<kafka_producer_client> client);

}  // namespace status_store
