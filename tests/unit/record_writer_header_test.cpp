// The writer id that every record's status-store-writer header carries.
#include "messages/record_writer_header.hpp"

#include <gtest/gtest.h>

using namespace status_store;

TEST(RecordWriterHeader, TheIdIsSixteenLowercaseHexDigitsOfItsEntropy) {
  EXPECT_EQ(make_writer_id(0), "0000000000000000");
  EXPECT_EQ(make_writer_id(0xfedcba9876543210ULL), "fedcba9876543210");
  EXPECT_EQ(make_writer_id(~0ULL), "ffffffffffffffff");
}

TEST(RecordWriterHeader, EveryStoreDrawsAFreshId) {
  const auto a = new_writer_id(), b = new_writer_id();
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos) << a;
  EXPECT_NE(a, b);  // two draws of 64 random bits
}

TEST(RecordWriterHeader, TheHeaderNameIsAPlainAsciiLiteral) {
  // librdkafka takes the name as a NUL-terminated C string.
  EXPECT_EQ(writer_header_name, "status-store-writer");
  EXPECT_EQ(writer_header_name.data()[writer_header_name.size()], '\0');
}
