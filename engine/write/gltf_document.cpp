#include "write/gltf_document.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "import/gltf_file.h"
#include "write/edit_job.h"

namespace rig::write {

namespace {

// A URI's %XX escapes decoded (glTF URIs are RFC 3986 references).
std::string percent_decoded(const std::string& uri) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(uint8_t(uri[i + 1])) &&
        std::isxdigit(uint8_t(uri[i + 2]))) {
      out.push_back(char(std::stoi(uri.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(uri[i]);
    }
  }
  return out;
}

// Appends `bytes` to buffer 0 as a new bufferView (4-byte aligned); returns its index.
int append_view(tinygltf::Model& doc, const void* bytes, size_t size) {
  std::vector<unsigned char>& data = doc.buffers[0].data;
  data.resize((data.size() + 3) & ~size_t(3), 0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = data.size();
  view.byteLength = size;
  const auto* p = static_cast<const unsigned char*>(bytes);
  data.insert(data.end(), p, p + size);
  doc.bufferViews.push_back(view);
  return int(doc.bufferViews.size()) - 1;
}

// GLB carries buffer 0 as its binary chunk: every buffer's bytes go there.
void merge_buffers(tinygltf::Model& doc) {
  if (doc.buffers.empty()) doc.buffers.emplace_back();
  if (doc.buffers.size() == 1 && doc.buffers[0].uri.empty()) return;
  for (size_t b = 1; b < doc.buffers.size(); ++b) {
    const size_t base = (doc.buffers[0].data.size() + 15) & ~size_t(15);
    doc.buffers[0].data.resize(base, 0);
    doc.buffers[0].data.insert(doc.buffers[0].data.end(), doc.buffers[b].data.begin(),
                               doc.buffers[b].data.end());
    for (tinygltf::BufferView& v : doc.bufferViews)
      if (v.buffer == int(b)) v.buffer = 0, v.byteOffset += base;
  }
  doc.buffers.resize(1);
  doc.buffers[0].uri.clear();
}

// A copy written elsewhere cannot reach the input's image files by their relative URIs: each one
// is embedded as read (PNG or JPEG, the core formats; a file of another kind keeps its URI), so
// the copy shows what the original showed. data: URIs stay as they are.
bool embed_image_files(tinygltf::Model& doc, const std::string& in_path, std::string& error) {
  const std::filesystem::path folder = std::filesystem::path(in_path).parent_path();
  for (size_t i = 0; i < doc.images.size(); ++i) {
    tinygltf::Image& image = doc.images[i];
    if (image.uri.empty() || image.uri.rfind("data:", 0) == 0) continue;
    std::ifstream in(folder / percent_decoded(image.uri), std::ios::binary);
    if (!in) {
      error = "cannot read image " + std::to_string(i) + " (" + image.uri + ") to embed it";
      return false;
    }
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    const bool png = bytes.size() >= 8 && std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8) == 0;
    const bool jpeg = bytes.size() >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff;
    if (!png && !jpeg) continue;
    image.bufferView = append_view(doc, bytes.data(), bytes.size());
    image.mimeType = png ? "image/png" : "image/jpeg";
    image.uri.clear();
  }
  return true;
}

// The JSON text of a .gltf's bytes, or of a GLB's JSON chunk ("" when there is none).
std::string document_json_of(const std::string& bytes) {
  if (bytes.size() < 20 || bytes.compare(0, 4, "glTF") != 0) return bytes;
  uint32_t length = 0, type = 0;
  std::memcpy(&length, bytes.data() + 12, 4);
  std::memcpy(&type, bytes.data() + 16, 4);
  if (type != 0x4E4F534Au || length > bytes.size() - 20) return {};  // "JSON"
  return bytes.substr(20, length);
}

std::string document_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return document_json_of(
      std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

// A GLB with its JSON chunk replaced by `json` (padded with spaces to 4 bytes, as GLB requires).
std::string with_glb_json(const std::string& glb, std::string json) {
  uint32_t old_length = 0;
  std::memcpy(&old_length, glb.data() + 12, 4);
  json.resize((json.size() + 3) & ~size_t(3), ' ');
  std::string out = glb.substr(0, 12);
  const uint32_t length = uint32_t(json.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out.append(glb, 16, 4);
  out += json;
  out.append(glb, 20 + old_length, std::string::npos);
  const uint32_t total = uint32_t(out.size());
  std::memcpy(out.data() + 8, &total, 4);
  return out;
}

}  // namespace

SourceDocument::SourceDocument() : document_(std::make_unique<tinygltf::Model>()) {}
SourceDocument::~SourceDocument() = default;
SourceDocument::SourceDocument(SourceDocument&&) noexcept = default;
SourceDocument& SourceDocument::operator=(SourceDocument&&) noexcept = default;

bool SourceDocument::open(const std::string& path, std::string& error) {
  import::GltfSource source;
  if (!import::load_gltf_source(path, ImportOptions{}, source, error)) return false;
  // The writer copies bufferViews as stored; compressed ones (and their placeholder buffers)
  // would come out as garbage, so such files are refused rather than written wrongly.
  bool compressed = !source.meshopt_no_data.empty();
  for (const tinygltf::BufferView& view : source.document.bufferViews) {
    compressed = compressed || view.extensions.count("EXT_meshopt_compression") != 0;
  }
  if (compressed) {
    error = "files compressed with EXT_meshopt_compression cannot be written back";
    return false;
  }
  *document_ = std::move(source.document);
  warnings_.clear();
  if (!source.pointer_channels.empty())
    warnings_.push_back(path + ": " + std::to_string(source.pointer_channels.size()) +
                        " KHR_animation_pointer channel" +
                        (source.pointer_channels.size() == 1 ? " is" : "s are") +
                        " not written (the writer keeps core animation channels only)");
  unknown_ = find_unknown_members(document_json(path));
  moved_arrays_.clear();
  merge_buffers(*document_);
  return embed_image_files(*document_, path, error);
}

bool SourceDocument::apply(std::span<const DocumentEdit> edits, const DocumentWriteOptions& options,
                           std::string& error) {
  DocumentEditJob job;
  job.document = document_.get();
  job.edits = edits;
  job.options.share_equal_accessors = options.share_equal_accessors;
  job.options.drop_unused_buffer_views = options.drop_unused_buffer_views;
  if (!job.run(error)) return false;
  // Edits may drop and append bufferViews, and remove or replace animations and their samplers.
  if (!edits.empty()) moved_arrays_.push_back("bufferViews");
  for (const DocumentEdit& edit : edits)
    if (!std::holds_alternative<SetSkinWeights>(edit) &&
        !std::holds_alternative<SetInverseBindMatrices>(edit)) {
      moved_arrays_.push_back("animations");
      break;
    }
  return true;
}

bool SourceDocument::save(const std::string& out_path, std::string& error,
                          const AtomicWriteOptions& file, OutputFormat format) const {
  const bool json = format == OutputFormat::ByExtension && writes_json_gltf(out_path);
  std::ostringstream out(std::ios::binary);
  tinygltf::TinyGLTF writer;
  // A file without any buffer stays so (a buffer of 0 bytes is invalid glTF).
  const tinygltf::Model* doc = document_.get();
  tinygltf::Model without_buffer;
  if (doc->buffers.size() == 1 && doc->buffers[0].data.empty() && doc->bufferViews.empty()) {
    without_buffer = *doc;
    without_buffer.buffers.clear();
    doc = &without_buffer;
  }
  if (!writer.WriteGltfSceneToStream(doc, out, json, !json) || !out) {
    error = out_path + ": the document could not be serialized";
    return false;
  }
  std::string bytes = std::move(out).str();
  if (!unknown_.empty()) {
    bytes = json ? insert_unknown_members(bytes, unknown_, moved_arrays_)
                 : with_glb_json(bytes, insert_unknown_members(document_json_of(bytes), unknown_,
                                                               moved_arrays_));
  }
  return write_file_atomically(
      out_path, std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), error,
      file);
}

bool write_document(const std::string& in_path, std::span<const DocumentEdit> edits,
                    const std::string& out_path, std::string& error,
                    const DocumentWriteOptions& options, std::vector<std::string>* warnings) {
  SourceDocument doc;
  if (!doc.open(in_path, error)) {
    error = in_path + ": " + error;
    return false;
  }
  if (warnings) *warnings = doc.warnings();
  if (!doc.apply(edits, options, error)) {
    error = in_path + ": " + error;
    return false;
  }
  return doc.save(out_path, error, options.file);
}

bool writes_json_gltf(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext == ".gltf";
}

}  // namespace rig::write
