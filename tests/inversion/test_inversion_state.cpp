// The inversion state's integrity: a checksum over every byte of every file, then every count in its
// range and the sizes against each other and the files, every value finite. A damaged or edited
// state.bin or vector file is refused with one line before anything of it is used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
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

template <class Files>
std::string refusal(const Files& files) {
  try {
    decode_inversion_state(files, "inv/state.bin");
  } catch (const IoError& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string sealed(std::string bytes, std::uint64_t sum) {
  for (int b = 0; b < 8; ++b) bytes[bytes.size() - 8 + b] = static_cast<char>((sum >> (8 * b)) & 0xff);
  return bytes;
}

// The bytes with their checksum made right again, as an editor who knew the format would leave them.
std::string resealed(std::string bytes, int format = 4) {
  const std::uint64_t sum = state_checksum(bytes.data(), bytes.size() - 8, format);
  return sealed(std::move(bytes), sum);
}

// state.bin's header text with `from` replaced by `to`, resealed.
StateFiles edited(const InversionState& s, const std::string& from, const std::string& to) {
  StateFiles files = encode_inversion_state(s);
  const auto at = files.state.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  files.state.replace(at, from.size(), to);
  files.state = resealed(files.state);
  return files;
}

// revwave 0.3 wrote format 3, one file (its payload written out here from its documentation, the
// independent truth): the magic line, format 4's JSON line without the file names, f, the model,
// x, g, D, the pairs (s, y) oldest first, and the XXH3-64 of every byte before it.
std::string as_format_3(const InversionState& s) {
  const std::string four = encode_inversion_state(s).state;
  const std::size_t line = four.find('\n') + 1;
  nlohmann::json j = nlohmann::json::parse(four.substr(line, four.find('\n', line) - line));
  for (const char* key : {"model_is_x", "diagonal_file", "pair_files"}) EXPECT_EQ(j.erase(key), 1u) << key;
  std::string out = "revwave-inversion-state 3\n" + j.dump() + "\n";
  const auto put = [&](const std::vector<double>& v) {
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
  };
  put({s.optimizer.f});
  put(s.model);
  put(s.optimizer.x);
  put(s.optimizer.g);
  put(s.diagonal);
  for (const CurvaturePair& p : s.optimizer.memory.pairs()) {
    put(p.s);
    put(p.y);
  }
  out.append(8, '\0');
  return resealed(out, 3);
}

TEST(InversionStateIntegrity, AFlippedBitAnywhereIsFoundByTheChecksum) {
  const StateFiles good = encode_inversion_state(sample_state());
  EXPECT_EQ(decode_inversion_state(good, "inv/state.bin").model, sample_state().model);
  const std::string& state = good.state;
  for (std::size_t at :
       {std::size_t(30), state.find("\"band\":1") + 7, state.size() / 2, state.size() - 20, state.size() - 1}) {
    StateFiles bad = good;
    bad.state[at] = static_cast<char>(bad.state[at] ^ 0x10);
    const std::string m = refusal(bad);
    EXPECT_NE(m.find("inv/state.bin: the inversion state is invalid: its checksum does not match its contents"),
              std::string::npos)
        << at << ": " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
  StateFiles cut = good;
  cut.state.resize(cut.state.size() - 3);
  EXPECT_NE(refusal(cut).find("checksum does not match"), std::string::npos);
  EXPECT_NE(
      refusal(std::string("revwave-inversion-state 1\n{}\n")).find("written by an older revwave, without a checksum"),
      std::string::npos);
}

// The vector files state.bin names: each checked by its own checksum, against the name the state
// gives it (another valid file in its place is found), and missing ones named.
TEST(InversionStateIntegrity, AVectorFileDamagedMissingOrSwappedIsRefused) {
  const InversionState s = sample_state();
  const StateFiles good = encode_inversion_state(s);
  ASSERT_EQ(good.vectors.size(), 2u);  // the preconditioner and one pair
  const nlohmann::json header =
      nlohmann::json::parse(good.state.substr(good.state.find('\n') + 1, good.state.find('\n', 26) - 26));
  const std::string pair = header.at("pair_files").at(0).get<std::string>();
  const std::string diagonal = header.at("diagonal_file").get<std::string>();
  ASSERT_TRUE(good.vectors.count(pair) && good.vectors.count(diagonal));
  for (std::size_t at : {std::size_t(3), good.vectors.at(pair).size() / 2, good.vectors.at(pair).size() - 1}) {
    StateFiles bad = good;
    bad.vectors[pair][at] = static_cast<char>(bad.vectors[pair][at] ^ 0x01);
    EXPECT_NE(refusal(bad).find("inv/state.bin: the inversion state is invalid: its curvature pair 0 (state.d/" + pair +
                                ".bin)"),
              std::string::npos)
        << at << ": " << refusal(bad);
  }
  StateFiles missing = good;
  missing.vectors.erase(diagonal);
  EXPECT_NE(refusal(missing).find("its preconditioner (state.d/" + diagonal + ".bin) is missing"), std::string::npos);
  StateFiles swapped = good;
  swapped.vectors[pair] = good.vectors.at(diagonal);
  EXPECT_NE(refusal(swapped).find("is not the file the state names"), std::string::npos);
  // The pair named by the preconditioner's file: a sound file, of other vectors.
  StateFiles other = edited(s, pair, diagonal);
  EXPECT_NE(refusal(other).find("holds other vectors than the state says"), std::string::npos);
  // A name that would leave state.d is no vector file's name.
  EXPECT_NE(refusal(edited(s, pair, "../../etc/passw")).find("that is not 16 hex digits"), std::string::npos);
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
  EXPECT_NE(refusal(edited(s, "\"pairs\":1", "\"pairs\":3")).find("it names 1 curvature pair files for 3 pairs"),
            std::string::npos);
  EXPECT_NE(
      refusal(edited(s, "\"model_is_x\":true", "\"model_is_x\":false")).find("its size does not match its header"),
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
  std::string bytes = as_format_3(s);
  bytes.replace(0, std::string("revwave-inversion-state 3").size(), "revwave-inversion-state 2");
  return sealed(bytes, fnv1a_of_0_2_0(bytes.substr(0, bytes.size() - 8)));
}

// Format 4: state.bin holds f, x and g (the model is x here), sealed with XXH3; the preconditioner
// and the pair are files named by the XXH3 of their bytes.
TEST(InversionStateFormats, FormatFourIsWrittenWithItsVectorsInFilesOfTheirOwn) {
  const InversionState s = sample_state();
  const StateFiles files = encode_inversion_state(s);
  const std::string& bytes = files.state;
  EXPECT_EQ(bytes.substr(0, bytes.find('\n')), "revwave-inversion-state 4");
  std::uint64_t stored = 0;
  for (int b = 0; b < 8; ++b)
    stored |= std::uint64_t(static_cast<unsigned char>(bytes[bytes.size() - 8 + b])) << (8 * b);
  EXPECT_EQ(stored, xxh3(bytes.data(), bytes.size() - 8));
  EXPECT_NE(stored, fnv1a_of_0_2_0(bytes.substr(0, bytes.size() - 8)));
  const std::size_t header_end = bytes.find('\n', bytes.find('\n') + 1) + 1;
  EXPECT_EQ(bytes.size() - header_end - 8, (1 + 2 * s.model.size()) * sizeof(double));  // f, x, g
  for (const auto& [name, vectors] : files.vectors) {
    std::uint64_t sum = 0;
    for (int b = 0; b < 8; ++b)
      sum |= std::uint64_t(static_cast<unsigned char>(vectors[vectors.size() - 8 + b])) << (8 * b);
    EXPECT_EQ(sum, xxh3(vectors.data(), vectors.size() - 8));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(sum));
    EXPECT_EQ(name, hex);
  }
  const InversionState r = decode_inversion_state(files, "inv/state.bin");
  EXPECT_EQ(r.format, 4);
  EXPECT_EQ(r.model, s.model);
  EXPECT_EQ(r.diagonal, s.diagonal);
  ASSERT_EQ(r.optimizer.memory.size(), 1);
  EXPECT_EQ(r.optimizer.memory.pairs().front().s, s.optimizer.memory.pairs().front().s);
  // A model that is not x is written out.
  InversionState between = s;
  between.model = {1900, 2000, 2100};
  const StateFiles two = encode_inversion_state(between);
  EXPECT_EQ(two.state.size(), bytes.size() + 3 * sizeof(double) + 1);  // and "model_is_x":false
  EXPECT_EQ(decode_inversion_state(two, "inv/state.bin").model, between.model);
}

// A state of an older format, decoded: the format it was, and what sample_state() holds.
void expect_read_as_it_was(const std::string& bytes, int format) {
  const InversionState s = sample_state();
  const InversionState r = decode_inversion_state(bytes, "inv/state.bin");
  EXPECT_EQ(r.format, format);
  EXPECT_EQ(r.fingerprint, s.fingerprint);
  EXPECT_EQ(r.model, s.model);
  EXPECT_EQ(r.optimizer.g, s.optimizer.g);
  EXPECT_EQ(r.diagonal, s.diagonal);
  ASSERT_EQ(r.optimizer.memory.size(), 1);
  EXPECT_EQ(r.optimizer.memory.pairs().front().y, s.optimizer.memory.pairs().front().y);
}

TEST(InversionStateFormats, AFormatThreeStateOfRevwave03IsReadAsItWas) {
  expect_read_as_it_was(as_format_3(sample_state()), 3);
}

TEST(InversionStateFormats, AFormatTwoStateOfRevwave020IsReadAsItWas) {
  const InversionState s = sample_state();
  expect_read_as_it_was(as_format_2(s), 2);
  // Each format's header with the other's checksum is damage, not a format.
  EXPECT_NE(refusal(resealed(as_format_2(s), 3)).find("checksum does not match"), std::string::npos);
  EXPECT_NE(refusal(resealed(as_format_3(s), 2)).find("checksum does not match"), std::string::npos);
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
