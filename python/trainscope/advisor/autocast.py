# SPDX-License-Identifier: Apache-2.0
"""What a float32 model's forward would save for backward with its forward under
torch.autocast(dtype=torch.bfloat16), derived from what it saves in float32: each autograd node's
output dtype follows autocast's rules, node by node through the graph, and each saved tensor
costs what it would in that dtype.

autocast's rules, by the node an operation leaves (its name): the operations it runs in the lower
precision (matrix products, convolutions: LOWER) cast their floating inputs to bfloat16 and save
the casts (a parameter's cast is made once per forward and kept in autocast's cache; any other
input is cast at each call); those it runs in float32 (losses, and on CUDA the norms, softmax
and the transcendental functions: FLOAT32) cast bfloat16 inputs up and save those casts; a
norm gives its input's type (its float32 weights do not count: NORMS); every other operation
follows its inputs' types (a bfloat16 and a float32 input give float32: a residual stream that
begins in float32 stays so). A node's inputs are its next functions; a
parameter's is its AccumulateGrad, of the parameter's dtype.

Recorded on the same step as the saved tensors (saved.py), from the live nodes; the nodes are
released when the step ends."""

import weakref

import torch

from .._tensors import storage_of
from .kernel_probe import operation_of, with_gradient_layout

LOWER = {
    "AddmmBackward0", "MmBackward0", "BmmBackward0", "BaddbmmBackward0", "AddbmmBackward0",
    "AddmvBackward0", "MvBackward0", "AddrBackward0", "LinearBackward0", "MatmulBackward0",
    "ConvolutionBackward0", "MkldnnConvolutionBackward0", "SlowConv2DBackward0",
    "ConvolutionBackwardOverrideable", "CudnnConvolutionBackward0", "ConvTbcBackward0",
    "SlowConvTranspose2DBackward0", "SlowConvTranspose3DBackward0",
    "CudnnConvolutionTransposeBackward0", "MkldnnConvolutionTransposeBackward0",
    "PreluBackward0", "PreluKernelBackward0", "MkldnnRnnLayerBackward0",
    "ScaledDotProductFlashAttentionForCpuBackward0", "ScaledDotProductFlashAttentionBackward0",
    "ScaledDotProductEfficientAttentionBackward0", "ScaledDotProductCudnnAttentionBackward0",
}
_LOSSES = {
    "NllLossBackward0", "NllLoss2DBackward0", "MseLossBackward0", "L1LossBackward0",
    "SmoothL1LossBackward0", "HuberLossBackward0", "KlDivBackward0", "BinaryCrossEntropyBackward0",
    "BinaryCrossEntropyWithLogitsBackward0", "SoftMarginLossBackward0",
    "MultiMarginLossBackward0", "MultilabelMarginLossBackward0", "CdistBackward0",
}
FLOAT32 = {
    "cpu": _LOSSES,
    "cuda": _LOSSES | {
        "NativeLayerNormBackward0", "NativeGroupNormBackward0", "SoftmaxBackward0",
        "LogSoftmaxBackward0", "ExpBackward0", "LogBackward0", "PowBackward0", "PowBackward1",
        "RsqrtBackward0", "ReciprocalBackward0", "SoftplusBackward0", "CumsumBackward0",
        "LogsumexpBackward0", "Expm1Backward0", "Log1PBackward0", "Log2Backward0",
        "Log10Backward0", "SinhBackward0", "CoshBackward0", "TanBackward0", "AcosBackward0",
        "AsinBackward0", "ErfinvBackward0", "NormBackward1", "CosineSimilarityBackward0",
    },
}
# Norms take a bfloat16 input with float32 weights and give their input's type.
NORMS = {"NativeBatchNormBackward0", "NativeLayerNormBackward0", "NativeGroupNormBackward0",
         "CudnnBatchNormBackward0", "MiopenBatchNormBackward0"}
_HALF = torch.bfloat16
# Nodes of views between an operation and a parameter it takes (linear's weight.t()).
_VIEWS = {"TBackward0", "ViewBackward0", "ReshapeAliasBackward0", "UnsafeViewBackward0",
          "ExpandBackward0", "TransposeBackward0", "PermuteBackward0", "SqueezeBackward0",
          "SqueezeBackward1", "UnsqueezeBackward0", "AliasBackward0"}
# A node's own outputs among its saved tensors, and the statistics it keeps in float32 whatever
# its input (a norm's mean and inverse deviation, attention's log-sum-exp).
_OWN_OUTPUTS = {"_saved_result", "_saved_output", "_saved_out"}
_STATISTICS = {"_saved_result1", "_saved_result2", "_saved_result3", "_saved_logsumexp",
               "_saved_save_mean", "_saved_save_invstd", "_saved_mean", "_saved_rstd"}


def _gradient_reached(entry, gradients):
    """A LOWER node's hook in the recorded step's backward: the gradient it was given, whose
    layout its kernels follow (a loss's sum gives an expanded one), joins its operation."""
    if gradients and isinstance(gradients[0], torch.Tensor):
        entry[2] = with_gradient_layout(entry[2], gradients[0])


class AutocastSaved:
    """What one step's forward saves, noted node by node as SavedTensors walks them, with the
    dtype each saved tensor would have under autocast; changes() sums the difference."""

    def __init__(self, device, lasting, cached):
        self._float32 = FLOAT32.get(device, _LOSSES)
        self._lasting = lasting  # storage addresses of parameters and buffers
        self._cached = cached  # of the parameters that require a gradient: autocast caches
        # their casts for a forward (a buffer or a frozen weight is cast at each call)
        self._forward = 0  # the model's forward calls so far (micro-batches)
        self._of_node = {}  # node -> its output's dtype under autocast (live nodes: the step's)
        self._outside = set()  # nodes made outside the model's forward (the loss): no autocast
        self._upcast = set()  # nodes of functions autocast runs in float32 as one (cross-entropy)
        self._device = device
        self._given = set()  # storages of the step's and the model's inputs: made before it
        # node -> the dtypes of the floating tensors without a gradient that its function took
        # and that were made before the step (a loss's target, a buffer): their dtype stays
        # under autocast and joins the type promotion of its output
        self._constants = {}
        self._step_saved = {}  # storage -> names of the nodes outside the model that saved it
        self._halved_inputs = set()  # bytes of the bfloat16 inputs that met float32 constants
        self._held = []  # [storage, bytes, dtype under autocast, held into backward]
        self._hooks = []
        self._of_storage = {}  # storage address -> dtype under autocast of the latest output
        self._given_back = {}  # storage -> dtype: a math attention's result, in its inputs' type
        self._own_outputs = {}  # (forward, storage) -> dtype, of the nodes' own saved outputs
        # (name, id, own dtype, inputs' dtype where they agree, saved tensors, module, forward)
        self._nodes = []
        # storage of each parameter cast for LOWER operations -> (its cast's bytes, the
        # modules whose nodes take it)
        self._cast_parameters = {}
        self._operations = []  # (module, node name, operation_of) of each LOWER node
        self.already = False  # the step's forward runs under autocast already

    def output(self, node):
        """The dtype of `node`'s output under autocast (None for no node)."""
        if node is None:
            return None
        pending = [node]
        while pending:
            current = pending[-1]
            if current in self._of_node:
                pending.pop()
                continue
            inputs = [n for n, _ in current.next_functions if n is not None]
            waiting = [n for n in inputs if n not in self._of_node]
            if waiting:
                pending.extend(waiting)
                continue
            pending.pop()
            self._of_node[current] = self._rule(current, [self._of_node[n] for n in inputs])
        return self._of_node[node]

    def _rule(self, node, inputs):
        name = type(node).__name__
        if name == "AccumulateGrad":
            return node.variable.dtype
        floating = [d for d in inputs if d is not None and d.is_floating_point]
        autocasting = node not in self._outside
        if node in self._upcast and floating and autocasting:
            return torch.float32
        if name in LOWER and floating and autocasting:
            return _HALF
        if name in self._float32 and floating and autocasting:
            return torch.float32
        if not floating:
            return None  # its inputs are no tensors that autograd follows: their own dtype
        if name in NORMS:
            return inputs[0] or None  # its output is its input's type, its weights float32
        floating += self._constants.get(node, [])
        return torch.float32 if torch.float32 in floating or torch.float64 in floating else _HALF

    def attention_returned(self, result, inputs):
        """F.scaled_dot_product_attention returned `result`: where it took its math path (its
        operations' own nodes, not one fused node), those nodes run in float32 under autocast on
        the CPU (PyTorch's math attention computes a bfloat16 input in float32 there, and gives
        the result back in the input's type)."""
        if self._device != "cpu" or result.grad_fn is None or \
                type(result.grad_fn).__name__.startswith("ScaledDotProduct"):
            return
        self._in_float32(result, inputs)
        dtypes = {self.output(t.grad_fn) for t in inputs if t.grad_fn is not None} - {None}
        if len(dtypes) == 1:
            self._given_back[storage_of(result)[0]] = dtypes.pop()

    def cross_entropy_returned(self, result, inputs):
        """F.cross_entropy returned `result`: autocast runs it in float32 as one operation (its
        log-softmax with it, which alone would follow its input's type on the CPU)."""
        if result.grad_fn is not None:
            self._in_float32(result, inputs)

    def _in_float32(self, result, inputs):
        """The nodes a function made, from its result's down to its inputs', run in float32
        under autocast."""
        boundary = {t.grad_fn for t in inputs}
        pending = [result.grad_fn]
        while pending:
            node = pending.pop()
            if node is None or node in boundary or node in self._upcast or \
                    type(node).__name__ == "AccumulateGrad":
                continue
            self._upcast.add(node)
            pending.extend(n for n, _ in node.next_functions)

    def step_called(self, inputs):
        """The step was given `inputs`: made before it, they are no activations, and keep their
        dtype under autocast."""
        self._given.update(storage_of(t)[0] for t in inputs)

    def function_returned(self, outputs, inputs, autocasting=True):
        """A function returned `outputs` (its tensors) from `inputs`, in the model's forward
        (`autocasting`) or outside it (the loss): a floating input with dimensions that autograd
        does not follow and that was made before the step (a loss's float32 target, a buffer)
        keeps its dtype under autocast, so that it joins the type promotion of the nodes the
        function made (a bfloat16 output and a float32 target give a float32 loss), unless
        autocast runs the function as one of its own (a matrix product casts every input).
        Noted before anything asks the new nodes' dtypes (a 0-d tensor promotes nothing: left
        out)."""
        before = self._given | self._lasting
        constants = [t.dtype for t in inputs if t.grad_fn is None and not t.requires_grad and
                     t.dim() > 0 and t.is_floating_point() and storage_of(t)[0] in before]
        if not constants:
            return
        boundary = {t.grad_fn for t in inputs}
        pending, made = [t.grad_fn for t in outputs], []
        while pending:
            node = pending.pop()
            if node is None or node in boundary or node in made or node in self._of_node or \
                    type(node).__name__ == "AccumulateGrad":
                continue
            made.append(node)
            pending.extend(n for n, _ in node.next_functions)
        if autocasting and any(type(n).__name__ in LOWER or type(n).__name__ in self._float32
                               or n in self._upcast for n in made):
            return
        for node in made:
            self._constants[node] = constants
        # A bfloat16 input meeting them: its gradient, computed in float32, is cast to
        # bfloat16 (by the engine) and passed on so, whether or not a node saves it.
        self._halved_inputs.update(t.numel() * t.element_size() for t in inputs
                                   if t.grad_fn is not None and t.dtype == torch.float32 and
                                   self.output(t.grad_fn) == _HALF)

    def output_is(self, tensor):
        """A tensor that a module or function returned: its storage's dtype is its grad_fn's."""
        if tensor.grad_fn is not None:
            address = storage_of(tensor)[0]
            dtype = self._given_back.pop(address, None) or self.output(tensor.grad_fn)
            if dtype is not None:  # the latest tensor at an address is the one alive there
                self._of_storage[address] = dtype

    def model_called(self, inputs):
        """The model's forward was given `inputs`: made before the forward, they are no
        activations as they are (their casts are). A forward after another (a micro-batch) may
        reuse the first one's addresses: what was known of them is forgotten."""
        self._forward += 1
        self._of_storage.clear()
        self._given.update(storage_of(t)[0] for t in inputs)

    def may_be_held(self, tensor):
        """A tensor that the model's forward returned, or a function outside it (the loss):
        where the step still holds it as backward reaches it (the logits a loop keeps, the loss
        it calls backward on), its bytes change with its dtype too. Seen by a hook on it that
        holds it weakly, removed with the step."""
        if tensor.grad_fn is not None and tensor.dtype == torch.float32:
            address, nbytes = storage_of(tensor)
            alive = weakref.ref(tensor)
            entry = [address, nbytes, self.output(tensor.grad_fn), False]

            def reached(gradient, alive=alive, entry=entry):
                entry[3] = alive() is not None
            self._hooks.append(tensor.register_hook(reached))
            self._held.append(entry)

    def outside(self, nodes):
        """`nodes` were made outside the model's forward (the loss): no autocast there."""
        self._outside.update(nodes)

    def node_saved(self, node, tensors, module=None, autocasting=True):
        """The saved tensors of `node` ((attribute, tensor) pairs), noted with what autocast
        would make of them, saved in `module`'s forward; a node made outside the model's forward
        (the loss) runs as its inputs' types say. Its own outputs (`_saved_result`, `_saved_output`) tell their
        storages' dtype, also to the nodes noted before it that saved them."""
        if not autocasting:
            self._outside.add(node)
            for _, tensor in tensors:
                self._step_saved.setdefault(storage_of(tensor)[0], set()).add(
                    type(node).__name__)
        elif type(node).__name__ in LOWER and node not in self._upcast:
            self._note_cast_parameters(node, module)
            operation = operation_of(node)
            entry = [module, type(node).__name__, operation]
            if operation is not None:
                self._hooks.append(node.register_hook(
                    lambda given, gradients, entry=entry: _gradient_reached(entry, gradients)))
            self._operations.append(entry)
        own = self.output(node)
        inputs = {self.output(n) for n, _ in node.next_functions if n is not None} - {None}
        entries = []
        for attribute, tensor in tensors:
            address, nbytes = storage_of(tensor)
            if attribute in _OWN_OUTPUTS and own is not None:
                self._own_outputs.setdefault((self._forward, address), own)
            # What the functions' outputs told of its storage, as it is now: alive until its
            # backward, its address is no other tensor's meanwhile.
            entries.append((attribute, address, nbytes, tensor.dtype,
                            self._of_storage.get(address)))
        name = "" if not autocasting else "upcast" if node in self._upcast else \
            type(node).__name__
        self._nodes.append((name, id(node), own,
                            next(iter(inputs)) if len(inputs) == 1 else None, entries, module,
                            self._forward))

    def _costs(self):
        """What the noted saved tensors cost as recorded (by storage; the parameters, buffers
        and the model's inputs left out: made before the forward) and under autocast (by storage, or by cast: a parameter's cast is made once,
        in autocast's cache; any other input's at each call)."""
        recorded, autocast, savers = {}, {}, {}
        for name, node, own, agreed, entries, module, forward in self._nodes:
            for attribute, address, nbytes, dtype, known in entries:
                savers.setdefault(address, set()).add(module)
                lasting = address in self._lasting
                made = not lasting and address not in self._given  # in the forward
                if made:
                    recorded.setdefault(address, nbytes)
                if dtype != torch.float32:  # integers, masks, a float64 the step chose
                    if made:
                        autocast.setdefault(address, nbytes)
                    continue
                if attribute in _STATISTICS:
                    autocast.setdefault(address, nbytes)  # kept in float32 for any input
                    continue
                if attribute in _OWN_OUTPUTS:
                    dtype = own or dtype
                elif (forward, address) in self._own_outputs:
                    dtype = self._own_outputs[(forward, address)]
                elif known is not None:
                    dtype = known
                elif made and agreed is not None:
                    dtype = agreed  # its producer is not known: its node's inputs agree
                if name in LOWER and own == _HALF and dtype != _HALF:
                    key = ("cast", address) if address in self._cached else \
                        ("cast", node, address)
                    autocast.setdefault(key, nbytes // 2)
                elif not made:
                    continue  # a parameter, buffer or input saved as it is: no activation
                elif (name in self._float32 or name == "upcast") and dtype == _HALF:
                    autocast.setdefault(("float32", node, address), nbytes)
                else:
                    autocast.setdefault(address, nbytes // 2 if dtype == _HALF else nbytes)
        return recorded, autocast, savers

    def halved_sizes(self):
        """The sizes of the float32 tensors (saved, or held by the step into backward) that
        would be bfloat16 under autocast: their gradients in backward would be too; and apart,
        those of the other tensors that would be and met a float32 constant (a layer's output
        that a float32 buffer scales: the engine casts its float32 gradient)."""
        recorded, autocast, _ = self._costs()
        sizes = {nbytes for address, nbytes in recorded.items()
                 if autocast.get(address) == nbytes // 2 and nbytes > 1}
        sizes.update(nbytes for _, nbytes, dtype, _ in self._alive().values() if dtype == _HALF)
        return sizes, self._halved_inputs - sizes

    def _alive(self):
        """The held tensors that backward found alive, by storage (an address that a freed
        tensor had is another's later)."""
        return {entry[0]: entry for entry in self._held if entry[3]}

    def cast_parameters(self):
        """The storages of the float32 parameters that autocast would cast to bfloat16: the
        inputs of the operations it runs in the lower precision (a matrix product's weight and
        bias, through the views autograd puts between: linear's transposed weight)."""
        return set(self._cast_parameters)

    def cached_casts(self):
        """The parameters' casts that autocast's cache holds through the forward and no node
        saves (a bias; the weight of a first layer whose input takes no gradient: its node
        keeps the input alone), which the cache frees as the forward returns: (the modules
        whose calls cast it, its bytes) each. A saved cast lives on as changes() says."""
        _, autocast, _ = self._costs()
        return [(modules, nbytes) for address, (nbytes, modules)
                in self._cast_parameters.items() if ("cast", address) not in autocast]

    def _note_cast_parameters(self, node, module):
        pending = [n for n, _ in node.next_functions]
        while pending:
            current = pending.pop()
            name = type(current).__name__ if current is not None else ""
            if name == "AccumulateGrad":
                parameter = current.variable
                if parameter.dtype == torch.float32:
                    cast = self._cast_parameters.setdefault(
                        storage_of(parameter)[0], (parameter.numel() * 2, set()))  # in bfloat16
                    cast[1].add(module)
            elif name in _VIEWS:
                pending.extend(n for n, _ in current.next_functions)

    def operations(self):
        """Each node of an operation autocast would run in bfloat16 (LOWER), in the order the
        forward made them: (its module's path, its name, what it ran: kernel_probe's
        operation_of, None where it cannot be run again)."""
        return [tuple(entry) for entry in self._operations]

    def recorded(self):
        """Whether any saved tensor was noted (a step whose forward saves nothing has none)."""
        return bool(self._nodes)

    def changes(self):
        """What each saved tensor, and each of the model's outputs the step held into
        backward, would cost under autocast less what it costs as recorded, with the modules
        whose nodes saved it (None for the step's own: its loss, what it held): a list of
        (modules, bytes, block), where block, for a tensor that only nodes outside the model
        saved and the step did not hold (the loss's input), is (its bytes as recorded, the names
        of those nodes): its block is freed as they return, early in backward."""
        recorded, autocast, savers = self._costs()
        alive = self._alive()
        changes = []
        for key, nbytes in autocast.items():
            address = key[-1] if isinstance(key, tuple) else key
            block = None
            if not isinstance(key, tuple) and savers.get(address) == {None} and \
                    address not in alive and address in self._step_saved:
                block = (recorded.get(key, nbytes), self._step_saved[address])
            changes.append((savers.get(address, {None}),
                            nbytes - (0 if isinstance(key, tuple) else recorded.get(key, 0)),
                            block))
        changes += [(savers.get(address, {None}), -recorded[address], None)
                    for address in recorded if address not in autocast]
        changes += [({None}, (nbytes // 2 if dtype == _HALF else nbytes) - nbytes, None)
                    for address, nbytes, dtype, _ in alive.values() if address not in recorded]
        return [change for change in changes if change[1]]

    def release(self):
        self._of_node.clear()
        self._outside.clear()
        self._upcast.clear()
        self._constants.clear()
        self._of_storage.clear()
        for hook in self._hooks:
            hook.remove()
        self._hooks = []
