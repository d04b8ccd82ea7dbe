#include "viewer/posing.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "character/fk_rotation.h"

namespace rigview {

namespace {

bool is_twist(const rig::Model& model, int node) {
  std::string name = model.nodes[size_t(node)].name;
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name.find("twist") != std::string::npos;
}

// The joint above `node` that bends: its parent, skipping twist joints ("LeftForeArmTwist"),
// which only spread the forearm's roll and would make a two-bone chain of a straight forearm.
int bending_parent(const rig::Model& model, int node) {
  int parent =
      node >= 0 && size_t(node) < model.nodes.size() ? model.nodes[size_t(node)].parent : -1;
  for (size_t guard = 0; parent >= 0 && guard < model.nodes.size(); ++guard) {
    if (!is_twist(model, parent)) break;
    parent = model.nodes[size_t(parent)].parent;
  }
  return parent;
}

}  // namespace

// --pose-joint's own function, so typed angles and the flag give the same bits.
glm::quat euler_xyz_rotation(const float deg[3]) {
  return rig::local_xyz_rotation(glm::vec3(deg[0], deg[1], deg[2]));
}

// R = R_X(x)·R_Y(y)·R_Z(z) has sin y in row 0, column 2; x and z follow from the rest of that
// column and row (glm is column-major: m[col][row]).
void rotation_to_euler_xyz(const glm::quat& q, float deg[3]) {
  const glm::mat3 m = glm::mat3_cast(glm::normalize(q));
  const float sy = glm::clamp(m[2][0], -1.0f, 1.0f);
  const float y = std::asin(sy);
  float x = 0.0f, z = 0.0f;
  if (std::abs(sy) < 0.99999f) {
    x = std::atan2(-m[2][1], m[2][2]);
    z = std::atan2(-m[1][0], m[0][0]);
  } else {  // gimbal lock: put the whole roll on X
    x = std::atan2(m[1][2], m[1][1]);
  }
  deg[0] = glm::degrees(x), deg[1] = glm::degrees(y), deg[2] = glm::degrees(z);
}

Posing::Posing(const rig::Model& model, rig::Character& character)
    : model_(model),
      character_(character),
      builder_(character),
      root_node_(rig::default_root_motion_node(model)) {}

bool Posing::active() const {
  return !settings_.layers.empty() || !settings_.ik.empty() || settings_.feet_on_ground ||
         look_at() || !settings_.fk_edits.empty() || root_motion_ != RootMotionChoice::Off;
}

void Posing::set_joint_rotation(int node, const glm::quat& delta) {
  if (node < 0 || size_t(node) >= model_.nodes.size()) return;
  for (rig::FkEdit& e : settings_.fk_edits)
    if (e.node == node) {
      e.transform.rotation = delta;
      return;
    }
  rig::FkEdit edit;
  edit.node = node;
  edit.mode = rig::FkEditMode::Delta;
  edit.transform.rotation = delta;
  settings_.fk_edits.push_back(edit);
}

void Posing::set_joint_override(int node, const rig::Transform& local) {
  if (node < 0 || size_t(node) >= model_.nodes.size()) return;
  for (rig::FkEdit& e : settings_.fk_edits)
    if (e.node == node) {
      e.mode = rig::FkEditMode::Override;
      e.transform = local;
      return;
    }
  rig::FkEdit edit;
  edit.node = node;
  edit.mode = rig::FkEditMode::Override;
  edit.transform = local;
  settings_.fk_edits.push_back(edit);
}

glm::quat Posing::joint_rotation(int node) const {
  for (const rig::FkEdit& e : settings_.fk_edits)
    if (e.node == node) return e.transform.rotation;
  return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

bool Posing::has_joint_rotation(int node) const {
  return std::any_of(settings_.fk_edits.begin(), settings_.fk_edits.end(),
                     [node](const rig::FkEdit& e) { return e.node == node; });
}

void Posing::reset_joint(int node) {
  std::erase_if(settings_.fk_edits, [node](const rig::FkEdit& e) { return e.node == node; });
}

void Posing::add_layer(const LayerSettings& settings) {
  settings_.layers.emplace_back();
  layers_.push_back(LayerSettings{-1, 0.0f, false, -2, 0.0f});  // forces set_layer to build it
  set_layer(layers_.size() - 1, settings);
}

void Posing::set_layer(size_t i, const LayerSettings& settings) {
  LayerSettings& old = layers_[i];
  rig::LayerSetting& layer = settings_.layers[i];
  const int clips = static_cast<int>(character_.clips().size());
  layer.clip = settings.clip >= 0 && settings.clip < clips ? settings.clip : -1;
  layer.weight = std::clamp(settings.weight, 0.0f, 1.0f);
  layer.additive = settings.additive;
  layer.time = settings.time;
  if (settings.mask_root != old.mask_root) {  // a new mask only when it changes: allocates
    layer.mask_roots.clear();
    if (settings.mask_root >= 0 && size_t(settings.mask_root) < model_.nodes.size())
      layer.mask_roots.push_back(settings.mask_root);
  }
  old = settings;
}

void Posing::remove_layer(size_t i) {
  settings_.layers.erase(settings_.layers.begin() + static_cast<std::ptrdiff_t>(i));
  layers_.erase(layers_.begin() + static_cast<std::ptrdiff_t>(i));
}

bool Posing::add_ik_chain(int end_node, std::string& error) {
  rig::TwoBoneIK ik;
  rig::TwoBoneChain& chain = ik.chain;
  chain.end = end_node >= 0 && size_t(end_node) < model_.nodes.size() ? end_node : -1;
  chain.mid = bending_parent(model_, chain.end);
  chain.root = bending_parent(model_, chain.mid);
  if (!chain.valid()) {
    error = "an IK chain needs a joint with a parent and a grandparent";
    return false;
  }
  const std::span<const glm::mat4> world = character_.world();
  const glm::vec3 root(world[size_t(chain.root)][3]), mid(world[size_t(chain.mid)][3]),
      end(world[size_t(chain.end)][3]);
  ik.target = end;
  // The pole starts on the side the chain bends to, a bone length out from the mid joint (any
  // side when the chain is straight: the user drags it where wanted).
  glm::vec3 bend = mid - 0.5f * (root + end);
  if (glm::length(bend) < 1e-6f) bend = glm::vec3(0.0f, 0.0f, 1.0f);
  ik.pole = mid + glm::normalize(bend) * glm::length(mid - root);
  settings_.ik.push_back(ik);
  return true;
}

void Posing::remove_ik_chain(size_t i) {
  settings_.ik.erase(settings_.ik.begin() + static_cast<std::ptrdiff_t>(i));
}

bool Posing::set_feet_on_ground(bool on, std::string& error) {
  if (on && builder_.feet_joints().empty()) {
    error = "feet on ground needs a left and a right foot joint (named like LeftFoot, foot_l)";
    return false;
  }
  settings_.feet_on_ground = on;  // the builder detects the contacts of the clip it poses
  return true;
}

bool Posing::set_look_at(bool on, int joint, std::string& error) {
  if (!on) {
    settings_.look_at.joint = -1;
    return true;
  }
  if (joint < 0 || size_t(joint) >= model_.nodes.size()) {
    error = "look-at needs a joint: select the head (or the joint to turn) first";
    return false;
  }
  settings_.look_at = rig::LookAtSetting{};
  settings_.look_at.joint = joint;
  // The handle starts in front of the joint, along its aim axis, a fifth of the model away.
  const glm::mat4& w = character_.world()[size_t(joint)];
  const glm::vec3 axis = glm::vec3(w * glm::vec4(settings_.look_at.aim.axis, 0.0f));
  const float reach = 0.5f * std::max(glm::length(glm::vec3(w[3])), 0.2f);
  look_at_handle = glm::vec3(w[3]) +
                   (glm::length(axis) > 1e-6f ? glm::normalize(axis) : glm::vec3(0, 0, 1)) * reach;
  return true;
}

void Posing::set_root_motion(RootMotionChoice choice) {
  root_motion_ = choice;
  settings_.root_motion = choice == RootMotionChoice::Off       ? rig::RootMotionMode::Keep
                          : choice == RootMotionChoice::InPlace ? rig::RootMotionMode::InPlace
                                                                : rig::RootMotionMode::Extract;
  settings_.placement.reset();
  walked_.reset();
  restart_extract_ = choice == RootMotionChoice::Extract;
  have_root_position_ = false;
}

void Posing::evaluate(const rig::PoseSelection& selection, glm::vec3 eye, bool playing,
                      float speed) {
  const int clip = selection.clip;
  settings_.base = selection;
  builder_.prepare(settings_);  // measures the clips' root motion after an edit
  if (root_motion_ == RootMotionChoice::Extract && clip >= 0) {
    const rig::RootMotionClip& motion = builder_.stack().root_motion(clip);
    if (restart_extract_) {
      // As --root-motion extract: where the clip has walked from its start to now.
      walked_.reset();
      walked_.advance(motion, character_.clips()[size_t(clip)].start, selection.time, 0);
      restart_extract_ = false;
    } else if (clip == previous_clip_) {
      // Scrubbing (not playing) walks back and forth along the clip; playing counts the loops.
      const int loops = playing ? rig::loops_between(previous_time_, selection.time, speed) : 0;
      walked_.advance(motion, previous_time_, selection.time, loops);
    }
    // A new base clip (picked, or a crossfade that finished) starts where the root stands.
    settings_.placement = walked_.placement();
  }
  previous_clip_ = clip;
  previous_time_ = selection.time;

  if (look_at()) settings_.look_at.aim.target = look_at_follows_camera ? eye : look_at_handle;
  builder_.build(settings_);

  root_moved_ = glm::vec3(0.0f);
  if (root_node_ >= 0) {
    const glm::vec3 p(character_.world()[size_t(root_node_)][3]);
    if (have_root_position_) root_moved_ = p - root_position_;
    root_position_ = p;
    have_root_position_ = true;
  }
}

}  // namespace rigview
