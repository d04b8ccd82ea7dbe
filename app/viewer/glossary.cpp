#include "viewer/glossary.h"

#include <array>
#include <cstring>

namespace rigview {

namespace {

// Plain ASCII: the viewer's font has no Greek letters.
constexpr std::array<GlossaryEntry, 18> kGlossary = {{
    {"Skeleton", "A tree of joints, each with a transform relative to its parent."},
    {"Joint", "One node of a skeleton (also called a bone)."},
    {"Local pose",
     "Every joint's sampled translation, rotation and scale, relative to its "
     "parent."},
    {"World matrix",
     "A joint's transform in model space: its parent's world matrix times its "
     "local matrix."},
    {"Bind pose", "The pose the mesh was modelled in, against which the skin was bound."},
    {"Inverse bind matrix",
     "The inverse of a joint's world matrix in the bind pose: it takes a "
     "vertex into the joint's frame."},
    {"Skinning matrix", "World matrix times inverse bind matrix; the identity in the bind pose."},
    {"Weight", "How much one joint moves a vertex; a vertex's weights sum to 1."},
    {"LBS",
     "Linear blend skinning: the vertex moved by the weighted sum of its joints' skinning "
     "matrices."},
    {"Candy wrapper",
     "LBS's collapse of a twisted joint: a ring blended half and half shrinks to "
     "r cos(angle/2)."},
    {"DQS",
     "Dual quaternion skinning: the joints' rigid motions blended as unit dual "
     "quaternions, so the result stays rigid."},
    {"Hemisphere alignment",
     "q and -q are the same rotation: each is flipped to the first one's "
     "side before blending."},
    {"CoR",
     "Optimized centres of rotation: rotations blended as quaternions about a per-vertex "
     "centre found once per model."},
    {"Slerp", "Spherical interpolation of unit quaternions at constant angular speed."},
    {"Crossfade", "Two clips' local poses blended with a weight ramping from 0 to 1."},
    {"Additive layer", "A clip's difference from a reference pose, added on top of the base."},
    {"Two-bone IK",
     "Turns a three-joint chain so its end reaches a target, the middle joint "
     "towards a pole."},
    {"Compression",
     "Dropping keys interpolation can rebuild within a tolerance, and storing the "
     "rest in fewer bits."},
}};

}  // namespace

std::span<const GlossaryEntry> glossary() { return kGlossary; }

const char* glossary_definition(const char* term) {
  for (const GlossaryEntry& e : kGlossary)
    if (std::strcmp(e.term, term) == 0) return e.definition;
  return nullptr;
}

}  // namespace rigview
