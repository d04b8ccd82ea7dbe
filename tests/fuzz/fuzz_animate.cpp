// libFuzzer target: import → animate (Character::evaluate over the clips, a crossfade) → CPU
// skinning of every draw item with every skinning method → the rig doctor. Whatever the file
// holds, nothing may read out of bounds, divide by zero into UB, or allocate without bound.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/rig_doctor.h"
#include "character/character.h"
#include "fuzz_limits.h"
#include "import/gltf_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rig::Model model;
  std::string error;
  if (!rig::import_gltf_from_memory({data, size}, "fuzz", rig::fuzz::options(), model, error)) {
    return 0;
  }
  rig::Character character(model);
  std::vector<rig::PoseSelection> poses = {rig::PoseSelection{}};
  const int clips = std::min<int>(int(model.clips.size()), 4);
  for (int c = 0; c < clips; ++c) {
    const rig::Clip& clip = model.clips[size_t(c)];
    poses.push_back({c, clip.start});
    poses.push_back({c, 0.5f * (clip.start + clip.end)});
    poses.push_back({c, clip.end + 1.0f});
    poses.push_back({c, clip.start, (c + 1) % clips, clip.end, 0.5f});
  }
  std::vector<glm::vec3> positions, normals;
  for (const rig::PoseSelection& pose : poses) {
    character.evaluate(pose);
    for (const rig::DrawItem& item : model.draws) {
      const rig::Primitive& primitive =
          model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
      positions.resize(primitive.vertex_count());
      normals.resize(primitive.vertex_count());
      for (const rig::SkinningMethodInfo& method : rig::skinning_methods()) {
        character.skin_draw_item(item, method.method, positions, normals);
      }
    }
  }
  const rig::RigDiagnosis diagnosis = rig::examine_rig(model);
  (void)diagnosis;
  return 0;
}
