// The viewer's document: opening files, simulated bugs, the requests panels post, and the
// derived products it keeps up to date every frame (centres of rotation, artefact measures,
// compression, the crowd).
#include "clip_files.h"
#include "viewer/bone_map_edit.h"
#include "viewer/viewer_app.h"

namespace rigview {

bool Viewer::rebuild_crowd(std::string& error) {
  crowd_.reset();  // its threads end before the new crowd starts its own
  state_.crowd_count = 0;
  rig::CrowdConfig config;
  config.count = options_.crowd;
  // The character's clips (those added to it too), raw: a copy shares their prepared sources
  // but not the character's compressed playback.
  auto clips = std::make_shared<rig::ClipSet>(doc_.character->clips());
  clips->restore_all();
  crowd_ = std::make_unique<rig::Crowd>(*doc_.model, doc_.character->shared_skin_layer(), config,
                                        std::move(clips));
  const rig::SkinningMethod method = methods_shown(state_).front();
  crowd_->set_methods({&method, 1});
  crowd_->set_dqs_amounts(doc_.dqs_amounts);
  crowd_made_.take(doc_.revisions);
  crowd_amounts_.take(doc_.revisions);
  if (!crowd_renderer_->set_crowd(*crowd_, error)) {
    crowd_.reset();
    return false;
  }
  state_.crowd_count = crowd_->count();
  state_.crowd_threads = crowd_->thread_count();
  return true;
}

void Viewer::update_crowd(float dt) {
  if (!crowd_renderer_) return;
  std::string error;
  if (!crowd_ || crowd_->methods().front() != methods_shown(state_).front() ||
      !crowd_made_.fresh(doc_.revisions)) {
    if (!rebuild_crowd(error)) {
      // The crowd is off from here on (the single character shows): not retried every frame.
      state_.error_message = "--crowd: " + error;
      crowd_renderer_.reset();
      return;
    }
  }
  if (!crowd_amounts_.fresh(doc_.revisions)) {  // a mix checkbox changed
    crowd_->set_dqs_amounts(doc_.dqs_amounts);
    crowd_amounts_.take(doc_.revisions);
    crowd_->update(0.0f);
  }
  const rig::Playback& p = doc_.playback;
  const TimelineFrame now{p.clip(), p.time()};
  const double step = crowd_clock_step(p.playing(), state_.scrubbing, state_.rest_pose, dt,
                                       p.speed(), crowd_timeline_, now);
  crowd_timeline_ = now;
  if (step != 0.0) crowd_->evaluate_at(crowd_->time() + step);
  crowd_renderer_->upload(*crowd_);
  state_.crowd_update_ms = crowd_->last_update_ms();
  state_.crowd_update_cpu_ms = crowd_->last_update_cpu_ms();
  state_.crowd_upload_ms = crowd_renderer_->upload_ms();
  state_.crowd_gpu_ms = crowd_renderer_->gpu_time_ms();
}

void Viewer::simulate_bug(int bug) {
  if (bug == doc_.simulated_bug || !doc_.pristine) return;
  // The bug's document is made from the file's model: the file's unsaved skin edits would go
  // (a lesson's own edits are not the file's and may).
  if (editing_.modified() && doc_.simulated_bug < 0) {
    state_.edits.message = "save or undo the skin edits before simulating a bug";
    return;
  }
  derive_document(doc_, bug, pending_doc_);
  std::string error;
  if (!switch_renderer_model(*renderer_, doc_, pending_doc_, error)) {
    state_.error_message = doc_.path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    pending_doc_.stop_background_work();
    pending_doc_ = Document{};
    return;
  }
  // The same clip, time and playback settings (the derived model has the file's clips).
  const rig::Playback& old = doc_.playback;
  rig::Playback& p = pending_doc_.playback;
  if (old.clip() >= 0) {
    p.select_clip(old.clip());
    p.set_time(old.time());
  }
  p.set_playing(old.playing());
  p.set_looping(old.looping());
  p.set_speed(old.speed());
  stop_sweep();  // it reads the old model
  state_.sweep = SweepView{};
  std::swap(doc_, pending_doc_);
  pending_doc_.stop_background_work();
  pending_doc_ = Document{};
  state_.playback = &doc_.playback;
  editing_.reset(doc_);
  state_.vertex.inspect = state_.vertex.picked.primitive >= 0;  // the same vertex, new model
  // reversed-multiply adds nodes and keeps the old ones: a selected node stays valid; it is
  // checked anyway.
  if (state_.selected_node >= static_cast<int>(doc_.model->nodes.size())) state_.selected_node = -1;
  state_.hovered_node = -1;
}

// The Rig health panel's content (RIGVIEW_VIEWER_RIG_HEALTH), plus what the viewer did with it.
bool Viewer::write_rig_health(const std::string& path) const {
  std::ofstream out(path);
  out << rig_health_report(doc_.health());
  out << "bug "
      << (doc_.simulated_bug >= 0
              ? rig::simulated_bug_name(rig::kSimulatedBugs[size_t(doc_.simulated_bug)])
              : "none")
      << "\n";
  out << "selected "
      << (state_.selected_node >= 0 ? doc_.node_labels[size_t(state_.selected_node)] : "-") << "\n";
  out << "view " << (state_.surface_view == SurfaceView::RigFindings ? "rig-findings" : "other")
      << " finding " << doc_.health().field_finding << "\n";
  out << "camera " << state_.camera.target.x << " " << state_.camera.target.y << " "
      << state_.camera.target.z << " " << state_.camera.distance << "\n";
  out.close();
  if (!out) {
    std::fprintf(stderr, "rigview: error: %s: cannot write the rig health report\n", path.c_str());
    return false;
  }
  return true;
}

// The document's centres of rotation: while the background job runs, the methods that need
// them are marked as preparing (with its progress); once ready the document puts them in the
// skin layer, which the character skins with and the renderer uploads at its next update, and
// those methods become selectable.
void Viewer::update_rotation_centers() {
  doc_.poll_rotation_centers(self_test_.active());  // the self-test waits: repeatable frames
  uint32_t preparing = 0;
  if (const RotationCentersWork* work = doc_.rotation_centers();
      work && !work->published && work->job.running()) {
    for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
      if (m.uses_rotation_centers) preparing |= 1u << static_cast<uint32_t>(m.method);
    state_.preparing_progress = work->job.progress();
  }
  state_.methods_preparing = preparing;
  if (!preparing) state_.skinning_notice.clear();
}

// The artefact measures of the current pose, for what needs them this frame: the Artefacts
// panel (its method), the deflation heat map (every method on screen) and the difference map
// (LBS and DQS). The panel also keeps a scan of the current clip going in the background.
void Viewer::update_artefacts() {
  const SurfaceView view = state_.surface_view;
  const bool maps = view == SurfaceView::Deflation || view == SurfaceView::Difference;
  if (!maps && !state_.artefacts_open) return;
  ArtefactAnalysis& artefacts = doc_.make_artefacts();
  std::array<rig::SkinningMethod, rig::kSkinningMethodCount> wanted{};
  size_t count = 0;
  auto want = [&](rig::SkinningMethod m) {
    if (std::find(wanted.begin(), wanted.begin() + count, m) == wanted.begin() + count)
      wanted[count++] = m;
  };
  if (view == SurfaceView::Deflation)
    for (rig::SkinningMethod m : methods_shown(state_)) want(m);
  if (view == SurfaceView::Difference) {
    want(ArtefactAnalysis::kDifferenceA);
    want(ArtefactAnalysis::kDifferenceB);
  }
  if (state_.artefacts_open) want(state_.artefact_method);
  artefacts.analyze(*doc_.character, {wanted.data(), count});
  if (view == SurfaceView::Deflation)
    for (rig::SkinningMethod m : methods_shown(state_)) artefacts.refresh_deflation_field(m);
  if (view == SurfaceView::Difference) artefacts.refresh_difference_field();
  if (state_.artefacts_open && doc_.playback.clip() >= 0)
    artefacts.request_scan(doc_.playback.clip(), doc_.dqs_amounts);
}

// The Compression panel's background work and what playback samples.
void Viewer::update_compression() {
  const bool wanted = state_.compression_open || state_.surface_view == SurfaceView::Compression;
  if (!wanted && !doc_.compression()) return;
  CompressedClips& c = doc_.make_compression();
  // Not while the tolerance slider is held: the release asks for the tolerance it chose.
  if (wanted && !state_.tolerance_editing) c.request(state_.tolerance_cm);
  c.play_compressed(state_.play_compressed);
}

void Viewer::add_clip_file(const std::string& path) {
  if (!doc_.model || !doc_.character) return;
  ClipFile file;
  std::string error;
  if (!load_clip_file(path, *doc_.model, options_, file, error)) {
    state_.error_message = error;
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return;
  }
  state_.error_message.clear();
  state_.edits.message = std::to_string(file.clips.size()) + " clip" +
                         (file.clips.size() == 1 ? "" : "s") + " added from " + file.stem +
                         (file.retargeted ? " (retargeted)" : "");
  const bool retargeted = file.retargeted;
  const std::string label = "Add clips from " + file.stem;
  const int first = doc_.add_clip_file(std::move(file));
  // One undoable edit: undo withdraws the file's clips, redo lists them again.
  editing_.record_clip_edit(label, clip_add_step(doc_.clip_files.size() - 1));
  if (retargeted) state_.bone_map.file = int(doc_.clip_files.size()) - 1;
  if (first >= 0) {
    doc_.playback.select_clip(first);
    state_.scroll_to_clip = true;
  }
}

// A Bone map window edit: the file's clips retargeted again, as one undoable edit.
void Viewer::remap_bone_pair(size_t file, int source_node, int target_node) {
  ViewerState::BoneMapView& view = state_.bone_map;
  ClipEditStep step = clip_remap_before(doc_, file);
  std::string error;
  if (!rigview::remap_bone_pair(doc_, file, source_node, target_node, error)) {
    view.message = "not remapped: " + error;
    return;
  }
  clip_remap_after(doc_, step);
  const ClipFile& f = doc_.clip_files[file].file;
  editing_.record_clip_edit("Remap " + f.stem, std::move(step));
  float worst = 0.0f;
  for (const FileClip& clip : f.clips)
    worst = std::max(worst, clip.measures.max_direction_error_deg);
  view.message = "retargeted again: " + std::to_string(f.clips.size()) +
                 " clips, largest direction error " + std::to_string(worst) + " deg";
}

void Viewer::open_model(const std::string& path) {
  if (!has_model_extension(path)) {
    state_.error_message = path + ": not a .gltf or .glb file";
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    return;
  }
  std::string error;
  if (!load_document(path, options_, pending_doc_, error)) {
    state_.error_message = path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    return;
  }
  if (!switch_renderer_model(*renderer_, doc_, pending_doc_, error)) {
    state_.error_message = path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    pending_doc_ = Document{};
    return;
  }
  stop_sweep();  // it reads the old model
  state_.sweep = SweepView{};
  std::swap(doc_, pending_doc_);
  // The old document's background work stops before its model goes (a plain assignment
  // would free the model first).
  pending_doc_.stop_background_work();
  pending_doc_ = Document{};
  handles_.cancel();
  rings_.cancel();
  state_.playback = &doc_.playback;
  state_.error_message.clear();
  state_.selected_node = state_.hovered_node = -1;
  state_.tree_skin = 0;
  state_.fade_target = 0;
  state_.scroll_to_clip = true;
  state_.open_field = path;
  settings_.add_recent(path);
  editing_.reset(doc_);
  state_.vertex = VertexInspectorState{};
  state_.weight_tools.painting = false;
  title_modified_ = false;
  state_.edits.message.clear();
  platform_.set_title(doc_.window_title);
  if (crowd_renderer_ && !rebuild_crowd(error)) {
    state_.error_message = "--crowd: " + error;
    crowd_renderer_.reset();
  }
  reset_camera();
}

// Requests posted by key actions and panels during the last frame.
void Viewer::serve_requests() {
  ViewerRequests& r = state_.requests;
  if (r.quit) platform_.request_close();
  if (r.reset_camera) reset_camera();
  if (r.frame_model) frame_model();
  if (r.frame_node >= 0) frame_joint(r.frame_node);
  if (r.simulate_bug != ViewerRequests::kNoBugRequest) simulate_bug(r.simulate_bug);
  if (r.frame_finding >= 0) frame_finding(r.frame_finding);
  r.quit = r.reset_camera = r.frame_model = false;
  r.frame_node = r.frame_finding = -1;
  r.simulate_bug = ViewerRequests::kNoBugRequest;
  if (!r.open_path.empty()) {
    std::string path;
    path.swap(r.open_path);
    // Unsaved skin edits: ask first (served with the answer in serve_edit_requests).
    if (editing_.modified() && doc_.simulated_bug < 0)
      state_.edits.pending_open = path;
    else
      open_model(path);
  }
  if (!r.add_clips_path.empty()) {
    std::string path;
    path.swap(r.add_clips_path);
    add_clip_file(path);
  }
  if (r.remap_file >= 0) {
    remap_bone_pair(size_t(r.remap_file), r.remap_source, r.remap_target);
    r.remap_file = r.remap_source = r.remap_target = -1;
  }
  serve_edit_requests();
  serve_learn();
  // focus_open_field is served (and cleared) by the File panel.
}

}  // namespace rigview
