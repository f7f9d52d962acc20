# SPDX-License-Identifier: Apache-2.0
"""What memory a tensor holds, as the memory meter knows it (by its storage's address): one
home for the host (parameters, gradients, optimizer state) and the advisor (saved tensors)."""

import torch

_UNINITIALIZED = getattr(torch.nn.parameter, "UninitializedTensorMixin", ())


def _storage(tensor):
    return tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage()


def local_of(tensor):
    """The tensor this rank holds of a DTensor (FSDP2's parameters, their gradients and
    optimizer state, tensor parallelism's): its local shard, which is what c10 allocated here;
    the tensor itself otherwise. A DTensor has no storage of its own."""
    local = getattr(tensor, "_local_tensor", None)
    return local if isinstance(local, torch.Tensor) else tensor


def storage_of(tensor):
    """(address, bytes) of the storage a tensor views."""
    storage = _storage(local_of(tensor))
    return storage.data_ptr(), storage.nbytes()


def tensor_block(tensor):
    """(address of its storage, the tensor's own bytes): a parameter, its gradient and its
    optimizer state as the memory report counts them (a view counts its own elements, not
    the storage it shares; a DTensor its local shard's); (0, 0) for what has no such storage:
    no tensor, a lazy module's parameter not yet made, a sparse tensor (an embedding's sparse
    gradient) or one on the meta device."""
    if tensor is None or isinstance(tensor, _UNINITIALIZED):
        return (0, 0)
    try:
        tensor = local_of(tensor)
        if tensor.is_sparse or tensor.device.type == "meta":
            return (0, 0)
        return (_storage(tensor).data_ptr(), tensor.nelement() * tensor.element_size())
    except (RuntimeError, NotImplementedError, ValueError, TypeError):
        return (0, 0)


def sharding_of(tensor, block):
    """(the whole tensor's bytes over every rank, how it is laid out over them, why its memory
    cannot be read or ''), given its tensor_block: (0, '', '') for a tensor whole on this rank. A DTensor sharded along
    one mesh dimension of one dimension (FSDP2's Shard(0)) says 'Shard(dim=0) over N ranks';
    another layout (a 2-D mesh, Partial, strided shards) is named as DTensor names it: its local
    shard is still what this rank holds, and counted."""
    if tensor is None or local_of(tensor) is tensor:
        if tensor is None:
            return (0, "", "")
        if not _readable(tensor, block):
            return (0, "", _unreadable_reason(tensor))
        return _flat_parameter_sharding(tensor)
    try:
        whole = tensor.numel() * tensor.element_size()
        mesh = tensor.device_mesh
        placements = tuple(tensor.placements)
        if mesh.ndim == 1 and len(placements) == 1 and placements[0].is_shard():
            layout = f"{placements[0]!r} over {mesh.size()} ranks"
        else:
            layout = (f"{', '.join(repr(p) for p in placements)} on a mesh of "
                      f"{'x'.join(str(s) for s in mesh.shape)} ranks")
        return (whole, layout, "")
    except Exception as e:  # a DTensor of a layout this torch names otherwise
        return (0, "", f"its layout cannot be read ({type(e).__name__})")


def _readable(tensor, block):
    """Whether tensor_block read the tensor's memory (`block`), or it has none to read."""
    if isinstance(tensor, _UNINITIALIZED) or block != (0, 0):
        return True
    try:
        return tensor.numel() == 0 or tensor.is_sparse or tensor.device.type == "meta"
    except Exception:
        return False


def _unreadable_reason(tensor):
    return f"a {type(tensor).__name__} whose storage cannot be read"


def _flat_parameter_sharding(tensor):
    """FSDP1 (FullyShardedDataParallel) keeps a unit's parameters as one flat parameter, of
    which each rank holds a padded share: (its whole bytes, 'FSDP1's flat parameter over N
    ranks', '') for one sharded over ranks, else (0, '', '')."""
    # A FlatParameter is made as a plain Parameter that FSDP1 marks (torch 2.x).
    if not getattr(tensor, "_is_flat_param", False):
        return (0, "", "")
    try:
        whole = tensor._unpadded_unsharded_size.numel() * tensor.element_size()
        ranks = tensor._padded_unsharded_size.numel() // max(1, tensor._sharded_size.numel())
    except (AttributeError, TypeError):  # another torch's FSDP1
        return (0, "", "")
    if ranks <= 1:
        return (0, "", "")
    # FSDP1 names its scopes without the unit, and gathers inside scopes that allocate other
    # things too: its gathered copies are not told apart (FSDP2's are).
    return (whole, f"FSDP1's flat parameter over {ranks} ranks; its all-gathered copy counts "
                   f"as activations or other", "")
