// Shared helpers for the test suite: the corpus location and running the rigview binary.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace rig::test {

// RIGVIEW_CORPUS: unset → the calling test skips (visibly); set to a missing folder → the test
// fails. Relative values are taken from the repository root (CI uses ../shared/corpus).
inline std::filesystem::path corpus_root_or_empty() {
  const char* env = std::getenv("RIGVIEW_CORPUS");
  if (!env || !*env) return {};
  std::filesystem::path p(env);
  if (p.is_relative()) p = std::filesystem::path(RIGVIEW_SOURCE_DIR) / p;
  return p;
}

#define RIG_REQUIRE_CORPUS(var)                                                      \
  std::filesystem::path var = ::rig::test::corpus_root_or_empty();                   \
  if (var.empty()) GTEST_SKIP() << "RIGVIEW_CORPUS is not set: corpus test skipped"; \
  ASSERT_TRUE(std::filesystem::is_directory(var))                                    \
      << "RIGVIEW_CORPUS points at a missing folder: " << var

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

// A per-process scratch folder, removed when the test program exits.
inline const std::filesystem::path& scratch_dir() {
  struct Dir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("rigview_test_" + std::to_string(::getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

// A whole file's bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::string s;
  if (std::FILE* f = std::fopen(p.c_str(), "rb")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
  }
  return s;
}

// The `v x y z` positions of a Wavefront OBJ, in order.
inline std::vector<std::array<double, 3>> obj_positions(const std::filesystem::path& p) {
  std::istringstream obj(slurp(p));
  std::vector<std::array<double, 3>> out;
  for (std::string line; std::getline(obj, line);) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream words(line.substr(2));
    std::array<double, 3> v{};
    words >> v[0] >> v[1] >> v[2];
    out.push_back(v);
  }
  return out;
}

// Runs `<prefix> rigview <args>` (args already shell-quoted; prefix: environment assignments
// and/or a wrapper such as xvfb-run), capturing stdout and stderr.
inline RunResult run_rigview_env(const std::string& prefix, const std::string& args) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path& dir = scratch_dir();
  fs::path out = dir / ("out" + std::to_string(counter) + ".txt");
  fs::path err = dir / ("err" + std::to_string(counter++) + ".txt");
  std::string cmd = prefix + (prefix.empty() ? "'" : " '") + RIGVIEW_EXE + "' " + args + " >'" +
                    out.string() + "' 2>'" + err.string() + "' </dev/null";
  int raw = std::system(cmd.c_str());
  RunResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Runs `rigview <args>` (args already shell-quoted), capturing stdout and stderr.
inline RunResult run_rigview(const std::string& args) { return run_rigview_env("", args); }

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

}  // namespace rig::test
