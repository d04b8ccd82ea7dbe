// The posing handles over the 3D view (ImGui draw lists): IK targets (circles), IK poles
// (diamonds) and the look-at handle (square), drawn at their world positions in every view and
// dragged with the left mouse on the plane facing the camera through the handle, or in depth
// along the view direction with Ctrl held (up: away). The maths (pixel → ray, ray ∩ plane, depth
// steps, projection) is the engine's (render/camera.h); this file only picks and routes.
#pragma once

#include <cstddef>
#include <glm/glm.hpp>
#include <span>

#include "render/camera.h"
#include "viewer/posing.h"
#include "viewer/viewer_state.h"

namespace rigview {

struct HandleId {
  enum Kind { None, IkTarget, IkPole, LookAt };
  Kind kind = None;
  size_t index = 0;  // IK chain
  bool operator==(const HandleId&) const = default;
};

class PoseHandles {
 public:
  // The left mouse button over the 3D view: picks the handle under `press_at` (where the button
  // went down, which at slow frame rates is not where the pointer is when the frame starts)
  // and drags it while held. Returns whether the handles own the mouse this frame (then the
  // camera must not orbit, pan or select).
  bool handle_mouse(Posing& posing, const ViewerState& state, glm::vec2 press_at);
  // `world`: the character's node world matrices (a line from each handle's joint to it).
  void draw(const Posing& posing, const ViewerState& state, std::span<const glm::mat4> world) const;
  // A drag as the mouse makes it, for the self-test: press on handle `id` where it is drawn,
  // move by `delta` pixels (Ctrl: `depth` is then the vertical move), release. `display`: the
  // window's size. false when the handle is not on screen.
  bool scripted_drag(Posing& posing, const ViewerState& state, HandleId id, glm::vec2 delta,
                     bool depth, glm::vec2 display);
  void cancel() { dragged_ = {}, queued_ = {}; }

  // Self-test: a left-button drag of handle `id` by `delta` pixels (Ctrl held when `ctrl`), fed
  // to ImGui's mouse state over the next three frames by feed_queued_mouse() — press on the
  // handle where it is drawn, move, release — so it runs the real mouse path (handle_mouse and
  // the camera's) instead of calling the drag directly.
  void queue_mouse_drag(HandleId id, glm::vec2 delta, bool ctrl) { queued_ = {id, delta, ctrl, 0}; }
  // Call after the ImGui frame began, before the mouse is handled.
  void feed_queued_mouse(const Posing& posing, const ViewerState& state);

 private:
  void begin(Posing& posing, const ViewerState& state, HandleId id, glm::vec2 pixel,
             glm::vec2 display);
  void move(Posing& posing, const ViewerState& state, glm::vec2 pixel, float dy, bool depth);
  HandleId pick(const Posing& posing, const ViewerState& state, glm::vec2 pixel) const;

  struct QueuedDrag {
    HandleId id;
    glm::vec2 delta{0.0f};
    bool ctrl = false;
    int stage = 0;
    glm::vec2 pixel{0.0f};
  };
  QueuedDrag queued_;
  HandleId dragged_, hovered_;
  rig::render::ScreenRect rect_;  // the view the drag started in
  glm::vec3 grab_offset_{0.0f};   // handle − the grabbed point on its plane: no jump on press
};

}  // namespace rigview
