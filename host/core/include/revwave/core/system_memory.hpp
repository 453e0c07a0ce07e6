// What the operating system says about memory: what is available now, and our peak.
#pragma once
#include <cstddef>
#include <string>

namespace revwave {

// Bytes this process can still allocate: MemAvailable, capped by the cgroup limit if any and
// by the environment variable REVWAVE_MEMORY_LIMIT (a size such as 8GiB) if set, so that a run
// can be held to less than the machine has (and tests do not depend on the machine's size).
// An unreadable REVWAVE_MEMORY_LIMIT is an InputError naming it.
std::size_t available_memory_bytes();
// OutOfMemoryError "WHAT needs X, but only Y is available ..." unless bytes fit in what is
// available now; `advice` (may be empty) ends the sentence.
void require_memory(std::size_t bytes, const std::string& what, const std::string& advice = "");
// Peak resident set size of this process so far: VmHWM, its own memory map's high-water mark.
std::size_t peak_rss_bytes();
// What peak_rss_bytes counts, in words (the JSON's "peak_rss_counts").
const char* peak_rss_counts();
// "1.50 GiB", "512.0 MiB", ...
std::string format_bytes(double bytes);
// Parses "512M", "8GiB", "1.5G", "80GB", "1000000" (bytes): K, M, G, T, P and KiB ... PiB are
// binary (1024^k), kB, MB, GB, TB, PB decimal (1000^k), case aside; the number is decimal (no
// hexadecimal, inf or nan); fractions of a byte are dropped. Throws InputError naming the text and
// the rule for anything else, a size below one byte, or a size beyond 2^64 - 1 bytes.
std::size_t parse_bytes(const std::string& text);

}  // namespace revwave
