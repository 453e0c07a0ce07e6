// What each fuzzer does with one input, shared by the libFuzzer entry points (fuzz_*.cpp) and by
// the regression test that replays the saved inputs (tests/fuzz/test_fuzz_regressions.cpp).
//
// An input may be refused with the library's own errors (IoError, InputError, CLI11's parse
// errors): that is the reader doing its job. Anything else escapes: another exception type
// (std::bad_alloc, std::length_error, a broken invariant as std::logic_error), or a sanitizer
// report, and the fuzzer records the input as a crash.
#pragma once
#include <cstddef>
#include <cstdint>

namespace revwave::fuzz {

// The .npy reader on arbitrary bytes; a file it accepts holds exactly the values its shape says.
void npy(const std::uint8_t* data, std::size_t size);
// The shot record sidecar (JSON) reader; a sidecar it accepts keeps every rule.
void sidecar(const std::uint8_t* data, std::size_t size);
// The config file: TOML parsed by toml++ into CLI11 items, applied to the real options of forward
// and gradient (their strict parsers and range checks) and to the strategy's validation.
void config(const std::uint8_t* data, std::size_t size);
// The schedule generators on any N, S and tiers decoded from the bytes: each stream must pass
// validate_schedule, and Revolve's closed-form counts must equal the counted stream.
void schedule(const std::uint8_t* data, std::size_t size);
// The SEG-Y reader on a file's bytes, with header overrides chosen by bytes 1 and 2 of the textual
// header (free text to the reader); a survey it accepts is whole: every shot nt x nrec finite samples,
// finite positions, a trace number per receiver, dt > 0.
void segy(const std::uint8_t* data, std::size_t size);
// The inversion state's reader. The checksum stops almost every mutation at the door, so every other
// input has its checksum repaired first and reaches the checks behind it; an input may carry a vector
// file after a "\n#vectors\n" line, which the reader gives for every name (repaired too, and the
// state's names made its name). A state it accepts is consistent (sizes, bands, finite values) and
// encodes back to a state that decodes the same.
void state(const std::uint8_t* data, std::size_t size);

}  // namespace revwave::fuzz
