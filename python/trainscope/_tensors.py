# SPDX-License-Identifier: Apache-2.0
"""What memory a tensor holds, as the memory meter knows it (by its storage's address): one
home for the host (parameters, gradients, optimizer state) and the advisor (saved tensors)."""

import torch

_UNINITIALIZED = getattr(torch.nn.parameter, "UninitializedTensorMixin", ())


def _storage(tensor):
    return tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage()


def storage_of(tensor):
    """(address, bytes) of the storage a tensor views."""
    storage = _storage(tensor)
    return storage.data_ptr(), storage.nbytes()


def tensor_block(tensor):
    """(address of its storage, the tensor's own bytes): a parameter, its gradient and its
    optimizer state as the memory report counts them (a view counts its own elements, not
    the storage it shares); (0, 0) for what has no such storage: no tensor, a lazy module's
    parameter not yet made, a sparse tensor (an embedding's sparse gradient) or one on the meta
    device."""
    if tensor is None or isinstance(tensor, _UNINITIALIZED):
        return (0, 0)
    try:
        if tensor.is_sparse or tensor.device.type == "meta":
            return (0, 0)
        return (_storage(tensor).data_ptr(), tensor.nelement() * tensor.element_size())
    except (RuntimeError, NotImplementedError, ValueError):
        return (0, 0)
