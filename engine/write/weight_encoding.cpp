#include "write/weight_encoding.h"

#include <algorithm>
#include <cmath>

namespace rig::write {

std::array<float, 4> normalized_weights(const std::array<float, 4>& weights) {
  double sum = 0.0;
  for (float w : weights) sum += double(w);
  std::array<float, 4> out{};
  if (!(sum > 0.0)) return out;
  for (size_t i = 0; i < 4; ++i) out[i] = float(double(weights[i]) / sum);
  return out;
}

std::array<uint32_t, 4> normalized_integer_weights(const std::array<float, 4>& weights,
                                                   uint32_t max) {
  std::array<double, 4> scaled{};
  double sum = 0.0;
  for (size_t i = 0; i < 4; ++i) {
    scaled[i] = std::clamp(double(weights[i]), 0.0, 1.0) * double(max);
    sum += scaled[i];
  }
  // The total the integers must reach, then one more unit for each of the largest remainders.
  const auto total = uint32_t(std::min(std::llround(sum), static_cast<long long>(max)));
  std::array<uint32_t, 4> out{};
  uint32_t given = 0;
  for (size_t i = 0; i < 4; ++i) {
    out[i] = uint32_t(std::floor(scaled[i]));
    given += out[i];
  }
  std::array<size_t, 4> order{0, 1, 2, 3};
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return scaled[a] - std::floor(scaled[a]) > scaled[b] - std::floor(scaled[b]);
  });
  for (size_t k = 0; given < total && k < 4; ++k) {
    if (out[order[k]] >= max) continue;
    ++out[order[k]];
    ++given;
  }
  // Floors of weights summing above 1 may exceed the total: take units back, smallest remainder
  // first.
  for (size_t k = 4; given > total && k-- > 0;) {
    if (out[order[k]] == 0) continue;
    --out[order[k]];
    --given;
  }
  return out;
}

}  // namespace rig::write
