#include "viewer/posing.h"

#include <algorithm>
#include <cctype>

#include "anim/joint_mask.h"

namespace rigview {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The foot joint of one side: "LeftFoot" (any prefix, any case, as Mixamo's "mixamorig:") or a
// "foot" joint with the side in its name ("foot_l", "Foot.L"); -1 when none.
int find_foot(const rig::Model& model, bool left) {
  const char* side = left ? "left" : "right";
  const char* suffixes[] = {left ? "foot_l" : "foot_r", left ? "foot.l" : "foot.r",
                            left ? "foot l" : "foot r"};
  int loose = -1;
  for (const rig::Skin& skin : model.skins)
    for (int node : skin.joints) {
      if (node < 0 || size_t(node) >= model.nodes.size()) continue;
      const std::string name = lower(model.nodes[size_t(node)].name);
      const size_t at = name.find(std::string(side) + "foot");
      if (at != std::string::npos && at + std::char_traits<char>::length(side) + 4 == name.size())
        return node;
      for (const char* s : suffixes)
        if (loose < 0 && name.find(s) != std::string::npos) loose = node;
      if (loose < 0 && name.find("foot") != std::string::npos &&
          name.find(side) != std::string::npos)
        loose = node;
    }
  return loose;
}

}  // namespace

Posing::Posing(const rig::Model& model, rig::Character& character)
    : model_(model),
      character_(character),
      stack_(character),
      root_node_(rig::default_root_motion_node(model)) {
  const int left = find_foot(model, true), right = find_foot(model, false);
  if (left >= 0 && right >= 0 && left != right) feet_nodes_ = {left, right};
}

bool Posing::active() const {
  return !layers_.empty() || !constraints_.empty() || root_motion_ != RootMotionChoice::Off;
}

void Posing::add_layer(const LayerSettings& settings) {
  stack_.add_layer(rig::PoseLayer{});
  layers_.push_back(LayerSettings{-1, 0.0f, false, -2, 0.0f});  // forces set_layer to build it
  set_layer(layers_.size() - 1, settings);
}

void Posing::set_layer(size_t i, const LayerSettings& settings) {
  LayerSettings& old = layers_[i];
  rig::PoseLayer& layer = stack_.layer(i);
  const int clips = static_cast<int>(model_.clips.size());
  layer.clip = settings.clip >= 0 && settings.clip < clips ? settings.clip : -1;
  layer.weight = std::clamp(settings.weight, 0.0f, 1.0f);
  layer.mode = settings.additive ? rig::BlendMode::Additive : rig::BlendMode::Override;
  layer.time = settings.time;
  if (settings.mask_root != old.mask_root) {
    if (settings.mask_root >= 0) {
      const int root = settings.mask_root;
      layer.mask = rig::subtree_mask(model_, std::span<const int>(&root, 1));
    } else {
      layer.mask.clear();
    }
  }
  old = settings;
}

void Posing::remove_layer(size_t i) {
  stack_.remove_layer(i);
  layers_.erase(layers_.begin() + static_cast<std::ptrdiff_t>(i));
}

// The joint above `node` that bends: its parent, skipping twist joints ("LeftForeArmTwist"),
// which only spread the forearm's roll and would make a two-bone chain of a straight forearm.
static int bending_parent(const rig::Model& model, int node) {
  int parent =
      node >= 0 && size_t(node) < model.nodes.size() ? model.nodes[size_t(node)].parent : -1;
  for (size_t guard = 0; parent >= 0 && guard < model.nodes.size(); ++guard) {
    if (lower(model.nodes[size_t(parent)].name).find("twist") == std::string::npos) break;
    parent = model.nodes[size_t(parent)].parent;
  }
  return parent;
}

bool Posing::add_ik_chain(int end_node, std::string& error) {
  rig::TwoBoneChain chain;
  chain.end = end_node >= 0 && size_t(end_node) < model_.nodes.size() ? end_node : -1;
  chain.mid = bending_parent(model_, chain.end);
  chain.root = bending_parent(model_, chain.mid);
  if (!chain.valid()) {
    error = "an IK chain needs a joint with a parent and a grandparent";
    return false;
  }
  auto c = std::make_unique<rig::TwoBoneIKConstraint>(chain);
  const std::span<const glm::mat4> world = character_.world();
  const glm::vec3 root(world[size_t(chain.root)][3]), mid(world[size_t(chain.mid)][3]),
      end(world[size_t(chain.end)][3]);
  c->ik.target = end;
  // The pole starts on the side the chain bends to, a bone length out from the mid joint (any
  // side when the chain is straight: the user drags it where wanted).
  glm::vec3 bend = mid - 0.5f * (root + end);
  if (glm::length(bend) < 1e-6f) bend = glm::vec3(0.0f, 0.0f, 1.0f);
  c->ik.pole = mid + glm::normalize(bend) * glm::length(mid - root);
  ik_.push_back(std::move(c));
  rebuild_constraints();
  return true;
}

void Posing::remove_ik_chain(size_t i) {
  ik_.erase(ik_.begin() + static_cast<std::ptrdiff_t>(i));
  rebuild_constraints();
}

bool Posing::set_feet_on_ground(bool on, std::string& error) {
  if (on && feet_nodes_.empty()) {
    error = "feet on ground needs a left and a right foot joint (named like LeftFoot, foot_l)";
    return false;
  }
  feet_wanted_ = on;
  feet_.reset();
  feet_clip_ = -2;
  rebuild_constraints();  // evaluate() makes the feet for the clip it plays
  return true;
}

void Posing::rebuild_feet(int clip) {
  feet_clip_ = clip;
  feet_.reset();
  if (clip >= 0) {
    rig::FootContactSettings settings;
    // Contacts are judged on the clip as it will play.
    if (root_motion_ != RootMotionChoice::Off) settings.root_motion = &stack_.root_motion(clip);
    feet_ = std::make_unique<rig::FeetOnGround>(model_, clip, feet_nodes_, settings);
  }
  rebuild_constraints();
}

bool Posing::set_look_at(bool on, int joint, std::string& error) {
  if (!on) {
    aim_.reset();
    rebuild_constraints();
    return true;
  }
  if (joint < 0 || size_t(joint) >= model_.nodes.size()) {
    error = "look-at needs a joint: select the head (or the joint to turn) first";
    return false;
  }
  aim_ = std::make_unique<rig::AimConstraint>(std::vector<int>{joint});
  // The handle starts in front of the joint, along its aim axis, a fifth of the model away.
  const glm::mat4& w = character_.world()[size_t(joint)];
  const glm::vec3 axis = glm::vec3(w * glm::vec4(aim_->aim.axis, 0.0f));
  const float reach = 0.5f * std::max(glm::length(glm::vec3(w[3])), 0.2f);
  look_at_handle = glm::vec3(w[3]) +
                   (glm::length(axis) > 1e-6f ? glm::normalize(axis) : glm::vec3(0, 0, 1)) * reach;
  rebuild_constraints();
  return true;
}

void Posing::set_root_motion(RootMotionChoice choice) {
  root_motion_ = choice;
  rig::RootMotionSettings settings;
  settings.mode = choice == RootMotionChoice::Off       ? rig::RootMotionMode::Keep
                  : choice == RootMotionChoice::InPlace ? rig::RootMotionMode::InPlace
                                                        : rig::RootMotionMode::Extract;
  for (size_t c = 0; c < model_.clips.size(); ++c) stack_.set_root_motion(int(c), settings);
  stack_.placement = {};
  stack_.placement_node = -1;
  walked_.reset();
  restart_extract_ = choice == RootMotionChoice::Extract;
  have_root_position_ = false;
  if (feet_wanted_) feet_clip_ = -2;  // contacts depend on how the clip plays
}

void Posing::rebuild_constraints() {
  constraints_.clear();
  for (const auto& c : ik_) constraints_.push_back(c.get());
  if (feet_)
    for (rig::PoseConstraint* c : feet_->constraints()) constraints_.push_back(c);
  if (aim_) constraints_.push_back(aim_.get());
  character_.set_constraints(constraints_);
}

void Posing::evaluate(const rig::PoseSelection& selection, glm::vec3 eye, bool playing,
                      float speed) {
  const int clip = selection.clip;
  if (feet_wanted_ && feet_clip_ != clip) rebuild_feet(clip);  // once per clip change

  stack_.base = selection;
  if (root_motion_ == RootMotionChoice::Extract && clip >= 0) {
    const rig::RootMotionClip& motion = stack_.root_motion(clip);
    if (restart_extract_) {
      // As --root-motion extract: where the clip has walked from its start to now.
      walked_.reset();
      walked_.advance(motion, model_.clips[size_t(clip)].start, selection.time, 0);
      restart_extract_ = false;
    } else if (clip == previous_clip_) {
      // Scrubbing (not playing) walks back and forth along the clip; playing counts the loops.
      const int loops = playing ? rig::loops_between(previous_time_, selection.time, speed) : 0;
      walked_.advance(motion, previous_time_, selection.time, loops);
    }
    // A new base clip (picked, or a crossfade that finished) starts where the root stands.
    stack_.placement_node = motion.root();
    stack_.placement = walked_.placement();
  }
  previous_clip_ = clip;
  previous_time_ = selection.time;

  if (feet_)
    feet_->update(selection.time, stack_.placement_node >= 0 ? &stack_.placement : nullptr);
  if (aim_) aim_->aim.target = look_at_follows_camera ? eye : look_at_handle;
  character_.evaluate(stack_);

  root_moved_ = glm::vec3(0.0f);
  if (root_node_ >= 0) {
    const glm::vec3 p(character_.world()[size_t(root_node_)][3]);
    if (have_root_position_) root_moved_ = p - root_position_;
    root_position_ = p;
    have_root_position_ = true;
  }
}

}  // namespace rigview
