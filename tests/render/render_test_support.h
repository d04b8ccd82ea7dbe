// Shared pieces of the renderer tests: one headless GL context per test process, synthetic
// models built by hand, and image helpers.
#pragma once

#include <glad/gl.h>
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "character/character.h"
#include "model/model.h"
#include "render/headless_context.h"
#include "render/offscreen.h"
#include "render/renderer.h"

namespace rig::render::test {

// The process-wide EGL context (created on first use). Fails the calling test when EGL's
// surfaceless platform is unavailable.
inline bool ensure_gl_context() {
  static HeadlessContext* context = nullptr;
  static std::string error;
  if (!context) {
    context = new HeadlessContext();
    if (!context->create(error)) {
      ADD_FAILURE() << "no headless GL context: " << error;
      delete context;
      context = nullptr;
      return false;
    }
  }
  return true;
}

#define RIG_REQUIRE_GL() ASSERT_TRUE(::rig::render::test::ensure_gl_context())

// A renderer ready to draw `model` posed by `selection`: initialised, given the model, and
// updated from a Character evaluated there. A step that fails is a test failure with its error,
// skips the steps after it and leaves `ok` false, for tests that must stop there
// (ASSERT_TRUE(setup.ok)). `model` must outlive it: the Character and the renderer refer to it.
struct RendererWithModel {
  explicit RendererWithModel(const Model& model, const PoseSelection& selection = {})
      : character(model) {
    std::string error;
    ok = renderer.init(error);
    EXPECT_TRUE(ok) << "renderer init: " << error;
    if (ok) {
      ok = renderer.set_model(model, error);
      EXPECT_TRUE(ok) << "set_model: " << error;
    }
    character.evaluate(selection);
    if (ok) renderer.update(character);
  }
  RendererWithModel(const RendererWithModel&) = delete;
  RendererWithModel& operator=(const RendererWithModel&) = delete;

  Renderer renderer;
  Character character;
  bool ok = false;
};

// A joint of a hand-built chain: local TRS relative to its parent joint (or the root).
struct ChainJoint {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};

// Model: node 0 holds the skinned mesh (one triangle-list primitive), nodes 1..n are the
// joints in a chain (each the child of the previous; joint 0 a root), bind pose = identity
// inverse bind matrices unless `inverse_bind` is given. Vertices/influences set by the caller.
inline Model chain_model(const std::vector<ChainJoint>& joints, std::vector<glm::vec3> positions,
                         std::vector<glm::vec3> normals, uint32_t influences,
                         std::vector<uint16_t> joint_ids, std::vector<float> weights,
                         std::vector<uint32_t> indices, std::vector<glm::mat4> inverse_bind = {}) {
  Model m;
  m.file = "synthetic.gltf";
  const int n = static_cast<int>(joints.size());
  m.nodes.resize(size_t(n) + 1);
  m.nodes[0].name = "mesh";
  m.nodes[0].mesh = 0;
  m.nodes[0].skin = 0;
  m.scene_roots = {0, 1};
  m.node_order = {0};
  for (int j = 0; j < n; ++j) {
    Node& node = m.nodes[size_t(j) + 1];
    node.name = "joint" + std::to_string(j);
    node.parent = j == 0 ? -1 : j;
    node.rest.translation = joints[j].translation;
    node.rest.rotation = joints[j].rotation;
    node.rest.scale = joints[j].scale;
    if (j + 1 < n) node.children = {j + 2};
    m.node_order.push_back(j + 1);
  }
  Skin skin;
  skin.name = "skin";
  for (int j = 0; j < n; ++j) {
    skin.joints.push_back(j + 1);
    skin.joint_parent.push_back(j - 1);
    skin.order.push_back(j);
  }
  skin.inverse_bind =
      inverse_bind.empty() ? std::vector<glm::mat4>(size_t(n), glm::mat4(1.0f)) : inverse_bind;
  m.skins.push_back(skin);
  Primitive prim;
  prim.positions = std::move(positions);
  prim.normals = std::move(normals);
  prim.influences = influences;
  prim.joints = std::move(joint_ids);
  prim.weights = std::move(weights);
  prim.indices = std::move(indices);
  Mesh mesh;
  mesh.name = "mesh";
  mesh.primitives.push_back(std::move(prim));
  m.meshes.push_back(std::move(mesh));
  m.draws.push_back(DrawItem{0, 0, 0, 0});
  return m;
}

// A 2 x 1 x 0.5 box's eight corners (x -1..1, y 0..1, z -0.25..0.25), every one skinned to joint
// 0 alone, on chain_model's joints; `indices` picks the triangles.
inline Model box_on_chain(const std::vector<ChainJoint>& chain, std::vector<uint32_t> indices) {
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint16_t> ids;
  std::vector<float> w;
  for (int i = 0; i < 8; ++i) {
    pos.push_back(glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : 0.0f, i & 4 ? 0.25f : -0.25f));
    nrm.push_back(glm::vec3(0, 1, 0));
    ids.insert(ids.end(), {0, 0, 0, 0});
    w.insert(w.end(), {1.0f, 0.0f, 0.0f, 0.0f});
  }
  return chain_model(chain, pos, nrm, 4, ids, w, std::move(indices));
}

// Pixels of an RGBA8 image differing from `rgb` by more than `tolerance` in any channel.
inline size_t count_pixels_unlike(const std::vector<uint8_t>& rgba, glm::ivec3 rgb,
                                  int tolerance = 3, int x0 = 0, int x1 = -1, int width = 0) {
  size_t count = 0;
  const size_t pixels = rgba.size() / 4;
  for (size_t i = 0; i < pixels; ++i) {
    if (width > 0) {
      const int x = static_cast<int>(i % size_t(width));
      if (x < x0 || (x1 >= 0 && x >= x1)) continue;
    }
    const uint8_t* p = &rgba[i * 4];
    if (std::abs(p[0] - rgb.r) > tolerance || std::abs(p[1] - rgb.g) > tolerance ||
        std::abs(p[2] - rgb.b) > tolerance)
      ++count;
  }
  return count;
}

// Decodes a PNG written by the CLI to RGBA8; empty when it cannot be read.
inline std::vector<uint8_t> load_png(const std::string& path, int& w, int& h) {
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (!data) return {};
  std::vector<uint8_t> out(data, data + size_t(w) * size_t(h) * 4);
  stbi_image_free(data);
  return out;
}

// A cylinder of radius 0.5 along +Y from 0 to 2 around two joints (root at 0, child at 1).
// Weights blend from the root to the child over y in [0.5, 1.5]; the child is twisted by `twist`
// radians about Y (then bent by `bend` about Z), so the 50/50 ring at y = 1 is half way through
// it: LBS collapses it, DQS keeps it.
inline Model twisted_cylinder(float twist, float bend = 0.0f) {
  std::vector<ChainJoint> chain(2);
  chain[1].translation = glm::vec3(0.0f, 1.0f, 0.0f);
  chain[1].rotation =
      glm::angleAxis(bend, glm::vec3(0, 0, 1)) * glm::angleAxis(twist, glm::vec3(0, 1, 0));
  const int rings = 21, segments = 24;
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint16_t> ids;
  std::vector<float> w;
  std::vector<uint32_t> idx;
  for (int r = 0; r < rings; ++r) {
    const float y = 2.0f * float(r) / float(rings - 1);
    const float child = std::clamp(y - 0.5f, 0.0f, 1.0f);
    for (int s = 0; s < segments; ++s) {
      const float a = 2.0f * 3.14159265f * float(s) / float(segments);
      pos.push_back(glm::vec3(0.5f * std::cos(a), y, 0.5f * std::sin(a)));
      nrm.push_back(glm::vec3(std::cos(a), 0.0f, std::sin(a)));
      ids.insert(ids.end(), {0, 1, 0, 0});
      w.insert(w.end(), {1.0f - child, child, 0.0f, 0.0f});
    }
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      const uint32_t a = r * segments + s, b = r * segments + (s + 1) % segments;
      idx.insert(idx.end(), {a, b, a + segments, b, b + segments, a + segments});
    }
  const std::vector<glm::mat4> inverse_bind = {
      glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -1.0f, 0.0f))};
  return test::chain_model(chain, pos, nrm, 4, ids, w, idx, inverse_bind);
}

// Draws `renderer`'s current state, one sample per pixel, into a fresh width × height target
// cleared to `background`, and returns its RGBA pixels (rows bottom first).
inline std::vector<uint8_t> draw_to_pixels(Renderer& renderer, const Camera& camera,
                                           const DrawOptions& options, int width, int height,
                                           glm::vec3 background) {
  std::string error;
  OffscreenTarget target;
  EXPECT_TRUE(target.create(width, height, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, width, height};
  renderer.clear(viewport, background);
  renderer.draw(camera, viewport, options);
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return pixels;
}

// Whether the segment origin + t·dir, t in [0, t_max], passes through the axis-aligned box
// [lo, hi] (the slab test): where the shadow tests expect a point to be in shadow.
inline bool segment_hits_box(glm::vec3 origin, glm::vec3 dir, float t_max, glm::vec3 lo,
                             glm::vec3 hi) {
  float t0 = 0.0f, t1 = t_max;
  for (int a = 0; a < 3; ++a) {
    if (std::abs(dir[a]) < 1e-12f) {
      if (origin[a] < lo[a] || origin[a] > hi[a]) return false;
      continue;
    }
    float ta = (lo[a] - origin[a]) / dir[a], tb = (hi[a] - origin[a]) / dir[a];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace rig::render::test
