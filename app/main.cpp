// rigview entry point: parse the command line, load the model, dispatch to a mode.
#include <cstdio>
#include <string>

#include "cli_commands.h"
#include "compression_outputs.h"
#include "load_model.h"
#include "modes.h"
#include "options.h"
#include "save_outputs.h"
#include "viewer/actions.h"

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

  const bool batch = options.info || !options.export_obj.empty() || !options.output_png.empty() ||
                     !options.export_ply.empty() || !options.report.empty() ||
                     !options.write_copy.empty() || !options.compress_report.empty() ||
                     !options.save.empty() || !options.repair_ibm.empty() ||
                     !options.optimize_animations.empty() || !options.export_pose.empty() ||
                     options.bench_skinning > 0 || options.bench_crowd > 0;
  if (!batch) return rigview::run_viewer(options, path);

  rig::Model model;
  if (!rigview::load_model(path, options, model, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  if (options.info) {
    int rc = rigview::print_info(model, stdout);
    if (rc != 0) return rc;
  }
  if (!options.save.empty() || !options.repair_ibm.empty()) {
    int rc = rigview::run_save_outputs(options, model, path);
    if (rc != 0) return rc;
  }
  if (!options.write_copy.empty()) {
    int rc = rigview::write_copy(options, path);
    if (rc != 0) return rc;
  }
  if (!options.export_obj.empty()) {
    int rc = rigview::export_obj(options, model);
    if (rc != 0) return rc;
  }
  if (!options.compress_report.empty() || !options.optimize_animations.empty()) {
    int rc = rigview::run_compression_outputs(options, model, path);
    if (rc != 0) return rc;
  }
  if (!options.export_pose.empty()) {
    int rc = rigview::export_pose(options, model);
    if (rc != 0) return rc;
  }
  if (!options.export_ply.empty() || !options.report.empty()) {
    int rc = rigview::export_artefacts(options, model);
    if (rc != 0) return rc;
  }
  if (options.bench_skinning > 0) {
    int rc = rigview::run_skinning_bench(options, model);
    if (rc != 0) return rc;
  }
  if (options.bench_crowd > 0) {
    int rc = rigview::run_crowd_bench(options, model);
    if (rc != 0) return rc;
  }
  if (!options.output_png.empty())
    return options.crowd > 0 ? rigview::run_crowd_render(options, model)
                             : rigview::run_headless_render(options, model);
  return 0;
}
