// Command-line options of `rigview` (parsing only; no engine math here).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "render/look.h"
#include "skin/pitfalls.h"
#include "skin/skinning_method.h"

namespace rigview {

enum class Backend { Cpu, Gpu };

// --camera "ex,ey,ez;tx,ty,tz;yfov_deg[;near;far]": a fixed perspective camera, up +Y. near
// and far are 0 when not given (then d/100 and d·100, d = |eye − target|).
struct SceneCamera {
  float eye[3] = {0, 0, 0}, target[3] = {0, 0, 0};
  float yfov_degrees = 45.0f;
  float near_plane = 0.0f, far_plane = 0.0f;
};

// --lights: the studio look (the default), the classic look, the reference scene's lights, or
// none.
enum class SceneLights { Studio, Classic, Reference, None };

struct Options {
  std::string model_path;  // empty: the bundled default character
  bool help = false;
  bool version = false;
  bool info = false;
  bool print_controls_markdown = false;  // --print-controls-markdown (README's controls table)
  bool print_cli_markdown = false;       // --print-cli-markdown (README's flag table)
  std::string export_obj;                // --export-obj FILE
  std::string export_ply;                // --export-ply FILE.ply (posed mesh + artefact fields)
  std::string report;                    // --report FILE.json (artefact scans of every clip)
  std::string compress_report;           // --compress-report FILE.json
  std::string optimize_animations;       // --optimize-animations OUT.glb
  std::string write_copy;                // --write-copy OUT.glb|OUT.gltf (no-op document write)
  std::string save;                      // --save OUT.glb|OUT.gltf: the file with the skin edits
  std::string fix_joint;       // --fix-joint JOINT|worst: smoothing searched over --animation-index
  std::string fix_report;      // --fix-report FILE.json: what --fix-joint measured
  std::string repair_ibm;      // --repair-ibm[=X]: flagged, all or recover; "": off
  double tolerance_cm = 0.01;  // --tolerance CM: compression error bound
  bool compressed = false;     // --compressed: poses sample compressed clips
  // Posing (resolved against the model by pose_from_options, app/posed_character.h):
  std::vector<std::string> layers;  // --layer CLIP:WEIGHT[:additive][:mask=JOINT,...][:time=T]
  std::vector<std::string> iks;  // --ik END=x,y,z[;pole=x,y,z][;weight=W][;mid=N][;root=N][;keep]
  std::string look_at;           // --look-at JOINT=x,y,z
  std::string root_motion;       // --root-motion in-place|extract
  bool feet_on_ground = false;   // --feet-on-ground
  std::string export_pose;       // --export-pose FILE.json
  // Rig workbench (app/workbench_options.cpp parses these):
  std::vector<std::string> pose_joints;  // --pose-joint NAME=rx,ry,rz (repeatable)
  std::vector<std::string> rom_joints;   // --range-of-motion JOINT[,JOINT...]
  float rom_degrees = 120.0f;            // --rom-degrees D: the sweep runs from -D to +D
  int rom_steps = 25;                    // --rom-steps N: angles per axis
  std::string rom_report;                // --rom-report FILE.json
  int inspect_primitive = -1;            // --inspect-vertex PRIM:INDEX (-1: off)
  int inspect_index = -1;
  // Learn mode (app/learn_options.cpp parses these):
  rig::Pitfalls pitfalls;           // --pitfall NAME (repeatable)
  std::optional<float> twist_demo;  // --twist-demo DEG: the twist arm's twist
  std::optional<float> bend_demo;   // --bend-demo DEG: the twist arm's bend
  std::string cross_section;        // --cross-section FILE.json
  // Clips from other files and retargeting (app/retarget_options.cpp parses these):
  std::vector<std::string> clip_files;  // --clips FILE (repeatable)
  std::string bone_map;                 // --bone-map FILE.json
  std::string retarget_report;          // --retarget-report FILE.json
  bool retarget_feet = false;           // --retarget-feet
  // --weights-op OP (repeatable, in order): skin weight edits (app/skin_edits.h).
  std::vector<std::string> weights_ops;
  // Rig doctor and hardening:
  std::string
      simulate_bug;  // --simulate-bug no-ibm|translation-only-ibm|reversed-multiply|shifted-joints
  bool confine = false;    // --confine: no URI may resolve outside the model's folder
  std::string output_png;  // --output FILE.png (headless render)
  int bench_skinning = 0;  // --bench-skinning N: draws per measurement (0: off)
  int crowd = 0;           // --crowd N: N instances on a grid (viewer and --output; 0: one model)
  int bench_crowd = 0;     // --bench-crowd N: crowd frame figures for 1, 10, ... up to N (0: off)
  int width = 1280, height = 720;  // --resolution W,H
  // Reference scene renders (app/scene_options.cpp parses these):
  bool camera_given = false;  // --camera
  SceneCamera camera;
  bool transparent = false;       // --background transparent: straight-alpha RGBA over (0,0,0,0)
  bool background_given = false;  // --background R,G,B
  float background[3] = {0, 0, 0};
  bool no_grid = false;   // --no-grid: no grid, labels or other overlays
  int msaa = 0;           // --msaa N: samples per pixel (0: the default, 4)
  int subpixel_bits = 0;  // --subpixel-bits N: snap vertices to 1/2^N pixel (0: the GL's own)
  SceneLights lights = SceneLights::Studio;  // --lights studio|classic|reference|none
  // The studio look (app/scene_options.cpp): --environment FILE.hdr (empty: the bundled
  // studio), --environment-rotation, --environment-intensity, --key-light, --tone-mapping,
  // --exposure; look_given when any of them appeared.
  std::string environment_path;
  rig::render::LookSettings look;
  bool look_given = false;
  // --shadows on|off: 1, 0; -1: not given (on under the studio and classic looks).
  int shadows = -1;
  int animation_index = 0;
  bool animation_index_given = false;   // the viewer otherwise opens on an idle-like clip
  std::optional<float> animation_time;  // default: the clip's start
  // --skinning: rows of rig::skinning_methods(). Without compare exactly one method; with
  // compare (--skinning compare[=a,b,...]) at least two, no duplicates, drawn side by side in
  // this order.
  std::vector<rig::SkinningMethod> skinning_methods = {rig::SkinningMethod::Linear};
  bool compare = false;
  bool skinning_given = false;  // --skinning appeared (--report scans every method otherwise)
  // --dqs-joints NAME[,NAME...]: the mix's DQS joints (each with its subtree), resolved against
  // the model by dqs_amounts_from_options (app/pose_options.h).
  std::vector<std::string> dqs_joints;
  int blend_index = -1;
  float blend_time = 0.0f;
  float blend_weight = 0.0f;
  Backend backend = Backend::Cpu;
  bool armature = false;     // draw bones in --output renders
  bool rest_pose = false;    // --rest-pose: ignore animations
  std::string weights_view;  // --weights JOINT|influences: skin-weight view in --output renders
  std::string heatmap;       // --heatmap deflation|difference (--output renders, viewer start)
  std::string focus;         // --focus JOINT|worst: frame the camera on a joint
};

// The skinning methods to draw, left to right: one without compare, the compare list with it.
std::vector<rig::SkinningMethod> methods_to_draw(const Options& options);

// The methods --report scans: the --skinning method or compare list, every method without it.
std::vector<rig::SkinningMethod> methods_to_scan(const Options& options);

// Parses argv. On a usage error returns false and sets `error` to a one-line hint.
bool parse_options(int argc, char** argv, Options& out, std::string& error);

// One row per command-line flag: the --help text and the README's flag table are both built
// from these rows (the --skinning row from the skinning-method table), so they list the same
// flags with the same spelling.
struct FlagInfo {
  std::string syntax;   // "--export-obj FILE"
  std::string help;     // --help text; lines after the first are indented under it
  std::string readme;   // the README's "meaning" cell (Markdown)
  std::string section;  // --help prints this line (after a blank line) before the row, if set
};
const std::vector<FlagInfo>& command_line_flags();

// The --help text.
std::string usage_text();
// The README's "Command line" flag table (`rigview --print-cli-markdown`).
std::string cli_flags_markdown();

// The bundled default character (assets/mannequin.glb, else a fallback that exists).
std::string default_model_path(const char* argv0);

}  // namespace rigview
