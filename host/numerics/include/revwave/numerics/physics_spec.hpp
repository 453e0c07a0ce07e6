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
  bool vti = false;      // pseudo-acoustic VTI (numerics/vti/): a second whole field rides in each field's tail
  bool visco = false;    // visco-acoustic (numerics/visco/): sls_mechanisms memory variables ride in the tail
  // How a message names it ("variable density").
  const char* name() const {
    if (vti) return "VTI";
    if (visco) return "visco-acoustic";
    return density ? "variable density" : "constant density";
  }
  // Whole fields a state field carries after the grid's own (Grid::extra_fields): VTI's q, the
  // visco-acoustic memory variables (three: visco/visco_model.hpp's sls_mechanisms).
  int extra_fields() const { return (vti ? 1 : 0) + (visco ? 3 : 0); }
  bool operator==(const PhysicsSpec& o) const { return density == o.density && vti == o.vti && visco == o.visco; }
  bool operator!=(const PhysicsSpec& o) const { return !(*this == o); }
};

}  // namespace revwave
