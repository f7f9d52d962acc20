#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How long HolisticTraceAnalysis takes to load one torch.profiler trace, and in how much memory:
the comparison `bench/import_speed.py --gpu` prints beside TrainScope's import. Run it with a
Python that has HTA (`pip install HolisticTraceAnalysis`):

    PYTHON_WITH_HTA bench/hta_load.py TRACE.json

Prints the load's wall time (TraceAnalysis over a folder holding the trace as rank 0) and the
process's peak resident memory against the file's size.
"""
import os
import resource
import sys
import tempfile
import time

from hta.trace_analysis import TraceAnalysis


def main():
    path = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        os.symlink(os.path.abspath(path), os.path.join(folder, "rank-0.json"))
        start = time.perf_counter()
        TraceAnalysis(trace_dir=folder)
        seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    size = os.path.getsize(path)
    print(f"HolisticTraceAnalysis: {seconds:.2f} s, {size / 1e6 / seconds:.1f} MB/s of the file; "
          f"peak resident {rss / 1e6:.0f} MB = {rss / size:.2f}x the file")


if __name__ == "__main__":
    main()
