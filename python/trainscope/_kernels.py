# SPDX-License-Identifier: Apache-2.0
"""The kernels of torch.compile'd code, one by one, by the user's modules and lines.

Inductor runs a compiled region as Python code it generated, which calls each kernel (and each
extern call, `extern_kernels.addmm`) by name. While a session observes, Inductor's provenance
tracking is on: as it compiles, it tells `set_kernel_post_grad_provenance_tracing` which FX
nodes each kernel computes, and writes the kernel's handle above its call in the generated code
("# [Provenance debug handles] cpp_fused_gelu_1:3"). Those nodes carry the user's module
(`nn_module_stack`, `fwd_nn_module_stack` in the backward graph) and line (`stack_trace`). Each
generated module that the observed steps run has its kernels replaced, in its own namespace, by
a KernelCall that times each call for the session; everything is put back when it closes.

Compiling in the session bypasses Inductor's and AOTAutograd's caches (a cache hit would skip
the code generation that provenance comes from, and the session's entries would land in the
user's cache); code generated before the session has no provenance: its regions stay one
operation each, which the report says."""

import re
import sys
import threading
import weakref

from . import _trainscope

_HANDLE = re.compile(r"^\s*# \[Provenance debug handles\] (\S+):(\d+)\s*$")
# A call statement, perhaps assigned: "buf2 = extern_kernels.convolution(", its callee's path.
_CALL = re.compile(r"^\s*(?:\w+(?:\s*,\s*\w+)*\s*=\s*)?([A-Za-z_][\w.]*)\(")
# A C++ kernel's definition with its arguments' types: those not const are the ones it writes.
_CPP_KERNEL = re.compile(r"^(\w+) = async_compile\.cpp_pybinding\(\[([^\]]*)\]")
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+), in ')
_ROOT = re.compile(r"^[LG]\['[^']*'\]")
_ITEM = re.compile(r"\[(?:'([^']*)'|(\d+))\]")
_TRACER = "set_kernel_post_grad_provenance_tracing"


def module_path(dynamo_path):
    """Dynamo's name of a module ("L['fn'].layers[0]._modules['attn']") as PyTorch names it
    from the model ("layers.0.attn")."""
    path = _ROOT.sub("", dynamo_path)
    path = path.replace("._modules", "")
    path = _ITEM.sub(lambda m: "." + (m.group(1) if m.group(1) is not None else m.group(2)), path)
    return path.strip(".")


def _origins(node_schedule, kernel_name, is_extern):
    """The FX nodes a kernel computes. An extern call computes its own operation: its origin
    node, else those of its origins that are that operation (a fallback's origins may
    include the nodes around it)."""
    if is_extern:
        origin = getattr(node_schedule, "origin_node", None)
        if origin is not None:
            return [origin]
        origins = list(getattr(node_schedule, "origins", ()))
        own = [node for node in origins if getattr(node, "op", "") == "call_function"
               and _operation(node).split(".")[-1] in kernel_name.split(".")]
        return own or origins
    origins = []
    for snode in node_schedule:
        node = getattr(snode, "node", None)
        if node is not None:
            origins.extend(getattr(node, "origins", ()))
    return origins


def _operation(node):
    op = node.meta.get("original_aten") or node.target
    return str(getattr(op, "overloadpacket", op))


def _frames(stack_trace):
    """(file, line) pairs of a node's stack trace, most specific first."""
    frames = [(m.group(1), int(m.group(2)))
              for m in map(_FRAME.match, (stack_trace or "").splitlines()) if m]
    return frames[::-1]


def kernel_facts(origins):
    """(fused ATen operations, module path, frames, why unattributed) of a kernel computing
    the FX nodes `origins`: the module that most of them came from, and the lines of the first
    of those."""
    fused, votes, first = [], {}, {}
    for node in origins:
        if getattr(node, "op", "") == "call_function":
            name = _operation(node)
            if name not in fused:
                fused.append(name)
        stack = node.meta.get("nn_module_stack") or node.meta.get("fwd_nn_module_stack") or {}
        path = module_path(list(stack.values())[-1][0]) if stack else ""
        frames = _frames(node.meta.get("stack_trace"))
        if frames:
            votes[path] = votes.get(path, 0) + 1
            first.setdefault(path, frames)
    if not votes:
        return fused, "", [], "Inductor knows no source line of it"
    path = max(votes, key=lambda p: (votes[p], -list(votes).index(p)))
    return fused, path, first[path], ""


class KernelWatch:
    """Started when the session starts observing compiled code; `instrument()` before each
    observed step; `close()` puts everything back."""

    def __init__(self, session):
        self._session = session
        self._undo = []         # callables that put back the tracer and settings, in order
        self._wraps = []        # (generated module, name, timed kernel) for each kernel wrapped
        self._unwrap = []       # callables that put back the generated code's kernels
        self._graphs = []       # per graph Inductor compiled: {kernel key: facts}
        self._lowering = None   # a weak reference to the GraphLowering of the last graph
        self._next_graph = 0    # the first graph no generated module was matched to
        self._seen = []         # the generated modules looked at (kept: their ids stay theirs)
        self.sites = 0  # kernel call sites timed
        self.started = False
        self._waiting = False  # for Dynamo's first compilation (start())

    def start(self):
        """Turns on provenance for what Inductor compiles from now on, when the process uses
        torch.compile and the session observes it. PyTorch 2.x's optimizers import TorchDynamo
        in every process, compiled or not, while importing Inductor's code generators, where
        the provenance is bound, costs a process that never compiles memory and time: where
        Dynamo tells when it begins to compile, provenance is turned on then, before Inductor
        runs."""
        dynamo = sys.modules.get("torch._dynamo")
        if self.started or self._waiting or dynamo is None:
            return
        handler = getattr(dynamo, "callback_handler", None)
        if handler is None or not hasattr(handler, "register_start_callback"):
            self._start_now()  # a Dynamo without compile callbacks: at once
            return

        thread = threading.get_ident()

        def compiling(*_args):  # PyTorch 2.15 passes the compilation's facts, earlier ones none
            # Only the loop's own thread: Dynamo also compiles a backward graph lazily on
            # autograd's device thread, where Inductor's settings would be patched apart.
            if threading.get_ident() != thread:
                return
            try:
                self._start_now()
            except Exception:
                pass  # never a fault in the user's compilation: its kernels stay one region

        handler.register_start_callback(compiling)
        self._waiting = True
        self._undo.append(lambda: handler.remove_start_callback(compiling))

    def _start_now(self):
        if self.started:
            return
        try:
            import torch._functorch.config as functorch_config
            import torch._inductor.codegen.cpp  # noqa: F401 (binds the tracer at import)
            import torch._inductor.config as inductor_config
            import torch._inductor.debug as debug
            try:
                import torch._inductor.codegen.triton  # noqa: F401 (likewise)
            except Exception:
                pass
            original = getattr(debug, _TRACER)
        except Exception:
            return  # a torch without Inductor's provenance: regions stay one operation
        self.started = True

        def traced(node_schedule, kernel_name, is_extern=False):
            handle = original(node_schedule, kernel_name, is_extern)
            if handle is not None:
                try:
                    self._note(node_schedule, kernel_name, handle, is_extern)
                except Exception:
                    pass  # a kernel we cannot describe stays part of its region
            return handle

        # What was generated before has no provenance of this session's: never looked at.
        self._seen = list(_generated_modules())
        for name, module in list(sys.modules.items()):
            if name.startswith("torch._inductor") and getattr(module, _TRACER, None) is original:
                _set(module, _TRACER, traced, self._undo)
        for config, changes in ((inductor_config, {"trace.provenance_tracking_level": 1,
                                                   "fx_graph_cache": False}),
                                (functorch_config, {"enable_autograd_cache": False})):
            patch = config.patch(changes)
            patch.__enter__()
            self._undo.append(lambda p=patch: p.__exit__(None, None, None))

    def _note(self, node_schedule, kernel_name, handle, is_extern):
        import torch._guards
        from torch._inductor.virtualized import V
        # Each graph Inductor compiles has a GraphLowering of its own (V.graph while it
        # compiles); its kernels' handles count on from the last graph's unless Inductor reset
        # them, so they do not tell graphs apart.
        lowering = V.graph
        if not self._graphs or self._lowering is None or self._lowering() is not lowering:
            self._graphs.append({})
            self._lowering = weakref.ref(lowering)
        compile_id = torch._guards.CompileContext.current_compile_id()
        key = f"{kernel_name}:{handle}"
        extern = getattr(sys.modules["torch._inductor.debug"], "_inductor_kernel_extern_info", {})
        shapes = (getattr(extern.get(key), "shapes", None) or {}).get("input_shapes") or []
        self._graphs[-1][key] = (
            str(compile_id) if compile_id is not None else "",
            kernel_facts(_origins(node_schedule, kernel_name, is_extern)),
            ";".join(",".join(str(d) for d in shape) for shape in shapes))

    def instrument(self):
        """Wraps the kernels of each generated module that is new since the last call (and,
        after unwrap(), those wrapped before)."""
        self.start()
        if not self.started:
            return
        if self._wraps and not self._unwrap:
            for module, name, timed in self._wraps:
                _set(module, name, timed, self._unwrap)
        modules = _generated_modules()
        for module in modules[len(self._seen):] if modules[:len(self._seen)] == self._seen \
                else [m for m in modules if all(m is not s for s in self._seen)]:
            self._seen.append(module)
            try:
                self._instrument(module)
            except Exception:
                pass  # a module we cannot read runs as it is

    def _instrument(self, module):
        with open(module.__file__, encoding="utf-8") as source:
            lines = source.read().splitlines()
        backward = "_backward'" in (lines[0] if lines else "")
        calls, pending = [], None  # (callee's path, line, kernel key)
        written = {}  # a C++ kernel's name: the positions of the arguments it writes
        for number, line in enumerate(lines, 1):
            kernel = _CPP_KERNEL.match(line)
            if kernel:
                types = [t.strip().strip("'\"") for t in kernel.group(2).split(",") if t.strip()]
                written[kernel.group(1)] = [i for i, t in enumerate(types)
                                            if t.endswith("*") and not t.startswith("const")]
            handle = _HANDLE.match(line)
            if handle:
                pending = f"{handle.group(1)}:{handle.group(2)}"
            elif pending and line.strip() and not line.lstrip().startswith("#"):
                call = _CALL.match(line)
                if call:
                    calls.append((tuple(call.group(1).split(".")), number, pending))
                pending = None
        graph = self._graph_of({key for *_, key in calls})
        if not calls or graph is None:
            return  # its region stays one operation (the report says so)
        roots = {}  # a global the code calls through: {the rest of the path: {line: site}}
        for path, number, key in calls:
            compile_id, (fused, where, frames, why), shapes = graph[key]
            site = self._session.add_kernel_site(
                (compile_id, backward, ".".join(path), fused, where, frames, why, shapes))
            roots.setdefault(path[0], {}).setdefault(path[1:], {})[number] = site
            self.sites += 1
        for root, by_path in roots.items():
            original = getattr(module, root, None)
            if original is None:
                continue
            if () in by_path:  # the global itself: a kernel Inductor compiled
                if callable(original):
                    self._wrap(module, root, self._timed(root, original, by_path[()],
                                                         written.get(root, ())))
            else:  # extern_kernels.mm, torch.ops.aten.convolution_backward.default, ...
                self._wrap(module, root, _TimedNamespace.of(original, by_path, self._timed,
                                                            root))

    def _wrap(self, module, name, timed):
        self._wraps.append((module, name, timed))
        _set(module, name, timed, self._unwrap)

    def _graph_of(self, keys):
        """The graph whose generated code calls the kernels `keys`: the next one, in compile
        order, that has them all. Inductor loads each graph's code as it compiles it, so the
        modules come in the graphs' order; kernel keys alone may repeat across graphs (each
        graph numbers its kernels from 1)."""
        for i in range(self._next_graph, len(self._graphs)):
            if keys and keys <= self._graphs[i].keys():
                self._next_graph = i + 1
                return self._graphs[i]
        return None

    def _timed(self, name, function, by_line, written=()):
        return _trainscope.KernelCall(self._session, name, function, by_line,
                                      next(iter(by_line.values())), list(written))

    def unwrap(self):
        """Puts back the generated code's kernels (instrument() wraps them again)."""
        while self._unwrap:
            self._unwrap.pop()()

    def close(self):
        """Puts back every kernel, tracer and setting, last changed first."""
        self.unwrap()
        while self._undo:
            try:
                self._undo.pop()()
            except Exception:
                pass


def _set(owner, name, value, undo):
    """Sets `owner.name` to `value`, and appends to `undo` what puts the old value back."""
    before = getattr(owner, name)
    setattr(owner, name, value)
    undo.append(lambda: setattr(owner, name, before))


def _generated_modules():
    """The Python modules Inductor generated in this process, in the order it loaded them."""
    codecache = sys.modules.get("torch._inductor.codecache")
    modules = getattr(getattr(codecache, "PyCodeCache", None), "modules", None)
    return list(modules) if isinstance(modules, list) else []


class _TimedNamespace:
    """A namespace that generated code calls kernels through (`extern_kernels`, `torch`), for
    one generated module: the calls it makes timed, every other name its own."""

    def __init__(self, original, members):
        self.__dict__.update(members)
        self.__dict__["_original"] = original

    def __getattr__(self, name):
        return getattr(self._original, name)

    @classmethod
    def of(cls, original, by_path, timed, name):
        """`original` with the callables at the paths of `by_path` ({("ops", "aten", ...):
        {line: site}}) timed."""
        heads = {}
        for path, by_line in by_path.items():
            heads.setdefault(path[0], {})[path[1:]] = by_line
        members = {}
        for head, rest in heads.items():
            child, child_name = getattr(original, head), f"{name}.{head}"
            members[head] = (timed(child_name, child, rest[()]) if () in rest
                             else cls.of(child, rest, timed, child_name))
        return cls(original, members)
