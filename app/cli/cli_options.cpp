// SPDX-License-Identifier: Apache-2.0
#include "cli/cli_options.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>

#include "trainscope/error.h"
#include "trainscope/run_config.h"

namespace trainscope::cli {
namespace {

// An integer in [minimum, maximum]. from_chars reports overflow, so "4294967297" is refused
// rather than wrapped.
template <typename Integer>
Integer parseInteger(const std::string& option, const std::string& text, Integer minimum,
                     Integer maximum) {
    Integer value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || value < minimum || value > maximum) {
        throw Error(option + " expects an integer from " + std::to_string(minimum) + " to " +
                    std::to_string(maximum) + ", not '" + text + "'");
    }
    return value;
}

// A percentage limit: a finite number, 0 or more.
double parsePercent(const std::string& option, const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) || value < 0) {
        throw Error(option + " expects a percentage of 0 or more, not '" + text + "'");
    }
    return value;
}

const std::map<std::string, Command> kCommands = {
    {"memory", Command::Memory},   {"time", Command::Time},        {"timeline", Command::Timeline},
    {"profile", Command::Profile}, {"show", Command::Show},        {"export", Command::Export},
    {"import", Command::Import},   {"compare", Command::Compare},  {"sweep", Command::Sweep},
    {"models", Command::Models},   {"help", Command::Help},        {"--help", Command::Help},
    {"-h", Command::Help},         {"--version", Command::Version}};

}  // namespace

std::string usage() {
    return R"(Usage:
  trainscope-cli memory   --model MODEL [options] -o FILE    write a memory report
  trainscope-cli time     --model MODEL [options] -o FILE    write a run time report
  trainscope-cli timeline --model MODEL [options] -o FILE    write a timeline report
  trainscope-cli profile  --model MODEL [options] -o PREFIX  write all three:
                               PREFIX.memory.sqlite, PREFIX.time.sqlite, PREFIX.timeline.sqlite
  trainscope-cli show FILE...                                print the summary of reports:
                               memory, run time or timeline reports (ours, Skyline's,
                               DeepView's), torch_npu's ascend_pytorch_profiler_*.db,
                               torch.profiler traces and CUDA memory snapshots
  trainscope-cli import FILE -o PREFIX                       write the reports of a
                               torch.profiler trace (.json, .json.gz) or a CUDA memory
                               snapshot (.pickle): PREFIX.memory.sqlite, PREFIX.time.sqlite,
                               PREFIX.timeline.sqlite (those the file has data for)
  trainscope-cli import TRACE... -o PREFIX                   a job's ranks: each rank's trace
                               (or a FOLDER of them, as tensorboard_trace_handler writes them)
                               as PREFIX.rankR.*, R its rank; then the ranks side by side
  trainscope-cli export --chrome-trace OUT.json FILE         write a timeline as Chrome Trace
                               Event JSON (Perfetto, chrome://tracing)
  trainscope-cli sweep    --model MODEL [options] -o PREFIX  profile several batch sizes, fit
                               peak memory and iteration time, predict the largest batch
                               within a memory budget; writes PREFIX.sweep.sqlite
  trainscope-cli compare BASE NEW [options]                  compare two runs (each a run's
                               PREFIX or one report file); exit code 0: within the limits,
                               1: a limit exceeded (one line per item), 2: cannot compare
  trainscope-cli models                                      list the built-in models
  trainscope-cli --help | --version

Model and inputs:
  --model PATH|builtin:NAME    a TorchScript archive (torch.jit.script/trace, then .save)
                               or a built-in model (see `models`)
  --param KEY=VALUE            a built-in model parameter (repeatable)
  --input SHAPE[:DTYPE[:HIGH]] one forward argument, e.g. 2x4096x1024 or 4x128:int64:50257
                               (repeatable, in argument order; built-ins have defaults)
  --inputs FILE                the forward arguments saved by tools/trainscope-export
  --batch-size N               override the first dimension of every input
  --dtype float32|bfloat16|float16   parameters and floating inputs (default float32)
  --device cpu|cuda            (default cpu)
Training iteration:
  --loss sum|mse|cross-entropy|model  (default: the model's; sum for archives)
  --optimizer none|sgd|adam    (default sgd)
  --warmup N                   warm-up iterations before measuring (default 2)
  --iterations N               measured iterations; times are medians (default 5)
  --seed N                     random seed for parameters and inputs (default 0)
Output:
  --project-root DIR           stack frames of files under DIR are the project's (default:
                               the root trainscope-export recorded, else the model file's
                               folder; for built-ins, their source folder)
  --frames-root DIR            show library frames under DIR relative to it (repeatable;
                               others are placed by their Python package)
  -o, --output FILE|PREFIX     where to write
  -f, --force                  replace existing output files
  -q, --quiet                  no progress on stderr
Sweep:
  --batch-sizes N,N,...        the batch sizes to measure (default: half, the same and twice
                               the configured batch, then doubling while the fitted peak of
                               the next stays within a quarter of the budget, up to 10 sizes
                               or about a minute)
  --memory-budget SIZE         e.g. 24GiB, 512MiB, 8GB (default: on CUDA the device's free
                               memory, on the CPU the available RAM)
  --verify                     also measure the predicted largest batch and report the error
Compare:
  --max-time-increase PCT      the largest time increase allowed, in percent of the base,
                               counted only beyond both runs' spread (default 25)
  --max-memory-increase PCT    the largest memory increase allowed, in percent (default 0:
                               memory is exact)
  --format text|json|markdown  json for tools (schema: docs/comparison.md), markdown for a
                               merge request's comment (default text)
  --top N                      list the N largest changes of the modules, operations and
                               parameters (0: all; default 10, JSON all); totals always
)";
}

CliOptions parseCommandLine(int argc, const char* const* argv) {
    CliOptions options;
    if (argc < 2) {
        throw Error(
            "no command given (memory, time, timeline, profile, sweep, show, export, import, "
            "compare, models); see --help");
    }
    auto command = kCommands.find(argv[1]);
    if (command == kCommands.end()) {
        throw Error(std::string("unknown command '") + argv[1] + "'; see --help");
    }
    options.command = command->second;
    RunConfig& config = options.config;

    using Handler = std::function<void(const std::string&)>;
    const std::map<std::string, Handler> with_value = {
        {"--model", [&](const std::string& v) { config.model = v; }},
        {"--param",
         [&](const std::string& v) {
             const size_t eq = v.find('=');
             if (eq == std::string::npos || eq == 0) {
                 throw Error("--param expects KEY=VALUE, not '" + v + "'");
             }
             config.params[v.substr(0, eq)] = v.substr(eq + 1);
         }},
        {"--input", [&](const std::string& v) { config.inputs.push_back(parseInputSpec(v)); }},
        {"--inputs", [&](const std::string& v) { config.inputs_file = v; }},
        {"--batch-size",
         [&](const std::string& v) {
             config.batch_size = parseInteger<int64_t>("--batch-size", v, 1, INT64_MAX);
         }},
        {"--dtype",
         [&](const std::string& v) {
             config.dtype = parseDType(v);
             if (config.dtype != DType::Float32 && config.dtype != DType::BFloat16 &&
                 config.dtype != DType::Float16) {
                 throw Error("--dtype must be float32, bfloat16 or float16");
             }
         }},
        {"--device", [&](const std::string& v) { config.device = parseDevice(v); }},
        {"--loss", [&](const std::string& v) { config.loss = parseLoss(v); }},
        {"--optimizer", [&](const std::string& v) { config.optimizer = parseOptimizer(v); }},
        {"--warmup",
         [&](const std::string& v) {
             config.warmup = parseInteger<int>("--warmup", v, 0, kMaxWarmup);
         }},
        {"--iterations",
         [&](const std::string& v) {
             config.iterations = parseInteger<int>("--iterations", v, 1, kMaxIterations);
         }},
        {"--seed",
         [&](const std::string& v) {
             config.seed = parseInteger<uint64_t>("--seed", v, 0, UINT64_MAX);
         }},
        {"--project-root", [&](const std::string& v) { config.project_root = v; }},
        {"--frames-root", [&](const std::string& v) { config.frames_roots.push_back(v); }},
        {"--output", [&](const std::string& v) { options.output = v; }},
        {"-o", [&](const std::string& v) { options.output = v; }},
        {"--chrome-trace", [&](const std::string& v) { options.chrome_trace = v; }},
        {"--max-time-increase",
         [&](const std::string& v) {
             options.limits.max_time_increase_pct = parsePercent("--max-time-increase", v);
         }},
        {"--max-memory-increase",
         [&](const std::string& v) {
             options.limits.max_memory_increase_pct = parsePercent("--max-memory-increase", v);
         }},
        {"--format",
         [&](const std::string& v) {
             static const std::map<std::string, CompareFormat> formats = {
                 {"text", CompareFormat::Text},
                 {"json", CompareFormat::Json},
                 {"markdown", CompareFormat::Markdown}};
             const auto found = formats.find(v);
             if (found == formats.end()) {
                 throw Error("--format must be text, json or markdown, not '" + v + "'");
             }
             options.format = found->second;
         }},
        {"--batch-sizes", [&](const std::string& v) { options.batch_sizes = parseBatchSizes(v); }},
        {"--memory-budget",
         [&](const std::string& v) { options.memory_budget = parseByteSize(v); }},
        {"--top",
         [&](const std::string& v) { options.top = parseInteger<int>("--top", v, 0, INT32_MAX); }},
    };
    const bool reads = options.command == Command::Show || options.command == Command::Export ||
                       options.command == Command::Import || options.command == Command::Compare;

    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        std::string value;
        bool inline_value = false;
        if (const size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            inline_value = true;
        }
        if (arg == "-f" || arg == "--force") {
            options.force = true;
        } else if (arg == "--verify" && options.command == Command::Sweep) {
            options.verify = true;
        } else if (arg == "-q" || arg == "--quiet") {
            options.quiet = true;
        } else if (arg == "-h" || arg == "--help") {
            options.command = Command::Help;
        } else if (auto handler = with_value.find(arg); handler != with_value.end()) {
            if (!inline_value) {
                if (i + 1 >= argc) {
                    throw Error(arg + " needs a value");
                }
                value = argv[++i];
            }
            handler->second(value);
        } else if (reads && (arg.empty() || arg[0] != '-' || arg == "-")) {
            options.files.push_back(arg);
        } else {
            throw Error("unknown option '" + arg + "'; see --help");
        }
    }
    if (options.command == Command::Help) {
        return options;  // `show --help`: the help, whatever else the command would need
    }
    if (reads && options.files.empty()) {
        throw Error(options.command == Command::Show      ? "show expects one or more report files"
                    : options.command == Command::Compare ? "compare expects BASE and NEW"
                    : options.command == Command::Import
                        ? "import expects a torch.profiler trace or a memory snapshot"
                        : "export expects a timeline file");
    }
    if (options.command == Command::Compare && options.files.size() != 2) {
        throw Error("compare takes two runs, BASE and NEW (run prefixes or report files)");
    }
    if (options.command == Command::Export) {
        if (options.chrome_trace.empty()) {
            throw Error("export needs --chrome-trace OUT.json");
        }
        if (options.files.size() != 1) {
            throw Error("export takes one timeline file");
        }
    }

    if (options.command == Command::Import) {
        if (options.output.empty()) {
            throw Error("import needs -o PREFIX: where to write the reports");
        }
    }

    const bool runs = options.command == Command::Memory || options.command == Command::Time ||
                      options.command == Command::Timeline || options.command == Command::Profile ||
                      options.command == Command::Sweep;
    if (runs && config.model.empty()) {
        throw Error("--model is required (a TorchScript archive or builtin:NAME)");
    }
    if (runs && options.output.empty()) {
        throw Error("-o/--output is required");
    }
    // "-o out/" would write out/.memory.sqlite and its like: hidden files named by suffix alone.
    const std::string name = std::filesystem::path(options.output).filename().string();
    if ((runs || options.command == Command::Import) &&
        (name.empty() || name == "." || name == "..")) {
        throw Error("-o '" + options.output +
                    "' names a folder: give the reports' name too, as in " +
                    (options.output.back() == '/' ? options.output : options.output + "/") + "run");
    }
    return options;
}

std::optional<CliOptions> parseCommandLineOrSay(int argc, const char* const* argv) {
    try {
        return parseCommandLine(argc, argv);
    } catch (const Error& e) {
        std::cerr << "trainscope-cli: error: " << e.what() << std::endl;
        return std::nullopt;
    }
}

}  // namespace trainscope::cli
