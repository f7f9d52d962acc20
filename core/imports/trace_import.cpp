// SPDX-License-Identifier: Apache-2.0
#include "imports/trace_import.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/device_breakdown.h"
#include "analysis/memory_report.h"
#include "analysis/saturating.h"
#include "analysis/step_matching.h"
#include "analysis/time_report.h"
#include "imports/python_frames.h"
#include "records/memory_record.h"
#include "records/recorded_steps.h"
#include "trainscope/error.h"
#include "trainscope/import_notes.h"
#include "trainscope/memory_curve.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

constexpr std::string_view kBackwardNode = "autograd::engine::evaluate_function: ";
constexpr std::string_view kProfilerStep = "ProfilerStep#";
constexpr std::string_view kOptimizer = "Optimizer.";  // "Optimizer.step#AdamW.step"
constexpr std::string_view kOptimizerStep = "Optimizer.step";
constexpr std::string_view kAccumulateGrad = "torch::autograd::AccumulateGrad";

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

using Thread = std::pair<int64_t, int64_t>;  // (pid, tid)

struct Interval {
    int64_t start = 0, end = 0;
    int index = -1;
};

// The interval of a sorted list of disjoint ones that holds `time`, or nullptr.
const Interval* holding(const std::vector<Interval>& sorted, int64_t time) {
    auto it = std::upper_bound(sorted.begin(), sorted.end(), time,
                               [](int64_t t, const Interval& i) { return t < i.start; });
    if (it == sorted.begin()) {
        return nullptr;
    }
    --it;
    return time <= it->end ? &*it : nullptr;
}

// Intervals sorted and merged where they overlap (nested backward calls), as the memory curve
// merges spans.
std::vector<Interval> merged(const std::vector<Interval>& list) {
    std::vector<TimeSpan> spans;
    for (const Interval& i : list)
        spans.push_back({i.start, i.end});
    std::vector<Interval> out;
    for (const TimeSpan& span : mergedSpans(std::move(spans)))
        out.push_back({span.start_ns, span.end_ns, -1});
    return out;
}

bool byThreadAndNesting(const Thread& a_thread, int64_t a_start, int64_t a_end,
                        const Thread& b_thread, int64_t b_start, int64_t b_end) {
    if (a_thread != b_thread) {
        return a_thread < b_thread;
    }
    if (a_start != b_start) {
        return a_start < b_start;
    }
    return a_end > b_end;  // the enclosing one first
}

// Parents by nesting, for items sorted by byThreadAndNesting.
template <typename Item>
std::vector<int> parentsOf(const std::vector<Item>& items) {
    std::vector<int> parent(items.size(), -1);
    std::vector<int> open;
    for (size_t i = 0; i < items.size(); ++i) {
        const Item& item = items[i];
        while (!open.empty()) {
            const Item& top = items[open.back()];
            if (top.pid == item.pid && top.tid == item.tid && item.start_ns >= top.start_ns &&
                item.end_ns <= top.end_ns) {
                break;
            }
            open.pop_back();
        }
        parent[i] = open.empty() ? -1 : open.back();
        open.push_back(static_cast<int>(i));
    }
    return parent;
}

class TraceImporter {
  public:
    TraceImporter(TraceEvents events, std::string source)
        : events_(std::move(events)), source_(std::move(source)) {}

    ImportedRun run() {
        arrangeCalls();
        if (calls_.empty()) {
            throw Error(source_ +
                        " holds no operations: nothing ran while the profiler recorded (with a "
                        "schedule, call prof.step() after each step; record the CPU activity)");
        }
        arrangePythonCalls();
        linkDeviceWork();
        chooseForwardThread();
        findBackwardRegions();
        findSteps();
        linkBackward();
        chooseMemoryDevice();
        chooseMemoryStep();
        collectOperations();
        ImportedRun result;
        RunMetadata metadata = metadataOfTrace();
        std::vector<int> activation_kernels;
        std::vector<ActivationEntry> activations;
        if (!memory_.empty()) {
            MemoryRecord record = memoryRecord();
            GradientBlocks gradients = gradientBlocks(record);
            const std::map<std::string, int64_t> no_sampled_gradients;
            MemoryStepSources sources;
            sources.memory = &record;
            sources.gradient_blocks = &gradients;
            sources.gradient_bytes = &no_sampled_gradients;
            sources.metadata = metadata;
            sources.metadata[report_format::kMemoryNoteKey] = memoryNote();
            MemoryStepReport memory = assembleMemoryReport(steps_, sources);
            activations = memory.report.activations;
            activation_kernels = memory.activation_kernels;
            result.memory = std::move(memory.report);
        }
        result.time = assembleTimeReport(steps_, metadata, activation_kernels, activations);
        if (result.memory) {
            result.memory->activations = std::move(activations);
        }
        if (events_.python_calls.empty()) {
            // No frame at all: the trace was recorded without Python stacks (not a traced
            // model, which the engine's note supposes).
            const std::string why =
                "the trace holds no Python stacks (torch.profiler records them with "
                "with_stack=True; PyTorch 1.13's traces have none): no line of your code";
            for (RunMetadata* m : {result.time ? &result.time->metadata : nullptr,
                                   result.memory ? &result.memory->metadata : nullptr}) {
                if (m && m->count(report_format::kFramesNoteKey)) {
                    (*m)[report_format::kFramesNoteKey] = why;
                }
            }
        }
        result.timeline = timeline(metadata);
        return result;
    }

  private:
    const std::string& text(int32_t id) const { return events_.texts[id]; }
    int64_t epoch(int64_t trace_ns) const { return saturatedSum(events_.base_ns, trace_ns); }
    Thread threadOf(const TraceSpan& s) const { return {s.pid, s.tid}; }
    double ms(const TraceSpan& s) const { return static_cast<double>(s.end_ns - s.start_ns) / 1e6; }

    void arrangeCalls() {
        calls_.reserve(events_.spans.size());
        for (TraceSpan& span : events_.spans) {
            if (span.kind == TraceSpan::Kind::Kernel) {
                device_work_.push_back(span);
            } else if (span.kind == TraceSpan::Kind::Annotation &&
                       startsWith(text(span.name), kProfilerStep)) {
                profiler_steps_.push_back(span);
            } else {
                calls_.push_back(span);
            }
        }
        std::vector<TraceSpan>().swap(events_.spans);
        // Stable: calls of the same start and end (the legacy profiler's µs times) nest in the
        // order the trace lists them, which is the order they began.
        std::stable_sort(calls_.begin(), calls_.end(), [&](const TraceSpan& a, const TraceSpan& b) {
            return byThreadAndNesting(threadOf(a), a.start_ns, a.end_ns, threadOf(b), b.start_ns,
                                      b.end_ns);
        });
        parent_ = parentsOf(calls_);
        // An operation's entry: the call it is in that is not a record_function scope of the
        // user's (those hold operations; the optimizer's are entries of their own).
        entry_.assign(calls_.size(), -1);
        backward_.assign(calls_.size(), false);
        for (size_t i = 0; i < calls_.size(); ++i) {
            const int p = parent_[i];
            const bool is_node = startsWith(text(calls_[i].name), kBackwardNode);
            backward_[i] = is_node || (p >= 0 && backward_[p]);
            if (p >= 0 && entry_[p] >= 0) {
                entry_[i] = entry_[p];
            } else if (transparent(calls_[i])) {
                entry_[i] = -1;
            } else {
                entry_[i] = static_cast<int>(i);
            }
        }
    }

    // Each device task (kernel, copy, set) to its launch, by correlation (a kernel's `External
    // id` meant another thing before 2024), and to the operation that launched it: the innermost
    // cpu_op around the launch on the launch's thread, or the optimizer's scope. A call's device
    // time is that of the tasks it launched, at any depth.
    void linkDeviceWork() {
        std::sort(device_work_.begin(), device_work_.end(),
                  [](const TraceSpan& a, const TraceSpan& b) { return a.start_ns < b.start_ns; });
        std::unordered_map<int64_t, int> launch_of;
        for (size_t i = 0; i < calls_.size(); ++i)
            if (calls_[i].kind == TraceSpan::Kind::Runtime && calls_[i].correlation >= 0) {
                launch_of.emplace(calls_[i].correlation, static_cast<int>(i));
            }
        launch_of_task_.assign(device_work_.size(), -1);
        device_ns_.assign(calls_.size(), 0);
        for (size_t k = 0; k < device_work_.size(); ++k) {
            const TraceSpan& task = device_work_[k];
            const auto launch =
                task.correlation < 0 ? launch_of.end() : launch_of.find(task.correlation);
            if (launch == launch_of.end()) {
                ++tasks_without_launch_;
                continue;
            }
            launch_of_task_[k] = launch->second;
            const int op = launcherOf(launch->second);
            if (op < 0) {
                ++tasks_outside_operations_;
                continue;
            }
            device_ns_[op] += task.end_ns - task.start_ns;
        }
        // Inclusive: a call's children come after it (calls_ is in nesting order).
        for (size_t i = calls_.size(); i-- > 0;)
            if (parent_[i] >= 0) {
                device_ns_[parent_[i]] += device_ns_[i];
            }
        device_times_ = device_work_.size() > tasks_without_launch_ + tasks_outside_operations_;
    }

    // The operation that made launch `call`: its innermost enclosing cpu_op, or the optimizer's
    // scope; -1 for none (a launch of the user's record_function scope alone, or of no call).
    int launcherOf(int call) const {
        for (int p = parent_[call]; p >= 0; p = parent_[p]) {
            const TraceSpan& around = calls_[p];
            if (around.kind == TraceSpan::Kind::Operation ||
                (around.kind == TraceSpan::Kind::Annotation &&
                 startsWith(text(around.name), kOptimizer))) {
                return p;
            }
        }
        return -1;
    }
    double deviceMs(int call) const { return static_cast<double>(device_ns_[call]) / 1e6; }

    // Not an entry of its own: a record_function scope of the user's, which holds operations, and
    // a launch (cuda_runtime, cuda_driver) made outside any operation, which is no operation.
    bool transparent(const TraceSpan& call) const {
        return (call.kind == TraceSpan::Kind::Annotation &&
                !startsWith(text(call.name), kOptimizer)) ||
               call.kind == TraceSpan::Kind::Runtime;
    }
    bool isEntry(size_t i) const { return entry_[i] == static_cast<int>(i); }

    void arrangePythonCalls() {
        std::vector<TracePythonCall>& python = events_.python_calls;
        std::stable_sort(python.begin(), python.end(),
                         [](const TracePythonCall& a, const TracePythonCall& b) {
                             return byThreadAndNesting({a.pid, a.tid}, a.start_ns, a.end_ns,
                                                       {b.pid, b.tid}, b.start_ns, b.end_ns);
                         });
        python_parent_ = parentsOf(python);
        // Each call's innermost enclosing Python call: both lists are in thread and time order.
        python_of_.assign(calls_.size(), -1);
        std::vector<int> open;
        size_t next = 0;
        for (size_t i = 0; i < calls_.size(); ++i) {
            const TraceSpan& call = calls_[i];
            const Thread thread = threadOf(call);
            while (next < python.size() && (Thread{python[next].pid, python[next].tid} < thread ||
                                            (Thread{python[next].pid, python[next].tid} == thread &&
                                             python[next].start_ns <= call.start_ns))) {
                open.push_back(static_cast<int>(next++));
            }
            while (!open.empty()) {
                const TracePythonCall& p = python[open.back()];
                if (Thread{p.pid, p.tid} == thread && p.start_ns <= call.start_ns &&
                    call.end_ns <= p.end_ns) {
                    break;
                }
                open.pop_back();
            }
            python_of_[i] = open.empty() ? -1 : open.back();
        }
    }

    // The frames of the Python calls around call `python` (innermost first), kept once.
    int traceOf(int python) {
        if (python < 0) {
            return -1;
        }
        const auto known = trace_of_python_.find(python);
        if (known != trace_of_python_.end()) {
            return known->second;
        }
        StackTrace frames;
        for (int p = python; p >= 0; p = python_parent_[p]) {
            const std::optional<StackFrame> frame =
                pythonFrame(text(events_.python_calls[p].call_from));
            if (frame && (frames.empty() || !(frames.back() == *frame))) {
                frames.push_back(*frame);
            }
        }
        const int id = steps_.traces.add(std::move(frames));
        trace_of_python_[python] = id;
        return id;
    }

    // "SmallLM_0.Sequential_0.Block_0.Linear_0": the nn.Module calls around call `python`.
    const std::string& moduleOf(int python) {
        static const std::string kNone;
        if (python < 0) {
            return kNone;
        }
        const auto known = module_of_python_.find(python);
        if (known != module_of_python_.end()) {
            return known->second;
        }
        std::vector<std::string> names;
        for (int p = python; p >= 0; p = python_parent_[p]) {
            std::string name = traceModuleName(text(events_.python_calls[p].name));
            if (!name.empty()) {
                names.push_back(std::move(name));
            }
        }
        std::string path;
        for (auto it = names.rbegin(); it != names.rend(); ++it)
            path += (path.empty() ? "" : ".") + *it;
        return module_of_python_[python] = path;
    }

    void findSteps() {
        std::sort(profiler_steps_.begin(), profiler_steps_.end(),
                  [](const TraceSpan& a, const TraceSpan& b) { return a.start_ns < b.start_ns; });
        for (const TraceSpan& step : profiler_steps_) {
            const std::string& name = text(step.name);
            int64_t id = static_cast<int64_t>(steps_found_.size()) + 1;
            try {
                id = std::stoll(name.substr(kProfilerStep.size()));
            } catch (const std::exception&) {
            }
            steps_found_.push_back({id, step.start_ns, step.end_ns, false});
        }
        // PyTorch 1.13 numbers its first two marks alike (ProfilerStep#0 twice): steps whose
        // numbers do not rise are numbered in order from the first.
        for (size_t k = 1; k < steps_found_.size(); ++k)
            if (steps_found_[k].id <= steps_found_[k - 1].id) {
                for (size_t j = 1; j < steps_found_.size(); ++j)
                    steps_found_[j].id = steps_found_[0].id + static_cast<int64_t>(j);
                break;
            }
        if (steps_found_.empty()) {
            stepsByOptimizer();
        }
    }

    static std::string millisecondsText(int64_t ns) {
        char text[48];
        std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
        return text;
    }

    // A trace without ProfilerStep marks (torch.profiler records them only under a schedule)
    // may still hold several iterations: each ends with the optimizer's step, so the trace is
    // cut after each (what follows the last is in no step). With one optimizer step or none,
    // the whole trace is the step.
    void stepsByOptimizer() {
        int64_t first = calls_.front().start_ns, last = calls_.front().end_ns;
        for (const TraceSpan& call : calls_) {
            first = std::min(first, call.start_ns);
            last = std::max(last, call.end_ns);
        }
        std::vector<int64_t> ends;  // optimizer_ is in time order: all on the forward thread
        for (const Interval& o : optimizer_)
            if (startsWith(text(calls_[o.index].name), kOptimizerStep)) {
                ends.push_back(o.end);
            }
        if (ends.empty()) {
            steps_found_.push_back({1, first, last, false});
            steps_note_ =
                "the trace has no ProfilerStep marks and no optimizer step: its whole "
                "recording, " +
                millisecondsText(last - first) +
                ", is taken as one iteration (torch.profiler marks steps under a "
                "schedule)";
            return;
        }
        int64_t from = first;
        for (size_t k = 0; k < ends.size(); ++k) {
            steps_found_.push_back({static_cast<int64_t>(k) + 1, from, ends[k], false});
            from = ends[k] + 1;
        }
        steps_note_ = std::to_string(ends.size()) +
                      (ends.size() == 1 ? " iteration, up to the end of the optimizer's step"
                                        : " iterations told apart by the optimizer's steps") +
                      " (the trace has no ProfilerStep marks: torch.profiler records them under a "
                      "schedule)";
    }

    // The thread that ran the forward pass: the one whose operations start the forward-to-
    // backward flows, or else the one with the most operations.
    void chooseForwardThread() {
        for (const TraceFlow& flow : events_.flows)
            if (flow.start) {
                forward_thread_ = {flow.pid, flow.tid};
                return;
            }
        std::map<Thread, int64_t> entries;
        for (size_t i = 0; i < calls_.size(); ++i)
            if (isEntry(i) && !backward_[i]) {
                ++entries[threadOf(calls_[i])];
            }
        int64_t most = -1;
        for (const auto& [thread, count] : entries)
            if (count > most) {
                most = count;
                forward_thread_ = thread;
            }
    }

    // Where each backward pass ran: the Python calls of `backward()` where the trace has them,
    // else the runs of backward nodes on the forward thread.
    void findBackwardRegions() {
        std::vector<Interval> regions;
        for (const TracePythonCall& p : events_.python_calls) {
            const std::string& name = text(p.name);
            if (Thread{p.pid, p.tid} == forward_thread_ &&
                (startsWith(name, "torch/_tensor.py(") ||
                 startsWith(name, "torch/autograd/__init__.py(")) &&
                name.size() > 11 && name.compare(name.size() - 11, 11, "): backward") == 0) {
                regions.push_back({p.start_ns, p.end_ns, -1});
            }
        }
        if (regions.empty()) {
            bool open = false;
            for (size_t i = 0; i < calls_.size(); ++i) {
                if (!isEntry(i) || threadOf(calls_[i]) != forward_thread_) {
                    continue;
                }
                if (backward_[i]) {
                    if (open) {
                        regions.back().end = calls_[i].end_ns;
                    } else {
                        regions.push_back({calls_[i].start_ns, calls_[i].end_ns, -1});
                    }
                }
                open = backward_[i];
            }
        }
        backward_regions_ = merged(regions);
        for (size_t i = 0; i < calls_.size(); ++i) {
            if (threadOf(calls_[i]) == forward_thread_ && isEntry(i) &&
                startsWith(text(calls_[i].name), kOptimizer)) {
                optimizer_.push_back({calls_[i].start_ns, calls_[i].end_ns, static_cast<int>(i)});
            }
            if (text(calls_[i].name) == kAccumulateGrad) {
                accumulate_[threadOf(calls_[i])].push_back(
                    {calls_[i].start_ns, calls_[i].end_ns, static_cast<int>(i)});
            }
            if (isEntry(i)) {
                entries_of_thread_[threadOf(calls_[i])].push_back(
                    {calls_[i].start_ns, calls_[i].end_ns, static_cast<int>(i)});
            }
        }
    }

    // The call on `thread` that starts at `time`: the innermost (`innermost`) or the outermost.
    int callAt(const Thread& thread, int64_t time, bool innermost) const {
        auto it = std::lower_bound(calls_.begin(), calls_.end(), std::make_pair(thread, time),
                                   [&](const TraceSpan& s, const std::pair<Thread, int64_t>& key) {
                                       return std::make_pair(threadOf(s), s.start_ns) < key;
                                   });
        int found = -1;
        for (; it != calls_.end() && threadOf(*it) == thread && it->start_ns == time; ++it) {
            found = static_cast<int>(it - calls_.begin());
            if (!innermost) {
                break;
            }
        }
        return found;
    }

    // Each forward call's backward nodes through the fwdbwd flows (a flow starts at the
    // operation that recorded the sequence number and finishes at the backward node).
    void linkBackward() {
        std::unordered_map<int64_t, int> starts;
        std::vector<std::pair<int64_t, int>> finishes;
        for (const TraceFlow& flow : events_.flows) {
            const int call = callAt({flow.pid, flow.tid}, flow.time_ns, flow.start);
            if (call < 0) {
                continue;
            }
            if (flow.start) {
                starts[flow.id] = call;
            } else {
                finishes.push_back({flow.id, call});
            }
        }
        for (const auto& [id, node] : finishes) {
            const auto start = starts.find(id);
            if (start != starts.end() && backward_[node]) {
                links_.push_back({start->second, node});
            }
        }
        if (links_.empty()) {
            // Nodes that ran, with nothing to say whose: the reports' backward is not zero.
            int64_t nodes = 0;
            double node_ms = 0;
            for (size_t i = 0; i < calls_.size(); ++i)
                if (backward_[i] && (parent_[i] < 0 || !backward_[parent_[i]])) {
                    ++nodes;
                    node_ms += ms(calls_[i]);
                }
            if (nodes > 0) {
                char text[200];
                std::snprintf(text, sizeof text,
                              "the trace's %lld backward nodes (%.3f ms in all) are linked to no "
                              "operation: it has no fwdbwd flows (PyTorch 1.13's traces have "
                              "none)",
                              static_cast<long long>(nodes), node_ms);
                backward_note_ = text;
            }
        }
        // Each entry's backward time: its backward nodes', each counted once.
        std::set<std::pair<int, int>> counted;
        for (const auto& [forward, node] : links_) {
            const int entry = entry_[forward];
            if (entry >= 0 && counted.insert({entry, node}).second) {
                backward_ms_[entry] += ms(calls_[node]);
                backward_device_ms_[entry] += deviceMs(node);
            }
        }
    }

    void chooseMemoryDevice() {
        bool cuda = false;
        int64_t cuda_device = -1;
        for (const TraceMemoryEvent& m : events_.memory)
            if (m.device_type == 1 && !cuda) {
                cuda = true;
                cuda_device = m.device_id;
            }
        device_type_ = cuda ? 1 : 0;
        device_id_ = cuda_device;
        for (const TraceMemoryEvent& m : events_.memory) {
            if (m.device_type == device_type_ && (!cuda || m.device_id == device_id_)) {
                memory_.push_back(m);
            } else {
                ++memory_elsewhere_;
            }
        }
        std::vector<TraceMemoryEvent>().swap(events_.memory);
        std::stable_sort(memory_.begin(), memory_.end(),
                         [](const TraceMemoryEvent& a, const TraceMemoryEvent& b) {
                             return a.time_ns < b.time_ns;
                         });
        refuseRepeatedMemoryEvents();
    }

    // One address is not allocated (or freed) twice at one instant with the same total: such a
    // pair is one event written twice, whose replay would count its block twice and make the
    // peak's parts exceed the peak.
    void refuseRepeatedMemoryEvents() const {
        using Key = std::tuple<uint64_t, int64_t, int64_t, int64_t, int64_t>;
        std::vector<Key> at_once;
        for (size_t i = 0; i < memory_.size();) {
            size_t end = i;
            at_once.clear();
            for (; end < memory_.size() && memory_[end].time_ns == memory_[i].time_ns; ++end)
                at_once.emplace_back(memory_[end].address, memory_[end].bytes,
                                     memory_[end].total_allocated, memory_[end].pid,
                                     memory_[end].tid);
            std::sort(at_once.begin(), at_once.end());
            if (std::adjacent_find(at_once.begin(), at_once.end()) != at_once.end()) {
                throw Error(source_ +
                            " is a damaged trace: a memory event is written twice (one time, "
                            "address, size and total), and its block would count twice");
            }
            i = end;
        }
    }

    // The step of the peak (of the first, without memory events): the one whose operations
    // the reports list, and whose activations they count.
    void chooseMemoryStep() {
        peak_event_ = -1;
        for (size_t i = 0; i < memory_.size(); ++i)
            if (peak_event_ < 0 ||
                memory_[i].total_allocated > memory_[peak_event_].total_allocated) {
                peak_event_ = static_cast<int64_t>(i);
            }
        memory_step_ = 0;
        if (peak_event_ >= 0) {
            const int64_t t = memory_[peak_event_].time_ns;
            for (size_t k = 0; k < steps_found_.size(); ++k)
                if (t >= steps_found_[k].start_ns && t <= steps_found_[k].end_ns) {
                    memory_step_ = k;
                }
        }
    }

    std::vector<OperationRecord> operationsOf(size_t step, std::vector<int>* calls) {
        const TimelineStep& s = steps_found_[step];
        std::vector<OperationRecord> records;
        const int64_t backward_end = lastBackwardEnd(s);
        const auto it = entries_of_thread_.find(forward_thread_);
        if (it == entries_of_thread_.end()) {
            return records;
        }
        const std::vector<Interval>& entries = it->second;
        auto first = std::lower_bound(entries.begin(), entries.end(), s.start_ns,
                                      [](const Interval& i, int64_t t) { return i.start < t; });
        for (auto entry = first; entry != entries.end() && entry->start <= s.end_ns; ++entry) {
            const TraceSpan& call = calls_[entry->index];
            if (backward_[entry->index]) {
                continue;
            }
            OperationRecord record;
            record.name = text(call.name);
            record.forward_ms = ms(call);
            const auto b = backward_ms_.find(entry->index);
            record.has_backward = b != backward_ms_.end();
            record.backward_ms = record.has_backward ? b->second : 0.0;
            if (device_times_) {  // the device's times, the CPU's beside them
                record.cpu_forward_ms = record.forward_ms;
                record.cpu_backward_ms = record.backward_ms;
                record.forward_ms = deviceMs(entry->index);
                record.backward_ms = record.has_backward ? backward_device_ms_[entry->index] : 0.0;
            }
            record.trace = traceOf(python_of_[entry->index]);
            record.module_path = moduleOf(python_of_[entry->index]);
            record.part =
                startsWith(record.name, kOptimizer) ? OperationRecord::Part::Optimizer
                : holding(backward_regions_, call.start_ns) || call.start_ns > backward_end
                    ? OperationRecord::Part::AfterBackward
                    : OperationRecord::Part::Forward;
            records.push_back(std::move(record));
            if (calls) {
                calls->push_back(entry->index);
            }
        }
        return records;
    }

    // The end of the step's last backward pass (none: never).
    int64_t lastBackwardEnd(const TimelineStep& step) const {
        auto after =
            std::upper_bound(backward_regions_.begin(), backward_regions_.end(), step.end_ns,
                             [](int64_t t, const Interval& r) { return t < r.start; });
        if (after == backward_regions_.begin() || std::prev(after)->start < step.start_ns) {
            return INT64_MAX;
        }
        return std::prev(after)->end;
    }

    void collectOperations() {
        steps_.device_times = device_times_;
        memory_step_backward_end_ = lastBackwardEnd(steps_found_[memory_step_]);
        steps_.operations = operationsOf(memory_step_, &memory_step_calls_);
        const TimelineStep& memory_step = steps_found_[memory_step_];
        steps_.memory_step_ms =
            static_cast<double>(memory_step.end_ns - memory_step.start_ns) / 1e6;
        steps_.steps.push_back(epochStep(memory_step));
        for (size_t k = 0; k < steps_found_.size(); ++k) {
            const TimelineStep& s = steps_found_[k];
            if (k != memory_step_) {
                steps_.steps.push_back(epochStep(s));
            }
            if (k == memory_step_) {
                steps_.timed.push_back(timingsOf(steps_.operations));
            } else {
                StepMatch match = matchStep(steps_.operations, operationsOf(k, nullptr));
                if (!match.same()) {
                    StepDifferences& d = steps_.differences;
                    ++d.steps;
                    d.unmatched_calls += match.unmatched;
                    d.missing_operations += match.missing;
                    addDistinctNames(d.unmatched_names, match.unmatched_names);
                    addDistinctNames(d.missing_names, match.missing_names);
                }
                steps_.timed.push_back(std::move(match.aligned));
            }
            steps_.timed_ms.push_back(static_cast<double>(s.end_ns - s.start_ns) / 1e6);
            steps_.timed_collectives.push_back(collectivesOf(s));
            if (k == memory_step_) {
                steps_.collectives = steps_.timed_collectives.back();
            }
            steps_.timed_kernels.ms.emplace_back();
            steps_.timed_kernels.calls.emplace_back();
        }
    }

    // Whether device task k was launched within `step` (a task without its launch: in none).
    bool launchedIn(size_t k, const TimelineStep& step) const {
        const int launch = launch_of_task_[k];
        return launch >= 0 && calls_[launch].start_ns >= step.start_ns &&
               calls_[launch].start_ns <= step.end_ns;
    }

    // The collectives whose kernels the step launched (NCCL's), in the order they ran on the
    // device, from the step's start: "nccl:allreduce" and their bytes (the input's elements
    // times their type's size) from their args; a kernel without them (before PyTorch 2.1) is
    // named by its kernel, "nccl:ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", its bytes 0:
    // not known.
    std::vector<CollectiveRecord> collectivesOf(const TimelineStep& step) const {
        static const std::map<std::string, int64_t> kSizes = {
            {"Float", 4}, {"Double", 8}, {"Half", 2},          {"BFloat16", 2},
            {"Int", 4},   {"Long", 8},   {"Short", 2},         {"Char", 1},
            {"Byte", 1},  {"Bool", 1},   {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1}};
        std::vector<CollectiveRecord> found;
        for (size_t k = 0; k < device_work_.size(); ++k) {
            const TraceSpan& task = device_work_[k];
            const bool named = task.collective >= 0;
            if (!launchedIn(k, step) ||
                !(named || (task.work == TraceSpan::Work::Kernel &&
                            kernelKind(text(task.name)) == DeviceTaskSpan::Kind::Communication))) {
                continue;
            }
            CollectiveRecord record;
            record.name = text(task.name);
            if (named) {
                const TraceCollective& c = events_.collectives[task.collective];
                const auto size = kSizes.find(text(c.dtype));
                record.name = text(c.name);
                record.bytes =
                    size == kSizes.end() ? 0 : saturatedProduct(c.elements, size->second);
                record.process_group = text(c.process_group);
                record.group_size = c.group_size;
            } else {
                record.name = record.name.substr(0, record.name.find('('));
            }
            record.name = "nccl:" + record.name;
            record.start_ms = static_cast<double>(task.start_ns - step.start_ns) / 1e6;
            record.ms = static_cast<double>(task.end_ns - task.start_ns) / 1e6;
            record.overlapped_ms = static_cast<double>(computingWithin(task)) / 1e6;
            found.push_back(std::move(record));
        }
        return found;
    }

    // How long a computation (a kernel other than a collective's, on any stream) ran during
    // `task`: the communication hidden behind it.
    int64_t computingWithin(const TraceSpan& task) const {
        if (!computing_) {
            std::vector<TimeSpan> kernels;
            for (const TraceSpan& k : device_work_)
                if (k.work == TraceSpan::Work::Kernel && k.collective < 0 &&
                    kernelKind(text(k.name)) == DeviceTaskSpan::Kind::Computation) {
                    kernels.push_back({k.start_ns, k.end_ns});
                }
            computing_ = mergedSpans(std::move(kernels));
        }
        auto span =
            std::lower_bound(computing_->begin(), computing_->end(), task.start_ns,
                             [](const TimeSpan& s, int64_t start) { return s.end_ns <= start; });
        int64_t total = 0;
        for (; span != computing_->end() && span->start_ns < task.end_ns; ++span)
            total += std::min(span->end_ns, task.end_ns) - std::max(span->start_ns, task.start_ns);
        return total;
    }

    TimelineStep epochStep(const TimelineStep& s) const {
        return {s.id, epoch(s.start_ns), epoch(s.end_ns), false};
    }

    AllocationPhase phaseAt(int64_t time) const {
        if (holding(optimizer_, time)) {
            return AllocationPhase::Step;
        }
        if (holding(backward_regions_, time)) {
            return AllocationPhase::Backward;
        }
        const TimelineStep& s = steps_found_[memory_step_];
        return time > memory_step_backward_end_ && time <= s.end_ns ? AllocationPhase::Step
                                                                    : AllocationPhase::Forward;
    }

    static void* pointerOf(uint64_t address) { return reinterpret_cast<void*>(address); }

    // What a trace's allocations may add up to: every sum analysis makes of them (the peak's
    // parts, activations by operation) is a sum of some of them, and stays far from int64's end.
    static constexpr int64_t kMaxAllocated = int64_t{1} << 60;

    void checkAllocationsAddUp() const {
        int64_t sum = std::max<int64_t>(memory_.front().total_allocated - memory_.front().bytes, 0);
        for (const TraceMemoryEvent& m : memory_)
            sum = saturatedSum(sum, m.bytes < 0 ? -m.bytes : m.bytes);
        if (sum > kMaxAllocated) {
            throw Error(source_ +
                        " is not a trace TrainScope can read: its memory events add up "
                        "to more than any machine holds");
        }
    }

    // What was alive before the first memory event, by the trace's first total: CUDA's totals
    // are the allocator's, which count what was there before; a CPU trace's begin at 0 when
    // the profiler starts, and count nothing made before it.
    int64_t aliveBeforeTrace() const {
        return memory_.front().total_allocated - memory_.front().bytes;
    }

    // Whose memory the reports are, and where the weights and optimizer state are, which the
    // trace does not name.
    std::string memoryNote() const {
        std::string unnamed = "imported from a torch.profiler trace: the memory of " +
                              (device_type_ == 1 ? "CUDA device " + std::to_string(device_id_)
                                                 : std::string("the CPU"));
        if (memory_elsewhere_ > 0) {
            unnamed += " (" + std::to_string(memory_elsewhere_) +
                       " memory events of other devices are not read)";
        }
        unnamed += "; the trace does not say which tensors are parameters or optimizer state";
        const int64_t before = aliveBeforeTrace();
        if (before > 0) {
            return unnamed + ": what was alive before the trace began (" + std::to_string(before) +
                   " bytes, by its first total) is counted as other";
        }
        return unnamed +
               "; its totals count nothing alive before it began (a CPU trace's begin at 0 when "
               "the profiler starts), so what was made before it, such as the weights, is not "
               "in its peak";
    }

    MemoryRecord memoryRecord() {
        checkAllocationsAddUp();
        MemoryRecord record;
        // What was alive before the first event: the blocks the trace frees without having
        // allocated them (CUDA's), and the rest of its first total as one block.
        const int64_t before = aliveBeforeTrace();
        std::unordered_map<uint64_t, int64_t> allocated;
        std::unordered_map<uint64_t, int64_t> older;
        for (const TraceMemoryEvent& m : memory_) {
            if (m.bytes > 0) {
                allocated[m.address] = m.bytes;
            } else if (!allocated.erase(m.address)) {
                older[m.address] += -m.bytes;
            }
        }
        int64_t older_bytes = 0;
        for (const auto& [address, bytes] : older) {
            record.live_at_start.push_back({pointerOf(address), TrackedBlock{bytes}});
            older_bytes += bytes;
        }
        if (before > older_bytes) {
            record.live_at_start.push_back(
                {pointerOf(~uint64_t{0}), TrackedBlock{before - older_bytes}});
        }
        // Which memory-step operation each event happened in, on the forward thread.
        std::vector<Interval> operations;
        for (size_t i = 0; i < memory_step_calls_.size(); ++i) {
            const TraceSpan& call = calls_[memory_step_calls_[i]];
            operations.push_back({call.start_ns, call.end_ns, static_cast<int>(i)});
        }
        std::unordered_map<uint64_t, size_t> open;  // address -> its allocation's event
        for (const TraceMemoryEvent& m : memory_) {
            MemoryEvent event;
            event.time = m.time_ns;
            event.ptr = pointerOf(m.address);
            event.bytes = m.bytes;
            event.total_allocated = m.total_allocated;
            event.total_reserved = m.total_reserved;
            event.phase = phaseAt(m.time_ns);
            if (Thread{m.pid, m.tid} == forward_thread_) {
                const Interval* op = holding(operations, m.time_ns);
                event.operation = op ? op->index : -1;
            }
            const size_t index = record.events.size();
            if (m.bytes > 0) {
                open[m.address] = index;
            } else if (const auto a = open.find(m.address); a != open.end()) {
                record.events[a->second].paired = true;
                event.paired = true;
                open.erase(a);
            }
            record.events.push_back(event);
        }
        record.allocator_totals = true;
        record.peak_bytes = std::max(before, memory_[peak_event_].total_allocated);
        record.events_at_peak = memory_[peak_event_].total_allocated > before
                                    ? static_cast<size_t>(peak_event_) + 1
                                    : 0;
        // Each micro-batch of the memory step: its forward from the first operation after the
        // previous backward pass, its backward from the backward pass's start.
        const TimelineStep& step = steps_found_[memory_step_];
        auto eventsBefore = [&](int64_t time) {
            return static_cast<size_t>(std::lower_bound(memory_.begin(), memory_.end(), time,
                                                        [](const TraceMemoryEvent& m, int64_t t) {
                                                            return m.time_ns < t;
                                                        }) -
                                       memory_.begin());
        };
        int64_t forward_from = step.start_ns;
        for (const Interval& region : backward_regions_) {
            if (region.start < step.start_ns || region.start > step.end_ns) {
                continue;
            }
            record.micro_batches.push_back(
                {eventsBefore(forward_from), eventsBefore(region.start), true});
            record.phase_marks.push_back({"forward", epoch(forward_from)});
            record.phase_marks.push_back({"backward", epoch(region.start)});
            forward_from = region.end;
        }
        record.start_ticks = epoch(step.start_ns);
        record.end_ticks = epoch(step.end_ns);
        return record;
    }

    // The gradients, which the trace does not name: what AccumulateGrad allocated, and what a
    // backward pass of the memory step allocated and the step did not free (a parameter's
    // gradient outlives the step; the backward pass's temporaries do not).
    GradientBlocks gradientBlocks(const MemoryRecord& record) const {
        GradientBlocks gradients;
        const TimelineStep& step = steps_found_[memory_step_];
        std::unordered_map<uint64_t, size_t> open;  // address -> its allocation
        for (size_t i = 0; i < memory_.size() && memory_[i].time_ns <= step.end_ns; ++i) {
            const TraceMemoryEvent& m = memory_[i];
            const auto list = accumulate_.find({m.pid, m.tid});
            if (m.bytes > 0 && list != accumulate_.end() && holding(list->second, m.time_ns)) {
                gradients[{record.events[i].ptr, static_cast<int64_t>(i)}] = "";
            } else if (m.bytes > 0) {
                open[m.address] = i;
            } else {
                open.erase(m.address);
            }
        }
        for (const auto& [address, i] : open)
            if (memory_[i].time_ns >= step.start_ns &&
                record.events[i].phase == AllocationPhase::Backward) {
                gradients[{record.events[i].ptr, static_cast<int64_t>(i)}] = "";
            }
        return gradients;
    }

    // What device work the trace holds, and how much of it is joined to an operation
    // (report_format.h: DeviceWork's keys).
    void noteDeviceWork(RunMetadata& metadata) const {
        int64_t kinds[3] = {0, 0, 0};
        std::set<std::pair<int64_t, int64_t>> streams;
        for (const TraceSpan& task : device_work_) {
            ++kinds[static_cast<int>(task.work)];
            streams.insert({task.pid, task.tid});
        }
        const auto joined = static_cast<int64_t>(device_work_.size() - tasks_without_launch_ -
                                                 tasks_outside_operations_);
        namespace key = report_format::device_work;
        for (const auto& [name, count] :
             {std::pair{key::kKernels, kinds[0]},
              {key::kCopies, kinds[1]},
              {key::kSets, kinds[2]},
              {key::kStreams, static_cast<int64_t>(streams.size())},
              {key::kJoined, joined},
              {key::kWithoutLaunch, static_cast<int64_t>(tasks_without_launch_)},
              {key::kOutsideOperations, static_cast<int64_t>(tasks_outside_operations_)}})
            metadata[name] = std::to_string(count);
        // The listed step's device time: the tasks launched in it, from the first's start to
        // the last's end.
        const TimelineStep& step = steps_found_[memory_step_];
        std::vector<DeviceTaskSpan> spans;
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (size_t k = 0; k < device_work_.size(); ++k) {
            if (!launchedIn(k, step)) {
                continue;
            }
            const TraceSpan& task = device_work_[k];
            spans.push_back({task.start_ns, task.end_ns,
                             task.work != TraceSpan::Work::Kernel ? DeviceTaskSpan::Kind::Memory
                                                                  : kernelKind(text(task.name))});
            first = std::min(first, task.start_ns);
            last = std::max(last, task.end_ns);
        }
        if (spans.empty()) {
            return;
        }
        const DeviceBreakdown b = deviceBreakdown(spans, first, last);
        for (const auto& [name, ns] : {std::pair{key::kStepNs, b.span_ns},
                                       {key::kComputationNs, b.computation_ns},
                                       {key::kCommunicationNs, b.communication_ns},
                                       {key::kMemoryNs, b.memory_ns},
                                       {key::kIdleNs, b.idle_ns},
                                       {key::kOverlappedNs, b.overlapped_ns}})
            metadata[name] = std::to_string(ns);
    }

    // The GPU the device work ran on, as deviceProperties names it: that of most tasks (the
    // first named where the trace has no tasks on a named one); none where it names none.
    const TraceDevice* deviceOfWork() const {
        std::map<int64_t, size_t> tasks;
        for (const TraceSpan& task : device_work_)
            ++tasks[task.pid];
        const TraceDevice* chosen = nullptr;
        size_t most = 0;
        for (const TraceDevice& device : events_.devices) {
            if (device.name.empty()) {
                continue;
            }
            const auto count = tasks.find(device.id);
            const size_t n = count == tasks.end() ? 0 : count->second;
            if (!chosen || n > most) {
                chosen = &device;
                most = n;
            }
        }
        return device_work_.empty() && !events_.devices.empty() ? nullptr : chosen;
    }

    RunMetadata metadataOfTrace() const {
        RunMetadata metadata;
        metadata[report_format::kImportedFromKey] = source_;
        metadata[report_format::kImportedFormatKey] = kProfilerTraceFormat;
        metadata["trace_events"] = std::to_string(events_.events);
        if (events_.rank >= 0) {  // distributedInfo's
            metadata[report_format::kRankKey] = std::to_string(events_.rank);
            if (events_.world_size > 0) {
                metadata[report_format::kWorldSizeKey] = std::to_string(events_.world_size);
            }
        }
        if (const TraceDevice* device = deviceOfWork()) {
            metadata[report_format::kDeviceNameKey] = device->name;
            metadata[report_format::kDeviceMemoryKey] = std::to_string(device->memory_bytes);
            if (device->multiprocessors > 0) {
                metadata[report_format::kDeviceMultiprocessorsKey] =
                    std::to_string(device->multiprocessors);
            }
        }
        std::string skipped;
        for (const auto& [kind, count] : events_.skipped)
            skipped += (skipped.empty() ? "" : ", ") + kind + " " + std::to_string(count);
        if (!device_work_.empty()) {
            noteDeviceWork(metadata);
        }
        if (device_times_) {
            metadata[report_format::kOperationTimesKey] = report_format::kDeviceTimes;
        }
        if (!skipped.empty()) {
            metadata["trace_events_not_read"] = skipped;
        }
        if (memory_elsewhere_ > 0) {
            metadata["memory_events_of_other_devices"] = std::to_string(memory_elsewhere_);
        }
        if (!steps_note_.empty()) {
            metadata[report_format::kImportedStepsKey] = steps_note_;
        }
        if (!backward_note_.empty()) {
            metadata[kBackwardNotAttributedKey] = backward_note_;
        }
        return metadata;
    }

    TimelineReport timeline(const RunMetadata& metadata) {
        TimelineReport out;
        out.metadata = metadata;
        out.device_id = device_id_ < 0 ? 0 : static_cast<int>(device_id_);
        if (events_.rank >= 0 && events_.rank <= INT32_MAX) {  // RANK_DEVICE_MAP's
            out.rank = static_cast<int>(events_.rank);
        }
        std::vector<size_t> order(calls_.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return calls_[a].start_ns < calls_[b].start_ns;
        });
        std::vector<int64_t> connection(calls_.size());
        for (size_t n = 0; n < order.size(); ++n)
            connection[order[n]] = static_cast<int64_t>(n) + 1;
        for (size_t i : order) {
            const TraceSpan& call = calls_[i];
            if (call.kind == TraceSpan::Kind::Runtime) {  // the runtime's layer, not PyTorch's
                out.launches.push_back({epoch(call.start_ns), epoch(call.end_ns),
                                        globalTid(threadOf(call)), connection[i],
                                        out.texts.add(text(call.name))});
                const int op = launcherOf(static_cast<int>(i));
                if (op >= 0) {
                    out.launch_links.push_back({connection[op], connection[i]});
                }
                continue;
            }
            ApiCall api;
            api.start_ns = epoch(call.start_ns);
            api.end_ns = epoch(call.end_ns);
            api.global_tid = globalTid(threadOf(call));
            api.connection_id = connection[i];
            api.sequence_number = call.sequence;
            api.fwd_thread_id =
                startsWith(text(call.name), kBackwardNode) ? globalTid(forward_thread_) | 1 : 0;
            api.name = out.texts.add(text(call.name));
            api.input_shapes = call.shapes >= 0 ? out.texts.add(text(call.shapes)) : 0;
            api.input_dtypes = call.dtypes >= 0 ? out.texts.add(text(call.dtypes)) : 0;
            api.module_path = out.texts.add(moduleOf(python_of_[i]));
            api.callchain = traceOf(python_of_[i]);
            out.calls.push_back(api);
        }
        for (const auto& [forward, node] : links_)
            out.connections.push_back({connection[forward], connection[node]});
        const TextId kinds[] = {out.texts.add("kernel"), out.texts.add("memcpy"),
                                out.texts.add("memset")};
        for (size_t k = 0; k < device_work_.size(); ++k) {
            const TraceSpan& task = device_work_[k];
            const int launch = launch_of_task_[k];
            out.device_tasks.push_back({epoch(task.start_ns), epoch(task.end_ns), task.pid,
                                        task.tid, launch >= 0 ? connection[launch] : -1,
                                        out.texts.add(text(task.name)),
                                        kinds[static_cast<int>(task.work)]});
        }
        for (size_t t = 0; t < steps_.traces.size(); ++t)
            out.callchains.push_back(steps_.traces[static_cast<int>(t)]);
        std::unordered_map<uint64_t, size_t> open;
        for (const TraceMemoryEvent& m : memory_) {
            const MemorySample sample{epoch(m.time_ns), m.total_allocated, m.total_reserved,
                                      m.total_allocated};
            out.memory.push_back(sample);
            if (m.bytes > 0) {
                BlockLifetime block;
                block.size_bytes = m.bytes;
                block.allocation = sample;
                const auto entries = entries_of_thread_.find({m.pid, m.tid});
                const Interval* entry = entries == entries_of_thread_.end()
                                            ? nullptr
                                            : holding(entries->second, m.time_ns);
                block.operation_name = entry ? out.texts.add(text(calls_[entry->index].name)) : 0;
                open[m.address] = out.blocks.size();
                out.blocks.push_back(block);
            } else if (const auto a = open.find(m.address); a != open.end()) {
                out.blocks[a->second].release = sample;
                open.erase(a);
            }
        }
        // Each step's collectives (its NCCL kernels), for the ranks' summary: the same kernels
        // on every rank, and the durations the ranks waited for each other in.
        for (const TimelineStep& s : steps_found_) {
            out.steps.push_back(epochStep(s));
            for (CollectiveRecord& c : collectivesOf(s))
                out.step_collectives.push_back(
                    {s.id, std::move(c.name), c.bytes, c.start_ms, c.ms});
        }
        const TimelineStep& step = steps_found_[memory_step_];
        int64_t forward_from = step.start_ns;
        for (const Interval& region : backward_regions_) {
            if (region.start < step.start_ns || region.start > step.end_ns) {
                continue;
            }
            out.phases.push_back({"forward", epoch(forward_from), epoch(region.start)});
            out.phases.push_back({"backward", epoch(region.start), epoch(region.end)});
            forward_from = region.end;
        }
        for (const Interval& o : optimizer_)
            if (o.start >= step.start_ns && o.start <= step.end_ns &&
                startsWith(text(calls_[o.index].name), kOptimizerStep)) {
                out.phases.push_back({"optimizer", epoch(o.start), epoch(o.end)});
            }
        return out;
    }

    // pid << 32 | tid, as the timeline's files hold threads; a named one (the legacy
    // profiler's "CPU functions") is process 0.
    static uint64_t globalTid(const Thread& thread) {
        const uint64_t pid = thread.first < 0 ? 0 : static_cast<uint64_t>(thread.first);
        const uint64_t tid = static_cast<uint64_t>(thread.second) & 0xffffffffu;
        return pid << 32 | tid;
    }

    TraceEvents events_;
    std::string source_;
    mutable std::optional<std::vector<TimeSpan>> computing_;  // merged, by start
    std::vector<TraceSpan> calls_;  // by thread, then start, the enclosing first
    std::vector<TraceSpan> profiler_steps_;
    std::vector<int> parent_, entry_;
    std::vector<bool> backward_;
    std::vector<int> python_parent_, python_of_;
    std::unordered_map<int, int> trace_of_python_;
    std::unordered_map<int, std::string> module_of_python_;
    std::vector<TimelineStep> steps_found_;  // in the trace's clock
    std::string steps_note_;                 // how they were found, where not by marks
    Thread forward_thread_{0, 0};
    std::vector<Interval> backward_regions_, optimizer_;
    std::map<Thread, std::vector<Interval>> accumulate_, entries_of_thread_;
    std::vector<std::pair<int, int>> links_;       // (forward call, backward node)
    std::unordered_map<int, double> backward_ms_;  // by entry
    std::string backward_note_;  // why no entry has a backward time, where nodes ran
    int64_t memory_step_backward_end_ = INT64_MAX;
    std::vector<TraceMemoryEvent> memory_;
    int64_t device_type_ = 0, device_id_ = -1;
    int64_t memory_elsewhere_ = 0;
    int64_t peak_event_ = -1;
    size_t memory_step_ = 0;
    std::vector<int> memory_step_calls_;
    std::vector<TraceSpan> device_work_;  // kernels, copies and sets, by start
    std::vector<int> launch_of_task_;     // the call that launched each (-1: none in the trace)
    std::vector<int64_t> device_ns_;      // by call: the device time of what it launched
    std::unordered_map<int, double> backward_device_ms_;  // by entry
    size_t tasks_without_launch_ = 0, tasks_outside_operations_ = 0;
    bool device_times_ = false;  // the operations' times are the device's
    RecordedSteps steps_;
};

}  // namespace

ImportedRun importTrace(TraceEvents events, const std::string& source) {
    return TraceImporter(std::move(events), source).run();
}

}  // namespace trainscope
