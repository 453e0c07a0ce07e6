// What a physics' forward state holds: the values a checkpoint keeps to restart the recurrence.
// Each physics declares its own (acoustic/acoustic_state.hpp), so that plans, stores and budgets
// size a slot from the declaration without knowing the equation: whole fields of the allocated
// grid (the acoustic u[n], u[n-1]) and values that live in the absorbing layer only (a C-PML's
// auxiliary fields), and what a stored history (strategy `full`) keeps per step: the one whole
// field u[n] and the layer values the physics' reverse step reads beside it.
#pragma once
#include <cstddef>

namespace revwave {

struct StateShape {
  int fields = 0;                // whole fields of the allocated grid
  std::size_t layer_values = 0;  // values per state in the absorbing layer only
  const char* description = "";  // how messages name one slot's content: "two wavefields"
  // Layer values a stored history keeps per step beside u[n]: 0 when the reverse step of a stored
  // history reads the whole fields only (it reads u[n+1] from the history, not from the layer).
  std::size_t history_layer_values = 0;

  // One state's bytes, its whole fields of `field_bytes` each and its layer values of `value_bytes`.
  std::size_t bytes(std::size_t field_bytes, std::size_t value_bytes) const {
    return static_cast<std::size_t>(fields) * field_bytes + layer_values * value_bytes;
  }
  // One stored history step's bytes.
  std::size_t history_step_bytes(std::size_t field_bytes, std::size_t value_bytes) const {
    return field_bytes + history_layer_values * value_bytes;
  }
};

}  // namespace revwave
