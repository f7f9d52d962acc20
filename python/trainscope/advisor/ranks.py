# SPDX-License-Identifier: Apache-2.0
"""advise --ranks N in a job of several ranks (torchrun): each rank's peak with the job run over
N ranks, predicted from this rank's memory step at the job's own rank count, and (--verify)
measured by running the job at N ranks on this machine.

What changes with the rank count is what FSDP2 (fully_shard) shards: each parameter is cut
along its first dimension into chunks of ceil(rows / ranks) rows, every rank holding one chunk
padded to that size, the last ranks' chunks shorter (or empty) where the rows do not divide. So,
block by block of the memory step, at K ranks:
- a parameter's shard: ceil(rows / K) rows (padded); the optimizer's state for it (Adam's
  moments, made like the unpadded local shard) and the optimizer's temporaries: this rank's own
  rows of the chunk;
- what FSDP2 allocates in its scopes for a unit: the all-gather's input and the reduce-scatter's
  output (the unit's gradients), the sum of its padded shards; the all-gather's output and the
  reduce-scatter's input, K times that; each parameter gathered whole, K padded shards of it;
- the device mesh's tensor of rank numbers: K of them.
Every other block (activations, the loss, the inputs: each rank keeps its own batch) stays. A
parameter FSDP2 did not shard (DDP's, a replicated one) stays; one of another layout (a 2-D mesh,
tensor parallel) is not predicted, and the what-if says which."""

import bisect
import os
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass

import torch

from .. import _trainscope
from .._text import one_line

# How long the job at N ranks may take to run and write its reports when verified.
VERIFY_TIMEOUT_S = 600


@dataclass
class ShardedParameter:
    name: str
    unit: str  # the FSDP unit (fully_shard'ed module) it belongs to: "" for the root
    rows: int  # along dimension 0, which FSDP2 shards
    row_bytes: int
    tensor_id: int  # id() of the parameter: the optimizer's state is kept by it

    def padded(self, ranks):
        """Bytes of each rank's shard, padded as FSDP2 allocates it."""
        return -(-self.rows // ranks) * self.row_bytes

    def local(self, ranks, rank):
        """Bytes of the rows rank `rank` holds (the unpadded local tensor)."""
        chunk = -(-self.rows // ranks)
        return max(0, min(chunk, self.rows - rank * chunk)) * self.row_bytes


def sharded_parameters(model):
    """(FSDP2's sharded parameters, the names of parameters of a layout not predicted)."""
    try:
        from torch.distributed.fsdp import FSDPModule
        from torch.distributed.tensor import DTensor, Shard
    except ImportError:  # torch 1.13: no FSDP2
        return [], []
    units = [path for path, m in model.named_modules() if isinstance(m, FSDPModule)]
    sharded, not_predicted = [], []
    for name, p in model.named_parameters(remove_duplicate=True):
        if not isinstance(p, DTensor):
            continue  # held whole on every rank: the same at any rank count
        if p.device_mesh.ndim != 1 or tuple(p.placements) != (Shard(0),) or p.dim() == 0:
            not_predicted.append(name)
            continue
        unit = max((u for u in units if u == "" or name.startswith(u + ".")), key=len,
                   default="")
        rows = p.shape[0]
        sharded.append(ShardedParameter(name, unit, rows,
                                        p.numel() // max(rows, 1) * p.element_size(), id(p)))
    return sharded, not_predicted


class _InOrder:
    """Blocks matched to parameters taken in order (FSDP2 copies a unit's parameters out one
    by one; the optimizer steps them one by one, or list by list): each block is the next
    parameter's, from the last one matched on, whose size it has at the job's rank count.
    Parameters of the same size there (up and down projections of a block) may differ at
    another rank count, where one pads and the other does not."""

    def __init__(self, parameters, size_now, size_then):
        self._now = [size_now(p) for p in parameters]
        self._then = [size_then(p) for p in parameters]
        self._at = 0

    def size_then(self, size):
        n = len(self._now)
        for k in range(n):
            i = (self._at + k) % n
            if self._now[i] == size:
                self._at = i
                return self._then[i]
        return None


def _units(parameters):
    units = {}
    for p in parameters:
        units.setdefault(p.unit, []).append(p)
    return units


def _scope(kind, unit):
    """FSDP2's name for a unit's scope of `kind` (the root's has no unit in it)."""
    return f"FSDP::{kind} ({unit})" if unit else f"FSDP::{kind}"


def peak_at_ranks(curve, parameters, optimizer, now, rank, then, rank_then, mesh_bytes=None,
                  gradients_kept=False):
    """Rank `rank_then`'s peak with the job over `then` ranks, from this rank's (`rank` of
    `now`) memory step: its curve with each block that the sharding makes changed to its size
    at `then` ranks (see the module's text). `mesh_bytes`: the device mesh's own tensor of rank
    numbers, per rank (made with the model, after the meter began); `gradients_kept`: the
    step began with the gradients of the one before."""
    start, end = curve.step_span()
    blocks = sorted(curve.blocks(), key=lambda b: b[1])
    times = [allocated for _, allocated, _ in blocks]
    changes = {}  # block index -> bytes more at `then` ranks

    def change(index, size_then):
        if size_then is not None and index not in changes:
            changes[index] = size_then - blocks[index][0]

    def made_in(name):
        for span_start, span_end in curve.calls(name):
            first = bisect.bisect_left(times, span_start)
            last = bisect.bisect_right(times, span_end)
            yield from range(first, last)

    for unit, members in _units(parameters).items():
        whole_now = sum(p.padded(now) for p in members)
        whole_then = sum(p.padded(then) for p in members)
        flat = {now * whole_now: then * whole_then, whole_now: whole_then}
        # Each parameter gathered whole: `ranks` padded shards of it.
        one_by_one = _InOrder(members, lambda p: now * p.padded(now),
                              lambda p: then * p.padded(then))
        for i in made_in(_scope("all_gather_copy_out", unit)):
            change(i, one_by_one.size_then(blocks[i][0]))
        for i in made_in(_scope("all_gather", unit)):
            change(i, flat.get(blocks[i][0]))
        # The reduce-scatter's input and output, and a gradient padded to `ranks` shards where
        # its rows do not divide.
        for i in made_in(_scope("post_backward_reduce", unit)):
            size = blocks[i][0]
            change(i, flat[size] if size in flat else one_by_one.size_then(size))
    # The optimizer's temporaries: this rank's rows of each parameter.
    by_tensor = {p.tensor_id: p for p in parameters}
    if optimizer is not None:
        stepped = [by_tensor[id(t)] for g in optimizer.param_groups for t in g["params"]
                   if id(t) in by_tensor]
        own_rows = _InOrder(stepped, lambda p: p.local(now, rank),
                            lambda p: p.local(then, rank_then))
        for span_start, span_end in curve.phase_spans("optimizer"):
            for i in range(bisect.bisect_left(times, span_start),
                           bisect.bisect_right(times, span_end)):
                change(i, own_rows.size_then(blocks[i][0]))
    intervals = [(max(allocated, start), released, changes[i])
                 for i, (size, allocated, released) in enumerate(blocks)
                 if i in changes and changes[i] != 0 and allocated <= end]
    # Alive through the whole step: the shards, the optimizer's state for them, the mesh.
    lasting = sum(p.padded(then) - p.padded(now) for p in parameters)
    if optimizer is not None:
        for tensor, state in optimizer.state.items():
            p = by_tensor.get(id(tensor))
            for value in (state.values() if p is not None else ()):
                if isinstance(value, torch.Tensor) and value.dim() > 0 and \
                        tuple(value.shape) == tuple(tensor.shape):
                    scale = value.element_size() / max(tensor.element_size(), 1)
                    lasting += int((p.local(then, rank_then) - p.local(now, rank)) * scale)
    if mesh_bytes:
        lasting += (then - now) * mesh_bytes
    intervals.append((start, None, lasting))
    # The gradients from the step before (each unit's reduce-scatter output), older than the
    # curve's blocks: freed by the step's zero_grad, else kept through it.
    if gradients_kept:
        zeroed = curve.calls("Optimizer.zero_grad#", prefix=True)
        intervals.append((start, zeroed[0][1] if zeroed else None,
                          sum(p.padded(then) - p.padded(now) for p in parameters)))
    return curve.highest_with(intervals)


def mesh_bytes_per_rank(model):
    """The bytes per rank of the 1-D device mesh FSDP2 shards over (its tensor of rank numbers),
    or None."""
    try:
        from torch.distributed.tensor import DTensor
    except ImportError:
        return None
    for p in model.parameters():
        if isinstance(p, DTensor) and p.device_mesh.ndim == 1:
            return p.device_mesh.mesh.element_size()
    return None


# The ranks of the job to predict from, at most: each one's memory step is read whole.
SOURCE_RANKS = 8


def job_what_ifs(model, optimizer, baseline, prefix_of, now, then):
    """One what-if per rank of the job run over `then` ranks (`now` ranks in this run; rank r's
    reports: `prefix_of(r)`), each rank's peak predicted from each of this run's ranks (the
    first SOURCE_RANKS) and the lowest kept. The ranks of an FSDP2 job hold alike but for
    timing: c10 frees a collective's buffers on the thread that lets go of them last, and where
    Gloo's worker does so after FSDP2, a rank holds a unit's buffer longer than the step needs
    (its peak one buffer higher in that run)."""
    from .advice import WhatIf
    parameters, not_predicted = sharded_parameters(model)
    if not_predicted:
        shown = ", ".join(not_predicted[:3]) + (", ..." if len(not_predicted) > 3 else "")
        raise LookupError(f"{len(not_predicted)} parameters are not sharded as FSDP2 shards "
                          f"over one mesh dimension (Shard(0)): {shown}; their memory at "
                          f"{then} ranks is not predicted")
    mesh = mesh_bytes_per_rank(model)
    # A step that ends with gradients began with the last one's (a step that made them and
    # kept them).
    kept = any(p.grad is not None for p in model.parameters())
    peaks = [None] * then
    for source in range(min(now, SOURCE_RANKS)):
        curve = _trainscope.MemoryCurve(prefix_of(source))
        for r in range(then):
            peak = peak_at_ranks(curve, parameters, optimizer, now, source, then, r, mesh,
                                 kept)
            peaks[r] = peak if peaks[r] is None else min(peaks[r], peak)
        del curve
    what_ifs = []
    for r in range(then):
        w = WhatIf(f"the job over {then} ranks", f"rank {r}",
                   {"peak_bytes": peaks[r], "activation_bytes": baseline.activation_bytes,
                    "step_ms": None})  # the collectives at `then` ranks: not predicted
        w.job_rank = r
        what_ifs.append(w)
    return what_ifs


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _environment_of(rank, ranks, port):
    """This environment as torchrun gives a rank of a job of `ranks` on this machine, without
    the launcher's own (its agent's store, which the new job's rank 0 serves instead)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TORCHELASTIC_")}
    env.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(ranks),
               LOCAL_WORLD_SIZE=str(ranks), GROUP_RANK="0", GROUP_WORLD_SIZE="1",
               ROLE_RANK=str(rank), ROLE_WORLD_SIZE=str(ranks), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(port))
    return env


def run_job(entry, ranks, options, folder, timeout_s=VERIFY_TIMEOUT_S):
    """Runs `python -m trainscope profile ENTRY` (with `options`) as a job of `ranks` ranks on
    this machine, into `folder`; each rank's figures. Raises RuntimeError with the first
    failing rank's last line."""
    prefix = os.path.join(folder, "job")
    port = _free_port()
    processes = []
    for r in range(ranks):
        log = open(os.path.join(folder, f"rank{r}.log"), "w+")
        command = [sys.executable, "-m", "trainscope", "profile", entry, "-o", prefix, "-q",
                   "--force"] + options
        processes.append((subprocess.Popen(command, env=_environment_of(r, ranks, port),
                                           stdout=log, stderr=subprocess.STDOUT), log))
    failed = None
    try:
        for r, (process, log) in enumerate(processes):
            try:
                code = process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                raise RuntimeError(f"the job at {ranks} ranks did not end within {timeout_s} s")
            if code != 0 and failed is None:
                log.seek(0)
                lines = [line.strip() for line in log if line.strip()]
                failed = f"its rank {r} failed: " + (lines[-1] if lines else f"exit code {code}")
    finally:
        for process, log in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
            log.close()
    if failed:
        raise RuntimeError(failed)
    return [_trainscope.read_run_figures(f"{prefix}.rank{r}") for r in range(ranks)]


def verify_job(what_ifs, entry, ranks, options, device, say=None):
    """Runs the job at `ranks` ranks and gives each rank's what-if its measured figures; a rank
    whose report lacks something says so."""
    if device == "cuda" and torch.cuda.device_count() < ranks:
        why = (f"it needs {ranks} GPUs on this machine; this one has "
               f"{torch.cuda.device_count()}")
        for w in what_ifs:
            w.why_not = why
        return
    if say is not None:
        say(f"trainscope: verifying: the job over {ranks} ranks on this machine")
    with tempfile.TemporaryDirectory(prefix="trainscope-job-") as folder:
        try:
            measured = run_job(entry, ranks, options, folder)
        except (RuntimeError, OSError, _trainscope.Error) as e:
            for w in what_ifs:
                w.why_not = f"running it failed: {one_line(e)}"
            return
    for w in what_ifs:
        w.measured = measured[w.job_rank]
        if w.measured.memory_note and say is not None:
            say(f"trainscope: rank {w.job_rank} at {ranks} ranks: {w.measured.memory_note}")
