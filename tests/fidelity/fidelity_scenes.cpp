// The fidelity suite's generated scenes: one glTF per material feature rigview renders in the
// reference scene, and a skinned character with hair cards (MASK) and eyelashes (BLEND).
//
//   rig_fidelity_scenes OUT_DIR
//
// writes OUT_DIR/NAME.gltf for every scene and OUT_DIR/scenes.json, the list the three.js side
// and the ctest driver read: [{"name", "model", "clip" (-1: rest pose), "time"}].
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "fidelity_gltf.h"
#include "fidelity_textures.h"

namespace {

using rig::fidelity::Doc;
using rig::fidelity::num;
using rig::fidelity::Prim;
using rig::fidelity::sphere;
using rig::fidelity::square;
using rig::fidelity::Texels;

int texture(Doc& doc, const Texels& t, const std::string& sampler = "") {
  return doc.texture(t.rgba, t.width, t.height, sampler);
}

std::string rgba(float r, float g, float b, float a = 1.0f) {
  return "[" + num(r) + "," + num(g) + "," + num(b) + "," + num(a) + "]";
}

// A metallic-roughness material; `pbr` and `rest` are extra members (each starting with ",")
// of pbrMetallicRoughness and of the material.
std::string pbr(const std::string& base, float metal, float rough, const std::string& pbr = "",
                const std::string& rest = "") {
  return "{\"pbrMetallicRoughness\":{\"baseColorFactor\":" + base +
         ",\"metallicFactor\":" + num(metal) + ",\"roughnessFactor\":" + num(rough) + pbr + "}" +
         rest + "}";
}

std::string tex(int index, const std::string& extra = "") {
  return "{\"index\":" + std::to_string(index) + extra + "}";
}

// Each primitive as its own node at the origin (BLEND sorts per object, by origin depth, so
// layered transparent objects get their own translated nodes where order matters).
void add_meshes(Doc& doc, const std::vector<Prim>& prims) {
  for (const Prim& p : prims) doc.node("{\"mesh\":" + std::to_string(doc.mesh({p})) + "}");
}

// ---- Material features ----------------------------------------------------------------------

void metal_rough_sweep(Doc& doc) {
  std::vector<Prim> prims;
  for (int m = 0; m < 4; ++m)
    for (int r = 0; r < 4; ++r) {
      const int mat =
          doc.material(pbr(rgba(0.85f, 0.35f, 0.2f), float(m) / 3.0f, 0.08f + 0.3f * float(r)));
      prims.push_back(sphere(float(r) - 1.5f, 1.5f - float(m), 0, 0.42f, 20, 28, mat));
    }
  add_meshes(doc, prims);
}

void dielectric_colours(Doc& doc) {
  static const float kColours[6][3] = {{1, 1, 1},          {0.5f, 0.5f, 0.5f},
                                       {0.9f, 0.1f, 0.1f}, {0.1f, 0.8f, 0.2f},
                                       {0.1f, 0.2f, 0.9f}, {0.05f, 0.05f, 0.05f}};
  std::vector<Prim> prims;
  for (int i = 0; i < 6; ++i) {
    const float* k = kColours[i];
    const int mat = doc.material(pbr(rgba(k[0], k[1], k[2]), 0.0f, i % 2 ? 0.25f : 0.6f));
    prims.push_back(sphere(float(i % 3) - 1.0f, i < 3 ? 0.55f : -0.55f, 0, 0.45f, 20, 28, mat));
  }
  add_meshes(doc, prims);
}

void base_color_texture(Doc& doc) {
  const int t = texture(doc, rig::fidelity::checker_texture());
  const int plain = doc.material(pbr(rgba(1, 1, 1), 0.0f, 0.5f, ",\"baseColorTexture\":" + tex(t)));
  const int tinted =
      doc.material(pbr(rgba(0.6f, 0.9f, 1.0f), 0.3f, 0.35f, ",\"baseColorTexture\":" + tex(t)));
  add_meshes(doc, {sphere(-0.6f, 0, 0, 0.5f, 24, 32, plain), square(0.6f, 0, 0, 0.5f, tinted)});
}

void metal_rough_texture(Doc& doc) {
  const int t = texture(doc, rig::fidelity::metal_rough_texture());
  const int mat = doc.material(
      pbr(rgba(0.9f, 0.75f, 0.4f), 1.0f, 1.0f, ",\"metallicRoughnessTexture\":" + tex(t)));
  add_meshes(doc, {sphere(-0.6f, 0, 0, 0.5f, 24, 32, mat), square(0.6f, 0, 0, 0.5f, mat)});
}

// The bump normal map on a sphere (scale 1) and a square (scale 0.5), with or without TANGENT.
// The TANGENT frames are turned away from the UV directions on purpose (the sphere's by 90°
// about its normal, the square's by 45°), as a file's tangents may be: a renderer that builds
// the frame from the UVs instead of reading TANGENT then shades the bumps visibly differently.
void normal_map(Doc& doc, bool tangents) {
  const int t = texture(doc, rig::fidelity::bump_normal_texture());
  const int full =
      doc.material(pbr(rgba(0.7f, 0.7f, 0.75f), 0.0f, 0.35f, "", ",\"normalTexture\":" + tex(t)));
  const int half = doc.material(pbr(rgba(0.8f, 0.6f, 0.4f), 0.5f, 0.3f, "",
                                    ",\"normalTexture\":" + tex(t, ",\"scale\":0.5")));
  Prim ball = sphere(-0.6f, 0, 0, 0.5f, 32, 48, full), quad = square(0.6f, 0, 0, 0.5f, half);
  if (!tangents) {
    ball.tangents.clear(), quad.tangents.clear();
  } else {
    for (size_t v = 0; v < ball.vertex_count(); ++v) {
      const float* n = &ball.normals[v * 3];
      float* t4 = &ball.tangents[v * 4];
      const float turned[3] = {n[1] * t4[2] - n[2] * t4[1], n[2] * t4[0] - n[0] * t4[2],
                               n[0] * t4[1] - n[1] * t4[0]};  // N × T: T turned 90° about N
      for (int k = 0; k < 3; ++k) t4[k] = turned[k];
    }
    for (size_t v = 0; v < quad.vertex_count(); ++v) {
      quad.tangents[v * 4] = 0.70710678f;
      quad.tangents[v * 4 + 1] = 0.70710678f;
    }
  }
  add_meshes(doc, {ball, quad});
}

void occlusion(Doc& doc) {
  const int t = texture(doc, rig::fidelity::occlusion_texture());
  const int full =
      doc.material(pbr(rgba(0.9f, 0.9f, 0.9f), 0.0f, 0.7f, "", ",\"occlusionTexture\":" + tex(t)));
  const int half = doc.material(pbr(rgba(0.9f, 0.9f, 0.9f), 0.0f, 0.7f, "",
                                    ",\"occlusionTexture\":" + tex(t, ",\"strength\":0.5")));
  // Seen from +Z with the light from (2, 4, 5): a square facing away from the light shows the
  // ambient term (where occlusion acts) best.
  Prim back = square(0.6f, 0, 0, 0.5f, half);
  add_meshes(doc, {sphere(-0.6f, 0, 0, 0.5f, 24, 32, full), back});
}

void emissive(Doc& doc) {
  doc.uses("KHR_materials_emissive_strength");
  const int t = texture(doc, rig::fidelity::emissive_texture());
  const int factor = doc.material(
      pbr(rgba(0.2f, 0.2f, 0.2f), 0.0f, 0.6f, "", ",\"emissiveFactor\":[0.6,0.2,0.05]"));
  const int textured =
      doc.material(pbr(rgba(0.1f, 0.1f, 0.3f), 0.0f, 0.5f, "",
                       ",\"emissiveFactor\":[1,1,1],\"emissiveTexture\":" + tex(t)));
  const int strong = doc.material(
      pbr(rgba(0.05f, 0.05f, 0.05f), 0.0f, 0.5f, "",
          ",\"emissiveFactor\":[0.1,0.25,0.05],\"extensions\":{\"KHR_materials_emissive_strength\":"
          "{\"emissiveStrength\":3.5}}"));
  add_meshes(doc,
             {sphere(-1.1f, 0, 0, 0.5f, 20, 28, factor), sphere(0, 0, 0, 0.5f, 24, 32, textured),
              sphere(1.1f, 0, 0, 0.5f, 20, 28, strong)});
}

// Two MASK squares over the alpha gradient (cutoff default and 0.25) in front of an opaque
// sphere that shows through where fragments are discarded.
void mask(Doc& doc) {
  const int t = texture(doc, rig::fidelity::alpha_gradient_texture());
  const int half = doc.material(
      pbr(rgba(1, 1, 1), 0.0f, 0.5f, ",\"baseColorTexture\":" + tex(t), ",\"alphaMode\":\"MASK\""));
  const int quarter = doc.material(pbr(rgba(1, 1, 1), 0.0f, 0.5f, ",\"baseColorTexture\":" + tex(t),
                                       ",\"alphaMode\":\"MASK\",\"alphaCutoff\":0.25"));
  const int ball = doc.material(pbr(rgba(0.2f, 0.4f, 0.8f), 0.0f, 0.4f));
  add_meshes(doc, {sphere(0, 0, -0.6f, 0.7f, 24, 32, ball), square(-0.55f, 0.55f, 0.2f, 0.5f, half),
                   square(0.55f, -0.55f, 0.2f, 0.5f, quarter)});
}

// Three BLEND squares at different depths overlapping each other and an opaque sphere, each
// in its own node (the reference sorts per object by origin depth), plus a textured BLEND
// square whose alpha varies.
void blend_layers(Doc& doc) {
  const int t = texture(doc, rig::fidelity::alpha_gradient_texture());
  const int ball = doc.material(pbr(rgba(0.9f, 0.85f, 0.8f), 0.0f, 0.5f));
  add_meshes(doc, {sphere(0, 0, -0.3f, 0.55f, 24, 32, ball)});
  static const float kLayers[3][6] = {{0.9f, 0.1f, 0.1f, 0.5f, -0.35f, 0.25f},
                                      {0.1f, 0.8f, 0.2f, 0.6f, 0.0f, 0.5f},
                                      {0.1f, 0.2f, 0.9f, 0.4f, 0.35f, 0.75f}};
  for (const auto& l : kLayers) {
    const int mat =
        doc.material(pbr(rgba(l[0], l[1], l[2], l[3]), 0.0f, 0.5f, "", ",\"alphaMode\":\"BLEND\""));
    const int mesh = doc.mesh({square(0, 0, 0, 0.45f, mat)});
    doc.node("{\"mesh\":" + std::to_string(mesh) + ",\"translation\":[" + num(l[4]) + "," +
             num(l[4]) + "," + num(l[5]) + "]}");
  }
  const int graded = doc.material(pbr(rgba(1, 1, 1), 0.0f, 0.5f, ",\"baseColorTexture\":" + tex(t),
                                      ",\"alphaMode\":\"BLEND\""));
  const int mesh = doc.mesh({square(0, 0, 0, 0.3f, graded)});
  doc.node("{\"mesh\":" + std::to_string(mesh) + ",\"translation\":[0.7,-0.7,1.0]}");
}

// Open tubes tilted towards the camera: the double-sided one shows its inside (normals
// flipped), the single-sided one only its outside.
void double_sided(Doc& doc) {
  const int two =
      doc.material(pbr(rgba(0.9f, 0.6f, 0.2f), 0.0f, 0.4f, "", ",\"doubleSided\":true"));
  const int one = doc.material(pbr(rgba(0.2f, 0.6f, 0.9f), 0.0f, 0.4f));
  const int m_two = doc.mesh({rig::fidelity::tube(0, 0, -0.6f, 0.6f, 0.4f, 32, two)});
  const int m_one = doc.mesh({rig::fidelity::tube(0, 0, -0.6f, 0.6f, 0.4f, 32, one)});
  // 50° about X: the top opening faces the camera (and the light).
  const std::string tilt = ",\"rotation\":[0.42261826,0,0,0.90630779]";
  doc.node("{\"mesh\":" + std::to_string(m_two) + ",\"translation\":[-0.55,0,0]" + tilt + "}");
  doc.node("{\"mesh\":" + std::to_string(m_one) + ",\"translation\":[0.55,0,0]" + tilt + "}");
}

void texture_transform(Doc& doc) {
  doc.uses("KHR_texture_transform");
  const int t = texture(doc, rig::fidelity::checker_texture());
  const std::string kinds[4] = {"{\"offset\":[0.25,0.125]}",
                                "{\"rotation\":0.5235988,\"scale\":[1.5,0.75]}",
                                "{\"offset\":[0.1,0.3],\"rotation\":1.5707963,\"scale\":[2,2]}",
                                "{\"texCoord\":1,\"scale\":[0.5,0.5]}"};
  std::vector<Prim> prims;
  for (int i = 0; i < 4; ++i) {
    const int mat = doc.material(
        pbr(rgba(1, 1, 1), 0.0f, 0.6f,
            ",\"baseColorTexture\":" +
                tex(t, ",\"extensions\":{\"KHR_texture_transform\":" + kinds[i] + "}")));
    Prim q = square(i % 2 ? 0.55f : -0.55f, i < 2 ? 0.55f : -0.55f, 0, 0.5f, mat);
    // TEXCOORD_1 (read through the transform's texCoord override): u and v swapped.
    for (size_t v = 0; v < q.uv0.size(); v += 2)
      q.uv1.insert(q.uv1.end(), {q.uv0[v + 1], q.uv0[v]});
    prims.push_back(q);
  }
  add_meshes(doc, prims);
}

// Base colour on TEXCOORD_1 (a rotated, scaled copy of TEXCOORD_0) and occlusion on
// TEXCOORD_0, on a sphere and a square.
void texcoord1(Doc& doc) {
  const int checker = texture(doc, rig::fidelity::checker_texture());
  const int occ = texture(doc, rig::fidelity::occlusion_texture());
  const int mat = doc.material(pbr(rgba(1, 1, 1), 0.0f, 0.5f,
                                   ",\"baseColorTexture\":" + tex(checker, ",\"texCoord\":1"),
                                   ",\"occlusionTexture\":" + tex(occ)));
  std::vector<Prim> prims = {sphere(-0.6f, 0, 0, 0.5f, 24, 32, mat), square(0.6f, 0, 0, 0.5f, mat)};
  for (Prim& p : prims)
    for (size_t v = 0; v < p.uv0.size(); v += 2)
      p.uv1.insert(p.uv1.end(), {2.0f * p.uv0[v + 1], 1.0f - p.uv0[v]});
  add_meshes(doc, prims);
}

// COLOR_0 (RGBA, alpha ignored by OPAQUE) times a base colour factor on a sphere; a square
// with vertex colours and a textured base colour.
void vertex_colors(Doc& doc) {
  const int t = texture(doc, rig::fidelity::checker_texture());
  const int plain = doc.material(pbr(rgba(1, 0.9f, 0.8f), 0.0f, 0.45f));
  const int textured =
      doc.material(pbr(rgba(1, 1, 1), 0.0f, 0.6f, ",\"baseColorTexture\":" + tex(t)));
  Prim ball = sphere(-0.6f, 0, 0, 0.5f, 24, 32, plain), quad = square(0.6f, 0, 0, 0.5f, textured);
  for (Prim* p : {&ball, &quad})
    for (size_t v = 0; v < p->uv0.size(); v += 2) {
      const float u = p->uv0[v], w = p->uv0[v + 1];
      p->colors.insert(p->colors.end(), {u, 1.0f - w, 0.5f + 0.5f * std::sin(6.0f * u), 0.5f});
    }
  add_meshes(doc, {ball, quad});
}

void unlit(Doc& doc) {
  doc.uses("KHR_materials_unlit");
  const int t = texture(doc, rig::fidelity::checker_texture());
  const std::string ext = ",\"extensions\":{\"KHR_materials_unlit\":{}}";
  const int plain = doc.material(pbr(rgba(0.2f, 0.6f, 0.9f), 0.0f, 1.0f, "", ext));
  const int textured =
      doc.material(pbr(rgba(1, 1, 1), 0.0f, 1.0f, ",\"baseColorTexture\":" + tex(t), ext));
  Prim quad = square(0.6f, 0, 0, 0.5f, textured);
  for (size_t v = 0; v < quad.uv0.size(); v += 2)
    quad.colors.insert(quad.colors.end(), {1.0f, 1.0f - 0.5f * quad.uv0[v], 1.0f, 1.0f});
  add_meshes(doc, {sphere(-0.6f, 0, 0, 0.5f, 24, 32, plain), quad});
}

// Without NORMAL: flat shading from the position's derivatives; a coarse sphere shows facets.
void flat_normals(Doc& doc) {
  const int mat = doc.material(pbr(rgba(0.8f, 0.5f, 0.3f), 0.2f, 0.4f));
  Prim ball = sphere(-0.6f, 0, 0, 0.5f, 8, 12, mat), quad = square(0.6f, 0, 0, 0.5f, mat);
  ball.normals.clear(), quad.normals.clear();
  ball.tangents.clear(), quad.tangents.clear();
  add_meshes(doc, {ball, quad});
}

// A primitive without a material (glTF's default: white, metallic 1, roughness 1) beside a
// white dielectric.
void default_material(Doc& doc) {
  const int white = doc.material(pbr(rgba(1, 1, 1), 0.0f, 1.0f));
  add_meshes(doc, {sphere(-0.6f, 0, 0, 0.5f, 24, 32, -1), sphere(0.6f, 0, 0, 0.5f, 24, 32, white)});
}

// Sampler wraps and filters with UVs over 0..2.5: repeat + nearest, clamp, mirrored repeat.
void samplers(Doc& doc) {
  const Texels checker = rig::fidelity::checker_texture();
  const std::string kSamplers[3] = {"{\"magFilter\":9728,\"minFilter\":9728}",
                                    "{\"wrapS\":33071,\"wrapT\":33071}",
                                    "{\"wrapS\":33648,\"wrapT\":33648,\"minFilter\":9729}"};
  std::vector<Prim> prims;
  for (int i = 0; i < 3; ++i) {
    const int t = texture(doc, checker, kSamplers[i]);
    const int mat = doc.material(pbr(rgba(1, 1, 1), 0.0f, 0.7f, ",\"baseColorTexture\":" + tex(t)));
    Prim q = square(float(i) * 1.05f - 1.05f, 0, 0, 0.5f, mat);
    for (float& uv : q.uv0) uv = uv * 2.5f - 0.25f;
    prims.push_back(q);
  }
  add_meshes(doc, prims);
}

// KHR_materials_ior and KHR_materials_specular (three.js: MeshPhysicalMaterial).
void ior_specular(Doc& doc) {
  doc.uses("KHR_materials_ior");
  doc.uses("KHR_materials_specular");
  const int ior = doc.material(pbr(rgba(0.3f, 0.5f, 0.8f), 0.0f, 0.3f, "",
                                   ",\"extensions\":{\"KHR_materials_ior\":{\"ior\":1.8}}"));
  const int spec =
      doc.material(pbr(rgba(0.8f, 0.4f, 0.3f), 0.0f, 0.3f, "",
                       ",\"extensions\":{\"KHR_materials_specular\":{\"specularFactor\":0.4,"
                       "\"specularColorFactor\":[1,0.6,0.3]}}"));
  const int both = doc.material(
      pbr(rgba(0.5f, 0.8f, 0.4f), 0.3f, 0.25f, "",
          ",\"extensions\":{\"KHR_materials_ior\":{\"ior\":1.3},\"KHR_materials_specular\":{"
          "\"specularFactor\":0.8}}"));
  add_meshes(doc, {sphere(-1.1f, 0, 0, 0.5f, 24, 32, ior), sphere(0, 0, 0, 0.5f, 24, 32, spec),
                   sphere(1.1f, 0, 0, 0.5f, 24, 32, both)});
}

}  // namespace

void generated_character(Doc& doc);  // fidelity_character.cpp

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rig_fidelity_scenes OUT_DIR\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::error_code error;
  std::filesystem::create_directories(out, error);
  struct Scene {
    const char* name;
    std::function<void(Doc&)> build;
    std::vector<std::pair<int, float>> poses;  // (clip, time); clip -1: rest pose
  };
  const std::vector<std::pair<int, float>> rest = {{-1, 0.0f}};
  const std::vector<Scene> scenes = {
      {"metal_rough_sweep", metal_rough_sweep, rest},
      {"dielectric_colours", dielectric_colours, rest},
      {"base_color_texture", base_color_texture, rest},
      {"metal_rough_texture", metal_rough_texture, rest},
      {"normal_map_derivative_tangents", [](Doc& d) { normal_map(d, false); }, rest},
      {"normal_map_tangent_attribute", [](Doc& d) { normal_map(d, true); }, rest},
      {"occlusion", occlusion, rest},
      {"emissive_strength", emissive, rest},
      {"alpha_mask", mask, rest},
      {"alpha_blend_layers", blend_layers, rest},
      {"double_sided", double_sided, rest},
      {"texture_transform", texture_transform, rest},
      {"texcoord1", texcoord1, rest},
      {"vertex_colors", vertex_colors, rest},
      {"unlit", unlit, rest},
      {"flat_normals", flat_normals, rest},
      {"default_material", default_material, rest},
      {"samplers", samplers, rest},
      {"ior_specular", ior_specular, rest},
      {"character_hair_lashes", generated_character, {{-1, 0.0f}, {0, 0.37f}, {0, 0.81f}}},
  };
  std::string list = "[";
  for (const Scene& s : scenes) {
    Doc doc;
    s.build(doc);
    const std::filesystem::path file = out / (std::string(s.name) + ".gltf");
    std::ofstream(file) << doc.json();
    for (const auto& [clip, time] : s.poses) {
      std::string name = s.name;
      char when[32];
      std::snprintf(when, sizeof when, "_clip%d_t%.2f", clip, double(time));
      if (clip >= 0)
        name += when;
      else if (s.poses.size() > 1)
        name += "_rest";
      list += std::string(list.size() > 1 ? ",\n" : "\n") + "{\"name\":\"" + name +
              "\",\"model\":\"" + file.string() + "\",\"clip\":" + std::to_string(clip) +
              ",\"time\":" + num(time) + "}";
    }
  }
  std::ofstream(out / "scenes.json") << list << "\n]\n";
  if (!std::ofstream(out / "scenes.json", std::ios::app)) {
    std::fprintf(stderr, "rig_fidelity_scenes: error: %s: cannot be written\n", out.c_str());
    return 1;
  }
  return 0;
}
