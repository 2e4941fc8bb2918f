#include "messages/record_writer_header.hpp"

#include <random>

namespace status_store {

std::string make_writer_id(uint64_t entropy) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string id(16, '0');
  for (int i = 15; i >= 0; --i, entropy >>= 4) id[static_cast<size_t>(i)] = digits[entropy & 0xf];
  return id;
}

std::string new_writer_id() {
  std::random_device device;
  const uint64_t entropy = (static_cast<uint64_t>(device()) << 32) ^ device();
  return make_writer_id(entropy);
}

}  // namespace status_store
