// Copies of whole wavefields between host buffers, on all OpenMP threads.
// A checkpoint store moves two wavefields per store or restore; on two cores a plain
// memcpy of a 128^3 state takes about as long as 1.5 forward steps, these far less.
#pragma once
#include <cstddef>

namespace revwave {

// To a buffer that is not read soon (a checkpoint slot): streaming stores that bypass the
// cache when both pointers are 32-byte aligned, so the copy costs one read and one write.
void copy_to_slot(void* dst, const void* src, std::size_t bytes);
// To a buffer that is read next (the working state): ordinary stores, kept in cache.
void copy_to_state(void* dst, const void* src, std::size_t bytes);

}  // namespace revwave
