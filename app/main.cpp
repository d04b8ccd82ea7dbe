// rigview entry point: parse the command line, load the model, dispatch to a mode.
#include <cstdio>
#include <string>

#include "cli_commands.h"
#include "clip_files.h"
#include "clip_retarget.h"
#include "compression_outputs.h"
#include "learn_outputs.h"
#include "load_model.h"
#include "modes.h"
#include "options.h"
#include "save_outputs.h"
#include "skin_edits.h"
#include "viewer/actions.h"
#include "workbench_outputs.h"

int main(int argc, char** argv) {
  rigview::Options options;
  std::string error;
  if (!rigview::parse_options(argc, argv, options, error)) {
    std::fprintf(stderr, "rigview: %s (see rigview --help)\n", error.c_str());
    return 2;
  }
  if (options.help) {
    std::fputs(rigview::usage_text().c_str(), stdout);
    return 0;
  }
  if (options.print_cli_markdown) {
    std::fputs(rigview::cli_flags_markdown().c_str(), stdout);
    return 0;
  }
  if (options.print_controls_markdown) {
    std::fputs(rigview::controls_markdown().c_str(), stdout);
    return 0;
  }
  if (options.version) {
    std::printf("rigview %s\n", RIGVIEW_VERSION);
    return 0;
  }
  std::string path =
      options.model_path.empty() ? rigview::default_model_path(argv[0]) : options.model_path;

  const bool batch =
      options.info || !options.export_obj.empty() || !options.output_png.empty() ||
      !options.export_ply.empty() || !options.report.empty() || !options.write_copy.empty() ||
      !options.compress_report.empty() || !options.save.empty() || !options.repair_ibm.empty() ||
      !options.optimize_animations.empty() || !options.export_pose.empty() ||
      options.bench_skinning > 0 || options.bench_crowd > 0 || !options.rom_report.empty() ||
      options.inspect_primitive >= 0 || !options.fix_report.empty() ||
      !options.cross_section.empty() || !options.retarget_report.empty();
  if (!batch) return rigview::run_viewer(options, path);

  rig::Model model;
  if (!rigview::load_model(path, options, model, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  // Every --clips file is read (and retargeted) once, before any output: a file that cannot be
  // used stops here with one line naming it.
  if (!options.clip_files.empty()) {
    const std::vector<rigview::ClipFile>* files =
        rigview::clip_files_from_options(options, model, error);
    if (!files) {
      std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
      return 1;
    }
    if (!options.retarget_report.empty() &&
        !rigview::write_retarget_report(options.retarget_report, model, *files, error)) {
      std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
      return 1;
    }
  }
  // The skin layer every skinning output uses and --save writes: the model's influences and
  // inverse bind matrices after --repair-ibm, --weights-op and --fix-joint.
  std::shared_ptr<rig::SkinLayer> skin;
  const bool skins =
      !options.export_obj.empty() || !options.export_ply.empty() || !options.report.empty() ||
      !options.export_pose.empty() || !options.output_png.empty() || options.bench_skinning > 0 ||
      options.bench_crowd > 0 || !options.save.empty() || !options.repair_ibm.empty() ||
      !options.fix_report.empty() || !options.cross_section.empty();
  if (skins) {
    if (const int rc = rigview::edited_skin_layer(options, model, skin, error); rc != 0) {
      std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
      return rc;
    }
  }
  if (options.info) {
    int rc =
        rigview::print_info(model, stdout, rigview::clip_files_from_options(options, model, error));
    if (rc != 0) return rc;
  }
  if (!options.save.empty()) {
    int rc = rigview::save_document(options, model, *skin, path);
    if (rc != 0) return rc;
  }
  if (!options.write_copy.empty()) {
    int rc = rigview::write_copy(options, path);
    if (rc != 0) return rc;
  }
  if (!options.export_obj.empty()) {
    int rc = rigview::export_obj(options, model, skin.get());
    if (rc != 0) return rc;
  }
  if (!options.compress_report.empty() || !options.optimize_animations.empty()) {
    int rc = rigview::run_compression_outputs(options, model, path);
    if (rc != 0) return rc;
  }
  if (!options.export_pose.empty()) {
    int rc = rigview::export_pose(options, model, skin.get());
    if (rc != 0) return rc;
  }
  if (!options.export_ply.empty() || !options.report.empty()) {
    int rc = rigview::export_artefacts(options, model, skin.get());
    if (rc != 0) return rc;
  }
  if (!options.cross_section.empty()) {
    int rc = rigview::write_cross_section(options, model, skin.get());
    if (rc != 0) return rc;
  }
  if (options.inspect_primitive >= 0) {
    int rc = rigview::print_vertex_inspection(options, model, stdout);
    if (rc != 0) return rc;
  }
  if (!options.rom_report.empty()) {
    int rc = rigview::run_range_of_motion(options, model);
    if (rc != 0) return rc;
  }
  if (options.bench_skinning > 0) {
    int rc = rigview::run_skinning_bench(options, model, skin.get());
    if (rc != 0) return rc;
  }
  if (options.bench_crowd > 0) {
    int rc = rigview::run_crowd_bench(options, model, skin.get());
    if (rc != 0) return rc;
  }
  if (!options.output_png.empty())
    return options.crowd > 0 ? rigview::run_crowd_render(options, model, skin.get())
                             : rigview::run_headless_render(options, model, skin.get());
  return 0;
}
