#pragma once
// Bytes read from the status topic as they may appear in a log line. Anyone who can write to the topic
// chooses them, so before they reach a terminal or a log collector they are escaped (no terminal
// escape, no forged line break, no byte that is not UTF-8) and bounded. Pure logic: unit-tested in
// tests/unit/log_text_test.cpp.
#include <cstddef>
#include <string>
#include <string_view>

namespace status_store {

/// `text` as it may be logged: printable ASCII and well-formed UTF-8 are kept; every byte of a C0 or
/// C1 control character, DEL, U+2028/U+2029 (line breaks to some viewers), a bidirectional control
/// (U+061C, U+200E/F, U+202A..E, U+2066..9) and every byte that is not part of well-formed UTF-8
/// (RFC 3629: no overlong form, no surrogate, nothing above U+10FFFF) becomes \xNN; a backslash
/// becomes \\, so an escape in the output always means one in the input. At most `max_bytes` bytes
/// of output are kept, never splitting a character or an escape; a text cut short ends with
/// "...[N more bytes]", N counted in the input.
std::string escape_for_log(std::string_view text, std::size_t max_bytes);

}  // namespace status_store
