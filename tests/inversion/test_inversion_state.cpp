// The inversion state's integrity: a checksum over every byte, then every count in its range and
// the sizes against each other and the file, every value finite. A damaged or edited state.bin is
// refused with one line before anything of it is used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/inversion/fingerprint.hpp"
#include "revwave/inversion/inversion_state.hpp"

namespace {

using namespace revwave;

InversionState sample_state() {
  InversionState s;
  s.fingerprint = "0123456789abcdef";
  s.band = 1;
  s.band_iteration = 2;
  s.iteration = 5;
  s.band_started = true;
  s.ended = {BandEnd::iterations};
  s.model = {2000, 2100, 2200};
  s.optimizer.x = s.model;
  s.optimizer.g = {1e-9, -2e-9, 0};
  s.optimizer.f = 0.25;
  s.optimizer.memory = LbfgsMemory(3);
  s.optimizer.memory.assign({{{1, 0, 0}, {2, 0, 0}}});
  s.diagonal = {1, 0.5, 0.25};
  return s;
}

std::string refusal(const std::string& bytes) {
  try {
    decode_inversion_state(bytes, "inv/state.bin");
  } catch (const IoError& e) {
    return e.what();
  }
  return "(accepted)";
}

// The bytes with their checksum made right again, as an editor who knew the format would leave them.
std::string resealed(std::string bytes, int format = 3) {
  const std::uint64_t sum = state_checksum(bytes.data(), bytes.size() - 8, format);
  for (int b = 0; b < 8; ++b) bytes[bytes.size() - 8 + b] = static_cast<char>((sum >> (8 * b)) & 0xff);
  return bytes;
}

// The header line's text with `from` replaced by `to`, resealed.
std::string edited(const InversionState& s, const std::string& from, const std::string& to) {
  std::string bytes = encode_inversion_state(s);
  const auto at = bytes.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  bytes.replace(at, from.size(), to);
  return resealed(bytes);
}

TEST(InversionStateIntegrity, AFlippedBitAnywhereIsFoundByTheChecksum) {
  const std::string good = encode_inversion_state(sample_state());
  EXPECT_EQ(decode_inversion_state(good, "inv/state.bin").model, sample_state().model);
  for (std::size_t at :
       {std::size_t(30), good.find("\"band\":1") + 7, good.size() / 2, good.size() - 20, good.size() - 1}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    const std::string m = refusal(bad);
    EXPECT_NE(m.find("inv/state.bin: the inversion state is invalid: its checksum does not match its contents"),
              std::string::npos)
        << at << ": " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
  EXPECT_NE(refusal(good.substr(0, good.size() - 3)).find("checksum does not match"), std::string::npos);
  EXPECT_NE(refusal("revwave-inversion-state 1\n{}\n").find("written by an older revwave, without a checksum"),
            std::string::npos);
}

TEST(InversionStateIntegrity, AStateThatIsConsistentlySealedButWrongIsRefused) {
  const InversionState s = sample_state();
  EXPECT_NE(refusal(edited(s, "\"band\":1", "\"band\":7")).find("it is at band 8 with 1 bands ended before it"),
            std::string::npos);
  EXPECT_NE(refusal(edited(s, "\"band\":1", "\"band\":-1")).find("'band' is -1, outside [0,"), std::string::npos);
  EXPECT_NE(refusal(edited(s, "\"band_iteration\":2", "\"band_iteration\":9"))
                .find("band iterations 9 exceed the iterations in all"),
            std::string::npos);
  EXPECT_NE(refusal(edited(s, "\"n\":3", "\"n\":4")).find("its vectors' sizes disagree"), std::string::npos);
  EXPECT_NE(refusal(edited(s, "\"pairs\":1", "\"pairs\":3")).find("its size does not match its header"),
            std::string::npos);
  EXPECT_NE(refusal(edited(s, "\"pairs\":1", "\"pairs\":9")).find("'pairs' is 9, outside [0, 3]"), std::string::npos);
  EXPECT_NE(refusal(edited(s, "\"ended\":[1]", "\"ended\":[0]")).find("a band's end reason 0 is none of revwave's"),
            std::string::npos);
  EXPECT_NE(refusal(edited(s, "\"n\":3", "\"n\":1e30")).find("'n' is not an integer"), std::string::npos);
  InversionState nan = s;
  nan.model[1] = std::nan("");
  EXPECT_NE(refusal(encode_inversion_state(nan)).find("it holds a value that is not finite"), std::string::npos);
  InversionState negative = s;
  negative.diagonal[0] = -1;
  EXPECT_NE(refusal(encode_inversion_state(negative)).find("its preconditioner holds a value that is not positive"),
            std::string::npos);
  InversionState running = s;
  running.optimizer.x.clear();
  running.optimizer.g.clear();
  running.optimizer.memory.clear();
  EXPECT_NE(refusal(encode_inversion_state(running)).find("a band that runs has no optimiser state"),
            std::string::npos);
}

// revwave 0.2.0 wrote format 2: the same bytes under "revwave-inversion-state 2", sealed with 64-bit
// FNV-1a a byte at a time (written out here as that version computed it, the independent truth).
std::uint64_t fnv1a_of_0_2_0(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string as_format_2(const InversionState& s) {
  std::string bytes = encode_inversion_state(s);
  bytes.replace(0, std::string("revwave-inversion-state 3").size(), "revwave-inversion-state 2");
  const std::uint64_t sum = fnv1a_of_0_2_0(bytes.substr(0, bytes.size() - 8));
  for (int b = 0; b < 8; ++b) bytes[bytes.size() - 8 + b] = static_cast<char>((sum >> (8 * b)) & 0xff);
  return bytes;
}

TEST(InversionStateFormats, FormatThreeIsWrittenAndSealedWithXxh3) {
  const std::string bytes = encode_inversion_state(sample_state());
  EXPECT_EQ(bytes.substr(0, bytes.find('\n')), "revwave-inversion-state 3");
  std::uint64_t stored = 0;
  for (int b = 0; b < 8; ++b)
    stored |= std::uint64_t(static_cast<unsigned char>(bytes[bytes.size() - 8 + b])) << (8 * b);
  EXPECT_EQ(stored, xxh3(bytes.data(), bytes.size() - 8));
  EXPECT_NE(stored, fnv1a_of_0_2_0(bytes.substr(0, bytes.size() - 8)));
  EXPECT_EQ(decode_inversion_state(bytes, "inv/state.bin").format, 3);
}

TEST(InversionStateFormats, AFormatTwoStateOfRevwave020IsReadAsItWas) {
  const InversionState s = sample_state();
  const InversionState r = decode_inversion_state(as_format_2(s), "inv/state.bin");
  EXPECT_EQ(r.format, 2);
  EXPECT_EQ(r.fingerprint, s.fingerprint);
  EXPECT_EQ(r.model, s.model);
  EXPECT_EQ(r.optimizer.g, s.optimizer.g);
  EXPECT_EQ(r.diagonal, s.diagonal);
  ASSERT_EQ(r.optimizer.memory.size(), 1u);
  EXPECT_EQ(r.optimizer.memory.pairs().front().y, s.optimizer.memory.pairs().front().y);
  // Each format's header with the other's checksum is damage, not a format.
  std::string crossed = as_format_2(s);
  crossed = resealed(crossed, 3);
  EXPECT_NE(refusal(crossed).find("checksum does not match"), std::string::npos);
  std::string other = encode_inversion_state(s);
  other = resealed(other, 2);
  EXPECT_NE(refusal(other).find("checksum does not match"), std::string::npos);
}

// The fingerprint of a format-2 state is 0.2.0's FNV-1a over the same pieces; the hasher's pieces
// may be cut anywhere.
TEST(InversionStateFormats, HashersGiveTheHashOfTheConcatenatedPieces) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text.push_back(static_cast<char>((i * 7919) % 251));
  for (HashKind kind : {HashKind::fnv1a, HashKind::xxh3}) {
    Hasher whole(kind), pieces(kind);
    whole.add(text.data(), text.size());
    for (std::size_t at = 0, step = 1; at < text.size(); at += step, step = step * 3 % 977 + 1)
      pieces.add(text.data() + at, std::min(step, text.size() - at));
    pieces.add(nullptr, 0);
    EXPECT_EQ(whole.value(), pieces.value());
    EXPECT_EQ(whole.value(), kind == HashKind::fnv1a ? fnv1a_of_0_2_0(text) : xxh3(text.data(), text.size()));
  }
}

}  // namespace
