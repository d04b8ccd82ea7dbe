// Drives the real viewer window the way a person does: its own Xvfb, the rigview process, and
// pointer and key events sent through the X server's XTEST extension, then what they did read
// back from the viewer's RIGVIEW_VIEWER_STATE file and the window's pixels.
//
// XTEST: the runtime library libXtst.so.6 is on every machine with an X server, its headers
// (libxtst-dev) are not a dependency we allow. So the four functions used are declared here
// with the signatures of XTest's stable ABI (unchanged since X11R6) and looked up with dlopen /
// dlsym; Xlib itself (libx11-dev) is linked normally. A machine without Xvfb or libXtst skips.
#pragma once

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace rig::test {

// One RIGVIEW_VIEWER_STATE snapshot: each line's first word → the rest of the line.
struct ViewerProbe {
  std::multimap<std::string, std::string> lines;
  bool has(const std::string& key) const { return lines.count(key) > 0; }
  std::string text(const std::string& key) const {
    const auto it = lines.find(key);
    return it == lines.end() ? "" : it->second;
  }
  // The number after `word` in line `key` ("camera yaw 0.6 ..." → number("camera", "yaw")).
  double number(const std::string& key, const std::string& word, int occurrence = 0) const {
    auto [from, to] = lines.equal_range(key);
    for (auto it = from; it != to; ++it, --occurrence) {
      if (occurrence > 0) continue;
      std::istringstream in(it->second);
      for (std::string w; in >> w;)
        if (w == word) {
          double v = 0.0;
          in >> v;
          return v;
        }
    }
    return std::nan("");
  }
  // All numbers of line `key`'s `occurrence`-th copy, in order (words skipped).
  std::vector<double> numbers(const std::string& key, int occurrence = 0) const {
    std::vector<double> out;
    auto [from, to] = lines.equal_range(key);
    for (auto it = from; it != to; ++it, --occurrence) {
      if (occurrence > 0) continue;
      std::istringstream in(it->second);
      for (std::string w; in >> w;) {
        char* end = nullptr;
        const double v = std::strtod(w.c_str(), &end);
        if (end && *end == '\0' && end != w.c_str()) out.push_back(v);
      }
      break;
    }
    return out;
  }
  int frame() const { return has("frame") ? std::atoi(text("frame").c_str()) : -1; }
};

class XViewerSession {
 public:
  // `dir`: scratch folder (state file, logs, settings). Nothing starts until start().
  explicit XViewerSession(std::filesystem::path dir) : dir_(std::move(dir)) {}
  ~XViewerSession() { stop(); }
  XViewerSession(const XViewerSession&) = delete;
  XViewerSession& operator=(const XViewerSession&) = delete;

  // "" when the machine can run the session, else why not (the test then skips).
  static std::string unavailable() {
    if (std::system("command -v Xvfb >/dev/null 2>&1") != 0) return "Xvfb is not installed";
    if (!xtest_api().loaded) return "libXtst.so.6 (the XTEST client library) is not installed";
    return "";
  }

  // Starts Xvfb (screen `width` × `height`) and rigview `args` with the self-test hooks for a
  // long run (fixed step, state file, frames of at least `frame_ms`: llvmpipe's pace) plus
  // `env` ("NAME=value" each), then waits for its window and its first frames. "" or an error.
  std::string start(const std::vector<std::string>& args, const std::vector<std::string>& env,
                    int frame_ms, int width = 1280, int height = 720) {
    std::filesystem::create_directories(dir_ / "config");
    state_ = dir_ / "state.txt";
    std::filesystem::remove(state_);
    if (std::string e = start_xvfb(width, height); !e.empty()) return e;
    display_ = XOpenDisplay((":" + std::to_string(display_number_)).c_str());
    if (!display_) return "cannot connect to Xvfb on :" + std::to_string(display_number_);
    int event = 0, error = 0, major = 0, minor = 0;
    if (!xtest_api().query(display_, &event, &error, &major, &minor))
      return "the X server has no XTEST extension";
    std::vector<std::string> environment = {"DISPLAY=:" + std::to_string(display_number_),
                                            "XDG_CONFIG_HOME=" + (dir_ / "config").string(),
                                            "RIGVIEW_VIEWER_FRAMES=1000000",
                                            "RIGVIEW_VIEWER_STATE=" + state_.string(),
                                            "RIGVIEW_VIEWER_FRAME_MS=" + std::to_string(frame_ms)};
    for (const std::string& e : env) environment.push_back(e);
    std::vector<std::string> argv = {RIGVIEW_EXE};
    for (const std::string& a : args) argv.push_back(a);
    argv.push_back("--resolution");
    argv.push_back(std::to_string(width) + "," + std::to_string(height));
    viewer_ = spawn(argv, environment, dir_ / "viewer.log");
    if (viewer_ <= 0) return "cannot start rigview";
    if (std::string e = find_window(); !e.empty()) return e;
    return wait_frame(3, nullptr);
  }

  // Waits (polling the state file, 10 s at most) for a frame numbered at least `frame`; the
  // last snapshot in `probe`. "" or a message saying what it waited for and the viewer's log.
  std::string wait_frame(int frame, ViewerProbe* probe, double timeout_s = 20.0) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    ViewerProbe p;
    while (std::chrono::steady_clock::now() < deadline) {
      p = read_state();
      if (p.frame() >= frame) {
        if (probe) *probe = p;
        return "";
      }
      if (viewer_exited())
        return "rigview exited before frame " + std::to_string(frame) + ": " + viewer_log();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return "timed out after " + std::to_string(timeout_s) + " s waiting for frame " +
           std::to_string(frame) + " (last seen: " + std::to_string(p.frame()) +
           "); viewer log: " + viewer_log();
  }
  // `frames` frames after the current one.
  std::string wait_frames(int frames, ViewerProbe* probe) {
    return wait_frame(read_state().frame() + frames, probe);
  }
  ViewerProbe read_state() const {
    ViewerProbe p;
    std::ifstream in(state_);
    for (std::string line; std::getline(in, line);) {
      const size_t space = line.find(' ');
      p.lines.emplace(line.substr(0, space),
                      space == std::string::npos ? "" : line.substr(space + 1));
    }
    return p;
  }

  // Pointer and keys, in window pixels (origin top left). Each call flushes, so events reach the
  // server in order; `pause_ms` after each, a hand's pace (tens of ms), far below a frame.
  void move(int x, int y, int pause_ms = 0) {
    xtest_api().motion(display_, -1, origin_x_ + x, origin_y_ + y, 0);
    flush(pause_ms);
  }
  void button(int button, bool down, int pause_ms = 0) {
    xtest_api().button(display_, static_cast<unsigned>(button), down ? 1 : 0, 0);
    flush(pause_ms);
  }
  // A move in `steps` equal steps from (x0, y0) to (x1, y1), `pause_ms` apart.
  void glide(int x0, int y0, int x1, int y1, int steps, int pause_ms) {
    for (int i = 1; i <= steps; ++i)
      move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps, pause_ms);
  }
  void key(KeySym sym, bool down, int pause_ms = 0) {
    const KeyCode code = XKeysymToKeycode(display_, sym);
    xtest_api().key(display_, code, down ? 1 : 0, 0);
    flush(pause_ms);
  }
  // Press and release at once: both reach the viewer between two of its frames.
  void tap(KeySym sym) {
    key(sym, true);
    key(sym, false);
  }

  // The window's pixels now, RGB, top-down rows; empty on failure.
  std::vector<unsigned char> pixels(int& width, int& height) const {
    std::vector<unsigned char> out;
    XWindowAttributes a{};
    if (!window_ || !XGetWindowAttributes(display_, window_, &a)) return out;
    XImage* image = XGetImage(display_, window_, 0, 0, static_cast<unsigned>(a.width),
                              static_cast<unsigned>(a.height), AllPlanes, ZPixmap);
    if (!image) return out;
    width = a.width, height = a.height;
    out.resize(static_cast<size_t>(width) * height * 3);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const unsigned long p = XGetPixel(image, x, y);
        unsigned char* o = &out[(static_cast<size_t>(y) * width + x) * 3];
        o[0] = static_cast<unsigned char>((p & image->red_mask) >> 16);
        o[1] = static_cast<unsigned char>((p & image->green_mask) >> 8);
        o[2] = static_cast<unsigned char>(p & image->blue_mask);
      }
    XDestroyImage(image);
    return out;
  }

  // Ctrl+Q, then the viewer's exit status (-1: it had to be killed after 15 s).
  int quit() {
    if (viewer_ <= 0) return exit_status_;
    key(XK_Control_L, true);
    tap(XK_q);
    key(XK_Control_L, false);
    for (int i = 0; i < 1500 && !viewer_exited(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!viewer_exited()) {
      ::kill(viewer_, SIGKILL);
      ::waitpid(viewer_, nullptr, 0);
      viewer_ = -1;
      exit_status_ = -1;
    }
    return exit_status_;
  }

  void stop() {
    if (viewer_ > 0) {
      ::kill(viewer_, SIGKILL);
      ::waitpid(viewer_, nullptr, 0);
      viewer_ = -1;
    }
    if (display_) XCloseDisplay(display_), display_ = nullptr;
    if (xvfb_ > 0) {
      ::kill(xvfb_, SIGTERM);
      ::waitpid(xvfb_, nullptr, 0);
      xvfb_ = -1;
    }
  }

  // The X display the session runs on (":N"), for a second connection (tests/app/xdnd_source.h),
  // and the viewer's window on it (0 before start()).
  std::string display_name() const { return ":" + std::to_string(display_number_); }
  Window window() const { return window_; }

  std::string viewer_log() const {
    std::ifstream in(dir_ / "viewer.log");
    std::string s((std::istreambuf_iterator<char>(in)), {});
    return s.size() > 2000 ? s.substr(s.size() - 2000) : s;
  }

 private:
  struct XTestApi {
    bool loaded = false;
    Bool (*query)(Display*, int*, int*, int*, int*) = nullptr;
    int (*motion)(Display*, int, int, int, unsigned long) = nullptr;
    int (*button)(Display*, unsigned, Bool, unsigned long) = nullptr;
    int (*key)(Display*, unsigned, Bool, unsigned long) = nullptr;
  };
  static const XTestApi& xtest_api() {
    static const XTestApi api = [] {
      XTestApi a;
      void* lib = dlopen("libXtst.so.6", RTLD_NOW | RTLD_LOCAL);
      if (!lib) return a;
      a.query = reinterpret_cast<decltype(a.query)>(dlsym(lib, "XTestQueryExtension"));
      a.motion = reinterpret_cast<decltype(a.motion)>(dlsym(lib, "XTestFakeMotionEvent"));
      a.button = reinterpret_cast<decltype(a.button)>(dlsym(lib, "XTestFakeButtonEvent"));
      a.key = reinterpret_cast<decltype(a.key)>(dlsym(lib, "XTestFakeKeyEvent"));
      a.loaded = a.query && a.motion && a.button && a.key;
      return a;
    }();
    return api;
  }

  void flush(int pause_ms) {
    XFlush(display_);
    if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
  }

  static pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                     const std::filesystem::path& log, int keep_fd = -1) {
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) ::dup2(out, 1), ::dup2(out, 2);
    const int in = ::open("/dev/null", O_RDONLY);
    if (in >= 0) ::dup2(in, 0);
    (void)keep_fd;
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }

  // Xvfb picks a free display itself and writes its number on the pipe (-displayfd).
  std::string start_xvfb(int width, int height) {
    int fds[2];
    if (::pipe(fds) != 0) return "pipe failed";
    const std::string screen = std::to_string(width) + "x" + std::to_string(height) + "x24";
    xvfb_ = spawn({"Xvfb", "-displayfd", std::to_string(fds[1]), "-screen", "0", screen,
                   "-nolisten", "tcp", "-noreset"},
                  {}, dir_ / "xvfb.log", fds[1]);
    ::close(fds[1]);
    std::string number;
    pollfd p{fds[0], POLLIN, 0};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
      if (::poll(&p, 1, 100) <= 0) continue;
      char c = 0;
      if (::read(fds[0], &c, 1) != 1) break;
      if (c == '\n') break;
      number += c;
    }
    ::close(fds[0]);
    if (number.empty()) return "Xvfb did not report a display within 15 s";
    display_number_ = std::atoi(number.c_str());
    return "";
  }

  // The top-level window whose name starts with "rigview", and where it is on the screen.
  std::string find_window() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      Window root = DefaultRootWindow(display_), parent = 0, *children = nullptr;
      unsigned count = 0;
      if (XQueryTree(display_, root, &root, &parent, &children, &count)) {
        for (unsigned i = 0; i < count && !window_; ++i) {
          char* name = nullptr;
          if (XFetchName(display_, children[i], &name) && name) {
            if (std::string(name).rfind("rigview", 0) == 0) window_ = children[i];
            XFree(name);
          }
        }
        if (children) XFree(children);
      }
      if (window_) {
        Window child = 0;
        XTranslateCoordinates(display_, window_, root, 0, 0, &origin_x_, &origin_y_, &child);
        return "";
      }
      if (viewer_exited()) return "rigview exited before opening its window: " + viewer_log();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return "no window titled \"rigview...\" appeared within 20 s; viewer log: " + viewer_log();
  }

  bool viewer_exited() {
    if (viewer_ <= 0) return true;
    int status = 0;
    if (::waitpid(viewer_, &status, WNOHANG) != viewer_) return false;
    exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    viewer_ = -1;
    return true;
  }

  std::filesystem::path dir_, state_;
  pid_t xvfb_ = -1, viewer_ = -1;
  int exit_status_ = -1;
  int display_number_ = -1;
  Display* display_ = nullptr;
  Window window_ = 0;
  int origin_x_ = 0, origin_y_ = 0;
};

// The fixture of the X-event suites: a folder of its own per test (kept when the test fails, for
// the viewer's log and state), the session the test starts, and on a passing test a real Ctrl+Q
// that must exit 0. Skips when Xvfb or libXtst is missing.
class XViewerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = XViewerSession::unavailable(); !why.empty())
      GTEST_SKIP() << why << ": X-event viewer tests skipped";
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("rigview_xevents_" + std::to_string(::getpid()) + "_" + test->test_suite_name() + "_" +
            test->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (session_) {
      if (!HasFailure() && !IsSkipped()) {
        EXPECT_EQ(session_->quit(), 0) << "Ctrl+Q: " << session_->viewer_log();
      }
      session_->stop();
    }
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  // A new session in this test's folder (stopping the previous one).
  XViewerSession& new_session() {
    if (session_) session_->stop();
    session_ = std::make_unique<XViewerSession>(dir_);
    return *session_;
  }
  // Waits until the viewer has just finished a frame, so what is sent next reaches it in one
  // batch before its next frame.
  void at_frame_start(ViewerProbe* probe = nullptr) {
    ASSERT_EQ(session_->wait_frames(1, probe), "");
  }
  ViewerProbe after_frames(int frames) {
    ViewerProbe p;
    EXPECT_EQ(session_->wait_frames(frames, &p), "");
    return p;
  }

  std::filesystem::path dir_;
  std::unique_ptr<XViewerSession> session_;
};

}  // namespace rig::test
