// Every model of the shared corpus imports, and what it holds matches the corpus README's table
// (written from the files by someone else) and the files' own JSON (accessor min/max, read here
// with tinygltf directly, not through the importer's accessor reader).
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "import/gltf_import.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;

struct ClipRow {
  std::string name;  // empty for "(unnamed)"
  double seconds = 0;
};

// One row of the README table.
struct CorpusRow {
  std::string file;
  int skins = 0;
  int joints = 0;
  int influence_sets = 0;
  std::vector<ClipRow> clips;  // the listed ones
  int clip_count = 0;          // listed + "+N more"
  int morph_targets = 0;
  std::string interpolation;  // "-" or "A,B"
};

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' ');
  const size_t b = s.find_last_not_of(' ');
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(s);
  std::string part;
  while (std::getline(stream, part, separator)) parts.push_back(trim(part));
  return parts;
}

std::vector<CorpusRow> read_readme_table(const fs::path& corpus) {
  std::ifstream in(corpus / "README.md");
  std::vector<CorpusRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.find(".gl") == std::string::npos) continue;
    const std::vector<std::string> cells = split(line.substr(1), '|');
    if (cells.size() < 7) continue;
    CorpusRow row;
    row.file = cells[0];
    if (cells[2] != "0") std::sscanf(cells[2].c_str(), "%d x %d", &row.skins, &row.joints);
    row.influence_sets = std::stoi(cells[3]);
    if (cells[4] != "-") {
      for (const std::string& entry : split(cells[4], ',')) {
        if (entry.rfind("+", 0) == 0) {
          row.clip_count += std::stoi(entry.substr(1));
          continue;
        }
        const size_t space = entry.rfind(' ');
        ClipRow clip;
        clip.name = entry.substr(0, space);
        if (clip.name == "(unnamed)") clip.name.clear();
        clip.seconds = std::stod(entry.substr(space + 1));
        row.clips.push_back(clip);
        ++row.clip_count;
      }
    }
    row.morph_targets = cells[5] == "-" ? 0 : std::stoi(cells[5]);
    row.interpolation = cells[6];
    rows.push_back(row);
  }
  return rows;
}

const rig::ImportWarning* find_warning(const rig::Model& model, const std::string& code) {
  for (const rig::ImportWarning& warning : model.warnings) {
    if (warning.code == code) return &warning;
  }
  return nullptr;
}

rig::Model import_or_fail(const fs::path& path) {
  rig::Model model;
  std::string error;
  EXPECT_TRUE(rig::import_gltf(path.string(), model, error)) << path << ": " << error;
  return model;
}

TEST(ImportCorpus, EveryModelMatchesTheReadmeTable) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::vector<CorpusRow> rows = read_readme_table(corpus);
  ASSERT_GE(rows.size(), 50u) << "README table not found or not parsed";

  std::set<std::string> listed;
  for (const CorpusRow& row : rows) listed.insert(row.file);
  // Every model file in the corpus is in the table (so every one is imported below).
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".gltf" && ext != ".glb") continue;
    EXPECT_TRUE(listed.count(fs::relative(entry.path(), corpus).string()))
        << entry.path() << " is not in the README table";
  }

  for (const CorpusRow& row : rows) {
    SCOPED_TRACE(row.file);
    const rig::Model model = import_or_fail(corpus / row.file);
    EXPECT_EQ(static_cast<int>(model.skins.size()), row.skins);
    for (const rig::Skin& skin : model.skins) {
      EXPECT_EQ(static_cast<int>(skin.joints.size()), row.joints);
      EXPECT_EQ(skin.inverse_bind.size(), skin.joints.size());
      EXPECT_EQ(skin.order.size(), skin.joints.size());
    }
    uint32_t influences = 0;
    size_t targets = 0;
    for (const rig::Mesh& mesh : model.meshes) {
      targets = std::max(targets, mesh.default_weights.size());
      for (const rig::Primitive& primitive : mesh.primitives) {
        influences = std::max(influences, primitive.influences);
        EXPECT_EQ(primitive.normals.size(), primitive.positions.size());
      }
    }
    EXPECT_EQ(static_cast<int>(influences), 4 * row.influence_sets);
    EXPECT_EQ(static_cast<int>(targets), row.morph_targets);
    ASSERT_EQ(static_cast<int>(model.clips.size()), row.clip_count);
    for (size_t c = 0; c < row.clips.size(); ++c) {
      EXPECT_EQ(model.clips[c].name, row.clips[c].name);
      // The table rounds the clip's last key time to 3 decimals.
      EXPECT_NEAR(model.clips[c].end, row.clips[c].seconds, 1e-3) << "clip " << c;
    }
    std::set<std::string> modes;
    for (const rig::Clip& clip : model.clips)
      modes.insert(clip.interpolations.begin(), clip.interpolations.end());
    std::string joined;
    for (const std::string& mode : modes) joined += (joined.empty() ? "" : ",") + mode;
    EXPECT_EQ(modes.empty() ? "-" : joined, row.interpolation);
    EXPECT_EQ(model.node_order.size(), model.nodes.size());
  }
}

// Clip ranges against the key-time accessors' declared min/max (the spec requires them on
// animation inputs), read from the JSON by tinygltf directly.
TEST(ImportCorpus, ClipRangesMatchTheInputAccessorBounds) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::vector<CorpusRow> rows = read_readme_table(corpus);
  ASSERT_GE(rows.size(), 50u) << "README table not found or not parsed";
  for (const CorpusRow& row : rows) {
    if (row.clip_count == 0) continue;
    SCOPED_TRACE(row.file);
    const rig::Model model = import_or_fail(corpus / row.file);
    tinygltf::TinyGLTF loader;
    tinygltf::Model document;
    std::string err, warn;
    const fs::path path = corpus / row.file;
    const bool loaded = path.extension() == ".glb"
                            ? loader.LoadBinaryFromFile(&document, &err, &warn, path.string())
                            : loader.LoadASCIIFromFile(&document, &err, &warn, path.string());
    ASSERT_TRUE(loaded) << err;
    ASSERT_EQ(document.animations.size(), model.clips.size());
    for (size_t a = 0; a < document.animations.size(); ++a) {
      double start = INFINITY, end = -INFINITY;
      for (const tinygltf::AnimationChannel& channel : document.animations[a].channels) {
        const int input =
            document.animations[a].samplers[static_cast<size_t>(channel.sampler)].input;
        const tinygltf::Accessor& accessor = document.accessors[static_cast<size_t>(input)];
        ASSERT_EQ(accessor.minValues.size(), 1u);
        start = std::min(start, accessor.minValues[0]);
        end = std::max(end, accessor.maxValues[0]);
      }
      EXPECT_NEAR(model.clips[a].start, start, 1e-5) << "clip " << a;
      EXPECT_NEAR(model.clips[a].end, end, 1e-5) << "clip " << a;
    }
  }
}

TEST(ImportCorpus, SkinWeightsSumToOneAfterImport) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::vector<CorpusRow> rows = read_readme_table(corpus);
  ASSERT_GE(rows.size(), 50u) << "README table not found or not parsed";
  size_t skinned_vertices = 0;
  for (const CorpusRow& row : rows) {
    if (row.influence_sets == 0) continue;
    SCOPED_TRACE(row.file);
    const rig::Model model = import_or_fail(corpus / row.file);
    for (const rig::Mesh& mesh : model.meshes) {
      for (const rig::Primitive& p : mesh.primitives) {
        for (uint32_t v = 0; v < p.vertex_count() && p.skinned(); ++v) {
          double sum = 0;
          for (uint32_t i = 0; i < p.influences; ++i) sum += p.weights[v * p.influences + i];
          if (sum != 0.0) {
            ASSERT_NEAR(sum, 1.0, 1e-5) << "vertex " << v;
          }
          ++skinned_vertices;
        }
      }
    }
  }
  // The POSITION counts of the primitives with JOINTS_0 in the listed skinned files (read from
  // their JSON): every skinned vertex of the corpus was checked, none was dropped on import.
  EXPECT_EQ(skinned_vertices, 18432u) << "the corpus's skinned vertices were not all checked";
}

TEST(ImportCorpus, RobotExpressiveReportsItsNonNormalizedWeights) {
  RIG_REQUIRE_CORPUS(corpus);
  const rig::Model model = import_or_fail(corpus / "RobotExpressive/RobotExpressive.glb");
  const rig::ImportWarning* warning = find_warning(model, "WEIGHTS_NOT_NORMALIZED");
  ASSERT_NE(warning, nullptr);
  // The Khronos validator reports ACCESSOR_WEIGHTS_NON_NORMALIZED for 752 vertices.
  EXPECT_EQ(warning->count, 752u);
  EXPECT_EQ(model.morph_weight_count, 3u);
}

TEST(ImportCorpus, QuadSkinHasTwelveInfluences) {
  RIG_REQUIRE_CORPUS(corpus);
  const rig::Model model = import_or_fail(corpus / "assimp_skin_edge_cases/quad_skin.glb");
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].primitives[0].influences, 12u);
  EXPECT_EQ(model.meshes[0].primitives[0].joints.size(),
            12u * model.meshes[0].primitives[0].vertex_count());
}

TEST(ImportCorpus, UnsignedIntJointsAreToleratedWithAWarning) {
  RIG_REQUIRE_CORPUS(corpus);
  const rig::Model model = import_or_fail(corpus / "assimp_skin_edge_cases/mixed_skin_joints.gltf");
  EXPECT_NE(find_warning(model, "JOINTS_COMPONENT_TYPE_INVALID"), nullptr);
  EXPECT_EQ(model.meshes[0].primitives[0].influences, 8u);
}

TEST(ImportCorpus, SkinWithoutInverseBindMatricesUsesIdentity) {
  RIG_REQUIRE_CORPUS(corpus);
  const rig::Model model =
      import_or_fail(corpus / "AssetGenerator_Animation_Skin/Animation_Skin_04.gltf");
  ASSERT_EQ(model.skins.size(), 1u);
  ASSERT_EQ(model.skins[0].inverse_bind.size(), 2u);
  for (const glm::mat4& m : model.skins[0].inverse_bind) EXPECT_EQ(m, glm::mat4(1.0f));
}

TEST(ImportCorpus, RecursiveSkeletonsHasAllItsSkins) {
  RIG_REQUIRE_CORPUS(corpus);
  const rig::Model model = import_or_fail(corpus / "RecursiveSkeletons/RecursiveSkeletons.glb");
  EXPECT_EQ(model.skins.size(), 84u);
  EXPECT_EQ(model.nodes.size(), 924u);
  // Parents before children, for every node and every skin's joint order.
  std::vector<int> position(model.nodes.size());
  for (size_t i = 0; i < model.node_order.size(); ++i)
    position[static_cast<size_t>(model.node_order[i])] = static_cast<int>(i);
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    if (model.nodes[n].parent >= 0) {
      EXPECT_LT(position[static_cast<size_t>(model.nodes[n].parent)], position[n]);
    }
  }
  for (const rig::Skin& skin : model.skins) {
    std::vector<bool> seen(skin.joints.size(), false);
    for (int joint : skin.order) {
      const int parent = skin.joint_parent[static_cast<size_t>(joint)];
      if (parent >= 0) {
        EXPECT_TRUE(seen[static_cast<size_t>(parent)]);
      }
      seen[static_cast<size_t>(joint)] = true;
    }
  }
}

TEST(ImportCorpus, KnightHasZeroLengthClips) {
  RIG_REQUIRE_CORPUS(corpus);
  const rig::Model model = import_or_fail(corpus / "KayKit_Knight/Knight.glb");
  EXPECT_EQ(model.clips.size(), 76u);
  const auto zero_length = std::count_if(model.clips.begin(), model.clips.end(),
                                         [](const rig::Clip& c) { return c.end == c.start; });
  // Death_A_Pose, Death_B_Pose, Lie_Pose, Sit_Chair_Pose, Sit_Floor_Pose, T-Pose, Unarmed_Pose:
  // every input accessor of these seven animations has min = max = 0.
  EXPECT_EQ(zero_length, 7);
}

TEST(ImportCorpus, NormalizedShortWeightsMatchTheRawValues) {
  RIG_REQUIRE_CORPUS(corpus);
  const fs::path path = corpus / "assimp_skin_edge_cases/normalized_skin_weights.gltf";
  const rig::Model model = import_or_fail(path);
  // Independent read: the raw UNSIGNED_SHORT values through tinygltf, c / 65535, renormalized.
  tinygltf::TinyGLTF loader;
  tinygltf::Model document;
  std::string err, warn;
  ASSERT_TRUE(loader.LoadASCIIFromFile(&document, &err, &warn, path.string())) << err;
  const tinygltf::Primitive& source = document.meshes[0].primitives[0];
  const tinygltf::Accessor& accessor =
      document.accessors[static_cast<size_t>(source.attributes.at("WEIGHTS_0"))];
  ASSERT_EQ(accessor.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  const tinygltf::BufferView& view = document.bufferViews[static_cast<size_t>(accessor.bufferView)];
  const uint8_t* data = document.buffers[static_cast<size_t>(view.buffer)].data.data() +
                        view.byteOffset + accessor.byteOffset;
  const size_t stride = view.byteStride ? view.byteStride : 8;
  const rig::Primitive& p = model.meshes[0].primitives[0];
  ASSERT_EQ(p.vertex_count(), accessor.count);
  ASSERT_EQ(p.influences, 4u);
  for (size_t v = 0; v < accessor.count; ++v) {
    uint16_t raw[4];
    std::memcpy(raw, data + v * stride, 8);
    const double sum = (double(raw[0]) + raw[1] + raw[2] + raw[3]) / 65535.0;
    for (int c = 0; c < 4; ++c) {
      EXPECT_NEAR(p.weights[v * 4 + static_cast<size_t>(c)], raw[c] / 65535.0 / sum, 1e-6);
    }
  }
}

}  // namespace

namespace {

// The decoded size of a PNG texture against the width and height in its IHDR chunk
// (big-endian at bytes 16..24 of the file), read here from the file itself.
TEST(ImportCorpus, PngTextureDecodesToItsHeaderSize) {
  RIG_REQUIRE_CORPUS(corpus);
  const rig::Model model =
      import_or_fail(corpus / "AssetGenerator_Animation_Node/Animation_Node_00.gltf");
  std::ifstream png(corpus / "AssetGenerator_Animation_Node/Textures/BaseColor_Cube.png",
                    std::ios::binary);
  unsigned char header[24] = {};
  ASSERT_TRUE(png.read(reinterpret_cast<char*>(header), 24));
  auto be32 = [&](int at) {
    return int(header[at]) << 24 | int(header[at + 1]) << 16 | int(header[at + 2]) << 8 |
           int(header[at + 3]);
  };
  ASSERT_EQ(model.images.size(), 1u);
  EXPECT_EQ(model.images[0].width, be32(16));
  EXPECT_EQ(model.images[0].height, be32(20));
  EXPECT_EQ(model.images[0].rgba.size(), size_t(be32(16)) * size_t(be32(20)) * 4);
  ASSERT_EQ(model.materials.size(), 1u);
  EXPECT_EQ(model.materials[0].base_color.image, 0);
}

}  // namespace
