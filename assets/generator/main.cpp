// rig_asset_generator: builds the bundled assets procedurally and writes them as .glb.
//
//   rig_asset_generator <output-dir>      writes <output-dir>/mannequin.glb, twist_arm.glb,
//                                         humanoid_apose.glb and raw_weights_example.glb
//
// Regenerate the committed files with
//   cmake --build <build-dir> --target regenerate_assets
// (runs the generator on assets/). The output is deterministic: fixed parameters, no clock,
// no random numbers, floating point without contraction or builtin folding (see
// CMakeLists.txt), so a ctest can compare a fresh run with the committed bytes.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "gltf_writer.h"
#include "models.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rig_asset_generator <output-dir>\n");
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  try {
    std::filesystem::create_directories(dir);
    const rig::gen::Asset mannequin = rig::gen::build_mannequin();
    rig::gen::write_glb(mannequin, (dir / "mannequin.glb").string());
    std::printf("mannequin.glb: %zu joints, %zu vertices, %zu triangles, %zu clips\n",
                mannequin.joints.size(), mannequin.mesh.positions.size(),
                mannequin.mesh.indices.size() / 3, mannequin.clips.size());
    const rig::gen::Asset arm = rig::gen::build_twist_arm();
    rig::gen::write_glb(arm, (dir / "twist_arm.glb").string());
    std::printf("twist_arm.glb: %zu joints, %zu vertices, %zu triangles, %zu clips\n",
                arm.joints.size(), arm.mesh.positions.size(), arm.mesh.indices.size() / 3,
                arm.clips.size());
    const rig::gen::Asset apose = rig::gen::build_humanoid_apose();
    rig::gen::write_glb(apose, (dir / "humanoid_apose.glb").string());
    std::printf("humanoid_apose.glb: %zu joints, %zu vertices, %zu triangles, %zu clips\n",
                apose.joints.size(), apose.mesh.positions.size(), apose.mesh.indices.size() / 3,
                apose.clips.size());
    const rig::gen::Asset raw = rig::gen::build_raw_weights_example();
    rig::gen::write_glb(raw, (dir / "raw_weights_example.glb").string());
    std::printf("raw_weights_example.glb: %zu joints, %zu vertices, %zu triangles, %zu clips\n",
                raw.joints.size(), raw.mesh.positions.size(), raw.mesh.indices.size() / 3,
                raw.clips.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", dir.string().c_str(), e.what());
    return 1;
  }
  return 0;
}
