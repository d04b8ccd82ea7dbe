// Command-line options of `rigview` (parsing only; no engine math here).
#pragma once

#include <optional>
#include <string>

namespace rigview {

enum class SkinningMode { Lbs, Dqs, Compare };
enum class Backend { Cpu, Gpu };

struct Options {
  std::string model_path;  // empty: the bundled default character
  bool help = false;
  bool version = false;
  bool info = false;
  std::string export_obj;          // --export-obj FILE
  std::string output_png;          // --output FILE.png (headless render)
  int width = 1280, height = 720;  // --resolution W,H
  int animation_index = 0;
  std::optional<float> animation_time;  // default: the clip's start
  SkinningMode skinning = SkinningMode::Lbs;
  int blend_index = -1;
  float blend_time = 0.0f;
  float blend_weight = 0.0f;
  Backend backend = Backend::Cpu;
  bool armature = false;     // draw bones in --output renders
  bool rest_pose = false;    // --rest-pose: ignore animations
  std::string weights_view;  // --weights JOINT|influences: skin-weight view in --output renders
};

// Parses argv. On a usage error returns false and sets `error` to a one-line hint.
bool parse_options(int argc, char** argv, Options& out, std::string& error);

const char* usage_text();

// The bundled default character (assets/mannequin.glb, else a fallback that exists).
std::string default_model_path(const char* argv0);

}  // namespace rigview
