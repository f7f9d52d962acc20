# SPDX-License-Identifier: Apache-2.0
"""The gradients a step keeps through its forward pass, recorded on one step of the user's run:
each parameter's gradient that the forward finds zeroed rather than freed (zero_grad with
set_to_none=False, torch 1.13's default), and the order in which backward accumulates into the
parameters (a hook on each, which fires as its AccumulateGrad node runs), with the other
leaves that backward accumulates into among them: a module's input that requires a gradient
(the model's input, the inputs that a reentrant checkpoint detaches to run its code again in
backward). The what-if of freeing them earlier (advice.py) matches that order with the
timeline's AccumulateGrad calls.

The hooks return nothing (the gradients are not changed) and are removed once the step ends."""

import weakref

import torch

from .saved import pre_hook_with_kwargs, tensors_in

OTHER_LEAF = -1


class KeptGradients:
    def __init__(self, model):
        self._model = model
        self.kept = []  # per parameter that requires a gradient: its kept gradient's bytes, or 0
        self.order = []  # the parameter (an index into kept) of each accumulation, in order;
        # OTHER_LEAF for one into a leaf that is no parameter

    def record(self, run):
        """Runs `run()` (a step of the user's) with the hooks, and removes them after."""
        parameters = [p for p in self._model.parameters() if p.requires_grad]
        handles = []
        hooked = {id(p): None for p in parameters}  # the leaves whose accumulations are
        # noted: others by a weak reference (a freed leaf's id may be a later one's)

        def forward_begins(module, args):
            if self.kept:
                return  # a second forward in the step (accumulation): the first one tells
            self.kept = [_zeroed_bytes(p.grad) for p in parameters]

        def module_called(module, args, kwargs):
            for tensor in tensors_in(args) + tensors_in(kwargs):
                if not tensor.requires_grad or tensor.grad_fn is not None:
                    continue
                if id(tensor) in hooked and (hooked[id(tensor)] is None or
                                             hooked[id(tensor)]() is tensor):
                    continue
                try:
                    handles.append(tensor.register_hook(accumulated(OTHER_LEAF)))
                    hooked[id(tensor)] = weakref.ref(tensor)
                except Exception:  # a tensor that takes no hook: its accumulation unmatched
                    pass

        def accumulated(index):
            def hook(gradient):
                self.order.append(index)
            return hook

        try:
            handles.append(self._model.register_forward_pre_hook(forward_begins))
            handles += [pre_hook_with_kwargs(module, module_called)
                        for module in self._model.modules()]
            for index, parameter in enumerate(parameters):
                handles.append(parameter.register_hook(accumulated(index)))
            run()
        finally:
            for handle in handles:
                handle.remove()
        if not self.kept:
            self.kept = [0] * len(parameters)


def _zeroed_bytes(gradient):
    """A gradient's bytes where it is all zeros (kept, not freed), else 0: its own, also where
    it views a larger storage (a bucket) that several gradients share."""
    if gradient is None or gradient.is_sparse or gradient.numel() == 0:
        return 0
    with torch.no_grad():
        if bool(gradient.any()):
            return 0  # gradients accumulated over steps on purpose: not to be freed
    return gradient.numel() * gradient.element_size()
