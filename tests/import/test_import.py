# SPDX-License-Identifier: Apache-2.0
"""`trainscope-cli import` and `show` held against the files themselves: a torch.profiler trace
and a memory snapshot recorded here by this Python's torch (tests/fixtures/make_profiler_trace.py:
PyTorch 1.13's legacy trace on Debian's torch, 2.x's with memory, stacks and modules, and its
snapshot), each figure read from the JSON or the pickle by this test with Python's own readers
and compared with what the reports hold; and hostile files refused in one line, leaving nothing.

    TRAINSCOPE_CLI=... python3 test_import.py
"""
import copy
import decimal
import gzip
import json
import os
import pickle
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER = os.path.realpath(os.path.join(HERE, "..", "fixtures", "make_profiler_trace.py"))
CLI = os.environ["TRAINSCOPE_CLI"]
USER_FILE = "make_profiler_trace.py"
BACKWARD_NODE = "autograd::engine::evaluate_function: "


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def rows(path, sql):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


def load_trace(path):
    with open(path, "rb") as f:
        data = json.loads(f.read(), parse_float=decimal.Decimal)  # ts exact to the ns
    if isinstance(data, list):
        return data, 0
    return data["traceEvents"], int(data.get("baseTimeNanoseconds", 0))


def ns(value):
    return int(decimal.Decimal(value) * 1000)


class Trace:
    """What the test reads of the trace on its own."""

    def __init__(self, path):
        self.events, self.base = load_trace(path)
        self.calls = [e for e in self.events if e.get("ph") == "X"
                      and e.get("cat", "") in ("", "cpu_op", "user_annotation", "cuda_runtime",
                                               "cuda_driver")
                      and not e["name"].startswith("ProfilerStep#")]
        self.python = [e for e in self.events if e.get("cat") == "python_function"]
        self.memory = [e for e in self.events if e.get("name") == "[memory]"
                       and e.get("ph") in ("i", "I")]
        self.flows = [e for e in self.events if e.get("cat") == "fwdbwd"]

    def start(self, e):
        return self.base + ns(e["ts"])

    def end(self, e):
        return self.base + ns(e["ts"]) + ns(e["dur"])

    def forward_thread(self):
        """The thread where the flows start, else the one with the most top-level calls that
        are not backward nodes (the legacy trace runs the backward pass on a thread of its
        own)."""
        starts = [f for f in self.flows if f["ph"] == "s"]
        if starts:
            return starts[0]["tid"]
        tids = sorted({c["tid"] for c in self.calls}, key=str)
        return max(tids, key=lambda tid: len(self.nesting(tid)[0]))

    def nesting(self, tid):
        """A thread's top-level calls (record_function scopes other than the optimizer's hold
        calls), backward nodes left out; each call's entry; the backward calls; all its calls."""
        calls = sorted((c for c in self.calls if c["tid"] == tid),
                       key=lambda c: (ns(c["ts"]), -ns(c["dur"])))

        def transparent(c):  # no entry of its own: a record_function scope, a launch
            return (c.get("cat") == "user_annotation" and not c["name"].startswith("Optimizer.")
                    or c.get("cat") in ("cuda_runtime", "cuda_driver"))

        open_, top_of, backward = [], {}, set()
        for c in calls:
            while open_ and not (ns(c["ts"]) + ns(c["dur"]) <= ns(open_[-1]["ts"]) + ns(open_[-1]["dur"])):
                open_.pop()
            parent = open_[-1] if open_ else None
            if parent is not None and id(parent) in backward or c["name"].startswith(BACKWARD_NODE):
                backward.add(id(c))
            if parent is not None and top_of.get(id(parent)) is not None:
                top_of[id(c)] = top_of[id(parent)]
            else:
                top_of[id(c)] = None if transparent(c) else c
            open_.append(c)
        entries = [c for c in calls if top_of[id(c)] is c and id(c) not in backward]
        return entries, top_of, backward, calls

    def entries(self):
        """The forward thread's entries with their backward times."""
        entries, top_of, backward, calls = self.nesting(self.forward_thread())
        # Backward times through the flows: start at the operation (the innermost starting at
        # the flow's time), finish at the backward node.
        by_start = defaultdict(list)
        for c in calls:
            by_start[ns(c["ts"])].append(c)
        starts = {f["id"]: f for f in self.flows if f["ph"] == "s"}
        backward_ms = defaultdict(decimal.Decimal)
        counted = set()
        for f in self.flows:
            if f["ph"] != "f" or f["id"] not in starts:
                continue
            at = [c for c in by_start[ns(starts[f["id"]]["ts"])]]
            nodes = [c for c in by_start[ns(f["ts"])] if id(c) in backward]
            if not at or not nodes:
                continue
            op = min(at, key=lambda c: ns(c["dur"]))
            entry = top_of[id(op)]
            if entry is not None and (id(entry), id(nodes[0])) not in counted:
                counted.add((id(entry), id(nodes[0])))
                backward_ms[id(entry)] += decimal.Decimal(nodes[0]["dur"]) / 1000
        return [(c, backward_ms.get(id(c))) for c in entries]

    def user_line(self, call):
        """The first caller's line in the user's file, walking out from the call."""
        around = [p for p in self.python if p["tid"] == call["tid"]
                  and ns(p["ts"]) <= ns(call["ts"])
                  and ns(call["ts"]) + ns(call["dur"]) <= ns(p["ts"]) + ns(p["dur"])]
        around.sort(key=lambda p: (ns(p["ts"]), -ns(p["dur"])), reverse=True)  # innermost first
        for p in around:
            where = p["args"].get("CallFrom", "")
            if where.startswith(USER_FILE + ":"):
                return int(where.rsplit(":", 1)[1])
        return None


def record(case, steps=1, schedule=False):
    """A trace (and on 2.x a snapshot) of the recorder's steps, in a folder of the test
    case's."""
    case.dir = tempfile.TemporaryDirectory()
    case.prefix = os.path.join(case.dir.name, "step")
    subprocess.run([sys.executable, RECORDER, case.prefix, "--steps", str(steps)]
                   + (["--schedule"] if schedule else []), check=True, timeout=300,
                   capture_output=True)


class ImportedTrace(unittest.TestCase):
    """The recorder's trace of STEPS steps, imported (no test of its own)."""

    STEPS = 1  # the steps that the recorder runs under the profiler
    SCHEDULE = False  # under a schedule, which marks each step

    @classmethod
    def setUpClass(cls):
        record(cls, cls.STEPS, cls.SCHEDULE)
        cls.trace = Trace(cls.prefix + ".json")
        cls.out = os.path.join(cls.dir.name, "imported")
        result = cli("import", cls.prefix + ".json", "-o", cls.out)
        assert result.returncode == 0, result.stderr

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def timeline(self, sql):
        return rows(self.out + ".timeline.sqlite", sql)


class ImportTest(ImportedTrace):
    """One step's trace."""

    def test_every_call_with_its_times(self):
        expected = Counter((c["name"], self.trace.start(c), self.trace.end(c))
                           for c in self.trace.calls)
        got = Counter((name, int(start), int(end)) for name, start, end in self.timeline(
            "SELECT s.value, a.startNs, a.endNs FROM PYTORCH_API a "
            "JOIN STRING_IDS s ON s.id = a.name"))
        self.assertEqual(got, expected)
        self.assertGreater(len(expected), 100)

    def test_memory_record_is_the_traces_totals(self):
        memory = sorted((m for m in self.trace.memory if m["args"].get("Device Type", 0) == 0),
                        key=lambda m: ns(m["ts"]))
        totals = [m["args"]["Total Allocated"] for m in memory]
        got = [t for (t,) in self.timeline(
            "SELECT totalAllocated FROM MEMORY_RECORD ORDER BY timestamp, rowid")]
        self.assertEqual(got, totals)
        if not totals:
            self.skipTest("this torch's trace has no memory events (PyTorch 1.13's legacy "
                          "profiler records none)")
        peak = rows(self.out + ".memory.sqlite",
                    "SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'")[0][0]
        before = memory[0]["args"]["Total Allocated"] - memory[0]["args"]["Bytes"]
        self.assertEqual(peak, max(totals + [before]))
        parts = rows(self.out + ".memory.sqlite", "SELECT SUM(size_bytes) FROM misc_sizes WHERE key "
                     "LIKE 'peak_%_bytes' AND key != 'peak_usage_bytes'")[0][0]
        self.assertEqual(parts, peak)  # the breakdown adds up to the peak

    def test_entries_with_forward_and_backward_times(self):
        expected = self.trace.entries()
        got = rows(self.out + ".time.sqlite",
                   "SELECT id, operation_name, forward_ms, backward_ms FROM run_time_entries "
                   "ORDER BY id")
        self.assertEqual([name for _, name, _, _ in got], [c["name"] for c, _ in expected])
        for (_, name, forward_ms, backward_ms), (call, backward) in zip(got, expected):
            self.assertAlmostEqual(forward_ms, float(decimal.Decimal(call["dur"]) / 1000),
                                   places=9, msg=name)
            if backward is None:
                self.assertIsNone(backward_ms, name)
            else:
                self.assertAlmostEqual(backward_ms, float(backward), places=9, msg=name)
        if self.trace.flows:
            self.assertTrue(any(b is not None for _, b in expected))

    def test_the_optimizers_step_is_optimizer_time_not_forward(self):
        parts = dict(rows(self.out + ".time.sqlite",
                          "SELECT entry_id, part FROM trainscope_entry_parts ORDER BY entry_id"))
        entries = [c for c, _ in self.trace.entries()]  # entry i + 1 is entries[i]
        # The optimizer's methods' scopes (Optimizer.step#AdamW.step, Optimizer.zero_grad#...).
        optimizer = [i + 1 for i, c in enumerate(entries) if c["name"].startswith("Optimizer.")]
        self.assertIn("Optimizer.step#AdamW.step", [entries[i - 1]["name"] for i in optimizer])
        self.assertEqual([i for i in parts if parts[i] == "optimizer"], optimizer, parts)
        ms = [float(decimal.Decimal(c["dur"]) / 1000) for c in entries]
        shown = cli("show", self.out + ".time.sqlite")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("optimizer %.3f ms)" % sum(ms[i - 1] for i in optimizer), shown.stdout)
        forward = sum(t for i, t in enumerate(ms) if i + 1 not in parts)
        self.assertIn("(forward %.3f ms," % forward, shown.stdout)

    def test_each_entrys_user_line(self):
        if not self.trace.python:
            self.skipTest("this torch's trace has no Python calls (PyTorch 1.13's legacy "
                          "profiler records none)")
        lines = dict(rows(self.out + ".time.sqlite",
                          "SELECT entry_id, line_number FROM stack_frames f WHERE ordering = "
                          "(SELECT MIN(ordering) FROM stack_frames g WHERE g.entry_id = "
                          f"f.entry_id AND g.file_path = '{USER_FILE}')"))
        checked = 0
        for number, (call, _) in enumerate(self.trace.entries(), start=1):
            line = self.trace.user_line(call)
            self.assertEqual(lines.get(number), line, call["name"])
            checked += line is not None
        self.assertGreater(checked, 10)

    def test_device_time_by_line_and_module_is_the_kernels_each_line_launched(self):
        # This trace was recorded on the CPU. As CUDA's runtime and GPU add them to a trace
        # recorded on a GPU, each entry's forward call is given a launch (inside it, on its
        # thread) and a kernel of a duration of its own, joined by their correlation: each
        # entry's time is then its kernel's, and so is each of the user's lines and modules.
        if not self.trace.python:
            self.skipTest("no Python calls in this torch's trace (no lines to hold)")
        events = copy.deepcopy(self.trace.events)
        kernel_ns = {}
        for number, (call, _) in enumerate(self.trace.entries(), start=1):
            kernel_ns[number] = 1000 + 7 * number
            start = decimal.Decimal(call["ts"]) + decimal.Decimal("0.001")
            events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                           "pid": call["pid"], "tid": call["tid"], "ts": start,
                           "dur": decimal.Decimal("0.001"), "args": {"correlation": number}})
            events.append({"ph": "X", "cat": "kernel", "name": f"kernel_{number}", "pid": 0,
                           "tid": 7, "ts": start + 1,
                           "dur": decimal.Decimal(kernel_ns[number]) / 1000,
                           "args": {"correlation": number}})
        path = os.path.join(self.dir.name, "on_gpu.json")
        text = json.dumps({"schemaVersion": 1, "traceEvents": events}, default=str)
        with open(path, "w") as f:  # the exact decimals as JSON numbers, not strings
            f.write(re.sub(r'"(ts|dur)": "([0-9.]+)"', r'"\1": \2', text))
        out = os.path.join(self.dir.name, "on_gpu")
        result = cli("import", path, "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        time = out + ".time.sqlite"
        forward = dict(rows(time, "SELECT id, forward_ms FROM run_time_entries"))
        self.assertEqual({n: round(ms * 1e6) for n, ms in forward.items()}, kernel_ns)
        # By the user's line, as the trace's Python calls say it (walking out from the call).
        expected = Counter()
        for number, (call, _) in enumerate(self.trace.entries(), start=1):
            line = self.trace.user_line(call)
            if line is not None:
                expected[line] += kernel_ns[number]
        lines = rows(time, "SELECT f.line_number, e.forward_ms FROM run_time_entries e JOIN "
                     "stack_frames f ON f.entry_id = e.id WHERE f.file_path = "
                     f"'{USER_FILE}' AND f.ordering = (SELECT MIN(ordering) FROM stack_frames g "
                     f"WHERE g.entry_id = e.id AND g.file_path = '{USER_FILE}')")
        found = Counter()
        for line, ms in lines:
            found[line] += round(ms * 1e6)
        self.assertEqual(found, expected)
        self.assertGreater(len(expected), 3)
        # By module: each module's device time is its entries' kernels'.
        by_module = Counter()
        for module, number in rows(time, "SELECT module_path, entry_id FROM "
                                   "trainscope_entry_modules"):
            by_module[module] += kernel_ns[number]
        self.assertIn("SmallLM_0.Sequential_0.Block_0.Linear_0", by_module)
        shown = cli("show", time)
        self.assertIn("Operation times are device times", shown.stdout)

    def test_modules_by_the_traces_nesting(self):
        if not self.trace.python:
            self.skipTest("no Python calls in this torch's trace")
        modules = {m for (m,) in self.timeline(
            "SELECT DISTINCT module_path FROM trainscope_api_modules")}
        self.assertIn("SmallLM_0.Sequential_0.Block_0.Linear_0", modules)

    def test_gzipped_trace_imports_the_same(self):
        out = os.path.join(self.dir.name, "packed")
        result = cli("import", self.prefix + ".json.gz", "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        for suffix in (".timeline.sqlite", ".time.sqlite"):
            for table in ("PYTORCH_API", "MEMORY_RECORD") if "timeline" in suffix else (
                    "run_time_entries", "stack_frames"):
                self.assertEqual(rows(out + suffix, f"SELECT * FROM {table}"),
                                 rows(self.out + suffix, f"SELECT * FROM {table}"), table)

    def test_show_prints_what_import_wrote(self):
        shown = cli("show", self.prefix + ".json")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("torch.profiler trace", shown.stdout)
        entries = rows(self.out + ".time.sqlite", "SELECT COUNT(*) FROM run_time_entries")[0][0]
        self.assertGreater(entries, 0)
        # Without flows (1.13's legacy trace) its backward nodes are nobody's: said, with how
        # many ran (the outermost, per thread), not left as a backward time of 0.
        nodes = [c for c in self.trace.calls if c["name"].startswith(BACKWARD_NODE)]
        outermost = [n for n in nodes if not any(
            o is not n and o["tid"] == n["tid"] and self.trace.start(o) <= self.trace.start(n)
            and self.trace.end(n) <= self.trace.end(o) for o in nodes)]
        said = f"Backward not attributed: the trace's {len(outermost)} backward nodes ("
        if self.trace.flows:
            self.assertNotIn("Backward not attributed", shown.stdout)
        else:
            self.assertGreater(len(outermost), 0)
            self.assertIn(said, shown.stdout)
        if "Peak memory" in shown.stdout:  # 2.x: its memory events (1.13's trace has none)
            # A trace names no parameter: their bytes are not known, rather than none.
            # Its gradients at the peak are told by what they do; no weight is listed with its
            # gradient over the iteration, and the line does not say the gradients are unnamed.
            self.assertIn("no weights listed, nor their gradients: the imported file names no "
                          "parameters", shown.stdout)
            self.assertNotIn("weights 0 B", shown.stdout)
            self.assertIn("the memory of the CPU;", shown.stdout)
            for part in ("Weights", "Optimizer state"):
                self.assertRegex(shown.stdout, part + r" +not named in the imported file\n")
            # Where they are instead: a CPU trace's totals begin at 0 with the profiler, so
            # what was made before it (this step's weights) is in no part of the peak; what a
            # first total does count before the trace is in Other, and the note says which.
            memory = sorted((m for m in self.trace.memory
                             if m["args"].get("Device Type", 0) == 0), key=self.trace.start)
            before = memory[0]["args"]["Total Allocated"] - memory[0]["args"]["Bytes"]
            self.assertIn("count nothing alive before it began" if before == 0 else
                          f"before the trace began ({before} bytes, by its first total) is "
                          "counted as other", shown.stdout)
            memory = cli("show", self.out + ".memory.sqlite")
            self.assertEqual(memory.returncode, 0, memory.stderr)
            self.assertIn("weights: none listed, nor their gradients: the imported file names no "
                          "parameters",
                          memory.stdout)
            self.assertNotIn("weights: 0", memory.stdout)

    def test_a_trace_without_python_stacks_says_how_to_record_them(self):
        with open(self.prefix + ".json") as f:
            trace = json.load(f)
        events = trace["traceEvents"] if isinstance(trace, dict) else trace  # 1.13: a list
        events[:] = [e for e in events if e.get("cat") != "python_function"]
        bare = os.path.join(self.dir.name, "bare.json")
        with open(bare, "w") as f:
            json.dump(trace, f)
        shown = cli("show", bare)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("No project frames: the trace holds no Python stacks (torch.profiler "
                      "records them with with_stack=True", shown.stdout)


class SeveralStepsTest(ImportedTrace):
    """A profile around three steps of a loop, without a schedule: torch.profiler marks no
    ProfilerStep, and the reports list one step's operations, not the three steps'."""

    STEPS = 3

    def steps_of_the_trace(self):
        """The trace's entries' names, step by step: each step ends with the optimizer's."""
        steps, current = [], []
        for call, _ in self.trace.entries():
            current.append(call["name"])
            if call["name"].startswith("Optimizer.step"):
                steps.append(current)
                current = []
        return steps

    def test_the_entries_are_one_steps(self):
        steps = self.steps_of_the_trace()
        self.assertEqual(len(steps), self.STEPS)
        got = [name for (name,) in rows(self.out + ".time.sqlite",
                                        "SELECT operation_name FROM run_time_entries ORDER BY id")]
        # One of the steps (the peak's): 1.13's trace, in whole microseconds, nests a call
        # that starts as its caller starts differently from step to step.
        self.assertIn(got, steps)

    def test_each_step_is_in_the_timeline(self):
        ends = sorted(self.trace.end(c) for c in self.trace.calls
                      if c["name"].startswith("Optimizer.step"))
        got = [end for (end,) in rows(self.out + ".timeline.sqlite",
                                      "SELECT endNs FROM STEP_TIME ORDER BY startNs")]
        self.assertEqual(got, ends)

    def test_show_sums_one_steps_operations(self):
        shown = cli("show", self.prefix + ".json")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        share = [line for line in shown.stdout.splitlines() if "of the iteration" in line]
        self.assertEqual(len(share), 1, shown.stdout)
        percent = float(share[0].rsplit("%", 1)[0].split()[-1])
        self.assertLessEqual(percent, 100.0, share[0])


BEFORE = "alive before the trace"  # what the reports call a block older than the trace


def replay_snapshot(snapshot, leave_out=lambda frames: False):
    """The peak over the snapshot's trace, and the bytes alive at it by category (without the
    blocks whose frames `leave_out` names)."""
    traces = snapshot["device_traces"]
    device = max(range(len(traces)), key=lambda d: len(traces[d]))
    alive = {}
    for segment in snapshot["segments"]:
        if segment.get("device", 0) != device:
            continue
        address = segment["address"]
        for block in segment["blocks"]:
            address = block.get("address", address)
            if block["state"] in ("active_allocated", "active_awaiting_free"):
                alive[address] = (block["size"], BEFORE, [])
            address += block["size"]
    trace = [e for e in traces[device] if e["action"] in ("alloc", "free_completed")]
    for e in reversed(trace):
        if e["action"] == "alloc":
            alive.pop(e["addr"], None)
        else:
            alive[e["addr"]] = (e["size"], BEFORE, e.get("frames", []))
    total = sum(size for size, _, _ in alive.values())
    peak, at_peak = total, dict(alive)
    for e in trace:
        if e["action"] == "alloc":
            alive[e["addr"]] = (e["size"], e.get("category"), e.get("frames", []))
            total += e["size"]
        elif e["addr"] in alive:
            total -= alive.pop(e["addr"])[0]
        if total > peak:
            peak, at_peak = total, dict(alive)
    by_category = Counter()
    for size, category, frames in at_peak.values():
        if not leave_out(frames):
            by_category[category or "unknown"] += size
    return peak, by_category


class ScheduledStepsTest(ImportedTrace):
    """Three steps under a schedule: each marked by torch.profiler (PyTorch 1.13's marks have no
    category), each a step of the timeline, and no mark an operation."""

    STEPS = 3
    SCHEDULE = True

    def test_each_marked_step_is_a_step_and_no_operation(self):
        marks = sorted((e for e in self.trace.events if e.get("ph") == "X"
                        and e["name"].startswith("ProfilerStep#")), key=lambda e: ns(e["ts"]))
        self.assertEqual(len(marks), self.STEPS)
        got = rows(self.out + ".timeline.sqlite",
                   "SELECT id, startNs, endNs FROM STEP_TIME ORDER BY startNs")
        # Numbered as marked; PyTorch 1.13 marks its first two steps #0 alike, and its steps
        # are numbered in order from the first.
        numbers = [int(m["name"].split("#")[1]) for m in marks]
        if any(b <= a for a, b in zip(numbers, numbers[1:])):
            numbers = [numbers[0] + k for k in range(len(numbers))]
        self.assertEqual(got, [(n, self.trace.start(m), self.trace.end(m))
                               for n, m in zip(numbers, marks)])
        names = [n for (n,) in rows(self.out + ".time.sqlite",
                                    "SELECT operation_name FROM run_time_entries")]
        self.assertFalse([n for n in names if n.startswith("ProfilerStep#")], names)
        self.assertEqual(names.count("Optimizer.step#AdamW.step"), 1)


class SnapshotTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        record(cls)
        if not os.path.exists(cls.prefix + ".pickle"):
            raise unittest.SkipTest("this torch makes no snapshot of a CPU profile (1.13)")
        with open(cls.prefix + ".pickle", "rb") as f:
            cls.snapshot = pickle.load(f)  # the test's own file
        cls.out = os.path.join(cls.dir.name, "imported")
        result = cli("import", cls.prefix + ".pickle", "-o", cls.out)
        assert result.returncode == 0, result.stderr

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_peak_and_categories_are_the_replay_of_its_trace(self):
        peak, by_category = replay_snapshot(self.snapshot)
        sizes = dict(rows(self.out + ".memory.sqlite", "SELECT key, size_bytes FROM misc_sizes"))
        self.assertEqual(sizes["peak_usage_bytes"], peak)
        self.assertEqual(sizes["peak_activations_bytes"], by_category["activation"])
        self.assertEqual(sizes["peak_gradients_bytes"], by_category["gradient"])
        self.assertEqual(sizes["peak_weights_bytes"], by_category["parameter"])
        self.assertEqual(sizes["peak_optimizer_state_bytes"], by_category["optimizer_state"])
        entries = dict(rows(self.out + ".memory.sqlite",
                            "SELECT operation_name, SUM(size_bytes) FROM activation_entries "
                            "GROUP BY 1"))
        self.assertEqual(entries, {k: v for k, v in by_category.items() if v})
        curve = rows(self.out + ".timeline.sqlite", "SELECT MAX(totalAllocated) FROM MEMORY_RECORD")
        self.assertEqual(curve[0][0], peak)

    def test_the_traces_peak_parts_are_pytorchs_categories(self):
        """The trace of the same profile, imported: its activations and gradients at the peak
        (told by when blocks are allocated and freed) are what PyTorch's memory profiler
        categorizes as such in the snapshot (the snapshot also holds the blocks alive before
        the profile, which the CPU trace's totals do not count). One difference of definition:
        PyTorch calls the loss's gradient, which backward() makes to begin from
        (`_make_grads`), an activation; TrainScope's reports never have (it is no forward
        result saved for the backward pass), so it is left out of PyTorch's figure here."""
        out = os.path.join(self.dir.name, "trace")
        result = cli("import", self.prefix + ".json", "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        _, by_category = replay_snapshot(
            self.snapshot, lambda frames: any("_make_grads" in f["name"] for f in frames))
        sizes = dict(rows(out + ".memory.sqlite", "SELECT key, size_bytes FROM misc_sizes"))
        self.assertEqual(sizes["peak_activations_bytes"], by_category["activation"])
        self.assertEqual(sizes["peak_gradients_bytes"], by_category["gradient"])
        self.assertGreater(by_category["gradient"], 0)

    def test_lines_of_the_blocks_at_the_peak(self):
        lines = {(f, l) for f, l in rows(self.out + ".memory.sqlite",
                                         "SELECT file_path, line_number FROM stack_frames")}
        self.assertTrue(any(os.path.basename(f) == USER_FILE for f, _ in lines), lines)

    def test_show_prints_the_peak(self):
        shown = cli("show", self.prefix + ".pickle")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        peak, _ = replay_snapshot(self.snapshot)
        self.assertIn(f"({peak} bytes)", shown.stdout)

    def test_show_names_the_blocks_at_the_peak_by_category_not_activations(self):
        """A snapshot's entries are every block alive at its peak: show lists them as such, and
        neither calls them activations nor sums them as the iteration's activations (their
        sum is the peak). Each line names one of the snapshot's categories."""
        shown = cli("show", self.prefix + ".pickle").stdout
        self.assertNotIn("Largest activations", shown)
        self.assertNotIn("Over the iteration", shown)
        listing = shown.split("Largest blocks alive at the peak, by category and line:\n")
        self.assertEqual(len(listing), 2, shown)
        peak, by_category = replay_snapshot(self.snapshot)
        listed = [line.split() for line in listing[1].splitlines()
                  if line.startswith("    ")]
        self.assertTrue(listed, shown)
        categories = set(by_category) | {BEFORE}
        for words in listed:
            category = next((c for c in categories if " ".join(words).startswith(c + " ")), None)
            self.assertIsNotNone(category, words)
        summary = cli("show", self.out + ".memory.sqlite").stdout
        entries = rows(self.out + ".memory.sqlite",
                       "SELECT COUNT(*), SUM(size_bytes) FROM activation_entries")[0]
        self.assertIn(f"blocks alive at the peak, by category and line: {entries[0]}, "
                      f"{entries[1]} B", summary)
        self.assertEqual(entries[1], peak)


class Evil:
    def __reduce__(self):
        return (os.system, ("touch " + os.path.join(tempfile.gettempdir(), "trainscope-pwned"),))


class HostileFilesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def written(self, name, content):
        path = os.path.join(self.dir.name, name)
        with open(path, "wb") as f:
            f.write(content)
        return path

    def refused(self, name, content, says):
        path = self.written(name, content)
        out = os.path.join(self.dir.name, "out")
        result = cli("import", path, "-o", out)
        self.assertEqual(result.returncode, 1, result.stdout)
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len([l for l in lines if not l.startswith("[import]")]), 1, lines)
        self.assertIn(says, lines[-1])
        self.assertEqual([f for f in os.listdir(self.dir.name) if f.startswith("out")], [])

    def test_refused_in_one_line_with_nothing_left(self):
        good = {"schemaVersion": 1, "traceEvents": [
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1.5,
             "dur": 2}]}
        text = json.dumps(good).encode()
        self.refused("cut.json", text[: len(text) // 2], "ends early")
        self.refused("cut.json.gz", gzip.compress(text)[:-12], "ends early")
        # After the last member: zeros are padding (as gunzip reads them), other bytes refused
        # for what they are, not as a damaged gzip header.
        padded = self.written("padded.json.gz", gzip.compress(text) + bytes(600))
        self.assertEqual(cli("import", padded, "-o", padded + ".out").returncode, 0)
        for name in os.listdir(self.dir.name):
            if ".out." in name:
                os.remove(os.path.join(self.dir.name, name))
        self.refused("appended.json.gz", gzip.compress(text) + b"notes",
                     "holds other bytes after its gzip data")
        self.refused("not.json", b"{\"traceEvents\": [}", "is not JSON")
        nan = json.dumps({"traceEvents": [dict(good["traceEvents"][0], dur=float("nan"))],
                          "schemaVersion": 1}).encode()
        self.refused("nan.json", nan, "not a number")
        other = {"traceEvents": [{"ph": "X", "name": "frame", "pid": 1, "tid": 1, "ts": 0,
                                  "dur": 5}]}
        self.refused("other.json", json.dumps(other).encode(), "another tool")
        self.refused("empty.json", b"", "is empty")
        huge = {"schemaVersion": 1, "traceEvents": good["traceEvents"] + [
            {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2, "args": {
                "Bytes": 1 << 62, "Total Allocated": 1 << 62, "Addr": 8}}]}
        self.refused("huge.json", json.dumps(huge).encode(), "impossible size")
        unplaced = {"schemaVersion": 1, "traceEvents": good["traceEvents"] + [
            {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2, "args": {
                "Bytes": 64, "Total Allocated": 64}}]}
        self.refused("noaddr.json", json.dumps(unplaced).encode(), "without its address")
        self.refused("nothing.json", b"{\"schemaVersion\": 1, \"traceEvents\": []}",
                     "holds no operations")
        negative = {"schemaVersion": 1, "traceEvents": good["traceEvents"] + [
            {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2, "args": {
                "Bytes": -64, "Total Allocated": -1, "Addr": 8}}]}
        self.refused("negative.json", json.dumps(negative).encode(),
                     "total allocated or reserved is negative")

    def test_a_pickle_that_would_run_code_is_not_run(self):
        marker = os.path.join(tempfile.gettempdir(), "trainscope-pwned")
        if os.path.exists(marker):
            os.remove(marker)
        self.refused("evil.pickle", pickle.dumps({"segments": [Evil()]}), "would run code")
        self.assertFalse(os.path.exists(marker))
        self.refused("cut.pickle", pickle.dumps({"segments": [], "device_traces": [[]]})[:-3],
                     "ends early")
        self.refused("foreign.pickle", pickle.dumps({"weights": [1, 2, 3]}),
                     "not a memory snapshot")
        many = {"segments": [], "device_traces": [[
            {"action": "alloc", "addr": i, "size": 1 << 49, "frames": []} for i in range(4096)]]}
        self.refused("many.pickle", pickle.dumps(many), "more than any machine holds")
        # A memo entry put at a huge index asks for nothing: the memo holds what the file
        # stored. One slot per index took 4 GiB. (Measured as the reader's largest resident
        # size, from a process of its own: an address-space limit would stop AddressSanitizer's
        # builds, which reserve terabytes.)
        sparse = b"\x80\x02]r\xff\xff\xff\x0f."
        path = self.written("sparse.pickle", sparse)
        measure = ("import resource, subprocess, sys\n"
                   "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
                   "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
                   "print(r.stderr, end='')\n")
        measured = subprocess.run([sys.executable, "-c", measure, CLI, "import", path, "-o",
                                   os.path.join(self.dir.name, "out")],
                                  capture_output=True, text=True, timeout=300)
        first, _, said = measured.stdout.partition("\n")
        code, kib = map(int, first.split())
        self.assertEqual(code, 1, measured.stdout)
        self.assertIn("not a memory snapshot", said)
        self.assertLess(kib, 1 << 20, said)  # under 1 GiB resident

    def test_names_from_the_file_cannot_drive_the_terminal(self):
        """An operation name may hold an escape sequence (recolouring, clearing), a carriage
        return (overwriting the line) or a right-to-left override: show writes them as visible
        escapes; other characters, and its own newlines, as they are."""
        name = "aten::mm\x1b[2J\x1b[31mred\rover\u202eevil\x00\x85 é 中"
        trace = copy.deepcopy(ONE_CALL_TRACE)
        trace["traceEvents"][0]["name"] = name
        path = self.written("names.json", json.dumps(trace).encode())
        shown = subprocess.run([CLI, "show", path], capture_output=True, timeout=120)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        out = shown.stdout.decode()
        for control in ("\x1b", "\r", "\u202e", "\x00", "\x85"):
            self.assertNotIn(control, out)
        self.assertIn("aten::mm\\x1b[2J\\x1b[31mred\\x0dover\\u202eevil\\x00\\u0085 é 中",
                      out)
        self.assertIn("\n  Most expensive operations", out)

    def test_a_damaged_snapshot_is_refused_not_counted_as_zero(self):
        """PyTorch writes every block's and event's size as a byte count and every event's
        address: one without is a damaged file, refused in one line, where it was read as a
        block of 0 bytes at address 0. A snapshot with nothing in it is refused as an empty
        trace is."""
        def damaged(change):
            snapshot = copy.deepcopy(ONE_BLOCK_SNAPSHOT)
            change(snapshot)
            return pickle.dumps(snapshot)
        event = lambda s: s["device_traces"][0][0]
        for size in (-1, 1.5, "1024", None):
            self.refused("size.pickle", damaged(lambda s: event(s).update(size=size)),
                         "entry 0 (alloc) has no byte count as its size")
        self.refused("addr.pickle", damaged(lambda s: event(s).pop("addr")),
                     "entry 0 (alloc) has no address")
        self.refused("block.pickle",
                     damaged(lambda s: s["segments"][0]["blocks"][0].update(size=-5)),
                     "segment 0's block 0 has no byte count as its size")
        self.refused("noevent.pickle", damaged(lambda s: s["device_traces"][0].append(7)),
                     "entry 1 is no event")
        self.refused("empty.pickle", pickle.dumps({"segments": [], "device_traces": [[]]}),
                     "holds no memory")

    def test_a_snapshot_without_a_trace_is_the_memory_when_dumped(self):
        path = self.written("dump.pickle",
                            pickle.dumps(dict(ONE_BLOCK_SNAPSHOT, device_traces=[])))
        shown = cli("show", path)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("(1024 bytes)", shown.stdout)
        self.assertIn("it holds no trace", shown.stdout)
        self.assertIn("alive when dumped", shown.stdout)
        self.assertNotIn("before the trace", shown.stdout)

    def test_a_snapshot_without_times_shows_spans_as_counts_of_events(self):
        """Its timeline places the events 1 us apart in order: the timeline's summary says so
        and counts events where it would print milliseconds."""
        snapshot = copy.deepcopy(ONE_BLOCK_SNAPSHOT)
        alloc = snapshot["device_traces"][0][0]
        del alloc["time_us"]
        snapshot["device_traces"][0] += [
            dict(alloc, addr=8192, size=256), dict(alloc, action="free_completed", addr=8192,
                                                   size=256)]
        path = self.written("untimed.pickle", pickle.dumps(snapshot))
        out = os.path.join(self.dir.name, "untimed")
        self.assertEqual(cli("import", path, "-o", out).returncode, 0)
        shown = cli("show", out + ".timeline.sqlite").stdout
        self.assertIn("times: none in the file", shown)
        self.assertIn("256 B (256 B)  unknown, freed after 1 event\n", shown)
        self.assertNotIn(" ms", shown)

    def test_the_device_read_is_named_and_the_others_counted(self):
        snapshot = copy.deepcopy(ONE_BLOCK_SNAPSHOT)
        other = dict(snapshot["device_traces"][0][0], addr=1 << 30)
        snapshot["device_traces"] = [[other], snapshot["device_traces"][0] * 1 + [
            dict(other, addr=8192, size=64)]]
        snapshot["segments"][0]["device"] = 1
        path = self.written("devices.pickle", pickle.dumps(snapshot))
        shown = cli("show", path)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("the memory of device 1 (the one with the most trace events; another "
                      "device's trace is not read)", shown.stdout)
        self.assertIn("(1088 bytes)", shown.stdout)

    def test_a_trace_names_the_device_whose_memory_it_reads(self):
        trace = copy.deepcopy(ONE_CALL_TRACE)
        for device_type, address in ((0, 64), (1, 1 << 30), (0, 128)):
            trace["traceEvents"].append(
                {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2, "args": {
                    "Bytes": 32, "Total Allocated": 32, "Addr": address,
                    "Device Type": device_type, "Device Id": device_type - 1}})
        path = self.written("devices.json", json.dumps(trace).encode())
        shown = cli("show", path)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("the memory of CUDA device 0 (2 memory events of other devices are not "
                      "read)", shown.stdout)
        # Its events hold no reserved totals: not recorded, not 0 B below 32 B allocated.
        out = os.path.join(self.dir.name, "devices")
        self.assertEqual(cli("import", path, "-o", out).returncode, 0)
        timeline = cli("show", out + ".timeline.sqlite").stdout
        self.assertIn("peak allocated 32 B (32 B), peak reserved not recorded,", timeline)

    def test_an_address_holds_one_block(self):
        """Two allocations at one address without a free between (a damaged trace): the
        second replaces the first, so the peak is what the blocks alive then add up to."""
        snapshot = copy.deepcopy(ONE_BLOCK_SNAPSHOT)
        alloc = snapshot["device_traces"][0][0]
        snapshot["device_traces"][0].insert(0, dict(alloc, size=512, time_us=0))
        path = self.written("twice.pickle", pickle.dumps(snapshot))
        out = os.path.join(self.dir.name, "twice")
        self.assertEqual(cli("import", path, "-o", out).returncode, 0)
        peak = rows(out + ".memory.sqlite",
                    "SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'")[0][0]
        listed = rows(out + ".memory.sqlite", "SELECT SUM(size_bytes) FROM activation_entries")
        self.assertEqual(peak, 1024)
        self.assertEqual(listed[0][0], peak)


# A trace of one operation and no memory events (a run time report and a timeline), and a
# snapshot of one block (a memory report and a timeline): plain data, as each tool writes it.
ONE_CALL_TRACE = {"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1.5, "dur": 2}]}
ONE_BLOCK_SNAPSHOT = {
    "segments": [{"device": 0, "address": 4096, "total_size": 4096, "stream": 0,
                  "segment_type": "small", "allocated_size": 1024, "active_size": 1024,
                  "blocks": [{"address": 4096, "size": 1024, "state": "active_allocated",
                              "frames": []}]}],
    "device_traces": [[{"action": "alloc", "addr": 4096, "size": 1024, "stream": 0,
                        "time_us": 1, "frames": []}]]}


class OutputsTest(unittest.TestCase):
    """Where import writes: PREFIX's reports are one set, never the file being imported, and
    never files named by a suffix alone."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.trace = self.path("trace.json")
        with open(self.trace, "w") as f:
            json.dump(ONE_CALL_TRACE, f)
        self.snapshot = self.path("snapshot.pickle")
        with open(self.snapshot, "wb") as f:
            pickle.dump(ONE_BLOCK_SNAPSHOT, f)

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_a_forced_import_replaces_the_whole_set(self):
        run = self.path("run")
        self.assertEqual(cli("import", self.trace, "-o", run).returncode, 0)
        self.assertTrue(os.path.exists(run + ".time.sqlite"))
        refused = cli("import", self.snapshot, "-o", run)
        self.assertEqual(refused.returncode, 1, refused.stdout)
        self.assertIn("--force", refused.stderr)
        forced = cli("import", self.snapshot, "-o", run, "--force")
        self.assertEqual(forced.returncode, 0, forced.stderr)
        # The trace's run time report would sit beside the snapshot's as if of one run.
        self.assertFalse(os.path.exists(run + ".time.sqlite"))
        self.assertIn(f"Removed {run}.time.sqlite", forced.stdout)
        made = sorted(f for f in os.listdir(self.dir.name) if f.startswith("run"))
        self.assertEqual(made, ["run.memory.sqlite", "run.timeline.sqlite"])
        imported = rows(run + ".memory.sqlite",
                        "SELECT value FROM trainscope_metadata WHERE key = 'imported_from'")
        self.assertEqual(imported, [(self.snapshot,)])

    def test_show_knows_a_file_by_its_content_not_its_name(self):
        """A gzipped snapshot, a trace named as PyTorch's checkpoints are, and a trace behind a
        byte order mark are shown as `import` reads them."""
        packed = self.path("snap.pickle.gz")
        with gzip.open(packed, "wb") as f:
            pickle.dump(ONE_BLOCK_SNAPSHOT, f)
        named = self.path("trace.pt")
        with gzip.open(named, "wt") as f:
            json.dump(ONE_CALL_TRACE, f)
        marked = self.path("marked.json")
        with open(marked, "w", encoding="utf-8-sig") as f:
            json.dump(ONE_CALL_TRACE, f)
        for path, what in ((packed, "memory snapshot"), (named, "torch.profiler trace"),
                           (marked, "torch.profiler trace")):
            shown = cli("show", path)
            self.assertEqual(shown.returncode, 0, path + ": " + shown.stderr)
            self.assertIn(f"imported {what} {path}", shown.stdout)
            self.assertEqual(cli("import", path, "-o", path + ".out").returncode, 0, path)
        # A report named as a trace is still a report.
        report = self.path("report.json")
        shutil.copyfile(self.path("marked.json.out.timeline.sqlite"), report)
        shown = cli("show", report)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("timeline", shown.stdout)

    def test_a_trace_without_steps_says_its_whole_recording_is_the_iteration(self):
        shown = cli("show", self.trace)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("Steps: the trace has no ProfilerStep marks and no optimizer step: its "
                      "whole recording, ", shown.stdout)

    def test_a_gpu_trace_without_launches_says_its_times_are_cpu_times_and_why(self):
        # A kernel whose launch the trace lacks joins no operation: the times stay the CPU's,
        # and the kernel is counted and said.
        trace = copy.deepcopy(ONE_CALL_TRACE)
        trace["traceEvents"].append({"ph": "X", "cat": "kernel", "name": "volta_sgemm",
                                     "pid": 0, "tid": 7, "ts": 2, "dur": 1,
                                     "args": {"correlation": 5}})
        path = self.path("gpu.json")
        with open(path, "w") as f:
            json.dump(trace, f)
        shown = cli("show", path)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("Operation times are CPU times, each call's span on its thread\n",
                      shown.stdout)
        self.assertIn("Device work: 1 kernel, 0 copies, 0 sets on 1 stream; 0 joined to the "
                      "operation that launched them, 1 without their launch in the trace",
                      shown.stdout)

    def test_a_name_of_a_megabyte_is_shown_cut(self):
        trace = copy.deepcopy(ONE_CALL_TRACE)
        trace["traceEvents"][0]["name"] = "aten::" + "x" * 1_000_000
        path = self.path("long.json")
        with open(path, "w") as f:
            json.dump(trace, f)
        shown = cli("show", path)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertLess(len(shown.stdout), 10_000)
        self.assertIn("aten::" + "x" * 194 + "\u2026 (1000006 bytes)", shown.stdout)

    def test_a_launch_outside_operations_is_no_operation(self):
        trace = copy.deepcopy(ONE_CALL_TRACE)
        trace["traceEvents"].append({"ph": "X", "cat": "cuda_runtime",
                                     "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1,
                                     "ts": 4, "dur": 3})
        path = self.path("launch.json")
        with open(path, "w") as f:
            json.dump(trace, f)
        out = self.path("launch")
        self.assertEqual(cli("import", path, "-o", out).returncode, 0)
        self.assertEqual(rows(out + ".time.sqlite", "SELECT operation_name FROM run_time_entries"),
                         [("aten::mm",)])

    def test_an_invalid_utf8_name_is_exported_as_valid_json(self):
        path = self.path("bytes.json")
        with open(path, "wb") as f:
            f.write(json.dumps(ONE_CALL_TRACE).replace("aten::mm", "aten::mm\\u0000").encode()
                    .replace(b"\\u0000", b"\xff\xc0\x80\xed\xa0\x80\xe2\x82\xac"))
        out = self.path("bytes")
        imported = subprocess.run([CLI, "import", path, "-o", out], capture_output=True,
                                  timeout=120)  # its summary prints the name's bytes as they are
        self.assertEqual(imported.returncode, 0, imported.stderr)
        exported = cli("export", "--chrome-trace", self.path("t.json"), out + ".timeline.sqlite")
        self.assertEqual(exported.returncode, 0, exported.stderr)
        with open(self.path("t.json"), encoding="utf-8") as f:  # strict: raises on bad bytes
            names = [e.get("name") for e in json.load(f)["traceEvents"]]
        # Each byte that begins no valid sequence (0xff, an overlong NUL, a surrogate) is
        # U+FFFD; the euro sign is kept.
        self.assertIn("aten::mm" + "\ufffd" * 6 + "\u20ac", names)

    def test_a_lost_free_is_the_files_and_the_peaks_parts_add_up(self):
        """A block allocated where another is alive: the file lost that one's free, which its
        totals never counted after it (the peak's parts added it: Other 160 B of a 96 B peak)."""
        trace = copy.deepcopy(ONE_CALL_TRACE)
        trace["traceEvents"][0]["dur"] = 5
        trace["traceEvents"] += [
            {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": ts,
             "args": {"Bytes": size, "Total Allocated": total, "Addr": address}}
            for ts, size, total, address in ((2, 64, 64, 8), (3, 64, 64, 8), (4, 32, 96, 16))]
        path = self.path("lost.json")
        with open(path, "w") as f:
            json.dump(trace, f)
        out = self.path("lost")
        result = cli("import", path, "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        sizes = dict(rows(out + ".memory.sqlite", "SELECT key, size_bytes FROM misc_sizes"))
        self.assertEqual(sizes["peak_usage_bytes"], 96)
        self.assertEqual(sum(v for k, v in sizes.items()
                             if k.startswith("peak_") and k != "peak_usage_bytes"
                             and k not in ("peak_unsharded_parameter_bytes",
                                           "peak_reduce_scatter_bytes")), 96)
        self.assertIn("the file lost the free of the blocks there before", result.stdout)
        self.assertNotIn("c10", result.stdout)

    def test_a_memory_event_written_twice_is_refused(self):
        """Every memory event of a recorded trace twice: each block would count twice, and the
        peak's parts exceeded the peak (Other 3.7 MiB of a 962.8 KiB peak)."""
        trace = copy.deepcopy(ONE_CALL_TRACE)
        event = {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2,
                 "args": {"Bytes": 64, "Total Allocated": 64, "Addr": 8}}
        trace["traceEvents"] += [event, {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1,
                                         "ts": 2, "args": {"Bytes": 32, "Total Allocated": 96,
                                                           "Addr": 80}}, dict(event)]
        path = self.path("twice.json")
        with open(path, "w") as f:
            json.dump(trace, f)
        shown = cli("show", path)
        self.assertEqual(shown.returncode, 1, shown.stdout)
        self.assertIn("is a damaged trace: a memory event is written twice", shown.stderr)
        self.assertNotIn("c10", shown.stderr)

    def test_force_replaces_reports_never_another_file(self):
        notes = self.path("r2.time.sqlite")
        with open(notes, "w") as f:
            f.write("notes\n")
        for extra in ((), ("--force",)):
            result = cli("import", self.snapshot, "-o", self.path("r2"), *extra)
            self.assertEqual(result.returncode, 1, result.stdout)
            self.assertIn(f"'{notes}' exists and is not a report; --force replaces reports, "
                          "never another file", result.stderr)
        with open(notes) as f:
            self.assertEqual(f.read(), "notes\n")
        self.assertEqual(sorted(os.listdir(self.dir.name)),
                         ["r2.time.sqlite", "snapshot.pickle", "trace.json"])

    def test_never_over_the_file_being_imported(self):
        held = self.path("x.time.sqlite")
        shutil.copyfile(self.trace, held)
        result = cli("import", held, "-o", self.path("x"), "--force")
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("is the file being imported", result.stderr)
        with open(held) as f:
            self.assertEqual(json.load(f), ONE_CALL_TRACE)
        self.assertEqual(sorted(os.listdir(self.dir.name)),
                         ["snapshot.pickle", "trace.json", "x.time.sqlite"])

    def test_a_folder_is_no_prefix(self):
        folder = self.path("out")
        os.mkdir(folder)
        for prefix in (folder + "/", folder + "/."):
            result = cli("import", self.trace, "-o", prefix)
            self.assertEqual(result.returncode, 2, result.stdout)
            self.assertIn("names a folder", result.stderr)
        self.assertEqual(os.listdir(folder), [])

    def test_a_named_pipe_is_refused_not_waited_on(self):
        pipe = self.path("pipe.json")
        os.mkfifo(pipe)
        for command in (["show", pipe], ["import", pipe, "-o", self.path("p")]):
            result = cli(*command)  # cli()'s timeout fails the test where it would wait
            self.assertEqual(result.returncode, 1, result.stdout)
            self.assertIn("a FIFO (named pipe), not a file", result.stderr)


if __name__ == "__main__":
    unittest.main()
