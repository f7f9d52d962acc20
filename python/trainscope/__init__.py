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


def _torch_in_words(version, cxx11_abi, cuda):
    return (f"torch {version} ({'CUDA ' + cuda if cuda else 'no CUDA'}"
            f"{'' if cxx11_abi else ', the pre-C++11 ABI'})")


def _check_the_torch_it_was_built_for():
    """One torch per build: the engine shares LibTorch with the imported torch, and loading it
    under another one aborts the process. The record the build wrote says which, before the
    engine loads."""
    from . import _built_for as built
    imported = (_torch.__version__, bool(_torch._C._GLIBCXX_USE_CXX11_ABI), _torch.version.cuda)
    if (built.TORCH, built.CXX11_ABI, built.CUDA) == imported:
        return
    import os
    source = built.SOURCE if os.path.isfile(os.path.join(built.SOURCE, "pyproject.toml")) \
        else "TRAINSCOPE_SOURCE_FOLDER"
    python = _sys.executable
    _refuse(f"this trainscope was built for "
            f"{_torch_in_words(built.TORCH, built.CXX11_ABI, built.CUDA)}, but {python} imports "
            f"{_torch_in_words(*imported)}: build it for this environment with `{python} -m pip "
            f"install scikit-build-core pybind11 ninja && {python} -m pip install "
            f"--no-build-isolation {source}`")


_check_the_torch_it_was_built_for()
try:
    from . import _trainscope
except ImportError as _error:
    _refuse(f"trainscope's engine does not load with torch {_torch.__version__} "
            f"({str(_error).splitlines()[0] if str(_error) else type(_error).__name__}): "
            f"rebuild trainscope against this torch")

from ._profile import profile, Error  # noqa: E402

__version__ = _trainscope.version
__all__ = ["profile", "Error", "__version__"]
