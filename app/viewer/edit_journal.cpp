#include "viewer/edit_journal.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "skin/rotation_centers.h"
#include "write/atomic_file.h"

namespace rigview {

namespace {

constexpr char kMagic[4] = {'R', 'V', 'J', '1'};
constexpr uint32_t kVersion = 1;
// Larger than any journal of a model rigview opens (the importer's own limits are lower).
constexpr uint64_t kMaxJournalBytes = uint64_t{4} << 30;

uint64_t fnv1a(const uint8_t* data, size_t size, uint64_t h = 1469598103934665603ull) {
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

struct Writer {
  std::vector<uint8_t> bytes;
  void raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
  // x86 and ARM Linux are little-endian, as the format is.
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
};

struct Reader {
  const std::vector<uint8_t>& bytes;
  size_t at = 0;
  bool ok = true;
  bool take(void* out, size_t n) {
    if (!ok || n > bytes.size() - at) return ok = false;
    if (n) std::memcpy(out, bytes.data() + at, n);
    at += n;
    return true;
  }
  uint32_t u32() {
    uint32_t v = 0;
    take(&v, 4);
    return v;
  }
  uint64_t u64() {
    uint64_t v = 0;
    take(&v, 8);
    return v;
  }
  // Whether `count` items of `size` bytes can still follow (so a count never over-allocates).
  bool fits(uint64_t count, uint64_t size) const {
    return ok && count <= (bytes.size() - at) / size;
  }
};

uint64_t file_size(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : uint64_t(size);
}

}  // namespace

std::string journal_path(const std::string& model_path) {
  const std::string cache = rig::default_rotation_centers_cache_dir();
  if (cache.empty()) return {};
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(model_path, ec).lexically_normal().string();
  if (ec) absolute = model_path;
  const uint64_t h = fnv1a(reinterpret_cast<const uint8_t*>(absolute.data()), absolute.size());
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.journal", static_cast<unsigned long long>(h));
  return (std::filesystem::path(cache) / "journal" / name).string();
}

bool write_journal(const std::string& journal, const std::string& model_path, const SkinState& base,
                   const SkinState& now, std::string& error) {
  if (journal.empty()) return error = "no cache folder for the edit journal", false;
  const SkinEditStep step = diff_skin_states("", base, now);
  if (step.empty()) {
    remove_journal(journal);
    return true;
  }
  Writer w;
  w.raw(kMagic, 4);
  w.u32(kVersion);
  w.u32(uint32_t(model_path.size()));
  w.raw(model_path.data(), model_path.size());
  w.u64(file_size(model_path));
  w.u32(uint32_t(step.primitives.size()));
  for (const PrimitiveChange& c : step.primitives) {
    const uint32_t vertices = c.slots_after ? uint32_t(c.joints_after.size() / c.slots_after) : 0;
    w.u32(c.primitive);
    w.u32(c.slots_after);
    w.u32(vertices);
    w.raw(c.joints_after.data(), c.joints_after.size() * sizeof(uint16_t));
    w.raw(c.weights_after.data(), c.weights_after.size() * sizeof(float));
  }
  w.u32(uint32_t(step.skins.size()));
  for (const SkinChange& c : step.skins) {
    w.u32(c.skin);
    w.u32(uint32_t(c.after.size()));
    w.raw(c.after.data(), c.after.size() * sizeof(glm::mat4));
  }
  w.u64(fnv1a(w.bytes.data(), w.bytes.size()));
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(journal).parent_path(), ec);
  return rig::write::write_file_atomically(journal, w.bytes, error);
}

bool read_journal(const std::string& journal, JournalContents& out, std::string& error) {
  std::ifstream in(journal, std::ios::binary);
  if (!in) return error = journal + ": cannot read the edit journal", false;
  const uint64_t size = file_size(journal);
  if (size > kMaxJournalBytes) return error = journal + ": edit journal too large", false;
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  if (size && !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
    return error = journal + ": cannot read the edit journal", false;
  auto bad = [&](const char* what) { return error = journal + ": " + what, false; };
  if (bytes.size() < 4 + 4 + 8 || std::memcmp(bytes.data(), kMagic, 4) != 0)
    return bad("not an edit journal");
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  if (fnv1a(bytes.data(), bytes.size() - 8) != stored)
    return bad("the edit journal is damaged (checksum)");
  bytes.resize(bytes.size() - 8);
  Reader r{bytes};
  r.at = 4;
  if (r.u32() != kVersion) return bad("edit journal of another version");
  JournalContents c;
  const uint32_t path_size = r.u32();
  if (!r.fits(path_size, 1)) return bad("the edit journal is truncated");
  c.model_path.resize(path_size);
  r.take(c.model_path.data(), path_size);
  c.model_size = r.u64();
  const uint32_t primitives = r.u32();
  if (!r.fits(primitives, 12)) return bad("the edit journal is truncated");
  for (uint32_t i = 0; i < primitives && r.ok; ++i) {
    PrimitiveChange p;
    p.primitive = r.u32();
    p.slots_after = r.u32();
    const uint32_t vertices = r.u32();
    const uint64_t n = uint64_t(p.slots_after) * vertices;
    if (p.slots_after > rig::kMaxInfluences || !r.fits(n, sizeof(uint16_t) + sizeof(float)))
      return bad("the edit journal is truncated");
    p.joints_after.resize(size_t(n));
    p.weights_after.resize(size_t(n));
    r.take(p.joints_after.data(), size_t(n) * sizeof(uint16_t));
    r.take(p.weights_after.data(), size_t(n) * sizeof(float));
    c.edits.primitives.push_back(std::move(p));
  }
  const uint32_t skins = r.u32();
  if (!r.fits(skins, 8)) return bad("the edit journal is truncated");
  for (uint32_t i = 0; i < skins && r.ok; ++i) {
    SkinChange s;
    s.skin = r.u32();
    const uint32_t joints = r.u32();
    if (!r.fits(joints, sizeof(glm::mat4))) return bad("the edit journal is truncated");
    s.after.resize(joints);
    r.take(s.after.data(), size_t(joints) * sizeof(glm::mat4));
    c.edits.skins.push_back(std::move(s));
  }
  if (!r.ok || r.at != bytes.size()) return bad("the edit journal is truncated or has extra bytes");
  c.edits.label = "Recovered edits";
  out = std::move(c);
  return true;
}

void remove_journal(const std::string& journal) {
  std::error_code ec;
  if (!journal.empty()) std::filesystem::remove(journal, ec);
}

bool journal_step(const JournalContents& journal, const SkinState& base,
                  const std::vector<uint32_t>& joint_limit, SkinEditStep& out, std::string& error) {
  SkinEditStep step;
  step.label = journal.edits.label;
  for (const PrimitiveChange& j : journal.edits.primitives) {
    const uint32_t p = j.primitive;
    if (p >= base.slots.size() || p >= joint_limit.size())
      return error = "the journal names primitive " + std::to_string(p) + ", which is not there",
             false;
    const size_t vertices = base.slots[p] ? base.joints[p].size() / base.slots[p] : 0;
    const uint32_t slots = j.slots_after;
    if ((slots != 0 && slots != 4 && slots != rig::kMaxInfluences) ||
        j.joints_after.size() != vertices * slots || j.weights_after.size() != vertices * slots)
      return error = "the journal's primitive " + std::to_string(p) + " has other vertices", false;
    for (uint16_t joint : j.joints_after)
      if (joint >= joint_limit[p])
        return error = "the journal's primitive " + std::to_string(p) + " names joint " +
                       std::to_string(joint) + ", past its skin",
               false;
    PrimitiveChange c = j;
    c.slots_before = base.slots[p];
    c.joints_before = base.joints[p];
    c.weights_before = base.weights[p];
    step.primitives.push_back(std::move(c));
  }
  for (const SkinChange& j : journal.edits.skins) {
    if (j.skin >= base.inverse_bind.size() || j.after.size() != base.inverse_bind[j.skin].size())
      return error = "the journal's skin " + std::to_string(j.skin) + " has other joints", false;
    step.skins.push_back({j.skin, base.inverse_bind[j.skin], j.after});
  }
  out = std::move(step);
  return true;
}

}  // namespace rigview
