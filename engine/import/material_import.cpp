// Materials: the whole glTF 2.0 material (metallic-roughness, normal, occlusion, emissive, alpha
// mode and cutoff, double-sided) with the extensions that change what a material means
// (KHR_texture_transform, KHR_materials_unlit, KHR_materials_emissive_strength,
// KHR_materials_ior, KHR_materials_specular). Dangling
// texture, image and sampler indices and non-finite factors fail the import, as every other
// dangling index does; a malformed extension object is a warning and the spec's default stays.
#include <cmath>

#include "import/import_context.h"

namespace rig::import {
namespace {

bool finite_numbers(const std::vector<double>& values, size_t size) {
  if (values.size() != size) return false;
  for (double v : values)
    if (!std::isfinite(v)) return false;
  return true;
}

// A number of a tinygltf extension object (JSON), false when absent or not a finite number.
bool extension_number(const tinygltf::Value& object, const char* key, double& out) {
  if (!object.IsObject() || !object.Has(key)) return false;
  const tinygltf::Value& value = object.Get(key);
  if (!value.IsNumber()) return false;
  out = value.GetNumberAsDouble();
  return std::isfinite(out);
}

bool extension_vec2(const tinygltf::Value& object, const char* key, glm::vec2& out) {
  if (!object.Has(key)) return true;  // absent: the default stays
  const tinygltf::Value& value = object.Get(key);
  if (!value.IsArray() || value.ArrayLen() != 2) return false;
  for (int c = 0; c < 2; ++c) {
    if (!value.Get(c).IsNumber()) return false;
    const double x = value.Get(c).GetNumberAsDouble();
    if (!std::isfinite(x)) return false;
    out[c] = static_cast<float>(x);
  }
  return true;
}

// KHR_texture_transform on a textureInfo; false when it is there but malformed.
bool read_texture_transform(const tinygltf::ExtensionMap& extensions, TextureRef& ref) {
  auto it = extensions.find("KHR_texture_transform");
  if (it == extensions.end()) return true;
  const tinygltf::Value& object = it->second;
  if (!object.IsObject()) return false;
  TextureTransform transform;
  if (!extension_vec2(object, "offset", transform.offset) ||
      !extension_vec2(object, "scale", transform.scale)) {
    return false;
  }
  if (object.Has("rotation")) {
    double rotation = 0.0;
    if (!extension_number(object, "rotation", rotation)) return false;
    transform.rotation = static_cast<float>(rotation);
  }
  if (object.Has("texCoord")) {
    const tinygltf::Value& value = object.Get("texCoord");
    if (!value.IsInt() || value.GetNumberAsInt() < 0) return false;
    transform.texcoord = value.GetNumberAsInt();
  }
  ref.has_transform = true;
  ref.transform = transform;
  return true;
}

bool valid_wrap(int wrap) {
  return wrap == kWrapRepeat || wrap == kWrapClampToEdge || wrap == kWrapMirroredRepeat;
}

bool valid_filter(int filter, bool minifying) {
  if (filter == -1 || filter == 9728 || filter == 9729) return true;  // unset, NEAREST, LINEAR
  return minifying && filter >= 9984 && filter <= 9987;               // the mipmapped ones
}

// One textureInfo (index, texCoord, extensions) → TextureRef: texture, image, sampler,
// transform. `slot` names it in messages ("material 2 normalTexture").
bool read_texture(ImportContext& context, int index, int texcoord,
                  const tinygltf::ExtensionMap& extensions, const std::string& slot,
                  TextureRef& ref, std::string& error) {
  if (index < 0) return true;
  const tinygltf::Model& document = context.document;
  if (static_cast<size_t>(index) >= document.textures.size()) {
    error =
        slot + " uses texture " + std::to_string(index) + does_not_exist(document.textures.size());
    return false;
  }
  const tinygltf::Texture& texture = document.textures[static_cast<size_t>(index)];
  const std::string at = "texture " + std::to_string(index);
  if (texture.source >= 0 && static_cast<size_t>(texture.source) >= document.images.size()) {
    error = at + " uses image " + std::to_string(texture.source) +
            does_not_exist(document.images.size());
    return false;
  }
  if (texture.sampler >= 0 && static_cast<size_t>(texture.sampler) >= document.samplers.size()) {
    error = at + " uses sampler " + std::to_string(texture.sampler) +
            does_not_exist(document.samplers.size());
    return false;
  }
  ref.texture = index;
  // source -1: the picture lives in an extension (KTX2, WebP) we do not decode.
  ref.image = texture.source;
  ref.texcoord = texcoord > 0 ? texcoord : 0;
  if (texture.sampler >= 0) {
    const tinygltf::Sampler& sampler = document.samplers[static_cast<size_t>(texture.sampler)];
    const std::string sampler_at = "sampler " + std::to_string(texture.sampler);
    ref.sampler.wrap_s = valid_wrap(sampler.wrapS) ? sampler.wrapS : kWrapRepeat;
    ref.sampler.wrap_t = valid_wrap(sampler.wrapT) ? sampler.wrapT : kWrapRepeat;
    ref.sampler.mag_filter = valid_filter(sampler.magFilter, false) ? sampler.magFilter : -1;
    ref.sampler.min_filter = valid_filter(sampler.minFilter, true) ? sampler.minFilter : -1;
    if (!valid_wrap(sampler.wrapS) || !valid_wrap(sampler.wrapT) ||
        !valid_filter(sampler.magFilter, false) || !valid_filter(sampler.minFilter, true)) {
      context.warnings.add("SAMPLER_INVALID", 1,
                           sampler_at +
                               " has a wrap or filter value glTF does not define "
                               "(the default is used)");
    }
  }
  if (!read_texture_transform(extensions, ref)) {
    context.warnings.add("TEXTURE_TRANSFORM_INVALID", 1,
                         slot +
                             " has a KHR_texture_transform that is not offset [2 numbers], "
                             "rotation (a number), scale [2 numbers], texCoord (>= 0) "
                             "(ignored)");
  }
  return true;
}

// A textureInfo inside an extension object (JSON: index, texCoord, extensions) → TextureRef. A
// malformed one is a warning and leaves the slot empty; a dangling index fails as the core
// slots' do.
bool read_extension_texture(ImportContext& context, const tinygltf::Value& object, const char* key,
                            const std::string& slot, TextureRef& ref, std::string& error) {
  if (!object.Has(key)) return true;
  const tinygltf::Value& info = object.Get(key);
  const bool index_ok = info.IsObject() && info.Has("index") && info.Get("index").IsInt() &&
                        info.Get("index").GetNumberAsInt() >= 0;
  const bool texcoord_ok =
      !info.IsObject() || !info.Has("texCoord") ||
      (info.Get("texCoord").IsInt() && info.Get("texCoord").GetNumberAsInt() >= 0);
  if (!index_ok || !texcoord_ok) {
    context.warnings.add("MATERIAL_EXTENSION_INVALID", 1,
                         slot + " is not a textureInfo {index >= 0, texCoord >= 0} (ignored)");
    return true;
  }
  const int texcoord = info.Has("texCoord") ? info.Get("texCoord").GetNumberAsInt() : 0;
  tinygltf::ExtensionMap extensions;
  if (info.Has("extensions") && info.Get("extensions").IsObject()) {
    const tinygltf::Value& map = info.Get("extensions");
    for (const std::string& name : map.Keys()) extensions[name] = map.Get(name);
  }
  return read_texture(context, info.Get("index").GetNumberAsInt(), texcoord, extensions, slot, ref,
                      error);
}

// KHR_materials_ior and KHR_materials_specular. Out-of-range values are warnings and the
// extension's default stays.
bool read_specular_extensions(ImportContext& context, const tinygltf::Material& source,
                              const std::string& at, Material& material, std::string& error) {
  if (auto it = source.extensions.find("KHR_materials_ior"); it != source.extensions.end()) {
    double ior = 1.5;
    if (it->second.IsObject() && !it->second.Has("ior")) {
      ior = 1.5;
    } else if (!extension_number(it->second, "ior", ior) || (ior != 0.0 && ior < 1.0)) {
      context.warnings.add("MATERIAL_EXTENSION_INVALID", 1,
                           at + " has a KHR_materials_ior ior that is not 0 or a finite number "
                                ">= 1 (1.5 is used)");
      ior = 1.5;
    }
    // 0 is the extension's "infinitely reflective" (as three.js reads it).
    material.ior = ior == 0.0 ? 1000.0f : static_cast<float>(ior);
  }
  auto it = source.extensions.find("KHR_materials_specular");
  if (it == source.extensions.end()) return true;
  const tinygltf::Value& object = it->second;
  if (!object.IsObject()) {
    context.warnings.add("MATERIAL_EXTENSION_INVALID", 1,
                         at + " has a KHR_materials_specular that is not an object (ignored)");
    return true;
  }
  const std::string name = at + " KHR_materials_specular";
  if (object.Has("specularFactor")) {
    double factor = 1.0;
    if (!extension_number(object, "specularFactor", factor) || factor < 0.0) {
      context.warnings.add("MATERIAL_EXTENSION_INVALID", 1,
                           name + " specularFactor is not a finite number >= 0 (1 is used)");
      factor = 1.0;
    }
    material.specular_factor = static_cast<float>(factor);
  }
  if (object.Has("specularColorFactor")) {
    const tinygltf::Value& value = object.Get("specularColorFactor");
    bool ok = value.IsArray() && value.ArrayLen() == 3;
    glm::vec3 color(1.0f);
    for (int c = 0; ok && c < 3; ++c) {
      ok = value.Get(c).IsNumber() && std::isfinite(value.Get(c).GetNumberAsDouble()) &&
           value.Get(c).GetNumberAsDouble() >= 0.0;
      if (ok) color[c] = static_cast<float>(value.Get(c).GetNumberAsDouble());
    }
    if (!ok) {
      context.warnings.add("MATERIAL_EXTENSION_INVALID", 1,
                           name +
                               " specularColorFactor is not 3 finite numbers >= 0 "
                               "([1, 1, 1] is used)");
      color = glm::vec3(1.0f);
    }
    material.specular_color_factor = color;
  }
  return read_extension_texture(context, object, "specularTexture", name + " specularTexture",
                                material.specular, error) &&
         read_extension_texture(context, object, "specularColorTexture",
                                name + " specularColorTexture", material.specular_color, error);
}

bool read_factor(double value, const std::string& at, const char* name, float& out,
                 std::string& error) {
  if (!std::isfinite(value)) {
    error = at + " has a " + name + " that is not finite";
    return false;
  }
  out = static_cast<float>(value);
  return true;
}

bool import_material(ImportContext& context, const tinygltf::Material& source,
                     const std::string& at, Material& material, std::string& error) {
  material.name = source.name;
  material.double_sided = source.doubleSided;
  const tinygltf::PbrMetallicRoughness& pbr = source.pbrMetallicRoughness;
  if (!finite_numbers(pbr.baseColorFactor, 4)) {
    error = at + " has a baseColorFactor that is not 4 finite numbers";
    return false;
  }
  material.base_color_factor = glm::vec4(pbr.baseColorFactor[0], pbr.baseColorFactor[1],
                                         pbr.baseColorFactor[2], pbr.baseColorFactor[3]);
  if (!source.emissiveFactor.empty() && !finite_numbers(source.emissiveFactor, 3)) {
    error = at + " has an emissiveFactor that is not 3 finite numbers";
    return false;
  }
  if (source.emissiveFactor.size() == 3) {
    material.emissive_factor =
        glm::vec3(source.emissiveFactor[0], source.emissiveFactor[1], source.emissiveFactor[2]);
  }
  if (!read_factor(pbr.metallicFactor, at, "metallicFactor", material.metallic_factor, error) ||
      !read_factor(pbr.roughnessFactor, at, "roughnessFactor", material.roughness_factor, error) ||
      !read_factor(source.normalTexture.scale, at, "normalTexture scale", material.normal_scale,
                   error) ||
      !read_factor(source.occlusionTexture.strength, at, "occlusionTexture strength",
                   material.occlusion_strength, error) ||
      !read_factor(source.alphaCutoff, at, "alphaCutoff", material.alpha_cutoff, error)) {
    return false;
  }
  if (source.alphaMode == "MASK") {
    material.alpha_mode = AlphaMode::Mask;
  } else if (source.alphaMode == "BLEND") {
    material.alpha_mode = AlphaMode::Blend;
  } else if (source.alphaMode != "OPAQUE" && !source.alphaMode.empty()) {
    context.warnings.add("ALPHA_MODE_INVALID", 1,
                         at + " has alphaMode '" + source.alphaMode +
                             "' (glTF has OPAQUE, MASK, BLEND; drawn OPAQUE)");
  }
  material.unlit = source.extensions.count("KHR_materials_unlit") > 0;
  if (auto it = source.extensions.find("KHR_materials_emissive_strength");
      it != source.extensions.end()) {
    double strength = 1.0;
    if (it->second.IsObject() && !it->second.Has("emissiveStrength")) {
      strength = 1.0;  // the extension's default
    } else if (!extension_number(it->second, "emissiveStrength", strength) || strength < 0.0) {
      context.warnings.add("EMISSIVE_STRENGTH_INVALID", 1,
                           at + " has a KHR_materials_emissive_strength that is not a finite "
                                "number >= 0 (1 is used)");
      strength = 1.0;
    }
    material.emissive_strength = static_cast<float>(strength);
  }
  if (!read_specular_extensions(context, source, at, material, error)) return false;
  return read_texture(context, pbr.baseColorTexture.index, pbr.baseColorTexture.texCoord,
                      pbr.baseColorTexture.extensions, at, material.base_color, error) &&
         read_texture(context, pbr.metallicRoughnessTexture.index,
                      pbr.metallicRoughnessTexture.texCoord,
                      pbr.metallicRoughnessTexture.extensions, at + " metallicRoughnessTexture",
                      material.metallic_roughness, error) &&
         read_texture(context, source.normalTexture.index, source.normalTexture.texCoord,
                      source.normalTexture.extensions, at + " normalTexture", material.normal,
                      error) &&
         read_texture(context, source.occlusionTexture.index, source.occlusionTexture.texCoord,
                      source.occlusionTexture.extensions, at + " occlusionTexture",
                      material.occlusion, error) &&
         read_texture(context, source.emissiveTexture.index, source.emissiveTexture.texCoord,
                      source.emissiveTexture.extensions, at + " emissiveTexture", material.emissive,
                      error);
}

}  // namespace

bool import_materials(ImportContext& context, std::string& error) {
  const tinygltf::Model& document = context.document;
  context.model.materials.resize(document.materials.size());
  for (size_t m = 0; m < document.materials.size(); ++m) {
    if (!import_material(context, document.materials[m], "material " + std::to_string(m),
                         context.model.materials[m], error)) {
      return false;
    }
  }
  return true;
}

}  // namespace rig::import
