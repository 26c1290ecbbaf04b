"""The compute roof of a kernel: the GPU the report records picks the row
of peaks, the kernel's element types the column."""

import json

import pytest

from autoprof import load_report
from autoprof.peaks import GPUS, choose_roof, gpu_peaks, types_in_name


def test_the_device_name_picks_the_gpu():
    assert gpu_peaks("NVIDIA H100 80GB HBM3").name == "H100 SXM"
    assert gpu_peaks("NVIDIA H200").name == "H200"
    # Parts with other clocks are not these rows.
    assert gpu_peaks("NVIDIA H100 PCIe") is None
    assert gpu_peaks("NVIDIA H100 NVL") is None
    assert gpu_peaks("NVIDIA GH200 480GB") is None
    assert gpu_peaks("") is None
    for gpu in GPUS:
        assert gpu.flops["fp32"] == pytest.approx(66.9e12)
        assert gpu.flops["fp16-tensor"] > gpu.flops["fp16"] > \
            gpu.flops["fp32"]
    assert gpu_peaks("NVIDIA H200").dram_bytes_per_s > \
        gpu_peaks("NVIDIA H100 80GB HBM3").dram_bytes_per_s


def test_names_spell_element_types():
    assert types_in_name("matmul_f16_kernel::matmul_f16_kernel") == ["f16"]
    assert types_in_name("matmul_bf16.tile16x16.json") == ["bf16"]
    assert types_in_name("gemm-int8", "dgemm") == ["i8", "f64"]
    # Words only: "f16" inside another word is not a type.
    assert types_in_name("elf16x", "matmul_large") == []


@pytest.mark.parametrize("features, types, names, key, basis", [
    # Features count flops per type and say whether tensor cores run.
    ({"flops_f16": 8.0, "flops_f32": 8.0, "tensor_core_ops": 4.0}, [], [],
     "fp16-tensor", "features"),
    ({"flops_f16": 8.0, "tensor_core_ops": 0.0}, [], [], "fp16",
     "features"),
    ({"flops_f32": 2.0, "tensor_core_ops": 0.0}, [], [], "fp32",
     "features"),
    ({"flops_f32": 2.0, "tensor_core_ops": 1.0}, [], [], "tf32-tensor",
     "features"),
    ({"flops_f64": 2.0, "tensor_core_ops": 0.0}, [], [], "fp64",
     "features"),
    # Listed types, tensor cores unknown: the roof bounds a tensor-core
    # variant, except for f32 (TF32 would be another result).
    ({}, ["i8"], [], "int8-tensor", "element types"),
    ({}, ["f32"], [], "fp32", "element types"),
    ({}, ["f64"], [], "fp64-tensor", "element types"),
    # Else the name; several types take the fastest roof.
    ({}, [], ["mix_f32_bf16"], "bf16-tensor", "name"),
    ({}, [], ["add_kernel"], "fp32", "FP32 assumed"),
])
def test_the_types_pick_the_roof(features, types, names, key, basis):
    roof = choose_roof("NVIDIA H100 80GB HBM3", features, types, names)
    assert roof.key == key
    assert roof.flops_per_s == gpu_peaks("H100").flops[key]
    assert roof.label.startswith("H100 SXM ")
    assert basis in roof.basis


def test_an_unknown_gpu_takes_a_stand_in_and_says_so():
    roof = choose_roof("NVIDIA A100-SXM4-40GB", names=["add"])
    assert roof.gpu.name == "H200"
    assert "no peaks for 'NVIDIA A100-SXM4-40GB'" in roof.basis
    assert roof.describe().startswith("H200 FP32, 66.9 TFLOP/s (")


def test_an_h100_f16_kernel_is_under_its_roof(h100_f16_path):
    # Against the FP32 peak it ran at 3.62 times the roofline; against the
    # H100's FP16 tensor-core peak it runs under it.
    kernel = load_report(h100_f16_path).kernels[0]
    assert kernel.roofline_fraction(67e12) == pytest.approx(3.62, abs=0.01)
    roof = kernel.roof()
    assert roof.label == "H100 SXM FP16 tensor-core"
    assert roof.flops_per_s == pytest.approx(989.4e12)
    assert kernel.roofline_fraction() == pytest.approx(0.245, abs=0.001)
    assert kernel.floor_us() == pytest.approx(
        kernel.flops_total / 989.4e12 * 1e6)


def test_recorded_features_choose_over_the_name(tmp_path, h100_f16_path):
    document = json.loads(h100_f16_path.read_text())
    document["kernels"][0]["features"] = {"flops_f16": 2.0,
                                          "tensor_core_ops": 0.0}
    path = tmp_path / "matmul_f16.json"
    path.write_text(json.dumps(document))
    kernel = load_report(path).kernels[0]
    assert kernel.roof().key == "fp16"
    assert kernel.roof().basis == "the kernel's features"
