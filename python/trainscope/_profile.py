# SPDX-License-Identifier: Apache-2.0
"""trainscope.profile: the user's own loop observed, in the style of torch.profiler."""

import os
import sys

import torch

from . import _signals, _trainscope
from ._model_hooks import ModuleHooks, parameter_lister
from ._ranks import outputs_of_this_process

Error = _trainscope.Error

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _profiler_active():
    enabled = getattr(torch.autograd, "_profiler_enabled", None)
    return bool(enabled()) if enabled else torch._C._autograd._profiler_enabled()


class Observed:
    """The model and optimizer a session lists the parameters of; set once they exist (the
    entry-point mode starts its session before the model is made)."""
    model = None
    optimizer = None

    def parameters(self):
        if self.model is None:
            return []
        return parameter_lister(self.model, self.optimizer)()


def start_session(observed, device, project_root, metadata):
    """A session (its memory meter running from now on). Refuses to run beside torch.profiler,
    whose callbacks would be timed with the step and whose allocation reports ours replace."""
    if _profiler_active():
        raise Error("torch.profiler is active: profile with one of the two at a time")
    facts = {"project_root": os.path.abspath(project_root), "host": "python",
             "python": sys.version.split()[0]}
    facts.update(metadata)
    return _trainscope.Session(device, os.path.abspath(project_root), _PACKAGE_DIR,
                               observed.parameters, facts)


def model_facts(model, optimizer, inputs="", loss="the step's own"):
    """What the summary and the reports say of the run: the model, its parameters' dtype, the
    inputs, the loss and the optimizer."""
    dtypes = sorted({str(p.dtype).replace("torch.", "") for p in model.parameters()})
    return {"model": type(model).__name__, "dtype": "/".join(dtypes) or "none",
            "inputs": inputs or "the step's own", "loss": loss,
            "optimizer": type(optimizer).__name__ if optimizer is not None else "the step's own"}


def inputs_text(inputs):
    """'4x8:int64 4x8:float32': the shapes and dtypes of the tensors among `inputs`."""
    return " ".join("x".join(str(d) for d in t.shape) + ":" + str(t.dtype).replace("torch.", "")
                    for t in inputs if isinstance(t, torch.Tensor))


def one_line(error):
    """An exception's message on one line, also when its __str__ raises: LibTorch's messages
    end in a C++ backtrace ("Exception raised from ..."), which is left out, and their other
    lines are joined."""
    try:
        text = str(error)
    except Exception:
        return type(error).__name__
    lines = []
    for line in text.splitlines():
        if line.startswith("Exception raised from "):
            break
        if line.strip():
            lines.append(line.strip())
    return " ".join(lines) or type(error).__name__


# torch 1.13 refuses to start its profiler over TrainScope's memory meter (2.x starts it, and the
# memory report then says what it lacks).
_TORCH_PROFILER_REFUSED = "Profiler is already enabled on this thread"
TORCH_PROFILER_HINT = ("TrainScope's memory meter holds the slot where c10 reports allocations, "
                       "from the session's start to the first observed step's end, and torch's "
                       "profiler cannot start while it does: start it in a later step")


def observing_hint(error):
    """Why `error` came from TrainScope's observing rather than the user's code, or ''."""
    if isinstance(error, RuntimeError) and _TORCH_PROFILER_REFUSED in one_line(error):
        return TORCH_PROFILER_HINT
    return ""


def warn_if_incomplete(figures, prefix):
    """One line on stderr when the memory report lacks allocations (the summary says why)."""
    if figures and figures.get("memory_note"):
        print(f"trainscope: warning: {prefix}.memory.sqlite is incomplete: "
              f"{figures['memory_note']}", file=sys.stderr, flush=True)


def _script_folder():
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    return os.path.dirname(os.path.abspath(path)) if path else os.getcwd()


class profile:
    """Observes `active` steps of the user's loop after `warmup` steps, and writes PREFIX's
    reports when they end. Call `step()` after each step. The loop computes exactly what it
    computes without it; an exception in it is re-raised unchanged, and no report is written.

    The memory baseline: what the process allocates after the `with` statement begins, plus
    the model's weights and the optimizer's state that exist then; the first observed step is
    the memory step, the others are timed without the meter.

    In a job of several ranks every rank profiles, and the sets are written together; with
    `all_ranks=False` (only some ranks run this) each writes its own PREFIX.rankR set alone."""

    def __init__(self, prefix, *, model, optimizer=None, warmup=1, active=3, force=False,
                 project_root=None, all_ranks=True):
        if not isinstance(warmup, int) or not isinstance(active, int) or warmup < 0 \
                or active < 1:
            raise Error(f"profile needs whole numbers warmup >= 0 and active >= 1, not "
                        f"warmup={warmup!r}, active={active!r}")
        prefix = os.fspath(prefix) if isinstance(prefix, os.PathLike) else prefix
        if not isinstance(prefix, str) or not prefix or "\0" in prefix or \
                prefix.endswith(os.sep) or os.path.isdir(prefix):
            raise Error(f"profile expects a file prefix such as 'run' or 'out/run', not "
                        f"{prefix!r}")
        if not isinstance(model, torch.nn.Module):
            raise Error(f"model= expects the torch.nn.Module that the loop trains, not "
                        f"{type(model).__name__}")
        if optimizer is not None and not isinstance(optimizer, torch.optim.Optimizer):
            raise Error(f"optimizer= expects a torch.optim.Optimizer or None, not "
                        f"{type(optimizer).__name__}")
        self.prefix = prefix
        self._model, self._optimizer = model, optimizer
        self._warmup, self._active, self._force = warmup, active, force
        self._project_root = project_root or _script_folder()
        self._session = self._hooks = None
        self._ranks = self._agreement = None
        self._all_ranks = all_ranks
        self._steps = 0
        self.figures = None

    def __enter__(self):
        # In a job of several ranks (torchrun): PREFIX.rankR's reports, written by each rank
        # once every rank's are (see _ranks.py); figures["ranks_summary"] on rank 0.
        self._ranks, self._agreement = outputs_of_this_process(self.prefix, self._force,
                                                               self._all_ranks)
        observed = Observed()
        observed.model, observed.optimizer = self._model, self._optimizer
        device = "cuda" if any(p.is_cuda for p in self._model.parameters()) else "cpu"
        facts = model_facts(self._model, self._optimizer)
        facts.update({"warmup": str(self._warmup), "iterations": str(self._active)})
        facts.update(self._ranks.metadata() if self._ranks else {})
        self._session = start_session(observed, device, self._project_root, facts)
        # The weights and the optimizer's state exist already, and stay: counted from now on
        # (gradients are not: zero_grad(set_to_none=True) may free them unseen).
        self._session.count_existing(
            [block for entry in observed.parameters() for block in (entry[3], *entry[5])])
        self._hooks = ModuleHooks(self._model, self._session)
        self._begin_if_observed()
        return self

    def step(self):
        """The step that just ran ended; the next one begins. Never raises: a fault of
        TrainScope's ends the profile, with one line on stderr, and the loop goes on."""
        if self._session is None:
            return
        try:
            self._end_step()
        except Exception as error:
            self._give_up(error)

    def _give_up(self, error):
        """Observing failed: the profile ends without a report, the user's loop does not. In a
        job of several ranks the others learn of it, rather than wait for this rank's set."""
        # The engine's refusal names the command line's option; here it is an argument.
        message = one_line(error).replace("use --force to replace it", "force=True replaces it")
        print(f"trainscope: {message}: no report was written; the loop goes on unobserved",
              file=sys.stderr, flush=True)
        if self._agreement is not None:
            try:
                self._agreement.stopped(message)
            except Exception:  # the store went with a rank that died
                pass
        self.figures = None
        try:
            self._close()
        except Exception:
            self._session = self._hooks = None

    def _end_step(self):
        if self._session.step_open:
            self._session.end_step()
            if self._session.observed_steps == 1:
                self._drop_hooks()  # module paths come from the memory step alone
        self._steps += 1
        if self._session.observed_steps >= self._active:
            self._finish()
        else:
            self._begin_if_observed()

    def _begin_if_observed(self):
        if self._steps >= self._warmup:
            self._session.begin_step()

    def _finish(self):
        own = self._ranks.prefix(self.prefix) if self._ranks else self.prefix
        received = []
        try:
            with _signals.held() as received:
                if self._agreement is None:
                    self.figures = self._session.write(own, self._force)
                else:
                    self.figures = self._agreement.write(self._session, self.prefix,
                                                         self._force)
            warn_if_incomplete(self.figures, own)
        finally:
            self._close()
            # The user's Ctrl-C or SIGTERM goes to their handlers, once what is on disk is said.
            if received and self.figures is not None:
                print(f"trainscope: interrupted while the reports were written; they were "
                      f"complete and are kept: {own}.memory.sqlite, .time.sqlite and "
                      f".timeline.sqlite", file=sys.stderr, flush=True)
            _signals.deliver(received)

    def _drop_hooks(self):
        if self._hooks is not None:
            self._hooks.remove()
        self._hooks = None

    def _close(self):
        self._drop_hooks()
        if self._session is not None:
            self._session.close()
        self._session = self._hooks = None

    def _tell_the_ranks(self, exc_type, exc):
        """This rank's loop raised: the others learn why; on rank 0, a failure of another rank
        that came first (its death breaks this rank's collectives) is named on stderr."""
        try:
            cause = self._agreement.stopped(f"the loop raised {exc_type.__name__}: {exc}")
            if cause is not None and self._ranks.rank == 0:
                print(f"trainscope: {cause}", file=sys.stderr, flush=True)
        except Exception:  # the store went with a rank that died
            pass

    def __exit__(self, exc_type, exc, traceback):
        if exc_type is not None:
            if self._session is not None:
                self._session.abandon_step()
            self._close()
            if self._agreement is not None:
                self._tell_the_ranks(exc_type, exc)
            hint = observing_hint(exc)
            if hint and hasattr(exc, "add_note"):
                exc.add_note(f"trainscope: {hint}")
            return False  # the user's exception (with a note when TrainScope caused it)
        if self._session is None:
            return False
        # The loop ended: what follows it (evaluation, saving) runs whatever happens here.
        try:
            if self._session.observed_steps == 0:
                raise Error(f"the loop ended after {self._steps} steps, before the first "
                            f"observed step ended (warmup={self._warmup})")
            if self._session.step_open:
                self._session.drop_step()  # begun by the last step(), never run
            self._finish()
        except Exception as error:
            self._give_up(error)
        return False
