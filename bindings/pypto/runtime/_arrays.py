"""Arrays across the pypto.runtime call boundary: what a caller passes (numpy
arrays, torch tensors, anything ``numpy.asarray`` accepts) into the numpy
arrays the executor takes, and the executor's results back into the caller's
kind — written in place into the caller's Out / InOut arrays or tensors, or
returned as arrays of the caller's kind. torch is never imported unless an
argument is a torch tensor."""

import re

import numpy as np

_DTYPE = re.compile(r"pl\.(\w+)\]+$")
_NUMPY = {"BOOL": np.bool_, "INT8": np.int8, "INT16": np.int16, "INT32": np.int32,
          "INT64": np.int64, "UINT8": np.uint8, "UINT16": np.uint16, "UINT32": np.uint32,
          "UINT64": np.uint64, "FP16": np.float16, "FP32": np.float32, "FP64": np.float64,
          "BF16": np.float32, "INDEX": np.int64}


def is_torch(value):
    """True for a torch.Tensor (checked without importing torch)."""
    t = type(value)
    return t.__module__.split(".")[0] == "torch" and hasattr(value, "detach")


def declared_dtype(param):
    """The numpy dtype of an entry parameter's declared element type."""
    m = _DTYPE.search(param["type"])
    return _NUMPY.get(m.group(1)) if m else None


def to_numpy(value, param):
    """`value` as the numpy array the executor takes for `param`."""
    if is_torch(value):
        t = value.detach().cpu()
        if str(t.dtype) == "torch.bfloat16":
            t = t.float()
        return t.numpy()
    if isinstance(value, np.ndarray):
        return value
    dt = declared_dtype(param)
    return np.asarray(value, dtype=dt) if dt is not None else np.asarray(value)


def write_back(target, result):
    """Copies `result` into the caller's array / tensor `target` in place; False
    when `target` cannot be written (a list, a read-only array)."""
    if is_torch(target):
        import torch
        src = torch.from_numpy(np.ascontiguousarray(result))
        target.copy_(src.reshape(target.shape).to(target.dtype))
        return True
    if isinstance(target, np.ndarray) and target.flags.writeable:
        np.copyto(target, np.asarray(result).reshape(target.shape), casting="unsafe")
        return True
    return False


def like_caller(result, torch_caller):
    """A returned array in the caller's kind (torch when the caller passed torch)."""
    if torch_caller:
        import torch
        return torch.from_numpy(np.ascontiguousarray(result))
    return result


def converter(torch_caller):
    """How a SubWorker's numpy arguments are handed to its Python function."""
    if not torch_caller:
        return None
    import torch

    def to_torch(a):
        if not a.flags.writeable:
            a = a.copy()
        return torch.from_numpy(a)
    return to_torch
