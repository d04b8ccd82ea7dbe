#include "render/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/pose.h"

namespace rig::render {

Bounds transform_bounds(const glm::mat4& m, const Bounds& b) {
  Bounds out;
  if (!b.valid()) return out;
  const glm::vec3 c = 0.5f * (b.min + b.max), e = 0.5f * (b.max - b.min);
  const glm::vec3 wc = glm::vec3(m * glm::vec4(c, 1.0f));
  const glm::mat3 a(m);
  const glm::vec3 we = glm::abs(a[0]) * e.x + glm::abs(a[1]) * e.y + glm::abs(a[2]) * e.z;
  if (!std::isfinite(wc.x + wc.y + wc.z + we.x + we.y + we.z)) return out;
  out.add(wc - we);
  out.add(wc + we);
  return out;
}

Bounds pose_bounds(const rig::Character& character) {
  Bounds b;
  const rig::Model& model = character.model();
  std::vector<glm::vec3> positions, normals;
  for (const rig::DrawItem& item : model.draws) {
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    positions.resize(prim.vertex_count());
    normals.resize(prim.vertex_count());
    character.skin_draw_item(item, rig::SkinningMethod::Linear, positions, normals);
    for (const glm::vec3& p : positions)
      if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) b.add(p);
  }
  return b;
}

BindBoxes bind_boxes(const rig::Model& model, const rig::SkinMeshes& meshes) {
  BindBoxes boxes;
  boxes.joint.resize(model.skins.size());
  for (size_t s = 0; s < model.skins.size(); ++s)
    boxes.joint[s].assign(model.skins[s].joints.size(), Bounds{});
  boxes.item.assign(model.draws.size(), Bounds{});
  boxes.item_skinned.assign(model.draws.size(), false);
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    const rig::SkinMesh& mesh = meshes.get(item.mesh, item.primitive);
    const bool skinned = item.skin >= 0 && item.skin < int(model.skins.size()) && mesh.skinned();
    boxes.item_skinned[d] = skinned;
    std::vector<Bounds>* joints = skinned ? &boxes.joint[size_t(item.skin)] : nullptr;
    for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
      const glm::vec3 p = prim.positions[v];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
      Bounds vb;
      vb.add(p);
      for (const rig::MorphTarget& t : prim.targets) {
        if (v >= t.positions.size()) continue;
        vb.min += glm::min(t.positions[v], glm::vec3(0.0f));
        vb.max += glm::max(t.positions[v], glm::vec3(0.0f));
      }
      bool placed = false;
      if (joints) {
        std::span<const uint16_t> ids = mesh.vertex_joints(v);
        std::span<const float> ws = mesh.vertex_weights(v);
        for (size_t i = 0; i < ids.size(); ++i)
          if (ws[i] != 0.0f && ids[i] < joints->size()) {
            (*joints)[ids[i]].add(vb);
            placed = true;
          }
      }
      // Rigid items: every vertex. Skinned items: only the vertices skinning cannot place,
      // which the shaders leave where they are (mesh space, no node matrix).
      if (!placed) boxes.item[d].add(vb);
    }
  }
  return boxes;
}

Bounds posed_bounds(const rig::Model& model, const BindBoxes& boxes,
                    std::span<const glm::mat4> world) {
  Bounds b;
  for (size_t s = 0; s < model.skins.size() && s < boxes.joint.size(); ++s) {
    const rig::Skin& skin = model.skins[s];
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      const int node = skin.joints[j];
      if (!boxes.joint[s][j].valid() || node < 0 || size_t(node) >= world.size()) continue;
      const glm::mat4 m =
          j < skin.inverse_bind.size() ? world[size_t(node)] * skin.inverse_bind[j] : world[node];
      b.add(transform_bounds(m, boxes.joint[s][j]));
    }
  }
  for (size_t d = 0; d < model.draws.size() && d < boxes.item.size(); ++d) {
    if (boxes.item_skinned[d])
      b.add(boxes.item[d]);  // unplaceable vertices stay in mesh space
    else
      b.add(transform_bounds(world[size_t(model.draws[d].node)], boxes.item[d]));
  }
  return b;
}

std::vector<glm::mat4> rest_world_matrices(const rig::Model& model) {
  rig::Pose pose;
  rig::init_rest_pose(model, pose);
  std::vector<glm::mat4> world(model.nodes.size(), glm::mat4(1.0f));
  rig::compute_world_matrices(model, pose, world);
  return world;
}

namespace {

// Poses `character` at `samples` times spread over the selected clip of its clip set (when it
// has length), then at `selection` itself, calling add_pose() after each.
template <typename AddPose>
void over_clip(rig::Character& character, const rig::PoseSelection& selection, int samples,
               AddPose&& add_pose) {
  const rig::ClipSet& clips = character.clips();
  if (samples >= 2 && clips.valid(selection.clip)) {
    const rig::ClipEntry& clip = clips[size_t(selection.clip)];
    rig::PoseSelection sel = selection;
    for (int i = 0; clip.end > clip.start && i < samples; ++i) {
      sel.time = clip.start + (clip.end - clip.start) * float(i) / float(samples - 1);
      character.evaluate(sel);
      add_pose();
    }
  }
  character.evaluate(selection);
  add_pose();
}

}  // namespace

Bounds clip_bounds(rig::Character& character, const rig::PoseSelection& selection, int samples) {
  const rig::Model& model = character.model();
  const BindBoxes boxes = bind_boxes(model, character.skin_meshes());
  Bounds b;
  over_clip(character, selection, samples,
            [&] { b.add(posed_bounds(model, boxes, character.world())); });
  return b;
}

Bounds exact_clip_bounds(rig::Character& character, const rig::PoseSelection& selection,
                         int samples) {
  Bounds b;
  over_clip(character, selection, samples, [&] { b.add(pose_bounds(character)); });
  return b;
}

bool has_morph_targets(const rig::Model& model) {
  for (const rig::Mesh& mesh : model.meshes)
    for (const rig::Primitive& prim : mesh.primitives)
      if (!prim.targets.empty()) return true;
  return false;
}

Bounds clip_bounds(const rig::Model& model, const rig::PoseSelection& selection, int samples,
                   std::shared_ptr<const rig::SkinLayer> skin) {
  rig::Character character(model, std::move(skin));
  return clip_bounds(character, selection, samples);
}

SkinJointNodes skin_joint_nodes(const rig::Model& model) {
  SkinJointNodes joints;
  joints.slot_of_node.assign(model.nodes.size(), -1);
  for (const rig::Skin& skin : model.skins)
    for (int node : skin.joints)
      if (node >= 0 && node < int(model.nodes.size()) && joints.slot_of_node[node] < 0) {
        joints.slot_of_node[node] = static_cast<int>(joints.nodes.size());
        joints.nodes.push_back(node);
      }
  return joints;
}

Camera Camera::with_aspect(float aspect) const {
  Camera c = *this;
  // Same vertical field of view, the view's own aspect: x scale = y scale / aspect.
  if (c.projection[2][3] != 0.0f && aspect > 0.0f) c.projection[0][0] = c.projection[1][1] / aspect;
  return c;
}

void OrbitCamera::frame(const Bounds& bounds) {
  target = bounds.center();
  scene_radius = std::max(bounds.radius(), 1e-4f);
  // The bounding sphere fits the vertical field of view with a small margin.
  distance = scene_radius / std::sin(0.5f * fov_y) * 1.05f;
}

void OrbitCamera::frame_character(const Bounds& bounds, float view_aspect) {
  frame(bounds);
  if (!bounds.valid()) return;
  const float aspect = view_aspect > 0.0f ? view_aspect : 1.0f;
  const float eye_y = bounds.min.y + kChestHeight * (bounds.max.y - bounds.min.y);
  // How far the box reaches into the view from `d` away, as a fraction of the half view (1: to
  // the edge); infinite when a corner is behind the eye.
  auto reach = [&](float d) {
    OrbitCamera c = *this;
    c.distance = d;
    c.pitch = std::clamp(std::asin(std::clamp((eye_y - target.y) / d, -1.0f, 1.0f)),
                         -kMaxOrbitPitch, kMaxOrbitPitch);
    const Camera cam = c.camera(aspect);
    const glm::mat4 m = cam.projection * cam.view;
    float most = 0.0f;
    for (int i = 0; i < 8; ++i) {
      const glm::vec4 p =
          m * glm::vec4(i & 1 ? bounds.max.x : bounds.min.x, i & 2 ? bounds.max.y : bounds.min.y,
                        i & 4 ? bounds.max.z : bounds.min.z, 1.0f);
      if (p.w <= 1e-6f * d) return 1e30f;
      most = std::max({most, std::abs(p.x / p.w), std::abs(p.y / p.w)});
    }
    return most;
  };
  // The sphere's fit (frame()) holds the box; twice it is surely too far, the sphere's radius
  // too near (the eye would be at the box). The reach falls with the distance: bisect.
  float near_d = scene_radius, far_d = 2.0f * distance;
  for (int i = 0; i < 60 && far_d - near_d > 1e-6f * far_d; ++i) {
    const float mid = 0.5f * (near_d + far_d);
    (reach(mid) > kFrameFill ? near_d : far_d) = mid;
  }
  distance = far_d;
  pitch = std::clamp(std::asin(std::clamp((eye_y - target.y) / distance, -1.0f, 1.0f)),
                     -kMaxOrbitPitch, kMaxOrbitPitch);
}

void OrbitCamera::fit_width(float view_aspect) {
  if (!(view_aspect > 0.0f) || view_aspect >= 1.0f) return;  // wider than tall: frame() fits
  const float half_fov_x = std::atan(view_aspect * std::tan(0.5f * fov_y));
  distance = std::max(distance, scene_radius / std::sin(half_fov_x) * 1.05f);
}

void OrbitCamera::keep_above_floor() {
  if (!(floor > 0.5f * kNoFloor) || !(distance > 0.0f)) return;
  const float clearance = 0.01f * std::max(scene_radius, 1e-4f);
  // eye.y = target.y + distance · sin(pitch) >= floor + clearance.
  const float lowest_sine = (floor + clearance - target.y) / distance;
  if (lowest_sine <= -1.0f) return;
  const float lowest = std::asin(std::min(lowest_sine, std::sin(kMaxOrbitPitch)));
  pitch = std::max(pitch, lowest);
}

namespace {
// Distance at which a unit sphere fits both fields of view of a view `aspect` wide.
float unit_fit_distance(float fov_y, float aspect) {
  const float half_y = 0.5f * fov_y;
  const float half_x = std::atan(std::max(aspect, 1e-4f) * std::tan(half_y));
  return 1.0f / std::sin(std::min(half_x, half_y));
}
}  // namespace

OrbitCamera column_orbit(const OrbitCamera& orbit, float view_aspect, int count) {
  OrbitCamera c = orbit;
  if (count <= 1 || !(view_aspect > 0.0f)) return c;
  c.distance *= unit_fit_distance(orbit.fov_y, view_aspect / float(count)) /
                unit_fit_distance(orbit.fov_y, view_aspect);
  return c;
}

glm::vec3 OrbitCamera::eye() const {
  const float cp = std::cos(pitch);
  return target + distance * glm::vec3(cp * std::sin(yaw), std::sin(pitch), cp * std::cos(yaw));
}

Camera OrbitCamera::camera(float aspect) const {
  Camera c;
  c.eye = eye();
  c.view = glm::lookAt(c.eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
  // Near/far hug the scene (the grid reaches ~3 radii from the target) so depth keeps its
  // precision; far/near stays below a few hundred.
  const float r = std::max(scene_radius, 1e-4f);
  const float near_plane = std::max(distance - 3.0f * r, 0.01f * distance);
  const float far_plane = distance + 4.0f * r;
  c.projection = glm::perspective(fov_y, aspect > 0.0f ? aspect : 1.0f, near_plane, far_plane);
  return c;
}

Camera look_at_camera(glm::vec3 eye, glm::vec3 target, float yfov, float aspect, float near_plane,
                      float far_plane) {
  const float d = glm::length(eye - target);
  if (near_plane <= 0.0f || far_plane <= near_plane) {
    near_plane = d / 100.0f;
    far_plane = d * 100.0f;
  }
  Camera c;
  c.eye = eye;
  c.view = glm::lookAt(eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
  c.projection = glm::perspective(yfov, aspect > 0.0f ? aspect : 1.0f, near_plane, far_plane);
  return c;
}

Bounds joint_bounds(const rig::Model& model, const BindBoxes& boxes,
                    const rig::Character& character, int node) {
  Bounds box;
  for (size_t s = 0; s < model.skins.size() && s < boxes.joint.size(); ++s) {
    const std::vector<int>& joints = model.skins[s].joints;
    const auto it = std::find(joints.begin(), joints.end(), node);
    if (it == joints.end()) continue;
    const size_t j = size_t(it - joints.begin());
    if (j < boxes.joint[s].size() && boxes.joint[s][j].valid())
      box = transform_bounds(character.skinning_matrices(int(s))[j], boxes.joint[s][j]);
    break;
  }
  if (!box.valid() && node >= 0 && size_t(node) < model.nodes.size()) {
    // A tenth of the model's rest size around the joint itself.
    const glm::vec3 p(character.world()[size_t(node)][3]);
    Bounds all;
    for (const std::vector<Bounds>& skin : boxes.joint)
      for (const Bounds& b : skin) all.add(b);
    for (const Bounds& b : boxes.item) all.add(b);
    const float r = 0.1f * std::max(all.radius(), 1e-3f);
    box.add(p - glm::vec3(r));
    box.add(p + glm::vec3(r));
  }
  return box;
}

Bounds skin_joints_bounds(const rig::Model& model, const BindBoxes& boxes,
                          const rig::Character& character, int skin, std::span<const int> joints) {
  Bounds box;
  if (skin < 0 || size_t(skin) >= model.skins.size() || size_t(skin) >= boxes.joint.size())
    return box;
  const rig::Skin& s = model.skins[size_t(skin)];
  const std::vector<Bounds>& bind = boxes.joint[size_t(skin)];
  const std::span<const glm::mat4> skinning = character.skinning_matrices(skin);
  const std::span<const glm::mat4> world = character.world();
  for (const int j : joints) {
    if (j < 0 || size_t(j) >= s.joints.size()) continue;
    if (size_t(j) < bind.size() && bind[size_t(j)].valid() && size_t(j) < skinning.size()) {
      box.add(transform_bounds(skinning[size_t(j)], bind[size_t(j)]));
    } else if (const int node = s.joints[size_t(j)]; node >= 0 && size_t(node) < world.size()) {
      box.add(glm::vec3(world[size_t(node)][3]));
    }
  }
  if (!box.valid()) return box;
  // The same minimum size as joint_bounds' bare joint: a tenth of the model's rest size.
  Bounds all;
  for (const std::vector<Bounds>& joint_boxes : boxes.joint)
    for (const Bounds& b : joint_boxes) all.add(b);
  for (const Bounds& b : boxes.item) all.add(b);
  const float r = 0.1f * std::max(all.radius(), 1e-3f);
  const glm::vec3 c = box.center();
  box.min = glm::min(box.min, c - glm::vec3(r));
  box.max = glm::max(box.max, c + glm::vec3(r));
  return box;
}

Bounds joint_neighbourhood_bounds(const rig::Model& model, const BindBoxes& boxes,
                                  const rig::Character& character, int node) {
  if (node < 0 || size_t(node) >= model.nodes.size()) return {};
  for (size_t s = 0; s < model.skins.size(); ++s) {
    const std::vector<int>& joints = model.skins[s].joints;
    const auto slot = [&](int n) {
      return int(std::find(joints.begin(), joints.end(), n) - joints.begin());
    };
    const int self = slot(node);
    if (size_t(self) >= joints.size()) continue;
    std::vector<int> near{self};
    const rig::Node& n = model.nodes[size_t(node)];
    if (const int parent = slot(n.parent); n.parent >= 0 && size_t(parent) < joints.size())
      near.push_back(parent);
    for (const int child : n.children)
      if (const int c = slot(child); size_t(c) < joints.size()) near.push_back(c);
    return skin_joints_bounds(model, boxes, character, int(s), near);
  }
  return joint_bounds(model, boxes, character, node);
}

bool world_to_screen(const Camera& camera, const ScreenRect& rect, glm::vec3 world,
                     glm::vec2& pixel) {
  const glm::vec4 clip = camera.projection * camera.view * glm::vec4(world, 1.0f);
  if (!(clip.w > 1e-6f)) return false;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  // NDC y points up, window pixels down.
  pixel = {rect.x + (ndc.x * 0.5f + 0.5f) * rect.width,
           rect.y + (0.5f - ndc.y * 0.5f) * rect.height};
  return true;
}

Ray screen_ray(const Camera& camera, const ScreenRect& rect, glm::vec2 pixel) {
  const glm::vec2 ndc(2.0f * (pixel.x - rect.x) / rect.width - 1.0f,
                      1.0f - 2.0f * (pixel.y - rect.y) / rect.height);
  const glm::mat4 inverse = glm::inverse(camera.projection * camera.view);
  const glm::vec4 near_h = inverse * glm::vec4(ndc, -1.0f, 1.0f);
  const glm::vec4 far_h = inverse * glm::vec4(ndc, 1.0f, 1.0f);
  const glm::vec3 near_p = glm::vec3(near_h) / near_h.w, far_p = glm::vec3(far_h) / far_h.w;
  return {near_p, glm::normalize(far_p - near_p)};
}

glm::vec3 view_direction(const Camera& camera) {
  // The view matrix's third row is the camera's +Z (backwards) axis in world space.
  return -glm::normalize(glm::vec3(camera.view[0][2], camera.view[1][2], camera.view[2][2]));
}

bool intersect_plane(const Ray& ray, glm::vec3 point, glm::vec3 normal, glm::vec3& hit) {
  const float denominator = glm::dot(ray.direction, normal);
  if (std::fabs(denominator) < 1e-8f) return false;
  const float t = glm::dot(point - ray.origin, normal) / denominator;
  if (!(t >= 0.0f) || !std::isfinite(t)) return false;
  hit = ray.origin + t * ray.direction;
  return true;
}

bool drag_on_view_plane(const Camera& camera, const ScreenRect& rect, glm::vec3 handle,
                        glm::vec2 pixel, glm::vec3& out) {
  return intersect_plane(screen_ray(camera, rect, pixel), handle, view_direction(camera), out);
}

glm::vec3 drag_in_depth(const Camera& camera, const ScreenRect& rect, glm::vec3 handle,
                        float pixels) {
  const glm::vec3 forward = view_direction(camera);
  // A perspective projection's [1][1] is cot(fov_y / 2): one pixel spans
  // 2 · depth · tan(fov_y / 2) / height world units at that depth.
  const float depth = std::max(glm::dot(handle - camera.eye, forward), 0.0f);
  const float per_pixel = 2.0f * depth / (camera.projection[1][1] * std::max(rect.height, 1.0f));
  return handle + forward * (pixels * per_pixel);
}

ColumnSpan compare_column(float left, float width, int index, int count) {
  if (count <= 1) return {left, width};
  const auto edge = [&](int i) { return std::floor(static_cast<double>(width) * i / count); };
  return {left + static_cast<float>(edge(index)),
          static_cast<float>(edge(index + 1) - edge(index))};
}

int compare_column_at(float left, float width, int count, float x) {
  for (int i = 0; i + 1 < count; ++i) {
    const ColumnSpan c = compare_column(left, width, i, count);
    if (x < c.x + c.width) return i;
  }
  return count > 0 ? count - 1 : 0;
}

}  // namespace rig::render
