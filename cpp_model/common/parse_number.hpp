// Unsigned integers as users write them in traces, trace configs, a raw
// program's meta, environment variables and command-line flags: decimal or
// 0x hexadecimal, and nothing else. No sign, no spaces, no octal ("010" is
// ten, as a person reading it expects), no overflow. One rule for every
// reader, so a value that one file accepts another does not misread.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cosim {

// The value of `text`, or std::nullopt when it is not a number by the rule
// above or is above `max`; the caller words the one-line error.
inline std::optional<uint64_t> parse_unsigned(std::string_view text, uint64_t max = UINT64_MAX) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (hex) text.remove_prefix(2);
  uint64_t v = 0;  // from_chars into an unsigned type takes no sign and no space
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, hex ? 16 : 10);
  if (ec != std::errc() || end != text.data() + text.size() || v > max) return std::nullopt;
  return v;
}

}  // namespace cosim
