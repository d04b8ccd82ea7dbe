#include "import/gltf_file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string_view>
#include <vector>

#include "import/meshopt_decode.h"

namespace rig::import {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kGlbMagic = 0x46546C67;   // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"
constexpr uint64_t kGlbHeaderSize = 12;
constexpr uint64_t kChunkHeaderSize = 8;
// Bounds the reloads for buffer files longer than their byteLength (one per such file).
constexpr size_t kMaxBufferFileRetries = 64;

uint32_t read_u32(const std::vector<unsigned char>& bytes, uint64_t at) {
  return uint32_t{bytes[at]} | uint32_t{bytes[at + 1]} << 8 | uint32_t{bytes[at + 2]} << 16 |
         uint32_t{bytes[at + 3]} << 24;
}

bool read_whole_file(const std::string& path, std::vector<unsigned char>& bytes,
                     std::string& error) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    error = "file not found";
    return false;
  }
  if (fs::is_directory(status)) {
    error = "is a directory, not a glTF file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::string("cannot open file (") + std::strerror(errno) + ")";
    return false;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) {
    error = "cannot read file";
    return false;
  }
  // tinygltf takes lengths as unsigned int.
  if (static_cast<uint64_t>(size) >= std::numeric_limits<uint32_t>::max()) {
    error = "file is too large (" + std::to_string(size) + " bytes, limit 4 GiB)";
    return false;
  }
  bytes.resize(static_cast<size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size)) {
    error = "cannot read file";
    return false;
  }
  if (bytes.empty()) {
    error = "file is empty";
    return false;
  }
  return true;
}

// Checks the GLB container (spec "Binary glTF Layout") and returns the length it declares.
// tinygltf checks some of this too, but says only "Invalid glTF binary."
bool check_glb(const std::vector<unsigned char>& bytes, uint64_t& glb_length, std::string& error) {
  const uint64_t size = bytes.size();
  if (size < kGlbHeaderSize) {
    error = "truncated GLB: " + std::to_string(size) + " bytes, the header alone needs 12";
    return false;
  }
  const uint32_t version = read_u32(bytes, 4);
  if (version != 2) {
    error = "GLB container version " + std::to_string(version) + " is not supported (only 2)";
    return false;
  }
  glb_length = read_u32(bytes, 8);
  if (glb_length > size) {
    error = "truncated GLB: the header says " + std::to_string(glb_length) +
            " bytes but the file has " + std::to_string(size);
    return false;
  }
  if (glb_length < kGlbHeaderSize + kChunkHeaderSize) {
    error = "invalid GLB: declared length " + std::to_string(glb_length) +
            " leaves no room for the JSON chunk";
    return false;
  }
  const uint64_t json_length = read_u32(bytes, 12);
  if (read_u32(bytes, 16) != kChunkJson) {
    error = "invalid GLB: the first chunk is not JSON";
    return false;
  }
  const uint64_t json_end = kGlbHeaderSize + kChunkHeaderSize + json_length;
  if (json_length == 0 || json_end > glb_length) {
    error = "truncated GLB: the JSON chunk (" + std::to_string(json_length) +
            " bytes) runs past the end of the file (" + std::to_string(glb_length) + " bytes)";
    return false;
  }
  if (json_end < glb_length) {
    if (glb_length - json_end < kChunkHeaderSize) {
      error = "truncated GLB: incomplete chunk header after the JSON chunk";
      return false;
    }
    const uint64_t bin_length = read_u32(bytes, json_end);
    if (json_end + kChunkHeaderSize + bin_length > glb_length) {
      error = "truncated GLB: the BIN chunk (" + std::to_string(bin_length) +
              " bytes) runs past the end of the file (" + std::to_string(glb_length) + " bytes)";
      return false;
    }
    if (read_u32(bytes, json_end + 4) != kChunkBin) {
      error = "invalid GLB: the second chunk is not BIN";
      return false;
    }
  }
  return true;
}

struct ImageState {
  std::map<int, DecodedImage>* decoded = nullptr;
  const ImportLimits* limits = nullptr;
  uint64_t* image_bytes = nullptr;  // decoded so far, against limits->max_total_image_bytes
};

// tinygltf's image hook. It never fails the load: a bad picture becomes a warning later.
bool decode_image_callback(tinygltf::Image* image, const int image_index, std::string* /*err*/,
                           std::string* /*warn*/, int /*req_width*/, int /*req_height*/,
                           const unsigned char* bytes, int size, void* user_data) {
  // tinygltf hands bufferView images over without checking the bufferView against its buffer,
  // so those are decoded after parsing, from a bounds-checked view (see gltf_import.cpp).
  if (image->bufferView >= 0) return true;
  auto* state = static_cast<ImageState*>(user_data);
  const uint64_t used = *state->image_bytes;
  const uint64_t total = state->limits->max_total_image_bytes;
  DecodedImage decoded =
      decode_image(bytes, size > 0 ? static_cast<uint64_t>(size) : 0, image->mimeType,
                   state->limits->max_image_pixels, used < total ? total - used : 0);
  *state->image_bytes += decoded.rgba.size();
  (*state->decoded)[image_index] = std::move(decoded);
  return true;
}

// tinygltf looks for a relative URI first in the base folder and then in "." (the working
// directory), so a model whose .bin is missing could silently load someone else's file from
// wherever rigview was started. These callbacks only let it see files under the model's own
// folder: tinygltf joins the (absolute) base folder and the percent-decoded URI, so every
// legitimate candidate starts with `prefix`, and the "./uri" candidate never does. The URI is
// what follows the prefix; absolute paths and schemes other than data: are refused there, with
// the reason kept for the error message (tinygltf itself would only say "file not found").
struct ModelFolder {
  std::string prefix;  // absolute folder of the model, ending in '/'; empty: from memory
  bool from_memory = false;
  bool confine = false;
  std::string canonical_folder;  // confine: the model's folder with links resolved, ending '/'
  std::string refusal;           // the first URI refused and why ("'/x': absolute path ...")
  uint64_t bytes_read = 0;       // external files read
  // Buffer files longer than their buffer's byteLength, and that byteLength: read as their
  // first byteLength bytes (see load_gltf_source).
  std::map<std::string, size_t> declared_lengths;
};

// Why `uri` (already percent-decoded) may not be read, or "" when it may.
std::string uri_refusal(const std::string& uri, const ModelFolder& folder) {
  if (uri.empty()) return "empty URI";
  const bool drive = uri.size() >= 2 && std::isalpha(static_cast<unsigned char>(uri[0])) &&
                     uri[1] == ':' && (uri.size() == 2 || uri[2] == '/' || uri[2] == '\\');
  if (uri[0] == '/' || uri[0] == '\\' || drive) return "absolute path not allowed";
  // RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
  if (std::isalpha(static_cast<unsigned char>(uri[0]))) {
    size_t k = 1;
    while (k < uri.size() && (std::isalnum(static_cast<unsigned char>(uri[k])) || uri[k] == '+' ||
                              uri[k] == '-' || uri[k] == '.')) {
      ++k;
    }
    if (k < uri.size() && uri[k] == ':') {
      return "URI scheme '" + uri.substr(0, k) + "' not allowed (only data: and relative paths)";
    }
  }
  if (folder.from_memory) return "external files are not allowed when importing from memory";
  if (folder.confine) {
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(fs::path(folder.prefix + uri), ec);
    const std::string text = resolved.string();
    if (ec || text.size() <= folder.canonical_folder.size() ||
        text.compare(0, folder.canonical_folder.size(), folder.canonical_folder) != 0) {
      return "resolves outside the model's folder (confined)";
    }
  }
  return {};
}

bool inside_model_folder(const std::string& candidate, void* user_data) {
  auto* folder = static_cast<ModelFolder*>(user_data);
  const std::string& prefix = folder->prefix;
  if (!folder->from_memory &&
      !(candidate.size() > prefix.size() && candidate.compare(0, prefix.size(), prefix) == 0)) {
    return false;  // tinygltf's "./uri" fallback
  }
  const std::string uri = candidate.substr(prefix.size());
  const std::string why = uri_refusal(uri, *folder);
  if (why.empty()) return true;
  if (folder->refusal.empty()) folder->refusal = "'" + uri + "': " + why;
  return false;
}

bool file_exists_in_model_folder(const std::string& candidate, void* user_data) {
  std::error_code ec;
  return inside_model_folder(candidate, user_data) && fs::is_regular_file(candidate, ec);
}

std::string expand_nothing(const std::string& path, void* /*user_data*/) { return path; }

bool read_file_in_model_folder(std::vector<unsigned char>* out, std::string* err,
                               const std::string& candidate, void* user_data) {
  if (!inside_model_folder(candidate, user_data)) {
    if (err) *err += "outside the model's folder";
    return false;
  }
  std::ifstream in(candidate, std::ios::binary);
  if (!in) {
    if (err) *err += std::strerror(errno);
    return false;
  }
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    if (err) *err += "read failed";
    return false;
  }
  static_cast<ModelFolder*>(user_data)->bytes_read += out->size();
  const auto& declared = static_cast<const ModelFolder*>(user_data)->declared_lengths;
  if (auto it = declared.find(candidate); it != declared.end() && it->second < out->size()) {
    out->resize(it->second);
  }
  return true;
}

// tinygltf refuses an external buffer file whose size is not exactly byteLength. A file that
// is longer (exporters pad .bin files to 4 bytes; the spec only requires byteLength bytes to be
// there, and the Khronos validator only objects to shorter files) is fine: this recognizes
// tinygltf's message ("File size mismatch : PATH, requestedBytes N, but got M") and, when
// M > N, records PATH so that the next attempt reads its first N bytes.
bool note_longer_buffer_file(const std::string& message, ModelFolder& folder) {
  const std::string marker = "File size mismatch : ";
  const std::string requested = ", requestedBytes ";
  const std::string got = ", but got ";
  const size_t at = message.find(marker);
  if (at == std::string::npos) return false;
  const size_t path_begin = at + marker.size();
  const size_t requested_at = message.find(requested, path_begin);
  if (requested_at == std::string::npos) return false;
  const size_t got_at = message.find(got, requested_at);
  if (got_at == std::string::npos) return false;
  const std::string file = message.substr(path_begin, requested_at - path_begin);
  const unsigned long long declared =
      std::strtoull(message.c_str() + requested_at + requested.size(), nullptr, 10);
  const unsigned long long actual =
      std::strtoull(message.c_str() + got_at + got.size(), nullptr, 10);
  if (actual <= declared || folder.declared_lengths.count(file) != 0) return false;
  folder.declared_lengths[file] = static_cast<size_t>(declared);
  return true;
}

bool never_write(std::string* err, const std::string& /*path*/,
                 const std::vector<unsigned char>& /*contents*/, void* /*user_data*/) {
  if (err) *err += "rigview never writes through tinygltf";
  return false;
}

// Text after `marker` up to the end of its line (or `stop`).
std::string text_after(const std::string& text, const std::string& marker,
                       const std::string& stop = "\n") {
  const size_t at = text.find(marker);
  if (at == std::string::npos) return {};
  const size_t begin = at + marker.size();
  size_t end = text.find(stop, begin);
  const size_t line_end = text.find('\n', begin);
  if (end == std::string::npos || (line_end != std::string::npos && line_end < end)) end = line_end;
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// Rewords tinygltf's failure messages into the importer's style, naming the element at fault.
std::string explain_tinygltf_error(const std::string& err, const tinygltf::Model& partial,
                                   const ModelFolder& folder) {
  // tinygltf appends buffers as it parses them, so a buffer failure concerns the next index.
  const std::string buffer = "buffer " + std::to_string(partial.buffers.size());
  if (!folder.refusal.empty() && err.find("File not found : ") != std::string::npos) {
    return buffer + ": cannot read " + folder.refusal;
  }
  if (err.find("File not found : ") != std::string::npos) {
    return buffer + ": cannot read '" + text_after(err, "File not found : ") + "' (file not found)";
  }
  if (err.find("File read error : ") != std::string::npos) {
    return buffer + ": cannot read '" + text_after(err, "File read error : ", " : ") + "'";
  }
  if (err.find("File is empty : ") != std::string::npos) {
    return buffer + ": '" + text_after(err, "File is empty : ") + "' is empty";
  }
  if (err.find("File size mismatch : ") != std::string::npos) {
    return buffer + ": '" + text_after(err, "File size mismatch : ", ", ") + "' has " +
           text_after(err, "but got ") + " bytes but its byteLength is " +
           text_after(err, "requestedBytes ", ",");
  }
  if (err.find("Failed to decode 'uri'") != std::string::npos &&
      err.find("in Buffer") != std::string::npos) {
    return buffer + ": cannot decode its data: URI (bad base64, or a size other than byteLength)";
  }
  if (err.find("Must be equal or less than binary size") != std::string::npos) {
    return buffer + ": byteLength " + text_after(err, "`byteLength' = ", ",") +
           " is larger than the GLB's BIN chunk (" + text_after(err, "binary size = ") + " bytes)";
  }
  if (err.find("json.exception") != std::string::npos ||
      err.find("JSON string too short") != std::string::npos) {
    // Drop nlohmann's "[json.exception.parse_error.101] " tag: the rest says what and where.
    std::string text = err;
    if (text.rfind("[json.exception", 0) == 0 && text.find("] ") != std::string::npos) {
      text = text.substr(text.find("] ") + 2);
    }
    return "invalid JSON: " + one_line(text);
  }
  return one_line(err);
}

}  // namespace

std::string one_line(const std::string& text, size_t max_length) {
  std::string result;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    const size_t first = line.find_first_not_of(" \t\r");
    const size_t last = line.find_last_not_of(" \t\r");
    if (first != std::string::npos) {
      if (!result.empty()) result += "; ";
      result += line.substr(first, last - first + 1);
    }
    begin = end + 1;
  }
  for (char& c : result) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';  // no control characters on the terminal
  }
  if (result.size() > max_length) result = result.substr(0, max_length - 3) + "...";
  if (result.empty()) result = "tinygltf could not load the file";
  return result;
}

namespace {

// The shape of the JSON text, before tinygltf sees it: nesting depth, containers, other values.
// Strings are skipped (escapes included); everything else about the JSON is tinygltf's business.
bool check_json_shape(const unsigned char* text, uint64_t size, const ImportLimits& limits,
                      std::string& error) {
  uint64_t depth = 0, containers = 0, values = 0;
  bool in_value = false;  // inside a number or literal
  auto count_value = [&]() {
    if (++values <= limits.max_json_values) return true;
    error = "the JSON has more than " + std::to_string(limits.max_json_values) +
            " values, too many (limit)";
    return false;
  };
  for (uint64_t i = 0; i < size; ++i) {
    const unsigned char c = text[i];
    if (c == '"') {
      if (!count_value()) return false;
      in_value = false;
      for (++i; i < size && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '[' || c == '{') {
      in_value = false;
      if (++depth > limits.max_json_depth) {
        error = "invalid JSON: nested deeper than " + std::to_string(limits.max_json_depth) +
                " levels (at byte " + std::to_string(i) + ")";
        return false;
      }
      if (++containers > limits.max_json_containers) {
        error = "the JSON has more than " + std::to_string(limits.max_json_containers) +
                " objects and arrays, too many (limit)";
        return false;
      }
    } else if (c == ']' || c == '}') {
      in_value = false;
      if (depth > 0) --depth;
    } else if (c == ',' || c == ':' || c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      in_value = false;
    } else if (!in_value) {
      in_value = true;
      if (!count_value()) return false;
    }
  }
  return true;
}

// The file with EXT_meshopt_compression's buffers without data replaced by placeholders (see
// meshopt_decode.h) in `rewritten`, the GLB container rebuilt around the new JSON chunk. Leaves
// `rewritten` and `no_data` empty when nothing needs replacing.
bool mark_fallback_buffers(const std::vector<unsigned char>& bytes, bool is_glb,
                           std::vector<unsigned char>& rewritten, std::vector<int>& no_data) {
  const uint64_t json_begin = is_glb ? kGlbHeaderSize + kChunkHeaderSize : 0;
  const uint64_t json_length = is_glb ? read_u32(bytes, 12) : bytes.size();
  const auto json_text = bytes.begin() + static_cast<std::ptrdiff_t>(json_begin);
  const std::string_view name = "EXT_meshopt_compression";
  if (std::search(json_text, json_text + static_cast<std::ptrdiff_t>(json_length), name.begin(),
                  name.end()) == json_text + static_cast<std::ptrdiff_t>(json_length)) {
    return true;  // the usual case: no copy of the JSON
  }
  std::string json(bytes.begin() + static_cast<std::ptrdiff_t>(json_begin),
                   bytes.begin() + static_cast<std::ptrdiff_t>(json_begin + json_length));
  if (!mark_meshopt_fallback_buffers(json, is_glb, no_data)) return false;
  if (no_data.empty()) return true;
  if (!is_glb) {
    rewritten.assign(json.begin(), json.end());
    return true;
  }
  while (json.size() % 4 != 0) json += ' ';
  const uint64_t rest_begin = json_begin + json_length;
  const uint64_t glb_length = read_u32(bytes, 8);
  const uint64_t total =
      kGlbHeaderSize + kChunkHeaderSize + json.size() + (glb_length - rest_begin);
  if (total >= std::numeric_limits<uint32_t>::max()) return false;
  auto put_u32 = [&](uint64_t value) {
    for (int shift = 0; shift < 32; shift += 8) {
      rewritten.push_back(static_cast<unsigned char>(value >> shift));
    }
  };
  put_u32(kGlbMagic);
  put_u32(2);
  put_u32(total);
  put_u32(json.size());
  put_u32(kChunkJson);
  rewritten.insert(rewritten.end(), json.begin(), json.end());
  rewritten.insert(rewritten.end(), bytes.begin() + static_cast<std::ptrdiff_t>(rest_begin),
                   bytes.begin() + static_cast<std::ptrdiff_t>(glb_length));
  return true;
}

// Parses `bytes` (a whole .gltf or .glb) with tinygltf, URIs resolved as `folder` says.
bool parse_document(const std::vector<unsigned char>& bytes, bool extension_says_glb,
                    const std::string& base_dir, ModelFolder& model_folder,
                    const ImportOptions& options, GltfSource& source, std::string& error) {
  const bool is_glb = bytes.size() >= 4 && read_u32(bytes, 0) == kGlbMagic;
  if (!is_glb && extension_says_glb) {
    error = "not a GLB file (it does not start with 'glTF')";
    return false;
  }
  uint64_t glb_length = 0;
  if (is_glb && !check_glb(bytes, glb_length, error)) return false;
  if (is_glb ? !check_json_shape(bytes.data() + kGlbHeaderSize + kChunkHeaderSize,
                                 read_u32(bytes, 12), options.limits, error)
             : !check_json_shape(bytes.data(), bytes.size(), options.limits, error)) {
    return false;
  }
  // EXT_meshopt_compression's buffers without data become placeholders tinygltf accepts.
  // When the JSON cannot be parsed, tinygltf's parse below says why.
  std::vector<unsigned char> rewritten;
  if (!mark_fallback_buffers(bytes, is_glb, rewritten, source.meshopt_no_data)) {
    rewritten.clear();
    source.meshopt_no_data.clear();
  }
  const std::vector<unsigned char>& input = source.meshopt_no_data.empty() ? bytes : rewritten;
  if (is_glb) glb_length = input.size();
  // One more attempt per buffer file found longer than its byteLength (usually none).
  for (size_t attempt = 0;; ++attempt) {
    source.document = tinygltf::Model{};
    source.uri_images.clear();
    source.image_bytes = 0;
    model_folder.bytes_read = 0;
    model_folder.refusal.clear();
    tinygltf::TinyGLTF loader;
    ImageState image_state{&source.uri_images, &options.limits, &source.image_bytes};
    loader.SetImageLoader(&decode_image_callback, &image_state);
    loader.SetFsCallbacks({&file_exists_in_model_folder, &expand_nothing,
                           &read_file_in_model_folder, &never_write, &model_folder});
    std::string err, warn;
    bool loaded = false;
    if (is_glb) {
      loaded = loader.LoadBinaryFromMemory(&source.document, &err, &warn, input.data(),
                                           static_cast<unsigned int>(glb_length), base_dir);
    } else {
      loaded = loader.LoadASCIIFromString(&source.document, &err, &warn,
                                          reinterpret_cast<const char*>(input.data()),
                                          static_cast<unsigned int>(input.size()), base_dir);
    }
    if (loaded) break;
    if (attempt < kMaxBufferFileRetries && note_longer_buffer_file(err, model_folder)) continue;
    // A few tinygltf failures (e.g. an empty image file) only leave a warning behind.
    error = explain_tinygltf_error(err.empty() ? warn : err, source.document, model_folder);
    return false;
  }
  const std::string_view json =
      is_glb ? std::string_view(
                   reinterpret_cast<const char*>(bytes.data()) + kGlbHeaderSize + kChunkHeaderSize,
                   read_u32(bytes, 12))
             : std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (!read_pointer_channels(json, options.limits.max_json_depth, source.pointer_channels, error))
    return false;
  source.longer_buffer_files = model_folder.declared_lengths.size();
  source.input_bytes = bytes.size() + model_folder.bytes_read;
  return true;
}

}  // namespace

bool load_gltf_source(const std::string& path, const ImportOptions& options, GltfSource& source,
                      std::string& error) {
  std::vector<unsigned char> bytes;
  if (!read_whole_file(path, bytes, error)) return false;
  std::string extension = fs::path(path).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));

  // Relative URIs resolve against the model's folder, and only there (see ModelFolder).
  std::error_code ec;
  fs::path folder = fs::absolute(fs::path(path), ec).parent_path();
  if (ec) folder = fs::path(path).parent_path();
  const std::string base_dir = folder.string();
  ModelFolder model_folder;
  model_folder.prefix = base_dir.empty() || base_dir.back() == '/' ? base_dir : base_dir + "/";
  model_folder.confine = options.confine;
  if (options.confine) {
    std::string canonical = fs::weakly_canonical(folder, ec).string();
    if (ec) canonical = base_dir;
    model_folder.canonical_folder =
        canonical.empty() || canonical.back() == '/' ? canonical : canonical + "/";
  }
  return parse_document(bytes, extension == ".glb", base_dir, model_folder, options, source, error);
}

bool load_gltf_source_from_memory(std::span<const uint8_t> bytes, const ImportOptions& options,
                                  GltfSource& source, std::string& error) {
  if (bytes.empty()) {
    error = "file is empty";
    return false;
  }
  if (bytes.size() >= std::numeric_limits<uint32_t>::max()) {
    error = "file is too large (" + std::to_string(bytes.size()) + " bytes, limit 4 GiB)";
    return false;
  }
  const std::vector<unsigned char> copy(bytes.begin(), bytes.end());
  ModelFolder model_folder;
  model_folder.from_memory = true;
  return parse_document(copy, false, "", model_folder, options, source, error);
}

}  // namespace rig::import
