// Camera and bounds (no GL): world boxes of posed models, the orbit camera, viewports.
//
//   Bounds b = clip_bounds(character, selection);   // framing a whole clip, on clip changes
//   OrbitCamera orbit;  orbit.frame(b);  orbit.fit_width(column_aspect);
//   Camera camera = orbit.camera(viewport.aspect());
#pragma once

#include <glm/glm.hpp>
#include <memory>
#include <span>
#include <vector>

#include "anim/pose_selection.h"
#include "character/character.h"
#include "model/model.h"
#include "skin/skin_mesh.h"

namespace rig::render {

// Axis-aligned box in world space. Empty until the first add().
struct Bounds {
  glm::vec3 min{1e30f};
  glm::vec3 max{-1e30f};

  bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
  void add(glm::vec3 p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void add(const Bounds& b) {
    if (b.valid()) {
      add(b.min);
      add(b.max);
    }
  }
  glm::vec3 center() const { return valid() ? 0.5f * (min + max) : glm::vec3(0.0f); }
  float radius() const { return valid() ? 0.5f * glm::length(max - min) : 1.0f; }
  float diagonal() const { return valid() ? glm::length(max - min) : 0.0f; }
};

// The box of `b`'s eight corners transformed by `m` (affine), conservative.
Bounds transform_bounds(const glm::mat4& m, const Bounds& b);

// Exact world-space bounds of every draw item under the character's current pose (CPU skinned
// with LBS). Allocates scratch and skins every vertex: one pose, on model/clip changes.
Bounds pose_bounds(const rig::Character& character);

// Bind-space boxes for cheap conservative bounds of any pose: per skin and joint, the box of the
// (morph-widened) vertices that joint influences with a non-zero weight; per draw item, the box
// of its primitive's (morph-widened) vertices, for rigid items. Morph targets widen each vertex
// by the sum of their positive / negative deltas (weights assumed in [0, 1]). Allocates: once
// per model.
struct BindBoxes {
  std::vector<std::vector<Bounds>> joint;  // [skin][joint]
  std::vector<Bounds> item;                // [draw item], mesh space
  std::vector<bool> item_skinned;          // [draw item]: uses `joint` boxes of its skin
};
BindBoxes bind_boxes(const rig::Model& model, const rig::SkinMeshes& meshes);

// Bounds of the pose whose node world matrices are `world`: each joint's box moved by its
// skinning matrix (world × inverse bind), each rigid item's box by its node's world matrix.
// Contains the LBS-skinned mesh (a convex blend of the joints' moved boxes). No allocation.
Bounds posed_bounds(const rig::Model& model, const BindBoxes& boxes,
                    std::span<const glm::mat4> world);

// What joint node `node` moves under the character's current pose: its skin joint's bind box
// placed by the joint's skinning matrix (the first skin that has it), or a small box around
// the node's world position when no vertex follows it. For framing the camera on a joint.
Bounds joint_bounds(const rig::Model& model, const BindBoxes& boxes,
                    const rig::Character& character, int node);

// What the skin joints `joints` (indices into model.skins[skin].joints, as a rig-doctor finding
// lists them) move under the character's current pose, for framing them together: the union of
// their bind boxes placed by their skinning matrices; a joint no vertex follows adds its node's
// world position. Each axis is widened to at least ± a tenth of the model's rest size around the
// centre (as joint_bounds' bare joint), so framing one bare joint never zooms into a point.
// Invalid when `skin` or every index is out of range. No allocation.
Bounds skin_joints_bounds(const rig::Model& model, const BindBoxes& boxes,
                          const rig::Character& character, int skin, std::span<const int> joints);

// Joint node `node` with its neighbours: the skin_joints_bounds of the joint, its parent and its
// children (those that are joints of the first skin that has `node`). Framing a hand alone
// fills the screen with it; with its forearm and fingers the viewer still sees where it is.
// joint_bounds when `node` is in no skin. Allocates a few indices: on a click, not per frame.
Bounds joint_neighbourhood_bounds(const rig::Model& model, const BindBoxes& boxes,
                                  const rig::Character& character, int node);

// Node world matrices of the rest pose (Node::rest, shear included). Allocates.
std::vector<glm::mat4> rest_world_matrices(const rig::Model& model);

// Union of posed_bounds over `samples` evenly spaced times of selection.clip (the blend
// settings of `selection` are kept); the current selection alone when the clip is missing or
// has zero length. Uses `character` to evaluate the poses (only joint matrices: no vertex is
// skinned) and leaves it evaluated at `selection`. Allocates the bind boxes.
Bounds clip_bounds(rig::Character& character, const rig::PoseSelection& selection,
                   int samples = 24);
// The exact counterpart of clip_bounds: the union of pose_bounds (every vertex skinned, morph
// targets applied with the clip's weights) at the same times. clip_bounds widens each vertex by
// the sum of all its morph targets' deltas, which for animals animated by whole-body targets
// (one target per key pose) is many times their size, and they open tiny. Skins every vertex
// per sample: on model changes, for models with morph targets.
Bounds exact_clip_bounds(rig::Character& character, const rig::PoseSelection& selection,
                         int samples = 24);
// True when a primitive of `model` has morph targets.
bool has_morph_targets(const rig::Model& model);
// The same for a model alone. Sampling a pose is the Character's job (engine/anim's jobs behind
// it), so this builds one for the poses, sharing the skin layer `skin` when given; no vertex is
// skinned.
Bounds clip_bounds(const rig::Model& model, const rig::PoseSelection& selection, int samples = 24,
                   std::shared_ptr<const rig::SkinLayer> skin = nullptr);

// The nodes that are joints of some skin, each once (skins in order, then each skin's joints),
// and per node its index in `nodes` (-1: not a joint). Out-of-range joint nodes are skipped.
// Allocates: call on model changes.
struct SkinJointNodes {
  std::vector<int> nodes;
  std::vector<int> slot_of_node;
};
SkinJointNodes skin_joint_nodes(const rig::Model& model);

// Pixel rectangle, origin at the bottom left (GL convention).
struct Viewport {
  int x = 0, y = 0, width = 1, height = 1;
  float aspect() const { return height > 0 ? float(width) / float(height) : 1.0f; }
};

// The compare layout, the one place it is computed: column `index` of `count` equal columns
// over [left, left + width), with edges at left + floor(width · i / count), so the columns tile
// the span without gaps whatever its width. The renderer lays out framebuffer pixels with it,
// the viewer's picking and handles window pixels, so a column is where it is drawn.
struct ColumnSpan {
  float x = 0.0f, width = 0.0f;
};
ColumnSpan compare_column(float left, float width, int index, int count);
// The column under `x` (clamped to the first and last).
int compare_column_at(float left, float width, int count, float x);

struct Camera {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  glm::vec3 eye{0.0f, 0.0f, 3.0f};  // world-space camera position (lighting)

  // The same camera for a view of `aspect` (width / height): same vertical field of view, the
  // horizontal scale follows the aspect. Perspective projections only (others are returned
  // unchanged).
  Camera with_aspect(float aspect) const;
};

// A fixed perspective camera at `eye` looking at `target`, up +Y (glm::lookAt, as three.js's
// lookAt), vertical field of view `yfov` radians. near/far <= 0: d/100 and d·100 with
// d = |eye − target| (the reference scene's defaults).
Camera look_at_camera(glm::vec3 eye, glm::vec3 target, float yfov, float aspect,
                      float near_plane = 0.0f, float far_plane = 0.0f);

// Orbit camera around `target`. frame() places it so `bounds` fills the view and picks
// near/far planes that keep depth precision (far/near stays well under 10^4).
inline constexpr float kMaxOrbitPitch = 1.55f;  // just under 90 degrees: the view never flips
inline constexpr float kNoFloor = -1e30f;
// A character's first view (OrbitCamera::frame_character): the eye at chest height, 0.72 of
// the way up the bounds (a standing adult's chest over its height), and the bounds' projection
// spanning 0.85 of the view's height or width, whichever it reaches first.
inline constexpr float kChestHeight = 0.72f;
inline constexpr float kFrameFill = 0.85f;
inline constexpr float kThreeQuarterYaw = 0.6f;

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 3.0f;
  // Radians about +Y; 0 looks down −Z at the front of a glTF model (which faces +Z). The default,
  // about 34 degrees round towards the model's left, is the three-quarter view of its front.
  float yaw = kThreeQuarterYaw;
  float pitch = 0.25f;        // radians, positive looks down at the model
  float fov_y = 0.7854f;      // radians (45 degrees)
  float scene_radius = 1.0f;  // for near/far
  // World height the eye stays above (the ground grid's); kNoFloor: none. Looking up at a
  // character from under its ground shows the grid from behind and nothing a user wants.
  float floor = kNoFloor;

  void frame(const Bounds& bounds);
  // A character's first view: frame() for the target (the bounds' centre) and the scene radius,
  // then, keeping the yaw, the eye at chest height (kChestHeight) and the distance at which the
  // box's eight corners, projected into a view `view_aspect` wide, reach kFrameFill of its half
  // height or half width and no further. Sets pitch and distance. No allocation.
  void frame_character(const Bounds& bounds, float view_aspect);
  // Raises the pitch, as little as needed, so the eye stays a hundredth of the scene radius
  // above `floor` (never past kMaxOrbitPitch; a target below the floor gets that pitch).
  void keep_above_floor();
  // After frame(): backs off (never closer) so the framed sphere also fits the horizontal field
  // of view of a view `view_aspect` (width / height) wide: a portrait window, a compare column.
  void fit_width(float view_aspect);
  glm::vec3 eye() const;
  Camera camera(float aspect) const;
};

// Compare mode: `count` columns side by side in a view `view_aspect` (width / height) wide. Each
// column's camera backs off from `orbit` by the ratio of the distances that fit the framed
// sphere (scene_radius) in one column and in the whole view, so a column shows what the single
// view shows, zoom and pan kept, instead of cropping the character to a narrow slice.
// `orbit` itself for one view.
OrbitCamera column_orbit(const OrbitCamera& orbit, float view_aspect, int count);

// Screen <-> world for picking and dragging things in a view (viewer handles). A ScreenRect is a
// view's rectangle in window pixels with the origin at the TOP left (mouse coordinates), unlike
// Viewport; `camera` is the camera that view is drawn with (its aspect the rect's).
struct ScreenRect {
  float x = 0.0f, y = 0.0f, width = 1.0f, height = 1.0f;
};
struct Ray {
  glm::vec3 origin{0.0f};     // on the near plane
  glm::vec3 direction{0.0f};  // unit length, away from the camera
};

// World point -> window pixel. False (pixel untouched) when the point is not in front of the
// camera (clip w <= 0), where a projection would mirror it.
bool world_to_screen(const Camera& camera, const ScreenRect& rect, glm::vec3 world,
                     glm::vec2& pixel);
// The ray through window pixel `pixel`: from the near plane through everything that pixel shows.
Ray screen_ray(const Camera& camera, const ScreenRect& rect, glm::vec2 pixel);
// The camera's forward direction (unit, world space): the normal of planes facing the camera.
glm::vec3 view_direction(const Camera& camera);
// Where `ray` meets the plane through `point` with normal `normal`; false when the ray is
// parallel to it or the plane lies behind the ray's origin.
bool intersect_plane(const Ray& ray, glm::vec3 point, glm::vec3 normal, glm::vec3& hit);
// Dragging a handle sideways: the point under `pixel` on the plane facing the camera through
// `handle` (so the handle keeps its depth along the view direction). False when no such point
// (the pixel's ray misses the plane); `out` is then untouched.
bool drag_on_view_plane(const Camera& camera, const ScreenRect& rect, glm::vec3 handle,
                        glm::vec2 pixel, glm::vec3& out);
// Dragging a handle in depth: `handle` moved along the view direction by `pixels` (positive:
// away from the camera) times the size of one pixel at the handle's depth, so a drag feels the
// same as a sideways one at that distance.
glm::vec3 drag_in_depth(const Camera& camera, const ScreenRect& rect, glm::vec3 handle,
                        float pixels);

}  // namespace rig::render
