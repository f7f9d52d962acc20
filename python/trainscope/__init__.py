# SPDX-License-Identifier: Apache-2.0
"""TrainScope in your own training process: where the time and the memory of your step go.

    with trainscope.profile("run", model=model, optimizer=opt, warmup=2, active=3) as prof:
        for batch in loader:
            ...               # your step: forward, loss, backward, clipping, optimizer
            prof.step()

writes run.memory.sqlite, run.time.sqlite and run.timeline.sqlite (open them with the
TrainScope app or `trainscope-cli show`). `python3 -m trainscope profile ENTRY.py -o PREFIX`
profiles a Skyline/DeepView entry point. docs/python.md says what each number means.
"""

import sys as _sys


def _release(version):
    """'1.13.1+cpu' -> (1, 13): the part that must match for the engine to share LibTorch."""
    parts = version.split("+")[0].split(".")
    return tuple(int("".join(c for c in p if c.isdigit()) or 0) for p in parts[:2])


def _refuse(message):
    """An engine that cannot run with this torch: one line. Under `python3 -m trainscope` (the
    package is imported before its __main__, with sys.argv[0] still '-m') the command ends
    with that line and exit code 1 rather than a traceback."""
    if _sys.argv[:1] == ["-m"]:
        print(f"trainscope: error: {message}", file=_sys.stderr)
        raise SystemExit(1)
    raise ImportError(message)


try:
    import torch as _torch
except KeyboardInterrupt:
    if _sys.argv[:1] == ["-m"]:  # Ctrl-C while torch loads, before the command began
        print("trainscope: error: interrupted while torch was loading", file=_sys.stderr)
        raise SystemExit(1)
    raise
except ImportError as _error:
    _refuse(f"{_sys.executable} has no torch ({_error}): trainscope runs in the Python "
            f"environment of your training, with its torch")

try:
    from . import _trainscope
except ImportError as _error:
    _refuse(f"trainscope's engine does not load with torch {_torch.__version__} "
            f"({str(_error).splitlines()[0] if str(_error) else type(_error).__name__}): "
            f"rebuild trainscope against this torch")

if _release(_torch.__version__) != _release(_trainscope.built_with_torch):
    _refuse(f"trainscope was built for torch {_trainscope.built_with_torch}, but this Python "
            f"imports torch {_torch.__version__}: rebuild trainscope against this torch")

from ._profile import profile, Error  # noqa: E402

__version__ = _trainscope.version
__all__ = ["profile", "Error", "__version__"]
