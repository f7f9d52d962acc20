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

Prints the median run's MB/s against 30 and its peak resident memory against the file's size.
With --snapshot, the same for a CUDA memory snapshot of ENTRIES trace entries (default 60,000:
allocations of 512 B to 1 MiB and their frees, each with 12 frames of 60 files, and the
blocks alive at the end in one segment), pickled by Python as `_dump_snapshot` does.
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


def build_trace(seed_path, out_path, megabytes):
    with open(seed_path, "rb") as f:
        seed = json.loads(f.read(), parse_float=decimal.Decimal)
    events = seed["traceEvents"]
    step = [e for e in events if e.get("ph") != "M"]
    first = min(decimal.Decimal(e["ts"]) for e in step if "ts" in e)
    last = max(decimal.Decimal(e["ts"]) + decimal.Decimal(e.get("dur", 0)) for e in step
               if "ts" in e)
    span = last - first + 100
    ids = max(e.get("id", 0) for e in step if e.get("cat") == "fwdbwd") + 1
    header = {k: v for k, v in seed.items() if k != "traceEvents"}
    target = megabytes << 20
    steps = 0
    with open(out_path, "w") as out:
        text = json.dumps(header, default=float)
        out.write(text[:-1] + ', "traceEvents": [')
        out.write(",\n".join(json.dumps(e, default=float) for e in events if e.get("ph") == "M"))
        while out.tell() < target:
            shift = span * steps
            steps += 1
            pieces = [json.dumps({"ph": "X", "cat": "user_annotation",
                                  "name": f"ProfilerStep#{steps}", "pid": step[0]["pid"],
                                  "tid": step[0]["tid"], "ts": float(first + shift - 1),
                                  "dur": float(span - 50), "args": {}})]
            for e in step:
                moved = dict(e)
                if "ts" in moved:
                    moved["ts"] = float(decimal.Decimal(moved["ts"]) + shift)
                if moved.get("cat") == "fwdbwd":
                    moved["id"] = moved["id"] + ids * steps
                if "dur" in moved:
                    moved["dur"] = float(moved["dur"])
                pieces.append(json.dumps(moved, default=float))
            out.write(",\n" + ",\n".join(pieces))
        out.write("]}")
    return steps


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


def report(cli, path, work):
    size = os.path.getsize(path)
    runs = [run_import(cli, path, os.path.join(work, "out")) for _ in range(3)]
    seconds = statistics.median(r[0] for r in runs)
    rss = max(r[1] for r in runs)
    print(f"{os.path.basename(path)}: {min(r[0] for r in runs):.2f}-"
          f"{max(r[0] for r in runs):.2f} s, median {size / 1e6 / seconds:.1f} MB/s of the file "
          f"(target >= 30); peak resident {rss / 1e6:.0f} MB = {rss / size:.2f}x the file's "
          f"{size / 1e6:.1f} MB (target <= 1.00x)")


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
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
