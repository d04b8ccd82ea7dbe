// What the rig doctor's sources share (rig_doctor.cpp: the run and the findings;
// rig_doctor_weights.cpp, rig_doctor_ibm.cpp, rig_doctor_joint_order.cpp: the detectors): the
// Doctor that runs them over each skin, its per-skin work, and the text and pose helpers. Include
// it from nowhere else.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

#include "analysis/rig_doctor.h"
#include "skin/skin_layer.h"

namespace rig::rig_doctor_detail {

constexpr double kRotatedDegrees = 5.0;  // a joint frame rotated by more is "rotated"
constexpr size_t kMaxListedJoints = 16;
constexpr uint64_t kNearestBudget = uint64_t{1} << 26;
// IBM_MISSING's advice (the file may mean it).
extern const char* const kMissingFix;

std::string fmt(double value);

std::string skin_label(const Model& model, int s);

std::string joint_label(const Model& model, int s, int j);

// "a, b, c and 4 more" over the first joints of `joints`.
std::string joint_list(const Model& model, int s, const std::vector<int>& joints, size_t shown = 4);

// Joint indices sorted by `score`, largest first, those with score > `floor` only.
std::vector<int> ranked(const std::vector<double>& score, double floor);

std::vector<glm::dmat4> rest_world(const Model& model);

// A drawn primitive as the doctor reads it: the model's geometry with the skin layer's
// influences (what is skinned), vertex-major like Primitive's.
struct DoctorPrimitive {
  const std::vector<glm::vec3>& positions;
  uint32_t influences = 0;
  std::span<const uint16_t> joints;
  std::span<const float> weights;
  uint32_t vertex_count() const { return static_cast<uint32_t>(positions.size()); }
};

// Dominant influence slot of vertex v (largest weight, ties → smallest joint index), -1 if none.
int dominant_slot(const DoctorPrimitive& p, uint32_t v);

struct SkinWork {
  int s = -1;
  std::vector<int> draws;  // Model::draws indices deformed by this skin
  double diagonal = 0.0;   // D
  glm::dvec3 bind_min{0.0}, bind_max{0.0};
  std::vector<glm::dmat4> skinning;  // S_j at rest
  std::vector<glm::vec3> seg_a, seg_b;
  size_t joint_count = 0;
  // Per draw (parallel to draws): skinned rest positions v′.
  std::vector<std::vector<glm::dvec3>> rest;
  double rest_diagonal = 0.0;  // of v′
  bool ibm_missing = false;    // IBM_MISSING was reported
};

class Doctor {
 public:
  // `layer` null: the file's own influences and inverse bind matrices (all of them, even past 8
  // per vertex); else the layer's, as they are skinned.
  Doctor(const Model& model, const SkinLayer* layer) : model_(model), layer_(layer) {}

  RigDiagnosis run();

 private:
  DoctorPrimitive primitive(int d) const {
    const DrawItem& item = model_.draws[size_t(d)];
    const Primitive& p = model_.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    if (!layer_) return {p.positions, p.influences, p.joints, p.weights};
    const SkinMesh& skin = layer_->get(item.mesh, item.primitive);
    return {p.positions, skin.influences, skin.joints, skin.weights};
  }
  const glm::mat4& inverse_bind(int s, size_t j) const {
    return layer_ ? layer_->inverse_bind(size_t(s))[j] : model_.skins[size_t(s)].inverse_bind[j];
  }

  RigFinding& add(SkinWork& work, const std::string& code, RigSeverity severity, uint64_t count,
                  const std::string& message, double value, std::vector<int> joints);

  void collect_skins();

  // Histogram, WEIGHTS_TINY, WEIGHTS_NONE, WEIGHTS_SKIP_JOINT, JOINTS_UNUSED.
  void weights(SkinWork& work);

  // BIND_POSE_DIFFERS (info) and IBM_MISSING (error).
  void bind_pose(SkinWork& work);

  // IBM_SUSPECT: singular or non-affine matrices; true when some are.
  bool singular_ibms(SkinWork& work);
  // IBM_SUSPECT: matrices that only negate a translation, the rest pose being the bind pose.
  void translation_only(SkinWork& work);
  // The bind skeleton the IBMs imply against the node hierarchy (rig_doctor_bind_skeleton.cpp):
  // IBM_SUSPECT (negated-translation, translation-only or unexplained IBMs) or
  // JOINT_ORDER_SUSPECT (a reversed or shifted joint list). True when it reported one.
  bool bind_skeleton(SkinWork& work);

  void mark_dominant(SkinWork& work, RigFinding& f, const std::vector<int>& joints);

  // Mean excess distance (dominant segment vs nearest segment) over weighted vertices when the
  // dominant joint index is read as (d + shift) mod n; per-vertex excess in `excess` for shift 0.
  double order_cost(const SkinWork& work, int shift, std::vector<std::vector<double>>* excess,
                    uint64_t* misplaced, std::vector<double>* joint_misplaced) const;

  // Whether a clip moves a joint of the skin (a channel on the joint or on an ancestor).
  bool animated(const SkinWork& work) const;

  // Largest distance between two bind joint positions, / D.
  double bind_spread(const SkinWork& work) const;

  void joint_order(SkinWork& work);

  const Model& model_;
  const SkinLayer* layer_;  // the influences and inverse bind matrices examined, or null
  std::vector<glm::dmat4> world_;
  std::vector<SkinWork> skins_;
  RigDiagnosis out_;
  double work_residual_ = 0.0;  // the current skin's bind residual (for IBM_SUSPECT's message)
};

}  // namespace rig::rig_doctor_detail
