// The report records each kernel's static features and the element types
// of its buffers, from which its readers choose a compute roof: a bf16
// matrix product with an f32 result computes its products in f32 and
// issues no tensor-core instruction before a tile family puts it on them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %autoprof_opt %S/../Corpus/Upstream/matmul_bf16.tile16x16.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py report=%t/report.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t/report.json

// CHECK: "element_types": [
// CHECK-NEXT: "bf16",
// CHECK-NEXT: "f32"
// CHECK-NEXT: ],
// CHECK-NEXT: "features": {
// CHECK-DAG: "flops_bf16": 0,
// CHECK-DAG: "flops_f32": 4096,
// CHECK-DAG: "flops_total": 17179869184,
// CHECK-DAG: "tensor_core_ops": 0,
