# SPDX-License-Identifier: Apache-2.0
"""What the session learns from the user's model and optimizer: module paths through forward
hooks (removed when the session ends), and each parameter's tensors as plain blocks."""

import inspect

import torch


def _storage_block(tensor):
    """(address, bytes) of the storage that holds `tensor`: how the memory meter knows it."""
    if tensor is None:
        return (0, 0)
    storage = tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage()
    return (storage.data_ptr(), tensor.nelement() * tensor.element_size())


def parameter_lister(model, optimizer):
    """A function listing the parameters as the engine wants them: one entry per tensor
    (a tied weight is one entry whose other names are its aliases), with its gradient and the
    optimizer's state tensors."""

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
        result = []
        for key in order:
            name, aliases, module_path, tensor = entries[key]
            state = []
            if optimizer is not None:
                # The state on the parameter's device: the memory report is that device's
                # (PyTorch 2.x keeps Adam's step counts on the CPU for a GPU's parameters).
                for value in optimizer.state.get(tensor, {}).values():
                    if isinstance(value, torch.Tensor) and value.nelement() > 0 and \
                            value.device == tensor.device:
                        state.append(_storage_block(value))
            result.append((name, aliases, module_path, _storage_block(tensor),
                           _storage_block(tensor.grad), state))
        return result

    return parameters


class ModuleHooks:
    """Forward hooks on every module of `model`: each tells the session which module runs, and
    the model's own forward begins a micro-batch. `remove()` takes them all away."""

    def __init__(self, model, session):
        self._handles = []
        # PyTorch 2.1 on calls a forward hook also when the forward raised (always_call): the
        # module leaves the stack then; before, when a module around it returns.
        always_call = "always_call" in inspect.signature(
            torch.nn.Module.register_forward_hook).parameters
        for path, module in model.named_modules():
            if isinstance(module, torch.jit.ScriptModule):
                continue  # takes no hooks: its operations count toward the module around it
            self._handles.append(module.register_forward_pre_hook(self._enter(path, session)))
            exit_ = self._exit(path, session)
            self._handles.append(module.register_forward_hook(exit_, always_call=True)
                                 if always_call else module.register_forward_hook(exit_))

    # The hooks run inside the user's forward: whatever happens to the session, they never
    # raise there (a session that failed has told the user already).
    @staticmethod
    def _enter(path, session):
        if path == "":
            def enter_model(module, inputs):
                try:
                    session.forward_begins()
                    session.enter_module(path)
                except Exception:
                    pass
            return enter_model

        def enter(module, inputs):
            try:
                session.enter_module(path)
            except Exception:
                pass
        return enter

    @staticmethod
    def _exit(path, session):
        def exit_(module, inputs, output):
            try:
                session.exit_module(path)
            except Exception:
                pass
        return exit_

    def remove(self):
        for handle in self._handles:
            handle.remove()
        self._handles = []
