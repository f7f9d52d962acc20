// SPDX-License-Identifier: Apache-2.0
// `trainscope-cli compare` as a CI job runs it: exit codes 0, 1 and 2, one line per item over a
// limit, JSON that validates against docs/comparison.schema.json, markdown for a comment.
#include <gtest/gtest.h>

#include "cli/cli_fixture.h"
#include "support/bounded_command.h"
#include "support/known_times.h"

using namespace trainscope::test;

namespace {

class Compare : public Cli {
  protected:
    // The runs every test compares, profiled once: the MLP at d_model 256 and 512, given known
    // times so that the gate's verdict on them is certain (support/known_times.h): each linear
    // layer 2 ms at 256 and four times that at 512, the other operations 0.1 ms.
    static void SetUpTestSuite() {
        runs_ = new std::string(makeTempDir());
        for (const char* width : {"256", "512"}) {
            const std::string live = *runs_ + "/live" + width;
            const std::string command = std::string(TRAINSCOPE_CLI) +
                                        " profile -q --model builtin:mlp --param d_model=" + width +
                                        " --warmup 1 --iterations 3 -o " + live + " >/dev/null";
            ASSERT_EQ(std::system(trainscope::test::bounded(command).c_str()), 0) << command;
            const double linear_ms = std::string(width) == "256" ? 2.0 : 8.0;
            copyWithKnownTimes(live, runOf("mlp") + width, [&](const std::string& operation) {
                return timeWithin(operation == "aten::linear" ? linear_ms : 0.1, 5.0);
            });
        }
    }
    static void TearDownTestSuite() {
        fs::remove_all(*runs_);
        delete runs_;
    }
    static std::string runOf(const std::string& name) { return *runs_ + "/" + name; }

    static std::string* runs_;
};

std::string* Compare::runs_ = nullptr;

size_t lines(const std::string& text) {
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST_F(Compare, ARunComparedWithItselfPasses) {
    const Result same = run("compare " + runOf("mlp256") + " " + runOf("mlp256"));
    EXPECT_EQ(same.exit_code, 0) << same.err;
    EXPECT_EQ(same.err, "");
    EXPECT_NE(same.out.find("Gate (time +25%, memory +0%): passed"), std::string::npos) << same.out;
    // Nothing changed: no section lists an item, only the totals.
    EXPECT_EQ(same.out.find("Operations\n"), std::string::npos) << same.out;
}

TEST_F(Compare, AWiderModelExceedsTheLimitsWithOneLinePerItem) {
    const Result wider = run("compare " + runOf("mlp256") + " " + runOf("mlp512"));
    EXPECT_EQ(wider.exit_code, 1) << wider.err;
    const size_t gate = wider.out.find("increases over the limits");
    ASSERT_NE(gate, std::string::npos) << wider.out;
    const std::string listed = wider.out.substr(wider.out.find('\n', gate) + 1);
    EXPECT_NE(listed.find("parameter lin_0.weight: weight_bytes 1.0 MiB -> 4.0 MiB (+300.0%, "
                          "limit 0%)"),
              std::string::npos)
        << listed;
    EXPECT_NE(listed.find("total iteration: peak_bytes"), std::string::npos) << listed;
    EXPECT_NE(listed.find("operation lin_0 · aten::linear #1: activation_bytes"), std::string::npos)
        << listed;
    // Each listed line names an item and its figure: as many lines as the JSON's violations.
    const Result json = run("compare --format json " + runOf("mlp256") + " " + runOf("mlp512"));
    EXPECT_EQ(json.exit_code, 1);
    EXPECT_EQ(lines(json.err), lines(listed)) << json.err;

    EXPECT_NE(listed.find("operation lin_0 · aten::linear #1: forward_ms 2.000 ms -> 8.000 ms"),
              std::string::npos)
        << listed;
    // Limits above the increases (memory at most 4x, time 4x here): passed.
    const Result lenient = run("compare --max-memory-increase 400 --max-time-increase 400 " +
                               runOf("mlp256") + " " + runOf("mlp512"));
    EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
}

TEST_F(Compare, TheJsonOutputFollowsItsDocumentedSchema) {
    const Result json = run("compare --format json " + runOf("mlp256") + " " + runOf("mlp512"));
    ASSERT_EQ(json.exit_code, 1) << json.err;
    std::ofstream(work("comparison.json")) << json.out;
    // The figures are checked on any machine; the schema where Python has jsonschema (Debian's
    // python3-jsonschema, which tools/debian-packages.txt installs; a pip Python on a GPU
    // server may lack it), and the test says so where it was not.
    const std::string check =
        "import json, sys\n"
        "doc = json.load(open('comparison.json'))\n"
        "items = {(i['kind'], i['name']): i for i in doc['items']}\n"
        "w = {f['figure']: f for f in items[('parameter', 'lin_0.weight')]['figures']}\n"
        "assert w['weight_bytes']['base'] == 256 * 1024 * 4, w\n"
        "assert w['weight_bytes']['new'] == 512 * 2048 * 4, w\n"
        "assert doc['passed'] is False and doc['operations']['matched'] == 4\n"
        "try:\n"
        "    import jsonschema\n"
        "except ImportError:\n"
        "    print('no jsonschema')\n"
        "    sys.exit(0)\n"
        "jsonschema.validate(doc, json.load(open(sys.argv[1])))\n"
        "print('valid')\n";
    std::ofstream(work("check.py")) << check;
    const Result checked = shell(std::string(TRAINSCOPE_PYTHON) + " check.py " + COMPARISON_SCHEMA);
    ASSERT_EQ(checked.exit_code, 0) << checked.err;
    if (checked.out.find("no jsonschema") != std::string::npos) {
        GTEST_SKIP() << "the figures are right; the schema was not checked: " << TRAINSCOPE_PYTHON
                     << " has no jsonschema module";
    }
    EXPECT_EQ(checked.out, "valid\n");
}

TEST_F(Compare, MarkdownIsAMergeRequestComment) {
    const Result md =
        run("compare --format markdown --top 3 " + runOf("mlp256") + " " + runOf("mlp512"));
    EXPECT_EQ(md.exit_code, 1);
    EXPECT_EQ(md.out.rfind("### TrainScope: ", 0), 0u) << md.out;
    EXPECT_NE(md.out.find("| operation | figure | base | new | Δ | Δ% |"), std::string::npos)
        << md.out;
    EXPECT_NE(md.out.find("(the 3 largest changes of 4)"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("lin\\_0.weight"), std::string::npos) << md.out;  // escaped for markdown
}

TEST_F(Compare, RunsThatCannotBeComparedExitWithTwoAndOneLine) {
    const auto refused = [&](const std::string& args, const std::string& needle) {
        const Result r = run("compare " + args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    };
    refused(runOf("mlp256") + " " + runOf("nothing"), "no such report");
    std::ofstream(work("notes.sqlite")) << "not a database";
    refused(runOf("mlp256") + " notes.sqlite", "notes.sqlite");
    refused(runOf("mlp256"), "compare takes two runs");
    refused("--format yaml a b", "--format must be text, json or markdown");
    refused("--max-time-increase -5 a b", "--max-time-increase expects a percentage");
    // Runs of two different built-in models.
    const Result resnet =
        run("time -q --model builtin:resnet --param depth=10 --param width=4 --param image_size=8 "
            "--input 1x3x8x8 --warmup 0 --iterations 1 -o resnet.time.sqlite");
    ASSERT_EQ(resnet.exit_code, 0) << resnet.err;
    refused(runOf("mlp256") + " resnet.time.sqlite", "different models");
    EXPECT_EQ(workFiles(), (std::vector<std::string>{"notes.sqlite", "resnet.time.sqlite"}));
}

}  // namespace
