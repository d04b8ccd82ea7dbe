// `rigview --export-obj` on real corpus characters against an independent implementation of
// the glTF spec written here from scratch: tinygltf's raw structs, glm's own TRS, slerp and
// dual quaternions, linear key search. It shares no code with the engine under test.
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/gtx/dual_quaternion.hpp>
#include <sstream>

#include "test_support.h"

namespace {

struct Reference {
  tinygltf::Model m;

  template <typename T>
  std::vector<T> read(int accessor_index, int comps) const {
    const tinygltf::Accessor& a = m.accessors[accessor_index];
    const tinygltf::BufferView& bv = m.bufferViews[a.bufferView];
    const auto& data = m.buffers[bv.buffer].data;
    const size_t elem = sizeof(T) * comps;
    const size_t stride = bv.byteStride ? bv.byteStride : elem;
    std::vector<T> out(a.count * comps);
    for (size_t i = 0; i < a.count; ++i)
      std::memcpy(&out[i * comps], &data[bv.byteOffset + a.byteOffset + i * stride], elem);
    return out;
  }

  std::vector<float> read_float(int accessor_index, int comps) const {
    const tinygltf::Accessor& a = m.accessors[accessor_index];
    if (a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT) return read<float>(accessor_index, comps);
    std::vector<float> out;
    if (a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE)
      for (uint8_t v : read<uint8_t>(accessor_index, comps)) out.push_back(v / 255.0f);
    else
      for (uint16_t v : read<uint16_t>(accessor_index, comps)) out.push_back(v / 65535.0f);
    return out;
  }

  std::vector<uint32_t> read_uint(int accessor_index, int comps) const {
    const tinygltf::Accessor& a = m.accessors[accessor_index];
    std::vector<uint32_t> out;
    if (a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE)
      for (uint8_t v : read<uint8_t>(accessor_index, comps)) out.push_back(v);
    else if (a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT)
      for (uint16_t v : read<uint16_t>(accessor_index, comps)) out.push_back(v);
    else
      for (uint32_t v : read<uint32_t>(accessor_index, comps)) out.push_back(v);
    return out;
  }

  struct Trs {
    glm::vec3 t{0};
    glm::quat r{1, 0, 0, 0};
    glm::vec3 s{1};
  };

  std::vector<Trs> rest() const {
    std::vector<Trs> out(m.nodes.size());
    for (size_t i = 0; i < m.nodes.size(); ++i) {
      const auto& n = m.nodes[i];
      if (n.translation.size() == 3)
        out[i].t = glm::vec3(n.translation[0], n.translation[1], n.translation[2]);
      if (n.rotation.size() == 4)
        out[i].r = glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]),
                             float(n.rotation[2]));
      if (n.scale.size() == 3) out[i].s = glm::vec3(n.scale[0], n.scale[1], n.scale[2]);
    }
    return out;
  }

  // STEP / LINEAR / CUBICSPLINE sampling with a linear key scan, straight from the spec text.
  std::vector<std::vector<float>> morph_rest() const {
    std::vector<std::vector<float>> w(m.nodes.size());
    for (size_t i = 0; i < m.nodes.size(); ++i) {
      const auto& n = m.nodes[i];
      if (n.mesh < 0) continue;
      const auto& mesh = m.meshes[n.mesh];
      size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
      w[i].assign(targets, 0.0f);
      const auto& src = !n.weights.empty() ? n.weights : mesh.weights;
      for (size_t k = 0; k < std::min(targets, src.size()); ++k) w[i][k] = float(src[k]);
    }
    return w;
  }

  std::vector<Trs> sample(int anim, float t,
                          std::vector<std::vector<float>>* morph = nullptr) const {
    std::vector<Trs> pose = rest();
    if (morph) *morph = morph_rest();
    if (anim < 0 || anim >= int(m.animations.size())) return pose;
    const auto& a = m.animations[anim];
    for (const auto& ch : a.channels) {
      const auto& s = a.samplers[ch.sampler];
      std::vector<float> times = read_float(s.input, 1);
      const bool cubic = s.interpolation == "CUBICSPLINE";
      int comps = ch.target_path == "rotation" ? 4 : 3;
      if (ch.target_path == "weights") {
        if (!morph) continue;
        comps = int((*morph)[ch.target_node].size());
      }
      // Every float of the output, whatever its accessor type (VEC3, VEC4 or SCALAR weights).
      std::vector<float> flat =
          read_float(s.output, tinygltf::GetNumComponentsInType(m.accessors[s.output].type));
      auto value = [&](size_t key, int which) {  // which: 0 in-tangent, 1 value, 2 out-tangent
        size_t element = cubic ? 3 * key + which : key;
        return std::vector<float>(flat.begin() + element * comps,
                                  flat.begin() + (element + 1) * comps);
      };
      std::vector<float> out;
      if (t <= times.front() || times.size() == 1) {
        out = value(0, 1);
      } else if (t >= times.back()) {
        out = value(times.size() - 1, 1);
      } else {
        size_t k = 0;
        while (!(t >= times[k] && t < times[k + 1])) ++k;
        const float td = times[k + 1] - times[k];
        const float u = (t - times[k]) / td;
        std::vector<float> v0 = value(k, 1), v1 = value(k + 1, 1);
        out.resize(comps);
        if (s.interpolation == "STEP") {
          out = v0;
        } else if (cubic) {
          std::vector<float> b0 = value(k, 2), a1 = value(k + 1, 0);
          for (int i = 0; i < comps; ++i)
            out[i] = (2 * u * u * u - 3 * u * u + 1) * v0[i] +
                     td * (u * u * u - 2 * u * u + u) * b0[i] +
                     (-2 * u * u * u + 3 * u * u) * v1[i] + td * (u * u * u - u * u) * a1[i];
        } else if (comps == 4 && ch.target_path == "rotation") {
          glm::quat q = glm::slerp(glm::quat(v0[3], v0[0], v0[1], v0[2]),
                                   glm::quat(v1[3], v1[0], v1[1], v1[2]), u);
          out = {q.x, q.y, q.z, q.w};
        } else {
          for (int i = 0; i < comps; ++i) out[i] = v0[i] + u * (v1[i] - v0[i]);
        }
      }
      Trs& p = pose[ch.target_node];
      if (ch.target_path == "rotation")
        p.r = glm::normalize(glm::quat(out[3], out[0], out[1], out[2]));
      else if (ch.target_path == "translation")
        p.t = glm::vec3(out[0], out[1], out[2]);
      else if (ch.target_path == "scale")
        p.s = glm::vec3(out[0], out[1], out[2]);
      else
        (*morph)[ch.target_node] = out;
    }
    return pose;
  }

  std::vector<glm::mat4> world(const std::vector<Trs>& pose) const {
    std::vector<glm::mat4> w(m.nodes.size(), glm::mat4(1));
    std::function<void(int, glm::mat4)> visit = [&](int n, glm::mat4 parent) {
      const auto& node = m.nodes[n];
      glm::mat4 local;
      if (node.matrix.size() == 16) {
        for (int i = 0; i < 16; ++i) local[i / 4][i % 4] = float(node.matrix[i]);
      } else {
        local = glm::translate(glm::mat4(1), pose[n].t) * glm::mat4_cast(pose[n].r) *
                glm::scale(glm::mat4(1), pose[n].s);
      }
      w[n] = parent * local;
      for (int c : node.children) visit(c, w[n]);
    };
    std::vector<bool> is_child(m.nodes.size(), false);
    for (const auto& n : m.nodes)
      for (int c : n.children) is_child[c] = true;
    for (size_t i = 0; i < m.nodes.size(); ++i)
      if (!is_child[i]) visit(int(i), glm::mat4(1));
    return w;
  }

  // World-space vertices of every drawn primitive, depth first from the default scene.
  std::vector<glm::vec3> posed_vertices(const std::vector<Trs>& pose, bool dqs,
                                        const std::vector<std::vector<float>>& morph = {}) const {
    std::vector<glm::mat4> w = world(pose);
    std::vector<glm::vec3> out;
    std::function<void(int)> visit = [&](int n) {
      const auto& node = m.nodes[n];
      if (node.mesh >= 0) {
        for (const auto& prim : m.meshes[node.mesh].primitives) {
          std::vector<float> pos = read_float(prim.attributes.at("POSITION"), 3);
          const size_t count = pos.size() / 3;
          if (size_t(n) < morph.size())
            for (size_t k = 0; k < morph[n].size() && k < prim.targets.size(); ++k) {
              if (!prim.targets[k].count("POSITION")) continue;
              std::vector<float> d = read_float(prim.targets[k].at("POSITION"), 3);
              for (size_t i = 0; i < pos.size(); ++i) pos[i] += morph[n][k] * d[i];
            }
          if (node.skin < 0 || !prim.attributes.count("JOINTS_0")) {
            for (size_t v = 0; v < count; ++v)
              out.push_back(glm::vec3(w[n] * glm::vec4(glm::make_vec3(&pos[3 * v]), 1)));
            continue;
          }
          const auto& skin = m.skins[node.skin];
          std::vector<glm::mat4> joint_mats(skin.joints.size());
          std::vector<float> ibm;
          if (skin.inverseBindMatrices >= 0) ibm = read_float(skin.inverseBindMatrices, 16);
          for (size_t j = 0; j < skin.joints.size(); ++j) {
            glm::mat4 inv(1);
            if (!ibm.empty()) inv = glm::make_mat4(&ibm[16 * j]);
            joint_mats[j] = w[skin.joints[j]] * inv;
          }
          std::vector<uint32_t> joints = read_uint(prim.attributes.at("JOINTS_0"), 4);
          std::vector<float> weights = read_float(prim.attributes.at("WEIGHTS_0"), 4);
          for (size_t v = 0; v < count; ++v) {
            glm::vec4 p(glm::make_vec3(&pos[3 * v]), 1);
            float sum =
                weights[4 * v] + weights[4 * v + 1] + weights[4 * v + 2] + weights[4 * v + 3];
            if (!dqs) {
              glm::mat4 blend(0);
              for (int i = 0; i < 4; ++i)
                blend += joint_mats[joints[4 * v + i]] * (weights[4 * v + i] / sum);
              out.push_back(glm::vec3(blend * p));
              continue;
            }
            int ref = 0;
            for (int i = 1; i < 4; ++i)
              if (weights[4 * v + i] > weights[4 * v + ref]) ref = i;
            // The non-rigid DQS: M = [R|t]·[S|0] by polar decomposition (plain Newton
            // iteration here), S blended linearly and applied first.
            auto split = [&](const glm::mat4& jm, glm::mat3& stretch) {
              const glm::dmat3 mm = glm::dmat3(glm::mat3(jm));
              glm::dmat3 q = mm;
              for (int it = 0; it < 60; ++it) q = 0.5 * (q + glm::transpose(glm::inverse(q)));
              if (glm::determinant(mm) < 0) q = -q;
              stretch = glm::mat3(glm::transpose(q) * mm);
              glm::quat r = glm::normalize(glm::quat_cast(glm::mat3(q)));
              return glm::dualquat(r, glm::vec3(jm[3]));
            };
            glm::mat3 unused, stretch_sum(0), stretch;
            glm::dualquat pivot = split(joint_mats[joints[4 * v + ref]], unused);
            glm::dualquat acc(glm::quat(0, 0, 0, 0), glm::quat(0, 0, 0, 0));
            for (int i = 0; i < 4; ++i) {
              float wi = weights[4 * v + i] / sum;
              glm::dualquat d = split(joint_mats[joints[4 * v + i]], stretch);
              stretch_sum += stretch * wi;
              if (glm::dot(d.real, pivot.real) < 0) wi = -wi;
              acc.real = acc.real + d.real * wi;
              acc.dual = acc.dual + d.dual * wi;
            }
            acc = glm::normalize(acc);
            p = glm::vec4(stretch_sum * glm::vec3(p), 1.0f);
            out.push_back(acc * glm::vec3(p));
          }
        }
      }
      for (int c : node.children) visit(c);
    };
    const int scene = m.defaultScene >= 0 ? m.defaultScene : 0;
    for (int root : m.scenes[scene].nodes) visit(root);
    return out;
  }
};

std::vector<glm::vec3> read_obj_vertices(const std::string& path) {
  std::vector<glm::vec3> out;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream s(line.substr(2));
    glm::vec3 v;
    s >> v.x >> v.y >> v.z;
    out.push_back(v);
  }
  return out;
}

struct Case {
  const char* file;
  int clip;
  float time;
  int blend_clip;
  float blend_time;
  float blend_weight;
  size_t vertices;  // OBJ vertices: every drawn primitive's vertices, instances included
};

void check_case(const std::filesystem::path& corpus, const Case& c, bool dqs) {
  const std::string path = (corpus / c.file).string();
  Reference ref;
  tinygltf::TinyGLTF loader;
  std::string err, warn;
  const bool binary = path.size() > 4 && path.substr(path.size() - 4) == ".glb";
  ASSERT_TRUE(binary ? loader.LoadBinaryFromFile(&ref.m, &err, &warn, path)
                     : loader.LoadASCIIFromFile(&ref.m, &err, &warn, path))
      << err;
  std::vector<std::vector<float>> morph, other_morph;
  std::vector<Reference::Trs> pose = ref.sample(c.clip, c.time, &morph);
  if (c.blend_clip >= 0) {
    std::vector<Reference::Trs> other = ref.sample(c.blend_clip, c.blend_time, &other_morph);
    for (size_t i = 0; i < morph.size(); ++i)
      for (size_t k = 0; k < morph[i].size(); ++k)
        morph[i][k] += c.blend_weight * (other_morph[i][k] - morph[i][k]);
    for (size_t i = 0; i < pose.size(); ++i) {
      pose[i].t = glm::mix(pose[i].t, other[i].t, c.blend_weight);
      pose[i].s = glm::mix(pose[i].s, other[i].s, c.blend_weight);
      pose[i].r = glm::normalize(glm::slerp(pose[i].r, other[i].r, c.blend_weight));
    }
  }
  std::vector<glm::vec3> want = ref.posed_vertices(pose, dqs, morph);

  const std::string obj = (rig::test::scratch_dir() / "reference.obj").string();
  std::string args = "--export-obj " + rig::test::quote(obj) + " --animation-index " +
                     std::to_string(c.clip) + " --animation-time " + std::to_string(c.time) +
                     (dqs ? " --skinning dqs" : " --skinning lbs");
  if (c.blend_clip >= 0)
    args += " --blend-index " + std::to_string(c.blend_clip) + " --blend-time " +
            std::to_string(c.blend_time) + " --blend-weight " + std::to_string(c.blend_weight);
  rig::test::RunResult r = rig::test::run_rigview(args + " " + rig::test::quote(path));
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<glm::vec3> got = read_obj_vertices(obj);
  std::filesystem::remove(obj);
  ASSERT_EQ(want.size(), c.vertices) << c.file;
  ASSERT_EQ(got.size(), want.size());
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : want) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const float tol = 1e-5f * glm::length(hi - lo);
  float worst = 0;
  size_t worst_at = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    float d = glm::length(got[i] - want[i]);
    if (d > worst) worst = d, worst_at = i;
  }
  EXPECT_LE(worst, tol) << c.file << (dqs ? " DQS" : " LBS") << ": vertex " << worst_at << " is "
                        << worst << " away (tolerance " << tol << ")";
  // The pose must actually differ from the bind pose somewhere, or the check proves nothing.
  std::vector<glm::vec3> bind = ref.posed_vertices(ref.rest(), dqs, ref.morph_rest());
  float moved = 0;
  for (size_t i = 0; i < want.size(); ++i) moved = std::max(moved, glm::length(want[i] - bind[i]));
  EXPECT_GT(moved, 100 * tol) << c.file << ": the chosen pose barely moves the mesh";
}

class ExportReference : public ::testing::TestWithParam<Case> {};

TEST_P(ExportReference, LbsMatchesIndependentImplementation) {
  RIG_REQUIRE_CORPUS(corpus);
  check_case(corpus, GetParam(), false);
}

TEST_P(ExportReference, DqsMatchesIndependentImplementation) {
  RIG_REQUIRE_CORPUS(corpus);
  check_case(corpus, GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, ExportReference,
    ::testing::Values(Case{"RiggedSimple/RiggedSimple.glb", 0, 0.7f, -1, 0, 0, 160},
                      Case{"RiggedSimple/RiggedSimple.glb", 0, 1.55f, -1, 0, 0, 160},
                      Case{"CesiumMan/CesiumMan.glb", 0, 0.9f, -1, 0, 0, 3273},
                      Case{"Fox/Fox.glb", 1, 0.3f, -1, 0, 0, 1728},
                      Case{"Fox/Fox.glb", 2, 0.61f, -1, 0, 0, 1728},
                      Case{"Fox/Fox.glb", 1, 0.3f, 2, 0.5f, 0.4f, 1728},
                      Case{"KayKit_Knight/Knight.glb", 3, 0.77f, 40, 0.3f, 0.7f, 7024},
                      Case{"InterpolationTest/InterpolationTest.glb", 2, 0.63f, -1, 0, 0, 220},
                      Case{"InterpolationTest/InterpolationTest.glb", 4, 1.37f, -1, 0, 0, 220},
                      Case{"InterpolationTest/InterpolationTest.glb", 7, 0.45f, -1, 0, 0, 220},
                      Case{"InterpolationTest/InterpolationTest.glb", 8, 0.81f, 6, 1.2f, 0.5f, 220},
                      Case{"AnimatedMorphCube/AnimatedMorphCube.gltf", 0, 1.3f, -1, 0, 0, 24},
                      Case{"MorphStressTest/MorphStressTest.gltf", 1, 0.9f, 2, 2.5f, 0.3f, 1528},
                      Case{"AssetGenerator_Animation_Node/Animation_Node_05.gltf", 0, 1.7f, -1, 0,
                           0, 24},
                      Case{"RobotExpressive/RobotExpressive.glb", 2, 1.1f, -1, 0, 0, 7214}),
    [](const ::testing::TestParamInfo<Case>& info) { return "case" + std::to_string(info.index); });

}  // namespace
