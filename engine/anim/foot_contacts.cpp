#include "anim/foot_contacts.h"

#include <algorithm>
#include <cmath>

#include "anim/clip_source.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/skeleton.h"

namespace rig {

namespace {

float median(std::vector<float> v) {
  if (v.empty()) return 0.0f;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
  return v[mid];
}

}  // namespace

std::vector<glm::mat4> clip_world_matrices(const Model& model, int clip, float time,
                                           const RootMotionClip* root_motion) {
  Pose pose;
  init_rest_pose(model, pose);
  if (clip >= 0 && size_t(clip) < model.clips.size())
    RawClipSource(model, model.clips[size_t(clip)])
        .sample(time, {}, pose.local, pose.morph_weights);
  if (root_motion) root_motion->apply(pose.local);
  std::vector<glm::mat4> world(model.nodes.size());
  compute_world_matrices(model, pose, world);
  return world;
}

FootContacts detect_foot_contacts(const Model& model, int clip, std::span<const int> feet,
                                  const FootContactSettings& settings) {
  FootContacts out;
  if (clip < 0 || size_t(clip) >= model.clips.size()) return out;
  const Clip& c = model.clips[size_t(clip)];
  out.clip = clip;
  out.start = c.start;
  out.end = c.end;
  out.up = glm::length(settings.up) > 0.0f ? glm::normalize(settings.up) : glm::vec3(0, 1, 0);
  const float duration = c.end - c.start;
  const int steps = std::max(1, int(std::lround(duration * std::max(settings.sample_rate, 1.0f))));
  out.sample_rate =
      duration > 0.0f ? float(steps) / duration : std::max(settings.sample_rate, 1.0f);
  const bool looping = settings.looping && duration > 0.0f;
  out.looping = looping;
  const int n = looping ? steps : steps + 1;
  const float dt = duration > 0.0f ? duration / float(steps) : 0.0f;
  out.times.resize(size_t(n));
  for (int i = 0; i < n; ++i) out.times[size_t(i)] = c.start + dt * float(i);

  out.feet.resize(feet.size());
  // Per foot and sample: where its chain's root (the hip) is, and how far the chain reaches.
  std::vector<std::vector<glm::vec3>> hips(feet.size(), std::vector<glm::vec3>(size_t(n)));
  std::vector<std::vector<float>> reach(feet.size(), std::vector<float>(size_t(n), 0.0f));
  for (size_t f = 0; f < feet.size(); ++f) {
    out.feet[f].foot = feet[f];
    out.feet[f].positions.resize(size_t(n));
  }
  // What clip_world_matrices does per sample, with the clip's sampler, skeleton and buffers made
  // once (preparing a long clip's sampler per sample made detection quadratic in its length).
  const RawClipSource source(model, c);
  const Skeleton skeleton = Skeleton::build(model);
  Pose rest, pose;
  init_rest_pose(model, rest);
  std::vector<glm::mat4> world(model.nodes.size());
  for (int i = 0; i < n; ++i) {
    pose = rest;
    source.sample(out.times[size_t(i)], {}, pose.local, pose.morph_weights);
    if (settings.root_motion) settings.root_motion->apply(pose.local);
    LocalToWorldJob{&skeleton, pose.local, world, -1}.run();
    for (size_t f = 0; f < feet.size(); ++f) {
      if (feet[f] < 0 || size_t(feet[f]) >= world.size()) continue;
      FootContactTrack& t = out.feet[f];
      t.positions[size_t(i)] = glm::vec3(world[size_t(feet[f])][3]);
      const int mid = model.nodes[size_t(feet[f])].parent;
      const int root = mid >= 0 ? model.nodes[size_t(mid)].parent : -1;
      if (root < 0) continue;
      const glm::vec3 a(world[size_t(root)][3]), b(world[size_t(mid)][3]);
      hips[f][size_t(i)] = a;
      reach[f][size_t(i)] = glm::length(b - a) + glm::length(t.positions[size_t(i)] - b);
      if (i == 0) t.leg_length = reach[f][0];
    }
  }
  const glm::vec3 up = out.up;
  auto height = [&](glm::vec3 p) { return glm::dot(p, up); };
  // Velocity per sample: central differences (wrapping when looping).
  auto velocity = [&](const FootContactTrack& t, int i) {
    if (n < 2 || dt <= 0.0f) return glm::vec3(0.0f);
    int a = i - 1, b = i + 1;
    float span = 2.0f * dt;
    if (looping) {
      a = (a + n) % n;
      b = b % n;
    } else {
      if (a < 0) a = 0, span = dt;
      if (b >= n) b = n - 1, span = dt;
    }
    return (t.positions[size_t(b)] - t.positions[size_t(a)]) / span;
  };
  std::vector<float> vx, vy, vz;
  for (FootContactTrack& t : out.feet) {
    t.lowest = height(t.positions[0]);
    for (const glm::vec3& p : t.positions) t.lowest = std::min(t.lowest, height(p));
    for (int i = 0; i < n; ++i) {
      if (height(t.positions[size_t(i)]) > t.lowest + settings.height_tolerance * t.leg_length)
        continue;
      glm::vec3 v = velocity(t, i);
      v -= up * glm::dot(v, up);
      vx.push_back(v.x);
      vy.push_back(v.y);
      vz.push_back(v.z);
    }
  }
  // The median is a first guess; a walk's stance speed is seldom constant, so the speed along
  // that direction that the most low samples match within the threshold (the mode) wins.
  const glm::vec3 guess = -glm::vec3(median(vx), median(vy), median(vz));
  auto classify = [&](glm::vec3 ground, bool write) {
    size_t count = 0;
    for (FootContactTrack& t : out.feet) {
      if (write) t.contact.assign(size_t(n), 0);
      for (int i = 0; i < n; ++i) {
        const bool low =
            height(t.positions[size_t(i)]) <= t.lowest + settings.height_tolerance * t.leg_length;
        const float speed = glm::length(velocity(t, i) + ground);
        const bool c = low && speed < settings.speed_threshold * t.leg_length;
        count += c;
        if (write) t.contact[size_t(i)] = c;
      }
    }
    return count;
  };
  out.ground_velocity = guess;
  size_t best = classify(guess, false);
  constexpr int kCandidates = 40;
  for (int k = 0; k <= kCandidates; ++k) {
    const glm::vec3 candidate = guess * (2.0f * float(k) / float(kCandidates));
    const size_t count = classify(candidate, false);
    if (count > best || (count == best && glm::length(candidate - guess) <
                                              glm::length(out.ground_velocity - guess))) {
      best = count;
      out.ground_velocity = candidate;
    }
  }
  classify(out.ground_velocity, true);
  const int min_samples =
      std::max(1, int(std::ceil(settings.min_contact_time * out.sample_rate - 1e-3f)));

  for (FootContactTrack& t : out.feet) {
    t.run.assign(size_t(n), -1);
    for (int i = 0; i < n; ++i) {
      if (!t.contact[size_t(i)]) continue;
      if (i > 0 && t.contact[size_t(i - 1)]) {
        t.run[size_t(i)] = t.run[size_t(i - 1)];
        ++t.runs.back().count;
      } else {
        t.runs.push_back({i, 1, glm::vec3(0.0f)});
        t.run[size_t(i)] = int(t.runs.size()) - 1;
      }
    }
    // A run touching the end continues into the one at the start.
    if (looping && t.runs.size() > 1 && t.contact[0] && t.contact[size_t(n - 1)]) {
      FootContactTrack::Run& last = t.runs.back();
      const FootContactTrack::Run first = t.runs.front();
      last.count += first.count;
      for (int i = 0; i < first.count; ++i) t.run[size_t(i)] = int(t.runs.size()) - 1;
      // Drop the first run; renumber.
      t.runs.erase(t.runs.begin());
      for (int& r : t.run)
        if (r > 0) --r;
    }
    // Runs shorter than min_contact_time are noise, not contacts.
    for (size_t r = t.runs.size(); r-- > 0;) {
      if (t.runs[r].count >= min_samples) continue;
      for (int k = 0; k < t.runs[r].count; ++k) {
        const size_t i = size_t((t.runs[r].first + k) % n);
        t.contact[i] = 0;
        t.run[i] = -1;
      }
      t.runs.erase(t.runs.begin() + std::ptrdiff_t(r));
      for (int& id : t.run)
        if (id > int(r)) --id;
    }
    const size_t f = size_t(&t - out.feet.data());
    for (FootContactTrack::Run& r : t.runs) {
      glm::vec3 sum(0.0f);
      for (int k = 0; k < r.count; ++k) {
        const int i = (r.first + k) % n;
        const float time = c.start + dt * float(r.first + k);  // unrolled
        sum += out.to_ground(t.positions[size_t(i)], time);
      }
      r.lock = sum / float(r.count);
      // Keep the lock within the leg's reach from the hip at every sample of the run (alternating
      // projections onto those balls), so IK can hold it exactly for the whole contact.
      for (int pass = 0; pass < 64; ++pass) {
        bool moved = false;
        for (int k = 0; k < r.count; ++k) {
          const int i = (r.first + k) % n;
          const float limit = reach[f][size_t(i)] * (1.0f - 1e-4f);
          if (!(limit > 0.0f)) continue;
          const glm::vec3 hip =
              out.to_ground(hips[f][size_t(i)], c.start + dt * float(r.first + k));
          const glm::vec3 d = r.lock - hip;
          const float l = glm::length(d);
          if (l > limit) {
            r.lock = hip + d * ((limit * (1.0f - 1e-5f)) / l);
            moved = true;
          }
        }
        if (!moved) break;
      }
    }
  }
  return out;
}

bool FootContacts::nearest_target(size_t f, float time, float lead, glm::vec3& out,
                                  float& distance) const {
  if (f >= feet.size() || times.empty()) return false;
  const FootContactTrack& t = feet[f];
  const int n = int(times.size());
  const float dt = 1.0f / sample_rate;
  const float duration = end - start;
  const bool wraps = looping;
  const float clamped = std::clamp(time, start, end);
  const long here = std::lround((clamped - start) / dt);
  const int reach = int(std::ceil(std::max(lead, 0.0f) * sample_rate));
  int best_run = -1, best_gap = reach + 1;
  for (int gap = 0; gap <= reach && best_run < 0; ++gap)
    for (int sign : {1, -1}) {
      long i = here + sign * gap;
      if (wraps)
        i = ((i % n) + n) % n;
      else if (i < 0 || i >= n)
        continue;
      if (t.run[size_t(i)] >= 0) {
        best_run = t.run[size_t(i)];
        best_gap = gap;
        break;
      }
    }
  if (best_run < 0) return false;
  const FootContactTrack::Run& r = t.runs[size_t(best_run)];
  // The clip time unrolled to lie nearest the run's own (unrolled) span.
  const float run_begin = start + dt * float(r.first);
  const float run_end = start + dt * float(r.first + r.count - 1);
  float u = clamped;
  if (wraps) {
    auto gap_to = [&](float x) {
      return x < run_begin ? run_begin - x : (x > run_end ? x - run_end : 0.0f);
    };
    for (float cand : {clamped + duration, clamped - duration})
      if (gap_to(cand) < gap_to(u)) u = cand;
  }
  out = r.lock - ground_velocity * (u - start);
  distance = float(best_gap) * dt;
  return true;
}

bool FootContacts::target(size_t f, float time, glm::vec3& out) const {
  float distance = 0.0f;
  return nearest_target(f, time, 0.0f, out, distance) && distance == 0.0f;
}

float max_contact_slip(const FootContacts& contacts,
                       std::span<const std::vector<glm::vec3>> positions) {
  float worst = 0.0f;
  const int n = int(contacts.times.size());
  const float dt = 1.0f / contacts.sample_rate;
  for (size_t f = 0; f < contacts.feet.size() && f < positions.size(); ++f) {
    const FootContactTrack& t = contacts.feet[f];
    if (positions[f].size() != size_t(n)) continue;
    for (const FootContactTrack::Run& r : t.runs) {
      const glm::vec3 first = contacts.to_ground(positions[f][size_t(r.first % n)],
                                                 contacts.start + dt * float(r.first));
      for (int k = 1; k < r.count; ++k) {
        const int i = (r.first + k) % n;
        const glm::vec3 g =
            contacts.to_ground(positions[f][size_t(i)], contacts.start + dt * float(r.first + k));
        worst = std::max(worst, glm::length(g - first));
      }
    }
  }
  return worst;
}

}  // namespace rig
