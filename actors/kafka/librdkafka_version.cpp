#include "actors/kafka/librdkafka_version.hpp"

#include <librdkafka/rdkafka.h>

namespace status_store {

std::string librdkafka_version() { return rd_kafka_version_str(); }

}  // namespace status_store
