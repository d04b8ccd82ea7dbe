// Sanitizer builds only: Mesa's llvmpipe keeps JIT-compiled code and driver state alive until
// exit, which LeakSanitizer reports from frames it cannot attribute to any library (so no
// suppression can name them). Before a mode creates a GL context it runs the leak check for
// everything allocated so far; LeakSanitizer then skips its end-of-process check. Our GL code
// itself is leak-checked in-process by rig_render_tests, whose Mesa frames are suppressible.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace rigview {

inline void leak_check_before_gl() {
#if defined(__SANITIZE_ADDRESS__)
  __lsan_do_leak_check();
#endif
}

}  // namespace rigview
