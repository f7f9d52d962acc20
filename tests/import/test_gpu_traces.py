# SPDX-License-Identifier: Apache-2.0
"""`trainscope-cli import` of real GPU traces (tests/data/gpu-traces: A100, V100, MI250, recorded by
others) held against the JSON, read here with Python's own `json`: every kernel, copy and set a
row of the timeline's TASK with its time to the nanosecond, joined to its launch (CANN_API) and
to the operation that launched it; the device time of each launching operation; the run time
report's times the device's, with the CPU's beside them.

    TRAINSCOPE_CLI=... python3 test_gpu_traces.py
"""
import decimal
import gzip
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import unittest
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "data", "gpu-traces")
CLI = os.environ["TRAINSCOPE_CLI"]
DEVICE_WORK = ("kernel", "gpu_memcpy", "gpu_memset")
LAUNCHES = ("cuda_runtime", "cuda_driver")


def ns(value):
    return int(decimal.Decimal(value) * 1000)


def rows(path, sql):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


class Trace:
    """What this test reads of a trace on its own: its device work, each one's launch (by
    correlation) and the operation around the launch (the innermost cpu_op on its thread)."""

    def __init__(self, name):
        with gzip.open(os.path.join(TRACES, name)) as f:
            data = json.loads(f.read(), parse_float=decimal.Decimal)
        self.base = int(data.get("baseTimeNanoseconds", 0))
        complete = [e for e in data["traceEvents"] if e.get("ph") == "X"]
        self.work = [e for e in complete if e.get("cat") in DEVICE_WORK]
        self.launch = {e["args"]["correlation"]: e for e in complete
                       if e.get("cat") in LAUNCHES}
        self.operations = defaultdict(list)  # thread -> (start, end, name)
        for e in complete:
            if e.get("cat") == "cpu_op":
                start = ns(e["ts"])
                self.operations[(e["pid"], e["tid"])].append((start, start + ns(e["dur"]),
                                                              e["name"]))

    def launcher(self, task):
        """(epoch start ns, name) of the operation that launched `task`; None for none."""
        launch = self.launch[task["args"]["correlation"]]
        start = ns(launch["ts"])
        end = start + ns(launch["dur"])
        around = [o for o in self.operations[(launch["pid"], launch["tid"])]
                  if o[0] <= start and end <= o[1]]
        if not around:
            return None
        inner = max(around, key=lambda o: (o[0], -o[1]))
        return inner[0] + self.base, inner[2]

    def device_time_by_launcher(self):
        times = Counter()
        for task in self.work:
            launcher = self.launcher(task)
            if launcher:
                times[launcher] += ns(task["dur"])
        return dict(times)


class GpuTraces(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.imported = {}
        for name in ("a100_alexnet", "v100_rank0.pt.trace", "a100_triton", "mi250_train",
                     "a100_nccl_rank0"):
            prefix = os.path.join(cls.folder.name, name)
            result = subprocess.run([CLI, "import", "-q", os.path.join(TRACES, name + ".json.gz"),
                                     "-o", prefix], capture_output=True, text=True, timeout=300)
            assert result.returncode == 0, result.stderr
            cls.imported[name] = (prefix, Trace(name + ".json.gz"))

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_every_kernel_copy_and_set_is_a_task_at_its_time_on_its_stream(self):
        for name, (prefix, trace) in self.imported.items():
            with self.subTest(trace=name):
                timeline = prefix + ".timeline.sqlite"
                tasks = rows(timeline, "SELECT t.startNs, t.endNs, t.deviceId, t.streamId, "
                             "s.value FROM TASK t JOIN STRING_IDS s ON s.id = t.taskType")
                expected = Counter((ns(e["ts"]) + trace.base, ns(e["ts"]) + ns(e["dur"]) +
                                    trace.base, e["pid"], e["tid"],
                                    {"kernel": "kernel", "gpu_memcpy": "memcpy",
                                     "gpu_memset": "memset"}[e["cat"]]) for e in trace.work)
                self.assertEqual(Counter(tasks), expected)
                self.assertTrue(tasks)
                names = rows(timeline, "SELECT s.value FROM TASK t JOIN COMPUTE_TASK_INFO c ON "
                             "c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON s.id = c.name")
                self.assertEqual(Counter(n for (n,) in names),
                                 Counter(e["name"] for e in trace.work))

    def test_each_task_is_joined_to_its_launch(self):
        for name, (prefix, trace) in self.imported.items():
            with self.subTest(trace=name):
                joined = rows(prefix + ".timeline.sqlite",
                              "SELECT t.startNs, l.startNs, s.value FROM TASK t JOIN CANN_API l "
                              "ON l.connectionId = t.connectionId JOIN STRING_IDS s "
                              "ON s.id = l.name")
                expected = Counter()
                for task in trace.work:
                    launch = trace.launch[task["args"]["correlation"]]
                    expected[(ns(task["ts"]) + trace.base, ns(launch["ts"]) + trace.base,
                              launch["name"])] += 1
                self.assertEqual(Counter(joined), expected)

    def test_each_operations_device_time_is_that_of_the_work_it_launched(self):
        # The innermost cpu_op around each launch on the launch's thread: through
        # CONNECTION_IDS from its PYTORCH_API row to the launches and their tasks.
        for name, (prefix, trace) in self.imported.items():
            with self.subTest(trace=name):
                found = rows(prefix + ".timeline.sqlite",
                             "SELECT CAST(a.startNs AS INTEGER), s.value, "
                             "SUM(t.endNs - t.startNs) FROM TASK t JOIN CONNECTION_IDS c "
                             "ON c.connectionId = t.connectionId JOIN PYTORCH_API a "
                             "ON a.connectionId = c.id JOIN STRING_IDS s ON s.id = a.name "
                             "GROUP BY a.connectionId")
                self.assertEqual({(start, op): t for start, op, t in found},
                                 trace.device_time_by_launcher())

    def test_the_run_time_reports_times_are_the_devices_with_the_cpus_beside(self):
        # AlexNet's forward, one thread, no steps: the whole trace is its step, and every task
        # was launched in one of its operations.
        prefix, trace = self.imported["a100_alexnet"]
        time = prefix + ".time.sqlite"
        ((device_ms,),) = rows(time, "SELECT SUM(forward_ms) FROM run_time_entries")
        self.assertAlmostEqual(device_ms, sum(ns(e["dur"]) for e in trace.work) / 1e6, places=9)
        ((cpu_ms, entries),) = rows(time, "SELECT SUM(c.forward_ms), COUNT(*) FROM "
                                    "trainscope_entry_cpu_times c JOIN run_time_entries e "
                                    "ON e.id = c.entry_id")
        ((all_entries,),) = rows(time, "SELECT COUNT(*) FROM run_time_entries")
        self.assertEqual(entries, all_entries)
        # The CPU's: the top-level operations' spans on the thread (an operation that starts
        # before the last one's end is inside it).
        ((thread, operations),) = trace.operations.items()
        top, end = [], None
        for start, stop, _ in sorted(operations, key=lambda o: (o[0], -o[1])):
            if end is None or start >= end:
                top.append(stop - start)
                end = stop
        self.assertAlmostEqual(cpu_ms, sum(top) / 1e6, places=6)
        expected = {"operation_times": "device", "device_kernels": "79",
                    "device_copies": "16", "device_sets": "3", "device_streams": "2",
                    "device_tasks_joined": "98", "device_tasks_without_launch": "0",
                    "device_tasks_outside_operations": "0"}
        self.assertEqual(dict(rows(time, "SELECT key, value FROM trainscope_metadata WHERE key "
                                   "IN (%s)" % ", ".join(f"'{k}'" for k in expected))),
                         expected)

    def test_the_listed_steps_device_time_is_split_each_instant_once(self):
        for name in ("v100_rank0.pt.trace", "a100_nccl_rank0"):
            with self.subTest(trace=name):
                self.check_device_time_split(name)

    def check_device_time_split(self, name):
        # The first step (no memory events: the first is listed): the tasks launched in it,
        # from the first's start to the last's end, each instant computation where a kernel
        # runs, else communication (NCCL), else copies and sets, else idle; communication while
        # a kernel computes is hidden behind it.
        prefix, trace = self.imported[name]
        with gzip.open(os.path.join(TRACES, name + ".json.gz")) as f:
            events = json.loads(f.read(), parse_float=decimal.Decimal)["traceEvents"]
        first = min((e for e in events if e.get("name", "").startswith("ProfilerStep#")),
                    key=lambda e: ns(e["ts"]))
        start, end = ns(first["ts"]), ns(first["ts"]) + ns(first["dur"])
        tasks = []
        for task in trace.work:
            launched = ns(trace.launch[task["args"]["correlation"]]["ts"])
            if start <= launched <= end:
                kind = ("memory" if task["cat"] != "kernel" else
                        "communication" if "nccl" in task["name"].lower() else "computation")
                tasks.append((ns(task["ts"]), ns(task["ts"]) + ns(task["dur"]), kind))
        begin, finish = min(t[0] for t in tasks), max(t[1] for t in tasks)
        points = sorted({begin, finish} | {t[0] for t in tasks} | {t[1] for t in tasks})
        split = Counter()
        for a, b in zip(points, points[1:]):
            running = {kind for s, e, kind in tasks if s <= a and b <= e}
            split[next((k for k in ("computation", "communication", "memory") if k in running),
                       "idle")] += b - a
            if {"computation", "communication"} <= running:  # communication hidden
                split["overlapped"] += b - a
        expected = {"device_step_ns": finish - begin,
                    "device_computation_ns": split["computation"],
                    "device_communication_ns": split["communication"],
                    "device_memory_ns": split["memory"], "device_idle_ns": split["idle"],
                    "device_communication_overlapped_ns": split["overlapped"]}
        found = dict(rows(prefix + ".time.sqlite", "SELECT key, value FROM trainscope_metadata "
                          "WHERE key IN (%s)" % ", ".join(f"'{k}'" for k in expected)))
        self.assertEqual({key: int(value) for key, value in found.items()}, expected)
        self.assertGreater(split["idle"], 0)

    def test_the_gpu_and_the_rank_are_named_as_the_trace_names_them(self):
        # deviceProperties (after the events, as in the AlexNet trace, or before) names the GPU
        # the work ran on; distributedInfo the rank, in the metadata and RANK_DEVICE_MAP.
        for name, gpu, memory in (("a100_alexnet", "NVIDIA A100-PG509-200", 42297524224),
                                  ("v100_rank0.pt.trace", "Tesla V100-SXM2-32GB", 34079637504)):
            with self.subTest(trace=name):
                prefix, _ = self.imported[name]
                metadata = dict(rows(prefix + ".time.sqlite", "SELECT key, value FROM "
                                     "trainscope_metadata"))
                self.assertEqual(metadata["device_name"], gpu)
                self.assertEqual(int(metadata["device_memory_bytes"]), memory)
                with gzip.open(os.path.join(TRACES, name + ".json.gz")) as f:
                    named = next(d for d in json.loads(f.read())["deviceProperties"]
                                 if d["name"] == gpu)
                self.assertEqual(int(metadata["device_multiprocessors"]), named["numSms"])
                shown = subprocess.run([CLI, "show", prefix + ".time.sqlite"],
                                       capture_output=True, text=True, timeout=120)
                self.assertIn(f"{gpu}, {memory / 2**30:.2f} GiB, {named['numSms']} SMs, rank 0",
                              shown.stdout)
                self.assertEqual(metadata["rank"], "0")
                self.assertEqual(rows(prefix + ".timeline.sqlite",
                                      "SELECT rankId FROM RANK_DEVICE_MAP"), [(0,)])
        # The trace's other keys are not events.
        prefix, _ = self.imported["a100_alexnet"]
        with gzip.open(os.path.join(TRACES, "a100_alexnet.json.gz")) as f:
            events = len(json.loads(f.read())["traceEvents"])
        ((counted,),) = rows(prefix + ".time.sqlite", "SELECT value FROM trainscope_metadata "
                             "WHERE key = 'trace_events'")
        self.assertEqual(int(counted), events)

    def test_the_listed_steps_collectives_are_its_nccl_kernels(self):
        # Each NCCL kernel the listed step (STEP_TIME's first row) launched: its collective and
        # bytes (the input's elements times its type's size), in the order they ran.
        prefix, trace = self.imported["a100_nccl_rank0"]
        ((start, end),) = rows(prefix + ".timeline.sqlite",
                               "SELECT startNs, endNs FROM STEP_TIME LIMIT 1")
        sizes = {"Float": 4, "Half": 2, "BFloat16": 2, "Double": 8, "Long": 8, "Int": 4}
        expected = [("nccl:" + task["args"]["Collective name"],
                     task["args"]["In msg nelems"] * sizes[task["args"]["dtype"]])
                    for task in sorted(trace.work, key=lambda t: ns(t["ts"]))
                    if "Collective name" in task.get("args", {}) and
                    start <= ns(trace.launch[task["args"]["correlation"]]["ts"]) + trace.base
                    <= end]
        self.assertTrue(expected)
        self.assertEqual(rows(prefix + ".time.sqlite", "SELECT operation_name, bytes FROM "
                              "trainscope_collectives ORDER BY id"), expected)

    def test_each_collective_names_its_group_and_the_computation_beside_it(self):
        # Its process group as the kernel's args name it, and how long a computing kernel (any
        # other than NCCL's, on any stream) ran during it: the median over the steps whose
        # collectives are the listed step's, as its duration is.
        prefix, trace = self.imported["a100_nccl_rank0"]
        computing, end = [], None  # merged
        for start, stop in sorted((ns(k["ts"]), ns(k["ts"]) + ns(k["dur"])) for k in trace.work
                                  if k["cat"] == "kernel" and "nccl" not in k["name"].lower()):
            if computing and start <= computing[-1][1]:
                computing[-1][1] = max(computing[-1][1], stop)
            else:
                computing.append([start, stop])

        def beside(task):
            start, stop = ns(task["ts"]), ns(task["ts"]) + ns(task["dur"])
            return sum(max(0, min(stop, b) - max(start, a)) for a, b in computing)

        steps = rows(prefix + ".timeline.sqlite", "SELECT startNs, endNs FROM STEP_TIME ORDER BY id")
        by_step = []
        for start, end in steps:
            by_step.append([(t["args"]["Collective name"], beside(t))
                            for t in sorted(trace.work, key=lambda t: ns(t["ts"]))
                            if "Collective name" in t.get("args", {}) and start <=
                            ns(trace.launch[t["args"]["correlation"]]["ts"]) + trace.base <= end])
        same = [s for s in by_step if [n for n, _ in s] == [n for n, _ in by_step[0]]]
        expected = [("default_pg (0): ranks [0, 1]", 2,
                     round(statistics.median(s[i][1] for s in same) / 1e6, 9))
                    for i in range(len(by_step[0]))]
        found = rows(prefix + ".time.sqlite", "SELECT process_group, group_size, overlapped_ms "
                     "FROM trainscope_collectives ORDER BY id")
        self.assertEqual([(g, n, round(ms, 9)) for g, n, ms in found], expected)
        self.assertGreater(sum(ms for _, _, ms in found), 0)

    def test_show_says_the_times_are_the_devices(self):
        prefix, _ = self.imported["v100_rank0.pt.trace"]
        shown = subprocess.run([CLI, "show", prefix + ".time.sqlite"], capture_output=True,
                               text=True, timeout=120)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        # The device's sum is named so, and is no share of the CPU's wall clock.
        self.assertIn("sum of operations' device time ", shown.stdout)
        self.assertNotIn("of the iteration", shown.stdout)
        self.assertIn("Operation times are device times: the kernels, copies and sets each "
                      "operation launched (its CPU times are kept beside them)\n  Device work: "
                      "4350 kernels, 1600 copies, 145 sets on 1 stream; 6095 joined to the "
                      "operation that launched them\n", shown.stdout)


class JobRanks(unittest.TestCase):
    """A job's ranks imported together (two ranks of a 128-rank A100 job): from a folder, as
    tensorboard_trace_handler leaves them, each rank's set written as PREFIX.rankR.*, and the
    ranks' device time side by side, held against the JSON."""

    RANKS = ("job128_rank0", "job128_rank1")

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.traces = os.path.join(cls.folder.name, "traces")
        os.mkdir(cls.traces)
        for name in cls.RANKS:
            shutil.copy(os.path.join(TRACES, name + ".json.gz"), cls.traces)
        with open(os.path.join(cls.traces, "notes.txt"), "w") as f:  # not a trace: passed over
            f.write("not a trace\n")
        cls.prefix = os.path.join(cls.folder.name, "job")
        cls.result = subprocess.run([CLI, "import", "-q", cls.traces, "-o", cls.prefix],
                                    capture_output=True, text=True, timeout=300)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_each_ranks_set_is_written_under_its_rank(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(sorted(f for f in os.listdir(self.folder.name) if f != "traces"),
                         ["job.rank0.time.sqlite", "job.rank0.timeline.sqlite",
                          "job.rank1.time.sqlite", "job.rank1.timeline.sqlite"])
        for rank in (0, 1):
            self.assertEqual(rows(f"{self.prefix}.rank{rank}.timeline.sqlite",
                                  "SELECT rankId FROM RANK_DEVICE_MAP"), [(rank,)])

    def test_the_ranks_device_time_is_split_as_the_json_says(self):
        # Each rank's first step, as its GPU ran it: the tasks cut to the step's interval, each
        # instant computation (kernels, copies, sets) over communication (NCCL's kernels) over
        # idle; communication while a kernel computes is overlapped.
        table = self.result.stdout.split("idle\n", 1)[1].splitlines()
        for rank, name in enumerate(self.RANKS):
            with self.subTest(rank=rank):
                trace = Trace(name + ".json.gz")
                with gzip.open(os.path.join(TRACES, name + ".json.gz")) as f:
                    events = json.loads(f.read(), parse_float=decimal.Decimal)["traceEvents"]
                first = min((e for e in events if e.get("name", "").startswith("ProfilerStep#")),
                            key=lambda e: ns(e["ts"]))
                start, end = ns(first["ts"]), ns(first["ts"]) + ns(first["dur"])
                tasks = [(max(ns(t["ts"]), start), min(ns(t["ts"]) + ns(t["dur"]), end),
                          "communication" if "nccl" in t["name"].lower() else "computation")
                         for t in trace.work
                         if ns(t["ts"]) < end and ns(t["ts"]) + ns(t["dur"]) > start]
                points = sorted({start, end} | {t[0] for t in tasks} | {t[1] for t in tasks})
                split = Counter()
                for a, b in zip(points, points[1:]):
                    running = {kind for s, e, kind in tasks if s <= a and b <= e}
                    split["computation" if "computation" in running else
                          "communication" if running else "idle"] += b - a
                    if len(running) == 2:
                        split["overlapped"] += b - a
                self.assertGreater(split["overlapped"], 0)
                expected = [str(rank), "2", None, "%.3f" % ((end - start) / 1e6),
                            "%.3f" % (split["computation"] / 1e6),
                            "%.3f" % ((split["communication"] + split["overlapped"]) / 1e6),
                            "%.3f" % (split["overlapped"] / 1e6), "%.3f" % (split["idle"] / 1e6)]
                shown = [v for v in table[rank].split() if v != "ms"]
                shown[2] = None  # the median step
                self.assertEqual(shown, expected)
        self.assertIn("(the broken-down step is each rank's first, as its GPU ran it",
                      self.result.stdout)

    def test_each_steps_collectives_are_the_nccl_kernels_it_launched(self):
        # Without their args (this job's NCCL predates them), named by their kernels; the ranks'
        # summary matches them across the ranks by name and order.
        for rank, name in enumerate(self.RANKS):
            with self.subTest(rank=rank):
                trace = Trace(name + ".json.gz")
                timeline = f"{self.prefix}.rank{rank}.timeline.sqlite"
                expected = Counter()
                for step, start, end in rows(timeline, "SELECT id, startNs, endNs FROM STEP_TIME"):
                    for task in trace.work:
                        launched = ns(trace.launch[task["args"]["correlation"]]["ts"]) + trace.base
                        if "nccl" in task["name"].lower() and start <= launched <= end:
                            expected[(step, "nccl:" + task["name"].split("(")[0],
                                      round(int(task["dur"]) / 1e3, 6))] += 1
                self.assertTrue(expected)
                found = rows(timeline, "SELECT step_id, name, duration_ms FROM "
                             "trainscope_step_collectives")
                self.assertEqual(Counter((s, n, round(d, 6)) for s, n, d in found), expected)

    def test_a_folder_of_one_trace_is_that_traces_import_and_of_none_is_refused(self):
        with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as out:
            with open(os.path.join(folder, "notes.txt"), "w") as f:
                f.write("no trace here\n")
            result = subprocess.run([CLI, "import", "-q", folder, "-o", os.path.join(out, "job")],
                                    capture_output=True, text=True, timeout=120)
            self.assertEqual(result.returncode, 1)
            self.assertEqual(result.stderr.splitlines(),
                             [f"trainscope-cli: error: the folder '{folder}' holds no "
                              "torch.profiler trace (.json, .json.gz)"])
            self.assertEqual(os.listdir(out), [])
            shutil.copy(os.path.join(TRACES, "a100_triton.json.gz"), folder)
            result = subprocess.run([CLI, "import", "-q", folder, "-o", os.path.join(out, "one")],
                                    capture_output=True, text=True, timeout=120)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(sorted(os.listdir(out)), ["one.time.sqlite", "one.timeline.sqlite"])

    def test_a_forced_import_that_fails_leaves_the_job_as_it_was(self):
        # A job imported, then imported again over it with --force from a damaged rank 1: the
        # first import's reports unchanged, byte for byte, and nothing else left beside them.
        with tempfile.TemporaryDirectory() as out:
            prefix = os.path.join(out, "job")
            ranks = [os.path.join(TRACES, name + ".json.gz") for name in self.RANKS]
            first = subprocess.run([CLI, "import", "-q"] + ranks + ["-o", prefix],
                                   capture_output=True, text=True, timeout=300)
            self.assertEqual(first.returncode, 0, first.stderr)
            before = {}
            for name in sorted(os.listdir(out)):
                with open(os.path.join(out, name), "rb") as f:
                    before[name] = f.read()
            damaged = os.path.join(out, "damaged.json")
            with gzip.open(ranks[1]) as f:
                text = f.read()
            with open(damaged, "wb") as f:
                f.write(text[:len(text) // 2])  # cut off
            again = subprocess.run([CLI, "import", "-q", "--force", ranks[0], damaged, "-o",
                                    prefix], capture_output=True, text=True, timeout=300)
            self.assertEqual(again.returncode, 1)
            self.assertIn("ends early", again.stderr)
            os.remove(damaged)
            after = {}
            for name in sorted(os.listdir(out)):
                with open(os.path.join(out, name), "rb") as f:
                    after[name] = f.read()
            self.assertEqual(after, before)

    def test_a_rank_given_twice_or_a_trace_without_one_writes_nothing(self):
        rank0 = os.path.join(TRACES, "job128_rank0.json.gz")
        for traces, said in (([rank0, os.path.join(self.traces, "job128_rank0.json.gz")],
                              "are both rank 0: they are not the traces of one job's ranks"),
                             ([rank0, os.path.join(TRACES, "a100_triton.json.gz")],
                              "names no rank (the trace has no distributedInfo)")):
            with self.subTest(said=said), tempfile.TemporaryDirectory() as out:
                result = subprocess.run([CLI, "import", "-q"] + traces +
                                        ["-o", os.path.join(out, "job")],
                                        capture_output=True, text=True, timeout=300)
                self.assertEqual(result.returncode, 1)
                self.assertIn(said, result.stderr)
                self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
                self.assertEqual(os.listdir(out), [])  # rank 0's set, written first, removed


if __name__ == "__main__":
    unittest.main()
