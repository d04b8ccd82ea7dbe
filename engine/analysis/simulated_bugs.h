// The classic "exploding character" bugs, simulated on a loaded model as teaching aids: show
// what each one looks like, and check that the rig doctor (rig_doctor.h) recognizes it.
//
//   NoIbm              the skinning matrix without the inverse bind matrix (world alone): every
//                      IBM becomes the identity.
//   TranslationOnlyIbm an inverse bind matrix computed by hand that only negates the joint's
//                      bind translation and ignores its rotation (and scale): IBM_j = T(−t_j),
//                      t_j the translation of IBM_j⁻¹.
//   ReversedMultiply   IBM · world instead of world · IBM. This is a change of the runtime
//                      product, which the Character does not offer; it is simulated exactly by a
//                      model transformation instead: for every joint j a new root node R_j with
//                      rest matrix IBM_j (as TRS, shear kept) gets a copy of j's whole ancestor
//                      chain (j's own node last, each copy with its original's name), each
//                      copy animated by duplicates of the original node's channels; the skin then
//                      uses the copy of j with an identity IBM, so its skinning matrix is
//                      world(copy of j) = IBM_j · world_j(t), every frame, on every renderer and
//                      the CPU path. Costs Σ_j depth(j) extra nodes. The original nodes stay (and
//                      keep driving rigid meshes). In the rest pose the result equals the correct
//                      one (IBM_j · world_j = identity when rest = bind); it tears once the
//                      character moves.
//   ShiftedJoints      joint indices off by one: every JOINTS_n value j of every primitive drawn
//                      with a skin becomes (j + 1) mod (the skin's joint count).
#pragma once

#include <optional>
#include <string_view>

#include "model/model.h"

namespace rig {

enum class SimulatedBug : uint8_t { NoIbm, TranslationOnlyIbm, ReversedMultiply, ShiftedJoints };
inline constexpr SimulatedBug kSimulatedBugs[] = {
    SimulatedBug::NoIbm, SimulatedBug::TranslationOnlyIbm, SimulatedBug::ReversedMultiply,
    SimulatedBug::ShiftedJoints};

// Command-line spelling: no-ibm, translation-only-ibm, reversed-multiply, shifted-joints.
const char* simulated_bug_name(SimulatedBug bug);
std::optional<SimulatedBug> find_simulated_bug(std::string_view name);

// Applies `bug` to every skin of `model` (in place; the model stays valid for Character and the
// renderer). Adds a warning SIMULATED_BUG saying which bug was simulated. Allocates.
void simulate_bug(Model& model, SimulatedBug bug);

}  // namespace rig
