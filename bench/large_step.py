#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What recording a large step costs in the user's process (issue 55's fifth target): a step
of OPERATIONS small operations (a chain of `x * w` and `x + 1` on four floats, with backward
and SGD), run under `trainscope.profile` (2 warm-up steps, the memory step, 2 timed steps) and
plain, the same five steps, each in its own process.

Prints:
- the resident memory (the process's high-water mark, VmHWM) of both, and the difference per
  recorded operation (the step's top-level operations, the run time report's rows) and per
  timeline call (every call of the memory step, nested and backward ones included);
- the median timed step against the median plain step (the session's operation timer), the
  memory step against it (the meter, the timeline and the frames), and the whole run against
  the plain one (the assembly and the writing of the reports included);
- the heap in use (glibc's mallinfo2) as the memory step ends, beyond what it was before the
  step: the recorder's raw record, the floor of the first figure; and what the session keeps
  once it has the step's reports;
- the process's resident memory at its highest in each part of the profiled run (warm-up, the
  memory step, its timeline written, the timed steps, the reports assembled), read every 2 ms
  in a run of its own: which part sets the high-water mark;
- the reports' bytes per operation, table by table (SQLite's dbstat).

Targets: <= 1 KB of resident memory per recorded operation beyond the plain step's, a timed
step <= 1.5x its plain time.

    PYTHONPATH=build/dev/python python3 bench/large_step.py [OPERATIONS] [--device cuda]

On CUDA (tools/gpu-check runs it there) the step's tensors are on the GPU, the plain steps end
with torch.cuda.synchronize() as the session's timed steps do, and the resident memory is the
host's: the recorder's record is kept in host memory whichever the device.
"""

import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ENTRY = textwrap.dedent("""\
    import torch
    from torch import nn

    OPERATIONS = {operations}
    DEVICE = "{device}"

    class Chain(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(4))

        def forward(self, x):
            for _ in range(OPERATIONS // 2):
                x = x * self.w
                x = x + 1.0
            return x.sum()

    def model_provider():
        return Chain().to(DEVICE)

    def input_provider(batch_size=1):
        return (torch.randn(4, device=DEVICE),)

    def iteration_provider(model):
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-9)
        def step(x):
            optimizer.zero_grad()
            model(x).backward()
            optimizer.step()
        return step
    """)

# The high-water mark of the process's resident memory, written where HWM_FILE says as the
# interpreter exits (after `python3 -m trainscope` returns its exit code).
HIGH_WATER = textwrap.dedent("""\
    import atexit, os
    def _high_water():
        with open("/proc/self/status") as status:
            kb = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
        with open(os.environ["HWM_FILE"], "w") as out:
            out.write(str(kb * 1024))
    atexit.register(_high_water)
    """)

PLAIN = textwrap.dedent("""\
    import runpy, sys, time, torch
    entry = runpy.run_path(sys.argv[1])
    model = entry["model_provider"]()
    inputs = entry["input_provider"]()
    step = entry["iteration_provider"](model)
    cuda = inputs[0].is_cuda
    for _ in range(5):
        start = time.perf_counter()
        step(*inputs)
        if cuda:
            torch.cuda.synchronize()
        print(time.perf_counter() - start)
    """)

# What both profiled runs begin with: the entry point's model, inputs, step and optimizer.
STEPS_OF_THE_ENTRY = textwrap.dedent("""\
    import runpy, sys, trainscope
    entry = runpy.run_path(sys.argv[1])
    model = entry["model_provider"]()
    inputs = entry["input_provider"]()
    step = entry["iteration_provider"](model)
    optimizer = next(c.cell_contents for c in step.__closure__
                     if hasattr(c.cell_contents, "param_groups"))
    """)

# The same five steps under trainscope.profile (2 warm-up steps, the memory step, 2 timed
# steps), with the heap that malloc has handed out (glibc's mallinfo2) printed before the memory
# step, as it ends (the recorder's raw record beside what the step itself still holds) and once
# the session has its reports of it (what it keeps until the reports are written).
PROFILED = textwrap.dedent("""\
    import ctypes
    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks",
                    "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
    try:
        mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
        mallinfo2.restype = MallInfo2
    except (OSError, AttributeError):  # not glibc 2.33 or later: no heap figures
        mallinfo2 = None
    def heap(when):
        if mallinfo2:
            info = mallinfo2()
            print(f"heap {when} {info.uordblks + info.hblkhd}")
    """) + STEPS_OF_THE_ENTRY + textwrap.dedent("""\
    with trainscope.profile(sys.argv[2], model=model, optimizer=optimizer, warmup=2,
                            active=3) as prof:
        for i in range(5):
            if i == 2:
                heap("before")
            step(*inputs)
            if i == 2:
                heap("ended")
            prof.step()
            if i == 2:
                heap("kept")
    """)


# The same profiled run with a thread that reads the process's resident memory (VmRSS) every
# 2 ms and keeps the highest reading of each part of the run: where the high-water mark is
# reached. A run of its own, so that the reading thread costs the timed run nothing.
BY_PART = textwrap.dedent("""\
    import sys, threading, time
    part, highest = ["before the steps"], {}
    def rss():
        with open("/proc/self/status") as status:
            return next(int(l.split()[1]) for l in status if l.startswith("VmRSS:")) * 1024
    def read():
        while True:
            now, name = rss(), part[0]
            highest[name] = max(highest.get(name, 0), now)
            time.sleep(0.002)
    threading.Thread(target=read, daemon=True).start()
    """) + STEPS_OF_THE_ENTRY + textwrap.dedent("""\
    names = ["warm-up steps", "warm-up steps", "the memory step",
             "the timed steps", "the timed steps"]
    with trainscope.profile(sys.argv[2], model=model, optimizer=optimizer, warmup=2,
                            active=3) as prof:
        for i in range(5):
            part[0] = names[i]
            step(*inputs)
            # The memory step's prof.step() builds and writes its timeline; the last one
            # assembles and writes the other reports.
            part[0] = {2: "the memory step's timeline written",
                       4: "the reports assembled and written"}.get(i, names[i])
            prof.step()
    time.sleep(0.01)
    for name, kb in highest.items():
        print(f"part {kb} {name}")
    """)


def run(script, args, folder):
    """Runs `script` in a fresh interpreter: its stdout, its wall time and high-water mark."""
    hwm = os.path.join(folder, "hwm")
    env = dict(os.environ, HWM_FILE=hwm)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", HIGH_WATER + script] + args, env=env,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"large_step: the run failed: {done.stderr.strip().splitlines()[-1:]}")
    with open(hwm) as f:
        return done.stdout, wall, int(f.read())


def table_bytes(path):
    """Bytes each table (with its indices) takes in a report, largest first."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        indices = dict(db.execute("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'"))
        sizes = {}
        for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            table = indices.get(name, name)
            sizes[table] = sizes.get(table, 0) + size
        return sorted(sizes.items(), key=lambda item: -item[1])


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    args = sys.argv[1:]
    device = "cpu"
    if "--device" in args:
        at = args.index("--device")
        device = args[at + 1] if at + 1 < len(args) else ""
        del args[at:at + 2]
        if device not in ("cpu", "cuda"):
            sys.exit("large_step: --device takes cpu or cuda")
    operations = int(args[0]) if args else 100_000
    with tempfile.TemporaryDirectory(prefix="trainscope-large-step-") as folder:
        entry = os.path.join(folder, "entry.py")
        with open(entry, "w") as f:
            f.write(ENTRY.format(operations=operations, device=device))
        out, plain_wall, plain_hwm = run(PLAIN, [entry], folder)
        plain_steps = [float(line) for line in out.split()]
        prefix = os.path.join(folder, "run")
        out, observed_wall, observed_hwm = run(PROFILED, [entry, prefix], folder)
        heap = {line.split()[1]: int(line.split()[2]) for line in out.splitlines()
                if line.startswith("heap ")}

        out, _, _ = run(BY_PART, [entry, os.path.join(folder, "parts")], folder)
        by_part = [line.split(maxsplit=2)[1:] for line in out.splitlines()
                   if line.startswith("part ")]

        with sqlite3.connect(f"file:{prefix}.time.sqlite?mode=ro", uri=True) as db:
            recorded = db.execute("SELECT COUNT(*) FROM run_time_entries").fetchone()[0]
        with sqlite3.connect(f"file:{prefix}.timeline.sqlite?mode=ro", uri=True) as db:
            calls = db.execute("SELECT COUNT(*) FROM PYTORCH_API").fetchone()[0]
            steps = [ns / 1e9 for (ns,) in
                     db.execute("SELECT endNs - startNs FROM STEP_TIME ORDER BY id")]
        plain_step = statistics.median(plain_steps[2:])
        timed_step = statistics.median(steps[1:])
        beyond = observed_hwm - plain_hwm
        print(f"Step of {operations:,} operations on {device}: {recorded:,} recorded operations, "
              f"{calls:,} timeline calls")
        print(f"  resident: plain {plain_hwm / 2**20:.0f} MiB, observed "
              f"{observed_hwm / 2**20:.0f} MiB: {beyond / recorded:,.0f} bytes per recorded "
              f"operation beyond the plain step's ({beyond / calls:,.0f} per call; "
              f"target <= 1,024 per operation)")
        print("  the process's resident memory at its highest in each part of the run, beyond "
              "the plain run's high-water mark, per recorded operation:")
        for rss, name in by_part:
            print(f"    {name:<40} {(int(rss) - plain_hwm) / recorded:8,.0f}")
        if heap:
            print(f"  heap in use: the memory step's record {(heap['ended'] - heap['before']) / recorded:,.0f} "
                  f"bytes per operation as the step ends (what it must record: every call and "
                  f"allocation); the session keeps {(heap['kept'] - heap['before']) / recorded:,.0f} "
                  f"once it has the step's reports")
        print(f"  timed step {timed_step:.3f} s against plain {plain_step:.3f} s: "
              f"{timed_step / plain_step:.2f}x (target <= 1.5x); memory step "
              f"{steps[0]:.3f} s: {steps[0] / plain_step:.2f}x; whole run {observed_wall:.1f} s "
              f"against {plain_wall:.1f} s: {observed_wall / plain_wall:.2f}x")
        total = 0
        for report in ("memory", "time", "timeline"):
            path = f"{prefix}.{report}.sqlite"
            size = os.path.getsize(path)
            total += size
            print(f"  {report} report: {size / recorded:,.0f} bytes per operation")
            for table, size in table_bytes(path):
                if size / recorded >= 1:
                    print(f"    {table:<32} {size / recorded:8,.0f}")
        print(f"  reports: {total / recorded:,.0f} bytes per operation")


if __name__ == "__main__":
    main()
