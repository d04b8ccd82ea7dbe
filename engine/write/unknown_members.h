// Members of a glTF document's objects that the glTF 2.0 schema does not define ("unknown
// fields"): tinygltf drops them when it reads a file, so the document writer takes them from
// the file's JSON text and puts them back into the JSON it writes, verbatim, in the same object.
//
// Objects covered: the document itself, `asset`, every element of the top-level arrays
// (accessors, animations, buffers, bufferViews, cameras, images, materials, meshes, nodes,
// samplers, scenes, skins, textures) and of `meshes[i].primitives`, `animations[i].channels` and
// `animations[i].samplers`. Deeper objects (a material's texture references, an accessor's
// sparse part) are not. Extensions and extras are tinygltf's and are not unknown members.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rig::write {

struct UnknownMember {
  std::string object;  // "" the document, "asset", "nodes/3", "meshes/0/primitives/1", ...
  std::string name;    // the member's name as written (a JSON string's contents)
  std::string value;   // its value's JSON text, as in the file
};

// The unknown members of `json` (a glTF document's JSON text), in file order. Empty for text
// that is not a JSON object.
std::vector<UnknownMember> find_unknown_members(std::string_view json);

// `json` with each member added as the last member of its object (objects `json` lacks, and
// objects under `skip_arrays` such as "bufferViews", are left out). Unchanged without members.
std::string insert_unknown_members(const std::string& json,
                                   const std::vector<UnknownMember>& members,
                                   const std::vector<std::string>& skip_arrays = {});

}  // namespace rig::write
