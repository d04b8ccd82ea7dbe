// The viewer's start-up (first model, command-line pose, window) and its frame loop.
#include <filesystem>

#include "clip_files.h"
#include "viewer/lessons.h"
#include "viewer/viewer_app.h"

namespace rigview {

Viewer::~Viewer() {
  if (window_open_ && !self_test_.active()) {
    settings_.save_window(platform_.geometry());
    settings_.save_layout(state_.layout);
    settings_.save_look(state_.look);
  }
  look_job_.cancel();
  crowd_renderer_.reset();
  renderer_.reset();
}

int Viewer::load_initial(const std::string& path) {
  std::string error;
  // --environment: a file that cannot be read is an error now, not a message in the panel.
  if (rig::render::EnvironmentMap map; !options_.environment_path.empty() &&
                                       !read_environment(options_.environment_path, map, error)) {
    std::fprintf(stderr, "rigview: error: --environment: %s\n", error.c_str());
    return 1;
  }
  if (!load_document(path, options_, doc_, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  state_.playback = &doc_.playback;
  editing_.reset(doc_);
  // --clips: the other files' clips join the set before the flags index it.
  for (const std::string& clip_path : options_.clip_files) {
    ClipFile file;
    if (!load_clip_file(clip_path, *doc_.model, options_, file, error)) {
      std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
      return 1;
    }
    doc_.add_clip_file(std::move(file));
  }
  rig::PoseSelection selection;
  if (!pose_selection_from_options(options_, doc_.character->clips(), selection, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  // --weights opens the viewer on that view (and joint, selected and revealed in the tree).
  int weight_joint = -1;
  rig::render::WeightView view = rig::render::WeightView::Off;
  if (!rig::render::weight_view_from_name(*doc_.model, options_.weights_view, view, weight_joint,
                                          error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 2;
  }
  if (!options_.weights_view.empty()) state_.surface_view = weights_mode(view);
  std::vector<float> dqs_amounts;
  if (!dqs_amounts_from_options(options_, *doc_.model, dqs_amounts, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 2;
  }
  doc_.set_dqs_amounts(std::move(dqs_amounts));
  if (weight_joint >= 0) {
    state_.selected_node = weight_joint;
    state_.reveal_selection = true;
  }
  rig::Playback& p = doc_.playback;
  // Without --animation-index the document's idle-like start clip stays (viewer/first_view.h).
  if (!options_.animation_index_given && selection.clip >= 0 && selection.blend_clip < 0 &&
      !options_.animation_time.has_value())
    selection.clip = p.clip(), selection.time = doc_.model->clips[size_t(p.clip())].start;
  if (selection.clip >= 0) {
    p.select_clip(selection.clip);
    p.set_time(selection.time);
    state_.fade_target = selection.clip;
  }
  if (selection.clip >= 0 && selection.blend_clip >= 0) {
    state_.fade_target = selection.blend_clip;
    if (p.start_crossfade(selection.blend_clip, state_.fade_duration, false))
      p.set_fade_progress(selection.blend_weight, selection.blend_time);
  }
  // An explicit time or blend on the command line asks for that exact pose: start paused.
  if (options_.animation_time.has_value() || selection.blend_clip >= 0) p.set_playing(false);
  // --focus JOINT|worst: select the joint and frame it on the first frame, in the start pose.
  if (!options_.focus.empty()) {
    doc_.character->evaluate(p.selection());
    const rig::SkinningMethod method = methods_shown(state_).front();
    if (options_.focus == "worst") {
      doc_.make_artefacts().analyze(*doc_.character, {&method, 1});
    }
    const int node = focus_joint(options_.focus, *doc_.model, doc_.artefacts(), method, error);
    if (node < 0) {
      std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
      return 2;
    }
    state_.selected_node = node;
    state_.reveal_selection = true;
    state_.requests.frame_node = node;
  }
  state_.open_field = path;
  return 0;
}

int Viewer::open_window() {
  self_test_ = self_test_from_environment();
  if (self_test_.soak_seconds > 0.0) {
    std::vector<std::string> models;
    for (size_t start = 0; start < self_test_.soak_models.size();) {
      const size_t colon =
          std::min(self_test_.soak_models.find(':', start), self_test_.soak_models.size());
      if (colon > start) models.push_back(self_test_.soak_models.substr(start, colon - start));
      start = colon + 1;
    }
    soak_ = Soak(self_test_.soak_seconds, std::move(models));
  }
  for (size_t start = 0; start < self_test_.bugs.size();) {
    const size_t comma = std::min(self_test_.bugs.find(',', start), self_test_.bugs.size());
    const std::string name = self_test_.bugs.substr(start, comma - start);
    int bug = -1;
    if (!parse_simulated_bug_choice(name, bug)) {
      std::fprintf(stderr, "rigview: error: RIGVIEW_VIEWER_BUGS: unknown bug '%s'\n", name.c_str());
      return 2;
    }
    test_bugs_.push_back(bug);
    start = comma + 1;
  }
  if (!self_test_.posing.empty()) {
    // Bad steps fail here, in one line, before any window: a trial run on a scratch character.
    rig::Character scratch(*doc_.model, doc_.character->shared_skin_layer());
    scratch.evaluate(doc_.playback.selection());
    Posing trial(*doc_.model, scratch);
    std::string error;
    if (!apply_posing_steps(self_test_.posing, state_, doc_, trial, nullptr, {}, error)) {
      std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
      return 2;
    }
  }
  if (!self_test_.open_field.empty()) state_.open_field = self_test_.open_field;
  state_.show_help = self_test_.help;
  state_.panels_hidden = self_test_.hide_ui;

  settings_.load();
  // The saved look, unless the command line set one or a self-test runs (a saved environment
  // that is gone falls back to the bundled studio).
  if (!self_test_.active() && !options_.look_given && options_.lights == SceneLights::Studio) {
    state_.look = parse_look(settings_.look_text(), state_.look);
    std::error_code ec;
    if (!state_.look.environment.empty() &&
        !std::filesystem::is_regular_file(state_.look.environment, ec))
      state_.look.environment.clear();
  }
  // The saved workspace, unless a self-test runs (its layout must not depend on the user's); a
  // tab the command line asked for (--heatmap, --compressed) wins over the saved one.
  if (!self_test_.active()) {
    const InspectorTab asked = state_.layout.tab;
    state_.layout = settings_.layout();
    if (state_.artefacts_open || state_.compression_open) state_.layout.tab = asked;
  }
  state_.artefacts_open |= state_.layout.tab == InspectorTab::Artefacts;
  state_.compression_open |= state_.layout.tab == InspectorTab::Compression;
  WindowGeometry geometry = settings_.window();
  if (geometry.width <= 0 || self_test_.active()) {
    geometry.width = options_.width;
    geometry.height = options_.height;
    geometry.x = geometry.y = -1;
  }
  if (const int status =
          platform_.open(geometry, doc_.window_title, !self_test_.active(),
                         settings_.persistent() ? settings_.imgui_ini_path().c_str() : nullptr,
                         options_.msaa > 0 ? options_.msaa : 4);
      status != 0)
    return status;
  window_open_ = true;

  std::string error;
  if (!create_renderer(renderer_, doc_, error)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  if (options_.crowd > 0) {
    crowd_renderer_ = std::make_unique<rig::render::CrowdRenderer>();
    if (!crowd_renderer_->init(error) || !rebuild_crowd(error)) {
      std::fprintf(stderr, "rigview: error: --crowd: %s\n", error.c_str());
      return 1;
    }
  }
  settings_.add_recent(doc_.path);
  reset_camera();
  // The look's environment: prefiltered in the background, a grey stand-in until then.
  state_.look.load_requested = true;
  state_.look.load_path = state_.look.environment;
  return 0;
}

int Viewer::run() {
  using Clock = std::chrono::steady_clock;
  double previous = platform_.time();
  int exit_status = 0;
  for (int frame = 1; !platform_.should_close() || !close_allowed(); ++frame) {
    platform_.poll_events();
    bool shift = false;
    if (std::string dropped = platform_.take_drop(&shift); is_environment_file(dropped)) {
      state_.look.studio = state_.look.load_requested = true;  // a .hdr lights the studio look
      state_.look.load_path = dropped;
    } else if (!dropped.empty()) {
      (shift ? state_.requests.add_clips_path : state_.requests.open_path) = dropped;
    }
    if (frame == 2 && !self_test_.drop.empty()) state_.requests.open_path = self_test_.drop;
    if (frame == 2 && !self_test_.add_clips.empty())
      state_.requests.add_clips_path = self_test_.add_clips;
    if (frame == 2 && self_test_.measure_cost_draws > 0) {
      state_.cost_draws = self_test_.measure_cost_draws;
      state_.requests.measure_cost = true;
    }
    if (frame >= 2 && size_t(frame - 2) < test_bugs_.size())
      state_.requests.simulate_bug = test_bugs_[size_t(frame - 2)];
    if (self_test_.finding >= 0 && size_t(frame) == 2 + test_bugs_.size())
      select_finding(state_, doc_, self_test_.finding);
    if (frame == 2) {
      for (size_t start = 0; start < self_test_.weights_ops.size();) {
        const size_t end =
            std::min(self_test_.weights_ops.find(';', start), self_test_.weights_ops.size());
        WeightsOp op;
        std::string error;
        // Buttons: the Weights tab's Fix this joint, the Joint tab's Sweep.
        if (self_test_.weights_ops.compare(start, end - start, "paint") == 0) {
          state_.weight_tools.paint = true;  // the Weights tab's Paint checkbox
          start = end + 1;
          continue;
        }
        if (self_test_.weights_ops.compare(start, end - start, "fix") == 0 ||
            self_test_.weights_ops.compare(start, end - start, "sweep") == 0) {
          (self_test_.weights_ops[start] == 'f' ? state_.requests.fix_joint
                                                : state_.requests.sweep) = true;
          start = end + 1;
          continue;
        }
        if (!parse_weights_op(self_test_.weights_ops.substr(start, end - start), op, error)) {
          std::fprintf(stderr, "rigview: error: RIGVIEW_VIEWER_WEIGHTS_OPS: %s\n", error.c_str());
          return 2;
        }
        run_weights_op(op);
        start = end + 1;
      }
      for (const char c : self_test_.keys) {
        KeyPress press;
        press.key = std::toupper(static_cast<unsigned char>(c));
        if (std::isalnum(static_cast<unsigned char>(c))) platform_.queue_key(press);
      }
    }
    if (soak_.active()) {
      if (frame == 1) soak_start_ = platform_.time();
      soak_.drive(state_, doc_, frame);
    }
    serve_requests();

    const double now = platform_.time();
    // A stall (window drag, breakpoint) must not fling the animation forward.
    const float dt = self_test_.active() ? kFixedTestStep
                                         : static_cast<float>(std::clamp(now - previous, 0.0, 0.1));
    const double frame_ms = (now - previous) * 1000.0;
    state_.frame_ms = state_.frame_ms == 0.0 ? frame_ms : 0.9 * state_.frame_ms + 0.1 * frame_ms;
    previous = now;

    platform_.begin_imgui_frame();
    handle_keyboard();
    handle_mouse();
    serve_requests();  // F, Ctrl+Q and friends act this frame
    doc_.refresh();    // products an input change dropped, made again
    update_rotation_centers();
    update_look();

    if (!state_.rest_pose && !state_.scrubbing) doc_.playback.advance(dt);
    update_sweep(dt);
    const rig::PoseSelection selection =
        state_.rest_pose ? rig::PoseSelection{} : doc_.playback.selection();
    if (frame == 2 && !self_test_.posing.empty()) {
      std::string error;
      const ImVec2 display = ImGui::GetIO().DisplaySize;
      if (!apply_posing_steps(self_test_.posing, state_, doc_, *doc_.posing, &handles_,
                              glm::vec2(display.x, display.y), error)) {
        std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
        return 2;
      }
    }
    const Clock::time_point t0 = Clock::now();
    apply_twist_sliders(state_, doc_);
    evaluate_pose(selection);
    update_mistake(selection);
    update_twist_demo(state_.learn, doc_);
    update_vertex_inspector();
    const double cpu_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    state_.animation_cpu_ms =
        state_.animation_cpu_ms == 0.0 ? cpu_ms : 0.9 * state_.animation_cpu_ms + 0.1 * cpu_ms;
    update_compression();
    update_artefacts();
    if (CompressedClips* c = doc_.compression();
        c && state_.surface_view == SurfaceView::Compression)
      c->session.displacement(selection);
    update_renderer(*renderer_, doc_, state_);
    if (state_.requests.measure_cost) {  // outside render_scene's GPU timer: queries don't nest
      state_.requests.measure_cost = false;
      measure_cost(*renderer_, doc_, state_);
      if (self_test_.measure_cost_draws > 0) {  // the self-test reads what the panel shows
        if (!state_.cost_error.empty()) std::printf("cost error: %s\n", state_.cost_error.c_str());
        for (const rig::render::SkinningCost& c : state_.cost.methods)
          std::printf("%-4s %10.3f ms per million skinned vertices  x%.2f\n",
                      rig::method_info(c.method).label, c.ms_per_million, c.ratio);
        std::fflush(stdout);
      }
    }
    update_crowd(dt);

    update_hover();
    if (doc_.posing) handles_.draw(*doc_.posing, state_, doc_.character->world());
    rings_.draw(state_, doc_.character->world());
    draw_hover_tooltip(state_, doc_);
    draw_ui(state_, doc_, settings_, renderer_->gpu_time_ms());
    ImGui::Render();

    int fb_width = 0, fb_height = 0;
    platform_.framebuffer_size(fb_width, fb_height);
    const bool minimized = fb_width <= 0 || fb_height <= 0;
    if (!minimized) {
      if (crowd_)
        render_crowd_scene(*renderer_, *crowd_renderer_, state_, fb_width, fb_height,
                           ImGui::GetIO().DisplaySize.x);
      else
        render_scene(*renderer_, state_, doc_, fb_width, fb_height, ImGui::GetIO().DisplaySize.x,
                     &mistakes_);
      platform_.render_imgui();
    }
    const bool last_test_frame = self_test_.active() && frame >= self_test_.frames;
    if (last_test_frame && !self_test_.export_pose.empty() && !export_self_test_pose())
      exit_status = 1;
    if (last_test_frame && !self_test_.screenshot.empty() &&
        !write_window_screenshot(self_test_.screenshot, fb_width, fb_height))
      exit_status = 1;
    if (last_test_frame && !self_test_.rig_health.empty() &&
        !write_rig_health(self_test_.rig_health))
      exit_status = 1;
    platform_.swap_buffers();
    if (!self_test_.state.empty() && !write_self_test_state(frame)) exit_status = 1;
    if (self_test_.frame_ms > 0) {  // a slow driver's frame: events pile up meanwhile
      const double left = self_test_.frame_ms * 1e-3 - (platform_.time() - now);
      if (left > 0.0) std::this_thread::sleep_for(std::chrono::duration<double>(left));
    }
    if (last_test_frame) break;
    if (soak_.active()) {
      soak_gl_errors_ += take_gl_errors(*renderer_) - soak_gl_errors_seen_;
      soak_gl_errors_seen_ = renderer_->gl_error_count();
      if (soak_.measure(frame_ms, platform_.time() - soak_start_)) {
        exit_status = soak_.finish(soak_gl_errors_);
        break;
      }
    }
    // Minimized: nothing to draw, and swapping may not wait for vsync; sleep until an event
    // (restore, close) or a short timeout so playback still advances.
    if (minimized && !self_test_.active()) platform_.wait_events(0.1);
  }
  return exit_status;
}

int run_viewer(const Options& options, const std::string& model_path) {
  Viewer viewer(options);
  if (const int status = viewer.load_initial(model_path); status != 0) return status;
  leak_check_before_gl();
  if (const int status = viewer.open_window(); status != 0) return status;
  return viewer.run();
}

void Viewer::update_look() {
  ViewerLook& look = state_.look;
  if (look.cancel_requested) {
    look.cancel_requested = false;
    look_job_.cancel();
  }
  if (look.load_requested) {
    look.load_requested = false;
    look.error.clear();
    look_job_.start(look.load_path);
    look_pending_ = true;
  }
  look.loading = look_job_.running();
  look.progress = look_job_.progress();
  if (!look_pending_ || !look_job_.done()) return;
  look_pending_ = false;
  look.loading = false;
  if (look_job_.succeeded()) {
    renderer_->set_environment(look_job_.result());
    if (crowd_renderer_) crowd_renderer_->set_environment(look_job_.result());
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(look_job_.path(), ec);
    look.environment = look_job_.path().empty() || ec ? look_job_.path() : absolute.string();
    look_job_.result() = {};
  } else if (look_job_.error() != "cancelled") {
    look.error = look_job_.error();  // names the file; the environment shown stays
  }
}

}  // namespace rigview
