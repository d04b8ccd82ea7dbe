// The fidelity suite's generated character: a skinned body (root, spine and head joints, the
// body blending root → spine), a head with emissive eyes, hair cards (MASK, double-sided, a
// strand texture whose alpha fades to the tips) and eyelashes (BLEND). One clip, "Sway": the
// spine bends sideways and the head nods, LINEAR over one second.
#include <cmath>
#include <string>
#include <vector>

#include "fidelity_gltf.h"
#include "fidelity_textures.h"

using rig::fidelity::Doc;
using rig::fidelity::kPi;
using rig::fidelity::num;
using rig::fidelity::Prim;

namespace {

constexpr float kSpineY = 0.75f, kHeadY = 1.55f;

// Every vertex of `p` bound to `joint` alone.
void bind_to(Prim& p, uint16_t joint) {
  for (size_t v = 0; v < p.vertex_count(); ++v) {
    p.joints.insert(p.joints.end(), {joint, 0, 0, 0});
    p.weights.insert(p.weights.end(), {1, 0, 0, 0});
  }
}

// The body: a sphere stretched to an ellipsoid (semi-axes 0.35, 0.7, 0.3) around the spine,
// weights root → spine from y = 0.45 to 1.05.
Prim body(int material) {
  Prim p = rig::fidelity::sphere(0, 0, 0, 1.0f, 24, 32, material);
  const float a[3] = {0.35f, 0.7f, 0.3f};
  for (size_t v = 0; v < p.vertex_count(); ++v) {
    float* pos = &p.positions[v * 3];
    float* n = &p.normals[v * 3];
    float len = 0;
    for (int k = 0; k < 3; ++k) {
      pos[k] *= a[k];
      n[k] /= a[k];  // an ellipsoid's normal: the gradient of Σ (x_k / a_k)²
      len += n[k] * n[k];
    }
    for (int k = 0; k < 3; ++k) n[k] /= std::sqrt(len);
    pos[1] += kSpineY;
    const float w = std::fmin(1.0f, std::fmax(0.0f, (pos[1] - 0.45f) / 0.6f));
    p.joints.insert(p.joints.end(), {0, uint16_t(w > 0 ? 1 : 0), 0, 0});  // no joint at weight 0
    p.weights.insert(p.weights.end(), {1.0f - w, w, 0, 0});
  }
  p.tangents.clear();
  return p;
}

// One hair card hanging from the crown: `length` long, 0.16 wide, turned `angle` about Y and
// tilted outwards, facing away from the head.
Prim hair_card(float angle, float length, int material) {
  Prim p = rig::fidelity::square(0, 0, 0, 0.5f, material, 2);
  const float s = std::sin(angle), c = std::cos(angle), tilt = 0.35f;
  for (size_t v = 0; v < p.vertex_count(); ++v) {
    float* pos = &p.positions[v * 3];
    const float x = pos[0] * 0.16f, down = (0.5f - pos[1]) * length;  // 0 at the top edge
    // Local frame: x across the card, y down the card tilted out by `tilt`, z the card normal.
    const float y = 2.0f - down * std::cos(tilt), out = 0.27f + down * std::sin(tilt);
    pos[0] = x * c + out * s;
    pos[1] = y;
    pos[2] = -x * s + out * c;
    float* n = &p.normals[v * 3];
    n[0] = s, n[1] = 0, n[2] = c;
  }
  p.tangents.clear();
  return p;
}

}  // namespace

void generated_character(Doc& doc) {
  doc.uses("KHR_materials_emissive_strength");
  const auto hair_tex = rig::fidelity::hair_texture();
  const auto lash_tex = rig::fidelity::lash_texture();
  const int hair_t = doc.texture(hair_tex.rgba, hair_tex.width, hair_tex.height);
  const int lash_t = doc.texture(lash_tex.rgba, lash_tex.width, lash_tex.height);
  const int skin_mat = doc.material(
      "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.55,0.45,1],\"metallicFactor\":0,"
      "\"roughnessFactor\":0.55}}");
  const int cloth_mat = doc.material(
      "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.25,0.35,0.6,1],\"metallicFactor\":0.1,"
      "\"roughnessFactor\":0.8}}");
  const int eye_mat = doc.material(
      "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.05,0.05,0.05,1],\"metallicFactor\":0,"
      "\"roughnessFactor\":0.2},\"emissiveFactor\":[0.2,0.7,1.0],\"extensions\":{"
      "\"KHR_materials_emissive_strength\":{\"emissiveStrength\":1.5}}}");
  const int hair_mat = doc.material(
      "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":" + std::to_string(hair_t) +
      "},\"metallicFactor\":0,\"roughnessFactor\":0.5},\"alphaMode\":\"MASK\",\"alphaCutoff\":0.4,"
      "\"doubleSided\":true}");
  const int lash_mat = doc.material(
      "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":" + std::to_string(lash_t) +
      "},\"metallicFactor\":0,\"roughnessFactor\":0.6},\"alphaMode\":\"BLEND\","
      "\"doubleSided\":true}");

  Prim torso = body(cloth_mat);
  Prim head = rig::fidelity::sphere(0, kHeadY + 0.17f, 0, 0.28f, 24, 32, skin_mat);
  head.tangents.clear();
  bind_to(head, 2);
  Prim eyes = rig::fidelity::sphere(-0.1f, kHeadY + 0.2f, 0.245f, 0.05f, 10, 14, eye_mat);
  eyes.append(rig::fidelity::sphere(0.1f, kHeadY + 0.2f, 0.245f, 0.05f, 10, 14, eye_mat));
  eyes.tangents.clear();
  bind_to(eyes, 2);
  Prim hair;
  hair.material = hair_mat;
  for (int i = 0; i < 12; ++i) {
    const float angle = 2.0f * kPi * float(i) / 12.0f;
    const bool front = i <= 1 || i >= 11;
    hair.append(hair_card(angle, front ? 0.16f : 0.5f, hair_mat));
  }
  bind_to(hair, 2);
  Prim lashes = rig::fidelity::square(-0.1f, kHeadY + 0.245f, 0.3f, 0.07f, lash_mat, 1);
  lashes.append(rig::fidelity::square(0.1f, kHeadY + 0.245f, 0.3f, 0.07f, lash_mat, 1));
  for (size_t v = 0; v < lashes.vertex_count(); ++v) {
    float& y = lashes.positions[v * 3 + 1];
    y = kHeadY + 0.245f + (y - kHeadY - 0.245f) * 0.3f;  // a thin row
  }
  lashes.tangents.clear();
  bind_to(lashes, 2);

  // Joints: Root (0) at the origin, Spine (1) at y 0.75, Head (2) at y 1.55; the skinned mesh
  // node (3) beside them. Inverse bind matrices undo those translations (column-major).
  doc.node("{\"name\":\"Root\",\"children\":[1]}");
  doc.node("{\"name\":\"Spine\",\"translation\":[0," + num(kSpineY) + ",0],\"children\":[2]}",
           false);
  doc.node("{\"name\":\"Head\",\"translation\":[0," + num(kHeadY - kSpineY) + ",0]}", false);
  std::vector<float> ibm;
  for (float y : {0.0f, kSpineY, kHeadY})
    ibm.insert(ibm.end(), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1});
  const int ibm_accessor = doc.floats(ibm, 16, false, "MAT4");
  const int skin = doc.skin("{\"joints\":[0,1,2],\"skeleton\":0,\"inverseBindMatrices\":" +
                            std::to_string(ibm_accessor) + "}");
  const int mesh = doc.mesh({torso, head, eyes, hair, lashes});
  doc.node("{\"name\":\"Character\",\"mesh\":" + std::to_string(mesh) +
           ",\"skin\":" + std::to_string(skin) + "}");

  // "Sway": the spine about Z 0° → 25° → −10°, the head about X 0° → −20° → 15°.
  const int times = doc.floats({0.0f, 0.5f, 1.0f}, 1, true);
  auto rotations = [&](int axis, std::vector<float> degrees) {
    std::vector<float> q;
    for (float d : degrees) {
      const float h = d * kPi / 360.0f;
      float xyzw[4] = {0, 0, 0, std::cos(h)};
      xyzw[axis] = std::sin(h);
      q.insert(q.end(), xyzw, xyzw + 4);
    }
    return doc.floats(q, 4);
  };
  const int spine = rotations(2, {0, 25, -10}), nod = rotations(0, {0, -20, 15});
  doc.animation(
      "{\"name\":\"Sway\",\"samplers\":[{\"input\":" + std::to_string(times) + ",\"output\":" +
      std::to_string(spine) + ",\"interpolation\":\"LINEAR\"},{\"input\":" + std::to_string(times) +
      ",\"output\":" + std::to_string(nod) +
      ",\"interpolation\":\"LINEAR\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,"
      "\"path\":\"rotation\"}},{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"rotation\"}}]}");
}
