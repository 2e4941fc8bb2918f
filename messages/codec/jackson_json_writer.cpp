// See jackson_json_writer.hpp for the two ways Jackson's bytes differ from nlohmann's dump.
#include "messages/codec/jackson_json_writer.hpp"

namespace status_store {

namespace {

constexpr char upper_hex[] = "0123456789ABCDEF";

void append_u_escape(std::string& out, unsigned code_unit) {
  out.append("\\u");
  out.push_back(upper_hex[(code_unit >> 12) & 0xF]);
  out.push_back(upper_hex[(code_unit >> 8) & 0xF]);
  out.push_back(upper_hex[(code_unit >> 4) & 0xF]);
  out.push_back(upper_hex[code_unit & 0xF]);
}

}  // namespace

std::string to_jackson_bytes(const nlohmann::ordered_json& j) {
  const std::string dumped = j.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(dumped.size() + 16);
  for (std::size_t i = 0; i < dumped.size();) {
    const auto c = static_cast<unsigned char>(dumped[i]);
    if (c == '\\' && i + 1 < dumped.size()) {
      if (dumped[i + 1] == 'u' && i + 5 < dumped.size()) {
        // nlohmann writes \u only for U+0000..U+001F (ensure_ascii=false): upper-case its hex.
        out.append("\\u");
        for (std::size_t k = i + 2; k < i + 6; ++k) {
          char h = dumped[k];
          if (h >= 'a' && h <= 'f') h = static_cast<char>(h - 'a' + 'A');
          out.push_back(h);
        }
        i += 6;
      } else {
        out.append(dumped, i, 2);  // \" \\ \b \f \n \r \t: identical in Jackson
        i += 2;
      }
    } else if (c >= 0xF0 && i + 3 < dumped.size()) {
      // A 4-byte sequence (the dump is valid UTF-8): Jackson writes it as an escaped surrogate pair.
      const unsigned cp = ((c & 0x07u) << 18) | ((static_cast<unsigned char>(dumped[i + 1]) & 0x3Fu) << 12) |
                          ((static_cast<unsigned char>(dumped[i + 2]) & 0x3Fu) << 6) |
                          (static_cast<unsigned char>(dumped[i + 3]) & 0x3Fu);
      const unsigned v = cp - 0x10000u;
      append_u_escape(out, 0xD800u + (v >> 10));
      append_u_escape(out, 0xDC00u + (v & 0x3FFu));
      i += 4;
    } else {
      out.push_back(static_cast<char>(c));
      ++i;
    }
  }
  return out;
}

bool written_verbatim(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == '"' || c == '\\') return false;
      ++i;
      continue;
    }
    // Multi-byte UTF-8: accept well-formed 2- and 3-byte sequences only; anything else (4-byte
    // sequences, invalid bytes) takes the library path, which escapes or replaces it.
    std::size_t length = 0;
    uint32_t code = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
      code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      code = c & 0x0F;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      code = (code << 6) | (cc & 0x3F);
    }
    if (length == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) return false;  // overlong, surrogate
    i += length;
  }
  return true;
}

void append_quoted(std::string& out, std::string_view text) {
  out += '"';
  out += text;
  out += '"';
}

}  // namespace status_store
