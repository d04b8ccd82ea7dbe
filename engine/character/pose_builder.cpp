#include "character/pose_builder.h"

#include <algorithm>

#include "anim/joint_mask.h"

namespace rig {

namespace {

bool same_chain(const TwoBoneChain& a, const TwoBoneChain& b) {
  return a.root == b.root && a.mid == b.mid && a.end == b.end;
}

}  // namespace

PoseBuilder::PoseBuilder(Character& character)
    : character_(character),
      model_(character.model()),
      stack_(character),
      feet_nodes_(find_feet(character.model())) {}

PoseBuilder::~PoseBuilder() { character_.set_constraints({}); }

bool PoseBuilder::validate(const Model& model, const PoseSettings& s, std::string& error) {
  return validate(model, model.clips.size(), s, error);
}

bool PoseBuilder::validate(const Model& model, const ClipSet& set, const PoseSettings& s,
                           std::string& error) {
  return validate(model, set.size(), s, error);
}

bool PoseBuilder::validate(const Model& model, size_t clip_count, const PoseSettings& s,
                           std::string& error) {
  const int clips = static_cast<int>(clip_count);
  const int nodes = static_cast<int>(model.nodes.size());
  auto clip_ok = [&](int c) { return c >= -1 && c < clips; };
  auto node_ok = [&](int n) { return n >= 0 && n < nodes; };
  if (!clip_ok(s.base.clip) || !clip_ok(s.base.blend_clip))
    return error = "clip index out of range (" + std::to_string(clips) + " clips)", false;
  for (const LayerSetting& l : s.layers) {
    if (!clip_ok(l.clip))
      return error = "layer clip " + std::to_string(l.clip) + " is out of range", false;
    for (int n : l.mask_roots)
      if (!node_ok(n))
        return error = "layer mask node " + std::to_string(n) + " is out of range", false;
  }
  for (const FkEdit& e : s.fk_edits)
    if (!node_ok(e.node))
      return error = "FK edit node " + std::to_string(e.node) + " is out of range", false;
  for (const TwoBoneIK& ik : s.ik)
    if (!node_ok(ik.chain.root) || !node_ok(ik.chain.mid) || !node_ok(ik.chain.end))
      return error = "IK chain joint out of range", false;
  if (s.look_at.joint >= nodes) return error = "look-at joint out of range", false;
  if (s.feet_on_ground && find_feet(model).empty())
    return error =
               "feet on ground needs a left and a right foot joint (named like LeftFoot, foot_l)",
           false;
  return true;
}

void PoseBuilder::set_compressed_sources(std::vector<const ClipSource*> sources) {
  compressed_sources_ = std::move(sources);
  built_ = false;  // applied on the next build when compressed
  if (sources_compressed_) {
    for (size_t c = 0; c < character_.clips().size(); ++c)
      character_.set_clip_source(int(c), nullptr);
    sources_compressed_ = false;
  }
}

void PoseBuilder::refresh_references() { stack_.refresh_references(); }

bool PoseBuilder::same_structure(const PoseSettings& s) const {
  if (!built_ || s.root_motion != root_motion_ || s.compressed != compressed_ ||
      s.feet_on_ground != feet_wanted_ || s.look_at.joint != look_at_joint_ ||
      s.layers.size() != layers_.size() || s.ik.size() != chains_.size())
    return false;
  if (feet_wanted_ && feet_clip_ != s.base.clip) return false;  // contacts are per clip
  for (size_t i = 0; i < layers_.size(); ++i) {
    const LayerSetting &a = s.layers[i], &b = layers_[i];
    if (a.clip != b.clip || a.additive != b.additive || a.mask_roots != b.mask_roots) return false;
  }
  for (size_t i = 0; i < chains_.size(); ++i)
    if (!same_chain(s.ik[i].chain, chains_[i])) return false;
  return true;
}

void PoseBuilder::rebuild(const PoseSettings& s) {
  const int clips = static_cast<int>(character_.clips().size());
  const int nodes = static_cast<int>(model_.nodes.size());

  if (s.compressed != sources_compressed_) {
    for (int c = 0; c < clips; ++c) {
      const ClipSource* source = s.compressed && size_t(c) < compressed_sources_.size()
                                     ? compressed_sources_[size_t(c)]
                                     : nullptr;
      character_.set_clip_source(c, source);
    }
    sources_compressed_ = s.compressed;
    stack_.refresh_references();
  }
  compressed_ = s.compressed;

  if (!built_ || s.root_motion != root_motion_) {
    RootMotionSettings settings;
    settings.mode = s.root_motion;
    for (int c = 0; c < clips; ++c) stack_.set_root_motion(c, settings);
    stack_.refresh_references();  // the additive references are posed by it too
  }
  root_motion_ = s.root_motion;

  stack_.clear_layers();
  for (const LayerSetting& l : s.layers) {
    PoseLayer layer;
    std::vector<int> roots;
    for (int n : l.mask_roots)
      if (n >= 0 && n < nodes) roots.push_back(n);
    if (!roots.empty()) layer.mask = subtree_mask(model_, roots);
    stack_.add_layer(layer);
  }
  layers_ = s.layers;

  ik_.clear();
  chains_.clear();
  for (const TwoBoneIK& ik : s.ik) {
    ik_.push_back(std::make_unique<TwoBoneIKConstraint>(ik.chain));
    chains_.push_back(ik.chain);
  }

  feet_wanted_ = s.feet_on_ground;
  feet_.reset();
  feet_clip_ = -2;
  if (feet_wanted_ && !feet_nodes_.empty() && s.base.clip >= 0 && s.base.clip < clips) {
    FootContactSettings settings;
    // Contacts are judged on the clip as it will play.
    if (s.root_motion != RootMotionMode::Keep)
      settings.root_motion = &stack_.root_motion(s.base.clip);
    // Contacts come from the file's keys: a clip added at run time has none (file_clip −1).
    feet_ = std::make_unique<FeetOnGround>(
        model_, character_.clips()[size_t(s.base.clip)].file_clip, feet_nodes_, settings);
  }
  if (feet_wanted_) feet_clip_ = s.base.clip;

  look_at_joint_ = s.look_at.joint;
  aim_.reset();
  if (look_at_joint_ >= 0 && look_at_joint_ < nodes)
    aim_ = std::make_unique<AimConstraint>(std::vector<int>{look_at_joint_});

  // IK chains in order, the feet, the look-at.
  constraints_.clear();
  for (const auto& c : ik_) constraints_.push_back(c.get());
  if (feet_)
    for (PoseConstraint* c : feet_->constraints()) constraints_.push_back(c);
  if (aim_) constraints_.push_back(aim_.get());
  character_.set_constraints(constraints_);
  built_ = true;
}

void PoseBuilder::build(const PoseSettings& s) {
  prepare(s);
  const int clips = static_cast<int>(character_.clips().size());

  stack_.base = s.base;
  for (size_t i = 0; i < s.layers.size(); ++i) {
    const LayerSetting& l = s.layers[i];
    PoseLayer& layer = stack_.layer(i);
    layer.clip = l.clip >= 0 && l.clip < clips ? l.clip : -1;
    layer.weight = std::clamp(l.weight, 0.0f, 1.0f);
    layer.mode = l.additive ? BlendMode::Additive : BlendMode::Override;
    layer.time = l.time;
  }
  stack_.fk_edits = s.fk_edits;  // same size: the storage is reused

  stack_.placement_node = -1;
  stack_.placement = {};
  if (s.root_motion == RootMotionMode::Extract && s.base.clip >= 0 && s.base.clip < clips) {
    const RootMotionClip& motion = stack_.root_motion(s.base.clip);
    stack_.placement_node = motion.root();
    if (s.placement) {
      stack_.placement = *s.placement;
    } else {
      // Where the root has walked from the clip's start to the pose's time.
      RootMotionAccumulator walked;
      walked.advance(motion, character_.clips()[size_t(s.base.clip)].start, s.base.time, 0);
      stack_.placement = walked.placement();
    }
  }

  for (size_t i = 0; i < ik_.size(); ++i) ik_[i]->ik = s.ik[i];
  if (feet_) feet_->update(s.base.time, stack_.placement_node >= 0 ? &stack_.placement : nullptr);
  if (aim_) aim_->aim = s.look_at.aim;
  character_.evaluate(stack_);
}

}  // namespace rig
