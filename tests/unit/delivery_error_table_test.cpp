// The delivery-error decision table: every row is checked against classify_delivery_error and
// against librdkafka's own name for the code, and the important decisions are pinned by name.
#include "actors/kafka/delivery_error_table.hpp"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <ostream>
#include <set>
#include <string>
#include <string_view>

namespace status_store {

// Readable parameter names in gtest output.
void PrintTo(const delivery_error_row& row, std::ostream* os) {
  *os << row.code << " " << row.name << (row.retriable ? " (retriable)" : " (non-retriable)");
}

namespace {

rd_kafka_resp_err_t err(int code) { return static_cast<rd_kafka_resp_err_t>(code); }

class DeliveryErrorRowTest : public ::testing::TestWithParam<delivery_error_row> {};

TEST_P(DeliveryErrorRowTest, ClassifyFollowsTheRow) {
  const delivery_error_row& row = GetParam();
  // The one exception to the row: the outage hold's purge is "not sent", neither retried nor failed.
  const auto expected = row.code == RD_KAFKA_RESP_ERR__PURGE_QUEUE ? delivery_outcome::not_sent
                        : row.retriable                            ? delivery_outcome::retriable
                                                                   : delivery_outcome::non_retriable;
  EXPECT_EQ(classify_delivery_error(err(row.code)), expected);
}

TEST_P(DeliveryErrorRowTest, NameMatchesLibrdkafkaWhereItKnowsTheCode) {
  const delivery_error_row& row = GetParam();
  const std::string_view librdkafka_name = rd_kafka_err2name(err(row.code));
  if (librdkafka_name.starts_with("ERR_")) {
    // Not in this librdkafka's table (codes newer than the client): the row carries Kafka's name.
    EXPECT_FALSE(row.name.empty());
  } else {
    EXPECT_EQ(row.name, librdkafka_name);
  }
}

TEST_P(DeliveryErrorRowTest, ReasonIsShortAndPresent) {
  const delivery_error_row& row = GetParam();
  EXPECT_FALSE(row.reason.empty());
  EXPECT_LE(row.reason.size(), 60u) << row.reason;
}

std::string row_test_name(const ::testing::TestParamInfo<delivery_error_row>& info) {
  std::string name =
      info.param.name.starts_with("_") ? "local" + std::string(info.param.name) : std::string(info.param.name);
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllRows, DeliveryErrorRowTest,
                         ::testing::ValuesIn(delivery_error_table().begin(), delivery_error_table().end()),
                         row_test_name);

TEST(DeliveryErrorTable, CodesAndNamesAreUnique) {
  std::set<int> codes;
  std::set<std::string_view> names;
  for (const auto& row : delivery_error_table()) {
    EXPECT_TRUE(codes.insert(row.code).second) << "duplicate code " << row.code;
    EXPECT_TRUE(names.insert(row.name).second) << "duplicate name " << row.name;
  }
}

TEST(DeliveryErrorTable, NoErrorIsSuccessAndNotARow) {
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR_NO_ERROR), delivery_outcome::success);
  for (const auto& row : delivery_error_table()) EXPECT_NE(row.code, 0);
}

TEST(DeliveryErrorTable, CodesOutsideTheTableAreNonRetriable) {
  // Only values inside the enum's value range (-256..255): anything else cannot be an
  // rd_kafka_resp_err_t without undefined behaviour.
  for (int code : {-256, -200, -100, -164, 4, 12, 14, 22, 46, 98, 99, 120, 255}) {
    EXPECT_EQ(classify_delivery_error(err(code)), delivery_outcome::non_retriable) << code;
  }
}

TEST(DeliveryErrorTable, CoversTheRequiredCodes) {
  const std::set<int> required{-192, -185, -166, -195, -187, -184, -153, -182, -152, -151, -150, -186, -172, -190,
                               -188, -169, -165, 1,    2,    3,    5,    6,    7,    8,    9,    10,   13,   18,
                               19,   20,   21,   29,   31,   32,   35,   41,   43,   44,   45,   47,   51,   56,
                               58,   59,   72,   74,   75,   78,   80,   83,   87,   89,   -1};
  std::set<int> present;
  for (const auto& row : delivery_error_table()) present.insert(row.code);
  for (int code : required) EXPECT_TRUE(present.count(code)) << "missing row for " << code;
}

// --- the decisions, by name ---------------------------------------------------------------------

TEST(DeliveryErrorDecisions, MessageTimeoutIsRetriableLikeJavaTimeoutException) {
  // putConnectorStateRetriableFailure: the first ack is a TimeoutException and the store re-sends.
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR__MSG_TIMED_OUT), delivery_outcome::retriable);
}

TEST(DeliveryErrorDecisions, UnknownServerErrorIsNotRetriable) {
  // putConnectorStateNonRetriableFailure: UnknownServerException is logged and not retried.
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR_UNKNOWN), delivery_outcome::non_retriable);
}

TEST(DeliveryErrorDecisions, LocalTransientErrorsAreRetriable) {
  for (auto e : {RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR__TIMED_OUT_QUEUE, RD_KAFKA_RESP_ERR__TRANSPORT,
                 RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, RD_KAFKA_RESP_ERR__QUEUE_FULL, RD_KAFKA_RESP_ERR__RETRY,
                 RD_KAFKA_RESP_ERR__NODE_UPDATE}) {
    EXPECT_EQ(classify_delivery_error(e), delivery_outcome::retriable) << rd_kafka_err2name(e);
  }
}

TEST(DeliveryErrorDecisions, PurgedMessagesAreNotRetriedAndTheOutageHoldsPurgeIsNotSent) {
  // The outage hold's purge: not an attempt's end (docs/retries.md, "Outage: hold and purge").
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR__PURGE_QUEUE), delivery_outcome::not_sent);
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR__PURGE_INFLIGHT), delivery_outcome::non_retriable);
}

TEST(DeliveryErrorDecisions, FatalAndConfigurationErrorsAreNotRetriable) {
  for (auto e : {RD_KAFKA_RESP_ERR__FATAL, RD_KAFKA_RESP_ERR__INVALID_ARG, RD_KAFKA_RESP_ERR__STATE,
                 RD_KAFKA_RESP_ERR__AUTHENTICATION, RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                 RD_KAFKA_RESP_ERR_INVALID_REQUIRED_ACKS, RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION,
                 RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED}) {
    EXPECT_EQ(classify_delivery_error(e), delivery_outcome::non_retriable) << rd_kafka_err2name(e);
  }
}

TEST(DeliveryErrorDecisions, UnknownTopicOrPartitionIsRetriableLocallyAndFromTheBroker) {
  // Java's UnknownTopicOrPartitionException is retriable; a just-created topic may not be in
  // metadata yet. Retries are bounded, so a deleted topic still ends in a failure.
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC), delivery_outcome::retriable);
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION), delivery_outcome::retriable);
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART), delivery_outcome::retriable);
}

TEST(DeliveryErrorDecisions, BrokerNotAvailableIsRetriableAlthoughJavaSaysOtherwise) {
  EXPECT_EQ(classify_delivery_error(RD_KAFKA_RESP_ERR_BROKER_NOT_AVAILABLE), delivery_outcome::retriable);
}

TEST(DeliveryErrorDecisions, JavaRetriableErrorsThatLibrdkafkaTreatsAsPermanentAreRetriable) {
  for (auto e :
       {RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION, RD_KAFKA_RESP_ERR_INVALID_MSG, RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH,
        RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH, RD_KAFKA_RESP_ERR_THROTTLING_QUOTA_EXCEEDED}) {
    EXPECT_EQ(classify_delivery_error(e), delivery_outcome::retriable) << rd_kafka_err2name(e);
  }
}

TEST(DeliveryErrorDecisions, JavaRetriableProduceErrorsAreRetriable) {
  for (int code : {2, 3, 5, 6, 7, 9, 13, 19, 20, 41, 51, 56, 72, 74, 75, 78, 80, 83, 89, 100, 103}) {
    EXPECT_EQ(classify_delivery_error(err(code)), delivery_outcome::retriable) << code;
  }
}

TEST(DeliveryErrorDecisions, RecordAndPermissionErrorsAreNotRetriable) {
  for (int code : {1, 10, 18, 21, 29, 31, 32, 35, 43, 44, 45, 47, 58, 59, 87}) {
    EXPECT_EQ(classify_delivery_error(err(code)), delivery_outcome::non_retriable) << code;
  }
}

TEST(DeliveryErrorAdvice, SizeErrorsNameTheTraceBudgetAndTheLimits) {
  for (auto e : {RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE}) {
    const std::string advice{delivery_error_advice(e)};
    EXPECT_NE(advice.find("status.storage.trace.max.bytes"), std::string::npos) << rd_kafka_err2name(e);
    EXPECT_NE(advice.find("max.message.bytes"), std::string::npos) << rd_kafka_err2name(e);
  }
  EXPECT_NE(delivery_error_advice(RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED).find("Write"), std::string_view::npos);
}

TEST(DeliveryErrorAdvice, AuthenticationErrorsNameTheSecuritySettingsAndAreCountedApart) {
  for (auto e :
       {RD_KAFKA_RESP_ERR__AUTHENTICATION, RD_KAFKA_RESP_ERR__SSL, RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED}) {
    EXPECT_EQ(classify_delivery_error(e), delivery_outcome::non_retriable) << rd_kafka_err2name(e);
    EXPECT_TRUE(is_authentication_error(e)) << rd_kafka_err2name(e);
    EXPECT_NE(std::string{delivery_error_advice(e)}.find("sasl.*"), std::string::npos) << rd_kafka_err2name(e);
  }
  for (auto e : {RD_KAFKA_RESP_ERR_NO_ERROR, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT,
                 RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED, RD_KAFKA_RESP_ERR__TRANSPORT}) {
    EXPECT_FALSE(is_authentication_error(e)) << rd_kafka_err2name(e);
  }
}

TEST(DeliveryErrorAdvice, OnlyNonRetriableErrorsGetAdvice) {
  for (const auto& row : delivery_error_table()) {
    if (row.retriable) {
      EXPECT_TRUE(delivery_error_advice(static_cast<rd_kafka_resp_err_t>(row.code)).empty()) << row.name;
    }
  }
  EXPECT_TRUE(delivery_error_advice(RD_KAFKA_RESP_ERR_NO_ERROR).empty());
}

}  // namespace
}  // namespace status_store
