#include "scene_options.h"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace rigview {

namespace {

bool number(std::string_view s, float& out) {
  if (s.empty()) return false;
  const std::string text(s);
  char* end = nullptr;
  out = std::strtof(text.c_str(), &end);
  return end && *end == '\0' && std::isfinite(out);
}

bool whole(std::string_view s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  out = std::atoi(std::string(s).c_str());
  return true;
}

// Splits `s` at `sep` into at most `max` parts; false when there are more.
bool split(std::string_view s, char sep, std::vector<std::string_view>& parts, size_t max) {
  parts.clear();
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at - start));
    if (parts.size() > max) return false;
    if (at == std::string_view::npos) return true;
    start = at + 1;
  }
}

bool vector3(std::string_view s, float out[3]) {
  std::vector<std::string_view> parts;
  if (!split(s, ',', parts, 3) || parts.size() != 3) return false;
  for (int i = 0; i < 3; ++i)
    if (!number(parts[size_t(i)], out[i])) return false;
  return true;
}

}  // namespace

void add_scene_flags(std::vector<FlagInfo>& f) {
  f.push_back({"--resolution W,H", "size of the --output image (default 1280,720)",
               "size of the `--output` image (default 1280,720)", ""});
  f.push_back({"--camera \"ex,ey,ez;tx,ty,tz;yfov_deg[;near;far]\"",
               "--output from a fixed perspective camera: eye, target, vertical\n"
               "field of view in degrees, up +Y (near/far default d/100, d*100)",
               "`--output` seen from a fixed perspective camera at the eye looking at the target, "
               "up +Y, vertical field of view `yfov_deg` degrees (0 < yfov < 180), aspect from "
               "`--resolution`; near and far default to d/100 and d·100, d = |eye − target| (the "
               "reference scene's camera). Without it, `--lights reference|none` renders frame "
               "the posed model as the reference scene does (see *Reference scene renders*)",
               ""});
  f.push_back({"--background transparent|R,G,B",
               "--output background: transparent (RGBA, straight alpha,\n"
               "alpha 0 where nothing is drawn) or a colour in 0..1",
               "`--output` background: `transparent` clears to (0,0,0,0) and writes RGBA with "
               "straight (non-premultiplied) alpha, alpha 0 where nothing is drawn; `R,G,B` a "
               "colour, each in [0, 1], written as is (display values)",
               ""});
  f.push_back({"--no-grid", "--output without the ground grid, labels or other overlays",
               "`--output` without the ground grid, the compare labels or other overlays", ""});
  f.push_back({"--msaa N",
               "samples per pixel of --output and of the viewer's window:\n"
               "1 (none), 2, 4 (default), 8 or 16",
               "samples per pixel (multisample anti-aliasing) of the `--output` image and of the "
               "viewer's window: 1 (one sample, no anti-aliasing), 2, 4 (the default), 8 or 16. "
               "`--output` refuses more than the GL offers; the viewer falls back to one sample "
               "when the window system has no multisampled window",
               ""});
  f.push_back({"--subpixel-bits N",
               "--output: snap vertices to 1/2^N pixel (1..8) before\n"
               "rasterising, as a rasteriser with N sub-pixel bits does",
               "`--output`: snap every vertex's window position to the nearest 1/2^N of a pixel "
               "(N from 1 to 8) before rasterising, so the covered pixels are exactly those of a "
               "rasteriser with N sub-pixel bits. Without it the GL's own precision applies "
               "(llvmpipe and most GPUs: 8 bits). The fidelity suite renders with 4, the "
               "precision of its reference, three.js on SwiftShader (see *Fidelity*)",
               ""});
  f.push_back({"--lights studio|classic|reference|none",
               "lighting: studio (default: glTF metallic-roughness, a key\n"
               "light and an environment, tone mapped), classic (the old\n"
               "look), or for --output the reference scene's lights or none",
               "lighting of the viewer and `--output`: `studio` (the default), glTF "
               "metallic-roughness under a key light and image-based lighting, exposed and tone "
               "mapped (see *The look*); `classic`, the earlier look (base colour, a key light and "
               "a hemisphere ambient); `--output` only: `reference`, glTF metallic-roughness "
               "shading under the reference scene's lights, no tone mapping (see *Reference scene "
               "renders and the image score*); `none`, only unlit and emissive surfaces show",
               ""});
  f.push_back({"--environment FILE.hdr",
               "studio look: light from this Radiance .hdr (equirectangular)\n"
               "instead of the bundled studio environment",
               "studio look: image-based lighting from this Radiance `.hdr` (equirectangular, "
               "+Y up) instead of the bundled studio environment; a file that cannot be read is "
               "an error naming it",
               ""});
  f.push_back({"--environment-rotation DEG",
               "studio look: turn the environment about +Y (default 0)",
               "studio look: the environment turned by `DEG` degrees about +Y (default 0)", ""});
  f.push_back({"--environment-intensity X",
               "studio look: multiply the environment's light (default 1)",
               "studio look: the environment's radiance times `X` ≥ 0 (default 1)", ""});
  f.push_back({"--key-light X", "studio look: the key light's irradiance (default 2, 0 = off)",
               "studio look: the key light's irradiance on a surface facing it, `X` ≥ 0 (default "
               "2; 0 turns it off)",
               ""});
  f.push_back({"--tone-mapping neutral|aces|none",
               "studio look: tone mapping (default neutral: Khronos PBR Neutral)",
               "studio look: tone mapping, `neutral` (the default, Khronos PBR Neutral), `aces` "
               "(three.js's ACES filmic) or `none`",
               ""});
  f.push_back({"--exposure EV", "studio look: exposure in stops (default 0)",
               "studio look: exposure in stops, the radiance times 2^EV before tone mapping "
               "(default 0)",
               ""});
  f.push_back({"--shadows on|off",
               "--output key-light shadow on the character and the ground\n"
               "(default on; the studio and classic looks)",
               "`--output` with the key light's shadow on the character and on the ground (a "
               "shadow map fitted to the character, see *Shadows*): `on` (the default under the "
               "studio and classic looks) or `off`. The reference scene has no shadows: `--lights "
               "reference|none` renders without, and refuses `--shadows on`",
               ""});
}

bool parse_scene_camera(std::string_view text, SceneCamera& c, std::string& error) {
  std::vector<std::string_view> parts;
  const std::string expected =
      "--camera expects \"ex,ey,ez;tx,ty,tz;yfov_deg[;near;far]\", got '" + std::string(text) + "'";
  if (!split(text, ';', parts, 5) || (parts.size() != 3 && parts.size() != 5) ||
      !vector3(parts[0], c.eye) || !vector3(parts[1], c.target) ||
      !number(parts[2], c.yfov_degrees))
    return error = expected, false;
  if (!(c.yfov_degrees > 0.0f && c.yfov_degrees < 180.0f))
    return error = "--camera: the field of view must be in (0, 180) degrees, got '" +
                   std::string(parts[2]) + "'",
           false;
  const float d =
      std::hypot(c.eye[0] - c.target[0], c.eye[1] - c.target[1], c.eye[2] - c.target[2]);
  if (!(d > 0.0f)) return error = "--camera: the eye and the target are the same point", false;
  // Looking straight up or down leaves +Y no direction to be "up" in.
  const float horizontal = std::hypot(c.eye[0] - c.target[0], c.eye[2] - c.target[2]);
  if (horizontal <= 1e-6f * d)
    return error = "--camera: the view direction is vertical, so up +Y is undefined", false;
  c.near_plane = c.far_plane = 0.0f;
  if (parts.size() == 5) {
    if (!number(parts[3], c.near_plane) || !number(parts[4], c.far_plane))
      return error = expected, false;
    if (!(c.near_plane > 0.0f && c.far_plane > c.near_plane))
      return error = "--camera: near and far must satisfy 0 < near < far", false;
  }
  return true;
}

int parse_scene_flag(std::string_view a, const FlagValue& value, Options& o, std::string& error) {
  std::string_view v;
  if (a == "--resolution") {
    if (!value(v)) return -1;
    const size_t comma = v.find_first_of(",x");
    int w = 0, h = 0;
    if (comma == std::string_view::npos || !whole(v.substr(0, comma), w) ||
        !whole(v.substr(comma + 1), h) || w < 1 || h < 1 || w > 16384 || h > 16384)
      return error = "--resolution expects W,H between 1 and 16384, got '" + std::string(v) + "'",
             -1;
    o.width = w;
    o.height = h;
  } else if (a == "--camera") {
    if (!value(v) || !parse_scene_camera(v, o.camera, error)) return -1;
    o.camera_given = true;
  } else if (a == "--background") {
    if (!value(v)) return -1;
    o.transparent = v == "transparent";
    o.background_given = !o.transparent;
    if (o.background_given) {
      if (!vector3(v, o.background))
        return error = "--background expects transparent or R,G,B in [0, 1], got '" +
                       std::string(v) + "'",
               -1;
      for (float c : o.background)
        if (c < 0.0f || c > 1.0f)
          return error =
                     "--background: each of R,G,B must be in [0, 1], got '" + std::string(v) + "'",
                 -1;
    }
  } else if (a == "--no-grid") {
    o.no_grid = true;
  } else if (a == "--msaa") {
    if (!value(v)) return -1;
    if (!whole(v, o.msaa) ||
        (o.msaa != 1 && o.msaa != 2 && o.msaa != 4 && o.msaa != 8 && o.msaa != 16))
      return error = "--msaa expects 1, 2, 4, 8 or 16, got '" + std::string(v) + "'", -1;
  } else if (a == "--subpixel-bits") {
    if (!value(v)) return -1;
    if (!whole(v, o.subpixel_bits) || o.subpixel_bits < 1 || o.subpixel_bits > 8)
      return error =
                 "--subpixel-bits expects a whole number from 1 to 8, got '" + std::string(v) + "'",
             -1;
  } else if (a == "--lights") {
    if (!value(v)) return -1;
    if (v == "studio")
      o.lights = SceneLights::Studio;
    else if (v == "classic")
      o.lights = SceneLights::Classic;
    else if (v == "reference")
      o.lights = SceneLights::Reference;
    else if (v == "none")
      o.lights = SceneLights::None;
    else
      return error = "--lights expects studio, classic, reference or none, got '" + std::string(v) +
                     "'",
             -1;
  } else if (a == "--environment") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--environment expects a .hdr file", -1;
    o.environment_path = std::string(v);
    o.look_given = true;
  } else if (a == "--environment-rotation" || a == "--environment-intensity" ||
             a == "--key-light" || a == "--exposure") {
    if (!value(v)) return -1;
    float x = 0.0f;
    const bool nonnegative = a == "--environment-intensity" || a == "--key-light";
    if (!number(v, x) || (nonnegative && x < 0.0f) || std::abs(x) > 1e6f)
      return error = std::string(a) + " expects " + (nonnegative ? "a number >= 0" : "a number") +
                     ", got '" + std::string(v) + "'",
             -1;
    if (a == "--environment-rotation") o.look.environment_rotation_deg = x;
    if (a == "--environment-intensity") o.look.environment_intensity = x;
    if (a == "--key-light") o.look.key_intensity = x;
    if (a == "--exposure") o.look.exposure_ev = x;
    o.look_given = true;
  } else if (a == "--tone-mapping") {
    if (!value(v)) return -1;
    const std::optional<rig::render::ToneMapping> t = rig::render::parse_tone_mapping(v);
    if (!t)
      return error = "--tone-mapping expects neutral, aces or none, got '" + std::string(v) + "'",
             -1;
    o.look.tone_mapping = *t;
    o.look_given = true;
  } else if (a == "--shadows") {
    if (!value(v)) return -1;
    if (v != "on" && v != "off")
      return error = "--shadows expects on or off, got '" + std::string(v) + "'", -1;
    o.shadows = v == "on" ? 1 : 0;
  } else {
    return 0;
  }
  return 1;
}

bool check_scene_options(const Options& o, std::string& error) {
  // --msaa also sets the viewer window's samples; crowd renders have their own target.
  if (o.msaa != 0 && o.crowd > 0 && !o.output_png.empty()) {
    error = "--msaa applies to the viewer and to --output renders without --crowd";
    return false;
  }
  const bool reference = o.lights == SceneLights::Reference || o.lights == SceneLights::None;
  if (o.look_given && o.lights != SceneLights::Studio) {
    error =
        "--environment, --environment-rotation, --environment-intensity, --key-light, "
        "--tone-mapping and --exposure apply to --lights studio";
    return false;
  }
  const bool scene = o.camera_given || o.transparent || o.background_given || o.no_grid ||
                     reference || o.shadows >= 0 || o.subpixel_bits > 0;
  if (!scene) return true;
  if (o.output_png.empty() || o.crowd > 0) {
    error =
        "--camera, --background, --no-grid, --lights reference|none, --shadows and "
        "--subpixel-bits apply to --output renders (without --crowd)";
    return false;
  }
  if (reference && (!o.heatmap.empty() || !o.weights_view.empty())) {
    error = "--lights shades the materials; --heatmap and --weights colour the surfaces instead";
    return false;
  }
  if (reference && o.shadows == 1) {
    error = "--shadows on: the reference scene (--lights reference|none) has no shadows";
    return false;
  }
  return true;
}

}  // namespace rigview
