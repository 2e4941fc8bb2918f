// The numeric settings (the five status.storage.retry.* of the KIP among them) at their boundaries,
// the values stored, and the KIP's initial <= max backoff cross-check.
#include "worker_config_test_support.hpp"

namespace status_store {
namespace {

// ---- numeric settings: one table of boundaries -------------------------------------------------------

struct numeric_case {
  std::string key;
  std::string value;
  std::string rule;  // empty: the value is valid
};

std::ostream& operator<<(std::ostream& out, const numeric_case& c) {
  return out << c.key << "='" << c.value << "' -> " << (c.rule.empty() ? "valid" : c.rule);
}

class WorkerConfigNumeric : public ::testing::TestWithParam<numeric_case> {};

TEST_P(WorkerConfigNumeric, AcceptsOrRejectsWithKafkasWording) {
  const numeric_case& c = GetParam();
  properties props = with({{c.key, c.value}});
  // Let the backoff bounds be tested alone, without tripping the initial <= max cross-check.
  if (c.key == "status.storage.retry.initial.backoff.ms") {
    props.emplace("status.storage.retry.max.backoff.ms", "9223372036854775807");
  }
  if (c.key == "status.storage.retry.max.backoff.ms") props.emplace("status.storage.retry.initial.backoff.ms", "0");
  if (c.rule.empty()) {
    EXPECT_NO_THROW(parse_worker_config(props));
    return;
  }
  const auto error = error_for(props);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), c.key);
  EXPECT_EQ(error->value(), std::string{c.value});
  EXPECT_EQ(error->rule(), c.rule);
  EXPECT_EQ(std::string{error->what()}, "Invalid value " + c.value + " for configuration " + c.key + ": " + c.rule);
}

INSTANTIATE_TEST_SUITE_P(
    HistoryAndFlapping, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.history.max.transitions", "0", ""},
                      numeric_case{"status.history.max.transitions", "2147483647", ""},
                      numeric_case{"status.history.max.transitions", "-1", "Value must be at least 0"},
                      numeric_case{"status.history.max.transitions", "2147483648", "Not a number of type INT"},
                      numeric_case{"status.history.max.total", "1", ""},
                      numeric_case{"status.history.max.total", "0", "Value must be at least 1"},
                      numeric_case{"status.history.max.total", "2147483648", "Value must be no more than 2147483647"},
                      numeric_case{"status.flap.threshold", "1", ""},
                      numeric_case{"status.flap.threshold", "0", "Value must be at least 1"},
                      numeric_case{"status.flap.threshold", "x", "Not a number of type INT"},
                      numeric_case{"status.flap.window.ms", "1", ""},
                      numeric_case{"status.flap.window.ms", "2147483647", ""},
                      numeric_case{"status.flap.window.ms", "0", "Value must be at least 1"},
                      numeric_case{"status.flap.window.ms", "2147483648", "Value must be no more than 2147483647"}));

const std::string partitions_rule = "Number of partitions must be positive, or -1 to use the broker's default";
const std::string replication_rule =
    "Replication factor must be positive and not larger than the number of brokers in the Kafka cluster, or -1 "
    "to use the broker's default";

INSTANTIATE_TEST_SUITE_P(
    Partitions, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.partitions", "1", ""},
                      numeric_case{"status.storage.partitions", "-1", ""},
                      numeric_case{"status.storage.partitions", "2147483647", ""},
                      numeric_case{"status.storage.partitions", "+7", ""},
                      numeric_case{"status.storage.partitions", "0", partitions_rule},
                      numeric_case{"status.storage.partitions", "-2", partitions_rule},
                      numeric_case{"status.storage.partitions", "2147483648", "Not a number of type INT"},
                      numeric_case{"status.storage.partitions", "five", "Not a number of type INT"},
                      numeric_case{"status.storage.partitions", "5.0", "Not a number of type INT"}));

INSTANTIATE_TEST_SUITE_P(
    ReplicationFactor, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.replication.factor", "1", ""},
                      numeric_case{"status.storage.replication.factor", "-1", ""},
                      numeric_case{"status.storage.replication.factor", "32767", ""},
                      numeric_case{"status.storage.replication.factor", "0", replication_rule},
                      numeric_case{"status.storage.replication.factor", "-2", replication_rule},
                      numeric_case{"status.storage.replication.factor", "-32768", replication_rule},
                      numeric_case{"status.storage.replication.factor", "32768", "Not a number of type SHORT"},
                      numeric_case{"status.storage.replication.factor", "-32769", "Not a number of type SHORT"},
                      numeric_case{"status.storage.replication.factor", "3x", "Not a number of type SHORT"}));

INSTANTIATE_TEST_SUITE_P(
    MaxRetries, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.retry.max.retries", "0", ""},
                      numeric_case{"status.storage.retry.max.retries", "2147483647", ""},
                      numeric_case{"status.storage.retry.max.retries", "-1", "Value must be at least 0"},
                      numeric_case{"status.storage.retry.max.retries", "-2147483648", "Value must be at least 0"},
                      numeric_case{"status.storage.retry.max.retries", "2147483648", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "99999999999999999999999",
                                   "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "abc", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "5x", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "1.5", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "1e3", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "0x10", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "+", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "-", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "+-1", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "1 2", "Not a number of type INT"}));

INSTANTIATE_TEST_SUITE_P(
    InitialBackoff, WorkerConfigNumeric,
    ::testing::Values(
        numeric_case{"status.storage.retry.initial.backoff.ms", "0", ""},
        numeric_case{"status.storage.retry.initial.backoff.ms", "9223372036854775807", ""},
        numeric_case{"status.storage.retry.initial.backoff.ms", "-1", "Value must be at least 0"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "9223372036854775808", "Not a number of type LONG"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "-9223372036854775809", "Not a number of type LONG"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "300ms", "Not a number of type LONG"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "", "Not a number of type LONG"}));

INSTANTIATE_TEST_SUITE_P(
    MaxBackoff, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.retry.max.backoff.ms", "0", ""},
                      numeric_case{"status.storage.retry.max.backoff.ms", "9223372036854775807", ""},
                      numeric_case{"status.storage.retry.max.backoff.ms", "-1", "Value must be at least 0"},
                      numeric_case{"status.storage.retry.max.backoff.ms", "9223372036854775808",
                                   "Not a number of type LONG"},
                      numeric_case{"status.storage.retry.max.backoff.ms", "10s", "Not a number of type LONG"}));

INSTANTIATE_TEST_SUITE_P(
    Multiplier, WorkerConfigNumeric,
    ::testing::Values(
        numeric_case{"status.storage.retry.backoff.multiplier", "1.0", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1000000", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1e300", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1.", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "+2.5E0", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "0.99", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "0.9999999999", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "-2", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "1e-400", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "1e400", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "inf", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "Infinity", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "NaN", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "two", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "2.0d", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "0x1p1", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", ".", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "2e", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "2,5", "Not a number of type DOUBLE"}));

INSTANTIATE_TEST_SUITE_P(
    Jitter, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.retry.jitter.factor", "0.0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "-0.0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "1.0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", ".5", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "1e-400", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "1.0000001", "Value must be no more than 1.0"},
                      numeric_case{"status.storage.retry.jitter.factor", "2", "Value must be no more than 1.0"},
                      numeric_case{"status.storage.retry.jitter.factor", "-0.1", "Value must be at least 0.0"},
                      numeric_case{"status.storage.retry.jitter.factor", "NaN", "Value must be a finite number"},
                      numeric_case{"status.storage.retry.jitter.factor", "-inf", "Value must be a finite number"},
                      numeric_case{"status.storage.retry.jitter.factor", "quarter", "Not a number of type DOUBLE"}));

INSTANTIATE_TEST_SUITE_P(
    MessageTimeout, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"producer.message.timeout.ms", "1", ""},
                      numeric_case{"producer.message.timeout.ms", "2147483647", ""},
                      numeric_case{"producer.message.timeout.ms", "0", "Value must be at least 1"},
                      numeric_case{"producer.message.timeout.ms", "-5", "Value must be at least 1"},
                      numeric_case{"producer.message.timeout.ms", "2147483648",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"producer.message.timeout.ms", "15s", "Not a number of type LONG"}));

INSTANTIATE_TEST_SUITE_P(
    ShutdownDrainTimeout, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.shutdown.drain.timeout.ms", "0", ""},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "2147483647", ""},
                      // Once accepted, and converted to ns it overflowed: a "drain forever" drained nothing.
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "2147483648",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "9223372036854775807",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "-1", "Value must be at least 0"},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "ten", "Not a number of type LONG"}));

// Below 1 KiB the truncation marker would crowd out the trace it explains.
INSTANTIATE_TEST_SUITE_P(
    TraceMaxBytes, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.trace.max.bytes", "1024", ""},
                      numeric_case{"status.storage.trace.max.bytes", "2147483647", ""},
                      numeric_case{"status.storage.trace.max.bytes", "1023", "Value must be at least 1024"},
                      numeric_case{"status.storage.trace.max.bytes", "2147483648",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"status.storage.trace.max.bytes", "64k", "Not a number of type LONG"}));

TEST(WorkerConfigNumericValues, ParsedValuesAreStored) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.partitions", "-1"},
      {"status.storage.replication.factor", "-1"},
      {"status.storage.retry.max.retries", "2147483647"},
      {"status.storage.retry.initial.backoff.ms", "100"},
      {"status.storage.retry.max.backoff.ms", "30000"},
      {"status.storage.retry.backoff.multiplier", "1.5"},
      {"status.storage.retry.jitter.factor", "0.0"},
      {"producer.message.timeout.ms", "30000"},
      {"status.storage.shutdown.drain.timeout.ms", "0"},
      {"status.storage.trace.max.bytes", "4096"},
  }));
  EXPECT_EQ(config.partitions, -1);
  EXPECT_EQ(config.replication_factor, -1);
  EXPECT_EQ(config.retry.max_retries, 2147483647);
  EXPECT_EQ(config.retry.initial_backoff_ms, 100);
  EXPECT_EQ(config.retry.max_backoff_ms, 30000);
  EXPECT_EQ(config.retry.backoff_multiplier, 1.5);
  EXPECT_EQ(config.retry.jitter_factor, 0.0);
  EXPECT_EQ(config.message_timeout_ms, 30000);
  EXPECT_EQ(config.shutdown_drain_timeout_ms, 0);
  EXPECT_EQ(config.trace_max_bytes, 4096);
  EXPECT_TRUE(config.topic_settings.empty());  // status-store's own setting, not a topic config
}

TEST(WorkerConfigNumericValues, TheDrainTimeoutSetInCodeIsBoundedWhereItIsConverted) {
  worker_config config;  // an embedder's, not parsed: any int64 may be in the field
  using std::chrono::milliseconds;
  config.shutdown_drain_timeout_ms = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(config.shutdown_drain_timeout(), milliseconds{2147483647});
  EXPECT_GT(std::chrono::nanoseconds{config.shutdown_drain_timeout() + std::chrono::seconds{5}}.count(), 0);
  config.shutdown_drain_timeout_ms = -5;
  EXPECT_EQ(config.shutdown_drain_timeout(), milliseconds{0});
  config.shutdown_drain_timeout_ms = 1234;
  EXPECT_EQ(config.shutdown_drain_timeout(), milliseconds{1234});
}

TEST(WorkerConfigNumericValues, WhitespaceAroundValuesIsTrimmedLikeKafka) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.retry.max.retries", "  7\t"},
      {"status.storage.retry.jitter.factor", " 0.5 "},
      {"status.storage.partitions", "\t3 "},
  }));
  EXPECT_EQ(config.retry.max_retries, 7);
  EXPECT_EQ(config.retry.jitter_factor, 0.5);
  EXPECT_EQ(config.partitions, 3);
}

TEST(WorkerConfigNumericValues, LargestLongBackoffsAreValidTogether) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.retry.initial.backoff.ms", "9223372036854775807"},
      {"status.storage.retry.max.backoff.ms", "9223372036854775807"},
  }));
  EXPECT_EQ(config.retry.initial_backoff_ms, 9223372036854775807);
}

// ---- the KIP's cross-check ------------------------------------------------------------------------------

TEST(WorkerConfigBackoffCrossCheck, InitialEqualToMaxIsValid) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.retry.initial.backoff.ms", "5000"},
      {"status.storage.retry.max.backoff.ms", "5000"},
  }));
  EXPECT_EQ(config.retry.initial_backoff_ms, 5000);
  EXPECT_EQ(config.retry.max_backoff_ms, 5000);
}

TEST(WorkerConfigBackoffCrossCheck, InitialAboveMaxIsRejected) {
  const auto error = error_for(with({
      {"status.storage.retry.initial.backoff.ms", "5001"},
      {"status.storage.retry.max.backoff.ms", "5000"},
  }));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "status.storage.retry.initial.backoff.ms");
  EXPECT_EQ(error->value(), "5001");
  EXPECT_STREQ(error->what(),
               "Invalid value 5001 for configuration status.storage.retry.initial.backoff.ms: Value must be <= "
               "status.storage.retry.max.backoff.ms=5000");
}

TEST(WorkerConfigBackoffCrossCheck, AppliesToDefaultsToo) {
  // Lowering only max.backoff.ms below the default initial (300) is an error as well.
  auto error = error_for(with({{"status.storage.retry.max.backoff.ms", "299"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "status.storage.retry.initial.backoff.ms");
  EXPECT_EQ(error->value(), "300");
  EXPECT_EQ(error->rule(), "Value must be <= status.storage.retry.max.backoff.ms=299");

  error = error_for(with({{"status.storage.retry.initial.backoff.ms", "10001"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Value must be <= status.storage.retry.max.backoff.ms=10000");
}

TEST(WorkerConfigBackoffCrossCheck, IsCheckedRightAfterTheRetrySettingsAsBefore) {
  // The settings table runs it after the five retry rows, so a later row's error does not hide it.
  const auto error = error_for(with({{"status.storage.retry.initial.backoff.ms", "500"},
                                     {"status.storage.retry.max.backoff.ms", "400"},
                                     {"producer.message.timeout.ms", "0"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "status.storage.retry.initial.backoff.ms");
  EXPECT_EQ(error->rule(), "Value must be <= status.storage.retry.max.backoff.ms=400");
}

}  // namespace
}  // namespace status_store
