// Command-line parsing in-process (app/options.h): --skinning from the skinning-method table,
// compare lists, and the usage text built from the table.
#include "options.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "parse_args.h"
#include "test_support.h"

namespace {

using Method = rig::SkinningMethod;
using rig::test::parse;
using rig::test::Parsed;

TEST(Options, EverySkinningTableNameSelectsItsMethodAlone) {
  const Parsed none = parse({});
  ASSERT_TRUE(none.ok) << none.error;
  EXPECT_EQ(none.options.skinning_methods, std::vector<Method>{Method::Linear});
  EXPECT_FALSE(none.options.compare);
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
    const Parsed p = parse({"--skinning", m.name});
    ASSERT_TRUE(p.ok) << m.name << ": " << p.error;
    EXPECT_EQ(p.options.skinning_methods, std::vector<Method>{m.method}) << m.name;
    EXPECT_FALSE(p.options.compare);
    EXPECT_EQ(rigview::methods_to_draw(p.options), std::vector<Method>{m.method}) << m.name;
  }
}

TEST(Options, CompareAloneIsEveryTableMethodInTableOrder) {
  const Parsed p = parse({"--skinning", "compare"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_TRUE(p.options.compare);
  const auto all = rig::all_skinning_methods();
  const std::vector<Method> table(all.begin(), all.end());
  EXPECT_EQ(p.options.skinning_methods, table);
  EXPECT_EQ(rigview::methods_to_draw(p.options), table);
  // Three-way compare in any order.
  const Parsed three = parse({"--skinning", "compare=cor,lbs,dqs"});
  ASSERT_TRUE(three.ok) << three.error;
  EXPECT_EQ(
      rigview::methods_to_draw(three.options),
      (std::vector<Method>{Method::CentersOfRotation, Method::Linear, Method::DualQuaternion}));
}

TEST(Options, CompareListKeepsItsOrderInBothSpellings) {
  const Parsed a = parse({"--skinning", "compare=lbs,dqs"});
  ASSERT_TRUE(a.ok) << a.error;
  EXPECT_TRUE(a.options.compare);
  EXPECT_EQ(rigview::methods_to_draw(a.options),
            (std::vector<Method>{Method::Linear, Method::DualQuaternion}));
  const Parsed b = parse({"--skinning=compare=dqs,lbs"});
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_TRUE(b.options.compare);
  EXPECT_EQ(rigview::methods_to_draw(b.options),
            (std::vector<Method>{Method::DualQuaternion, Method::Linear}));
  // The last --skinning wins.
  const Parsed c = parse({"--skinning", "compare", "--skinning", "dqs"});
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_FALSE(c.options.compare);
  EXPECT_EQ(rigview::methods_to_draw(c.options), std::vector<Method>{Method::DualQuaternion});
}

TEST(Options, BadSkinningValuesAreUsageErrorsNamingTheValidMethods) {
  // Built from the table: the messages name every row.
  const std::string names = rig::skinning_method_names(", ");
  const std::string expects = "--skinning expects " + rig::skinning_method_names("|") +
                              ", compare or compare=METHOD,METHOD[,...] (methods: " + names +
                              "), got ";
  struct Bad {
    const char* value;
    std::string error;
  };
  for (const Bad& bad : {
           Bad{"sideways", expects + "'sideways'"},
           Bad{"LBS", expects + "'LBS'"},
           Bad{"comparelbs", expects + "'comparelbs'"},
           Bad{"compare=lbs,foo", "--skinning compare: unknown method 'foo' (methods: " + names +
                                      "), got 'compare=lbs,foo'"},
           Bad{"compare=lbs,,dqs", "--skinning compare: unknown method '' (methods: " + names +
                                       "), got 'compare=lbs,,dqs'"},
           Bad{"compare=lbs,dqs,lbs",
               "--skinning compare: 'lbs' is listed twice, got 'compare=lbs,dqs,lbs'"},
           Bad{"compare=dqs,dqs",
               "--skinning compare: 'dqs' is listed twice, got 'compare=dqs,dqs'"},
           Bad{"compare=lbs", "--skinning compare= needs at least two methods (methods: " + names +
                                  "), got 'compare=lbs'"},
       }) {
    const Parsed p = parse({"--skinning", bad.value});
    EXPECT_FALSE(p.ok) << bad.value;
    EXPECT_EQ(p.error, bad.error);
  }
  const Parsed obj = parse({"--skinning", "compare=dqs,lbs", "--export-obj", "x.obj"});
  EXPECT_FALSE(obj.ok);
  EXPECT_EQ(obj.error, "--skinning compare applies to --output renders, not to --export-obj");
}

TEST(Options, UsageTextListsEverySkinningTableRow) {
  const std::string usage = rigview::usage_text();
  EXPECT_NE(usage.find("  --skinning " + rig::skinning_method_names("|") + "|compare[=LIST]\n"),
            std::string::npos)
      << usage;
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
    const std::string row = std::string(m.name) + std::string(6 - std::string(m.name).size(), ' ') +
                            m.label + " (" + m.description + ")\n";
    EXPECT_NE(usage.find("                              " + row), std::string::npos)
        << "no row for " << m.name << " in\n"
        << usage;
  }
  EXPECT_NE(usage.find("default " + rig::skinning_method_names(",") + ")"), std::string::npos)
      << usage;
  EXPECT_NE(usage.find("skinning method (default lbs)"), std::string::npos) << usage;
  // --help prints exactly this text.
  const rig::test::RunResult r = rig::test::run_rigview("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, usage);
}

TEST(Options, EveryFlagOfTheTableIsOneTheParserKnows) {
  for (const rigview::FlagInfo& f : rigview::command_line_flags()) {
    const std::string flag = f.syntax.substr(0, f.syntax.find(' '));
    const Parsed p = parse({flag});
    EXPECT_EQ(p.error.find("unknown option"), std::string::npos) << flag << ": " << p.error;
    EXPECT_NE(rigview::usage_text().find("  " + f.syntax), std::string::npos) << flag;
  }
}

// README.md's flag table between the cli markers is the generated text, byte for byte.
TEST(Options, ReadmeFlagTableIsTheGeneratedText) {
  std::ifstream in(std::string(RIGVIEW_SOURCE_DIR) + "/README.md", std::ios::binary);
  ASSERT_TRUE(in) << "README.md";
  const std::string readme((std::istreambuf_iterator<char>(in)), {});
  const std::string begin = "<!-- cli:begin -->\n", end = "<!-- cli:end -->";
  const size_t b = readme.find(begin);
  ASSERT_NE(b, std::string::npos) << "README.md has no " << begin;
  const size_t e = readme.find(end, b);
  ASSERT_NE(e, std::string::npos) << "README.md has no " << end;
  EXPECT_EQ(readme.substr(b + begin.size(), e - b - begin.size()), rigview::cli_flags_markdown())
      << "README.md's flag table is stale: replace it with the output of "
         "`rigview --print-cli-markdown`";
  const rig::test::RunResult r = rig::test::run_rigview("--print-cli-markdown");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, rigview::cli_flags_markdown());
}

}  // namespace
