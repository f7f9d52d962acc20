# SPDX-License-Identifier: Apache-2.0
"""The engine's session as its Python host keeps it, which both ways in share (`python3 -m
trainscope profile` in __main__.py, `trainscope.profile` in _profile.py): the session started
with the user's model as its parameter source, steps begun and ended, the module hooks dropped
after the memory step, the set written (alone, or with the other ranks of a job), a failure told
to the other ranks, and the texts both print."""

import os
import sys
import weakref

import torch

from . import _signals, _trainscope
from ._compiles import CompileWatch, CompilingUnobserved, compiled_a_frame
from ._kernels import KernelWatch
from ._model_hooks import parameter_lister, state_of
from ._tensors import local_of, storage_of
from ._text import one_line

Error = _trainscope.Error

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _profiler_active():
    enabled = getattr(torch.autograd, "_profiler_enabled", None)
    return bool(enabled()) if enabled else torch._C._autograd._profiler_enabled()


class ObservedModel:
    """The model and optimizer a session lists the parameters of; set once they exist (the
    entry-point mode starts its session before the model is made)."""
    model = None
    optimizer = None

    def parameters(self):
        if self.model is None:
            return []
        return parameter_lister(self.model, self.optimizer)()


def start_session(observed, device, project_root, metadata, prefix):
    """A session (its memory meter running from now on) whose reports go to PREFIX (this
    process's: PREFIX.rankR in a job of several ranks), where its timeline is written as soon as
    the memory step ends. Refuses to run beside torch.profiler, whose callbacks would be timed
    with the step and whose allocation reports ours replace."""
    if _profiler_active():
        raise Error("torch.profiler is active: profile with one of the two at a time")
    facts = {"project_root": os.path.abspath(project_root), "host": "python",
             "python": sys.version.split()[0]}
    facts.update(metadata)
    return _trainscope.Session(device, os.path.abspath(project_root), _PACKAGE_DIR,
                               observed.parameters, facts, prefix)


def model_facts(model, optimizer, inputs="", loss="the step's own", compiled=False):
    """What the summary and the reports say of the run: the model, its parameters' dtype, the
    inputs, the loss, the optimizer, and whether the model runs compiled (torch.compile)."""
    dtypes = sorted({str(p.dtype).replace("torch.", "") for p in model.parameters()})
    return {"model": type(model).__name__, "dtype": "/".join(dtypes) or "none",
            "inputs": inputs or "the step's own", "loss": loss,
            "optimizer": type(optimizer).__name__ if optimizer is not None else "the step's own",
            "compiled": "torch.compile" if compiled else "no"}


def inputs_text(inputs):
    """'4x8:int64 4x8:float32': the shapes and dtypes of the tensors among `inputs`."""
    return " ".join("x".join(str(d) for d in t.shape) + ":" + str(t.dtype).replace("torch.", "")
                    for t in inputs if isinstance(t, torch.Tensor))


# torch refuses to start its profiler over TrainScope's memory meter (1.13 and 2.x alike; a 2.x
# profiler started again after the refusal takes the meter's reports, which the report says).
_TORCH_PROFILER_REFUSED = "Profiler is already enabled on this thread"
TORCH_PROFILER_HINT = ("TrainScope's memory meter holds the slot where c10 reports allocations, "
                       "from the session's start to the first observed step's end, and torch's "
                       "profiler cannot start while it does: start it in a later step")


# What torch 2.x's profiler raises when started again in the step after that refusal: the
# refused start left its Kineto state half made.
_TORCH_PROFILER_BROKEN = "Can't disable Kineto profiler"


def observing_hint(error):
    """Why `error` came from TrainScope's observing rather than the user's code, or ''."""
    if isinstance(error, RuntimeError) and any(
            text in one_line(error) for text in (_TORCH_PROFILER_REFUSED, _TORCH_PROFILER_BROKEN)):
        return TORCH_PROFILER_HINT
    return ""


def warn_if_incomplete(figures, prefix):
    """One line on stderr when the memory report lacks allocations (the summary says why)."""
    if figures and figures.memory_note:
        print(f"trainscope: warning: {prefix}.memory.sqlite is incomplete: "
              f"{figures.memory_note}", file=sys.stderr, flush=True)


def _existing_freed(session, address):
    try:  # in the user's zero_grad or module: never raises into it
        session.existing_block_freed(address)
    except Exception:
        pass


def _storages(observed):
    """(address, bytes) of the storage of each parameter, gradient and optimizer state tensor
    of the observed model and optimizer."""
    tensors = list(observed.model.parameters()) if observed.model is not None else []
    optimizer = observed.optimizer
    for group in getattr(optimizer, "param_groups", None) or []:
        tensors.extend(t for t in group.get("params", []) if isinstance(t, torch.Tensor))
    tensors.extend([p.grad for p in tensors])
    for state in (state_of(optimizer) if optimizer is not None else {}).values():
        tensors.extend(v for v in state.values() if isinstance(v, torch.Tensor))
    for tensor in tensors:
        if tensor is None:
            continue
        try:
            yield storage_of(tensor)
        except Exception:  # a tensor without storage: counted as the entry says
            continue


class HostedSession:
    """A session and what its host keeps beside it: the module hooks (set once the model
    exists) and, in a job of several ranks, the ranks and their agreement (_ranks.py)."""

    def __init__(self, session, project_root, ranks=None, agreement=None):
        self.session, self.ranks, self.agreement = session, ranks, agreement
        self.owner = os.getpid()  # a child that the step forks shares none of this
        self.hooks = None
        # weakref.finalize of each gradient or buffer counted as existing
        self.existing_watched = []
        # What torch.compile compiles from now on (the session's start) goes into the reports.
        self.compiles = CompileWatch(project_root)
        self.kernels = None
        self.compiling = None

    def forked(self):
        """Whether this is a child that the user's step forked (os.fork) from the process that
        observes: the session, its files and the job's ranks are the parent's. The child stops
        observing (its copies of the hooks and callbacks are removed, the parent's files left
        alone) and, from then on, does nothing of the profile's."""
        if os.getpid() == self.owner:
            return False
        if self.session is not None or self.hooks is not None:
            self.ranks = self.agreement = None
            session, self.session = self.session, None
            self.close()  # the Python hooks and callbacks; the session is left as it is
            if session is not None:
                session.forsake()
        return True

    def watch_compiled_code(self):
        """What Inductor compiles from now on is timed kernel by kernel (_kernels.py): called
        as the warm-up begins, once the model exists."""
        if self.compiling is None:  # first: its pause holds the kernels' own start-up too
            self.compiling = CompilingUnobserved(self.session)
        if self.kernels is None:
            self.kernels = KernelWatch(self.session)
        self.kernels.start()

    def begin_step(self):
        if self.forked():
            return
        if self.kernels is not None:
            self.kernels.instrument()
        self.session.begin_step()

    def end_step(self):
        if self.forked():
            return
        self.session.end_step()
        if self.session.observed_steps == 1:
            # Module paths come from the memory step alone: the timed steps run without the
            # hooks' cost, but where torch.compile compiled code that its guards tie to the
            # hooks, which stay, silent, until the session ends (no step compiles again for us).
            if compiled_a_frame() and hasattr(self.hooks, "silence"):
                self.hooks.silence()
                self.stop_watching_existing()
            else:
                self.drop_hooks()

    def own_prefix(self, prefix):
        """This process's files: PREFIX, or PREFIX.rankR in a job of several ranks."""
        return self.ranks.prefix(prefix) if self.ranks else prefix

    def write(self, prefix, force, received):
        """Writes the set (in a job, once every rank has staged its own) with Ctrl-C and
        SIGTERM held until it is committed, and returns the figures. The signals that came
        meanwhile are added to `received`, also when writing fails, for the host to say and
        deliver. Nothing in a forked child: None."""
        if self.forked():
            return None
        self.session.add_compilations(self.compiles.compilations())
        held = []
        try:
            with _signals.held() as held:
                if self.agreement is None:
                    return self.session.write(self.own_prefix(prefix), force)
                return self.agreement.write(self.session, prefix, force)
        finally:
            received.extend(held)

    def tell_the_ranks(self, message):
        """This rank stopped with `message`: the other ranks learn of it, unless another rank
        failed first. Returns that failure (this rank's cause), or None."""
        if self.agreement is None:
            return None
        try:
            return self.agreement.stopped(message)
        except Exception:  # the store went with a rank that died
            return None

    def count_existing(self, observed, device):
        """The weights, the model's buffers (BatchNorm's running statistics), the gradients a
        step before made and the optimizer's state exist as the session starts: counted from
        now on. On the CPU, where c10's allocator reports no free of a block older than the
        meter, a gradient or a buffer is counted only where it can be told freed as its tensor
        goes (zero_grad setting a gradient to None, a module given a new buffer): where its
        storage is its own, not a view into one that outlives it. CUDA's allocator reports
        every free."""
        entries = observed.parameters()
        watched = set()

        def watch(tensor):  # its own storage's block, told freed as the tensor goes; or None
            tensor = None if tensor is None else local_of(tensor)
            if tensor is None or tensor.is_sparse or tensor.storage_offset() != 0:
                return None
            address, nbytes = storage_of(tensor)
            if not address or nbytes != tensor.numel() * tensor.element_size():
                return None
            if address not in watched:
                finalizer = weakref.finalize(tensor, _existing_freed, self.session, address)
                finalizer.atexit = False
                self.existing_watched.append(finalizer)
                watched.add(address)
            return address, nbytes

        if device == "cpu" and observed.model is not None:
            for parameter in observed.model.parameters():
                watch(parameter.grad)
        # Each block as c10 allocated it: a tensor's storage, which may be larger than the
        # tensor (FSDP2 pads each rank's shard to the same rows).
        allocated = dict(_storages(observed))
        blocks = [(address, allocated.get(address, nbytes)) for entry in entries
                  for address, nbytes in (entry[3], *((entry[4],) if device != "cpu" or
                                                      entry[4][0] in watched else ()),
                                          *entry[5])]
        counted = {address for address, _ in blocks}
        for buffer in observed.model.buffers() if observed.model is not None else ():
            try:
                # A storage counted already (a parameter's) is neither counted nor watched
                # again: the buffer's tensor going would not free it.
                if storage_of(buffer)[0] in counted:
                    continue
                block = watch(buffer) if device == "cpu" else storage_of(buffer)
            except Exception:  # no storage (a meta or lazy buffer): nothing allocated
                continue
            if block is not None and block[0]:
                counted.add(block[0])
                blocks.append(block)
        self.session.count_existing(blocks)

    def drop_hooks(self):
        if self.hooks is not None:
            self.hooks.remove()
        self.hooks = None
        self.stop_watching_existing()

    def stop_watching_existing(self):
        for watch in self.existing_watched:  # the meter counts no more once the memory
            watch.detach()                     # step ended
        self.existing_watched = []

    def close(self):
        """Ends observation: every hook and callback of the session is removed."""
        self.drop_hooks()
        if self.compiling is not None:
            self.compiling.close()
            self.compiling = None
        if self.kernels is not None:
            self.kernels.close()
        if self.session is not None:
            self.session.close()
        self.session = None

