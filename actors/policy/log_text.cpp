#include "actors/policy/log_text.hpp"

#include <algorithm>

namespace status_store {

namespace {

/// The length of the well-formed UTF-8 sequence at `s[pos]`, and its code point in `cp`; 0 when the
/// byte there starts none (a stray continuation byte, a truncated or overlong sequence, a surrogate,
/// a value above U+10FFFF).
std::size_t utf8_sequence(std::string_view s, std::size_t pos, char32_t& cp) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[pos + i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    cp = lead;
    return 1;
  }
  // The sequence's length, the lead byte's payload bits and the smallest code point of that length.
  const std::size_t len = lead < 0xC2 ? 0 : lead <= 0xDF ? 2 : lead <= 0xEF ? 3 : lead <= 0xF4 ? 4 : 0;
  if (len == 0) return 0;
  constexpr char32_t lead_mask[] = {0, 0, 0x1F, 0x0F, 0x07};
  constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  cp = lead & lead_mask[len];
  if (pos + len > s.size()) return 0;
  for (std::size_t i = 1; i < len; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  if (cp < smallest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

/// Characters that a terminal or a log viewer acts on instead of showing.
bool acts_on_display(char32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x061C ||
         cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

void append_hex_escapes(std::string& out, std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += "\\x";
    out += digits[b >> 4];
    out += digits[b & 0x0F];
  }
}

}  // namespace

std::string escape_for_log(std::string_view text, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  std::string piece;
  for (std::size_t pos = 0; pos < text.size();) {
    char32_t cp = 0;
    std::size_t len = utf8_sequence(text, pos, cp);
    piece.clear();
    if (len == 0) {
      len = 1;
      append_hex_escapes(piece, text.substr(pos, 1));
    } else if (acts_on_display(cp)) {
      append_hex_escapes(piece, text.substr(pos, len));
    } else if (cp == '\\') {
      piece = "\\\\";
    } else {
      piece.assign(text.substr(pos, len));
    }
    if (out.size() + piece.size() > max_bytes) {
      out += "...[" + std::to_string(text.size() - pos) + " more bytes]";
      return out;
    }
    out += piece;
    pos += len;
  }
  return out;
}

}  // namespace status_store
