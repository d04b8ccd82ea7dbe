// Revisions of a document's inputs, and products derived from them that know which inputs they
// read. An input (the model, its skin weights, its inverse bind matrices, the clip set, the
// skinning settings, the prepared centres of rotation) gets a new revision whenever it changes;
// a derived product records the revisions of its inputs when it is made and is dropped as soon
// as one of them moves on. Dropping destroys it: a product that runs a background job cancels
// and joins it in its destructor, so a result computed from old inputs is never published. The
// owner makes it again when it is next needed (lazily).
//
// Revisions come from one process-wide counter, so no two inputs, and no two documents, ever
// share a value: a product made for one document can never pass for fresh in another.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <utility>

namespace rig {

enum class Input : uint8_t {
  Model,                // the imported (possibly bug-simulated) model: a new document
  SkinWeights,          // per-vertex joints and weights of the skin layer
  InverseBindMatrices,  // the skins' inverse bind matrices
  ClipSet,              // which clips the character can play
  SkinningSettings,     // per-joint DQS amounts of the mix
  RotationCenters,      // CoR centres reaching the character: derived, but read by other products
};
inline constexpr size_t kInputCount = 6;

using InputMask = uint32_t;
constexpr InputMask input_bit(Input input) { return 1u << static_cast<unsigned>(input); }
constexpr InputMask inputs(std::initializer_list<Input> list) {
  InputMask mask = 0;
  for (Input i : list) mask |= input_bit(i);
  return mask;
}

class Revisions {
 public:
  // Every input at a revision no other Revisions object has had.
  Revisions() {
    for (uint64_t& v : values_) v = next();
  }
  uint64_t operator[](Input input) const { return values_[static_cast<size_t>(input)]; }
  void bump(Input input) { values_[static_cast<size_t>(input)] = next(); }
  const std::array<uint64_t, kInputCount>& values() const { return values_; }

 private:
  static uint64_t next() {
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  std::array<uint64_t, kInputCount> values_{};
};

// The revisions of `inputs` when something was made from them (0: never made).
class RevisionStamp {
 public:
  explicit constexpr RevisionStamp(InputMask read) : inputs_(read) {}
  InputMask inputs() const { return inputs_; }
  void take(const Revisions& now) {
    for (size_t i = 0; i < kInputCount; ++i) seen_[i] = (inputs_ >> i) & 1u ? now.values()[i] : 0;
    taken_ = true;
  }
  void clear() { taken_ = false; }
  bool fresh(const Revisions& now) const {
    if (!taken_) return false;
    for (size_t i = 0; i < kInputCount; ++i)
      if (((inputs_ >> i) & 1u) && seen_[i] != now.values()[i]) return false;
    return true;
  }

 private:
  InputMask inputs_;
  std::array<uint64_t, kInputCount> seen_{};
  bool taken_ = false;
};

// One derived product, owned. get() hands it out only while every input it read is at the
// revision it was made from; drop_stale() destroys it once one has moved on.
template <typename T>
class Derived {
 public:
  explicit constexpr Derived(InputMask read) : stamp_(read) {}
  Derived(Derived&&) noexcept = default;
  Derived& operator=(Derived&&) noexcept = default;

  InputMask inputs() const { return stamp_.inputs(); }
  // Whether a product is held at all, fresh or not (tests: a dropped one is destroyed).
  bool held() const { return value_ != nullptr; }
  // The product when it was made from `now`'s revisions of its inputs, else null.
  T* get(const Revisions& now) { return fresh(now) ? value_.get() : nullptr; }
  const T* get(const Revisions& now) const { return fresh(now) ? value_.get() : nullptr; }
  bool fresh(const Revisions& now) const { return value_ && stamp_.fresh(now); }
  // Stores a product made from `now` (replacing, and so destroying, any older one).
  T& set(const Revisions& now, std::unique_ptr<T> value) {
    value_.reset();  // the old one's job stops before the new one starts being used
    value_ = std::move(value);
    stamp_.take(now);
    return *value_;
  }
  template <typename... Args>
  T& make(const Revisions& now, Args&&... args) {
    return set(now, std::make_unique<T>(std::forward<Args>(args)...));
  }
  // Destroys the product when an input moved on; true when it did.
  bool drop_stale(const Revisions& now) {
    if (!value_ || stamp_.fresh(now)) return false;
    reset();
    return true;
  }
  void reset() {
    value_.reset();
    stamp_.clear();
  }

 private:
  RevisionStamp stamp_;
  std::unique_ptr<T> value_;
};

}  // namespace rig
