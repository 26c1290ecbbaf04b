"""The compute roofs of a roofline: each GPU's peak rates per element type,
and the choice of the roof a kernel is held to.

A report records the GPU it was measured on ("NVIDIA H100 80GB HBM3"):
`gpu_peaks` picks that GPU's row of `GPUS`. The kernel's element types pick
the column: the types its features count flops of, else those its name
spells (matmul_f16, a bf16 module), else FP32. Types that tensor cores
compute (f16, bf16, fp8, int8, f64) take the tensor-core peak unless the
kernel's features say it issues no tensor-core instruction, since a roof
must bound what a variant of the kernel can reach; f32 takes the FP32 peak
(TF32 would change the results) unless its features show tensor-core
instructions. A kernel of several types is held to the fastest of their
roofs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional

# Dense peaks (without structured sparsity), from NVIDIA's H100 whitepaper
# (H100 SXM5) and the H200 datasheet: both are GH100 with 132 SMs at a
# 1.98 GHz boost clock, so their compute peaks agree; their memory differs.
_GH100_SXM = {
    "fp64": 33.5e12, "fp64-tensor": 66.9e12,
    "fp32": 66.9e12, "tf32-tensor": 494.7e12,
    "fp16": 133.8e12, "fp16-tensor": 989.4e12,
    "bf16": 133.8e12, "bf16-tensor": 989.4e12,
    "fp8-tensor": 1978.9e12,
    "int32": 33.5e12, "int8-tensor": 1978.9e12,
}

# What each roof is called on the page.
ROOF_NAMES = {
    "fp64": "FP64", "fp64-tensor": "FP64 tensor-core",
    "fp32": "FP32", "tf32-tensor": "TF32 tensor-core",
    "fp16": "FP16", "fp16-tensor": "FP16 tensor-core",
    "bf16": "BF16", "bf16-tensor": "BF16 tensor-core",
    "fp8-tensor": "FP8 tensor-core",
    "int32": "INT32", "int8-tensor": "INT8 tensor-core",
}


@dataclass(frozen=True)
class GpuPeaks:
    """One GPU's peaks: `flops` per roof (ROOF_NAMES' keys) in FLOP/s (OP/s
    for integers), `dram_bytes_per_s` the memory bandwidth it is sold
    with."""
    name: str
    pattern: str
    dram_bytes_per_s: float
    flops: Mapping[str, float]


GPUS: List[GpuPeaks] = [
    # The SXM part reports itself as "NVIDIA H100 80GB HBM3"; the PCIe and
    # NVL parts run lower clocks and are not this row.
    GpuPeaks("H100 SXM", r"\bH100\b(?!.*\b(PCIe|NVL)\b)", 3.35e12,
             _GH100_SXM),
    GpuPeaks("H200", r"\bH200\b(?!.*\bNVL\b)", 4.8e12, _GH100_SXM),
]

# The GPU whose peaks stand in for one the table does not have.
DEFAULT_GPU = "H200"


def gpu_peaks(device: str) -> Optional[GpuPeaks]:
    """The row of GPUS whose pattern matches the device name a report
    records, or None."""
    for gpu in GPUS:
        if re.search(gpu.pattern, device or "", re.IGNORECASE):
            return gpu
    return None


# Element types by the spellings names use for them.
_TYPE_WORDS = {
    "f16": "f16", "fp16": "f16", "half": "f16", "hgemm": "f16",
    "bf16": "bf16",
    "f32": "f32", "fp32": "f32", "sgemm": "f32",
    "f64": "f64", "fp64": "f64", "double": "f64", "dgemm": "f64",
    "i8": "i8", "int8": "i8", "s8": "i8", "u8": "i8",
    "fp8": "fp8", "f8": "fp8", "e4m3": "fp8", "e5m2": "fp8",
}

# The features that count flops of one type (KernelFeatures).
_FLOP_FEATURES = {"flops_f16": "f16", "flops_bf16": "bf16",
                  "flops_f32": "f32", "flops_f64": "f64"}

# Per element type: its roof without tensor cores and with them.
_TYPE_ROOFS = {
    "f64": ("fp64", "fp64-tensor"), "f32": ("fp32", "tf32-tensor"),
    "f16": ("fp16", "fp16-tensor"), "bf16": ("bf16", "bf16-tensor"),
    "fp8": ("fp8-tensor", "fp8-tensor"), "i8": ("int32", "int8-tensor"),
}


def types_in_name(*names: str) -> List[str]:
    """The element types the words of `names` spell ("matmul_f16_kernel"
    -> ["f16"]), in the order they appear."""
    found: List[str] = []
    for name in names:
        for word in re.split(r"[^a-z0-9]+", (name or "").lower()):
            kind = _TYPE_WORDS.get(word)
            if kind and kind not in found:
                found.append(kind)
    return found


@dataclass(frozen=True)
class Roof:
    """The compute roof a kernel is held to, and how it was chosen."""
    flops_per_s: float
    # "H100 SXM FP16 tensor-core", or what the caller called it.
    label: str
    # Why this roof: "the kernel's features", "its name", "FP32 assumed:
    # ...", "given".
    basis: str
    # The roofs' key (ROOF_NAMES) and the GPU's row, when from the table.
    key: str = ""
    gpu: Optional[GpuPeaks] = None

    def describe(self) -> str:
        return (f"{self.label}, {self.flops_per_s / 1e12:.1f} TFLOP/s "
                f"({self.basis})")


def given_roof(flops_per_s: float, how: str = "given") -> Roof:
    """A roof the caller chose (--peak-flops, a table of peaks)."""
    return Roof(flops_per_s, "the given compute roof", how)


def choose_roof(device: str, features: Optional[Mapping[str, float]] = None,
                element_types: Iterable[str] = (),
                names: Iterable[str] = ()) -> Roof:
    """The roof of a kernel measured on `device`, from its `features`
    (flops per type, tensor_core_ops) or listed `element_types`, else the
    types its `names` spell, else FP32."""
    gpu = gpu_peaks(device)
    stand_in = ""
    if gpu is None:
        gpu = next(g for g in GPUS if g.name == DEFAULT_GPU)
        stand_in = (f"; no peaks for '{device or 'an unnamed GPU'}', "
                    f"an {gpu.name}'s used")
    features = dict(features or {})
    tensor = features.get("tensor_core_ops")
    types = [kind for key, kind in _FLOP_FEATURES.items()
             if features.get(key, 0) > 0]
    basis = "the kernel's features"
    if not types:
        types = [t for t in (str(e).lower() for e in element_types)
                 if t in _TYPE_ROOFS]
        basis = "the element types the report records"
    if not types:
        types = types_in_name(*names)
        basis = "the types its name spells"
    if not types:
        types = ["f32"]
        basis = "FP32 assumed: the report records no element type"
    keys = []
    for kind in types:
        plain, cores = _TYPE_ROOFS[kind]
        if tensor is None:
            # Unknown: the roof bounds a variant on tensor cores too, but
            # f32 on them would be TF32, another result.
            keys.append(plain if kind == "f32" else cores)
        else:
            keys.append(cores if tensor > 0 else plain)
    key = max(keys, key=lambda k: gpu.flops[k])
    return Roof(gpu.flops[key], f"{gpu.name} {ROOF_NAMES[key]}",
                basis + stand_in, key, gpu)


def peaks_table() -> Dict[str, Dict[str, float]]:
    """GPUS as plain data: GPU name -> roof -> FLOP/s, and its DRAM
    bandwidth under "dram_bytes_per_s"."""
    return {gpu.name: {**gpu.flops, "dram_bytes_per_s": gpu.dram_bytes_per_s}
            for gpu in GPUS}
