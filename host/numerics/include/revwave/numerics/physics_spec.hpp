// Which physics a run has, as the parts that size its state and memory ask it: the model declares
// it (VelocityModel::physics()) and so does a problem built from one (physics_of(problem)). The
// state a slot and a stored history hold (physics_state), the working memory setup's memory model
// counts (physics_memory) and the plans take it from here, never from a physics' flag passed by
// each caller. A new physics adds its member here and its sizes where those two functions are
// defined (acoustic/acoustic_state.hpp).
#pragma once

namespace revwave {

struct PhysicsSpec {
  bool density = false;  // the variable-density operator (numerics/density/); false: constant density
  // How a message names it ("variable density").
  const char* name() const { return density ? "variable density" : "constant density"; }
  bool operator==(const PhysicsSpec& o) const { return density == o.density; }
  bool operator!=(const PhysicsSpec& o) const { return !(*this == o); }
};

}  // namespace revwave
