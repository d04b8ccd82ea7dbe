// The on-disk cache of the centres of rotation (skin/rotation_centers.h): the key, the file
// format, loading, storing, and compute-or-load.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "model/triangles.h"
#include "skin/rotation_centers.h"

namespace rig {

// -----------------------------------------------------------------------------------------------
// The cache.

namespace {

class Hash128 {
 public:
  void word(uint64_t w) {
    h1_ = (std::rotl(h1_ ^ w, 27) + h2_) * 0x9E3779B97F4A7C15ull + 0x52DCE729ull;
    h2_ = (std::rotl(h2_ + w * 0x87C37B91114253D5ull, 31) ^ h1_) * 0x4CF5AD432745937Full;
    ++count_;
  }
  void bytes(const void* data, size_t size) {
    word(size);
    const unsigned char* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      word(w);
    }
    if (i < size) {
      uint64_t w = 0;
      std::memcpy(&w, p + i, size - i);
      word(w);
    }
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
  CorCacheKey finish() const {
    return {fmix(h1_ ^ count_) ^ fmix(h2_), fmix(h2_ + 0x2545F4914F6CDD1Dull * count_) + h1_};
  }

 private:
  static uint64_t fmix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
  }
  uint64_t h1_ = 0x243F6A8885A308D3ull, h2_ = 0x13198A2E03707344ull, count_ = 0;
};

constexpr char kMagic[8] = {'R', 'I', 'G', 'C', 'O', 'R', '\0', '\1'};

uint64_t checksum(const unsigned char* data, size_t size) {
  Hash128 h;
  h.bytes(data, size);
  const CorCacheKey k = h.finish();
  return k.hi ^ k.lo;
}

}  // namespace

std::string CorCacheKey::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return buf;
}

CorCacheKey rotation_centers_key(const Model& model, const CorOptions& options) {
  return rotation_centers_key(model, prepare_skin_meshes(model), options);
}

CorCacheKey rotation_centers_key(const Model& model, const SkinMeshes& meshes,
                                 const CorOptions& options) {
  Hash128 h;
  h.word(0x524947434F52ull);  // "RIGCOR"
  h.word(kRotationCentersVersion);
  for (double d : {options.epsilon, options.sigma}) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    h.word(bits);
  }
  h.word(uint64_t(int64_t(options.max_depth)));
  h.word(model.meshes.size());
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    h.word(mesh.primitives.size());
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const Primitive& prim = mesh.primitives[p];
      // The influences as skinned (the layer's), which equal the file's up to 8 per vertex.
      const size_t index =
          m < meshes.first_of_mesh.size() ? meshes.first_of_mesh[m] + p : ~size_t(0);
      static const SkinMesh kNone;
      const SkinMesh& skin = index < meshes.primitives.size() ? meshes.primitives[index] : kNone;
      h.word(uint64_t(prim.mode));
      h.word(skin.influences);
      h.vec(prim.positions);
      h.vec(prim.indices);
      h.vec(skin.joints);
      h.vec(skin.weights);
    }
  }
  return h.finish();
}

std::string default_rotation_centers_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return (std::filesystem::path(xdg) / "rigview").string();
  const char* home = std::getenv("HOME");
  if (home && home[0]) return (std::filesystem::path(home) / ".cache" / "rigview").string();
  return {};
}

std::string rotation_centers_cache_path(const std::string& cache_dir, const CorCacheKey& key) {
  const std::string dir = cache_dir.empty() ? default_rotation_centers_cache_dir() : cache_dir;
  if (dir.empty()) return {};
  return (std::filesystem::path(dir) / "rotation_centers" / (key.hex() + ".bin")).string();
}

bool load_rotation_centers(const std::string& path, const CorCacheKey& key, SkinMeshes& inout) {
  if (path.empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const size_t header = sizeof kMagic + 4 + 4 + 16 + 8;
  const size_t prims = inout.primitives.size();
  if (size < 0 || size_t(size) < header + prims * 8 + 8) return false;
  std::vector<unsigned char> data(static_cast<size_t>(size));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(data.data()), size)) return false;
  size_t at = 0;
  auto take = [&](void* dst, size_t n) {
    if (at + n > data.size()) return false;
    std::memcpy(dst, data.data() + at, n);
    at += n;
    return true;
  };
  char magic[8];
  uint32_t version = 0, reserved = 0;
  CorCacheKey stored;
  uint64_t count = 0;
  if (!take(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) return false;
  if (!take(&version, 4) || version != kRotationCentersVersion || !take(&reserved, 4)) return false;
  if (!take(&stored.hi, 8) || !take(&stored.lo, 8) || !(stored == key)) return false;
  if (!take(&count, 8) || count != prims) return false;
  std::vector<uint64_t> counts(prims);
  uint64_t total = 0;
  for (size_t p = 0; p < prims; ++p) {
    if (!take(&counts[p], 8)) return false;
    const SkinMesh& sm = inout.primitives[p];
    if (counts[p] != (sm.skinned() ? sm.vertex_count : 0u)) return false;
    total += counts[p];
  }
  if (data.size() != at + total * 12 + 8) return false;
  uint64_t sum = 0;
  std::memcpy(&sum, data.data() + data.size() - 8, 8);
  if (sum != checksum(data.data(), data.size() - 8)) return false;
  std::vector<std::vector<glm::vec3>> centers(prims);
  for (size_t p = 0; p < prims; ++p) {
    centers[p].resize(counts[p]);
    if (counts[p] && !take(centers[p].data(), counts[p] * 12)) return false;
    for (const glm::vec3& c : centers[p])
      if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) return false;
  }
  for (size_t p = 0; p < prims; ++p) inout.primitives[p].rotation_centers = std::move(centers[p]);
  return true;
}

bool store_rotation_centers(const std::string& path, const CorCacheKey& key,
                            const SkinMeshes& meshes) {
  if (path.empty()) return false;
  std::vector<unsigned char> data;
  auto put = [&](const void* src, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(src);
    data.insert(data.end(), p, p + n);
  };
  const uint32_t version = kRotationCentersVersion, reserved = 0;
  const uint64_t count = meshes.primitives.size();
  put(kMagic, 8);
  put(&version, 4);
  put(&reserved, 4);
  put(&key.hi, 8);
  put(&key.lo, 8);
  put(&count, 8);
  for (const SkinMesh& sm : meshes.primitives) {
    const uint64_t n = sm.skinned() ? sm.vertex_count : 0u;
    if (n && sm.rotation_centers.size() != n) return false;
    put(&n, 8);
  }
  for (const SkinMesh& sm : meshes.primitives)
    if (sm.skinned()) put(sm.rotation_centers.data(), sm.rotation_centers.size() * 12);
  const uint64_t sum = checksum(data.data(), data.size());
  put(&sum, 8);

  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  fs::create_directories(target.parent_path(), ec);
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = target.string() + ".tmp" + std::to_string(::getpid()) + "_" +
                       std::to_string(counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

bool prepare_rotation_centers(const Model& model, SkinMeshes& inout, const CorOptions& options,
                              CorProgress progress, void* user, bool& from_cache,
                              CorComputeStats* stats) {
  from_cache = false;
  std::string path;
  CorCacheKey key;
  if (options.use_cache) {
    key = rotation_centers_key(model, inout, options);
    path = rotation_centers_cache_path(options.cache_dir, key);
    if (!path.empty() && load_rotation_centers(path, key, inout)) {
      from_cache = true;
      if (progress) progress(user, 1.0f);
      return true;
    }
  }
  if (!compute_rotation_centers(model, inout, options, progress, user, stats)) return false;
  if (!path.empty()) store_rotation_centers(path, key, inout);
  return true;
}

}  // namespace rig
