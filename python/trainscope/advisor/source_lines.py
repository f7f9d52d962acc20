# SPDX-License-Identifier: Apache-2.0
"""The line of the user's code that a what-if changes: the line that builds the module it swaps
(`self.act = nn.GELU()`), the line that calls the first of the blocks it checkpoints (the loop
over them, or the call of their Sequential), the line that builds the optimizer it swaps or
that calls zero_grad. Found in the source of the user's own classes and functions, by Python's
parser; None where it cannot be found (a class defined where its source cannot be read, a
module added with add_module, a library's own code)."""

import ast
import inspect
import os
import sys
import textwrap

import torch
from torch import nn

# torch's and TrainScope's own folders: a file in neither is the user's.
_LIBRARIES = (os.path.dirname(os.path.abspath(torch.__file__)) + os.sep,
              os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep)


def _users(path):
    """Whether `path` is a file of the user's, not torch's or TrainScope's."""
    return bool(path) and not os.path.abspath(path).startswith(_LIBRARIES)


def _installed(path):
    """Whether `path` lies in an installed package (a site-packages or dist-packages folder:
    transformers', timm's), whose lines are no user's to change."""
    parts = os.path.abspath(path).split(os.sep)
    return "site-packages" in parts or "dist-packages" in parts


def callers_line():
    """(file, line) of the innermost frame of the user's code that called into this one
    (through torch's and TrainScope's own frames), or None."""
    frame = sys._getframe(1)
    while frame is not None and not _users(frame.f_code.co_filename):
        frame = frame.f_back
    return (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None


def shown_path(path, root):
    """`path` relative to the project's `root` where it lies inside it, else as it is."""
    inside = os.path.abspath(path).startswith(os.path.join(os.path.abspath(root), ""))
    return os.path.relpath(path, root) if inside else path


def _parsed(function):
    """(file, first line, parsed tree) of `function`'s source, or None."""
    try:
        lines, first = inspect.getsourcelines(function)
        first = max(first, 1)  # a module's source begins at its line 1 (given as 0)
        path = inspect.getsourcefile(function)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    # A module built in an installed package's class (timm's Mlp builds its act): the line is
    # not the user's to change.
    return (path, first, tree) if _users(path) and not _installed(path) else None


def _assigned_in(cls, name):
    """(file, line) of `self.NAME = ...` in the __init__ of `cls` or of a class it derives
    from (the user's own), or None."""
    for klass in cls.__mro__:
        if klass is nn.Module or "__init__" not in vars(klass):
            continue
        parsed = _parsed(klass.__init__)
        if parsed is None:
            continue
        path, first, tree = parsed
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == name and \
                        isinstance(target.value, ast.Name) and target.value.id == "self":
                    return path, first + node.lineno - 1
    return None


def built_at(model, path):
    """(file, line) that builds the module at `path` of `model`: where its parent assigns it;
    for a module inside a Sequential, ModuleList or ModuleDict, where the container is built."""
    parent_path, _, name = path.rpartition(".")
    while True:
        try:
            parent = model.get_submodule(parent_path) if parent_path else model
        except AttributeError:
            return None
        if not isinstance(parent, (nn.Sequential, nn.ModuleList, nn.ModuleDict)) or \
                not parent_path:
            return _assigned_in(type(parent), name)
        parent_path, _, name = parent_path.rpartition(".")


def _called_by(call, names):
    """Whether `call` (an ast.Call) calls a function or method named one of `names`."""
    function = call.func
    return (isinstance(function, ast.Name) and function.id in names) or \
        (isinstance(function, ast.Attribute) and function.attr in names)


def calls_in(functions, names):
    """(file, line) of the first call of a function or method named one of `names` in the
    source of `functions` (functions or modules of the user's, in order: an entry point's
    iteration_provider, then its file), or None."""
    for function in functions:
        parsed = _parsed(function) if function is not None else None
        if parsed is None:
            continue
        path, first, tree = parsed
        found = sorted(node.lineno for node in ast.walk(tree)
                       if isinstance(node, ast.Call) and _called_by(node, names))
        if found:
            return path, first + found[0] - 1
    return None


class BlockCallers:
    """While a step runs, the line of the user's code that calls the first block of each
    container (the loop over a ModuleList's blocks, the call of a Sequential): a forward
    pre-hook on each first block reads the caller's frame, once."""

    def __init__(self, containers):
        self.lines = {}  # container path -> (file, line)
        self._handles = []
        self._containers = containers  # (container path, first block module)

    def __enter__(self):
        for container, block in self._containers:
            self._handles.append(block.register_forward_pre_hook(self._hook(container)))
        return self

    def __exit__(self, *exc):
        for handle in self._handles:
            handle.remove()
        self._handles.clear()

    def _hook(self, container):
        def hook(module, args):
            if container in self.lines:
                return
            try:  # reading frames never raises into the user's step
                line = callers_line()
                if line is not None:
                    self.lines[container] = line
            except Exception:
                pass
        return hook
