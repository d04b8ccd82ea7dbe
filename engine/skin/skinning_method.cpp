#include "skin/skinning_method.h"

#include <array>

#include "skin/cor_kernel.h"
#include "skin/mix_kernel.h"
#include "skin/skin_kernels.h"
#include "skin/skin_position_kernels.h"

namespace rig {

namespace {

constexpr std::array<SkinningMethodInfo, kSkinningMethodCount> kMethods = {{
    {SkinningMethod::Linear, "lbs", "LBS", "linear blend", kLinearPaletteRows, write_linear_palette,
     skin_linear_kernel, false, "skin_lbs.glsl", skin_linear_positions_kernel},
    {SkinningMethod::DualQuaternion, "dqs", "DQS", "dual quaternion", kDualQuatPaletteRows,
     write_dual_quat_palette, skin_dual_quat_kernel, false, "skin_dqs.glsl",
     skin_dual_quat_positions_kernel},
    {SkinningMethod::CentersOfRotation, "cor", "CoR", "optimized centres of rotation",
     kCorPaletteRows, write_cor_palette, skin_cor_kernel, true, "skin_cor.glsl", nullptr},
    {SkinningMethod::Mix, "mix", "Mix", "LBS/DQS per joint", kMixPaletteRows, write_mix_palette,
     skin_mix_kernel, false, "skin_mix.glsl", nullptr, write_mix_amounts},
}};

// The enum value is the row index: a row out of place would silently swap methods.
constexpr bool rows_in_enum_order() {
  for (size_t i = 0; i < kMethods.size(); ++i)
    if (static_cast<size_t>(kMethods[i].method) != i) return false;
  return true;
}
static_assert(rows_in_enum_order(), "skinning-method rows must follow the enum order");

// The names of the rows `keep` accepts, in table order, joined by `separator`.
template <class Keep>
std::string joined_names(std::string_view separator, Keep keep) {
  std::string out;
  for (const SkinningMethodInfo& m : kMethods) {
    if (!keep(m)) continue;
    if (!out.empty()) out += separator;
    out += m.name;
  }
  return out;
}

}  // namespace

std::span<const SkinningMethodInfo> skinning_methods() { return kMethods; }

const SkinningMethodInfo& method_info(SkinningMethod method) {
  return kMethods[static_cast<size_t>(method)];
}

const SkinningMethodInfo* find_skinning_method(std::string_view name) {
  for (const SkinningMethodInfo& m : kMethods)
    if (name == m.name) return &m;
  return nullptr;
}

std::string skinning_method_names(std::string_view separator) {
  return joined_names(separator, [](const SkinningMethodInfo&) { return true; });
}

std::string joint_amount_method_names(std::string_view separator) {
  return joined_names(separator,
                      [](const SkinningMethodInfo& m) { return m.write_joint_amounts != nullptr; });
}

}  // namespace rig
