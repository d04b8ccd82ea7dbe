// The one glTF document writer: a file's own document and buffers, a list of edits
// (write/document_edit.h), and the result written atomically (write/atomic_file.h) as GLB, or as
// a self-contained .gltf when the output's name ends in ".gltf". Everything the edits do not
// name (nodes, meshes, materials, images, extensions, extras, unused accessors) stays as it was.
//
// SourceDocument::open reads the file through the importer's loader (import/gltf_file.h: the
// same URI rules and caps, without --confine) and makes it self-contained, so the copy can be
// written anywhere: every buffer's bytes go into buffer 0 (a GLB's binary chunk; each further
// buffer appended 16-byte aligned, its bufferViews moved with it), and every image file (PNG or
// JPEG) goes into a bufferView of it; data: URIs and images of other kinds keep their URIs. A
// .gltf output embeds buffer 0 as a base64 data: URI: one file, so the write stays atomic, and
// nothing refers to files beside the input.
//
// Members the glTF schema does not define (which tinygltf drops) are taken from the file's JSON
// and written back into the same objects (write/unknown_members.h).
//
// The input is read whole before anything is written, so the output may be the input itself;
// the writer writes nothing but the requested output (and its temporary beside it).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "write/atomic_file.h"
#include "write/document_edit.h"
#include "write/unknown_members.h"

namespace tinygltf {
class Model;
}

namespace rig::write {

// How save() encodes the document.
enum class OutputFormat {
  ByExtension,  // a self-contained .gltf for a name ending in ".gltf", else GLB
  Glb,          // GLB whatever the name (--optimize-animations has always written GLB)
};

struct DocumentWriteOptions {
  // New accessors equal to one already written by the same edits are that one.
  bool share_equal_accessors = true;
  // Also drop the bufferViews the file itself left unused (else only those the edits orphaned).
  bool drop_unused_buffer_views = false;
  AtomicWriteOptions file;
};

class SourceDocument {
 public:
  SourceDocument();
  ~SourceDocument();
  SourceDocument(SourceDocument&&) noexcept;
  SourceDocument& operator=(SourceDocument&&) noexcept;

  // Reads `path` and makes it self-contained (above). False with a one-line `error`.
  bool open(const std::string& path, std::string& error);
  // Applies the edits (write/edit_job.h). False with a one-line `error`; nothing changed then.
  bool apply(std::span<const DocumentEdit> edits, const DocumentWriteOptions& options,
             std::string& error);
  // Serializes (GLB, or .gltf by `out_path`'s extension unless `format` says GLB) and writes
  // atomically. False with a one-line `error` naming the file; no partial output.
  bool save(const std::string& out_path, std::string& error, const AtomicWriteOptions& file = {},
            OutputFormat format = OutputFormat::ByExtension) const;

  // What the written copy will lack that the file had (one line each): KHR_animation_pointer
  // channels, which the document model cannot hold (tinygltf drops channels without a node).
  const std::vector<std::string>& warnings() const { return warnings_; }

  tinygltf::Model& gltf() { return *document_; }
  const tinygltf::Model& gltf() const { return *document_; }

 private:
  std::unique_ptr<tinygltf::Model> document_;
  // The file's unknown members (write/unknown_members.h), put back by save(), and the arrays
  // whose indices the applied edits may have moved (their members are then left out).
  std::vector<UnknownMember> unknown_;
  std::vector<std::string> moved_arrays_;
  std::vector<std::string> warnings_;
};

// open + apply + save. `warnings`, when given, receives SourceDocument::warnings() (each naming
// the input), for the caller to show.
bool write_document(const std::string& in_path, std::span<const DocumentEdit> edits,
                    const std::string& out_path, std::string& error,
                    const DocumentWriteOptions& options = {},
                    std::vector<std::string>* warnings = nullptr);

// Whether `path` names a .gltf (JSON) output: its extension, case-insensitive. Anything else is
// written as GLB.
bool writes_json_gltf(const std::string& path);

}  // namespace rig::write
