# SPDX-License-Identifier: Apache-2.0
"""A Skyline or DeepView entry point (model_provider, input_provider, iteration_provider, with
the prefix skyline_, deepview_ or none) as `python3 -m trainscope` loads and calls it."""

import importlib.util
import inspect
import sys


def takes_batch_size(provider):
    try:
        parameters = inspect.signature(provider).parameters
    except (TypeError, ValueError):  # no signature to read: let the call say
        return True
    return "batch_size" in parameters or any(
        p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def load_entry(entry):
    """The entry point as a module of its own, known to sys.modules as trainscope_entry_point,
    so that what it defines pickles (torch.save of its model, a DataLoader's workers) as it
    does when the file runs as a script. Its `if __name__ == "__main__":` block does not run."""
    spec = importlib.util.spec_from_file_location("trainscope_entry_point", entry)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return vars(module)


def provider(namespace, kind):
    for prefix in ("skyline_", "deepview_", ""):
        function = namespace.get(prefix + kind)
        if callable(function):
            return function
    return None


def default_step(model):
    import torch
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

    def iteration(*inputs):
        optimizer.zero_grad()
        output = model(*inputs)
        loss = output.sum() if isinstance(output, torch.Tensor) else sum(o.sum() for o in output)
        loss.backward()
        optimizer.step()

    iteration.optimizer = optimizer
    return iteration


def optimizer_of(step):
    """The optimizer the step uses, found among its closure's values (for its state's bytes).
    A cell the step never filled (a name bound under an `if` not taken) is passed over."""
    import torch
    candidates = [getattr(step, "optimizer", None)]
    if inspect.isfunction(step):
        for cell in step.__closure__ or ():
            try:
                candidates.append(cell.cell_contents)
            except ValueError:  # an empty cell
                pass
        candidates += [step.__globals__.get(name) for name in step.__code__.co_names]
    for candidate in candidates:
        if isinstance(candidate, torch.optim.Optimizer):
            return candidate
    return None


def to_device(value, device):
    import torch
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (tuple, list)):
        return type(value)(to_device(v, device) for v in value)
    return value


class ContractError(Exception):
    """An entry point whose provider breaks the contract: its one line (a usage error)."""


def model_from(model_provider, device):
    """model_provider()'s model on `device`."""
    import torch
    model = model_provider()
    if not isinstance(model, torch.nn.Module):
        raise ContractError(f"model_provider returned {type(model).__name__}, not a "
                            f"torch.nn.Module")
    return model.to(device)


def inputs_from(input_provider, batch_size, device, entry):
    """input_provider()'s inputs (at `batch_size`, where given) as a tuple on `device`."""
    if batch_size and not takes_batch_size(input_provider):
        raise ContractError(f"--batch-size: {entry}'s input_provider takes no batch_size")
    inputs = input_provider(batch_size=batch_size) if batch_size else input_provider()
    return to_device(inputs if isinstance(inputs, (tuple, list)) else (inputs,), device)


def step_from(iteration_provider, model):
    """The callable that runs one step of `model`."""
    step = iteration_provider(model)
    if not callable(step):
        raise ContractError(f"iteration_provider returned {type(step).__name__}, not a "
                            f"callable that runs one step")
    return step

