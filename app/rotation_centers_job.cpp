#include "rotation_centers_job.h"

#include <chrono>
#include <cstdio>

#include "skin/rotation_centers.h"

namespace rigview {

bool needs_rotation_centers(std::span<const rig::SkinningMethod> methods) {
  for (rig::SkinningMethod m : methods)
    if (rig::method_info(m).uses_rotation_centers) return true;
  return false;
}

namespace {

struct ConsoleProgress {
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  bool enabled = false;
  bool printed = false;
  int last_percent = -1;
};

bool console_progress(void* user, float fraction) {
  ConsoleProgress& p = *static_cast<ConsoleProgress*>(user);
  if (!p.enabled) return true;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - p.started).count();
  const int percent = int(fraction * 100.0f);
  if (seconds > 1.0 && percent != p.last_percent) {
    std::fprintf(stderr, "\rrigview: centres of rotation: %3d%%", percent);
    std::fflush(stderr);
    p.printed = true;
    p.last_percent = percent;
  }
  return true;
}

}  // namespace

std::shared_ptr<rig::SkinLayer> prepared_skin_layer(const rig::Model& model,
                                                    std::span<const rig::SkinningMethod> methods,
                                                    bool progress, const rig::SkinLayer* from) {
  auto meshes =
      std::make_shared<rig::SkinMeshes>(from ? from->meshes() : rig::prepare_skin_meshes(model));
  auto layer = [&] {
    return from ? std::make_shared<rig::SkinLayer>(*from)
                : std::make_shared<rig::SkinLayer>(model, std::move(*meshes));
  };
  if (!needs_rotation_centers(methods)) return layer();
  for (rig::SkinMesh& mesh : meshes->primitives) mesh.rotation_centers.clear();
  ConsoleProgress p;
  p.enabled = progress;
  bool from_cache = false;
  rig::prepare_rotation_centers(model, *meshes, rig::CorOptions{}, console_progress, &p,
                                from_cache);
  if (p.printed) std::fprintf(stderr, "\rrigview: centres of rotation: 100%%\n");
  if (!from) return layer();
  auto edited = layer();
  edited->set_rotation_centers(*meshes);
  return edited;
}

RotationCentersJob::~RotationCentersJob() { cancel(); }

void RotationCentersJob::cancel() {
  cancel_.store(true);
  if (thread_.joinable()) thread_.join();
  cancel_.store(false);
  done_.store(false);
  progress_.store(0.0f);
  result_.reset();
}

void RotationCentersJob::start(const rig::Model& model) {
  start(model, rig::prepare_skin_meshes(model));
}

void RotationCentersJob::start(const rig::Model& model, rig::SkinMeshes influences) {
  cancel();
  auto meshes = std::make_shared<rig::SkinMeshes>(std::move(influences));
  for (rig::SkinMesh& mesh : meshes->primitives) mesh.rotation_centers.clear();
  thread_ = std::thread([this, &model, meshes] {
    bool from_cache = false;
    const bool finished = rig::prepare_rotation_centers(
        model, *meshes, rig::CorOptions{},
        [](void* user, float fraction) {
          auto* job = static_cast<RotationCentersJob*>(user);
          job->progress_.store(fraction);
          return !job->cancel_.load();
        },
        this, from_cache);
    if (finished) {
      result_ = std::move(meshes);
      progress_.store(1.0f);
    }
    done_.store(true);
  });
}

}  // namespace rigview
