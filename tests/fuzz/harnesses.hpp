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

}  // namespace revwave::fuzz
