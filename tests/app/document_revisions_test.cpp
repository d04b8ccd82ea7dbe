// A document's derived products are keyed by the revisions of the inputs they read: a new
// revision of one input drops exactly the products that read it, and a background job started
// before the change never publishes what it computed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "skin/rotation_centers.h"
#include "viewer/document.h"

namespace rigview {
namespace {

Document load(const char* asset) {
  Document doc;
  std::string error;
  EXPECT_TRUE(
      load_document(std::string(RIGVIEW_SOURCE_DIR) + "/assets/" + asset, Options{}, doc, error))
      << error;
  return doc;
}

// Makes every product of the document and waits for the centres to reach the character.
void make_all(Document& doc) {
  doc.poll_rotation_centers(true);
  doc.refresh();
  doc.bind_boxes();
  doc.make_artefacts();
  doc.make_compression();
  rig::FixJointOptions fix;  // a long search: still running when the input moves on
  fix.iterations = {40, 40, 40, 40, 40, 40, 40, 40};
  if (!doc.fix_joint_product.held())
    doc.fix_joint_product.make(doc.revisions).start(*doc.model, *doc.skin, fix);
}

struct Present {
  bool centers, health, bounds, bind_boxes, artefacts, compression, fix_joint, artefact_setup;
};

// Held, fresh or not: a dropped product must be destroyed (its job cancelled), not only hidden.
Present present(const Document& doc) {
  return {doc.centers_work.held(),      doc.health_product.held(),
          doc.bounds_product.held(),    doc.bind_boxes_product.held(),
          doc.artefacts_product.held(), doc.compression_product.held(),
          doc.fix_joint_product.held(), doc.artefact_setup_product.held()};
}

TEST(DocumentRevisions, EachInputDropsExactlyTheProductsThatReadIt) {
  // What each product computes from, written from the products themselves (not from the
  // document's masks): the centres from rest positions and weights; rig health and the bind
  // boxes from weights and inverse bind matrices; the framing bounds and the compression's
  // displacement also play the clips; the artefact measures skin with the centres too; "Fix this
  // joint" smooths the weights and scans a clip with the inverse bind matrices; the artefact
  // measures' constants read the model's geometry and file weights and the IBMs' bone segments.
  struct Row {
    rig::Input input;
    Present dropped;
  };
  const Row rows[] = {
      {rig::Input::Model, {true, true, true, true, true, true, true, true}},
      {rig::Input::SkinWeights, {true, true, true, true, true, true, true, false}},
      {rig::Input::InverseBindMatrices, {false, true, true, true, true, true, true, true}},
      {rig::Input::ClipSet, {false, false, true, false, false, true, true, false}},
      {rig::Input::SkinningSettings, {false, false, false, false, false, false, false, false}},
      {rig::Input::RotationCenters, {false, false, false, false, true, false, false, false}},
  };
  static_assert(std::size(rows) == rig::kInputCount, "a row per input");
  Document doc = load("twist_arm.glb");
  for (const Row& row : rows) {
    SCOPED_TRACE(static_cast<int>(row.input));
    make_all(doc);
    const Present before = present(doc);
    ASSERT_TRUE(before.centers && before.health && before.bounds && before.bind_boxes &&
                before.artefacts && before.compression && before.fix_joint &&
                before.artefact_setup);
    const ArtefactAnalysis* artefacts = doc.artefacts();
    doc.bump(row.input);
    const Present after = present(doc);
    EXPECT_EQ(after.centers, !row.dropped.centers);
    EXPECT_EQ(after.health, !row.dropped.health);
    EXPECT_EQ(after.bounds, !row.dropped.bounds);
    EXPECT_EQ(after.bind_boxes, !row.dropped.bind_boxes);
    EXPECT_EQ(after.artefacts, !row.dropped.artefacts);
    EXPECT_EQ(after.compression, !row.dropped.compression);
    EXPECT_EQ(after.fix_joint, !row.dropped.fix_joint);
    EXPECT_EQ(after.artefact_setup, !row.dropped.artefact_setup);
    // What survives is the same object, fresh, not a remade one.
    EXPECT_EQ(doc.artefacts() != nullptr, after.artefacts);
    EXPECT_EQ(doc.compression() != nullptr, after.compression);
    if (after.artefacts) {
      EXPECT_EQ(doc.artefacts(), artefacts);
    }
    // Lazily remade: refresh() brings back the cheap ones, with the same values.
    doc.refresh();
    EXPECT_NE(doc.health_product.get(doc.revisions), nullptr);
    EXPECT_TRUE(doc.bounds().valid());
  }
  doc.stop_background_work();
}

// The first skinned prepared primitive and one of its vertices with two or more joints.
struct EditedVertex {
  uint32_t primitive = 0, vertex = 0;
  uint16_t joint = 0;
};
EditedVertex blended_vertex(const rig::SkinMeshes& meshes) {
  for (uint32_t p = 0; p < meshes.primitives.size(); ++p) {
    const rig::SkinMesh& m = meshes.primitives[p];
    for (uint32_t v = 0; m.skinned() && v < m.vertex_count; ++v) {
      int used = 0;
      for (float w : m.vertex_weights(v)) used += w > 0.0f;
      if (used >= 2) return {p, v, m.vertex_joints(v)[0]};
    }
  }
  ADD_FAILURE() << "no vertex with two joints";
  return {};
}

TEST(DocumentRevisions, ACentresJobStartedBeforeAnEditNeverPublishes) {
  Document doc = load("twist_arm.glb");
  ASSERT_NE(doc.rotation_centers(), nullptr);  // started by the load
  RotationCentersWork* old_work = doc.centers_work.get(doc.revisions);
  old_work->job.wait();
  const std::shared_ptr<const rig::SkinMeshes> stale = old_work->job.result();
  ASSERT_NE(stale, nullptr);  // done (from the file's weights), but not yet published
  const EditedVertex e = blended_vertex(doc.skin->meshes());
  const uint64_t centres_revision = doc.revisions[rig::Input::RotationCenters];

  // One vertex goes wholly to one joint: the centres computed before are stale.
  std::string error;
  const uint16_t joints[] = {e.joint};
  const float weights[] = {1.0f};
  ASSERT_TRUE(doc.set_vertex_influences(e.primitive, e.vertex, joints, weights, error)) << error;
  EXPECT_EQ(doc.rotation_centers(), nullptr);  // dropped: cancelled and joined
  EXPECT_TRUE(doc.skin->meshes().primitives[e.primitive].rotation_centers.empty());

  // What the centres must be now: computed here, independently of the document, from the file's
  // influences with the same edit.
  rig::SkinMeshes expected = rig::prepare_skin_meshes(*doc.model);
  rig::SkinMesh& m = expected.primitives[e.primitive];
  for (uint32_t s = 0; s < m.influences; ++s) {
    m.joints[size_t(e.vertex) * m.influences + s] = s == 0 ? e.joint : 0;
    m.weights[size_t(e.vertex) * m.influences + s] = s == 0 ? 1.0f : 0.0f;
  }
  rig::CorOptions no_cache;
  no_cache.use_cache = false;
  ASSERT_TRUE(rig::compute_rotation_centers(*doc.model, expected, no_cache));
  ASSERT_NE(expected.primitives[e.primitive].rotation_centers,
            stale->primitives[e.primitive].rotation_centers);  // the edit matters

  ASSERT_TRUE(doc.poll_rotation_centers(true));  // a new job, started by the poll, finished
  EXPECT_EQ(doc.skin->meshes().primitives[e.primitive].rotation_centers,
            expected.primitives[e.primitive].rotation_centers);
  EXPECT_NE(doc.revisions[rig::Input::RotationCenters], centres_revision);
  EXPECT_FALSE(doc.poll_rotation_centers(true));  // published once
  doc.stop_background_work();
}

TEST(DocumentRevisions, CompressedPlaybackEndsWhenItsClipsAreDropped) {
  Document doc = load("mannequin.glb");
  ASSERT_FALSE(doc.model->clips.empty());
  CompressedClips& c = doc.make_compression();
  c.request(1.0);  // a loose tolerance: few keys, a pose visibly off the raw one
  const auto start = std::chrono::steady_clock::now();
  while (c.session.running() && std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_NE(c.session.results(), nullptr) << c.session.error();
  c.play_compressed(true);
  ASSERT_TRUE(c.playing);

  rig::PoseSelection selection;
  selection.clip = static_cast<int>(doc.model->clips.size()) - 1;
  selection.time = 0.5f * (doc.model->clips.back().start + doc.model->clips.back().end);
  rig::Character raw(*doc.model);
  raw.evaluate(selection);
  doc.character->evaluate(selection);
  const std::vector<glm::mat4> compressed(doc.character->world().begin(),
                                          doc.character->world().end());

  doc.bump(rig::Input::ClipSet);
  EXPECT_EQ(doc.compression(), nullptr);
  // The character plays the file's clips again, bit for bit, not freed compressed ones.
  doc.character->evaluate(selection);
  ASSERT_EQ(doc.character->world().size(), raw.world().size());
  EXPECT_EQ(std::memcmp(doc.character->world().data(), raw.world().data(),
                        raw.world().size() * sizeof(glm::mat4)),
            0);
  EXPECT_NE(
      std::memcmp(compressed.data(), raw.world().data(), raw.world().size() * sizeof(glm::mat4)), 0)
      << "the compressed pose should differ from the raw one at 1 cm";
  doc.stop_background_work();
}

}  // namespace
}  // namespace rigview

namespace rigview {
namespace {

// A clip added to the document at run time is listed, playable from the document's Playback and
// the character at once, and drops what read the old set (bounds, compression) but not the rest.
TEST(DocumentRevisions, AddedClipIsListedPlayableAndMovesTheClipSetRevision) {
  Document doc = load("twist_arm.glb");
  ASSERT_TRUE(doc.loaded());
  const size_t file_clips = doc.model->clips.size();
  ASSERT_GE(file_clips, 1u);
  make_all(doc);
  const uint64_t before = doc.revisions[rig::Input::ClipSet];
  rig::Clip copy = doc.model->clips[0];
  copy.name = "added copy";
  const int added = doc.add_clip(copy);
  EXPECT_EQ(added, int(file_clips));
  EXPECT_NE(doc.revisions[rig::Input::ClipSet], before);
  const Present p = present(doc);
  EXPECT_FALSE(p.compression);
  EXPECT_FALSE(p.bounds);
  EXPECT_TRUE(p.health);
  ASSERT_EQ(doc.clip_labels.size(), file_clips + 1);
  EXPECT_EQ(doc.clip_labels.back(), "added copy");
  EXPECT_EQ(doc.model->clips.size(), file_clips);  // the file's clips are left alone
  doc.playback.select_clip(added);
  ASSERT_EQ(doc.playback.clip(), added);
  // The copy plays exactly as the file's clip it copies.
  const float t = 0.5f * (copy.start + copy.end);
  doc.character->evaluate(rig::PoseSelection{0, t});
  const std::vector<rig::Transform> file_pose = doc.character->pose().local;
  doc.character->evaluate(rig::PoseSelection{added, t});
  EXPECT_EQ(std::memcmp(file_pose.data(), doc.character->pose().local.data(),
                        file_pose.size() * sizeof(rig::Transform)),
            0);
}

}  // namespace
}  // namespace rigview
