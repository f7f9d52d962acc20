# SPDX-License-Identifier: Apache-2.0
"""python3 -m trainscope advise ENTRY.py -o PREFIX: profiles the step as `profile` does (PREFIX's
three reports), then lists what-ifs, each predicted from what the step's forward saved for
backward (saved.py) and the measured figures; with --verify, each one that can be applied
automatically is run on a copy of the model and measured as `profile` measures, beside its
prediction. The user's model is never changed by a what-if: each runs on a deep copy.

The what-ifs (docs/python.md says how each is predicted): an activation module that keeps its
input (GELU, SiLU) swapped for ReLU; each block of a module list checkpointed; the model's
forward under bfloat16 autocast (autocast.py); gradients freed by zero_grad where the step keeps
them (gradients.py); Adam or AdamW against SGD with momentum, and its state sharded over ranks;
the largest batch size within a memory budget. Their peaks come from
the memory step's curve in the timeline report (MemoryCurve), changed as the what-if changes
the step's blocks."""

import bisect
import contextlib
import copy
import dataclasses
import gc
import inspect
import json
import os
import sys
import tempfile
import time

import torch
from torch import nn

from .. import _trainscope
from .autocast import AutocastSaved
from .gradients import OTHER_LEAF, KeptGradients
from .saved import SavedTensors, tensors_in
from .kernel_probe import temporaries
from .source_lines import BlockCallers, built_at, calls_in, shown_path
from .._tensors import storage_of
from .._text import one_line



def activation_kind(module):
    """"GELU" or "SiLU" for a module that computes one: nn.GELU, nn.SiLU, and a library's own
    activation module by its class name (transformers' GELUActivation or NewGELUActivation,
    timm's GELU or Swish: no weights, no submodules); else None."""
    if isinstance(module, nn.GELU):
        return "GELU"
    if isinstance(module, nn.SiLU):
        return "SiLU"
    name = type(module).__name__.lower()
    if module is None or "hard" in name or module._parameters or module._modules:
        return None
    if "gelu" in name:
        return "GELU"
    if "silu" in name or "swish" in name:
        return "SiLU"
    return None

SHOWN_MODULES = 5  # the activation modules that save the most, one what-if each
# The change of checkpointing some blocks of a container, followed by their paths.
FEWEST_BLOCKS = "checkpoint the fewest blocks that fit the budget"


class WhatIf:
    def __init__(self, change, target, predicted, why_not=""):
        self.change, self.target = change, target
        self.predicted = predicted  # peak_bytes, activation_bytes, step_ms (None: not predicted)
        self.measured = None
        self.why_not = why_not
        self.apply = None  # (model copy) -> None: the change made on a copy
        self.apply_step = None  # (the copy's step, its optimizer) -> None: a change to its step
        self.least_warmup = 0  # warm-up steps the measurement needs at least
        self.takes_state = True  # the copy's optimizer starts from the user's optimizer's state
        self.batch_size = None  # the inputs' batch size to measure it at (None: the step's)
        self.not_applicable = ""  # why it cannot be run, when it cannot
        self.source = None  # (file, line) of the user's code to change for it, where found
        self.step_ratio = None  # timed in turns with the step as it is (timed_in_turns)
        self.not_predicted = ""  # what its prediction leaves out, where it knows

    def as_dict(self):
        m = self.measured  # the session's RunFigures
        return {
            "change": self.change,
            "target": self.target,
            "predicted_peak_bytes": self.predicted["peak_bytes"],
            "predicted_activation_bytes": self.predicted["activation_bytes"],
            "predicted_step_ms": self.predicted["step_ms"],
            "measured_peak_bytes": m.peak_bytes if m else None,
            "measured_activation_bytes": m.activation_bytes if m else None,
            "measured_step_ms": m.step_ms if m else None,
            "verified": self.measured is not None,
            "why_not": self.why_not,
            "source_file": self.source[0] if self.source else None,
            "source_line": self.source[1] if self.source else None,
            "step_ratio": self.step_ratio,
            "not_predicted": self.not_predicted,
        }


def _swap(paths):
    """A change that replaces the modules at `paths` of a model (a copy) by nn.ReLU()."""
    def apply(model):
        for path in paths:
            parent_path, _, name = path.rpartition(".")
            parent = model.get_submodule(parent_path) if parent_path else model
            setattr(parent, name, nn.ReLU())
    return apply


def _merged(spans):
    """Spans (start, end) as disjoint ones, by start: nested calls lie in their parents'."""
    merged = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _within(time, spans):
    """Whether `time` lies in one of `spans` (disjoint, by start: _merged)."""
    i = bisect.bisect_right(spans, (time, float("inf")))
    return i > 0 and spans[i - 1][1] >= time


class MemoryCurve:
    """The memory step's curve, calls and blocks (the engine's: _trainscope.MemoryCurve, from
    the baseline's timeline and run time reports), and the change each what-if makes to the
    step's blocks, as intervals (start, end or None, bytes) to add to the curve."""

    def __init__(self, prefix):
        self._curve = _trainscope.MemoryCurve(prefix)
        self._made = {}  # phase -> its blocks (blocks_made_in): asked once each
        for name in ("highest", "highest_with", "highest_outside", "step_span", "phase_start",
                     "phase_spans", "calls", "forward_ms"):
            setattr(self, name, getattr(self._curve, name))

    def checkpointed(self, modules, kept_bytes):
        """What checkpointing each of `modules` does to the memory step's blocks, as intervals
        to add to the curve: a block that a module's forward made and its backward freed (what
        only its nodes kept) is not kept through the forward pass; it is made again when the
        module's backward begins (its forward recomputed) and freed as before. Each checkpoint
        keeps `kept_bytes` more from its module's forward to the end of its backward."""
        intervals = []
        for module in modules:
            forward = _merged(self._spans(module, within=True, backward=False))
            backward = _merged(self._spans(module, within=True, backward=True))
            if not forward or not backward:
                continue
            recomputed = min(start for start, _ in backward)
            intervals.append((forward[0][0], backward[-1][1], kept_bytes))
            for size, allocated, released in self.blocks_made_in("forward"):
                if released is not None and _within(allocated, forward) and \
                        _within(released, backward) and allocated < recomputed:
                    intervals.append((allocated, recomputed, -size))
        return intervals

    def module_spans(self, module, backward):
        """The spans of `module`'s own calls (forward) or backward nodes, by start."""
        return _merged(self._spans(module, within=False, backward=backward))

    def _spans(self, module, within, backward, name=None):
        """The spans of `module`'s calls (with `within`, its submodules' too; with `name`, of
        that call or node alone): forward calls, or backward nodes within the engine's
        evaluate_function call around each."""
        return self._curve.module_calls(module, within, backward, name or "")

    def _blocks(self, condition, size, start, end):
        """The forward's blocks of `size` bytes allocated (or freed: "releaseTime") within
        [start, end]."""
        return self._curve.forward_blocks(size, condition == "releaseTime", start, end)

    def swapped_for_relu(self, module, kind, inputs, outputs):
        """What swapping the `kind` activation ("GELU", "SiLU") called in `module` for ReLU does
        to the memory step's blocks, as intervals (start, end, bytes) to add to the curve. Call
        by call (the k-th forward call is the k-th backward node from the end): its saved
        input's block (made in a forward pass, of `inputs` bytes, freed as the node returns) is
        never made, and its output's block (made by the call, of `outputs` bytes) lives on until
        the node returns, as ReLU saves its output."""
        forward = self._spans(module, False, False, f"aten::{kind.lower()}")
        backward = sorted(self._spans(module, False, True, f"{kind.capitalize()}Backward0"),
                          reverse=True)
        intervals = []
        for (call_start, call_end), (node_start, node_end) in zip(forward, backward):
            for size in set(inputs):
                for size, allocated, _ in self._blocks("releaseTime", size, node_start,
                                                       node_end):
                    intervals.append((allocated, node_end, -size))
            for size in set(outputs):
                for size, _, released in self._blocks("allocationTime", size, call_start,
                                                      call_end):
                    if released is not None and released < node_end:
                        intervals.append((released, node_end, size))
        return intervals

    def composite_swapped_for_relu(self, module, freed, inputs, outputs):
        """What swapping an activation module that computes it in several operations for ReLU
        does to the memory step's blocks: what only its nodes saved is never made, its
        intermediates (blocks of a `freed` size made in its forward operations) and its input
        (of an `inputs` size: the latest such block made before its forward), each freed between
        backward reaching the module and its last backward node's end; its output's block (of
        an `outputs` size, made in its forward, the one freed last before backward reaches the
        module: the next layer saved it) lives on until then, as ReLU saves its output."""
        forward = _merged(self._spans(module, within=True, backward=False))
        backward = _merged(self._spans(module, within=True, backward=True))
        if not forward or not backward:
            return []
        reached, done = backward[0][0], backward[-1][1]
        made = [(size, allocated, released) for size, allocated, released
                in self.blocks_made_in("forward") if released is not None]
        wanted = {}
        for size in freed:
            wanted[size] = wanted.get(size, 0) + 1
        intervals = []
        for size, allocated, released in made:
            if wanted.get(size) and _within(allocated, forward) and reached <= released <= done:
                wanted[size] -= 1
                intervals.append((allocated, released, -size))
        for size in inputs:
            before = [(allocated, released) for s, allocated, released in made
                      if s == size and allocated < forward[0][0] and reached <= released <= done]
            if before:
                allocated, released = max(before)
                intervals.append((allocated, released, -size))
        kept = sorted(((released, size) for size, allocated, released in made
                       if size in outputs and _within(allocated, forward) and
                       released < reached), reverse=True)
        intervals += [(released, reached, size) for released, size in kept[:len(outputs)]]
        # Its backward nodes' temporaries (the gradients of its intermediates) are not made
        # either: of what they make, the gradient they pass on (the last freed of their blocks,
        # one per call) ReLU's node makes too.
        temporaries = sorted((released, allocated, size) for size, allocated, released
                             in self.blocks_made_in("backward")
                             if _within(allocated, backward) and released is not None)
        passed_on = max(0, len(temporaries) - len(outputs))
        intervals += [(allocated, released, -size) for released, allocated, size
                      in temporaries[:passed_on]]
        # ReLU's node makes the gradient it passes on as backward reaches it.
        intervals += [(reached, allocated, size) for released, allocated, size
                      in temporaries[passed_on:] if allocated > reached]
        return intervals

    def blocks_made_in(self, phase):
        """(size, allocated, released) of the memory step's blocks made in `phase`."""
        if phase not in self._made:
            self._made[phase] = self._curve.blocks_made_in(phase)
        return self._made[phase]


def activation_what_ifs(model, saved, baseline, curve, root):
    """GELU/SiLU -> ReLU: per activation module (those that would free the most first) and for
    all of them at once, each verifiable by swapping the module; and per line of the user's
    code that calls F.gelu or F.silu in a module's forward, predicted only (the line must be
    changed by hand). A change frees its input's storage where only the activation saved it,
    and adds its output's where nothing saved it; what its calls change is summed. The peak:
    the memory step's curve with those blocks changed (MemoryCurve.swapped_for_relu)."""
    savers = saved.savers()
    by_target = {}  # module path, or (file, line): what its calls free and add, and where
    for call in saved.activations:
        target = call.module if call.line is None else call.line
        entry = by_target.setdefault(target, {"kind": call.kind, "name": call.name, "freed": 0,
                                              "added": 0, "calls": [], "outputs": set()})
        address, nbytes = call.output
        entry["outputs"].add(address)
        entry["added"] += nbytes if savers.get(address, 0) == 0 else 0
        if call.line is None and not saved.single_node(call.module, call.kind):
            # A module that computes it in several operations (NewGELUActivation): all that
            # only its nodes saved is freed (its input, its intermediates), once for its calls.
            entry["composite"] = True
            entry["calls"].append((call.module, [], nbytes))
            continue
        address, nbytes = call.input
        freed = nbytes if savers.get(address, 0) == 1 else 0
        entry["freed"] += freed
        entry["calls"].append((call.module, [freed] if freed else [], nbytes))
    for target, entry in by_target.items():
        if entry.get("composite"):
            only, _ = saved.within([target])
            inputs = {call.input[0] for call in saved.activations if call.module == target}
            entry["input_sizes"] = [n for a, n in only.items() if a in inputs]
            entry["freed_sizes"] = [n for a, n in only.items()
                                    if a not in entry["outputs"] and a not in inputs]
            entry["freed"] = sum(entry["freed_sizes"]) + sum(entry["input_sizes"])
    highest = curve.highest()

    def predicted(targets):
        freed = sum(by_target[t]["freed"] for t in targets)
        added = sum(by_target[t]["added"] for t in targets)
        per_module = {}  # (module, kind) -> freed inputs' and outputs' sizes
        intervals = []
        for t in targets:
            if by_target[t].get("composite"):
                intervals += curve.composite_swapped_for_relu(
                    t, by_target[t]["freed_sizes"], by_target[t]["input_sizes"],
                    [o for _, _, o in by_target[t]["calls"]])
                continue
            for module, inputs, output in by_target[t]["calls"]:
                sizes = per_module.setdefault((module, by_target[t]["kind"]), ([], []))
                sizes[0].extend(inputs)
                sizes[1].append(output)
        intervals += [interval for (module, kind), (inputs, outputs) in per_module.items()
                      for interval in curve.swapped_for_relu(module, kind, inputs, outputs)]
        return {"peak_bytes": baseline.peak_bytes - highest + curve.highest_with(intervals),
                "activation_bytes": baseline.activation_bytes - freed + added,
                "step_ms": baseline.step_ms}

    def gain(target):
        return by_target[target]["added"] - by_target[target]["freed"]

    modules = sorted((t for t in by_target if isinstance(t, str)), key=gain)
    lines = sorted((t for t in by_target if not isinstance(t, str)), key=gain)
    what_ifs = []
    for path in modules[:SHOWN_MODULES]:
        what_if = WhatIf(f"{by_target[path]['name']} -> ReLU", path, predicted([path]))
        what_if.apply = _swap([path])
        what_if.source = built_at(model, path)
        what_ifs.append(what_if)
    if len(modules) > 1:
        kinds = sorted({by_target[t]["name"] for t in modules})
        what_if = WhatIf(f"{' and '.join(kinds)} -> ReLU", "every such module",
                         predicted(modules))
        what_if.apply = _swap(modules)
        what_ifs.append(what_if)
    for file, line in lines[:SHOWN_MODULES]:
        where = f"{shown_path(file, root)}:{line}"
        function = f"F.{by_target[(file, line)]['kind'].lower()}"
        what_if = WhatIf(f"{function} -> F.relu", where, predicted([(file, line)]))
        what_if.source = (file, line)
        what_if.not_applicable = (f"a call of {function} in your code: change it to F.relu at "
                                  f"{where}")
        what_ifs.append(what_if)
    return what_ifs


class _Checkpointed(nn.Module):
    """A module run under activation checkpointing (torch.utils.checkpoint, non-reentrant):
    its forward keeps its inputs alone and runs again in backward."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, *args, **kwargs):
        from torch.utils.checkpoint import checkpoint
        return checkpoint(self.inner, *args, use_reentrant=False, **kwargs)


def _checkpoint(container, blocks):
    """A change that checkpoints `blocks` (paths) of `container` in a model (a copy). A
    transformers model's key/value cache is turned off, as its own gradient_checkpointing_enable
    does: run again in backward, a block would add to the cache a second time."""
    def apply(model):
        config = getattr(model, "config", None)
        if getattr(config, "use_cache", False) is True:
            config.use_cache = False
        parent = model.get_submodule(container) if container else model
        for path in blocks:
            name = path.rpartition(".")[2]
            setattr(parent, name, _Checkpointed(getattr(parent, name)))
    return apply


def block_containers(model):
    """Module lists and sequences of two or more blocks of one class with weights (a
    transformer's layers, a ResNet stage): the places where each block can be checkpointed."""
    found = []
    for path, module in model.named_modules():
        if not isinstance(module, (nn.ModuleList, nn.Sequential)):
            continue
        children = list(module.named_children())
        if len(children) >= 2 and len({type(child) for _, child in children}) == 1 and \
                all(any(True for _ in child.parameters()) for _, child in children):
            found.append((path, [f"{path}.{name}" if path else name for name, _ in children]))
    return found


def checkpoint_what_ifs(model, saved, baseline, curve, forward_ms, device, budget=None):
    """Each block of a container checkpointed: what only the blocks' nodes saved is freed,
    except the blocks' inputs, which the checkpoints keep (and add, where nothing saved them),
    and each checkpoint keeps the CPU's random number generator's state (a tensor, so that its
    forward runs again with the same dropout masks: 5,056 bytes, counted where the step runs on
    the CPU); the peak from the curve with those blocks made again as each block's backward
    begins; the step longer by the blocks' forward time (run again in backward).

    With a memory budget that the step exceeds and checkpointing every block meets: the fewest
    blocks, those that free the most activations first, whose checkpoints bring the peak within
    it (less time run again than every block)."""
    rng_state = torch.get_rng_state().numel() if device == "cpu" else 0

    def activations(blocks):
        only, elsewhere = saved.within(blocks)
        inputs = {}
        for block in blocks:
            inputs.update(saved.inputs_of.get(block, {}))
        freed = sum(n for a, n in only.items() if a not in inputs)
        added = sum(n for a, n in inputs.items()
                    if a not in only and a not in elsewhere and a not in saved.lasting)
        return baseline.activation_bytes - freed + added + rng_state * len(blocks)

    def predicted(blocks):
        highest = curve.highest_with(curve.checkpointed(blocks, rng_state))
        return {"peak_bytes": baseline.peak_bytes - curve.highest() + highest,
                "activation_bytes": activations(blocks),
                "step_ms": baseline.step_ms + sum(forward_ms(b) for b in blocks)}

    what_ifs = []
    for container, blocks in block_containers(model):
        every = predicted(blocks)
        what_if = WhatIf("checkpoint each block", container or "the model", every)
        what_if.apply = _checkpoint(container, blocks)
        what_if.source = saved.block_callers.get(container)
        what_ifs.append(what_if)
        if budget is None or every["peak_bytes"] > budget or baseline.peak_bytes <= budget:
            continue
        ordered = sorted(blocks, key=lambda b: activations([b]))  # stable: ties in order
        for count in range(1, len(blocks)):
            chosen = ordered[:count]
            figures = predicted(chosen)
            if figures["peak_bytes"] <= budget:
                what_if = WhatIf(f"{FEWEST_BLOCKS}: {', '.join(chosen)}",
                                 container or "the model", figures)
                what_if.apply = _checkpoint(container, chosen)
                what_if.source = saved.block_callers.get(container)
                what_ifs.append(what_if)
                break
    return what_ifs


def _state_bytes(optimizer):
    """The bytes of an optimizer's state tensors (each storage once)."""
    storages = {}
    for state in optimizer.state.values():
        for value in state.values():
            if isinstance(value, torch.Tensor) and value.numel() > 0:
                address, nbytes = storage_of(value)
                storages[address] = nbytes
    return sum(storages.values())


def _swap_for_sgd(step, optimizer):
    """Gives the copy's step SGD with momentum in place of `optimizer`, its Adam or AdamW: in
    its closure (or its `optimizer` attribute), made again over the same parameters and
    learning rates. Raises LookupError where the step holds it elsewhere."""
    cells = [cell for cell in (getattr(step, "__closure__", None) or ())
             if optimizer is not None and _cell_value(cell) is optimizer]
    if not cells and (optimizer is None or getattr(step, "optimizer", None) is not optimizer):
        raise LookupError("the step holds its optimizer where it cannot be swapped "
                          "(not in its closure)")
    sgd = torch.optim.SGD([{"params": group["params"], "lr": group["lr"]}
                           for group in optimizer.param_groups],
                          lr=optimizer.param_groups[0]["lr"], momentum=0.9)
    for cell in cells:
        cell.cell_contents = sgd
    if getattr(step, "optimizer", None) is optimizer:
        step.optimizer = sgd


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None


def optimizer_what_ifs(optimizer, baseline, curve):
    """Adam or AdamW's two moments against SGD with momentum's one buffer per parameter: the
    state falls by the difference, which is alive through the whole step. The peak: the
    memory step's curve outside the optimizer's step, lower by that difference (the optimizer's
    own step is another algorithm's, with its own temporaries: not predicted); activations and
    the step's time are predicted unchanged."""
    if not isinstance(optimizer, (torch.optim.Adam, torch.optim.AdamW)) or not optimizer.state:
        return []
    momentum = sum(p.numel() * p.element_size() for group in optimizer.param_groups
                   for p in group["params"] if p in optimizer.state)
    change = momentum - _state_bytes(optimizer)
    outside = curve.highest_outside("optimizer")
    what_if = WhatIf(f"{type(optimizer).__name__} -> SGD with momentum", "the optimizer",
                     {"peak_bytes": baseline.peak_bytes - curve.highest() + outside + change,
                      "activation_bytes": baseline.activation_bytes,
                      "step_ms": baseline.step_ms})
    what_if.apply_step = _swap_for_sgd
    what_if.takes_state = False  # SGD's own, made afresh: Adam's would be held for nothing
    what_if.least_warmup = 1  # SGD's buffers are made in its first step, as Adam's were
    return [what_if]


def autocast_what_ifs(model, autocast, baseline, curve, device, gradients=None, run_again=()):
    """The model's forward under torch.autocast with bfloat16, where the step runs in float32
    (its parameters are float32 and its forward is not under autocast already): the saved
    tensors as autocast would make them (autocast.py), the activations changed by what they
    would cost less what they cost. The peak: the memory step's curve with each saved tensor's
    change from its module's first forward call to its last backward node's end, and the
    blocks that backward makes of the size of a tensor that would be bfloat16 halved, each
    weight's gradient in bfloat16 until it is cast (_weight_gradient_casts), and on the CPU
    what the bfloat16 kernels take for themselves beyond the float32 ones, measured
    (_kernel_temporaries). The step's time is predicted unchanged (what bfloat16 gains depends
    on the processor). Verified by running the copy's forward under autocast. Not predicted,
    and said so: the modules whose forward runs again in backward (`run_again`: a checkpoint's
    recomputation, whose saved tensors and temporaries under autocast are not modelled), and
    on CUDA the kernels' workspaces."""
    if autocast is None or autocast.already or not autocast.recorded() or any(
            p.dtype != torch.float32 for p in model.parameters()) or (
            device == "cuda" and not torch.cuda.is_bf16_supported()):
        return []
    # Each saved tensor's change from its module's first forward call to the end of its last
    # backward node (the step's own, such as its loss, through the forward and backward
    # passes), and each block that backward makes of the size of a tensor that would be
    # bfloat16 (its gradient) half as large.
    optimizer = curve.phase_start("optimizer")
    passes = (curve.step_span()[0], optimizer)
    lifetimes = {None: passes}

    def lifetime(modules):
        for module in modules:
            if module not in lifetimes:
                forward = curve.module_spans(module, backward=False)
                backward = curve.module_spans(module, backward=True)
                lifetimes[module] = (forward[0][0], backward[-1][1]) if forward and \
                    backward else passes
        return (min(lifetimes[m][0] for m in modules), max(lifetimes[m][1] for m in modules))
    changes = autocast.changes()
    change = sum(c for _, c, _ in changes)
    intervals = [(*(block and _saved_block(curve, *block) or lifetime(modules)), c)
                 for modules, c, block in changes]
    halved, met_constants = autocast.halved_sizes()
    casts, weight_gradients = _weight_gradient_casts(model, autocast, curve, gradients)
    intervals += [(allocated, min(released if released is not None else optimizer, optimizer),
                   -(size // 2)) for size, allocated, released
                  in curve.blocks_made_in("backward") if (size in halved or size in met_constants)
                  and allocated < optimizer and allocated not in weight_gradients]
    intervals += casts
    intervals += _cached_casts(model, autocast, curve)
    if device == "cpu":  # CUDA's kernels take workspaces of cuBLAS's and cuDNN's: not probed
        intervals += _kernel_temporaries(autocast.operations(), curve)
    peak = curve.highest_with(intervals)
    what_if = WhatIf("bfloat16 autocast of the forward", "the model",
                     {"peak_bytes": baseline.peak_bytes - curve.highest() + peak,
                      "activation_bytes": baseline.activation_bytes + change,
                      "step_ms": baseline.step_ms})
    left_out = []
    outermost = [path for path in run_again if not any(
        other != path and (other == "" or path.startswith(other + ".")) for other in run_again)]
    if outermost:
        names = ", ".join(path or "the model" for path in outermost)
        left_out.append(f"the forward of {names} run again in backward (a checkpoint) under "
                        "autocast")
    if device == "cuda":
        left_out.append("the CUDA kernels' workspaces (cuBLAS's, cuDNN's)")
    what_if.not_predicted = "; ".join(left_out)

    def apply(candidate):
        candidate.forward = torch.autocast(device_type=device,
                                           dtype=torch.bfloat16)(candidate.forward)
    what_if.apply = apply
    return [what_if]


def _saved_block(curve, nbytes, nodes):
    """The block of a tensor that only the step's own nodes saved (the loss's input), as
    (allocated, released): the latest block of its size made in the forward and freed as one
    of those nodes (by name, outside every submodule) returned in backward; None where there
    is none."""
    found = [(allocated, released) for name in nodes
             for start, end in curve._spans("", False, True, name)
             for _, allocated, released in curve._blocks("releaseTime", nbytes, start, end)]
    return max(found) if found else None


def _cached_casts(model, autocast, curve):
    """The parameters' casts that autocast's cache holds and no node saves, as intervals: in
    each forward pass, from the first call of a module that casts it to the model's return,
    where the cache is cleared (the end of its submodules' last call: what the model's own
    forward does after them is not told apart from the loss)."""
    cached = autocast.cached_casts()
    if not cached:
        return []
    calls = [span for child, _ in model.named_children()
             for span in curve._spans(child, within=True, backward=False)]
    # Each module's calls, asked once (each asking reads every call of the timeline).
    starts = {module: [s for s, _ in curve.module_spans(module, backward=False)]
              for modules, _ in cached for module in modules if module}
    intervals = []
    for start, end in curve.phase_spans("forward"):
        returned = max((e for s, e in calls if start <= s and e <= end), default=end)
        for modules, nbytes in cached:
            firsts = [s for module in modules if module for s in starts[module]
                      if start <= s <= returned]
            if firsts or not all(modules):  # the model's own call: from the pass's start
                intervals.append((min(firsts, default=start), returned, nbytes))
    return intervals


def _kernel_temporaries(operations, curve):
    """What the operations autocast runs in bfloat16 take for themselves beyond what they take
    in float32 (kernel_probe, measured on this machine), as intervals over their calls: each
    module's forward calls, the largest of its operations' forward temporaries; each of its
    backward nodes, its own (the k-th node of a name from the end is its k-th forward's)."""
    measured = temporaries([operation for _, _, operation in operations
                            if operation is not None])
    if not measured:
        return []
    intervals = []
    by_module = {}
    for module, name, operation in operations:
        if operation in measured:
            by_module.setdefault(module, []).append((name, measured[operation]))
    forward_passes = curve.phase_spans("forward")
    for module, made in by_module.items():
        forward = max(change for _, (change, _) in made)
        if forward:  # its calls in the forward passes (its operations in backward are others)
            intervals += [(start, end, forward) for start, end in
                          curve.module_spans(module, backward=False)
                          if any(s <= start and end <= e for s, e in forward_passes)]
        for name in {name for name, _ in made}:
            changes = [change for n, (_, change) in made if n == name]
            nodes = sorted(curve._spans(module, False, True, name), reverse=True)
            if len(nodes) != len(changes):  # micro-batches, a node run again: the largest
                changes = [max(changes)] * len(nodes)
            intervals += [(start, end, change) for (start, end), change in zip(nodes, changes)
                          if change]
    return intervals


def _weight_gradient_casts(model, autocast, curve, gradients):
    """Under autocast, backward gives a parameter cast to bfloat16 (a matrix product's weight)
    its gradient in bfloat16, half the float32 step's block, from the node that makes it (the
    latest block of the parameter's size made in backward before its accumulation) to the
    node that casts it to float32 for the parameter's .grad; while that one casts, both are
    alive, half the parameter's bytes more than the float32 step's one gradient (where the
    float32 step accumulates it). As intervals, with the allocation times of the gradients'
    blocks (their own change is this one, not that of a block of a bfloat16 tensor's size).
    The accumulations are the timeline's AccumulateGrad calls, matched in order with the
    hooks' record: none where they differ."""
    if gradients is None:
        return [], set()
    accumulations = curve.calls("torch::autograd::AccumulateGrad")
    if len(accumulations) != len(gradients.order):
        return [], set()
    cast = autocast.cast_parameters()
    parameters = [storage_of(p) for p in model.parameters() if p.requires_grad]
    made = curve.blocks_made_in("backward")
    intervals, blocks = [], set()
    for (start, end), index in zip(accumulations, gradients.order):
        if index == OTHER_LEAF:
            continue
        address, nbytes = parameters[index]
        if address not in cast:
            continue
        intervals.append((start, end, nbytes // 2))
        allocations = [allocated for size, allocated, released in made
                       if size == nbytes and allocated < start and allocated not in blocks and
                       (released is None or released >= start)]
        if allocations:
            blocks.add(max(allocations))
            intervals.append((max(allocations), start, -(nbytes // 2)))
    return intervals, blocks


def _absent(times, zeroings, start):
    """The intervals in which a gradient is not held when zero_grad frees it: from each zeroing
    to the next accumulation into it (`times`); where the step's last event is a zeroing, the
    next step begins without it too, until its first accumulation."""
    events = sorted([(t, True) for t in zeroings] + [(t, False) for t in times])
    since = start if events and events[-1][1] else None
    intervals = []
    for time, zeroing in events:
        if zeroing and since is None:
            since = time
        elif not zeroing and since is not None:
            intervals.append((since, time))
            since = None
    if since is not None:
        intervals.append((since, None))
    return intervals


def gradient_what_ifs(gradients, baseline, curve):
    """zero_grad(set_to_none=True) where the step keeps its gradients zeroed through the forward
    pass: each parameter's gradient is not held from zero_grad's call (the step's start where the
    timeline names none: a model's zero_grad) until backward first accumulates into it, where
    the incoming gradient becomes it (AccumulateGrad takes it, where it added it into the kept
    one and freed it before: the same bytes after). Its accumulations are the timeline's
    AccumulateGrad calls, matched in order with the hooks' record; where their counts differ,
    each gradient is predicted freed through the forward pass only. Activations and the step's
    time are predicted unchanged."""
    if gradients is None or not any(gradients.kept):
        return []
    start, _ = curve.step_span()
    zeroings = [end for _, end in curve.calls("Optimizer.zero_grad#", prefix=True)] or [start]
    accumulations = [t for t, _ in curve.calls("torch::autograd::AccumulateGrad")]
    times = {}
    if len(accumulations) == len(gradients.order):
        for index, time in zip(gradients.order, accumulations):
            times.setdefault(index, []).append(time)
    backward = curve.phase_start("backward")
    intervals = [(since, until, -nbytes)
                 for index, nbytes in enumerate(gradients.kept) if nbytes
                 for since, until in _absent(times.get(index, [backward]), zeroings, start)]
    what_if = WhatIf("zero_grad(set_to_none=True)", "the gradients",
                     {"peak_bytes": baseline.peak_bytes - curve.highest() +
                      curve.highest_with(intervals),
                      "activation_bytes": baseline.activation_bytes,
                      "step_ms": baseline.step_ms})
    what_if.apply = _zero_grad_to_none
    what_if.apply_step = lambda step, optimizer: _zero_grad_to_none(optimizer)
    return [what_if]


def _zero_grad_to_none(owner):
    """Makes a model's or an optimizer's (the copy's) zero_grad free the gradients, whatever the
    step asks of it."""
    if owner is None:
        return
    kind = type(owner)
    owner.zero_grad = lambda set_to_none=True: kind.zero_grad(owner, set_to_none=True)


def sharded_state_what_ifs(optimizer, baseline, ranks):
    """The optimizer's state sharded over `ranks` ranks (ZeRO-1, ZeroRedundancyOptimizer):
    each parameter's state on one rank, parameters given largest first to the rank that holds
    least so far (as ZeroRedundancyOptimizer partitions them); the most loaded rank's peak falls
    by the state it no longer holds, which is alive through the whole step. Predicted only: it
    needs the ranks."""
    if not ranks or ranks < 2 or optimizer is None or not optimizer.state:
        return []
    per_parameter = []
    for parameter, state in optimizer.state.items():
        storages = {storage_of(v) for v in state.values()
                    if isinstance(v, torch.Tensor) and v.numel() > 0}
        per_parameter.append((parameter.numel(), sum(n for _, n in storages)))
    held = [0] * ranks
    for _, nbytes in sorted(per_parameter, reverse=True):
        held[held.index(min(held))] += nbytes
    kept_away = sum(n for _, n in per_parameter) - max(held)
    what_if = WhatIf(f"optimizer state sharded over {ranks} ranks (ZeRO-1)", "the optimizer",
                     {"peak_bytes": baseline.peak_bytes - kept_away,
                      "activation_bytes": baseline.activation_bytes,
                      "step_ms": None})  # its communication: not predicted
    what_if.not_applicable = (f"it needs {ranks} ranks: wrap the optimizer in "
                              f"torch.distributed.optim.ZeroRedundancyOptimizer and run the step "
                              f"under torchrun")
    return [what_if]


def other_batch_sizes(batch):
    """The batch sizes the step may be recorded at a second time to predict others, in the
    order tried: half the step's (cheaper, and never out of memory where the step was not),
    then twice it; a batch of 1 or 2 takes other paths in some operations (a squeezed matmul)
    that a batch of 2 or 4 does not, so those are never halved."""
    return [batch // 2, batch * 2] if batch >= 4 else [batch * 2]


def _shapes(inputs):
    return [tuple(t.shape) for t in inputs if isinstance(t, torch.Tensor)]


def _recorded_at(users, batch, other):
    """The step recorded on a copy of the model at batch size `other`: its figures and the
    engine's MemoryCurve. Raises LookupError saying why it could not be."""
    candidate, give_state = copy_of(users.model, users.optimizer)
    try:
        inputs = users.inputs_at(other)
        if _shapes(inputs) == _shapes(users.inputs):
            raise LookupError(f"input_provider(batch_size={other}) gave inputs of the same "
                              f"shapes as the step's (batch size {batch}): it does not use the "
                              f"batch size it is given")
        measured = measure(candidate, users, inputs, users.warmup, give_state,
                           with_curve=True)
        figures, curve = measured.figures, measured.curve
    except LookupError:
        raise
    except Exception as e:
        raise LookupError(f"recording the step at batch size {other} raised "
                          f"{type(e).__name__}: {one_line(e)}") from None
    finally:
        del candidate
        gc.collect()
    if figures is None:
        raise LookupError(f"observing the step at batch size {other} failed (the line above "
                          f"says why)")
    return figures, curve


def batch_size_what_ifs(users, baseline, curve, budget, batch, say=None):
    """The largest batch size whose peak is within `budget` bytes, and the one above it (which
    must not fit). The step is recorded a second time, at another batch size, on a copy of the
    model: sample by sample, the curve's total lies on the line through its two recordings, so
    the peak is predicted over the whole step at any batch (at a larger one it may lie
    elsewhere than at the step's own: where the activations are rather than the gradients),
    and the activations and the step's time on the lines through the two."""
    if budget is None:
        return []
    reason = ("the step's batch size is not known (give --batch-size)" if batch is None else
              "it records the step at a second batch size, through "
              "input_provider(batch_size=N), which takes no batch_size"
              if users.inputs_at is None else "")
    other = second = second_curve = None
    tried = []
    for size in ([] if reason else other_batch_sizes(batch)):
        if say is not None:
            say(f"trainscope: recording the step at batch size {size}, to predict others")
        try:
            second, second_curve = _recorded_at(users, batch, size)
        except LookupError as e:
            reason = str(e)
            break
        if curve.highest_at_batch(second_curve, batch, size, batch) is not None:
            other, reason = size, ""
            break
        tried.append(str(size))
        reason = (f"the step at batch size {' or '.join(tried)} made other calls than at "
                  f"{batch}, so its peak at another batch is not predicted")
    largest = None
    if not reason:
        largest = curve.largest_batch_within(second_curve, batch, other, budget)
        if largest is None:
            reason = "nothing in the step grows with the batch"
    if reason:
        what_if = WhatIf("the largest batch size within the budget", "the inputs",
                         {"peak_bytes": baseline.peak_bytes,
                          "activation_bytes": baseline.activation_bytes,
                          "step_ms": baseline.step_ms})
        what_if.not_applicable = reason
        return [what_if]

    def line(mine, theirs, size):  # through (batch, mine) and (other, theirs)
        return mine + (theirs - mine) / (other - batch) * (size - batch)
    # The step's time on its line through the two, where the larger batch took longer; where
    # the machine's noise made the smaller one as slow, the step's forward and backward passes
    # are taken to grow in proportion to the batch (the rest, the optimizer's step, stays).
    time_per_sample = (second.step_ms - baseline.step_ms) / (other - batch)
    if time_per_sample <= 0:
        time_per_sample = (baseline.forward_ms + baseline.backward_ms) / batch
    what_ifs = []
    for size in ([1] if largest == 0 else [largest, largest + 1]):
        what_if = WhatIf(f"batch size {batch} -> {size}", "the inputs", {
            "peak_bytes": curve.highest_at_batch(second_curve, batch, other, size),
            "activation_bytes": int(round(line(baseline.activation_bytes,
                                               second.activation_bytes, size))),
            "step_ms": baseline.step_ms + time_per_sample * (size - batch)})
        if largest == 0:
            what_if.change += " (no batch fits the budget)"
        elif size > largest:
            what_if.change += " (the first above the budget)"
        what_if.batch_size = size
        what_ifs.append(what_if)
    return what_ifs


def copy_of(model, optimizer):
    """A copy of the model as the step finds it: its weights and buffers, its parameters'
    gradients (deepcopy leaves them out: a step that accumulates into them would allocate
    afresh), and a function that gives the copy's optimizer the original's state."""
    candidate = copy.deepcopy(model)
    for mine, theirs in zip(candidate.parameters(), model.parameters()):
        mine.grad = None if theirs.grad is None else theirs.grad.detach().clone()

    def give_state(step_optimizer):
        if optimizer is not None and step_optimizer is not None and optimizer.state:
            step_optimizer.load_state_dict(copy.deepcopy(optimizer.state_dict()))
    return candidate, give_state


@dataclasses.dataclass
class UsersStep:
    """The user's step as advise finds it: the model and optimizer it trains, how the entry
    point makes a step for a model (`make_step`) and where that step's optimizer is
    (`optimizer_of`), its inputs (and `inputs_at(batch)`, where input_provider takes a batch
    size), and how it is measured: the project's root, the warm-up and observed steps."""
    model: object
    optimizer: object
    make_step: object
    optimizer_of: object
    inputs: tuple
    root: str
    warmup: int
    iterations: int
    inputs_at: object = None


def step_of_copy(model, users, give_state, apply_step=None, takes_state=True):
    """The step iteration_provider makes for `model` (a copy of `users`' model), its optimizer
    given the user's optimizer's state (`takes_state`) and changed by `apply_step`. Raises
    LookupError where that step would train the user's model (an iteration_provider that uses a
    model or optimizer of its own, not the one it is given)."""
    step = users.make_step(model)
    step_optimizer = users.optimizer_of(step)
    copys = {id(p) for p in model.parameters()}
    if step_optimizer is not None and (step_optimizer is users.optimizer or any(
            id(p) not in copys for group in step_optimizer.param_groups
            for p in group["params"])):
        raise LookupError("the step's optimizer is not the one iteration_provider made for the "
                          "model it was given: running it would train your model")
    if takes_state:
        give_state(step_optimizer)
    if apply_step is not None:
        apply_step(step, step_optimizer)
    return step


@dataclasses.dataclass
class Measured:
    figures: object  # the session's RunFigures; None where observing failed
    curve: object = None  # the engine's MemoryCurve of its memory step, where asked for
    step_ratio: dict = None  # timed in turns with the step as it is (timed_in_turns)


def measure(model, users, inputs, warmup, give_state, apply_step=None, takes_state=True,
            with_curve=False, against=None):
    """The step of `model` (a copy of `users`' model, changed) measured as `profile` measures
    it, on `inputs` with `warmup` steps first: warm-up steps, the memory step and timed steps,
    under trainscope.profile, into a folder of its own that is removed after; `with_curve`, its
    memory step's curve read before the folder goes; `against` (the step as it is on a copy of
    its own, and its inputs), the two then timed in turns. Raises LookupError, before running
    it, where the step made for the copy would train the user's model."""
    from .._profile import profile
    step = step_of_copy(model, users, give_state, apply_step, takes_state)
    with tempfile.TemporaryDirectory(prefix="trainscope-what-if-") as folder:
        observing = profile(os.path.join(folder, "what-if"), model=model,
                            optimizer=users.optimizer_of(step), warmup=warmup,
                            active=users.iterations, project_root=users.root)
        with observing:
            for _ in range(warmup + users.iterations):
                step(*inputs)
                observing.step()
        measured = Measured(observing.figures)
        if measured.figures is not None and with_curve:
            measured.curve = _trainscope.MemoryCurve(os.path.join(folder, "what-if"))
    if measured.figures is not None and against is not None:
        measured.step_ratio = timed_in_turns(step, inputs, *against, _device_of(model),
                                             max(TIMED_PAIRS, users.iterations))
    return measured


# Pairs of steps timed in turns: enough for a median and a range that one slow step does not
# make, few enough to keep --verify's time within a few of the step's.
TIMED_PAIRS = 7


def timed_in_turns(step, inputs, as_it_is, its_inputs, device, pairs):
    """A what-if's step and the step as it is, each on its own copy, timed in turns in this
    process (unobserved: as the user's loop runs them), after one step of each: in each pair the
    one that goes first alternates, so that a machine that grows slower or faster weighs on
    both. The ratio of each pair's times (what-if / as it is): their median, lowest, highest."""
    def timed(run, args):
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        run(*args)
        if device == "cuda":
            torch.cuda.synchronize()
        return time.perf_counter() - start
    step(*inputs)
    as_it_is(*its_inputs)
    ratios = []
    for pair in range(pairs):
        if pair % 2 == 0:
            mine, theirs = timed(step, inputs), timed(as_it_is, its_inputs)
        else:
            theirs, mine = timed(as_it_is, its_inputs), timed(step, inputs)
        ratios.append(mine / theirs)
    ratios.sort()
    return {"median": ratios[len(ratios) // 2], "low": ratios[0], "high": ratios[-1],
            "pairs": len(ratios)}


def advise(users, baseline, prefix, saved, *, verify=False, say=None, budget=None, batch=None,
           ranks=None):
    """The what-ifs for `users` step (a UsersStep), predicted from what its forward saved and
    the baseline's reports (figures, and PREFIX's timeline and run time report); with
    `verify`, each measured on a copy of the model, `say` told of each."""
    model, optimizer = users.model, users.optimizer
    curve = MemoryCurve(prefix)
    what_ifs = activation_what_ifs(model, saved, baseline, curve, users.root)
    device = _device_of(model)
    what_ifs += checkpoint_what_ifs(model, saved, baseline, curve, curve.forward_ms, device,
                                    budget)
    what_ifs += autocast_what_ifs(model, saved.autocast, baseline, curve, device,
                                  saved.gradients, saved.run_again)
    what_ifs += gradient_what_ifs(saved.gradients, baseline, curve)
    what_ifs += optimizer_what_ifs(optimizer, baseline, curve)
    what_ifs += sharded_state_what_ifs(optimizer, baseline, ranks)
    what_ifs += batch_size_what_ifs(users, baseline, curve._curve, budget, batch, say)
    del curve  # the timeline it holds: the verifications below need the memory
    what_ifs = without_impossible(what_ifs)
    # The lines of the step's own code: where the optimizer is built, where zero_grad is called.
    step_code = [users.make_step, inspect.getmodule(users.make_step)]
    for w in what_ifs:
        if w.target == "the optimizer" and optimizer is not None:
            w.source = calls_in(step_code, {type(optimizer).__name__})
        elif w.target == "the gradients":
            w.source = calls_in(step_code, {"zero_grad"})
        if w.source is not None:
            w.source = (shown_path(w.source[0], users.root), w.source[1])
    for w in what_ifs:
        w.why_not = w.not_applicable or ("" if verify else "not asked (--verify runs it)")
    if not verify:
        return what_ifs
    # The step as it is, on a copy of its own, to time each what-if against in turns.
    as_it_is = None
    if any(not w.not_applicable for w in what_ifs):
        try:
            base, give_state = copy_of(model, optimizer)
            as_it_is = (step_of_copy(base, users, give_state), users.inputs)
        except Exception as e:  # the what-ifs below meet it again, and say so
            if say is not None:
                say(f"trainscope: the step as it is is not timed in turns with the what-ifs: "
                    f"{one_line(e)}")
    for i, w in enumerate(what_ifs):
        if w.not_applicable:
            continue
        if say is not None:
            say(f"trainscope: verifying {i + 1}/{len(what_ifs)}: {w.change} at {w.target}")
        # A what-if that cannot run (out of memory at a larger batch, a block that cannot be
        # checkpointed) says why and the others still run: the step's own exceptions included.
        candidate = None
        try:
            candidate, give_state = copy_of(model, optimizer)
            if w.apply is not None:
                w.apply(candidate)
            if w.batch_size is not None and users.inputs_at is None:
                raise LookupError("input_provider takes no batch_size")
            inputs = users.inputs if w.batch_size is None else users.inputs_at(w.batch_size)
            measured = measure(candidate, users, inputs, max(users.warmup, w.least_warmup),
                               give_state, w.apply_step, w.takes_state, against=as_it_is)
            w.measured, w.step_ratio = measured.figures, measured.step_ratio
            if w.measured is None:
                w.why_not = "observing it failed (the line above says why)"
        except LookupError as e:
            w.why_not = str(e)
        except Exception as e:
            w.why_not = f"running it raised {type(e).__name__}: {one_line(e)}"
        finally:
            del candidate
            gc.collect()
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
    return what_ifs


def without_impossible(what_ifs, stream=sys.stderr):
    """The what-ifs whose predicted figures are no negative numbers: one below zero is a fault
    of the prediction, said in a line of its own, and the others are still offered."""
    kept = []
    for w in what_ifs:
        p = w.predicted
        step = p["step_ms"] if p["step_ms"] is not None else 0.0  # None: not predicted
        if min(p["peak_bytes"], p["activation_bytes"], step) >= 0:
            kept.append(w)
            continue
        stream.write(f"trainscope: left out: {w.change} at {w.target}: its prediction came out "
                     f"below zero (peak {p['peak_bytes']} bytes, activations "
                     f"{p['activation_bytes']} bytes, step {step:.3f} ms), a fault of "
                     f"TrainScope's\n")
    return kept


def _device_of(model):
    return next((p.device.type for p in model.parameters()), "cpu")


# What a compiled step's what-ifs leave out: the advisor reads autograd's graph as eager code
# makes it, so a step that torch.compile compiled is recorded running its eager Python.
COMPILED_NOT_PREDICTED = ("the step is compiled (torch.compile): what it saves for backward was "
                          "recorded from its eager run, and Inductor's fused code may save less")


@contextlib.contextmanager
def eagerly_if_compiled():
    """Runs torch.compile'd code as its eager Python while the block runs (torch.compiler's
    force_eager stance, restored after): Dynamo would otherwise trace the advisor's hooks into
    the compiled graph, where they cannot run."""
    compiler = getattr(torch, "compiler", None)
    if "torch._dynamo" not in sys.modules or not hasattr(compiler, "set_stance"):
        yield
        return
    with compiler.set_stance("force_eager"):
        yield


def record_saved(model, step, inputs):
    """One step of the user's run with the saved-tensor hooks on (an unobserved warm-up)."""
    saved = SavedTensors(model, activation_kind)
    saved.autocast = AutocastSaved(_device_of(model), saved.lasting,
                                   {storage_of(p)[0] for p in model.parameters()
                                    if p.requires_grad})
    saved.autocast.step_called(tensors_in(inputs))
    # The line that calls each container's first block: where checkpointing them is written.
    containers = [(path, model.get_submodule(blocks[0])) for path, blocks
                  in block_containers(model)]
    with BlockCallers(containers) as callers, eagerly_if_compiled():
        saved.record(lambda: step(*inputs))
    saved.block_callers = callers.lines
    return saved


def record_gradients(model, step, inputs):
    """One step of the user's run with the gradient hooks on (KeptGradients): after steps
    that made them."""
    gradients = KeptGradients(model)
    with eagerly_if_compiled():
        gradients.record(lambda: step(*inputs))
    return gradients


def write_output(what_ifs, baseline, prefix, force, metadata, fmt, budget=None,
                 stream=sys.stdout):
    """Writes the run PREFIX's advice report (refused where it exists, without `force`) and
    prints the what-ifs: as JSON, or as the text of what the file holds (the engine's, as
    `trainscope-cli show` prints it)."""
    rows = [w.as_dict() for w in what_ifs]
    text = _trainscope.write_advice(prefix, force, baseline, rows, metadata, budget)
    if fmt == "json":
        json.dump(rows, stream, indent=2)
        stream.write("\n")
    else:
        stream.write(text)
    stream.flush()
