// The retarget half of clip files (app/clip_files.h): a clip file whose skeleton differs from the
// character's is mapped part by part (character/bone_map.h: found by name, then by structure;
// --bone-map's pairs win) and each of its clips retargeted (character/retarget.h). Also the
// --bone-map file's reading and the --retarget-report writer.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "clip_files.h"
#include "model/model.h"
#include "options.h"

namespace rigview {

// --bone-map FILE.json: a JSON object {"source joint": "target joint", …}; null or "" unmaps the
// source joint. Pairs in file order. false + one line naming the file.
bool read_bone_map(const std::string& path, std::vector<std::pair<std::string, std::string>>& pairs,
                   std::string& error);

// Maps `source` onto `target` and retargets every clip of `source` into out.clips (named as
// load_clip_file names them), filling the map, the unmapped joints and each clip's measures.
// false + one line (without the file name) when either skeleton lacks core humanoid parts (it
// names them and the side) or the --bone-map file cannot be used.
bool retarget_clip_file(const rig::Model& source, const rig::Model& target, const Options& options,
                        ClipFile& out, std::string& error);

// Retargets every clip of `source` through out.map (edited, say, in the viewer's Bone map
// window) into out.clips, and refreshes the names, the unmapped joints and the hip heights.
// false + one line when the map cannot drive `target` (a joint driven twice, say).
bool retarget_clips(const rig::Model& source, const rig::Model& target, ClipFile& out,
                    std::string& error);

// --retarget-report: per file the map used, the unmapped joints and per clip its measures (README
// "Clips from other files and retargeting" gives the schema). false + one line naming the file.
bool write_retarget_report(const std::string& path, const rig::Model& target,
                           const std::vector<ClipFile>& files, std::string& error);

}  // namespace rigview
