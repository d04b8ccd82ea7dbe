// Drops files on a window the way a file manager does: the source side of the X drag-and-drop
// protocol (XDND, freedesktop.org, version 5), so a test exercises the viewer's real drop path
// (GLFW's X11 target side, then the viewer's drop callback) instead of a simulated one.
//
// What one drop() sends and waits for, on a connection of its own (its events never mix with
// the harness's XTEST and XGetImage traffic):
//   1. the target must carry XdndAware (its version, at least 2 so that it answers XdndFinished);
//      the version spoken is the smaller of it and 5;
//   2. a 1×1 unmapped source window takes a server timestamp (a PropertyNotify) and owns the
//      XdndSelection with it; it offers one type, text/uri-list (also in XdndTypeList);
//   3. XdndEnter, then XdndPosition at the drop point in root coordinates with XdndActionCopy,
//      then waits for XdndStatus: a refusal ends the drag with XdndLeave and an error;
//   4. XdndDrop with the timestamp, answering the target's SelectionRequest for text/uri-list
//      (or TARGETS) with one percent-encoded file:// URI per path, each ended by CR LF, until
//      XdndFinished arrives (version 5: it must say accepted).
// Every wait has a deadline, so a target that never answers fails the test with what was
// awaited instead of hanging it; X errors (a target window that went away) are caught and
// reported, not fatal. Modifiers (Shift+drop) are the caller's: hold the key with XTEST before
// drop() and release it after, as a person holds it while releasing the mouse button.
#pragma once

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <poll.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace rig::test {

class XdndSource {
 public:
  static constexpr long kVersion = 5;

  // `display_name`: the X display the target lives on (":N").
  explicit XdndSource(const std::string& display_name)
      : display_(XOpenDisplay(display_name.c_str())) {
    if (!display_) return;
    const char* names[] = {"XdndAware",
                           "XdndSelection",
                           "XdndEnter",
                           "XdndPosition",
                           "XdndStatus",
                           "XdndLeave",
                           "XdndDrop",
                           "XdndFinished",
                           "XdndActionCopy",
                           "XdndTypeList",
                           "text/uri-list",
                           "TARGETS",
                           "_RIGVIEW_XDND_TIMESTAMP"};
    XInternAtoms(display_, const_cast<char**>(names), kAtomCount, False, atoms_);
  }
  ~XdndSource() {
    if (display_) XCloseDisplay(display_);
  }
  XdndSource(const XdndSource&) = delete;
  XdndSource& operator=(const XdndSource&) = delete;

  // `paths` as a text/uri-list: "file://" + the path with every byte outside RFC 3986's
  // unreserved set and '/' written as %XX, then CR LF.
  static std::string uri_list(const std::vector<std::string>& paths) {
    std::string out;
    for (const std::string& path : paths) {
      out += "file://";
      for (const unsigned char c : path) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                           c == '/';
        if (plain) {
          out += char(c);
        } else {
          char hex[4];
          std::snprintf(hex, sizeof hex, "%%%02X", c);
          out += hex;
        }
      }
      out += "\r\n";
    }
    return out;
  }

  // Drags `paths` over `target` to its pixel (x, y) (origin top left) and drops them there.
  // "" once the target has finished the drop and accepted it; otherwise what went wrong (each
  // wait gives up after `timeout_s`).
  std::string drop(Window target, int x, int y, const std::vector<std::string>& paths,
                   double timeout_s = 30.0) {
    if (!display_) return "XDND source: cannot connect to the X display";
    const ErrorTrap trap;
    data_ = uri_list(paths);
    conversions_ = 0;
    const long version = aware_version(target);
    if (version < 2)
      return version < 0 ? "XDND: the target window has no XdndAware property"
                         : "XDND: the target speaks version " + std::to_string(version) +
                               ", which has no XdndFinished";
    version_ = version < kVersion ? version : kVersion;
    target_ = target;

    const Window root = DefaultRootWindow(display_);
    source_ = XCreateSimpleWindow(display_, root, -10, -10, 1, 1, 0, 0, 0);
    XSelectInput(display_, source_, PropertyChangeMask);
    XChangeProperty(display_, source_, atoms_[kTypeList], XA_ATOM, 32, PropModeReplace,
                    reinterpret_cast<const unsigned char*>(&atoms_[kUriList]), 1);
    std::string error = take_timestamp(timeout_s);
    if (error.empty()) {
      XSetSelectionOwner(display_, atoms_[kSelection], source_, time_);
      if (XGetSelectionOwner(display_, atoms_[kSelection]) != source_)
        error = "XDND: could not own the XdndSelection";
    }
    int root_x = 0, root_y = 0;
    Window child = 0;
    if (error.empty() &&
        !XTranslateCoordinates(display_, target, root, x, y, &root_x, &root_y, &child))
      error = "XDND: the target is not on the root window's screen";
    if (error.empty()) error = drag_and_drop(root_x, root_y, timeout_s);
    XDestroyWindow(display_, source_);  // also gives up the selection
    XSync(display_, False);
    source_ = 0;
    if (error.empty() && ErrorTrap::current() != 0)
      error = "XDND: X error " + std::to_string(ErrorTrap::current()) + " during the drop";
    return error;
  }

  // How many times the target asked for the text/uri-list during the last drop().
  int conversions() const { return conversions_; }
  // The action the target's last XdndStatus accepted (an atom name, "" if none).
  std::string accepted_action() const { return accepted_action_; }

 private:
  enum {
    kAware,
    kSelection,
    kEnter,
    kPosition,
    kStatus,
    kLeave,
    kDrop,
    kFinished,
    kActionCopy,
    kTypeList,
    kUriList,
    kTargets,
    kTimestamp,
    kAtomCount
  };

  // X errors while dropping are recorded (the first code), not fatal: Xlib's default handler
  // would exit the test process.
  struct ErrorTrap {
    static int& current() {
      static int code = 0;
      return code;
    }
    XErrorHandler previous;
    ErrorTrap() : previous(XSetErrorHandler(&ErrorTrap::handler)) { current() = 0; }
    ~ErrorTrap() { XSetErrorHandler(previous); }
    static int handler(Display*, XErrorEvent* e) {
      if (current() == 0) current() = e->error_code;
      return 0;
    }
  };

  // The XdndAware version of `w`, -1 without the property.
  long aware_version(Window w) {
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* data = nullptr;
    long version = -1;
    if (XGetWindowProperty(display_, w, atoms_[kAware], 0, 1, False, XA_ATOM, &type, &format,
                           &count, &after, &data) == Success &&
        type == XA_ATOM && format == 32 && count == 1)
      version = long(*reinterpret_cast<Atom*>(data));
    if (data) XFree(data);
    return version;
  }

  // A server timestamp (ICCCM: selections are owned as of a real time, not CurrentTime): a
  // zero-length append to a property of the source window, read back from its PropertyNotify.
  std::string take_timestamp(double timeout_s) {
    XChangeProperty(display_, source_, atoms_[kTimestamp], XA_STRING, 8, PropModeAppend,
                    reinterpret_cast<const unsigned char*>(""), 0);
    XFlush(display_);
    XEvent e;
    const bool got = wait_for(timeout_s, e, [&](const XEvent& ev) {
      return ev.type == PropertyNotify && ev.xproperty.window == source_ &&
             ev.xproperty.atom == atoms_[kTimestamp];
    });
    if (!got) return "XDND: no PropertyNotify for the source window's timestamp";
    time_ = e.xproperty.time;
    return "";
  }

  void send(int message, long l1, long l2, long l3, long l4) {
    XEvent e{};
    e.xclient.type = ClientMessage;
    e.xclient.display = display_;
    e.xclient.window = target_;
    e.xclient.message_type = atoms_[message];
    e.xclient.format = 32;
    e.xclient.data.l[0] = long(source_);
    e.xclient.data.l[1] = l1;
    e.xclient.data.l[2] = l2;
    e.xclient.data.l[3] = l3;
    e.xclient.data.l[4] = l4;
    XSendEvent(display_, target_, False, NoEventMask, &e);
    XFlush(display_);
  }

  bool is_message(const XEvent& e, int message) const {
    return e.type == ClientMessage && e.xclient.window == source_ &&
           e.xclient.message_type == atoms_[message] && Window(e.xclient.data.l[0]) == target_;
  }

  std::string drag_and_drop(int root_x, int root_y, double timeout_s) {
    // Enter: version in the high byte of l[1]; bit 0 clear, the types fit in l[2..4].
    send(kEnter, version_ << 24, long(atoms_[kUriList]), None, None);
    send(kPosition, 0, (long(root_x) << 16) | (long(root_y) & 0xffff), long(time_),
         long(atoms_[kActionCopy]));
    XEvent status;
    if (!wait_for(timeout_s, status, [&](const XEvent& e) { return is_message(e, kStatus); })) {
      send(kLeave, 0, 0, 0, 0);
      return "XDND: no XdndStatus within " + std::to_string(timeout_s) + " s of XdndPosition";
    }
    accepted_action_.clear();
    if (status.xclient.data.l[4] != None) {
      char* name = XGetAtomName(display_, Atom(status.xclient.data.l[4]));
      if (name) accepted_action_ = name, XFree(name);
    }
    if ((status.xclient.data.l[1] & 1) == 0) {
      send(kLeave, 0, 0, 0, 0);
      return "XDND: the target refused the drop (XdndStatus without its accept bit)";
    }
    send(kDrop, 0, long(time_), 0, 0);
    XEvent finished;
    if (!wait_for(timeout_s, finished, [&](const XEvent& e) { return is_message(e, kFinished); }))
      return "XDND: no XdndFinished within " + std::to_string(timeout_s) + " s of XdndDrop (" +
             std::to_string(conversions_) + " uri-list conversions asked)";
    // Version 5 puts the accept flag in bit 0 of l[1]; GLFW 3.3 writes there the number of
    // bytes it read instead, so any non-zero value counts as accepted and zero as refused.
    if (version_ >= 5 && finished.xclient.data.l[1] == 0)
      return "XDND: the target finished without accepting the drop";
    if (conversions_ == 0) return "XDND: the target finished without reading the uri-list";
    return "";
  }

  // Answers a SelectionRequest on the XdndSelection: the uri-list, or the list of targets.
  void answer(const XSelectionRequestEvent& r) {
    XEvent reply{};
    reply.xselection.type = SelectionNotify;
    reply.xselection.display = display_;
    reply.xselection.requestor = r.requestor;
    reply.xselection.selection = r.selection;
    reply.xselection.target = r.target;
    reply.xselection.time = r.time;
    reply.xselection.property = None;
    const Atom property = r.property != None ? r.property : r.target;  // obsolete clients
    if (r.selection == atoms_[kSelection] && r.target == atoms_[kUriList]) {
      XChangeProperty(display_, r.requestor, property, atoms_[kUriList], 8, PropModeReplace,
                      reinterpret_cast<const unsigned char*>(data_.data()), int(data_.size()));
      reply.xselection.property = property;
      ++conversions_;
    } else if (r.selection == atoms_[kSelection] && r.target == atoms_[kTargets]) {
      const Atom targets[2] = {atoms_[kTargets], atoms_[kUriList]};
      XChangeProperty(display_, r.requestor, property, XA_ATOM, 32, PropModeReplace,
                      reinterpret_cast<const unsigned char*>(targets), 2);
      reply.xselection.property = property;
    }
    XSendEvent(display_, r.requestor, False, NoEventMask, &reply);
    XFlush(display_);
  }

  // Reads events until one matches `want` (copied to `out`) or `timeout_s` runs out; meanwhile
  // answers selection requests, so the target can read the data while the source waits.
  template <class Want>
  bool wait_for(double timeout_s, XEvent& out, Want want) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < deadline) {
      while (XPending(display_) > 0) {
        XNextEvent(display_, &out);
        if (out.type == SelectionRequest) answer(out.xselectionrequest);
        if (want(out)) return true;
      }
      pollfd p{ConnectionNumber(display_), POLLIN, 0};
      ::poll(&p, 1, 20);
    }
    return false;
  }

  Display* display_ = nullptr;
  Atom atoms_[kAtomCount] = {};
  Window source_ = 0, target_ = 0;
  Time time_ = CurrentTime;
  long version_ = kVersion;
  std::string data_, accepted_action_;
  int conversions_ = 0;
};

}  // namespace rig::test
