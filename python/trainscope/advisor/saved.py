# SPDX-License-Identifier: Apache-2.0
"""What one forward of the user's model saved for backward: each autograd node it made, the
module whose forward made it, and the storages of the tensors it saved (address and bytes:
tensors that share a storage cost it once); and, for each call of an activation (a module, or
F.gelu / F.silu called in a module's forward, seen through a TorchFunctionMode, with the line
that called it), the storages of its input and output. The what-ifs (advice.py) are predicted
from it.

Recorded with forward hooks on every module, read-only: a module's nodes are those reachable
from its outputs, down to its inputs', that no module claimed before (so a function called
between two submodules is their parent's, not the next submodule's), and the saved tensors are
read from each node's `_saved_*` attributes as the module returns, before backward frees
them. The hooks and the mode are removed once the step ends."""

import sys

import torch
import torch.utils.checkpoint
from torch.overrides import TorchFunctionMode

from .._tensors import storage_of
from .source_lines import callers_line


def tensors_in(value):
    """The tensors of a module's arguments or outputs (tuples, lists and dicts opened)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v)]
    return []


def pre_hook_with_kwargs(module, hook):
    """Registers `hook(module, args, kwargs)` to run before `module`'s forward, given its
    keyword arguments where torch passes them to hooks (2.x; 1.13 gives it none). Returns the
    handle."""
    try:
        return module.register_forward_pre_hook(hook, with_kwargs=True)
    except TypeError:
        return module.register_forward_pre_hook(lambda m, args: hook(m, args, {}))


def _codes(code):
    """A function's code and that of the functions defined in it (its hooks)."""
    nested = [c for c in code.co_consts if hasattr(c, "co_consts")]
    return {code}.union(*(_codes(c) for c in nested))


# 1.13's non-reentrant checkpoint: the code its forward and its recomputation run under.
_WITHOUT_REENTRANT = getattr(torch.utils.checkpoint, "_checkpoint_without_reentrant", None)
_CHECKPOINT_CODES = _codes(_WITHOUT_REENTRANT.__code__) if _WITHOUT_REENTRANT else set()


def saving_through_hooks():
    """Whether the tensors autograd saves now go to saved-tensor hooks (a non-reentrant
    checkpoint's, save_on_cpu's) rather than into their nodes: reading one back calls the
    unpack hook, which for a checkpoint runs the forward again (and on 1.13 makes backward's
    own read raise). 2.x says which hooks are on; 1.13 cannot be asked, and its one user of
    them is recognised by the checkpoint's code on the stack."""
    top = getattr(torch._C._autograd, "_top_saved_tensors_default_hooks", None)
    if top is not None:
        return top(True) is not None
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code in _CHECKPOINT_CODES:
            return True
        frame = frame.f_back
    return False


def _saved_tensors(node):
    """The tensors `node` saved for backward, each with the attribute that holds it."""
    saved = []
    for name in dir(node):
        if not name.startswith("_saved_") or name.endswith(("_sizes", "_strides")):
            continue
        try:
            value = getattr(node, name)
        except Exception:  # freed already, or a value that cannot be read back
            continue
        saved.extend((name, tensor) for tensor in tensors_in(value) if tensor.numel() > 0)
    return saved


class SavedNode:
    def __init__(self, name, module, storages):
        self.name, self.module, self.storages = name, module, storages


class ActivationCall:
    """A call of an activation: the module that made it (the activation module itself, or for
    a function called in a module's forward, that module), its kind ("GELU", "SiLU"), its
    input's and output's storages, and for a function call the line that called it (file,
    line)."""

    def __init__(self, module, kind, input_storage, output_storage, line=None, name=None):
        self.module, self.kind = module, kind
        self.input, self.output = input_storage, output_storage
        self.line = line
        self.name = name or kind  # a module's class (NewGELUActivation), else the kind


_ATTENTION = getattr(torch.nn.functional, "scaled_dot_product_attention", None)
# The activation functions whose calls are recorded (F.gelu, F.silu), by their kind.
_FUNCTIONS = {torch.nn.functional.gelu: "GELU", torch.nn.functional.silu: "SiLU"}


# The calls that run a backward pass, as the mode sees them (1.13 shows it Tensor.backward).
_BACKWARD_CALLS = {torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad}


class _FunctionCalls(TorchFunctionMode):
    """Records each call of an activation function made outside an activation module (those
    are recorded by the module hooks), with the module whose forward made it; the nodes of
    the results made while saved-tensor hooks were on; and whether a backward pass is
    running."""

    def __init__(self, on_call, on_result):
        super().__init__()
        self._on_call, self._on_result = on_call, on_result
        self._backward_calls = 0
        self.made_under_hooks = set()  # nodes whose saved tensors went to the hooks

    def backward_running(self):
        """2.x's engine says whether it runs a graph; 1.13's cannot be asked: a backward call
        that the mode saw is running."""
        current = getattr(torch._C, "_current_graph_task_id", None)
        return current() != -1 if current is not None else self._backward_calls > 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in _BACKWARD_CALLS:
            self._backward_calls += 1
            try:
                return func(*args, **(kwargs or {}))
            finally:
                self._backward_calls -= 1
        result = func(*args, **(kwargs or {}))
        if saving_through_hooks():
            self.made_under_hooks.update(t.grad_fn for t in tensors_in(result)
                                         if t.grad_fn is not None)
        kind = _FUNCTIONS.get(func)
        if kind is not None:
            self._on_call(kind, args[0] if args else None, result)
        self._on_result(result, func, args, kwargs or {})
        return result


def _autocast_enabled():
    """Whether autocast is on, for the CPU or CUDA (2.x asks by device; 1.13 has a function
    for each, which 2.x keeps but warns about)."""
    try:
        return torch.is_autocast_enabled("cpu") or torch.is_autocast_enabled("cuda")
    except TypeError:
        return torch.is_autocast_enabled() or torch.is_autocast_cpu_enabled()


class SavedTensors:
    def __init__(self, model, activation_kind):
        self.nodes = []
        self.activations = []
        self.inputs_of = {}  # module path -> {storage address: bytes} of its calls' inputs
        # Parameters and buffers live beyond the step: never activations.
        self.lasting = {storage_of(t)[0] for t in list(model.parameters()) +
                        list(model.buffers())}
        # module -> "GELU", "SiLU" or None: the activation modules whose calls are recorded
        self._model, self._kind_of = model, activation_kind
        self.gradients = None  # the gradients the step kept (KeptGradients), where recorded
        self.autocast = None  # what it would save under autocast (AutocastSaved), where asked
        self.run_again = []  # the modules whose forward ran in backward (a checkpoint's
        # recomputation), by path, in order; those called by one of them left out

    def record(self, run):
        """Runs `run()` (a step of the user's) with the hooks, and removes them after."""
        paths = {module: path for path, module in self._model.named_modules()}
        claimed, boundaries, handles, running = set(), [], [], []

        def following(action):
            """Runs one of the autocast what-if's observations: one that fails drops that
            what-if (it is not offered), never the step."""
            if self.autocast is None:
                return
            try:
                action(self.autocast)
            except Exception:
                self.autocast.release()
                self.autocast = None

        def model_called(module, args, kwargs):
            def note(autocast):
                autocast.already |= _autocast_enabled()
                autocast.model_called(tensors_in(args) + tensors_in(kwargs))
            following(note)

        def before(module, args):
            boundaries.append({t.grad_fn for t in tensors_in(args) if t.grad_fn is not None})
            if calls.backward_running() and paths.get(module, "") not in self.run_again and \
                    not any(paths.get(m, "") in self.run_again for m in running):
                self.run_again.append(paths.get(module, ""))
            running.append(module)

        def function_called(kind, given, result):
            inside = running[-1] if running else None
            if self._kind_of(inside) or not isinstance(given, torch.Tensor) or \
                    not isinstance(result, torch.Tensor) or inside is None or \
                    result.grad_fn is None:
                return  # an activation module's own call, one outside the model, or one that
                # autograd does not record (no_grad, a frozen part): it saves nothing
            self.activations.append(ActivationCall(
                paths.get(inside, ""), kind, storage_of(given), storage_of(result),
                callers_line()))

        def after(module, args, output):
            if running:
                running.pop()
            boundary = boundaries.pop() if boundaries else set()
            # Through its submodules' nodes (claimed already) to the functions its own forward
            # called between them, down to its inputs.
            pending = [t.grad_fn for t in tensors_in(output) if t.grad_fn is not None]
            walked = set()
            # Its nodes' saved tensors held by hooks are theirs to keep (a checkpoint keeps
            # none): not read, which would run the hooks. A node is known to be so by the
            # hooks on as the module returns, or as the function that made it returned (one
            # called inside a checkpoint that a module outside it returns).
            hooked_now = saving_through_hooks()
            while pending:
                node = pending.pop()
                if node is None or node in walked or node in boundary:
                    continue
                walked.add(node)
                if node not in claimed:
                    claimed.add(node)
                    hooked = hooked_now or node in calls.made_under_hooks
                    tensors = [] if hooked else _saved_tensors(node)
                    self.nodes.append(SavedNode(type(node).__name__, paths.get(module, ""),
                                                [storage_of(t) for _, t in tensors]))
                    if not hooked:
                        following(lambda autocast: autocast.node_saved(node, tensors,
                                                                       paths.get(module, "")))
                pending.extend(next_node for next_node, _ in node.next_functions)
            inputs, outputs = tensors_in(args), tensors_in(output)
            returned(outputs)
            self.inputs_of.setdefault(paths.get(module, ""), {}).update(
                storage_of(t) for t in inputs if t.numel() > 0)
            kind = self._kind_of(module)
            # An activation keeps its input's shape (a gated one, SiLU and multiply, does not).
            if kind and inputs and outputs and outputs[0].grad_fn is not None and \
                    outputs[0].shape == inputs[0].shape:
                self.activations.append(ActivationCall(
                    paths.get(module, ""), kind, storage_of(inputs[0]), storage_of(outputs[0]),
                    name=type(module).__name__))

        def returned(result, func=None, args=(), kwargs=None):
            def note(autocast):
                given = tensors_in(args) + tensors_in(kwargs or {})
                autocast.function_returned(tensors_in(result), given, autocasting=bool(running))
                if func is _ATTENTION and isinstance(result, torch.Tensor):
                    autocast.attention_returned(result, given)
                if func is torch.nn.functional.cross_entropy and \
                        isinstance(result, torch.Tensor):
                    autocast.cross_entropy_returned(result, given)
                for tensor in tensors_in(result):
                    if not running and tensor.grad_fn is not None:  # the output, the loss
                        self._outside_the_model(tensor.grad_fn, claimed,
                                                calls.made_under_hooks)
                        autocast.may_be_held(tensor)
                    autocast.output_is(tensor)
            following(note)

        calls = _FunctionCalls(function_called, returned)
        try:
            for module in paths:
                handles.append(module.register_forward_pre_hook(before))
                handles.append(module.register_forward_hook(after))
            handles.append(pre_hook_with_kwargs(self._model, model_called))
            with calls:
                run()
        finally:
            for handle in handles:
                handle.remove()
            claimed.clear()  # no node of the user's graph is held
            calls.made_under_hooks.clear()
            if self.autocast is not None:
                self.autocast.release()

    def _outside_the_model(self, node, claimed, made_under_hooks):
        """The nodes a function called outside the model made (the loss), down to the model's:
        for autocast's what-if alone (the model's forward is what it runs under autocast)."""
        pending, made = [node], []
        while pending:
            node = pending.pop()
            if node is None or node in claimed:
                continue
            claimed.add(node)
            made.append(node)
            pending.extend(next_node for next_node, _ in node.next_functions)
        # All of them outside autocast before any one's dtype is worked out from its inputs'.
        self.autocast.outside(made)
        hooked = saving_through_hooks()
        for node in made:
            self.autocast.node_saved(
                node, [] if hooked or node in made_under_hooks else _saved_tensors(node),
                autocasting=False)

    def within(self, modules):
        """The storages (address -> bytes) saved only by nodes of `modules` (paths; their
        submodules' nodes included), and those saved by any other node, parameters and
        buffers left out."""
        def inside(path):
            return any(path == m or path.startswith(m + ".") for m in modules)
        only, elsewhere = {}, set()
        for node in self.nodes:
            for address, nbytes in node.storages:
                if address in self.lasting:
                    continue
                if inside(node.module):
                    only[address] = nbytes
                else:
                    elsewhere.add(address)
        return {a: n for a, n in only.items() if a not in elsewhere}, elsewhere

    def single_node(self, module, kind):
        """Whether each call of the activation module `module` made one node of its kind
        (GeluBackward0): PyTorch's own function, not several operations."""
        names = {node.name for node in self.nodes if node.module == module}
        return names == {f"{kind.capitalize()}Backward0"}

    def savers(self):
        """How many nodes saved each storage (by address), parameters and buffers left out."""
        counts = {}
        for node in self.nodes:
            for address, _ in set(node.storages):
                if address not in self.lasting:
                    counts[address] = counts.get(address, 0) + 1
        return counts
