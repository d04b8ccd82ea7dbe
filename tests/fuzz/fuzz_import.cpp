// libFuzzer target: the importer from bytes (GLB or JSON glTF, told apart by the GLB magic).
// Built by `make fuzz` (clang-14, ASan + UBSan); see tests/fuzz/CMakeLists.txt.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_limits.h"
#include "import/gltf_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rig::Model model;
  std::string error;
  rig::import_gltf_from_memory({data, size}, "fuzz", rig::fuzz::options(), model, error);
  return 0;
}
