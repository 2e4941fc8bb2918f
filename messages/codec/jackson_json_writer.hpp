#pragma once
// JSON written byte for byte as Jackson's UTF8JsonGenerator writes it (what Connect's JsonConverter
// produces). A compact nlohmann dump (ensure_ascii=false) differs from Jackson's bytes in two ways:
//   1. Control characters other than \b \t \n \f \r are escaped as \u00XX with UPPER-case hex
//      (Jackson's CharTypes hex table); nlohmann writes lower-case.
//   2. Characters outside the BMP (4-byte UTF-8) are written by Jackson as an escaped UTF-16
//      surrogate pair, e.g. U+1F600 -> \uD83D\uDE00 (jackson-core issue #223; the opt-in
//      COMBINE_UNICODE_SURROGATES_IN_UTF8 of 2.18+ is not enabled by Kafka). BMP characters, DEL
//      (0x7F) and '/' are written raw by both.
// The rewrite is safe because in nlohmann's compact output every backslash introduces an escape, so
// scanning escapes pairwise never mistakes text for an escape, and every byte >= 0x80 lies inside a
// string. Strings that are not valid UTF-8 (Java strings always are) never make writing throw: each
// invalid sequence becomes U+FFFD, so such a value does not round-trip byte for byte.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace status_store {

/// Compact dump of `j` in Jackson's bytes. Never throws on bad UTF-8.
std::string to_jackson_bytes(const nlohmann::ordered_json& j);

/// True if JSON writes `text` verbatim between quotes, in nlohmann's and in Jackson's form alike:
/// valid UTF-8 with no '"', no '\\', no control character and no character outside the BMP.
/// Almost every status string qualifies, which is what the codec's fast paths rely on.
bool written_verbatim(std::string_view text);

/// Appends "text" (callers check written_verbatim first).
void append_quoted(std::string& out, std::string_view text);

}  // namespace status_store
