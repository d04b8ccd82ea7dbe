#include "anim/sampling_job.h"

#include <algorithm>

namespace rig {

bool SamplingJob::validate() const {
  return clip != nullptr && cursors.size() >= clip->cursor_count() &&
         output.size() == rest_local.size() &&
         output_morph_weights.size() == rest_morph_weights.size();
}

bool SamplingJob::run() const {
  if (!validate()) return false;
  std::copy(rest_local.begin(), rest_local.end(), output.begin());
  std::copy(rest_morph_weights.begin(), rest_morph_weights.end(), output_morph_weights.begin());
  clip->sample(time, cursors, output, output_morph_weights);
  return true;
}

}  // namespace rig
