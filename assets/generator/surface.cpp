#include "surface.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "pose_math.h"

namespace rig::gen {
namespace {

double distance_squared_to_segment(const glm::dvec3& p, const BoneSegment& bone) {
  const glm::dvec3 ab = bone.b - bone.a;
  const double len2 = glm::dot(ab, ab);
  double t = len2 > 0.0 ? glm::dot(p - bone.a, ab) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const glm::dvec3 d = p - (bone.a + t * ab);
  return glm::dot(d, d);
}

// Cross-section at s, interpolated with smoothstep between keys so radii have zero slope at
// every key (and the caps, which start with zero slope, join without a crease).
ProfileKey profile_at(const std::vector<ProfileKey>& keys, double s) {
  if (s <= keys.front().s) return keys.front();
  if (s >= keys.back().s) return keys.back();
  size_t i = 0;
  while (i + 2 < keys.size() && s > keys[i + 1].s) ++i;
  const ProfileKey& a = keys[i];
  const ProfileKey& b = keys[i + 1];
  const double u = smoothstep01((s - a.s) / (b.s - a.s));
  ProfileKey k;
  k.s = s;
  k.r1 = a.r1 + (b.r1 - a.r1) * u;
  k.r2 = a.r2 + (b.r2 - a.r2) * u;
  k.offset2 = a.offset2 + (b.offset2 - a.offset2) * u;
  return k;
}

// The tube as one parametric surface S(t, theta): t runs over the start cap, the body and the
// end cap. In a cap, t maps to the cap angle phi so that the axial speed is continuous (C1).
struct TubeSurface {
  const TubeSpec& spec;
  glm::dvec3 e2;
  double s0, s1, t_min, t_max;

  explicit TubeSurface(const TubeSpec& tube)
      : spec(tube),
        e2(glm::cross(tube.axis, tube.e1)),
        s0(tube.profile.front().s),
        s1(tube.profile.back().s),
        t_min(s0 - tube.cap_start * kPi / 2.0),
        t_max(s1 + tube.cap_end * kPi / 2.0) {}

  // Axial position, radius scale and the cross-section used at t.
  void frame_at(double t, double& axial, double& scale, ProfileKey& prof) const {
    if (t < s0 && spec.cap_start > 0.0) {
      const double phi = (s0 - t) / spec.cap_start;
      axial = s0 - spec.cap_start * std::sin(phi);
      scale = std::cos(phi);
      prof = profile_at(spec.profile, s0);
    } else if (t > s1 && spec.cap_end > 0.0) {
      const double phi = (t - s1) / spec.cap_end;
      axial = s1 + spec.cap_end * std::sin(phi);
      scale = std::cos(phi);
      prof = profile_at(spec.profile, s1);
    } else {
      axial = t;
      scale = 1.0;
      prof = profile_at(spec.profile, t);
    }
  }

  glm::dvec3 centre(double t) const {
    double axial, scale;
    ProfileKey prof;
    frame_at(t, axial, scale, prof);
    return spec.origin + spec.axis * axial + e2 * prof.offset2;
  }

  glm::dvec3 point(double t, double theta) const {
    double axial, scale;
    ProfileKey prof;
    frame_at(t, axial, scale, prof);
    return spec.origin + spec.axis * axial + e2 * prof.offset2 +
           scale * (spec.e1 * (prof.r1 * std::cos(theta)) + e2 * (prof.r2 * std::sin(theta)));
  }

  glm::dvec3 normal(double t, double theta, bool is_pole) const {
    if (is_pole) return t <= s0 ? -spec.axis : spec.axis;
    const double h = 1e-5;
    const glm::dvec3 d_theta = point(t, theta + h) - point(t, theta - h);
    const glm::dvec3 d_t = point(t + h, theta) - point(t - h, theta);
    glm::dvec3 n = glm::normalize(glm::cross(d_theta, d_t));
    if (glm::dot(n, point(t, theta) - centre(t)) < 0.0) n = -n;
    return n;
  }
};

}  // namespace

Influences influences_from_bones(const glm::dvec3& p, const std::vector<BoneSegment>& bones,
                                 double falloff) {
  std::vector<double> d2(bones.size());
  double d2_min = 1e300;
  for (size_t i = 0; i < bones.size(); ++i) {
    d2[i] = distance_squared_to_segment(p, bones[i]);
    d2_min = std::min(d2_min, d2[i]);
  }
  std::map<int, double> by_joint;  // ordered: deterministic iteration
  for (size_t i = 0; i < bones.size(); ++i) {
    const double x = std::sqrt(std::max(0.0, d2[i] - d2_min)) / falloff;
    const double w = x < 1.0 ? (1.0 - x * x) * (1.0 - x * x) : 0.0;
    double& slot = by_joint[bones[i].joint];
    slot = std::max(slot, w);
  }
  std::vector<std::pair<double, int>> ranked;
  for (const auto& [joint, w] : by_joint)
    if (w > 0.0) ranked.emplace_back(w, joint);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (ranked.size() > 4) ranked.resize(4);
  double total = 0.0;
  for (const auto& r : ranked) total += r.first;
  while (ranked.size() > 1 && ranked.back().first / total < 0.005) {
    total -= ranked.back().first;
    ranked.pop_back();
  }
  Influences inf;
  float rest = 0.0f;
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (ranked[i].second > 255) throw std::runtime_error("joint index does not fit a byte");
    inf.joints[i] = static_cast<uint8_t>(ranked[i].second);
    inf.weights[i] = static_cast<float>(ranked[i].first / total);
    if (i > 0) rest += inf.weights[i];
  }
  // The largest weight absorbs the rounding so the four floats sum to 1 as exactly as floats can.
  inf.weights[0] = 1.0f - rest;
  return inf;
}

void add_tube(const TubeSpec& spec, SkinnedMesh& mesh) {
  const TubeSurface surface(spec);

  // Ring parameters: start cap (pole first), body stations, end cap (pole last).
  std::vector<double> rings;
  std::vector<bool> pole;
  if (spec.cap_start > 0.0) {
    for (int k = spec.cap_rings; k >= 1; --k) {
      rings.push_back(surface.s0 - spec.cap_start * (kPi / 2.0) * k / spec.cap_rings);
      pole.push_back(k == spec.cap_rings);
    }
  }
  std::vector<double> stations = spec.ring_at;
  stations.push_back(surface.s0);
  stations.push_back(surface.s1);
  std::sort(stations.begin(), stations.end());
  stations.erase(std::remove_if(stations.begin(), stations.end(),
                                [&](double s) { return s < surface.s0 || s > surface.s1; }),
                 stations.end());
  // Stations closer than a micrometre are one ring (0.72 - 0.06 need not equal 0.66).
  stations.erase(std::unique(stations.begin(), stations.end(),
                             [](double a, double b) { return b - a < 1e-6; }),
                 stations.end());
  stations.back() = surface.s1;
  for (size_t i = 0; i + 1 < stations.size(); ++i) {
    const double len = stations[i + 1] - stations[i];
    const int n = std::max(1, static_cast<int>(std::ceil(len / spec.ring_spacing - 1e-9)));
    for (int k = 0; k < n; ++k) {
      rings.push_back(stations[i] + len * k / n);
      pole.push_back(false);
    }
  }
  rings.push_back(surface.s1);
  pole.push_back(false);
  if (spec.cap_end > 0.0) {
    for (int k = 1; k <= spec.cap_rings; ++k) {
      rings.push_back(surface.s1 + spec.cap_end * (kPi / 2.0) * k / spec.cap_rings);
      pole.push_back(k == spec.cap_rings);
    }
  }

  const uint32_t base = static_cast<uint32_t>(mesh.positions.size());
  const int columns = spec.segments + 1;  // the seam column repeats column 0 with u = 1
  for (size_t r = 0; r < rings.size(); ++r) {
    const double t = rings[r];
    const double v =
        spec.v0 + (spec.v1 - spec.v0) * (t - surface.t_min) / (surface.t_max - surface.t_min);
    glm::dvec3 seam_position{0.0}, seam_normal{0.0};
    Influences seam_influences;
    for (int c = 0; c < columns; ++c) {
      glm::dvec3 p, n;
      Influences inf;
      if (c == spec.segments) {
        p = seam_position;
        n = seam_normal;
        inf = seam_influences;
      } else {
        const double theta = 2.0 * kPi * c / spec.segments;
        p = pole[r] ? surface.centre(t) : surface.point(t, theta);
        n = surface.normal(t, theta, pole[r]);
        inf = influences_from_bones(p, spec.bones, spec.falloff);
        if (c == 0) {
          seam_position = p;
          seam_normal = n;
          seam_influences = inf;
        }
      }
      mesh.positions.push_back(p);
      mesh.normals.push_back(n);
      mesh.uvs.push_back({double(c) / spec.segments, v});
      mesh.influences.push_back(inf);
    }
  }

  // Quads (a, b, c, d) = (ring r col j, r col j+1, r+1 col j+1, r+1 col j); e1 x e2 = axis
  // makes (a, b, c) counter-clockwise seen from outside. Pole rings get one triangle per quad.
  for (size_t r = 0; r + 1 < rings.size(); ++r) {
    for (int j = 0; j < spec.segments; ++j) {
      const uint32_t a = base + uint32_t(r * columns + j);
      const uint32_t b = a + 1;
      const uint32_t d = a + uint32_t(columns);
      const uint32_t c = d + 1;
      if (!pole[r]) mesh.indices.insert(mesh.indices.end(), {a, b, c});
      if (!pole[r + 1]) mesh.indices.insert(mesh.indices.end(), {a, c, d});
    }
  }
}

}  // namespace rig::gen
