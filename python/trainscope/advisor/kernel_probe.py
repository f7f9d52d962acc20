# SPDX-License-Identifier: Apache-2.0
"""What the matrix products and convolutions of a step allocate for themselves, in bfloat16
against float32: measured, not derived. oneDNN's bfloat16 kernels on the CPU take temporaries
of their own that no float32 step shows (a bfloat16 convolution computes its weight's gradient
in float32 and converts it; a bfloat16 matrix product packs its operands), whose sizes depend
on the processor's instructions: the autocast what-if (advice.py) adds them at each call.

Each distinct operation the step's autograd graph holds (its node's name, its operands' sizes
and strides, its attributes, which operands take a gradient: read from the node as the forward
saved it) is run once in float32 and once in bfloat16, forward and backward, on random operands
of those sizes, under the meter (trainscope.profile, into a folder removed after). Its
temporaries: how far its call (the forward operation; the backward node, as the engine's
evaluate_function) went above what it left allocated as it returned. The gradient each node is
given is laid out as the step's was (seen by a hook in advise's recorded step): a kernel copies
an expanded one (a loss's sum gives one), not a contiguous one."""

import os
import sys
import tempfile

import torch

from .._text import one_line

# Nodes that can be run again from what they record (sizes and strides, attributes).
_MATRIX_PRODUCTS = {"AddmmBackward0": ("mat1", "mat2"), "MmBackward0": ("self", "mat2"),
                    "BmmBackward0": ("self", "mat2")}
_CONVOLUTION = "ConvolutionBackward0"


def operation_of(node):
    """What `node` (an autograd node) ran, as a hashable description to run it again: None for
    a node that cannot be (a fused attention, an RNN), or that computes no gradient."""
    name = type(node).__name__
    grads = tuple(next_node is not None for next_node, _ in node.next_functions)
    if not any(grads):
        return None
    try:
        if name in _MATRIX_PRODUCTS:
            operands = tuple(_layout(node, o) for o in _MATRIX_PRODUCTS[name])
            scalars = (node._saved_beta, node._saved_alpha) if name == "AddmmBackward0" else ()
            return (name, operands, tuple(float(s) for s in scalars), grads)
        if name == _CONVOLUTION:
            weight = node._saved_weight
            given = node._saved_input
            if weight is None or given is None:
                return None
            bias = node._saved_bias_sym_sizes_opt
            return (name, ((tuple(given.shape), tuple(given.stride())),
                           (tuple(weight.shape), tuple(weight.stride())),
                           tuple(bias) if bias is not None else None),
                    (tuple(node._saved_stride), tuple(node._saved_padding),
                     tuple(node._saved_dilation), bool(node._saved_transposed),
                     tuple(node._saved_output_padding), int(node._saved_groups)), grads)
    except (AttributeError, RuntimeError, TypeError):
        return None
    return None


def with_gradient_layout(operation, gradient):
    """`operation` with the layout of the gradient its node was given in backward (strides:
    an expanded one has zeros), where it was seen."""
    return operation[:4] + ((tuple(gradient.shape), tuple(gradient.stride())),)


def _layout(node, operand):
    """An operand's sizes and strides: the saved tensor's where it was saved, else those the
    node keeps of it."""
    saved = getattr(node, f"_saved_{operand}")
    if saved is not None:
        return (tuple(saved.shape), tuple(saved.stride()))
    return (tuple(getattr(node, f"_saved_{operand}_sym_sizes")),
            tuple(getattr(node, f"_saved_{operand}_sym_strides")))


def _operand(sizes, strides, dtype, grad):
    """A leaf of `sizes` and `strides` (empty strides: contiguous) holding random numbers."""
    if strides:
        extent = 1 + sum((s - 1) * st for s, st in zip(sizes, strides) if s > 0)
        base = torch.randn(extent if all(sizes) else 0, dtype=dtype)
        tensor = base.as_strided(sizes, strides).detach()
    else:
        tensor = torch.randn(sizes, dtype=dtype)
    return tensor.requires_grad_(grad)


def _run(operation, dtype):
    """Runs `operation` forward and backward in `dtype`, its output's gradient laid out as
    the step's was where known."""
    name, operands, attributes, grads = operation[:4]
    if name == _CONVOLUTION:
        (given, weight, bias) = operands
        x = _operand(*given, dtype, grads[0])
        w = _operand(*weight, dtype, grads[1])
        b = _operand(bias, (), dtype, len(grads) > 2 and grads[2]) if bias else None
        out = torch.ops.aten.convolution(x, w, b, *attributes)
    elif name == "AddmmBackward0":
        bias_grad, first_grad, second_grad = grads
        first = _operand(*operands[0], dtype, first_grad)
        second = _operand(*operands[1], dtype, second_grad)
        bias = _operand((second.shape[1],), (), dtype, bias_grad)
        out = torch.addmm(bias, first, second, beta=attributes[0], alpha=attributes[1])
    else:
        first = _operand(*operands[0], dtype, grads[0])
        second = _operand(*operands[1], dtype, grads[1] if len(grads) > 1 else False)
        out = (torch.mm if name == "MmBackward0" else torch.bmm)(first, second)
    layout = operation[4] if len(operation) > 4 and operation[4][0] == tuple(out.shape) \
        else (tuple(out.shape), ())
    out.backward(_operand(*layout, dtype, False))


class _Operations(torch.nn.Module):
    """The probe's step: each operation in float32, then in bfloat16."""

    def __init__(self, operations):
        super().__init__()
        self.operations = operations

    def forward(self):
        for operation in self.operations:
            for dtype in (torch.float32, torch.bfloat16):
                _run(operation, dtype)


def _call_names(operation):
    """The timeline's names of `operation`'s forward call and of its backward node."""
    name = operation[0]
    forward = {"AddmmBackward0": "aten::addmm", "MmBackward0": "aten::mm",
               "BmmBackward0": "aten::bmm", _CONVOLUTION: "aten::convolution"}[name]
    return (forward, f"autograd::engine::evaluate_function: {name}")


def _above_end(totals, span):
    """How far the total went within `span` above its value at the span's end."""
    start, end = span
    inside = [total for time, total in totals if start <= time <= end]
    at_end = next((total for time, total in reversed(totals) if time <= end), 0)
    return max(inside + [at_end]) - at_end


def _totals(blocks):
    """(time, total allocated after it) for each allocation and release of `blocks`."""
    changes = sorted([(allocated, size) for size, allocated, _ in blocks] +
                     [(released, -size) for size, _, released in blocks
                      if released is not None])
    totals, total = [], 0
    for time, change in changes:
        total += change
        totals.append((time, total))
    return totals


def temporaries(operations, stream=sys.stderr):
    """For each of `operations` (operation_of's descriptions), what its forward call and its
    backward node take for themselves in bfloat16 less what they take in float32:
    {operation: (forward bytes, backward bytes)}. Empty where the probe cannot run (the
    bfloat16 kernels missing, the meter failing), which a line on `stream` says."""
    from .. import _trainscope
    from .._profile import profile
    operations = sorted(set(operations), key=repr)
    if not operations:
        return {}
    probe = _Operations(operations)
    try:  # its random operands draw on a generator of their own: the user's is left as it was
        with torch.random.fork_rng(devices=[]), \
                tempfile.TemporaryDirectory(prefix="trainscope-kernels-") as folder:
            prefix = os.path.join(folder, "kernels")
            observing = profile(prefix, model=probe, warmup=0, active=1)
            with observing:
                probe()
                observing.step()
            if observing.figures is None:
                raise RuntimeError("the meter observed nothing")
            curve = _trainscope.MemoryCurve(prefix)
            totals = _totals(curve.blocks())
            calls, result, taken = {}, {}, {}
            for operation in operations:
                pairs = []
                for key in _call_names(operation):
                    if key not in calls:
                        calls[key] = _outermost(curve.calls(key))
                    index = taken.get(key, 0)
                    spans = calls[key][index:index + 2]
                    taken[key] = index + 2
                    if len(spans) != 2:
                        raise RuntimeError(f"{key} was not seen as often as it ran")
                    pairs.append(_above_end(totals, spans[1]) - _above_end(totals, spans[0]))
                result[operation] = tuple(pairs)
            return result
    except Exception as e:  # the what-if is still predicted, without them
        print(f"trainscope: the bfloat16 kernels' own temporaries were not measured "
              f"({one_line(e)}): autocast's predicted peak leaves them out", file=stream)
        return {}


def _outermost(spans):
    """The spans not inside another (a convolution calls convolution again within)."""
    outer = []
    for start, end in sorted(spans):
        if outer and start >= outer[-1][0] and end <= outer[-1][1]:
            continue
        outer.append((start, end))
    return outer
