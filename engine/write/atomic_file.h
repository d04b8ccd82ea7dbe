// Writing a file so that readers only ever see the old contents or the new: the bytes go to a
// temporary `<target>.tmp-XXXXXX` in the target's folder (same file system, so the rename is
// atomic), are flushed to disk (fsync), and the temporary is renamed over the target. On any
// failure the temporary is removed and the target is untouched; no partial target ever exists.
//
// A process killed while writing leaves its temporary behind (nothing runs to remove it), never
// a partial target: the temporary's name says what it is, and a later write to the same target
// does not reuse it (each write picks a fresh name).
//
// The target is written through a symbolic link (the link's file is replaced, the link kept),
// and an existing target's permission bits are kept; a new one gets 0666 less the umask, as an
// ordinary open() would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace rig::write {

struct AtomicWriteOptions {
  // Bytes per write() call (at least 1).
  size_t chunk_bytes = size_t{1} << 20;
  // Called after each chunk reached the temporary with the bytes written so far and the total;
  // a test uses it to stop a writer halfway (tests/engine/write_atomic_file_test.cpp).
  std::function<void(size_t written, size_t total)> after_chunk;
};

// Writes `bytes` to `target` atomically. Returns false with a one-line `error` naming the file
// and the problem (the temporary removed).
bool write_file_atomically(const std::string& target, std::span<const uint8_t> bytes,
                           std::string& error, const AtomicWriteOptions& options = {});

}  // namespace rig::write
