// SPDX-License-Identifier: Apache-2.0
// Stack frames of a TorchScript archive scripted from the toy project (fixtures/toyproject):
// relative paths under the project root, the line of each call, most specific first.
#include <gtest/gtest.h>

#include <filesystem>

#include "analysis/frames_note.h"
#include "support/report_reader.h"
#include "support/toynet.h"
#include "trainscope/profiler.h"

namespace fs = std::filesystem;
using namespace trainscope;

namespace {

const std::string kProject = TOYNET_PROJECT;

StackFrame at(const std::string& file, const std::string& tag) {
    return {file, test::taggedLine(kProject + "/" + file, tag)};
}

RunConfig toynetWithRoot(const std::string& root) {
    return test::toynetConfig(root, 1);
}

// The frames under the project root; library frames (torch's own files) are checked apart.
StackTrace projectFrames(const StackTrace& frames) {
    StackTrace project;
    for (const StackFrame& frame : frames) {
        if (!frame.isLibrary()) {
            project.push_back(frame);
        }
    }
    return project;
}

void expectToyNetFrames(const TimeReport& report) {
    ASSERT_EQ(report.entries.size(), 15u);
    // block1's first linear: Projection.forward <- Block.forward <- ToyNet.forward.
    EXPECT_EQ(
        projectFrames(report.entries[0].frames),
        (StackTrace{at("toynet/layers.py", "projection-linear"), at("toynet/blocks.py", "block-up"),
                    at("toynet/model.py", "model-block1")}));
    // An inlined free function keeps its own frame.
    EXPECT_EQ(report.entries[6].frames, (StackTrace{at("toynet/layers.py", "gelu"),
                                                    at("toynet/blocks.py", "block-activation"),
                                                    at("toynet/model.py", "model-block2")}));
    EXPECT_EQ(report.entries[10].frames, (StackTrace{at("toynet/model.py", "no-backward")}));
    // The head's nn.Linear lives in torch's own files, outside the root: only our line is a
    // project frame.
    EXPECT_EQ(projectFrames(report.entries[12].frames),
              (StackTrace{at("toynet/model.py", "head")}));
    // F.relu is a scripted function of torch: the user's call site stays, and so does the
    // caller of the user's helper.
    EXPECT_EQ(report.entries[13].operation_name, "aten::relu");
    EXPECT_EQ(
        projectFrames(report.entries[13].frames),
        (StackTrace{at("toynet/layers.py", "functional-relu"), at("toynet/model.py", "head")}));
    EXPECT_TRUE(report.entries[14].frames.empty()) << "the loss is TrainScope's, not the user's";
    for (const RunTimeEntry& entry : report.entries) {
        for (const StackFrame& frame : entry.frames) {
            EXPECT_FALSE(fs::path(frame.file_path.str()).is_absolute()) << frame.file_path;
            EXPECT_EQ(frame.file_path.find(".."), std::string::npos) << frame.file_path;
            const std::string root = frame.isLibrary() ? frame.library_root.str() : kProject;
            EXPECT_TRUE(fs::exists(root + "/" + frame.file_path)) << frame.file_path;
        }
    }
}

}  // namespace

TEST(StackFrames, TimeReportFramesPointAtTheCallLines) {
    expectToyNetFrames(Profiler(toynetWithRoot(kProject)).measureTime());
}

TEST(StackFrames, AProjectMovedElsewhereIsMatchedThroughItsRoot) {
    const std::string moved = test::makeTempDir();
    fs::copy(kProject, moved, fs::copy_options::recursive);
    const TimeReport report = Profiler(toynetWithRoot(moved)).measureTime();
    fs::remove_all(moved);
    expectToyNetFrames(report);
}

TEST(StackFrames, CodeOutsideTheRootBecomesLibraryFramesAndTheReportSaysWhy) {
    const std::string elsewhere = test::makeTempDir();  // a root that holds none of the files
    const TimeReport report = Profiler(toynetWithRoot(elsewhere)).measureTime();
    fs::remove_all(elsewhere);
    for (const RunTimeEntry& entry : report.entries) {
        for (const StackFrame& frame : entry.frames) {
            EXPECT_TRUE(frame.isLibrary()) << entry.operation_name << " has " << frame.file_path;
        }
    }
    // The toy project has no __init__.py above toynet/, so toynet is a top-level package,
    // shown relative to the folder that holds it, like torch's files.
    EXPECT_EQ(
        report.entries[6].frames.front(),
        StackFrame("toynet/layers.py", test::taggedLine(kProject + "/toynet/layers.py", "gelu"),
                   fs::weakly_canonical(kProject).string()));
    EXPECT_NE(report.metadata.at("frames_note").find("no frame lies under the project root"),
              std::string::npos);
}

// A trace recorded elsewhere (an imported torch.profiler trace) names no project root: the note
// says no frame is the model's, rather than naming an empty root, and adds no root of its own.
TEST(StackFrames, ANoteWithoutAProjectRootNamesNone) {
    const StackTrace trace = {StackFrame("torch/nn/modules/linear.py", 116, "/usr/lib/python3")};
    RunMetadata metadata;
    noteMissingProjectFrames(metadata, {&trace});
    EXPECT_EQ(metadata.at("frames_note"),
              "no frame is the model's own code: the model's code is elsewhere (library frames "
              "such as torch/nn/modules/linear.py); pass --project-root with the folder of the "
              "model's code");
    EXPECT_EQ(metadata.size(), 1u);
}

TEST(StackFrames, TorchFilesAreLibraryFramesRelativeToTheirPackagesFolder) {
    const TimeReport report = Profiler(toynetWithRoot(kProject)).measureTime();
    ASSERT_FALSE(report.entries[12].frames.empty());
    const StackFrame& linear = report.entries[12].frames.front();
    EXPECT_TRUE(linear.isLibrary());
    EXPECT_EQ(linear.file_path, "torch/nn/modules/linear.py");
    EXPECT_TRUE(fs::is_regular_file(linear.library_root + "/" + linear.file_path));
    const StackFrame& relu = report.entries[13].frames.front();
    EXPECT_EQ(relu.file_path, "torch/nn/functional.py");
    EXPECT_EQ(report.metadata.count("frames_note"), 0u) << "the report has project frames";
}

TEST(StackFrames, AFramesRootPlacesLibraryFilesRelativeToIt) {
    RunConfig config = toynetWithRoot(test::makeTempDir());
    config.frames_roots = {kProject + "/toynet"};
    const TimeReport report = Profiler(config).measureTime();
    fs::remove_all(config.project_root);
    EXPECT_EQ(report.entries[6].frames.front().file_path, "layers.py");
    EXPECT_EQ(report.entries[6].frames.front().library_root,
              fs::weakly_canonical(kProject + "/toynet").string());
}

TEST(StackFrames, MemoryReportFramesForActivationsAndWeights) {
    const MemoryReport report = Profiler(toynetWithRoot(kProject)).measureMemory();
    ASSERT_FALSE(report.activations.empty());
    EXPECT_EQ(report.activations[0].operation_name, "aten::linear");
    EXPECT_EQ(projectFrames(report.activations[0].frames).front(),
              at("toynet/layers.py", "projection-linear"));
    // A weight's frames are those of the first operation that reads it.
    for (const WeightEntry& weight : report.weights) {
        if (weight.name == "block2.down.linear.weight") {
            EXPECT_EQ(projectFrames(weight.frames),
                      (StackTrace{at("toynet/layers.py", "projection-linear"),
                                  at("toynet/blocks.py", "block-down"),
                                  at("toynet/model.py", "model-block2")}));
        }
        if (weight.name == "head.weight") {
            EXPECT_EQ(projectFrames(weight.frames), (StackTrace{at("toynet/model.py", "head")}));
        }
    }
}

TEST(StackFrames, BuiltinFramesPointIntoItsSourceFile) {
    RunConfig config;
    config.model = "builtin:mlp";
    config.params = {{"d_model", "32"}};
    config.inputs = {parseInputSpec("2x8x32")};
    config.iterations = 1;
    const TimeReport report = Profiler(config).measureTime();
    ASSERT_EQ(report.entries.size(), 4u);
    ASSERT_EQ(report.entries[1].frames.size(), 1u);
    EXPECT_EQ(report.entries[1].frames[0].file_path, "mlp.py");
    EXPECT_TRUE(fs::exists(std::string(TRAINSCOPE_MODELS_SOURCE) + "/mlp.py"));
    EXPECT_EQ(report.entries[0].frames.size(), 2u);  // Linear.forward <- MLP.forward
    EXPECT_EQ(report.metadata.at("project_root"),
              fs::weakly_canonical(TRAINSCOPE_MODELS_SOURCE).string());
}
