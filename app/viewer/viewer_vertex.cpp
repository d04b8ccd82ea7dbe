// The Vertex tab's picking and inspection (viewer/vertex_picking.h, analysis/
// vertex_inspection.h): a click on the surface picks the front-most vertex under the pointer; the
// inspection is made at the pose of the frame (on a pick, Refresh, a pause at another time, an
// edit of the skin); the opinions follow the pose every frame without allocating.
#include "viewer/viewer_app.h"

namespace rigview {

void Viewer::pick_vertex_at(glm::vec2 pointer) {
  if (state_.compare || state_.crowd_count > 0) {
    state_.vertex.error = "pick a vertex in the single view (compare off, no crowd)";
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  const SingleView view = single_view(state_, io.DisplaySize.x, io.DisplaySize.y);
  if (view.empty() || !view.view.contains(pointer.x, pointer.y)) return;
  const PickedVertex picked =
      pick_vertex(*doc_.character, methods_shown(state_).front(), view.camera, view.rect, pointer,
                  kVertexPickPixels, vertex_scratch_);
  if (picked.primitive < 0) return;  // a click beside the surface keeps the last pick
  state_.vertex.picked = picked;
  state_.vertex.inspect = true;
  state_.vertex.error.clear();
}

void Viewer::update_vertex_inspector() {
  VertexInspectorState& v = state_.vertex;
  if (v.picked.primitive < 0 || !doc_.skin) {
    v.live_valid = false;
    return;
  }
  const int clip = state_.rest_pose ? -1 : doc_.playback.clip();
  const float time = state_.rest_pose ? 0.0f : doc_.playback.time();
  const bool paused = state_.rest_pose || !doc_.playback.playing();
  if (v.valid && paused && (clip != v.clip || time != v.time)) v.inspect = true;
  if (doc_.skin->revision() != vertex_layer_revision_) v.inspect = true;
  if (v.inspect) {
    v.inspect = false;
    vertex_layer_revision_ = doc_.skin->revision();
    rig::VertexInspection out;
    std::string error;
    if (rig::inspect_vertex(doc_.make_artefacts().setup(), *doc_.character, v.picked.primitive,
                            v.picked.vertex, out, error)) {
      v.inspection = std::move(out);
      v.valid = true;
      v.error.clear();
      v.clip = clip, v.time = time;
      v.count = int(std::min<size_t>(v.inspection.influences.size(), v.joints.size()));
      for (int i = 0; i < v.count; ++i) {
        v.joints[size_t(i)] = v.inspection.influences[size_t(i)].joint;
        v.weights[size_t(i)] = v.inspection.influences[size_t(i)].weight;
      }
    } else {
      v.valid = false;
      v.error = error;
    }
  }
  v.live_valid =
      v.valid && live_opinions(*doc_.character, v.inspection.skin, v.joints.data(),
                               v.weights.data(), v.count, v.inspection.bind_position, v.live);
}

}  // namespace rigview
