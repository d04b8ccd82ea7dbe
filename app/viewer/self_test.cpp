#include "viewer/self_test.h"

#include <cstdlib>

namespace rigview {

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return (end && *end == '\0' && n >= 0 && n < 1000000) ? static_cast<int>(n) : fallback;
}

std::string env_string(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

SelfTest self_test_from_environment() {
  SelfTest t;
  t.frames = env_int("RIGVIEW_VIEWER_FRAMES", 0);
  t.screenshot = env_string("RIGVIEW_VIEWER_SCREENSHOT");
  t.drop = env_string("RIGVIEW_VIEWER_DROP");
  t.add_clips = env_string("RIGVIEW_VIEWER_ADD_CLIPS");
  t.keys = env_string("RIGVIEW_VIEWER_KEYS");
  t.weights_ops = env_string("RIGVIEW_VIEWER_WEIGHTS_OPS");
  t.posing = env_string("RIGVIEW_VIEWER_POSING");
  t.export_pose = env_string("RIGVIEW_VIEWER_EXPORT_POSE");
  t.help = env_int("RIGVIEW_VIEWER_HELP", 0) != 0;
  t.hide_ui = env_int("RIGVIEW_VIEWER_HIDE_UI", 0) != 0;
  t.measure_cost_draws = env_int("RIGVIEW_VIEWER_MEASURE_COST", 0);
  t.soak_seconds = env_int("RIGVIEW_VIEWER_SOAK", 0);
  t.soak_models = env_string("RIGVIEW_VIEWER_SOAK_MODELS");
  t.bugs = env_string("RIGVIEW_VIEWER_BUGS");
  t.finding = env_int("RIGVIEW_VIEWER_FINDING", -1);
  t.rig_health = env_string("RIGVIEW_VIEWER_RIG_HEALTH");
  t.state = env_string("RIGVIEW_VIEWER_STATE");
  t.frame_ms = env_int("RIGVIEW_VIEWER_FRAME_MS", 0);
  t.open_field = env_string("RIGVIEW_VIEWER_OPEN_FIELD");
  return t;
}

}  // namespace rigview
