// The rig doctor on broken copies of every skinned corpus character, written to disk by
// broken_rig_copies.h as an independent script would (no IBMs, a reversed joint list,
// translation-only IBMs, negated-translation IBMs), each also with its scene roots scaled by 0.01
// (an armature's scale) — float32 rounding, several skins and unused joints come with the corpus.
// Each copy must get its bug's error-level code on every skin it breaks, and nothing else at
// error level; each original none (but Animation_Skin_04, which has no IBMs on purpose). Then the
// fix the finding names — the joint list reordered by RigFinding::joint_order, or the IBMs
// recomputed from the rest pose — must leave the doctor without error, and the rest-pose mesh
// must match the original's LBS within 1e-5 of its diagonal (the repair from the rest pose
// where the original's rest pose is its bind pose). LBS and world matrices are computed here,
// independently of the engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <set>
#include <string>

#include "analysis/inverse_bind_repair.h"
#include "analysis/joint_order_fix.h"
#include "analysis/rig_doctor.h"
#include "broken_rig_copies.h"
#include "import/gltf_import.h"
#include "skin/skin_layer.h"
#include "test_support.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> skinned_corpus_models(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".gltf" && ext != ".glb") continue;
    Model model;
    std::string error;
    if (!import_gltf(e.path().string(), model, error)) continue;
    bool skinned = false;
    for (const DrawItem& d : model.draws) skinned = skinned || d.skin >= 0;
    if (skinned) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<glm::dmat4> world_matrices(const Model& model) {
  std::vector<glm::dmat4> world(model.nodes.size(), glm::dmat4(1.0));
  for (int n : model.node_order) {
    const Node& node = model.nodes[size_t(n)];
    glm::dmat4 t(1.0), s(1.0);
    t[3] = glm::dvec4(glm::dvec3(node.rest.translation), 1.0);
    const glm::dmat4 r = glm::dmat4(glm::mat4_cast(glm::dquat(node.rest.rotation)));
    for (int k = 0; k < 3; ++k) s[k][k] = double(node.rest.scale[k]);
    glm::dmat4 local = t * r * s;
    if (node.has_shear) local = local * glm::dmat4(node.shear);
    world[size_t(n)] = node.parent >= 0 ? world[size_t(node.parent)] * local : local;
  }
  return world;
}

// Rest-pose LBS of every skinned draw: Σ w_k G_k IBM_k v / Σ w_k, all draws in order.
std::vector<glm::dvec3> rest_lbs(const Model& model) {
  const std::vector<glm::dmat4> world = world_matrices(model);
  std::vector<glm::dvec3> out;
  for (const DrawItem& item : model.draws) {
    if (item.skin < 0) continue;
    const Skin& skin = model.skins[size_t(item.skin)];
    const Primitive& p = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    for (size_t v = 0; v < p.positions.size(); ++v) {
      glm::dvec3 sum(0.0);
      double total = 0.0;
      for (uint32_t i = 0; i < p.influences; ++i) {
        const size_t slot = v * p.influences + i;
        const double w = p.weights[slot];
        const size_t j = p.joints[slot];
        if (!(w > 0.0) || j >= skin.joints.size()) continue;
        const glm::dmat4 m = world[size_t(skin.joints[j])] * glm::dmat4(skin.inverse_bind[j]);
        sum += w * glm::dvec3(m * glm::dvec4(glm::dvec3(p.positions[v]), 1.0));
        total += w;
      }
      out.push_back(total > 0.0 ? sum / total : glm::dvec3(p.positions[v]));
    }
  }
  return out;
}

// max |a − b| / diagonal(a).
double lbs_difference(const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b) {
  if (a.size() != b.size() || a.empty()) return 1e30;
  glm::dvec3 lo(1e300), hi(-1e300);
  for (const glm::dvec3& p : a) lo = glm::min(lo, p), hi = glm::max(hi, p);
  double worst = 0.0;
  for (size_t v = 0; v < a.size(); ++v) worst = std::max(worst, glm::length(a[v] - b[v]));
  return worst / std::max(glm::length(hi - lo), 1e-30);
}

// The IBM repair from the rest pose: IBM_j = G_j⁻¹ · W, W the world matrix of the node that
// draws the skin (the space its mesh is authored in; the skinned draw itself ignores it).
void repair_ibms(Model& model) {
  const std::vector<glm::dmat4> world = world_matrices(model);
  for (size_t s = 0; s < model.skins.size(); ++s) {
    Skin& skin = model.skins[s];
    glm::dmat4 space(1.0);
    for (const DrawItem& d : model.draws) {
      if (d.skin != int(s)) continue;
      space = world[size_t(d.node)];
      break;
    }
    for (size_t j = 0; j < skin.joints.size(); ++j)
      skin.inverse_bind[j] = glm::mat4(glm::inverse(world[size_t(skin.joints[j])]) * space);
  }
}

// Whether the repair from the rest pose gives `model` its own IBMs back: every rest skinning
// matrix G_j · IBM_j is the world matrix of the node drawing the skin (rest pose = bind pose, the
// mesh authored in that node's space), to 1e-4 of the matrix's size.
bool repair_restores(const Model& model) {
  const std::vector<glm::dmat4> world = world_matrices(model);
  for (const DrawItem& d : model.draws) {
    if (d.skin < 0) continue;
    const Skin& skin = model.skins[size_t(d.skin)];
    const glm::dmat4& space = world[size_t(d.node)];
    double size = 0.0;
    for (int c = 0; c < 4; ++c) size = std::max(size, glm::length(space[c]));
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      const glm::dmat4 m = world[size_t(skin.joints[j])] * glm::dmat4(skin.inverse_bind[j]);
      for (int c = 0; c < 4; ++c)
        if (glm::length(m[c] - space[c]) > 1e-4 * size) return false;
    }
  }
  return true;
}

// The exact fix of negated-translation IBMs: each is a bind matrix with its translation negated.
void invert_negated_bind_matrices(Model& model) {
  for (Skin& skin : model.skins) {
    for (glm::mat4& ibm : skin.inverse_bind) {
      glm::dmat4 bind(ibm);
      bind[3] = glm::dvec4(-glm::dvec3(bind[3]), 1.0);
      ibm = glm::mat4(glm::inverse(bind));
    }
  }
}

// The engine's repair that recovers the bind pose from what the broken IBMs keep
// (--repair-ibm recover), on a skin layer over `model`, written back into the model's skins.
void recover_ibms(Model& model) {
  SkinLayer layer(model);
  repair_inverse_binds(model, layer, InverseBindRepairScope::Recover);
  for (size_t s = 0; s < model.skins.size(); ++s)
    for (size_t j = 0; j < model.skins[s].inverse_bind.size(); ++j)
      model.skins[s].inverse_bind[j] = layer.inverse_bind(s)[j];
}

std::string error_codes(const RigDiagnosis& d) {
  std::set<std::string> codes;
  for (const RigFinding& f : d.findings)
    if (f.severity == RigSeverity::Error) codes.insert(f.warning.code);
  std::string out;
  for (const std::string& c : codes) out += (out.empty() ? "" : " ") + c;
  return out.empty() ? "-" : out;
}

const char* expected_code(test::BrokenForm form) {
  switch (form) {
    case test::BrokenForm::Original:
      return "";
    case test::BrokenForm::NoIbm:
      return "IBM_MISSING";
    case test::BrokenForm::ReversedJoints:
      return "JOINT_ORDER_SUSPECT";
    case test::BrokenForm::TranslationOnlyIbm:
    case test::BrokenForm::NegatedTranslationIbm:
      return "IBM_SUSPECT";
  }
  return "";
}

// Whether `form` leaves skin s as it was (identity IBMs lose nothing; a frame-parallel
// skeleton's translation-only IBMs are its IBMs; a one-joint list reversed is itself).
bool leaves_skin(const Model& model, size_t s, test::BrokenForm form) {
  const Skin& skin = model.skins[s];
  switch (form) {
    case test::BrokenForm::Original:
      return true;
    case test::BrokenForm::NoIbm:
      return std::all_of(skin.inverse_bind.begin(), skin.inverse_bind.end(),
                         [](const glm::mat4& m) { return m == glm::mat4(1.0f); });
    case test::BrokenForm::ReversedJoints:
      return std::equal(skin.joints.begin(), skin.joints.end(), skin.joints.rbegin());
    case test::BrokenForm::TranslationOnlyIbm:
    case test::BrokenForm::NegatedTranslationIbm: {
      const std::vector<glm::mat4> broken = test::broken_ibms(form, skin.inverse_bind);
      for (size_t j = 0; j < broken.size(); ++j)
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r)
            if (std::abs(broken[j][c][r] - skin.inverse_bind[j][c][r]) >
                1e-5f * std::max(1.0f, std::abs(skin.inverse_bind[j][c][r])))
              return false;
      return true;
    }
  }
  return true;
}

// Copies no reading of the file can tell from a valid rig, so only reported:
//   RiggedSimple has one bone, and its root joint's bind rotation turns about that bone: both IBM
//   bugs leave the bone where it was (the bind skeleton fits) and only twist the mesh, a
//   cylinder, about its own axis.
//   Animation_Skin_07 and _09 turn each joint's bind frame against their chain on purpose (their
//   bind offsets point another way than the rest offsets): the translation-only copies are
//   self-consistent straight chains whose bind skeleton fits the hierarchy better than the
//   original's; the negated ones fit no worse in length, as the originals do.
bool undecidable(const std::string& name, test::BrokenForm form) {
  if (form != test::BrokenForm::TranslationOnlyIbm &&
      form != test::BrokenForm::NegatedTranslationIbm)
    return false;
  return name == "RiggedSimple/RiggedSimple.glb" ||
         name == "AssetGenerator_Animation_Skin/Animation_Skin_07.gltf" ||
         name == "AssetGenerator_Animation_Skin/Animation_Skin_09.gltf";
}

// Whether every joint of skin s is the same joint repeated (one rest world matrix, one IBM), as
// in the assimp edge-case files: any form then moves the whole mesh by one transform at most.
bool one_joint_repeated(const Model& model, size_t s) {
  const std::vector<glm::dmat4> world = world_matrices(model);
  const Skin& skin = model.skins[s];
  for (size_t j = 1; j < skin.joints.size(); ++j) {
    for (int c = 0; c < 4; ++c) {
      if (glm::length(world[size_t(skin.joints[j])][c] - world[size_t(skin.joints[0])][c]) > 1e-9 ||
          glm::length(skin.inverse_bind[j][c] - skin.inverse_bind[0][c]) > 1e-6f)
        return false;
    }
  }
  return true;
}

bool skin_drawn(const Model& model, size_t s) {
  for (const DrawItem& d : model.draws)
    if (d.skin == int(s)) return true;
  return false;
}

TEST(RigDoctorCorpus, BrokenCopiesOfEverySkinnedCharacterGetTheirBugsCode) {
  RIG_REQUIRE_CORPUS(root);
  const std::vector<fs::path> models = skinned_corpus_models(root);
  ASSERT_GE(models.size(), 20u);
  std::printf("| %-48s | %-5s |", "model (error codes; fix: doctor after, LBS diff)", "scale");
  for (test::BrokenForm form : test::kBrokenForms)
    std::printf(" %-26s |", test::broken_form_name(form));
  std::printf("\n");
  size_t copies = 0, flagged = 0, unchanged = 0, invisible = 0;
  // Per broken form: copies the engine's recovery was tried on, and those it restored.
  std::map<std::string, std::pair<size_t, size_t>> recovered;
  for (const fs::path& path : models) {
    const std::string name = fs::relative(path, root).string();
    for (double scale : {1.0, 0.01}) {
      Model file;
      std::string error;
      ASSERT_TRUE(import_gltf(path.string(), file, error)) << name << error;
      std::vector<glm::dvec3> original_lbs;
      bool restorable = false;  // the rest-pose repair gives the original back
      char head[128];
      std::snprintf(head, sizeof head, "| %-48s | %5g |", name.c_str(), scale);
      std::string row = head;
      auto column = [&row](const std::string& cell) {
        char text[160];
        std::snprintf(text, sizeof text, " %-26s |", cell.c_str());
        row += text;
      };
      for (test::BrokenForm form : test::kBrokenForms) {
        const fs::path out = test::scratch_dir() / "broken_copy.glb";
        ASSERT_TRUE(test::write_broken_copy(path.string(), file, form, scale, out.string(), error))
            << name << " " << test::broken_form_name(form) << ": " << error;
        Model copy;
        ASSERT_TRUE(import_gltf(out.string(), copy, error)) << name << error;
        const RigDiagnosis d = examine_rig(copy);
        const std::string codes = error_codes(d);
        std::string cell = codes;
        {
          // The bind-skeleton measure: misfit bones / bones read, worst skin.
          double misfit = 0.0;
          size_t bones = 0;
          for (const RigSkinMeasures& m : d.skins) {
            misfit = std::max(misfit, m.bone_misfit_fraction);
            bones = std::max(bones, m.bones_measured);
          }
          char text[48];
          std::snprintf(text, sizeof text, " [%.2f/%zu]", misfit, bones);
          cell += text;
        }
        if (form == test::BrokenForm::Original) {
          original_lbs = rest_lbs(copy);
          restorable = repair_restores(copy);
          // Animation_Skin_04 has no IBMs on purpose (its finding says so).
          const bool intended = name.find("Animation_Skin_04") != std::string::npos;
          EXPECT_EQ(codes, intended ? "IBM_MISSING" : "-") << name << " scale " << scale;
          if (intended && d.find("IBM_MISSING")) {
            EXPECT_NE(d.find("IBM_MISSING")->warning.message.find("Animation_Skin_04"),
                      std::string::npos);
          }
          column(cell);
          continue;
        }
        std::string code = expected_code(form);
        // A file without IBMs has nothing a joint order can disagree with: its reversed copy is
        // still the file without IBMs.
        if (form == test::BrokenForm::ReversedJoints &&
            name.find("Animation_Skin_04") != std::string::npos)
          code = "IBM_MISSING";
        bool repeated = true;
        for (size_t s = 0; s < file.skins.size(); ++s)
          if (skin_drawn(file, s) && !one_joint_repeated(file, s)) repeated = false;
        if (undecidable(name, form) || repeated) {
          ++invisible;
          column("(undecidable) " + cell);
          continue;
        }
        bool changed = false;
        for (size_t s = 0; s < file.skins.size(); ++s) {
          if (!skin_drawn(file, s) || leaves_skin(file, s, form)) continue;
          changed = true;
          ++copies;
          bool found = false;
          for (const RigFinding& f : d.findings)
            found = found || (f.skin == int(s) && f.warning.code == code &&
                              f.severity == RigSeverity::Error);
          EXPECT_TRUE(found) << name << " scale " << scale << " " << test::broken_form_name(form)
                             << " skin " << s << ": " << codes;
          flagged += found;
        }
        if (!changed) {
          ++unchanged;
          cell = "(= original) " + codes;
          column(cell);
          continue;
        }
        // Nothing else at error level, but the vertex-to-bone check's word on a skeleton
        // collapsed by missing IBMs (which names them).
        for (const RigFinding& f : d.findings) {
          if (f.severity != RigSeverity::Error || f.warning.code == code) continue;
          EXPECT_TRUE(code == "IBM_MISSING" && f.warning.code == "JOINT_ORDER_SUSPECT" &&
                      f.warning.message.find("inverse bind matrices missing") != std::string::npos)
              << name << " scale " << scale << " " << test::broken_form_name(form) << ": "
              << f.warning.code << ": " << f.warning.message;
        }
        // The finding names the bug.
        const char* named = code == "IBM_MISSING"                      ? "no inverse bind matrices"
                            : form == test::BrokenForm::ReversedJoints ? "reversed"
                            : form == test::BrokenForm::TranslationOnlyIbm ? "translation-only"
                                                                           : "negated-translation";
        for (const RigFinding& f : d.findings) {
          if (f.warning.code != code) continue;
          EXPECT_NE(f.warning.message.find(named), std::string::npos) << f.warning.message;
          EXPECT_NE(f.warning.message.find("Fix: "), std::string::npos) << f.warning.message;
        }
        // The fix the finding names: the joint list reordered, the IBMs recomputed from the rest
        // pose, and for negated translations also the exact one (each bind matrix inverted).
        std::vector<std::pair<const char*, Model>> fixes;
        if (code == "IBM_MISSING" && form == test::BrokenForm::ReversedJoints) {
          column(cell);
          continue;
        }
        if (form == test::BrokenForm::ReversedJoints) {
          Model fixed = copy;
          for (const RigFinding& f : d.findings) {
            if (f.warning.code != code) continue;
            ASSERT_FALSE(f.joint_order.empty()) << f.warning.message;
            ASSERT_TRUE(apply_joint_order(fixed, f.skin, f.joint_order, error)) << error;
          }
          fixes.emplace_back("order", std::move(fixed));
        } else {
          fixes.emplace_back("repair", copy);
          repair_ibms(fixes.back().second);
          fixes.emplace_back("recover", copy);
          recover_ibms(fixes.back().second);
          if (form == test::BrokenForm::NegatedTranslationIbm) {
            fixes.emplace_back("invert", copy);
            invert_negated_bind_matrices(fixes.back().second);
          }
        }
        for (const auto& [how, fixed] : fixes) {
          // From the rest pose only a file whose rest pose is its bind pose, its mesh authored
          // in the drawing node's space, comes back (the bind rotations are lost); reordering or
          // inverting restores any.
          // The engine's recovery is exact for negated translations; for translation-only IBMs
          // it keeps the rest pose's twist about one-child bones (reported, and held to the
          // rest-pose repair's promise where the rest pose is the bind pose).
          const bool exact =
              std::string(how) == "order" || std::string(how) == "invert" ||
              (std::string(how) == "recover" && form == test::BrokenForm::NegatedTranslationIbm);
          const RigDiagnosis after = examine_rig(fixed);
          const double difference = lbs_difference(original_lbs, rest_lbs(fixed));
          if (exact || restorable) {
            EXPECT_FALSE(after.has_errors())
                << name << " scale " << scale << " " << test::broken_form_name(form) << " " << how
                << ": " << error_codes(after);
            EXPECT_LE(difference, 1e-5)
                << name << " scale " << scale << " " << test::broken_form_name(form) << " " << how;
          }
          if (std::string(how) == "recover") {
            auto& [tried, exact_copies] = recovered[test::broken_form_name(form)];
            ++tried;
            exact_copies += !after.has_errors() && difference <= 1e-5;
          }
          char text[96];
          std::snprintf(text, sizeof text, "; %s: %s %.0e%s", how, error_codes(after).c_str(),
                        difference, !exact && !restorable ? " (not restorable)" : "");
          cell += text;
        }
        column(cell);
      }
      std::printf("%s\n", row.c_str());
    }
  }
  std::printf(
      "%zu broken skins, %zu flagged with their code; %zu copies equal to the original, %zu "
      "undecidable\n",
      copies, flagged, unchanged, invisible);
  for (const auto& [form, counts] : recovered)
    std::printf(
        "--repair-ibm recover on %s copies: %zu of %zu clean and within 1e-5 of the "
        "original's LBS\n",
        form.c_str(), counts.second, counts.first);
}

}  // namespace
}  // namespace rig
