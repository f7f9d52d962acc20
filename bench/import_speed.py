#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How fast `trainscope-cli import` reads a large torch.profiler trace, and in how much memory
(issue 71's targets: >= 30 MB/s on this machine, resident memory <= the file's size).

The trace: a real one recorded by tests/fixtures/make_profiler_trace.py (with the Python given,
PyTorch 2.x for memory events, stacks and modules), its step repeated as ProfilerStep#1..N with
its times shifted and its flows renumbered, as a profile with a schedule of N active steps
writes it, until the file is MEGABYTES large; also gzipped. Each file is imported three times,
each run in its own process; the figures are read from the kernel (wall time, and the
process's peak resident set from wait4's rusage).

    python3 bench/import_speed.py CLI RECORDER_PYTHON [MEGABYTES]
    python3 bench/import_speed.py CLI --snapshot [ENTRIES]
    python3 bench/import_speed.py CLI --gpu [SEED.json.gz [MEGABYTES [PYTHON_WITH_HTA]]]

Prints the median run's MB/s against 30 and its peak resident memory against the file's size.
With --snapshot, the same for a CUDA memory snapshot of ENTRIES trace entries (default 60,000:
allocations of 512 B to 1 MiB and their frees, each with 12 frames of 60 files, and the
blocks alive at the end in one segment), pickled by Python as `_dump_snapshot` does. With --gpu,
a real GPU trace (default: tests/data/gpu-traces' V100 training steps) repeated until MEGABYTES
(default 200), against issue 91's targets (>= 60 MB/s, <= 0.5x the file); given a Python with
HolisticTraceAnalysis, its load of the same file beside (bench/hta_load.py).
"""
import decimal
import gzip
import json
import os
import pickle
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER = os.path.join(HERE, "..", "tests", "fixtures", "make_profiler_trace.py")
GPU_SEED = os.path.join(HERE, "..", "tests", "data", "gpu-traces", "v100_rank0.pt.trace.json.gz")
GPU_TARGETS = (60, 0.50)  # issue 91: a GPU trace's raw JSON at >= 60 MB/s, in <= 0.5x its size


def load_seed(seed):
    """A trace's events, read exactly (ts as decimals), with its first time and span."""
    events = seed["traceEvents"]
    timed = [e for e in events if e.get("ph") != "M"]
    first = min(decimal.Decimal(e["ts"]) for e in timed if "ts" in e)
    last = max(decimal.Decimal(e["ts"]) + decimal.Decimal(e.get("dur", 0)) for e in timed
               if "ts" in e)
    return events, timed, first, last - first + 100


def write_repeated(seed, out_path, megabytes, copy_of):
    """The seed's header and metadata events, then copy_of(n) (the JSON texts of the n-th copy
    of its events) for n = 0, 1, ... until the file is MEGABYTES large. Returns the copies."""
    header = {k: v for k, v in seed.items() if k != "traceEvents"}
    copies = 0
    with open(out_path, "w") as out:
        text = json.dumps(header, default=float)
        out.write(text[:-1] + ', "traceEvents": [')
        out.write(",\n".join(json.dumps(e, default=float) for e in seed["traceEvents"]
                             if e.get("ph") == "M"))
        while out.tell() < megabytes << 20:
            out.write(",\n" + ",\n".join(copy_of(copies)))
            copies += 1
        out.write("]}")
    return copies


def build_trace(seed_path, out_path, megabytes):
    with open(seed_path, "rb") as f:
        seed = json.loads(f.read(), parse_float=decimal.Decimal)
    _, step, first, span = load_seed(seed)
    ids = max(e.get("id", 0) for e in step if e.get("cat") == "fwdbwd") + 1

    def copy_of(n):  # ProfilerStep#n+1
        shift = span * n
        pieces = [json.dumps({"ph": "X", "cat": "user_annotation",
                              "name": f"ProfilerStep#{n + 1}", "pid": step[0]["pid"],
                              "tid": step[0]["tid"], "ts": float(first + shift - 1),
                              "dur": float(span - 50), "args": {}})]
        for e in step:
            moved = dict(e)
            if "ts" in moved:
                moved["ts"] = float(decimal.Decimal(moved["ts"]) + shift)
            if moved.get("cat") == "fwdbwd":
                moved["id"] = moved["id"] + ids * (n + 1)
            if "dur" in moved:
                moved["dur"] = float(moved["dur"])
            pieces.append(json.dumps(moved, default=float))
        return pieces

    return write_repeated(seed, out_path, megabytes, copy_of)


def build_gpu_trace(seed_path, out_path, megabytes):
    """A real GPU trace (a V100's training steps, tests/data/gpu-traces) repeated, each copy
    after the last: its times shifted, its correlations, external ids and flow ids renumbered
    and its ProfilerStep#N numbered on, until the file is MEGABYTES large. Returns the steps."""
    with gzip.open(seed_path) as f:
        seed = json.loads(f.read(), parse_float=decimal.Decimal)
    _, timed, first, span = load_seed(seed)
    ids = 1 + max(max(e.get("id", 0) for e in timed if e.get("ph") in ("s", "f")),
                  max(e.get("args", {}).get("correlation", 0) for e in timed),
                  max(e.get("args", {}).get("External id", 0) for e in timed))
    seed_steps = [int(e["name"].split("#")[1]) for e in timed
                  if e.get("name", "").startswith("ProfilerStep#")]
    step_count = max(seed_steps) - min(seed_steps) + 1

    def copy_of(n):
        shift, offset = span * n, ids * n
        pieces = []
        for e in timed:
            moved = dict(e)
            if "ts" in moved:  # from the seed's first: small enough for a double's ns
                moved["ts"] = float(decimal.Decimal(moved["ts"]) - first + shift)
            if moved.get("ph") in ("s", "f"):
                moved["id"] = moved["id"] + offset
            if "args" in moved:
                moved["args"] = dict(moved["args"])
                for key in ("correlation", "External id"):
                    if key in moved["args"]:
                        moved["args"][key] += offset
            if moved.get("name", "").startswith("ProfilerStep#"):
                number = int(moved["name"].split("#")[1]) + step_count * n
                moved["name"] = f"ProfilerStep#{number}"
            pieces.append(json.dumps(moved, default=float))
        return pieces

    return write_repeated(seed, out_path, megabytes, copy_of) * step_count


def run_import(cli, path, out_prefix):
    start = time.perf_counter()
    process = subprocess.Popen([cli, "import", path, "-o", out_prefix, "-f", "-q"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"import failed: {process.stderr.read().decode()}")
    return seconds, usage.ru_maxrss * 1024  # ru_maxrss is in KiB on Linux


def build_snapshot(path, entries):
    rng = random.Random(0)
    files = ([f"/home/user/project/model_{i}.py" for i in range(20)] +
             [f"/usr/lib/python3/dist-packages/torch/nn/modules/mod_{i}.py" for i in range(40)])
    trace, live = [], []
    for i in range(entries):
        if live and rng.random() < 0.5:
            address, size, frames = live.pop(rng.randrange(len(live)))
            for action in ("free_requested", "free_completed"):
                trace.append({"action": action, "addr": address, "size": size, "stream": 0,
                              "time_us": i, "frames": frames})
        else:
            frames = [{"filename": rng.choice(files), "line": rng.randint(1, 900),
                       "name": "forward"} for _ in range(12)]
            address, size = (1 << 32) + i * 4096, rng.choice([512, 4096, 1 << 20])
            live.append((address, size, frames))
            trace.append({"action": "alloc", "addr": address, "size": size, "stream": 0,
                          "time_us": i, "frames": frames})
    blocks = [{"address": a, "size": s, "requested_size": s, "state": "active_allocated",
               "frames": f} for a, s, f in live]
    snapshot = {"segments": [{"device": 0, "address": 1 << 32, "total_size": (entries + 1) << 12,
                              "stream": 0, "segment_type": "large", "blocks": blocks}],
                "device_traces": [trace]}
    with open(path, "wb") as out:
        pickle.dump(snapshot, out, protocol=4)


def report(cli, path, work, targets=(30, 1.00)):
    size = os.path.getsize(path)
    runs = [run_import(cli, path, os.path.join(work, "out")) for _ in range(3)]
    seconds = statistics.median(r[0] for r in runs)
    rss = max(r[1] for r in runs)
    print(f"{os.path.basename(path)}: {min(r[0] for r in runs):.2f}-"
          f"{max(r[0] for r in runs):.2f} s, median {size / 1e6 / seconds:.1f} MB/s of the file "
          f"(target >= {targets[0]}); peak resident {rss / 1e6:.0f} MB = {rss / size:.2f}x the "
          f"file's {size / 1e6:.1f} MB (target <= {targets[1]:.2f}x)")


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[2] == "--gpu":
        seed = sys.argv[3] if len(sys.argv) > 3 else GPU_SEED
        megabytes = int(sys.argv[4]) if len(sys.argv) > 4 else 200
        with tempfile.TemporaryDirectory() as work:
            trace = os.path.join(work, "gpu.json")
            steps = build_gpu_trace(seed, trace, megabytes)
            print(f"GPU trace: {os.path.getsize(trace) / 1e6:.1f} MB ({steps} steps of "
                  f"{os.path.basename(seed)}, its kernels, copies, sets and launches)")
            report(sys.argv[1], trace, work, GPU_TARGETS)
            if len(sys.argv) > 5:  # a Python with HolisticTraceAnalysis: its load beside
                subprocess.run([sys.argv[5], os.path.join(HERE, "hta_load.py"), trace],
                               check=True, stderr=subprocess.DEVNULL)
        return
    if sys.argv[2] == "--snapshot":
        entries = int(sys.argv[3]) if len(sys.argv) > 3 else 60000
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "snapshot.pickle")
            build_snapshot(path, entries)
            report(sys.argv[1], path, work)
        return
    cli, python = sys.argv[1], sys.argv[2]
    megabytes = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    with tempfile.TemporaryDirectory() as work:
        seed = os.path.join(work, "seed")
        subprocess.run([python, RECORDER, seed], check=True, capture_output=True)
        trace = os.path.join(work, "large.json")
        steps = build_trace(seed + ".json", trace, megabytes)
        with open(trace, "rb") as plain, gzip.open(trace + ".gz", "wb", compresslevel=6) as packed:
            shutil.copyfileobj(plain, packed)
        size = os.path.getsize(trace)
        print(f"trace: {size / 1e6:.1f} MB ({steps} steps of a small LM's training step); "
              f"gzipped {os.path.getsize(trace + '.gz') / 1e6:.1f} MB")
        report(cli, trace, work)
        runs = [run_import(cli, trace + ".gz", os.path.join(work, "out")) for _ in range(3)]
        seconds = statistics.median(r[0] for r in runs)
        rss = max(r[1] for r in runs)
        print(f"large.json.gz: {min(r[0] for r in runs):.2f}-{max(r[0] for r in runs):.2f} s, "
              f"median {size / 1e6 / seconds:.1f} MB/s of the trace it holds (target >= 30); "
              f"peak resident {rss / 1e6:.0f} MB = {rss / size:.2f}x the trace's "
              f"{size / 1e6:.0f} MB (target <= 1.00x)")


if __name__ == "__main__":
    main()
