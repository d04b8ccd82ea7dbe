// Resource caps of the importer (ImportLimits, gltf_import.h): crafted files that declare far
// more than they hold are refused (or their pictures skipped) with a message naming the cap,
// before anything that size is allocated.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>

#include "import/gltf_import.h"
#include "import_test_gltf.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;

bool import_text(const std::string& text, const rig::ImportOptions& options, rig::Model& model,
                 std::string& error) {
  return rig::import_gltf_from_memory({reinterpret_cast<const uint8_t*>(text.data()), text.size()},
                                      "crafted.gltf", options, model, error);
}

const rig::ImportWarning* find_warning(const rig::Model& model, const std::string& code) {
  for (const rig::ImportWarning& w : model.warnings) {
    if (w.code == code) return &w;
  }
  return nullptr;
}

// A triangle list whose POSITION (and optionally more) has no bufferView: `count` zeros that
// cost no file bytes.
std::string bufferless_mesh(const std::string& count, const std::string& extra_attributes = "",
                            const std::string& extra_accessors = "") {
  return rig::test::fill_in(rig::test::fill_in(rig::test::fill_in(R"({"asset":{"version":"2.0"},
        "accessors":[{"componentType":5126,"count":{COUNT},"type":"VEC3"}{ACC}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0{ATTR}}}]}],
        "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})",
                                                                  "COUNT", count),
                                               "ATTR", extra_attributes),
                            "ACC", extra_accessors);
}

TEST(ImportHardeningCaps, AOneKilobyteFileDeclaringHugeCountsIsRefused) {
  rig::Model model;
  std::string error;
  // Over the accessor caps outright.
  std::string text = bufferless_mesh("4000000000");
  ASSERT_LT(text.size(), 1024u);
  EXPECT_FALSE(import_text(text, {}, model, error));
  EXPECT_NE(error.find("too large (limit 16777216)"), std::string::npos) << error;
  // Within the per-accessor cap, but the decode budget of a 1 KB file is its fixed part: with it
  // lowered to 1 MiB the 2^20 vertices (12 MiB) are refused before they are allocated.
  rig::ImportOptions small;
  small.limits.decode_fixed_bytes = 1 << 20;
  text = bufferless_mesh("1048576");
  EXPECT_FALSE(import_text(text, small, model, error));
  EXPECT_NE(error.find("over what is left of the import's decode budget"), std::string::npos)
      << error;
  // The vertex caps.
  rig::ImportOptions few;
  few.limits.max_primitive_vertices = 1000;
  EXPECT_FALSE(import_text(bufferless_mesh("1001"), few, model, error));
  EXPECT_NE(error.find("1001 vertices, too many (limit 1000 per primitive)"), std::string::npos)
      << error;
  few.limits.max_primitive_vertices = 1 << 20;
  few.limits.max_total_vertices = 1500;
  text = rig::test::fill_in(R"({"asset":{"version":"2.0"},
        "accessors":[{"componentType":5126,"count":1000,"type":"VEC3"}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":0}}]}],
        "nodes":[{"mesh":0}]})",
                            "", "");
  EXPECT_FALSE(import_text(text, few, model, error));
  EXPECT_NE(error.find("too many (limit 1500 per model)"), std::string::npos) << error;
}

TEST(ImportHardeningCaps, JsonNestingAndSizeAreCappedBeforeTinygltfParses) {
  rig::Model model;
  std::string error;
  // 100,000 nested arrays once overflowed the stack inside tinygltf's parser.
  const std::string deep = R"({"asset":{"version":"2.0"},"extras":)" + std::string(100000, '[') +
                           std::string(100000, ']') + "}";
  EXPECT_FALSE(import_text(deep, {}, model, error));
  EXPECT_NE(error.find("nested deeper than 128 levels"), std::string::npos) << error;
  // Inside a GLB's JSON chunk too.
  const std::vector<uint8_t> glb = rig::test::make_glb(deep, {});
  EXPECT_FALSE(rig::import_gltf_from_memory(glb, "deep.glb", {}, model, error));
  EXPECT_NE(error.find("nested deeper than 128 levels"), std::string::npos) << error;
  // Nesting inside strings does not count.
  const std::string quoted =
      R"({"asset":{"version":"2.0","generator":")" + std::string(1000, '[') + R"(\"{"}})";
  EXPECT_TRUE(import_text(quoted, {}, model, error)) << error;
  // Objects and values: "nodes":[{},{},...] cost ~250 bytes per byte of JSON in tinygltf.
  rig::ImportOptions few;
  few.limits.max_json_containers = 100;
  std::string nodes = R"({"asset":{"version":"2.0"},"nodes":[{})";
  for (int i = 0; i < 100; ++i) nodes += ",{}";
  EXPECT_FALSE(import_text(nodes + "]}", few, model, error));
  EXPECT_NE(error.find("more than 100 objects and arrays, too many"), std::string::npos) << error;
  few.limits.max_json_values = 50;
  std::string values = R"({"asset":{"version":"2.0"},"extras":[0)";
  for (int i = 0; i < 50; ++i) values += ",\"x\"";
  EXPECT_FALSE(import_text(values + "]}", few, model, error));
  EXPECT_NE(error.find("more than 50 values, too many"), std::string::npos) << error;
}

TEST(ImportHardeningCaps, InfluenceSetsAreCappedBeforeAllocation) {
  rig::Model model;
  std::string error;
  // JOINTS_9999 would mean 40,000 influences per vertex over 2^24 vertices.
  const std::string text =
      bufferless_mesh("16777216", R"(,"JOINTS_9999":1,"WEIGHTS_9999":2)",
                      R"(,{"componentType":5121,"count":16777216,"type":"VEC4"},
          {"componentType":5126,"count":16777216,"type":"VEC4"})");
  ASSERT_LT(text.size(), 1024u);
  rig::ImportOptions small;
  small.limits.decode_fixed_bytes = uint64_t{1} << 28;
  EXPECT_FALSE(import_text(text, small, model, error));
  EXPECT_NE(error.find("10000 influence sets, too many (limit 8)"), std::string::npos) << error;
}

TEST(ImportHardeningCaps, KeyCountsAreCapped) {
  rig::test::ByteBuffer bin;
  bin.put<float>({0, 1, 2, 3, 4});
  bin.put<float>({0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4});
  const std::string text = rig::test::fill_in(R"({"asset":{"version":"2.0"},
      "buffers":[{"byteLength":80,"uri":"{URI}"}],
      "bufferViews":[{"buffer":0,"byteLength":20},{"buffer":0,"byteOffset":20,"byteLength":60}],
      "accessors":[{"bufferView":0,"componentType":5126,"count":5,"type":"SCALAR"},
                   {"bufferView":1,"componentType":5126,"count":5,"type":"VEC3"}],
      "nodes":[{}],
      "animations":[{"samplers":[{"input":0,"output":1}],
                     "channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}]})",
                                              "URI", rig::test::data_uri(bin.data));
  rig::Model model;
  std::string error;
  ASSERT_TRUE(import_text(text, {}, model, error)) << error;
  rig::ImportOptions few;
  few.limits.max_channel_keys = 4;
  EXPECT_FALSE(import_text(text, few, model, error));
  EXPECT_NE(error.find("5 keys, too many (limit 4 per channel)"), std::string::npos) << error;
  few.limits.max_channel_keys = 5;
  few.limits.max_total_keys = 4;
  EXPECT_FALSE(import_text(text, few, model, error));
  EXPECT_NE(error.find("too many (limit 4 per model)"), std::string::npos) << error;
}

TEST(ImportHardeningCaps, SparseAccessorsWithGiantCountsAreRefused) {
  rig::test::ByteBuffer bin;
  bin.put<uint32_t>({0, 1});
  bin.put<float>({1, 2, 3, 4, 5, 6});
  const std::string uri = rig::test::data_uri(bin.data);
  auto sparse_mesh = [&](const std::string& count, const std::string& sparse_count) {
    return rig::test::fill_in(rig::test::fill_in(rig::test::fill_in(R"({"asset":{"version":"2.0"},
      "buffers":[{"byteLength":32,"uri":"{URI}"}],
      "bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],
      "accessors":[{"componentType":5126,"count":{COUNT},"type":"VEC3",
        "sparse":{"count":{SPARSE},"indices":{"bufferView":0,"componentType":5125},
                  "values":{"bufferView":1}}}],
      "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}]})",
                                                                    "URI", uri),
                                                 "COUNT", count),
                              "SPARSE", sparse_count);
  };
  rig::Model model;
  std::string error;
  ASSERT_TRUE(import_text(sparse_mesh("3", "2"), {}, model, error)) << error;
  EXPECT_EQ(model.meshes[0].primitives[0].positions[1], glm::vec3(4, 5, 6));
  // The sparse count far beyond the 8 bytes of indices that exist.
  EXPECT_FALSE(import_text(sparse_mesh("16000000", "16000000"), {}, model, error));
  EXPECT_NE(error.find("sparse indices read past the end of bufferView 0"), std::string::npos)
      << error;
  // Counts over the caps.
  EXPECT_FALSE(import_text(sparse_mesh("3000000000", "2"), {}, model, error));
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  EXPECT_FALSE(import_text(sparse_mesh("3", "3000000000"), {}, model, error));
  EXPECT_NE(error.find("sparse count"), std::string::npos) << error;
}

uint32_t crc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// A PNG whose IHDR declares width x height (and no image data at all).
std::vector<uint8_t> png_header(uint32_t width, uint32_t height) {
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  auto be32 = [&](std::vector<uint8_t>& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
  };
  std::vector<uint8_t> chunk = {'I', 'H', 'D', 'R'};
  be32(chunk, width);
  be32(chunk, height);
  chunk.insert(chunk.end(), {8, 6, 0, 0, 0});  // 8-bit RGBA
  be32(png, 13);
  png.insert(png.end(), chunk.begin(), chunk.end());
  be32(png, crc32(chunk.data(), chunk.size()));
  std::vector<uint8_t> end = {'I', 'E', 'N', 'D'};
  be32(png, 0);
  png.insert(png.end(), end.begin(), end.end());
  be32(png, crc32(end.data(), end.size()));
  return png;
}

std::string textured_triangle(const std::vector<std::vector<uint8_t>>& pngs) {
  rig::test::ByteBuffer bin;
  bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
  std::string images, textures, materials;
  for (size_t i = 0; i < pngs.size(); ++i) {
    const std::string sep = i ? "," : "";
    images += sep + R"({"uri":"data:image/png;base64,)" + rig::test::base64(pngs[i]) + "\"}";
    textures += sep + R"({"source":)" + std::to_string(i) + "}";
    materials += sep + R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":)" +
                 std::to_string(i) + "}}}";
  }
  return R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":")" +
         rig::test::data_uri(bin.data) + R"("}],
      "bufferViews":[{"buffer":0,"byteLength":36}],
      "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
      "images":[)" +
         images + R"(],"textures":[)" + textures + R"(],"materials":[)" + materials +
         R"(],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
      "nodes":[{"mesh":0}]})";
}

TEST(ImportHardeningCaps, APngHeaderDeclaring30000By30000IsSkippedWithoutDecoding) {
  rig::Model model;
  std::string error;
  ASSERT_TRUE(import_text(textured_triangle({png_header(30000, 30000)}), {}, model, error))
      << error;
  const rig::ImportWarning* w = find_warning(model, "IMAGE_TOO_LARGE");
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w->message.find("30000x30000, too large (limit 67108864 pixels)"), std::string::npos)
      << w->message;
  EXPECT_TRUE(model.images[0].rgba.empty());
}

TEST(ImportHardeningCaps, TotalDecodedImageBytesAreCapped) {
  // Two real 64x64 pictures (16 KiB of RGBA each) under a 20 KiB total: the second is skipped.
  std::vector<uint8_t> png;
  {
    // A minimal valid 64x64 RGBA PNG: stored (uncompressed) deflate blocks.
    const uint32_t side = 64;
    std::vector<uint8_t> raw;
    for (uint32_t y = 0; y < side; ++y) {
      raw.push_back(0);  // filter: none
      for (uint32_t x = 0; x < side * 4; ++x) raw.push_back(uint8_t(x + y));
    }
    std::vector<uint8_t> z = {0x78, 0x01};
    for (size_t at = 0; at < raw.size(); at += 65535) {
      const size_t n = std::min<size_t>(65535, raw.size() - at);
      z.push_back(at + n == raw.size() ? 1 : 0);
      z.push_back(uint8_t(n));
      z.push_back(uint8_t(n >> 8));
      z.push_back(uint8_t(~n));
      z.push_back(uint8_t(~n >> 8));
      z.insert(z.end(), raw.begin() + std::ptrdiff_t(at), raw.begin() + std::ptrdiff_t(at + n));
    }
    uint32_t a = 1, b = 0;
    for (uint8_t c : raw) {
      a = (a + c) % 65521;
      b = (b + a) % 65521;
    }
    const uint32_t adler = (b << 16) | a;
    for (int s = 24; s >= 0; s -= 8) z.push_back(uint8_t(adler >> s));
    png = png_header(side, side);
    png.resize(png.size() - 12);  // drop IEND
    auto be32 = [&](uint32_t v) {
      for (int s = 24; s >= 0; s -= 8) png.push_back(uint8_t(v >> s));
    };
    std::vector<uint8_t> chunk = {'I', 'D', 'A', 'T'};
    chunk.insert(chunk.end(), z.begin(), z.end());
    be32(uint32_t(z.size()));
    png.insert(png.end(), chunk.begin(), chunk.end());
    be32(crc32(chunk.data(), chunk.size()));
    std::vector<uint8_t> end = {'I', 'E', 'N', 'D'};
    be32(0);
    png.insert(png.end(), end.begin(), end.end());
    be32(crc32(end.data(), end.size()));
  }
  rig::Model model;
  std::string error;
  ASSERT_TRUE(import_text(textured_triangle({png, png}), {}, model, error)) << error;
  ASSERT_EQ(model.images.size(), 2u);
  EXPECT_EQ(model.images[0].rgba.size(), 64u * 64u * 4u);
  EXPECT_EQ(model.images[1].rgba.size(), 64u * 64u * 4u);
  rig::ImportOptions capped;
  capped.limits.max_total_image_bytes = 20 * 1024;
  ASSERT_TRUE(import_text(textured_triangle({png, png}), capped, model, error)) << error;
  EXPECT_EQ(model.images[0].rgba.size(), 64u * 64u * 4u);
  EXPECT_TRUE(model.images[1].rgba.empty());
  const rig::ImportWarning* w = find_warning(model, "IMAGE_TOO_LARGE");
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w->message.find("total image limit"), std::string::npos) << w->message;
}

// The scaled part of the decode budget alone (16 bytes per input byte, no fixed part) is enough
// for every real file: the multiple is a bound real models never reach.
TEST(ImportHardeningCorpus, RealFilesFitTheScaledDecodeBudgetAlone) {
  RIG_REQUIRE_CORPUS(root);
  rig::ImportOptions options;
  options.limits.decode_fixed_bytes = 0;
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".gltf" && ext != ".glb")) continue;
    rig::Model model;
    std::string error;
    EXPECT_TRUE(rig::import_gltf(entry.path().string(), options, model, error))
        << entry.path() << ": " << error;
    ++files;
  }
  EXPECT_GT(files, 40);
  rig::Model model;
  std::string error;
  EXPECT_TRUE(rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", options,
                               model, error))
      << error;
}

}  // namespace
