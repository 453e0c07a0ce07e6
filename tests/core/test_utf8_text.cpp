// utf8_text: an error's text with what is not UTF-8 written as \xNN (revwave/core/utf8_text.hpp).
#include "revwave/core/utf8_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using revwave::utf8_text;

TEST(Utf8Text, WellFormedTextIsUnchanged) {
  for (const std::string t : {"", "plain --out g.npy", "m\xc3\xa9thode", "\xe2\x82\xac 5", "\xf0\x9f\x8c\x8a wave",
                              "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf"})
    EXPECT_EQ(utf8_text(t), t);
}

TEST(Utf8Text, EveryOtherByteIsWrittenAsItsHexCode) {
  EXPECT_EQ(utf8_text("last read: '\x93'"), "last read: '\\x93'");  // a lone continuation byte
  EXPECT_EQ(utf8_text("a\xff"
                      "b"),
            "a\\xffb");
  EXPECT_EQ(utf8_text("\xc3"), "\\xc3");                             // cut short at the end
  EXPECT_EQ(utf8_text("\xc0\xaf"), "\\xc0\\xaf");                    // an overlong '/'
  EXPECT_EQ(utf8_text("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong in three bytes
  EXPECT_EQ(utf8_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(utf8_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(utf8_text("tab\there\n"), "tab\\x09here\\x0a");          // control characters
  EXPECT_EQ(utf8_text("\xc3\xa9\xc3"), "\xc3\xa9\\xc3");             // the good character kept
}

}  // namespace
