#include "posed_character.h"

#include "compression_outputs.h"
#include "pose_options.h"

namespace rigview {

int pose_from_options(const Options& options, const rig::Model& model, PosedCharacter& out,
                      std::string& error) {
  if (!pose_selection_from_options(options, model, out.selection, error)) return 2;
  out.character = std::make_unique<rig::Character>(model);
  if (options.compressed &&
      !use_compressed_clips(options, model, *out.character, out.compressed, error))
    return 1;
  out.character->evaluate(out.selection);
  return 0;
}

}  // namespace rigview
