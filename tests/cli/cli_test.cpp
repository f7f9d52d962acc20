// SPDX-License-Identifier: Apache-2.0
// trainscope-cli as a user runs it: real processes, real files.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli_fixture.h"
#include "support/report_reader.h"
#include "trainscope/run_config.h"

namespace fs = std::filesystem;
using trainscope::test::Cli;
using trainscope::test::ReportReader;
using trainscope::test::Result;
using trainscope::test::slurp;

namespace {

const std::string kSmallMlp = "--model builtin:mlp --param d_model=32 --input 2x8x32 -q";

}  // namespace

TEST_F(Cli, ProfileWritesAllThreeReportsAndASummary) {
    const Result result = run("profile " + kSmallMlp + " -o run");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(workFiles(), (std::vector<std::string>{"run.memory.sqlite", "run.time.sqlite",
                                                     "run.timeline.sqlite"}));
    EXPECT_NE(result.out.find("Peak memory"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("allocated at that instant"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("lin_0"), std::string::npos) << "no module path: " << result.out;
    EXPECT_NE(result.out.find("aten::linear"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("mlp.py:"), std::string::npos) << result.out;
    EXPECT_EQ(ReportReader(work("run.time.sqlite")).scalar("SELECT COUNT(*) FROM run_time_entries"),
              "4");
    EXPECT_EQ(ReportReader(work("run.memory.sqlite")).scalar("SELECT COUNT(*) FROM weight_entries"),
              "4");
}

TEST_F(Cli, TimelineWritesOnlyTheTimeline) {
    const Result result = run("timeline " + kSmallMlp + " -o t.sqlite");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(workFiles(), std::vector<std::string>{"t.sqlite"});
    EXPECT_NE(ReportReader(work("t.sqlite")).scalar("SELECT COUNT(*) FROM PYTORCH_API"), "0");
    EXPECT_NE(result.out.find("Timeline"), std::string::npos) << result.out;
}

TEST_F(Cli, ProgressGoesToStderr) {
    const Result result =
        run("time --model builtin:mlp --param d_model=32 --input 2x8x32 "
            "--warmup 1 --iterations 2 -o t.sqlite");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("[time: measuring] iteration 2/2"), std::string::npos) << result.err;
}

TEST_F(Cli, ModelsVersionAndHelp) {
    EXPECT_NE(run("models").out.find("builtin:mlp"), std::string::npos);
    EXPECT_NE(run("--version").out.find("trainscope-cli"), std::string::npos);
    EXPECT_NE(run("--help").out.find("Usage:"), std::string::npos);
    // Every command's --help is the help, also of the commands that read files.
    for (const std::string command :
         {"profile", "memory", "show", "export", "compare", "sweep", "models"}) {
        const Result help = run(command + " --help");
        EXPECT_EQ(help.exit_code, 0) << command << ": " << help.err;
        EXPECT_NE(help.out.find("Usage:"), std::string::npos) << command;
    }
}

TEST_F(Cli, MissingModelFile) {
    expectCleanFailure("memory --model missing.pt --input 4x32 -o a.sqlite", "not found");
}

TEST_F(Cli, TextFileNamedPt) {
    std::ofstream(work("text.pt")) << "not a model\n";
    expectCleanFailure("memory --model text.pt --input 4x32 -q -o a.sqlite",
                       "not a loadable TorchScript archive", {"text.pt"});
}

TEST_F(Cli, WrongInputShape) {
    expectCleanFailure(std::string("profile --model ") + TOYNET_ARCHIVE + " --input 4x31 -q -o run",
                       "shapes cannot be multiplied");
}

TEST_F(Cli, UnknownBuiltinAndParameter) {
    expectCleanFailure("memory --model builtin:nope -o a.sqlite", "unknown built-in model");
    expectCleanFailure("memory --model builtin:mlp --param width=3 -o a.sqlite",
                       "unknown parameter 'width'");
    expectCleanFailure("memory --model builtin:mlp --param act=sigmoid -o a.sqlite",
                       "must be one of relu, gelu, tanh");
}

TEST_F(Cli, ExistingOutputWithoutForce) {
    std::ofstream(work("a.sqlite")) << "precious";
    expectCleanFailure("memory " + kSmallMlp + " -o a.sqlite", "already exists", {"a.sqlite"});
    EXPECT_EQ(slurp(work("a.sqlite")), "precious");
    // --force replaces a report, never another file.
    expectCleanFailure("memory " + kSmallMlp + " -o a.sqlite --force", "is not a report",
                       {"a.sqlite"});
    EXPECT_EQ(slurp(work("a.sqlite")), "precious");
    ASSERT_EQ(run("memory " + kSmallMlp + " -o b.sqlite").exit_code, 0);
    ASSERT_EQ(run("memory " + kSmallMlp + " -o b.sqlite --force").exit_code, 0);
    EXPECT_EQ(ReportReader(work("b.sqlite")).scalar("SELECT COUNT(*) FROM weight_entries"), "4");
}

TEST_F(Cli, UnwritableOutputFolder) {
    expectCleanFailure("memory " + kSmallMlp + " -o no/such/folder/a.sqlite", "does not exist");
    if (geteuid() == 0) {
        // Root writes anywhere permissions allow nothing; /proc refuses new files even to root.
        const Result result = run("memory " + kSmallMlp + " -o /proc/trainscope-test.sqlite");
        EXPECT_NE(result.exit_code, 0);
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_NE(result.err.find("cannot write '/proc/trainscope-test.sqlite'"), std::string::npos)
            << result.err;
    } else {
        fs::create_directory(work("locked"));
        fs::permissions(work("locked"), fs::perms::owner_read | fs::perms::owner_exec);
        expectCleanFailure("memory " + kSmallMlp + " -o locked/a.sqlite", "not writable",
                           {"locked"});
        EXPECT_TRUE(fs::is_empty(work("locked")));
    }
}

TEST_F(Cli, UsageErrors) {
    expectCleanFailure("memory -o a.sqlite", "--model is required");
    expectCleanFailure("frobnicate", "unknown command");
    expectCleanFailure("memory --model builtin:mlp --input 2x-3 -o a.sqlite", "input shape");
    if (!trainscope::cudaAvailable()) {  // where a GPU is, --device cuda runs
                                         // (tests/core/cuda_test.cpp)
        expectCleanFailure("memory --model builtin:mlp --device cuda -o a.sqlite", "--device cuda");
    }
}

TEST_F(Cli, IntegersThatWouldWrapAreRefused) {
    expectCleanFailure("memory " + kSmallMlp + " --iterations 4294967297 -o a.sqlite",
                       "--iterations expects an integer from 1 to");
    expectCleanFailure("memory " + kSmallMlp + " --warmup 4294967296 -o a.sqlite",
                       "--warmup expects an integer from 0 to");
    expectCleanFailure("memory " + kSmallMlp + " --seed 99999999999999999999 -o a.sqlite",
                       "--seed expects an integer");
    expectCleanFailure("memory --model builtin:mlp --param d_model=4294967297 -o a.sqlite",
                       "at most 2147483647");
}

TEST_F(Cli, InputsThatCannotBeMadeAreOneLineErrors) {
    // 1e10 x 8 x 32 float32 elements: about 10 TB, more than any machine here has. Refused
    // before allocating: a kernel that overcommits would hand the 10 TB out, and filling them
    // took the test past its time on a 128 GB machine.
    expectCleanFailure("memory " + kSmallMlp + " --batch-size 10000000000 -o a.sqlite",
                       "input 1 (10000000000x8x32) does not fit in memory: it needs "
                       "10240000000000 bytes, and the machine has ");
    expectCleanFailure("memory " + kSmallMlp + " --batch-size 9223372036854775807 -o a.sqlite",
                       "overflows 64 bits");
}

TEST_F(Cli, ParameterCombinationsAreCheckedBeforeRunning) {
    expectCleanFailure(
        "memory --model builtin:transformer --param d_model=128 --param n_heads=3 "
        "-o a.sqlite",
        "must be a multiple of 'n_heads'");
}

TEST_F(Cli, IntegerBuffersKeepTheirTypeWhenTheModelIsCast) {
    // swin-style: an int64 index buffer used for indexing, and BatchNorm's num_batches_tracked.
    const Result result = run(std::string("memory --model ") + INDEXED_ARCHIVE +
                              " --input 4x16 --dtype bfloat16 -q -o a.sqlite");
    EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST_F(Cli, AnOutputThatIsNotARegularFileIsRefusedEvenWithForce) {
    ASSERT_EQ(mkfifo(work("pipe").c_str(), 0600), 0);
    expectCleanFailure("memory " + kSmallMlp + " --force -o pipe", "not a regular file", {"pipe"});
    EXPECT_TRUE(fs::is_fifo(work("pipe")));
}

namespace {

// tools/trainscope-export on a Skyline-style project the tests copy into a fresh folder:
// export, profile with the printed command, and frames that name the project's files.
class Export : public Cli {
  protected:
    void SetUp() override {
        Cli::SetUp();
        fs::copy(SKYLINE_PROJECT, fs::path(dir_) / "work", fs::copy_options::recursive);
    }
    Result exportEntry(const std::string& entry) {
        return shell(std::string(TRAINSCOPE_PYTHON) + " " + TRAINSCOPE_EXPORT + " " + entry +
                     " --output-dir exported --cli " + TRAINSCOPE_CLI);
    }
    std::string project(const std::string& file) const {
        return (fs::path(dir_) / "work" / file).string();
    }
};

TEST_F(Export, AnEntryPointBecomesAProfileWhoseFramesNameTheProject) {
    const Result exported = exportEntry("entry_point.py");
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    EXPECT_NE(exported.out.find("(scripted)"), std::string::npos) << exported.out;
    // The printed command, as the user would paste it.
    const std::string last_line =
        exported.out.substr(exported.out.rfind('\n', exported.out.size() - 2) + 1);
    ASSERT_NE(last_line.find("--inputs exported/inputs.pt"), std::string::npos) << last_line;
    ASSERT_NE(last_line.find("--project-root"), std::string::npos) << last_line;
    const Result profiled = shell(last_line);
    ASSERT_EQ(profiled.exit_code, 0) << profiled.err;

    ReportReader time(project("exported/profile.time.sqlite"));
    const int inner = trainscope::test::taggedLine(project("textclf/layers.py"), "mixer-inner");
    const int call = trainscope::test::taggedLine(project("textclf/model.py"), "mixer-call");
    // Each entry's project frames, its first one (the most specific) marked "1".
    const auto frames = time.rows(
        "SELECT e.operation_name, f.ordering = (SELECT MIN(ordering) FROM stack_frames "
        "WHERE entry_id = e.id), f.file_path, f.line_number FROM run_time_entries e "
        "JOIN stack_frames f ON f.entry_id = e.id ORDER BY e.id, f.ordering");
    bool found = false;
    for (size_t i = 0; i + 1 < frames.size(); ++i) {
        if (frames[i][0] == "aten::linear" && frames[i][1] == "1" &&
            frames[i][2] == "textclf/layers.py" && frames[i][3] == std::to_string(inner)) {
            EXPECT_EQ(frames[i + 1][2], "textclf/model.py");
            EXPECT_EQ(frames[i + 1][3], std::to_string(call));
            found = true;
        }
    }
    EXPECT_TRUE(found) << "no aten::linear at textclf/layers.py:" << inner;
    for (const auto& row : frames) {
        EXPECT_EQ(row[2].rfind("textclf/", 0), 0u) << row[2];  // project files only, relative
    }
    ReportReader memory(project("exported/profile.memory.sqlite"));
    EXPECT_EQ(memory.scalar("SELECT COUNT(*) FROM weight_entries"), "7");

    // Without --project-root, the root that the export recorded beside model.pt applies.
    const Result plain =
        run("time --model exported/model.pt --inputs exported/inputs.pt -q "
            "-o plain.sqlite");
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_EQ(plain.out.find("No project frames"), std::string::npos) << plain.out;
    EXPECT_NE(
        ReportReader(project("plain.sqlite"))
            .scalar("SELECT COUNT(*) FROM stack_frames WHERE file_path = 'textclf/layers.py'"),
        "0");
}

TEST_F(Export, EachFailureHasAClearMessage) {
    std::ofstream(project("no_providers.py")) << "import torch\n\ndef helper():\n    pass\n";
    std::ofstream(project("raises.py"))
        << "from entry_point import skyline_model_provider as deepview_model_provider\n"
           "def deepview_input_provider(batch_size=2):\n"
           "    raise RuntimeError('the dataset is not downloaded')\n";
    std::ofstream(project("unexportable.py"))
        << "import torch\n"
           "class Odd(torch.nn.Module):\n"
           "    def __init__(self):\n"
           "        super().__init__()\n"
           "        self.lin = torch.nn.Linear(4, 4)\n"
           "    def forward(self, x):\n"
           "        double = lambda t: t * 2\n"
           "        return {'logits': double(self.lin(x)), 'note': 'not a tensor'}\n"
           "def model_provider():\n"
           "    return Odd()\n"
           "def input_provider(batch_size=2):\n"
           "    return torch.randn(batch_size, 4)\n";

    Result result = exportEntry("no_providers.py");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("defines no providers"), std::string::npos) << result.err;

    result = exportEntry("raises.py");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("deepview_input_provider raised RuntimeError: the dataset is not "
                              "downloaded"),
              std::string::npos)
        << result.err;

    result = exportEntry("unexportable.py");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("neither scripted nor traced"), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(project("exported/model.pt")));

    result = exportEntry("missing.py");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("entry point not found"), std::string::npos) << result.err;
}

TEST_F(Export, InputsFilesAreCheckedByTheCli) {
    ASSERT_EQ(exportEntry("entry_point.py").exit_code, 0);
    Result result =
        run("profile --model exported/model.pt --inputs exported/inputs.pt "
            "--batch-size 8 -o p");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("--batch-size cannot change"), std::string::npos) << result.err;
    result = run("profile --model exported/model.pt --inputs exported/model.pt -o p");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("holds no inputs"), std::string::npos) << result.err;
    result = run("profile --model exported/model.pt --inputs nowhere.pt -o p");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("inputs file not found"), std::string::npos) << result.err;
}

}  // namespace
