#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What the memory step of bench/large_step.py costs, in instructions (callgrind), against the
plain step and against the floor of any observer built on RecordFunction. Wall times of this
step on a shared 2-core machine spread by tens of percent from one run to the next; the
instructions a step executes do not depend on the machine's load, so they show what a change
to the recorder does.

Each of four steps of OPERATIONS operations (large_step.py's chain, with backward and SGD) runs
in a process of its own under `valgrind --tool=callgrind --instr-atstart=no`, instrumented
around the third step only (the memory step of `trainscope.profile(warmup=2, active=3)`):
- plain: the step alone;
- floor: the step with an empty global RecordFunction callback on the scopes TrainScope's
  memory step listens to (operations, backward nodes, user scopes), which only makes PyTorch
  build a RecordFunction for each call and run its engine's callback bookkeeping;
- floor with inputs: the same callback asking for the calls' inputs, as the memory step does
  (it records each call's shapes and dtypes);
- memory step: trainscope.profile's memory step (the meter, the timeline, the frames and the
  modules).

Prints each count and the ratios. Target (issue 75): the memory step <= 1.2x the plain step.
With --keep DIR the callgrind files stay in DIR (for callgrind_annotate).

    PYTHONPATH=build/torch2/python .venv-torch2/bin/python bench/memory_step_instructions.py \\
        [OPERATIONS] [--keep DIR]

Needs valgrind, a C++ compiler and ninja (torch.utils.cpp_extension builds the callback and
the client requests that switch the instrumentation on and off). About 2 minutes at 2,000
operations.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from large_step import ENTRY, STEPS_OF_THE_ENTRY  # noqa: E402  (the same step)

TARGET = 1.2

# The empty callback of python_step_overhead.py, optionally needing the inputs, and callgrind's
# client requests around the measured step.
HELPERS = r"""
#include <torch/extension.h>
#include <ATen/record_function.h>
#include <valgrind/callgrind.h>
static at::CallbackHandle handle = 0;
static std::unique_ptr<at::ObserverContext> begin(const at::RecordFunction&) { return nullptr; }
static void end(const at::RecordFunction&, at::ObserverContext*) {}
void add_callback(bool needs_inputs) {
    handle = at::addGlobalCallback(at::RecordFunctionCallback(begin, end)
        .needsInputs(needs_inputs)
        .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                 at::RecordScope::USER_SCOPE}));
}
void remove_callback() { at::removeCallback(handle); }
void start() { CALLGRIND_START_INSTRUMENTATION; }
void stop() { CALLGRIND_STOP_INSTRUMENTATION; }
"""

# What each process runs: the entry point's steps, the third instrumented. The helpers' module
# is loaded from the file the parent built.
RUN = STEPS_OF_THE_ENTRY + """\
import importlib.util
spec = importlib.util.spec_from_file_location("trainscope_bench_callgrind", sys.argv[4])
helpers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(helpers)
mode = sys.argv[3]
def measured(i):
    if i == 2:
        helpers.start()
    step(*inputs)
    if i == 2:
        helpers.stop()
if mode == "memory step":
    with trainscope.profile(sys.argv[2], model=model, optimizer=optimizer, warmup=2,
                            active=3) as prof:
        for i in range(5):
            measured(i)
            prof.step()
else:
    if mode.startswith("floor"):
        helpers.add_callback(mode == "floor with inputs")
    for i in range(5):
        measured(i)
"""

MODES = ("plain", "floor", "floor with inputs", "memory step")


def build_helpers(folder):
    from torch.utils.cpp_extension import load_inline
    build = os.path.join(folder, "helpers")
    os.makedirs(build)
    module = load_inline("trainscope_bench_callgrind", cpp_sources=HELPERS,
                         functions=["add_callback", "remove_callback", "start", "stop"],
                         build_directory=build)
    return module.__file__


def instructions(path):
    """The instructions counted in a callgrind output file: its `totals:` line (its header's
    `summary:` is written before the instrumentation is switched on, as 0)."""
    with open(path) as f:
        for line in f:
            found = re.match(r"totals: (\d+)", line)
            if found:
                return int(found.group(1))
    raise RuntimeError(f"no totals in {path}")


def main():
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    keep = None
    if "--keep" in args:
        at = args.index("--keep")
        keep = args[at + 1]
        del args[at:at + 2]
        os.makedirs(keep, exist_ok=True)
    operations = int(args[0]) if args else 2000
    if not shutil.which("valgrind"):
        sys.exit("memory_step_instructions: needs valgrind (apt-get install valgrind)")
    import torch
    with tempfile.TemporaryDirectory(prefix="trainscope-instructions-") as folder:
        helpers = build_helpers(folder)
        entry = os.path.join(folder, "entry.py")
        with open(entry, "w") as f:
            f.write(ENTRY.format(operations=operations, device="cpu"))
        counts = {}
        for mode in MODES:
            out = os.path.join(keep or folder, f"callgrind.{mode.replace(' ', '-')}.out")
            done = subprocess.run(
                ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                 f"--callgrind-out-file={out}", sys.executable, "-c", RUN, entry,
                 os.path.join(folder, "run"), mode, helpers],
                capture_output=True, text=True, check=False,
                env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
            if done.returncode != 0:
                sys.exit(f"memory_step_instructions: the {mode} run failed: "
                         f"{done.stderr.strip().splitlines()[-1:]}")
            counts[mode] = instructions(out)
    plain = counts["plain"]
    print(f"torch {torch.__version__}: a step of {operations:,} operations "
          f"(bench/large_step.py's), instructions executed (callgrind)")
    for mode in MODES:
        print(f"  {mode:<18} {counts[mode]:>14,}  {counts[mode] / plain:.3f}x the plain step")
    memory = counts["memory step"] / plain
    floor = counts["floor with inputs"] / plain
    print(f"  the memory step: {memory:.3f}x the plain step (target <= {TARGET}x): "
          f"{'met' if memory <= TARGET else 'MISSED'}; {counts['memory step'] / counts['floor with inputs']:.3f}x "
          f"the floor with inputs ({floor:.3f}x); what TrainScope adds above that floor: "
          f"{(counts['memory step'] - counts['floor with inputs']) / plain:.3f}x the plain step")
    return 0 if memory <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
