#include "write/weight_encoding.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace rig::write {

namespace {

double sum_of(std::span<const float> weights) {
  double sum = 0.0;  // in slot order, as the importer adds them
  for (float w : weights) sum += double(w);
  return sum;
}

// One pass of the importer's normalization; false (out untouched) when the sum is not positive.
bool divide_by_sum(std::span<const float> weights, std::span<float> out) {
  const double sum = sum_of(weights);
  if (!(sum > 0.0)) return false;
  for (size_t i = 0; i < weights.size(); ++i) out[i] = float(double(weights[i]) / sum);
  return true;
}

}  // namespace

bool reads_back_unchanged(std::span<const float> weights) {
  const double sum = sum_of(weights);
  if (!(sum > 0.0)) return true;
  for (float w : weights)
    if (float(double(w) / sum) != w) return false;
  return true;
}

void normalized_weights(std::span<const float> weights, std::span<float> out) {
  std::fill(out.begin(), out.end(), 0.0f);
  if (!divide_by_sum(weights, out) || reads_back_unchanged(out)) return;
  // The quotients' sum misses 1 by a few units in the last place, so dividing by it again would
  // move some of them. Keep every other weight and give the largest what makes the sum 1 (exact
  // in double unless the weights' exponents lie 29 apart), or the nearest float that reads back.
  const size_t largest = size_t(std::max_element(out.begin(), out.end()) - out.begin());
  double others = 0.0;
  for (size_t i = 0; i < out.size(); ++i)
    if (i != largest) others += double(out[i]);
  const float rest = float(std::max(0.0, 1.0 - others));
  for (int step = 0; step <= 8; ++step)
    for (const float toward : {2.0f, 0.0f}) {
      float candidate = rest;
      for (int k = 0; k < step; ++k) candidate = std::nextafter(candidate, toward);
      out[largest] = candidate;
      if (reads_back_unchanged(out)) return;
    }
  // Not expected (the search covers the float sum's rounding); the plain pass again otherwise.
  divide_by_sum(weights, out);
  std::vector<float> next(out.size());
  for (int pass = 0; pass < 8 && !reads_back_unchanged(out); ++pass) {
    divide_by_sum(out, next);
    std::copy(next.begin(), next.end(), out.begin());
  }
}

std::array<float, 4> normalized_weights(const std::array<float, 4>& weights) {
  std::array<float, 4> out{};
  normalized_weights(weights, out);
  return out;
}

void normalized_integer_weights(std::span<const float> weights, uint32_t max,
                                std::span<uint32_t> out) {
  const size_t n = weights.size();
  std::vector<double> scaled(n);
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) {
    scaled[i] = std::clamp(double(weights[i]), 0.0, 1.0) * double(max);
    sum += scaled[i];
  }
  // The total the integers must reach, then one more unit for each of the largest remainders.
  const auto total = uint32_t(std::min(std::llround(sum), static_cast<long long>(max)));
  uint32_t given = 0;
  for (size_t i = 0; i < n; ++i) {
    out[i] = uint32_t(std::floor(scaled[i]));
    given += out[i];
  }
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return scaled[a] - std::floor(scaled[a]) > scaled[b] - std::floor(scaled[b]);
  });
  for (size_t k = 0; given < total && k < n; ++k) {
    if (out[order[k]] >= max) continue;
    ++out[order[k]];
    ++given;
  }
  // Floors of weights summing above 1 may exceed the total: take units back, smallest remainder
  // first.
  for (size_t k = n; given > total && k-- > 0;) {
    if (out[order[k]] == 0) continue;
    --out[order[k]];
    --given;
  }
}

std::array<uint32_t, 4> normalized_integer_weights(const std::array<float, 4>& weights,
                                                   uint32_t max) {
  std::array<uint32_t, 4> out{};
  normalized_integer_weights(weights, max, out);
  return out;
}

}  // namespace rig::write
