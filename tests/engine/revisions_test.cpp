// model/revisions.h: revisions never repeat, a stamp is fresh only while every input it read
// is unchanged, and a derived product is dropped (destroyed) once one of them moves on.
#include "model/revisions.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>

namespace {

TEST(Revisions, NoTwoInputsOrObjectsShareARevision) {
  rig::Revisions a, b;
  std::set<uint64_t> seen;
  for (uint64_t v : a.values()) seen.insert(v);
  for (uint64_t v : b.values()) seen.insert(v);
  EXPECT_EQ(seen.size(), 2 * rig::kInputCount);
  const uint64_t before = a[rig::Input::ClipSet];
  a.bump(rig::Input::ClipSet);
  EXPECT_NE(a[rig::Input::ClipSet], before);
  EXPECT_EQ(seen.count(a[rig::Input::ClipSet]), 0u);
}

TEST(Revisions, AStampIsFreshOnlyWhileItsInputsAreUnchanged) {
  rig::Revisions r;
  rig::RevisionStamp stamp(rig::inputs({rig::Input::SkinWeights, rig::Input::ClipSet}));
  EXPECT_FALSE(stamp.fresh(r));  // never taken
  stamp.take(r);
  EXPECT_TRUE(stamp.fresh(r));
  r.bump(rig::Input::InverseBindMatrices);  // not read
  r.bump(rig::Input::SkinningSettings);
  EXPECT_TRUE(stamp.fresh(r));
  r.bump(rig::Input::ClipSet);
  EXPECT_FALSE(stamp.fresh(r));
  stamp.take(r);
  EXPECT_TRUE(stamp.fresh(r));
  rig::Revisions other;  // another document's inputs
  EXPECT_FALSE(stamp.fresh(other));
}

struct Tracked {
  explicit Tracked(int* destroyed) : destroyed_(destroyed) {}
  ~Tracked() { ++*destroyed_; }
  int* destroyed_;
};

TEST(Revisions, ADerivedProductIsDestroyedWhenAnInputMovesOn) {
  rig::Revisions r;
  int destroyed = 0;
  rig::Derived<Tracked> product(rig::inputs({rig::Input::Model}));
  EXPECT_EQ(product.get(r), nullptr);
  // Addresses as numbers: GCC's use-after-free check cannot see that nothing was freed here.
  const auto address = [](const Tracked* t) { return reinterpret_cast<uintptr_t>(t); };
  const uintptr_t made = address(&product.make(r, &destroyed));
  EXPECT_EQ(address(product.get(r)), made);
  r.bump(rig::Input::ClipSet);
  EXPECT_FALSE(product.drop_stale(r));
  EXPECT_EQ(address(product.get(r)), made);
  r.bump(rig::Input::Model);
  EXPECT_EQ(product.get(r), nullptr);  // stale: never handed out
  EXPECT_EQ(destroyed, 0);
  EXPECT_TRUE(product.drop_stale(r));
  EXPECT_EQ(destroyed, 1);
  product.make(r, &destroyed);
  product.make(r, &destroyed);  // replacing destroys the old one
  EXPECT_EQ(destroyed, 2);
  product.reset();
  EXPECT_EQ(destroyed, 3);
}

}  // namespace
