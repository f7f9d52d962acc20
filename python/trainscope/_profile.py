# SPDX-License-Identifier: Apache-2.0
"""trainscope.profile: the user's own loop observed, in the style of torch.profiler."""

import os
import sys
import weakref

import torch

from . import _signals, _trainscope
from ._host import (Error, HostedSession, ObservedModel, model_facts, observing_hint,
                    start_session, warn_if_incomplete)
from ._model_hooks import hooks_for, uncompiled
from ._ranks import outputs_of_this_process
from ._text import one_line


def _in_the_apis_words(error):
    """The engine's refusal names the command line's option; here it is an argument."""
    return (one_line(error).replace("use --force to replace it", "force=True replaces it")
            .replace("--force replaces reports", "force=True replaces reports"))


def _script_folder():
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    return os.path.dirname(os.path.abspath(path)) if path else os.getcwd()


def _end_let_go(hosted):
    """A profile collected while it observed (entered by hand, never exited): its session ends,
    with one line, and no report. Runs inside the garbage collector: never raises."""
    try:
        if hosted.session is None or hosted.forked():
            return  # ended already, or the parent's
        hosted.close()
        print("trainscope: a profile was let go of while it observed, before its with-statement "
              "ended (entered by hand, never exited): it ended, and no report was written",
              file=sys.stderr, flush=True)
    except Exception:
        pass


class profile:
    """Observes `active` steps of the user's loop after `warmup` steps, and writes PREFIX's
    reports when they end. Call `step()` after each step. The loop computes exactly what it
    computes without it; an exception in it is re-raised unchanged, and no report is written.

    The memory baseline: what the process allocates after the `with` statement begins, plus
    the model's weights and the optimizer's state that exist then; the first observed step is
    the memory step, the others are timed without the meter.

    `model` is the module the loop calls, a compiled one (torch.compile) as it is.

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
        (self._model, self._compiled), self._optimizer = uncompiled(model), optimizer
        self._called = model  # what the loop calls: a compiled model's wrapper
        self._warmup, self._active, self._force = warmup, active, force
        self._project_root = project_root or _script_folder()
        self._hosted = None  # the hosted session while the profile observes
        self._let_go = None  # ends it if the profile is garbage-collected while it observes
        self._all_ranks = all_ranks
        self._steps = 0
        self.figures = None

    def __enter__(self):
        self._steps, self.figures = 0, None  # a second `with` warms up again
        # In a job of several ranks (torchrun): PREFIX.rankR's reports, written by each rank
        # once every rank's are (see _ranks.py); figures.ranks_summary on rank 0.
        try:
            ranks, agreement = outputs_of_this_process(self.prefix, self._force, self._all_ranks)
        except Error as refused:
            raise Error(_in_the_apis_words(refused)) from None
        observed = ObservedModel()
        observed.model, observed.optimizer = self._model, self._optimizer
        device = "cuda" if any(p.is_cuda for p in self._model.parameters()) else "cpu"
        facts = model_facts(self._model, self._optimizer, compiled=self._compiled)
        facts.update({"warmup": str(self._warmup), "iterations": str(self._active)})
        facts.update(ranks.metadata() if ranks else {})
        # The reports go where the prefix pointed as the profile began (the loop may change
        # folder): the timeline is written there as the memory step ends.
        self._written_prefix = os.path.abspath(self.prefix)
        session = start_session(observed, device, self._project_root, facts,
                                ranks.prefix(self._written_prefix) if ranks
                                else self._written_prefix)
        self._hosted = HostedSession(session, self._project_root, ranks, agreement)
        # Entered by hand and let go of without its exit: the session ends with the object, so
        # that it holds no hook and no later profile is refused as nested in it.
        if self._let_go is not None:
            self._let_go.detach()
        self._let_go = weakref.finalize(self, _end_let_go, self._hosted)
        self._hosted.count_existing(observed, device)
        self._hosted.hooks = hooks_for(self._called, session)
        self._hosted.watch_compiled_code()
        self._begin_if_observed()
        return self

    def step(self):
        """The step that just ran ended; the next one begins. Never raises: a fault of
        TrainScope's ends the profile, with one line on stderr, and the loop goes on."""
        if self._hosted is None or self._hosted.forked():
            return
        try:
            self._end_step()
        except Exception as error:
            self._give_up(error)

    def _give_up(self, error):
        """Observing failed: the profile ends without a report, the user's loop does not. In a
        job of several ranks the others learn of it, rather than wait for this rank's set."""
        message = _in_the_apis_words(error)
        print(f"trainscope: {message}: no report was written; the loop goes on unobserved",
              file=sys.stderr, flush=True)
        self.figures = None
        hosted, self._hosted = self._hosted, None
        if hosted is not None:
            hosted.tell_the_ranks(message)
            try:
                hosted.close()
            except Exception:
                pass

    def _end_step(self):
        session = self._hosted.session
        if session.step_open:
            self._hosted.end_step()
        self._steps += 1
        if session.observed_steps >= self._active:
            self._finish()
        else:
            self._begin_if_observed()

    def _begin_if_observed(self):
        if self._steps >= self._warmup:
            self._hosted.begin_step()

    def _finish(self):
        hosted, received = self._hosted, []
        own = hosted.own_prefix(self.prefix)
        try:
            self.figures = hosted.write(self._written_prefix, self._force, received)
            warn_if_incomplete(self.figures, own)
        finally:
            hosted.close()
            if self.figures is not None:
                self._hosted = None  # written; a failure leaves it to _give_up, to tell the ranks
            # The user's Ctrl-C or SIGTERM goes to their handlers, once what is on disk is said.
            if received and self.figures is not None:
                print(f"trainscope: interrupted while the reports were written; they were "
                      f"complete and are kept: {', '.join(_trainscope.run_report_paths(own))}",
                      file=sys.stderr, flush=True)
            _signals.deliver(received)

    def __exit__(self, exc_type, exc, traceback):
        hosted = self._hosted
        if hosted is not None and hosted.forked():  # the parent's profile: the child leaves it
            return False
        if exc_type is not None:
            if hosted is not None:
                self._hosted = None
                hosted.session.abandon_step()
                hosted.close()
                # The others learn why; on rank 0, a failure of another rank that came first
                # (its death breaks this rank's collectives) is named on stderr.
                cause = hosted.tell_the_ranks(f"the loop raised {exc_type.__name__}: "
                                            f"{one_line(exc)}")
                if cause is not None and hosted.ranks.rank == 0:
                    print(f"trainscope: {cause}", file=sys.stderr, flush=True)
            hint = observing_hint(exc)
            if hint and hasattr(exc, "add_note"):
                exc.add_note(f"trainscope: {hint}")
            return False  # the user's exception (with a note when TrainScope caused it)
        if hosted is None:
            return False
        # The loop ended: what follows it (evaluation, saving) runs whatever happens here.
        try:
            if hosted.session.observed_steps == 0:
                raise Error(f"the loop ended after {self._steps} steps, before the first "
                            f"observed step ended (warmup={self._warmup})")
            if hosted.session.step_open:
                hosted.session.drop_step()  # begun by the last step(), never run
            self._finish()
        except Exception as error:
            self._give_up(error)
        return False
