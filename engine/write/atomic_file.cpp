#include "write/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace rig::write {

namespace {

namespace fs = std::filesystem;

std::string system_error(int code) { return std::strerror(code); }

// Creates `<target>.tmp-XXXXXX` with O_EXCL (a fresh name per try), mode 0666 less the umask.
int create_temporary(const std::string& target, std::string& name, int& code) {
  static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::random_device seed;
  std::mt19937 random(seed());
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = target + ".tmp-";
    for (int i = 0; i < 6; ++i) name.push_back(digits[random() % 36]);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    code = errno;
    if (code != EEXIST) return -1;
  }
  return -1;
}

bool write_all(int fd, std::span<const uint8_t> bytes, const AtomicWriteOptions& options,
               int& code) {
  const size_t chunk = std::max<size_t>(options.chunk_bytes, 1);
  size_t done = 0;
  while (done < bytes.size()) {
    const size_t want = std::min(chunk, bytes.size() - done);
    size_t put = 0;
    while (put < want) {
      const ssize_t n = ::write(fd, bytes.data() + done + put, want - put);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        code = n < 0 ? errno : EIO;
        return false;
      }
      put += size_t(n);
    }
    done += want;
    if (options.after_chunk) options.after_chunk(done, bytes.size());
  }
  return true;
}

}  // namespace

bool write_file_atomically(const std::string& target, std::span<const uint8_t> bytes,
                           std::string& error, const AtomicWriteOptions& options) {
  // Through a symbolic link: replace the file it names, keep the link.
  std::string path = target;
  std::error_code ec;
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) path = resolved.string();
  }
  std::string temporary;
  int code = 0;
  const int fd = create_temporary(path, temporary, code);
  if (fd < 0) {
    error = target + ": cannot create a temporary file beside it (" + system_error(code) + ")";
    return false;
  }
  auto fail = [&](const std::string& what, int why) {
    if (fd >= 0) ::close(fd);
    ::unlink(temporary.c_str());
    error = target + ": " + what + " (" + system_error(why) + ")";
    return false;
  };
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode) &&
      ::fchmod(fd, existing.st_mode & 07777) != 0)
    return fail("cannot give the new file the old one's permissions", errno);
  if (!write_all(fd, bytes, options, code)) return fail("cannot write", code);
  if (::fsync(fd) != 0) return fail("cannot flush to disk", errno);
  if (::close(fd) != 0) {
    code = errno;
    ::unlink(temporary.c_str());
    error = target + ": cannot write (" + system_error(code) + ")";
    return false;
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    code = errno;
    ::unlink(temporary.c_str());
    error = target + ": cannot replace it (" + system_error(code) + ")";
    return false;
  }
  // The rename itself reaches the disk with the folder's entry (best effort: some file systems
  // refuse to fsync a folder).
  const fs::path folder = fs::path(path).parent_path();
  const int dir = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return true;
}

}  // namespace rig::write
