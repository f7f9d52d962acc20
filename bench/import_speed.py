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

Prints the median run's MB/s against 30 and its peak resident memory against the file's size.
"""
import decimal
import gzip
import json
import os
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


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
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
        for path in (trace, trace + ".gz"):
            runs = [run_import(cli, path, os.path.join(work, "out")) for _ in range(3)]
            seconds = statistics.median(r[0] for r in runs)
            rss = max(r[1] for r in runs)
            name = os.path.basename(path)
            print(f"{name}: {min(r[0] for r in runs):.2f}-{max(r[0] for r in runs):.2f} s, "
                  f"median {size / 1e6 / seconds:.1f} MB/s of trace (target >= 30); "
                  f"peak resident {rss / 1e6:.0f} MB = {rss / size:.2f}x the trace's "
                  f"{size / 1e6:.0f} MB (target <= 1.00x)")


if __name__ == "__main__":
    main()
