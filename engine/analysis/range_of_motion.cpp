#include "analysis/range_of_motion.h"

#include <cmath>
#include <utility>
#include <vector>

#include "character/fk_rotation.h"

namespace rig {

namespace {

// Per swept joint, the (skin, skin joint index) pairs that name its node.
std::vector<std::vector<std::pair<int, int>>> skin_slots(const Model& model,
                                                         std::span<const int> joints) {
  std::vector<std::vector<std::pair<int, int>>> slots(joints.size());
  for (size_t k = 0; k < joints.size(); ++k)
    for (size_t s = 0; s < model.skins.size(); ++s)
      for (size_t j = 0; j < model.skins[s].joints.size(); ++j)
        if (model.skins[s].joints[j] == joints[k]) slots[k].push_back({int(s), int(j)});
  return slots;
}

}  // namespace

bool RangeOfMotionJob::validate(std::string& error) const {
  if (!setup || !builder || !character || !base)
    return error = "range of motion: setup, builder, character and base pose are required", false;
  if (!(degrees > 0.0f && degrees <= kRangeOfMotionMaxDegrees))
    return error = "range of motion: degrees must be in (0, 180]", false;
  if (steps < 2 || steps > kRangeOfMotionMaxSteps)
    return error = "range of motion: steps must be in [2, " +
                   std::to_string(kRangeOfMotionMaxSteps) + "]",
           false;
  if (joints.empty()) return error = "range of motion: no joint to sweep", false;
  if (methods.empty()) return error = "range of motion: no skinning method", false;
  const Model& model = character->model();
  const auto slots = skin_slots(model, joints);
  for (size_t k = 0; k < joints.size(); ++k)
    if (slots[k].empty())
      return error = "range of motion: node " + std::to_string(joints[k]) +
                     " is not a joint of any skin",
             false;
  if (setup->draws.size() != model.draws.size() || setup->skins.size() != model.skins.size())
    return error = "range of motion: the artefact setup was built for another model", false;
  if (out.size() != sample_count())
    return error = "range of motion: the output holds " + std::to_string(out.size()) +
                   " samples, the sweep makes " + std::to_string(sample_count()),
           false;
  return true;
}

bool RangeOfMotionJob::run(ScanProgress progress, void* user) const {
  std::string error;
  if (!validate(error)) return false;
  const Model& model = character->model();
  const auto slots = skin_slots(model, joints);
  std::vector<ArtefactFrame> frames(methods.size(), ArtefactFrame::make(model));
  PoseSettings settings = *base;
  settings.fk_edits.push_back(FkEdit{});
  const size_t total = joints.size() * 3 * size_t(steps);
  size_t done = 0;
  bool finished = true;
  for (size_t k = 0; k < joints.size() && finished; ++k)
    for (int axis = 0; axis < 3 && finished; ++axis)
      for (int step = 0; step < steps && finished; ++step) {
        FkEdit& edit = settings.fk_edits.back();
        edit.node = joints[k];
        edit.mode = FkEditMode::Delta;
        edit.transform = Transform{};
        edit.transform.rotation = local_axis_rotation(axis, angle(step));
        builder->build(settings);
        for (size_t m = 0; m < methods.size(); ++m) {
          ArtefactFrame& frame = frames[m];
          analyze_frame(*setup, *character, methods[m], frame);
          RangeOfMotionSample& sample = out[index(k, axis, step, m)];
          sample = RangeOfMotionSample{};
          for (const auto& [skin, joint] : slots[k]) {
            const float score = frame.joint_scores[size_t(skin)][size_t(joint)];
            if (!std::isnan(score) && (std::isnan(sample.score) || score > sample.score))
              sample.score = score;
          }
          sample.worst = frame.max_abs_h;
          sample.volume_change_percent = frame.volume_change_percent;
        }
        ++done;
        if (progress && !progress(user, float(done) / float(total))) finished = false;
      }
  builder->build(*base);
  return finished;
}

}  // namespace rig
