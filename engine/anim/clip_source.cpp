#include "anim/clip_source.h"

#include "anim/sampling.h"

namespace rig {

void RawClipSource::sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
                           std::span<float> morph_weights) const {
  const Model& model = *model_;
  const std::vector<Channel>& channels = clip_->channels;
  for (size_t i = 0; i < channels.size(); ++i) {
    const Channel& c = channels[i];
    if (c.node < 0 || static_cast<size_t>(c.node) >= local.size()) continue;
    uint32_t scratch = 0;  // callers without cursors (one-off samples) search every time
    uint32_t& cursor = i < cursors.size() ? cursors[i] : scratch;
    Transform& t = local[size_t(c.node)];
    float v[4];
    switch (c.path) {
      case TargetPath::Translation:
        sample_channel(c, time, cursor, v);
        t.translation = glm::vec3(v[0], v[1], v[2]);
        break;
      case TargetPath::Scale:
        sample_channel(c, time, cursor, v);
        t.scale = glm::vec3(v[0], v[1], v[2]);
        break;
      case TargetPath::Rotation:
        sample_channel(c, time, cursor, v);
        t.rotation = glm::quat(v[3], v[0], v[1], v[2]);
        break;
      case TargetPath::Weights: {
        const Node& node = model.nodes[size_t(c.node)];
        if (node.morph_count != c.components ||
            size_t(node.morph_offset) + node.morph_count > morph_weights.size())
          break;  // the importer rejects this; stay safe
        sample_channel(c, time, cursor, morph_weights.subspan(node.morph_offset, node.morph_count));
        break;
      }
    }
  }
}

}  // namespace rig
