#pragma once
// Producer I/O: the only actor that talks to Kafka on the write path. It owns the producer client
// (actors/kafka/kafka_producer_client.hpp), hands it produce batches, and sends the judged delivery
// reports — asynchronous ones from the poll thread, synchronous refusals at once — to the coalescer
// as `delivered` batches.
#include "messages/protocol.hpp"

#include <memory>

namespace status_store {

class kafka_producer_client;

producer_actor spawn_producer(caf::actor_system& system, std::shared_ptr<kafka_producer_client> client);

}  // namespace status_store
