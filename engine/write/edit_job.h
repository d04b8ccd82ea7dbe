// Applies a list of DocumentEdits (write/document_edit.h) to a tinygltf document in memory, as
// a job: validate() checks every edit against the document and changes nothing; run() applies
// them.
//
// What run() does beyond the edits themselves, so the document stays valid and nothing else
// moves:
//   * new accessors go to buffer 0, each in its own bufferView (4-byte aligned; vertex
//     attributes' views targeted ARRAY_BUFFER); with share_equal_accessors, a new accessor equal
//     to one this run already wrote (type, contents, bounds, view target) is that one;
//   * the accessors an edit stopped using (a replaced or removed clip's, a replaced influence
//     set's, a replaced inverse-bind-matrix accessor) keep their index, so no index elsewhere
//     changes, but lose their data (no bufferView: zeros, as glTF allows) unless something still
//     uses them;
//   * the bufferViews that loses (used before the edits, by nothing after) are dropped and
//     buffer 0 repacked (views 16-byte aligned, in order); with drop_unused_buffer_views, also
//     those the file itself left unused (the optimizer's output has always been written so).
// Everything else (nodes, materials, images, extensions, extras, unused accessors) is left as it
// was. The document must hold one buffer without a URI (SourceDocument leaves it so).
#pragma once

#include <tiny_gltf.h>

#include <span>
#include <string>

#include "write/document_edit.h"

namespace rig::write {

struct EditOptions {
  bool share_equal_accessors = true;
  bool drop_unused_buffer_views = false;
};

struct DocumentEditJob {
  tinygltf::Model* document = nullptr;
  std::span<const DocumentEdit> edits;
  EditOptions options;

  // One line naming the first edit that cannot be applied and why.
  bool validate(std::string& error) const;
  // validate(), then every edit in order; the document is unchanged when it returns false.
  bool run(std::string& error);
};

// Bytes of the accessors the given animations' samplers use (each accessor once), as stored.
size_t sampler_accessor_bytes(const tinygltf::Model& doc,
                              std::span<const tinygltf::Animation> animations);

}  // namespace rig::write
