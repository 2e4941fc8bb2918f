// The librdkafka a test binary loads is the one its build was configured with (cmake/Librdkafka.cmake):
// so the ASan phase, configured with Debian 12's 2.0.2, runs the integration tests on that version
// and not on another one found on the loader's path.
#include "actors/kafka/librdkafka_version.hpp"

#include <gtest/gtest.h>

TEST(LoadedLibrdkafka, IsTheVersionTheBuildWasConfiguredWith) {
  EXPECT_EQ(status_store::librdkafka_version(), STATUS_STORE_CONFIGURED_RDKAFKA_VERSION);
}
