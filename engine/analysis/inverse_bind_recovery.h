// Recovering a skin's inverse bind matrices from the broken ones, where the broken matrices still
// hold what the bind pose was. The repair from the rest pose (inverse_bind_repair.h) makes the
// rest pose the bind pose, which gives a file back only when its rest pose was its bind pose;
// these keep the bind pose the file was written with:
//   - negated-translation IBMs (each IBM is its joint's bind matrix B_j with only the translation
//     negated): B_j is read back by negating the translation again, and IBM_j = B_j⁻¹ exactly;
//   - translation-only IBMs (each IBM is T(−t_j), t_j the translation of B_j): the bind positions
//     t_j survive, the 3×3 parts M_j of B_j are rebuilt joint by joint, parents first, from the
//     rest pose's bone offsets a_c (a child c's position in its skin parent's frame, whose
//     length and direction in that frame binding does not change):
//       * two or more children with offsets spanning a plane: the rotation and uniform scale
//         that best take every a_c onto t_c − t_j (Horn's quaternion fit), exact when the offsets
//         are the bind offsets;
//       * one child (or collinear ones): the guess M_p · R_j (the parent's rebuilt part times
//         j's rest rotation relative to it), turned by the shortest arc that takes M·a_c onto
//         t_c − t_j and scaled to its length; the twist about that bone is the rest pose's,
//         the one thing translation-only matrices do not say;
//       * no child: the guess.
// A file that lost its IBMs (identity) has nothing to recover: the rest pose is all there is.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "glm/glm.hpp"
#include "model/model.h"

namespace rig {

// [A t; 0 1]⁻¹ = [A⁻¹ −A⁻¹t; 0 1] in double (the last row exactly 0 0 0 1), or false when `b` is
// not finite or A is singular relative to its own size (so a tiny, well-shaped matrix inverts).
bool affine_inverse(const glm::dmat4& b, glm::dmat4& out);

// IBM_j = (the IBM with its translation negated)⁻¹, in double. False with a one-line `error`
// naming the joint when that matrix is singular.
bool invert_negated_bind_matrices(const Model& model, int skin,
                                  std::span<const glm::mat4> inverse_bind,
                                  std::vector<glm::mat4>& out, std::string& error);

// The bind matrices rebuilt from translation-only IBMs as above, inverted.
bool rebuild_translation_only_binds(const Model& model, int skin,
                                    std::span<const glm::mat4> inverse_bind,
                                    std::vector<glm::mat4>& out, std::string& error);

}  // namespace rig
