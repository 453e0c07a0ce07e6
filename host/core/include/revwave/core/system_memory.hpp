// What the operating system says about memory: what is available now, and our peak.
#pragma once
#include <cstddef>
#include <string>

namespace revwave {

// Bytes this process can still allocate: MemAvailable, capped by the cgroup limit if any.
std::size_t available_memory_bytes();
// Peak resident set size of this process so far.
std::size_t peak_rss_bytes();
// "1.50 GiB", "512.0 MiB", ...
std::string format_bytes(double bytes);
// Parses "512M", "8GiB", "1.5G", "1000000" (bytes); throws InputError naming the text.
std::size_t parse_bytes(const std::string& text);

}  // namespace revwave
