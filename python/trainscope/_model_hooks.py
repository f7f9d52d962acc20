# SPDX-License-Identifier: Apache-2.0
"""What the session learns from the user's model and optimizer: module paths through forward
hooks (removed when the memory step ends), and each parameter's tensors as plain blocks."""

import inspect
import warnings

import torch
from torch.nn.modules import module as global_hooks

from ._tensors import sharding_of, tensor_block



# True while TorchDynamo traces (a constant in the traced graph), False when code runs: the
# hooks do nothing in what torch.compile traces, so they add no graph break to the user's
# compiled model. (torch.compiler came with 2.1; torch 1.13 compiles nothing.)
_compiling = getattr(getattr(torch, "compiler", None), "is_compiling", lambda: False)

# The warning that a compiled module gives while any global module hook exists: ours, so the
# user's run would not give it without TrainScope.
_OUR_HOOKS_WARNING = r"Using `torch\.compile\(module\)` when there are global hooks on modules"


def uncompiled(model):
    """(the module whose parameters and submodules the user's code names, whether it runs
    compiled): torch.compile(model) wraps the model in an OptimizedModule (its `_orig_mod`);
    model.compile() compiles it in place. A compiled model gets no module hooks: the hooks
    would be part of what Dynamo traces and guards on, and their removal would recompile it."""
    original = getattr(model, "_orig_mod", None)
    if isinstance(original, torch.nn.Module):
        return original, True
    return model, getattr(model, "_compiled_call_impl", None) is not None


def state_of(optimizer):
    """The optimizer's state by parameter: of the optimizer that ZeroRedundancyOptimizer wraps,
    where it is one (its own `state` is not kept up to date: this rank's share is the wrapped
    optimizer's)."""
    inner = getattr(optimizer, "optim", None)
    if isinstance(inner, torch.optim.Optimizer) and \
            type(optimizer).__name__ == "ZeroRedundancyOptimizer":
        return inner.state
    return optimizer.state


def parameter_lister(model, optimizer):
    """A function listing the parameters as the engine wants them: one entry per tensor
    (a tied weight is one entry whose other names are its aliases), with its gradient, the
    optimizer's state tensors and how the parameter is sharded over ranks (_tensors.py)."""

    def parameters():
        entries = {}
        order = []
        for module_path, module in model.named_modules(remove_duplicate=False):
            for name, tensor in module._parameters.items():
                if tensor is None:
                    continue
                full = f"{module_path}.{name}" if module_path else name
                key = id(tensor)
                if key in entries:
                    if full != entries[key][0] and full not in entries[key][1]:
                        entries[key][1].append(full)
                    continue
                entries[key] = (full, [], module_path, tensor)
                order.append(key)
        # Parameters the optimizer holds beside the model's (a learnt temperature, a second
        # model's): weights too, with their gradients and state, named by their place in it.
        groups = getattr(optimizer, "param_groups", None) or []
        for g, group in enumerate(groups):
            for p, tensor in enumerate(group.get("params", [])):
                if isinstance(tensor, torch.Tensor) and id(tensor) not in entries:
                    entries[id(tensor)] = (f"optimizer.param_groups.{g}.params.{p}", [], "",
                                           tensor)
                    order.append(id(tensor))
        result = []
        for key in order:
            name, aliases, module_path, tensor = entries[key]
            state = []
            if optimizer is not None:
                # The state on the parameter's device: the memory report is that device's
                # (PyTorch 2.x keeps Adam's step counts on the CPU for a GPU's parameters).
                for value in state_of(optimizer).get(tensor, {}).values():
                    if isinstance(value, torch.Tensor) and value.nelement() > 0 and \
                            value.device == tensor.device:
                        state.append(tensor_block(value))
            weight = tensor_block(tensor)
            result.append((name, aliases, module_path, weight, tensor_block(tensor.grad), state,
                           sharding_of(tensor, weight)))
        return result

    return parameters


class ModuleHooks:
    """Which module of `model` runs: torch's process-wide forward hooks, which look each module
    up among the model's (by identity) and tell the session; the model's own forward begins a
    micro-batch. Nothing is stored on the model's modules, so the model pickles, deep-copies
    and saves (torch.save, an EMA copy) as it does without TrainScope. `remove()` takes the
    hooks away."""

    def __init__(self, model, session):
        # The model holds its modules while the hooks exist: their ids stay theirs.
        paths = {id(module): path for path, module in model.named_modules()}
        root = id(model)

        listening = self._listening = [True]

        # The hooks run inside the user's forward: whatever happens to the session, they never
        # raise there (a session that failed has told the user already).
        def enter(module, inputs):
            if _compiling() or not listening[0]:  # Dynamo reads no flag of ours: no guard on it
                return
            path = paths.get(id(module))
            if path is None:
                return
            try:
                if id(module) == root:
                    session.forward_begins()
                session.enter_module(path)
            except Exception:
                pass

        def exit_(module, inputs, output):
            if _compiling() or not listening[0]:  # Dynamo reads no flag of ours: no guard on it
                return
            path = paths.get(id(module))
            if path is None:
                return
            try:
                session.exit_module(path)
            except Exception:
                pass

        # PyTorch 2.1 on calls a forward hook also when the forward raised (always_call): the
        # module leaves the stack then; before, when a module around it returns.
        add_exit = global_hooks.register_module_forward_hook
        always_call = "always_call" in inspect.signature(add_exit).parameters
        self._handles = [global_hooks.register_module_forward_pre_hook(enter),
                         add_exit(exit_, always_call=True) if always_call else add_exit(exit_)]
        before = len(warnings.filters)
        warnings.filterwarnings("ignore", message=_OUR_HOOKS_WARNING, category=UserWarning)
        # Ours to remove only if it was added (not one of the user's that was there already).
        self._filter = warnings.filters[0] if len(warnings.filters) > before else None

    def silence(self):
        """The hooks stay, telling the session nothing: TorchDynamo guards compiled code on how
        many global module hooks there are, and taking ours away would make the next step
        compile again."""
        self._listening[0] = False

    def remove(self):
        for handle in self._handles:
            handle.remove()
        self._handles = []
        if self._filter is not None:
            try:
                warnings.filters.remove(self._filter)  # the user's own filters stay
                warnings._filters_mutated()
            except (ValueError, AttributeError):
                pass
            self._filter = None


class CompiledCallHook:
    """torch.compile(model)'s wrapper (an OptimizedModule) begins a micro-batch each time it is
    called: a forward pre-hook on the wrapper, which runs outside what Dynamo traces (unlike
    hooks on the model's own modules). `remove()` takes it away."""

    def __init__(self, wrapper, session):
        def begins(module, inputs):
            try:
                session.forward_begins()
            except Exception:
                pass  # never raises into the user's forward

        self._handle = wrapper.register_forward_pre_hook(begins)

    def remove(self):
        if self._handle is not None:
            self._handle.remove()
        self._handle = None


def hooks_for(model, session):
    """The hooks that tell `session` which module of `model` (as the loop calls it) runs and
    where each micro-batch's forward begins: the module hooks for an eager model; for one that
    torch.compile wrapped, a hook on the wrapper alone; none for one compiled in place
    (model.compile() compiles its own call, hooks included)."""
    named, compiled = uncompiled(model)
    if not compiled:
        return ModuleHooks(named, session)
    if named is not model:
        return CompiledCallHook(model, session)
    return None

