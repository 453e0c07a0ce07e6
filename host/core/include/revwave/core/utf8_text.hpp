// An error's text as it may be shown: a message quotes what the user gave (a path, a file's bytes
// in a parser's words), which need not be UTF-8. Python turns a message into str by decoding it,
// and an undecodable byte left the exception with no message at all; a terminal shows it as noise.
#pragma once
#include <cstdio>
#include <string>

namespace revwave {

// `text` with every byte that is not part of a well-formed UTF-8 character, and every control
// character, written as \xNN; valid text is returned unchanged.
inline std::string utf8_text(const std::string& text) {
  const auto byte = [&text](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const auto continuation = [&](std::size_t i, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return i < text.size() && byte(i) >= lo && byte(i) <= hi;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = byte(i);
    std::size_t n = 0;  // the length of a well-formed character starting here, 0 where none does
    if (c >= 0x20 && c < 0x7F)
      n = 1;
    else if (c >= 0xC2 && c <= 0xDF)
      n = continuation(i + 1) ? 2 : 0;
    else if (c >= 0xE0 && c <= 0xEF)
      n = continuation(i + 1, c == 0xE0 ? 0xA0 : 0x80, c == 0xED ? 0x9F : 0xBF) && continuation(i + 2) ? 3 : 0;
    else if (c >= 0xF0 && c <= 0xF4)
      n = continuation(i + 1, c == 0xF0 ? 0x90 : 0x80, c == 0xF4 ? 0x8F : 0xBF) && continuation(i + 2) &&
                  continuation(i + 3)
              ? 4
              : 0;
    if (n == 0) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(c));
      out += escaped;
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace revwave
