// What the generator builds before it becomes glTF: a skeleton whose rest pose is pure
// translations (every joint frame is world-aligned, so inverse bind matrices are translations),
// one skinned mesh, one procedural texture and keyframed clips.
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

namespace rig::gen {

struct JointDef {
  std::string name;
  int parent = -1;        // index into Asset::joints, -1 for the root
  glm::dvec3 rest_world;  // joint origin in the rest pose (metres, Y up, +Z forward)
};

// One influence set per vertex, sorted by decreasing weight; unused slots are joint 0 weight 0
// (what the glTF validator expects), and the weights sum to exactly 1 in float.
struct Influences {
  std::array<uint8_t, 4> joints{0, 0, 0, 0};
  std::array<float, 4> weights{0.0f, 0.0f, 0.0f, 0.0f};
};

struct SkinnedMesh {
  std::vector<glm::dvec3> positions;
  std::vector<glm::dvec3> normals;  // unit length, pointing out of the surface
  std::vector<glm::dvec2> uvs;
  std::vector<Influences> influences;
  std::vector<uint32_t> indices;  // triangles, counter-clockwise seen from outside
};

// Keys at k / fps for k = 0..frames (frames + 1 keys); looping clips repeat key 0 at the end.
struct RotationTrack {
  int joint = 0;
  std::vector<glm::dquat> keys;
};
struct TranslationTrack {
  int joint = 0;
  std::vector<glm::dvec3> keys;  // absolute local translation (rest offset included)
};
struct ClipDef {
  std::string name;
  int frames = 0;
  double fps = 30.0;
  std::vector<RotationTrack> rotations;
  std::vector<TranslationTrack> translations;
};

struct Asset {
  std::string name;  // scene, mesh node and skin names derive from it
  std::vector<JointDef> joints;
  SkinnedMesh mesh;
  std::vector<uint8_t> png;  // base colour texture, PNG bytes
  std::vector<ClipDef> clips;
};

}  // namespace rig::gen
