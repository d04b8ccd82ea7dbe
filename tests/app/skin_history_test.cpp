// The viewer's skin edits (app/viewer/skin_editing.h): undo and redo give the layer back bit for
// bit, the modified flag follows the saved state, a failed save changes nothing, and the edit
// journal brings unsaved edits back after the process was killed (a real SIGKILL of a forked
// child). Expectations are copies of the layer's arrays taken before and after each operation,
// not the history's own records.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "import/gltf_import.h"
#include "skin_edits.h"
#include "test_support.h"
#include "viewer/document.h"
#include "viewer/edit_journal.h"
#include "viewer/skin_editing.h"

namespace rigview {
namespace {

namespace fs = std::filesystem;
const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

// The layer's influences and matrices, copied.
struct Arrays {
  std::vector<uint32_t> slots;
  std::vector<std::vector<uint16_t>> joints;
  std::vector<std::vector<float>> weights;
  std::vector<std::vector<float>> matrices;
  bool operator==(const Arrays&) const = default;
};
Arrays arrays(const rig::SkinLayer& layer) {
  Arrays a;
  for (const rig::SkinMesh& m : layer.meshes().primitives) {
    a.slots.push_back(m.influences);
    a.joints.push_back(m.joints);
    a.weights.push_back(m.weights);
  }
  for (size_t s = 0; s < layer.skin_count(); ++s) {
    std::vector<float> flat;
    for (const glm::mat4& m : layer.inverse_bind(s))
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) flat.push_back(m[c][r]);
    a.matrices.push_back(flat);
  }
  return a;
}

WeightsOp op(const char* text) {
  WeightsOp o;
  std::string error;
  EXPECT_TRUE(parse_weights_op(text, o, error)) << error;
  return o;
}

// A private cache folder (the journal's home) per test.
class SkinEditingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = rig::test::scratch_dir() / ("skin_editing_" + std::to_string(::getpid()));
    fs::remove_all(cache_);
    fs::create_directories(cache_);
    ASSERT_EQ(setenv("XDG_CACHE_HOME", cache_.c_str(), 1), 0);
    model_ = (cache_ / "mannequin.glb").string();
    fs::copy_file(kMannequin, model_);
  }
  void TearDown() override {
    unsetenv("XDG_CACHE_HOME");
    fs::remove_all(cache_);
  }
  void open(Document& doc) {
    std::string error;
    ASSERT_TRUE(load_document(model_, Options{}, doc, error)) << error;
    doc.stop_background_work();
  }
  bool run(SkinEditing& editing, Document& doc, const char* text) {
    const WeightsOp o = op(text);
    std::string error;
    bool ok = true;
    const bool changed = editing.apply(doc, o.text, true, false, [&](rig::SkinLayer&) {
      rig::WeightEditResult result;
      ok = apply_weights_op(o, *doc.model, doc.skin, result, error);
    });
    EXPECT_TRUE(ok) << error;
    return changed;
  }
  fs::path cache_;
  std::string model_;
};

TEST_F(SkinEditingTest, UndoAndRedoGiveTheLayerBackBitForBit) {
  Document doc;
  open(doc);
  SkinEditing editing;
  editing.reset(doc);
  EXPECT_FALSE(editing.modified());
  std::vector<Arrays> states{arrays(*doc.skin)};
  for (const char* text : {"smooth=0.5:4", "limit=2:refit", "clean=0.3", "smooth=1:2"}) {
    ASSERT_TRUE(run(editing, doc, text)) << text << " changed nothing";
    states.push_back(arrays(*doc.skin));
    EXPECT_NE(states.back(), states[states.size() - 2]) << text;
    EXPECT_TRUE(editing.modified());
  }
  std::string error;
  for (size_t k = states.size() - 1; k > 0; --k) {
    ASSERT_TRUE(editing.undo(doc, error)) << error;
    EXPECT_EQ(arrays(*doc.skin), states[k - 1]) << "after undoing step " << k;
  }
  EXPECT_FALSE(editing.modified());
  EXPECT_FALSE(editing.undo(doc, error));
  for (size_t k = 1; k < states.size(); ++k) {
    ASSERT_TRUE(editing.redo(doc, error)) << error;
    EXPECT_EQ(arrays(*doc.skin), states[k]) << "after redoing step " << k;
  }
  EXPECT_FALSE(editing.redo(doc, error));
  // A new edit after two undos drops what could be redone.
  ASSERT_TRUE(editing.undo(doc, error));
  ASSERT_TRUE(editing.undo(doc, error));
  ASSERT_TRUE(run(editing, doc, "mirror") || run(editing, doc, "smooth=0.25:1"));
  EXPECT_FALSE(editing.history().can_redo());
  ASSERT_TRUE(editing.undo(doc, error));
  EXPECT_EQ(arrays(*doc.skin), states[2]);
}

TEST_F(SkinEditingTest, TheInverseBindRepairIsUndoneToo) {
  Document doc;
  open(doc);
  SkinEditing editing;
  editing.reset(doc);
  const Arrays before = arrays(*doc.skin);
  ASSERT_TRUE(editing.apply(doc, "break", false, true, [](rig::SkinLayer& layer) {
    std::string error;
    layer.set_inverse_bind(0, 3, glm::mat4(2.0f), error);
  }));
  EXPECT_NE(arrays(*doc.skin), before);
  std::string error;
  ASSERT_TRUE(editing.undo(doc, error)) << error;
  EXPECT_EQ(arrays(*doc.skin), before);
  EXPECT_FALSE(editing.modified());
}

TEST_F(SkinEditingTest, SavingClearsModifiedAndAFailedSaveChangesNothing) {
  Document doc;
  open(doc);
  SkinEditing editing;
  editing.reset(doc);
  ASSERT_TRUE(run(editing, doc, "limit=1"));
  ASSERT_TRUE(editing.modified());
  ASSERT_TRUE(fs::exists(editing.journal_file()));
  std::string error;
  const std::string nowhere = (cache_ / "no" / "such" / "folder" / "out.glb").string();
  EXPECT_FALSE(editing.save(doc, nowhere, error));
  EXPECT_NE(error.find("out.glb"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_TRUE(editing.modified());
  EXPECT_TRUE(fs::exists(editing.journal_file()));

  const std::string out = (cache_ / "saved.glb").string();
  ASSERT_TRUE(editing.save(doc, out, error)) << error;
  EXPECT_FALSE(editing.modified());
  EXPECT_EQ(editing.save_path(), out);
  EXPECT_FALSE(fs::exists(editing.journal_file()));
  // The saved file holds one influence per vertex, the layer's.
  rig::Model saved;
  ASSERT_TRUE(rig::import_gltf(out, saved, error)) << error;
  for (const rig::Mesh& mesh : saved.meshes)
    for (const rig::Primitive& p : mesh.primitives)
      for (size_t v = 0; p.influences && v < p.positions.size(); ++v) {
        int nonzero = 0;
        for (uint32_t i = 0; i < p.influences; ++i) nonzero += p.weights[v * p.influences + i] > 0;
        ASSERT_LE(nonzero, 1) << v;
      }
  // Undo past the save: modified again.
  ASSERT_TRUE(editing.undo(doc, error));
  EXPECT_TRUE(editing.modified());
  ASSERT_TRUE(editing.redo(doc, error));
  EXPECT_FALSE(editing.modified());
}

// The child edits and journals, then is killed with SIGKILL (no destructor, no atexit); the
// next start finds the journal and recovers the child's layer exactly.
TEST_F(SkinEditingTest, AJournalIsRecoveredAfterTheProcessIsKilled) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Document doc;
    std::string error;
    if (!load_document(model_, Options{}, doc, error)) _exit(3);
    doc.stop_background_work();
    SkinEditing editing;
    editing.reset(doc);
    const WeightsOp smooth = op("smooth=0.5:6"), limit = op("limit=3");
    for (const WeightsOp* o : {&smooth, &limit})
      editing.apply(doc, o->text, true, false, [&](rig::SkinLayer&) {
        rig::WeightEditResult result;
        apply_weights_op(*o, *doc.model, doc.skin, result, error);
      });
    ::kill(::getpid(), SIGKILL);
    _exit(4);  // not reached
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child exited with " << WEXITSTATUS(status);
  ASSERT_EQ(WTERMSIG(status), SIGKILL);

  // What the child's layer held: the same operations on a fresh layer here.
  Document expected;
  open(expected);
  std::string error;
  rig::WeightEditResult result;
  ASSERT_TRUE(apply_weights_op(op("smooth=0.5:6"), *expected.model, expected.skin, result, error));
  ASSERT_TRUE(apply_weights_op(op("limit=3"), *expected.model, expected.skin, result, error));

  Document doc;
  open(doc);
  SkinEditing editing;
  editing.reset(doc);
  ASSERT_TRUE(editing.recovery_pending()) << editing.journal_file();
  EXPECT_NE(editing.recovery_summary().find("primitive"), std::string::npos);
  ASSERT_TRUE(editing.recover(doc, error)) << error;
  EXPECT_EQ(arrays(*doc.skin), arrays(*expected.skin));
  EXPECT_TRUE(editing.modified());
  // One undo returns the file's weights.
  Document file;
  open(file);
  ASSERT_TRUE(editing.undo(doc, error)) << error;
  EXPECT_EQ(arrays(*doc.skin), arrays(*file.skin));
  EXPECT_FALSE(fs::exists(editing.journal_file())) << "unmodified: no journal";
}

TEST_F(SkinEditingTest, ADamagedOrStaleJournalIsRefusedInOneLine) {
  Document doc;
  open(doc);
  SkinEditing editing;
  editing.reset(doc);
  ASSERT_TRUE(run(editing, doc, "limit=1"));
  const std::string journal = editing.journal_file();
  ASSERT_TRUE(fs::exists(journal));
  std::string bytes;
  {
    std::ifstream in(journal, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  JournalContents contents;
  std::string error;
  ASSERT_TRUE(read_journal(journal, contents, error)) << error;
  // Every truncation and one flipped byte: refused, one line, nothing read past the end.
  for (size_t cut : {size_t(0), size_t(3), size_t(20), bytes.size() / 2, bytes.size() - 1}) {
    std::ofstream(journal, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), std::streamsize(cut));
    EXPECT_FALSE(read_journal(journal, contents, error)) << cut;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  std::string flipped = bytes;
  flipped[flipped.size() / 3] ^= 0x40;
  std::ofstream(journal, std::ios::binary | std::ios::trunc)
      .write(flipped.data(), std::streamsize(flipped.size()));
  EXPECT_FALSE(read_journal(journal, contents, error));
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  // A whole journal of a file that changed since (another size): not offered.
  std::ofstream(journal, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), std::streamsize(bytes.size()));
  std::ofstream(model_, std::ios::binary | std::ios::app) << "    ";
  Document again;
  open(again);
  SkinEditing later;
  later.reset(again);
  EXPECT_FALSE(later.recovery_pending());
}

// journal_step refuses what does not fit the layer: joint indices past the skin.
TEST_F(SkinEditingTest, AJournalNamingAJointPastTheSkinIsRefused) {
  Document doc;
  open(doc);
  const SkinState base = capture_skin_state(*doc.skin);
  JournalContents journal;
  PrimitiveChange change;
  change.primitive = 0;
  change.slots_after = base.slots[0];
  change.joints_after = base.joints[0];
  change.weights_after = base.weights[0];
  change.joints_after[0] = 60000;
  journal.edits.primitives.push_back(change);
  SkinEditStep step;
  std::string error;
  const std::vector<uint32_t> limits(base.slots.size(), 24);
  EXPECT_FALSE(journal_step(journal, base, limits, step, error));
  EXPECT_NE(error.find("60000"), std::string::npos) << error;
  journal.edits.primitives[0].joints_after[0] = 1;
  EXPECT_TRUE(journal_step(journal, base, limits, step, error)) << error;
  EXPECT_EQ(step.primitives[0].joints_before, base.joints[0]);
}

}  // namespace
}  // namespace rigview
