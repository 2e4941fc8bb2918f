// When a credential episode starts and ends: the error sequences are the ones librdkafka 2.0.2
// hands its error callback, measured against Kafka 4.4.0 (see credential_failure_watch.hpp).
#include "actors/kafka/credential_failure_watch.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {

const char* const wrong_password =
    "sasl_plaintext://127.0.0.1:9093/bootstrap: SASL authentication error: Authentication failed: Invalid username "
    "or password (after 302ms in state AUTH_REQ)";

}  // namespace

TEST(CredentialFailureWatch, AWrongPasswordStartsAnEpisodeThatAllBrokersDownDoesNotEnd) {
  credential_failure_watch watch{"status producer"};
  EXPECT_FALSE(watch.failing());
  EXPECT_FALSE(watch.failure());
  // What a wrong password gives, in this order, and nothing else until the next reconnect.
  watch.on_error(RD_KAFKA_RESP_ERR__AUTHENTICATION, wrong_password);
  watch.on_error(RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, "1/1 brokers are down");
  watch.on_error(RD_KAFKA_RESP_ERR__AUTHENTICATION, wrong_password);
  ASSERT_TRUE(watch.failing());
  const auto failure = watch.failure();
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->error, RD_KAFKA_RESP_ERR__AUTHENTICATION);
  EXPECT_EQ(failure->reason, wrong_password) << "the first reason of the episode is kept";
}

TEST(CredentialFailureWatch, ATlsHandshakeFailureIsACredentialFailureToo) {
  credential_failure_watch watch{"admin"};
  watch.on_error(RD_KAFKA_RESP_ERR__SSL,
                 "ssl://127.0.0.1:9094/bootstrap: SSL handshake failed: certificate verify failed");
  watch.on_error(RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, "1/1 brokers are down");
  ASSERT_TRUE(watch.failure());
  EXPECT_EQ(watch.failure()->error, RD_KAFKA_RESP_ERR__SSL);
}

TEST(CredentialFailureWatch, ASuccessfulRequestEndsTheEpisode) {
  credential_failure_watch watch{"status producer"};
  watch.on_error(RD_KAFKA_RESP_ERR__AUTHENTICATION, wrong_password);
  watch.clear();
  EXPECT_FALSE(watch.failing());
  EXPECT_FALSE(watch.failure());
}

// Credentials that started working again (no delivery yet), then the broker goes away: its
// _TRANSPORT errors end the episode, so the outage's timeouts are retried, not taken for
// authentication failures.
TEST(CredentialFailureWatch, AConnectionFailingForAnotherReasonEndsTheEpisode) {
  for (const auto error : {RD_KAFKA_RESP_ERR__TRANSPORT, RD_KAFKA_RESP_ERR__RESOLVE}) {
    credential_failure_watch watch{"status producer"};
    watch.on_error(RD_KAFKA_RESP_ERR__AUTHENTICATION, wrong_password);
    ASSERT_TRUE(watch.failing());
    watch.on_error(error, "sasl_plaintext://127.0.0.1:9093/1: Disconnected (after 3089ms in state UP)");
    EXPECT_FALSE(watch.failing()) << rd_kafka_err2name(error);
    EXPECT_FALSE(watch.failure()) << rd_kafka_err2name(error);
    // The next refusal starts a new episode.
    watch.on_error(RD_KAFKA_RESP_ERR__AUTHENTICATION, wrong_password);
    EXPECT_TRUE(watch.failing()) << rd_kafka_err2name(error);
  }
}

TEST(CredentialFailureWatch, OtherErrorsNeitherStartNorEndAnEpisode) {
  credential_failure_watch watch{"status producer"};
  for (const auto error : {RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, RD_KAFKA_RESP_ERR__TIMED_OUT,
                           RD_KAFKA_RESP_ERR__MSG_TIMED_OUT, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION}) {
    watch.on_error(error, "something else");
    EXPECT_FALSE(watch.failing()) << rd_kafka_err2name(error);
  }
  watch.on_error(RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED, "the broker's own error code");
  for (const auto error :
       {RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT}) {
    watch.on_error(error, "something else");
    EXPECT_TRUE(watch.failing()) << rd_kafka_err2name(error);
  }
}
