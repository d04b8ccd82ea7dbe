// Files dropped on the running viewer through the real X drag-and-drop protocol
// (tests/app/xdnd_source.h: XdndEnter, XdndPosition, XdndStatus, XdndDrop, the uri-list read
// through the XdndSelection, XdndFinished) instead of the RIGVIEW_VIEWER_DROP hooks: a Radiance
// .hdr becomes the studio look's environment once prefiltered and visibly lights the character
// with its colour; a broken .hdr is a one-line error naming it and the previous environment
// stays; of several files dropped together a model, else an .hdr, is the one taken; a .glb
// opens; a Shift+drop adds the file's clips.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "xdnd_source.h"
#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;
namespace fs = std::filesystem;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
constexpr int kFrameMs = 150;

// One Radiance RGBE pixel of the linear colour `c` (Greg Ward's encoding: the largest component
// v = m·2^e with m in [0.5, 1), every component stored as c·256/2^e, the exponent as e + 128).
void put_rgbe(std::string& out, const float (&c)[3]) {
  const float v = std::max(c[0], std::max(c[1], c[2]));
  if (v < 1e-32f) {
    out.append(4, '\0');
    return;
  }
  int e = 0;
  std::frexp(v, &e);
  const float scale = std::ldexp(256.0f, -e);
  for (const float x : c) out += char(static_cast<unsigned char>(std::min(255.0f, x * scale)));
  out += char(static_cast<unsigned char>(e + 128));
}

// A 16×8 equirectangular Radiance file, uncompressed scanlines (stb_image reads rows narrower
// than 8 pixels or not starting 2 2 as flat RGBE): `sky` everywhere, `patch` in a 4×2 block
// above the horizon.
void write_hdr(const fs::path& path, const float (&sky)[3], const float (&patch)[3]) {
  std::string data = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8 +X 16\n";
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 16; ++x)
      put_rgbe(data, (y >= 1 && y < 3 && x >= 6 && x < 10) ? patch : sky);
  std::ofstream(path, std::ios::binary) << data;
}

struct Colour {
  double r = 0, g = 0, b = 0;
  double redness() const { return r - b; }
};

class ViewerXEventsDrop : public rig::test::XViewerTest {
 protected:
  std::string start() {
    if (std::string e = new_session().start({kMannequin}, {}, kFrameMs); !e.empty()) return e;
    // The bundled studio's prefilter (started with the window) must be done before a drop, so
    // what a drop changes is the drop's.
    return until(
        [](const ViewerProbe& p) { return environment_ready(p) && p.text("environment") == "-"; },
        "the bundled studio environment", nullptr);
  }
  static bool environment_ready(const ViewerProbe& p) {
    return p.text("environment_load").rfind("loading 0 ", 0) == 0 &&
           p.text("environment_load").find("pending 0") != std::string::npos;
  }
  // Polls the state file (up to 200 frames, llvmpipe's pace) until `done`; "" or what it
  // waited for with the last snapshot's look lines and the viewer's log.
  template <class Done>
  std::string until(Done done, const std::string& what, ViewerProbe* out) {
    ViewerProbe p;
    for (int i = 0; i < 200; ++i) {
      if (std::string e = session_->wait_frames(1, &p); !e.empty()) return e;
      if (done(p)) {
        if (out) *out = p;
        return "";
      }
    }
    return "waited 200 frames for " + what + "; environment " + p.text("environment") + ", load " +
           p.text("environment_load") + ", error " + p.text("environment_error") + ", document " +
           p.text("document") + ", clips " + p.text("clips") +
           "; viewer log: " + session_->viewer_log();
  }
  // Drops `paths` in the middle of the 3D view, the pointer moved there first (a person's hand
  // is there when the button comes up; the keyboard focus follows it on a bare X server).
  std::string drop(const std::vector<std::string>& paths) {
    const std::vector<double> v = session_->read_state().numbers("view");
    if (v.size() != 4) return "no view line in the state file";
    const int x = int(v[0] + 0.5 * v[2]), y = int(v[1] + 0.5 * v[3]);
    session_->move(x, y, 20);
    rig::test::XdndSource source(session_->display_name());
    const std::string error = source.drop(session_->window(), x, y, paths);
    if (error.empty() && source.accepted_action() != "XdndActionCopy")
      return "the viewer accepted the drop with action \"" + source.accepted_action() + "\"";
    return error;
  }
  // The mean window colour (0-255) over the box of the character's projected joints (the first
  // compare column's), after two more frames so the latest frame is on screen.
  Colour character_colour() {
    ViewerProbe p;
    EXPECT_EQ(session_->wait_frames(2, &p), "");
    const std::vector<double> c = p.numbers("column");  // 0 x X width W joints x0 y0 x1 y1
    Colour out;
    if (c.size() != 7) {
      ADD_FAILURE() << "column line: " << p.text("column");
      return out;
    }
    int w = 0, h = 0;
    const std::vector<unsigned char> rgb = session_->pixels(w, h);
    const int x0 = std::max(0, int(c[3])), x1 = std::min(w - 1, int(c[5]));
    const int y0 = std::max(0, int(c[4])), y1 = std::min(h - 1, int(c[6]));
    long n = 0;
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x, ++n) {
        const unsigned char* q = &rgb[(size_t(y) * size_t(w) + size_t(x)) * 3];
        out.r += q[0], out.g += q[1], out.b += q[2];
      }
    EXPECT_GT(n, 1000) << "the character's box is too small: " << p.text("column");
    if (n > 0) out.r /= double(n), out.g /= double(n), out.b /= double(n);
    return out;
  }
  // Space: pause the clip, so the pixels that follow differ only by the lighting.
  void pause() {
    at_frame_start();
    session_->tap(XK_space);
  }
  std::string red_sky() {
    const fs::path path = dir_ / "red sky.hdr";  // a space: the URI must percent-encode it
    write_hdr(path, {2.0f, 0.02f, 0.02f}, {40.0f, 0.4f, 0.4f});
    return path.string();
  }
};

// The dropped .hdr is listed once prefiltered, the document stays, and the character (lit by
// the bundled grey studio before) turns red under a red sky: its mean red minus blue grows.
TEST_F(ViewerXEventsDrop, AnHdrLightsTheCharacterWithItsColour) {
  ASSERT_EQ(start(), "");
  pause();
  const Colour before = character_colour();
  const std::string sky = red_sky();
  ASSERT_EQ(drop({sky}), "");
  ViewerProbe p;
  ASSERT_EQ(until(
                [&](const ViewerProbe& q) {
                  return q.text("environment") == sky && environment_ready(q);
                },
                "the dropped environment", &p),
            "");
  EXPECT_EQ(p.text("environment_error"), "");
  EXPECT_EQ(p.text("error_message"), "");
  EXPECT_EQ(p.text("document"), kMannequin);
  const Colour after = character_colour();
  std::printf(
      "character's mean RGB: %.1f %.1f %.1f under the bundled studio, %.1f %.1f %.1f "
      "under the red sky\n",
      before.r, before.g, before.b, after.r, after.g, after.b);
  EXPECT_GT(after.redness(), before.redness() + 30.0)
      << "before: " << before.r << " " << before.g << " " << before.b << ", after: " << after.r
      << " " << after.g << " " << after.b;
}

// Two .hdr files dropped one right after the other (the second as soon as the first drop has
// finished, while its prefilter may still run: about 0.1 s against llvmpipe's frames, so it
// often has ended): the last drop wins, the character ends up blue, and the first result never
// replaces the second afterwards. Prints whether the second drop overlapped the first load.
TEST_F(ViewerXEventsDrop, TheLastOfTwoQuickHdrDropsWins) {
  ASSERT_EQ(start(), "");
  pause();
  const Colour before = character_colour();
  const std::string sky = red_sky(), blue = (dir_ / "blue.hdr").string();
  write_hdr(blue, {0.02f, 0.02f, 2.0f}, {0.4f, 0.4f, 40.0f});
  ASSERT_EQ(drop({sky}), "");
  ASSERT_EQ(drop({blue}), "");
  bool red_shown = false;
  ViewerProbe p;
  ASSERT_EQ(until(
                [&](const ViewerProbe& q) {
                  red_shown |= q.text("environment") == sky;
                  return q.text("environment") == blue && environment_ready(q);
                },
                "the second environment", &p),
            "");
  std::printf("the second drop %s the first environment's load\n",
              red_shown ? "came after" : "overlapped");
  EXPECT_EQ(p.text("environment_error"), "");
  const Colour after = character_colour();
  EXPECT_GT(before.redness(), after.redness() + 30.0)
      << "before: " << before.r << " " << before.g << " " << before.b << ", after: " << after.r
      << " " << after.g << " " << after.b;
  for (int i = 0; i < 10; ++i) ASSERT_EQ(session_->wait_frames(1, &p), "");
  EXPECT_EQ(p.text("environment"), blue);
}

// A file named .hdr that is not a Radiance image: one line naming it, the viewer runs on, and
// the environment dropped before it still lights the character.
TEST_F(ViewerXEventsDrop, ABrokenHdrSaysSoAndTheEnvironmentStays) {
  ASSERT_EQ(start(), "");
  const std::string sky = red_sky();
  ASSERT_EQ(drop({sky}), "");
  ASSERT_EQ(until(
                [&](const ViewerProbe& q) {
                  return q.text("environment") == sky && environment_ready(q);
                },
                "the first environment", nullptr),
            "");
  pause();
  const Colour lit = character_colour();
  const std::string broken = (dir_ / "broken.hdr").string();
  std::ofstream(broken) << "#?RADIANCE\nFORMAT=not-a-format\n\n-Y 8 +X 16\nxxxx\n";
  ASSERT_EQ(drop({broken}), "");
  ViewerProbe p;
  ASSERT_EQ(until(
                [](const ViewerProbe& q) {
                  return !q.text("environment_error").empty() && environment_ready(q);
                },
                "the broken file's error", &p),
            "");
  EXPECT_EQ(p.text("environment_error"), broken + ": not a Radiance .hdr image");
  EXPECT_EQ(p.text("environment"), sky);
  EXPECT_EQ(p.text("document"), kMannequin);
  const Colour still = character_colour();
  EXPECT_NEAR(still.r, lit.r, 2.0);
  EXPECT_NEAR(still.g, lit.g, 2.0);
  EXPECT_NEAR(still.b, lit.b, 2.0);
}

// An .hdr dropped with a text file before it (a file manager's selection): the .hdr is taken,
// not the first file.
TEST_F(ViewerXEventsDrop, AnHdrAfterAnotherFileIsTheOneTaken) {
  ASSERT_EQ(start(), "");
  const std::string notes = (dir_ / "notes.txt").string(), sky = red_sky();
  std::ofstream(notes) << "not an image\n";
  ASSERT_EQ(drop({notes, sky}), "");
  ViewerProbe p;
  ASSERT_EQ(until([&](const ViewerProbe& q) { return q.text("environment") == sky; },
                  "the dropped environment", &p),
            "");
  EXPECT_EQ(p.text("error_message"), "");
  EXPECT_EQ(p.text("document"), kMannequin);
}

// A .glb dropped with a text file before it: the model is the one opened.
TEST_F(ViewerXEventsDrop, AGlbOpensAlsoAfterAnotherFile) {
  ASSERT_EQ(start(), "");
  const std::string notes = (dir_ / "notes.txt").string();
  std::ofstream(notes) << "not a model\n";
  ASSERT_EQ(drop({notes, kTwistArm}), "");
  ViewerProbe p;
  ASSERT_EQ(until([](const ViewerProbe& q) { return q.text("document") == kTwistArm; },
                  "the dropped model", &p),
            "");
  EXPECT_EQ(p.text("error_message"), "");
  EXPECT_EQ(p.text("clips"), "1");
}

// The source itself: a window without XdndAware is refused at once, and a target that never
// answers (XdndAware set, its events never read) fails after the timeout instead of hanging.
TEST_F(ViewerXEventsDrop, TheSourceGivesUpOnWindowsThatCannotTakeADrop) {
  ASSERT_EQ(start(), "");
  Display* display = XOpenDisplay(session_->display_name().c_str());
  ASSERT_NE(display, nullptr);
  const Window silent =
      XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 64, 64, 0, 0, 0);
  rig::test::XdndSource source(session_->display_name());
  const std::vector<std::string> paths = {red_sky()};
  EXPECT_EQ(source.drop(silent, 8, 8, paths, 1.0),
            "XDND: the target window has no XdndAware property");
  const Atom aware = XInternAtom(display, "XdndAware", False);
  const Atom version = 5;
  XChangeProperty(display, silent, aware, XA_ATOM, 32, PropModeReplace,
                  reinterpret_cast<const unsigned char*>(&version), 1);
  XSync(display, False);
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_EQ(source.drop(silent, 8, 8, paths, 1.0),
            "XDND: no XdndStatus within 1.000000 s of XdndPosition");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_GE(seconds, 1.0);
  EXPECT_LT(seconds, 5.0);
  XDestroyWindow(display, silent);
  XCloseDisplay(display);
  EXPECT_EQ(session_->read_state().text("environment"), "-");  // nothing reached the viewer
}

// Shift held while the drop lands: the file's clips join the list and the first plays; Ctrl+Z
// takes them out again (so the viewer quits without asking).
TEST_F(ViewerXEventsDrop, AShiftDropAddsTheFilesClips) {
  ASSERT_EQ(start(), "");
  const std::string moves = (dir_ / "moves.glb").string();
  fs::copy_file(kMannequin, moves);
  at_frame_start();
  session_->key(XK_Shift_L, true, 20);
  const std::string dropped = drop({moves});
  session_->key(XK_Shift_L, false);
  ASSERT_EQ(dropped, "");
  ViewerProbe p;
  ASSERT_EQ(until([](const ViewerProbe& q) { return q.text("clips") == "12"; }, "12 clips", &p),
            "");
  EXPECT_EQ(p.text("document"), kMannequin);
  EXPECT_EQ(p.text("clip"), "moves:Idle");
  EXPECT_EQ(p.text("edit_message"), "6 clips added from moves");
  EXPECT_EQ(p.text("error_message"), "");
  at_frame_start();
  session_->key(XK_Control_L, true);
  session_->tap(XK_z);
  session_->key(XK_Control_L, false);
  ASSERT_EQ(until([](const ViewerProbe& q) { return q.text("clips") == "6"; }, "the undo", &p), "");
}

}  // namespace
