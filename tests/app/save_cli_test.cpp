// `rigview --save` and `--repair-ibm` (app/save_outputs.cpp): a save without edits is the plain
// document copy; a repair fixes a file saved with broken inverse bind matrices; everything the
// edits do not name (extensions, extras, names, other accessors) is kept, checked object by
// object as tinygltf reads both files; a failed save says why in one line and leaves the previous
// file as it was.
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "import/gltf_file.h"
#include "test_support.h"
#include "write/gltf_document.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;
using rig::test::run_rigview_env;
using rig::test::slurp;

const std::string kMannequin = RIGVIEW_SOURCE_DIR "/assets/mannequin.glb";
const std::string kArm = RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb";

std::string tmp_path(const std::string& name) {
  return (rig::test::scratch_dir() / ("save_" + name)).string();
}

tinygltf::Model document(const std::string& path) {
  rig::import::GltfSource source;
  std::string error;
  EXPECT_TRUE(rig::import::load_gltf_source(path, rig::ImportOptions{}, source, error))
      << path << ": " << error;
  return std::move(source.document);
}

// An accessor's values as floats (FLOAT accessors, tightly packed).
std::vector<float> floats(const tinygltf::Model& doc, int index) {
  const tinygltf::Accessor& a = doc.accessors.at(size_t(index));
  const tinygltf::BufferView& v = doc.bufferViews.at(size_t(a.bufferView));
  const size_t n = a.count * size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type)));
  std::vector<float> out(n);
  std::memcpy(out.data(), doc.buffers[size_t(v.buffer)].data.data() + v.byteOffset + a.byteOffset,
              n * sizeof(float));
  return out;
}

// An accessor's bytes as stored (empty without a bufferView).
std::string accessor_bytes(const tinygltf::Model& doc, int index) {
  const tinygltf::Accessor& a = doc.accessors.at(size_t(index));
  if (a.bufferView < 0) return {};
  const tinygltf::BufferView& v = doc.bufferViews.at(size_t(a.bufferView));
  const size_t size = a.count * size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type))) *
                      size_t(tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType)));
  const auto* data = doc.buffers[size_t(v.buffer)].data.data() + v.byteOffset + a.byteOffset;
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A bufferView's bytes (empty for -1).
std::string view_bytes(const tinygltf::Model& doc, int index) {
  if (index < 0) return {};
  const tinygltf::BufferView& v = doc.bufferViews.at(size_t(index));
  const auto* data = doc.buffers[size_t(v.buffer)].data.data() + v.byteOffset;
  return std::string(reinterpret_cast<const char*>(data), v.byteLength);
}

// The mannequin with every inverse bind matrix the identity: the classic missing-IBM file.
std::string broken_mannequin() {
  const std::string out = tmp_path("broken.glb");
  const size_t joints = document(kMannequin).skins[0].joints.size();
  const std::vector<rig::write::DocumentEdit> edits{
      rig::write::SetInverseBindMatrices{0, std::vector<glm::mat4>(joints, glm::mat4(1.0f))}};
  std::string error;
  EXPECT_TRUE(rig::write::write_document(kMannequin, edits, out, error)) << error;
  return out;
}

TEST(SaveCli, ASaveWithoutEditsIsThePlainCopy) {
  for (const char* ext : {".glb", ".gltf"}) {
    const std::string saved = tmp_path(std::string("plain") + ext);
    const std::string copy = tmp_path(std::string("copy") + ext);
    const rig::test::RunResult r = run_rigview(quote(kMannequin) + " --save " + quote(saved));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out,
              "rigview: saved " + saved +
                  " (influences of 0 primitives, inverse bind matrices of 0 skins written)\n");
    EXPECT_EQ(r.err, "");
    ASSERT_EQ(run_rigview(quote(kMannequin) + " --write-copy " + quote(copy)).status, 0);
    EXPECT_EQ(slurp(saved), slurp(copy)) << ext;
  }
}

TEST(SaveCli, RepairIbmFixesABrokenFileAndTheDoctorNoLongerFlagsIt) {
  const std::string broken = broken_mannequin();
  const rig::test::RunResult before = run_rigview(quote(broken) + " --info");
  ASSERT_EQ(before.status, 0) << before.err;
  EXPECT_NE(before.out.find("\"IBM_MISSING\""), std::string::npos) << before.out;

  const std::string fixed = tmp_path("fixed.glb");
  const rig::test::RunResult r =
      run_rigview(quote(broken) + " --repair-ibm --save " + quote(fixed));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("rigview: skin 0", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("24 inverse bind matrices recomputed from the rest pose (IBM_MISSING"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("no longer flags"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line per skin: " << r.err;
  EXPECT_NE(r.out.find("inverse bind matrices of 1 skin written"), std::string::npos) << r.out;

  const rig::test::RunResult after = run_rigview(quote(fixed) + " --info");
  ASSERT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(after.out.find("IBM_MISSING"), std::string::npos) << after.out;
  EXPECT_EQ(after.out.find("IBM_SUSPECT"), std::string::npos) << after.out;
  // The mannequin's bind pose is its rest pose: the repaired matrices are its own.
  const tinygltf::Model original = document(kMannequin), repaired = document(fixed);
  const std::vector<float> want = floats(original, original.skins[0].inverseBindMatrices);
  const std::vector<float> got = floats(repaired, repaired.skins[0].inverseBindMatrices);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << i;

  // The same repair reaches --export-obj: the broken file's rest pose, repaired, is the
  // original's.
  const std::string a = tmp_path("repaired.obj"), b = tmp_path("original.obj");
  ASSERT_EQ(
      run_rigview(quote(broken) + " --repair-ibm --rest-pose --export-obj " + quote(a)).status, 0);
  ASSERT_EQ(run_rigview(quote(kMannequin) + " --rest-pose --export-obj " + quote(b)).status, 0);
  const auto pa = rig::test::obj_positions(a), pb = rig::test::obj_positions(b);
  ASSERT_EQ(pa.size(), pb.size());
  ASSERT_FALSE(pa.empty());
  for (size_t i = 0; i < pa.size(); ++i)
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(pa[i][size_t(k)], pb[i][size_t(k)], 1e-4) << i;
}

// A posed file (girl: its rest pose is not its bind pose) saved with negated-translation IBMs:
// --repair-ibm recover gives its own matrices back, the rest-pose repair cannot.
TEST(SaveCliCorpus, RepairIbmRecoverRestoresAPosedFilesMatrices) {
  RIG_REQUIRE_CORPUS(root);
  const std::string girl = (root / "girl/girl.glb").string();
  const tinygltf::Model original = document(girl);
  ASSERT_FALSE(original.skins.empty());
  const std::vector<float> own = floats(original, original.skins[0].inverseBindMatrices);
  std::vector<glm::mat4> negated(own.size() / 16);
  for (size_t j = 0; j < negated.size(); ++j) {
    glm::mat4 ibm;
    std::memcpy(&ibm[0][0], own.data() + 16 * j, sizeof ibm);
    glm::mat4 bind = glm::inverse(ibm);
    bind[3] = glm::vec4(-glm::vec3(bind[3]), 1.0f);
    negated[j] = bind;
  }
  const std::string broken = tmp_path("girl_negated.glb");
  std::string error;
  const std::vector<rig::write::DocumentEdit> edits{rig::write::SetInverseBindMatrices{0, negated}};
  ASSERT_TRUE(rig::write::write_document(girl, edits, broken, error)) << error;
  const std::string recovered = tmp_path("girl_recovered.glb"), rested = tmp_path("girl_rest.glb");
  const rig::test::RunResult r =
      run_rigview(quote(broken) + " --repair-ibm recover --save " + quote(recovered));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("recomputed with the negated translation undone (IBM_SUSPECT"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("no longer flags"), std::string::npos) << r.err;
  ASSERT_EQ(run_rigview(quote(broken) + " --repair-ibm --save " + quote(rested)).status, 0);
  const tinygltf::Model a = document(recovered), b = document(rested);
  const std::vector<float> got = floats(a, a.skins[0].inverseBindMatrices);
  const std::vector<float> rest = floats(b, b.skins[0].inverseBindMatrices);
  ASSERT_EQ(got.size(), own.size());
  float largest = 0.0f, off = 0.0f, rest_off = 0.0f;
  for (size_t i = 0; i < own.size(); ++i) {
    largest = std::max(largest, std::abs(own[i]));
    off = std::max(off, std::abs(got[i] - own[i]));
    rest_off = std::max(rest_off, std::abs(rest[i] - own[i]));
  }
  EXPECT_LT(off, 1e-5f * largest);
  EXPECT_GT(rest_off, 1e-2f * largest) << "girl's rest pose is posed: the rest-pose repair differs";
}

TEST(SaveCli, RepairIbmSpellingsAndNothingToRepair) {
  const rig::test::RunResult clean = run_rigview(quote(kMannequin) + " --repair-ibm");
  EXPECT_EQ(clean.status, 0) << clean.err;
  EXPECT_EQ(clean.err, "rigview: --repair-ibm: no skin is flagged IBM_MISSING or IBM_SUSPECT\n");
  const rig::test::RunResult recover = run_rigview("--repair-ibm recover " + quote(kMannequin));
  EXPECT_EQ(recover.status, 0) << recover.err;
  EXPECT_EQ(recover.err, clean.err);
  for (const std::string& spelling :
       {std::string(" --repair-ibm=all"), std::string(" --repair-ibm all")}) {
    const rig::test::RunResult all = run_rigview(quote(kMannequin) + spelling);
    EXPECT_EQ(all.status, 0) << all.err;
    EXPECT_NE(all.err.find("recomputed from the rest pose (all;"), std::string::npos) << all.err;
  }
  // `all` before the model: the word is the flag's, the model still found.
  const rig::test::RunResult first = run_rigview("--repair-ibm all " + quote(kMannequin));
  EXPECT_EQ(first.status, 0) << first.err;
  for (const std::string& bad : {std::string(" --repair-ibm=some"), std::string(" --save ''"),
                                 " --simulate-bug no-ibm --save " + quote(tmp_path("x.glb"))}) {
    const rig::test::RunResult r = run_rigview(quote(kMannequin) + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  }
}

// twist_arm with extensions and extras on the document, the asset, a node, the mesh, its
// primitive, the skin, the material, an accessor, the image, texture and sampler and the
// animation, as a .gltf.
std::string decorated_arm() {
  tinygltf::Model doc = document(kArm);
  auto object = [](const char* key, tinygltf::Value value) {
    tinygltf::Value::Object o;
    o[key] = std::move(value);
    return tinygltf::Value(std::move(o));
  };
  doc.asset.extras = object("tool", tinygltf::Value(std::string("rigview test")));
  doc.extras = object("note", tinygltf::Value(std::string("top level")));
  doc.extensionsUsed.push_back("EXT_rigview_test");
  doc.extensions["EXT_rigview_test"] = object("level", tinygltf::Value(3));
  doc.nodes[0].extras = object("node", tinygltf::Value(true));
  doc.nodes[0].extensions["EXT_rigview_test"] = object("pin", tinygltf::Value(1.5));
  doc.meshes[0].extras = object("mesh", tinygltf::Value(std::string("arm")));
  doc.meshes[0].primitives[0].extras = object("primitive", tinygltf::Value(7));
  doc.skins[0].extras = object("skin", tinygltf::Value(std::string("two bones")));
  doc.skins[0].extensions["EXT_rigview_test"] = object("bones", tinygltf::Value(2));
  if (!doc.materials.empty()) {
    doc.extensionsUsed.push_back("KHR_materials_emissive_strength");
    doc.materials[0].extensions["KHR_materials_emissive_strength"] =
        object("emissiveStrength", tinygltf::Value(2.0));
  }
  doc.accessors[0].extras = object("positions", tinygltf::Value(std::string("yes")));
  doc.images.at(0).extras = object("image", tinygltf::Value(std::string("stripes")));
  doc.textures.at(0).extras = object("texture", tinygltf::Value(4));
  doc.samplers.at(0).extras = object("sampler", tinygltf::Value(false));
  if (!doc.animations.empty()) doc.animations[0].extras = object("clip", tinygltf::Value(1));
  const std::string out = tmp_path("decorated.gltf");
  tinygltf::TinyGLTF writer;
  EXPECT_TRUE(writer.WriteGltfSceneToFile(&doc, out, true, true, true, false));
  return out;
}

// The two documents agree on everything but skin 0's inverse bind matrices (when `ibm_edited`):
// the top level, every node, mesh, material, skin, animation, texture, sampler and image, and
// every accessor's description and bytes (bufferView indices may differ: the writer repacks the
// buffer).
void expect_kept(const tinygltf::Model& in, const tinygltf::Model& out, bool ibm_edited) {
  EXPECT_TRUE(in.asset == out.asset);
  EXPECT_EQ(in.extensionsUsed, out.extensionsUsed);
  EXPECT_TRUE(in.extensions == out.extensions);
  EXPECT_TRUE(in.extras == out.extras);
  EXPECT_TRUE(in.nodes == out.nodes);
  EXPECT_TRUE(in.meshes == out.meshes);
  EXPECT_TRUE(in.materials == out.materials);
  EXPECT_TRUE(in.animations == out.animations);
  EXPECT_TRUE(in.scenes == out.scenes);
  EXPECT_TRUE(in.textures == out.textures);
  EXPECT_TRUE(in.samplers == out.samplers);
  ASSERT_EQ(in.images.size(), out.images.size());
  for (size_t i = 0; i < in.images.size(); ++i) {
    tinygltf::Image a = in.images[i], b = out.images[i];
    EXPECT_EQ(view_bytes(in, a.bufferView), view_bytes(out, b.bufferView)) << "image " << i;
    a.bufferView = b.bufferView = -1;
    EXPECT_TRUE(a == b) << "image " << i;
  }
  EXPECT_EQ(in.defaultScene, out.defaultScene);
  ASSERT_EQ(in.skins.size(), out.skins.size());
  for (size_t s = 0; s < in.skins.size(); ++s) {
    tinygltf::Skin a = in.skins[s], b = out.skins[s];
    if (ibm_edited && s == 0) a.inverseBindMatrices = b.inverseBindMatrices;
    EXPECT_TRUE(a == b) << "skin " << s;
  }
  ASSERT_GE(out.accessors.size(), in.accessors.size());
  for (size_t i = 0; i < in.accessors.size(); ++i) {
    if (ibm_edited && int(i) == in.skins[0].inverseBindMatrices) continue;
    tinygltf::Accessor a = in.accessors[i], b = out.accessors[i];
    EXPECT_EQ(accessor_bytes(in, int(i)), accessor_bytes(out, int(i))) << "accessor " << i;
    a.bufferView = b.bufferView = -1;
    EXPECT_TRUE(a == b) << "accessor " << i;
  }
}

TEST(SaveCli, ExtensionsExtrasAndEverythingElseAreKept) {
  const std::string in = decorated_arm();
  const tinygltf::Model original = document(in);
  ASSERT_EQ(original.extensions.count("EXT_rigview_test"), 1u);
  // No edit.
  const std::string plain = tmp_path("decorated_plain.gltf");
  ASSERT_EQ(run_rigview(quote(in) + " --save " + quote(plain)).status, 0);
  expect_kept(original, document(plain), false);
  // An edit: the inverse bind matrices recomputed (every skin).
  for (const char* ext : {".gltf", ".glb"}) {
    const std::string edited = tmp_path(std::string("decorated_edited") + ext);
    const rig::test::RunResult r =
        run_rigview(quote(in) + " --repair-ibm=all --save " + quote(edited));
    ASSERT_EQ(r.status, 0) << r.err;
    const tinygltf::Model saved = document(edited);
    expect_kept(original, saved, true);
    // The twist arm is bound in its rest pose: the new matrices are the file's within float
    // rounding, in a new FLOAT MAT4 accessor.
    const int ibm = saved.skins[0].inverseBindMatrices;
    EXPECT_GE(ibm, int(original.accessors.size()));
    EXPECT_EQ(saved.accessors[size_t(ibm)].type, TINYGLTF_TYPE_MAT4);
    const std::vector<float> want = floats(original, original.skins[0].inverseBindMatrices);
    const std::vector<float> got = floats(saved, ibm);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << i;
  }
}

TEST(SaveCli, AFailedSaveSaysWhyInOneLineAndKeepsThePreviousFile) {
  // A folder that cannot exist (a path under a file; the tests may run as root, whom permission
  // bits do not stop).
  const std::string impossible = "/dev/null/saved.glb";
  rig::test::RunResult r = run_rigview(quote(kArm) + " --save " + quote(impossible));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("rigview: error: " + impossible + ": ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;

  // A full disk: the file size limit stops the write halfway (EFBIG once SIGXFSZ is ignored).
  const std::string previous = tmp_path("previous.glb");
  ASSERT_EQ(run_rigview(quote(kArm) + " --save " + quote(previous)).status, 0);
  const std::string bytes = slurp(previous);
  r = run_rigview_env("ulimit -f 16; trap '' XFSZ;",
                      quote(kMannequin) + " --repair-ibm=all --save " + quote(previous));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.rfind("rigview: skin 0", 0), 0u) << r.err;  // the repair's line, then the error
  const std::string error_line = r.err.substr(r.err.find('\n') + 1);
  EXPECT_EQ(error_line.rfind("rigview: error: " + previous + ": ", 0), 0u) << r.err;
  EXPECT_EQ(error_line.find('\n'), error_line.size() - 1) << r.err;
  EXPECT_EQ(slurp(previous), bytes);
  for (const auto& entry : std::filesystem::directory_iterator(rig::test::scratch_dir()))
    EXPECT_EQ(entry.path().filename().string().find("save_previous.glb.tmp"), std::string::npos)
        << "a temporary was left: " << entry.path();
}

}  // namespace
