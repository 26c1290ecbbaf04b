//===- Passes.td - AutoProf pass definitions ---------------*- tablegen -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TRANSFORMS_PASSES_TD
#define AUTOPROF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Kernel analysis
//===----------------------------------------------------------------------===//

def ExtractFeaturesPass : Pass<"autoprof-extract-features", "ModuleOp"> {
  let summary = "Attach static kernel features to every GPU kernel";
  let description = [{
    Computes the static features of every `gpu.func` kernel and of its
    launch (the first `gpu.launch_func` of the kernel in host code, whose
    grid and block sizes must be constants) and attaches them as the
    `autoprof.features` dictionary attribute. Counts are per thread and
    weighted by constant loop trip counts; a loop bound that is a kernel
    argument fed by a host constant counts as constant.

    Kernels with dynamically shaped buffers, non-constant launch sizes or ops
    the analysis does not model are rejected with a diagnostic.

    Before:

    ```mlir
    gpu.func @scale(%x: memref<1024xf32>) kernel { ... }
    ```

    After:

    ```mlir
    gpu.func @scale(%x: memref<1024xf32>) kernel
        attributes {autoprof.features = {arith_intensity = 0.125 : f64,
                                         block_threads = 256 : i64, ...}} {...}
    ```
  }];
  let dependentDialects = ["::mlir::autoprof::AutoProfDialect"];
}

//===----------------------------------------------------------------------===//
// Profile selection
//===----------------------------------------------------------------------===//

def SelectProfilePass : Pass<"autoprof-select-profile", "ModuleOp"> {
  let summary = "Choose the metrics to collect per kernel with a profiling tree";
  let description = [{
    Evaluates a profiling tree on the features of every GPU kernel (computing
    them first when `autoprof.features` is absent) and attaches the outcome
    as the `autoprof.profile` dictionary: the tree, the leaf id, the path of
    node ids and decisions taken, the groups and metrics of the leaf, and the
    expanded list of metric names to collect.

    The tree comes from `tree-file` (an MLIR file holding `autoprof.tree`
    ops; `tree` picks one by name when it holds several) or, by default,
    from the tree shipped with AutoProf.

    ```mlir
    gpu.func @scale(...) kernel attributes {autoprof.profile = {
        tree = "h200_start", leaf = 4 : i64, path = [1, 3, 4],
        groups = ["SpeedOfLight", "MemoryWorkloadAnalysis"], ...}}
    ```
  }];
  let options = [
    Option<"treeFile", "tree-file", "std::string", /*default=*/"\"\"",
           "MLIR file holding the profiling tree (default: the shipped tree)">,
    Option<"treeName", "tree", "std::string", /*default=*/"\"\"",
           "Name of the tree to use when the file holds several">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the leaf chosen for each kernel as a remark">,
  ];
  let dependentDialects = ["::mlir::autoprof::AutoProfDialect"];
}

//===----------------------------------------------------------------------===//
// Profiling
//===----------------------------------------------------------------------===//

def ProfilePass : Pass<"autoprof-profile", "ModuleOp"> {
  let summary = "Time every launched kernel on the GPU and collect its metrics";
  let description = [{
    Lowers the module's kernels to PTX, and for every launched kernel runs
    one evaluation job in `autoprof-worker` (a child process with a
    deadline): time the kernel with the measurement protocol (warm-up, L2
    flush before every timed launch, CUDA events, median and spread, SM
    clock) and collect its metrics with CUPTI. The metrics are the ones the
    profiling tree selects (the kernel's `autoprof.profile`, or the tree of
    `tree-file`/the shipped tree), or the explicit `metrics` list. Results
    are attached as `autoprof.measurement`; a metric that could not be
    collected is listed under `missing` with the reason, never as 0. The
    kernel's `autoprof.features` gain the dynamic features `duration_us`,
    `dram_bandwidth_fraction` (the static byte estimate over the measured time,
    against the DRAM bandwidth measured on the device) and `waves_per_sm`.

    ```mlir
    gpu.func @saxpy(...) kernel attributes {autoprof.measurement = {
        gpu = "NVIDIA H200", median_us = 124.1 : f64, mad_us = 0.4 : f64,
        metrics = {dram__bytes_read.sum = 2.68e8 : f64, ...},
        missing = [], replay_passes = 9 : i64, ...}}
    ```

    Without a GPU (or a worker) the pass fails with a diagnostic that says
    why; the module is left unchanged.
  }];
  let options = [
    ListOption<"metrics", "metrics", "std::string",
               "Metrics to collect instead of the tree's selection">,
    Option<"treeFile", "tree-file", "std::string", /*default=*/"\"\"",
           "Profiling tree for kernels without autoprof.profile">,
    Option<"treeName", "tree", "std::string", /*default=*/"\"\"",
           "Name of the tree when the file holds several">,
    Option<"workerPath", "worker", "std::string", /*default=*/"\"\"",
           "autoprof-worker to run (default: next to this tool, then PATH)">,
    Option<"deadline", "deadline", "unsigned", /*default=*/"120",
           "Seconds after which a job is killed and its kernel rejected">,
    Option<"device", "device", "int", /*default=*/"0",
           "CUDA device ordinal">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU architecture for the PTX">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX ISA version for the PTX">,
    Option<"timeBudget", "time-budget", "double", /*default=*/"1.0",
           "Seconds of timed launches per kernel (at least 10 launches)">,
    Option<"jobDir", "job-dir", "std::string", /*default=*/"\"\"",
           "Also write each kernel's evaluation job to <dir>/<kernel>.json "
           "(to reproduce a measurement with autoprof-worker or ncu)">,
  ];
  let dependentDialects = ["::mlir::autoprof::AutoProfDialect"];
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

def LowerToPTXPass : Pass<"autoprof-lower-to-ptx", "ModuleOp"> {
  let summary = "Lower every gpu.module to PTX for an NVIDIA GPU";
  let description = [{
    Lowers the kernels of every `gpu.module` through GPU → NVVM → LLVM IR →
    PTX with the bare-pointer kernel ABI (static-shape memrefs become plain
    pointers, so MLIR, CUDA and PTX kernels with the same parameter list are
    interchangeable) and replaces each module by a `gpu.binary` holding the
    PTX. Host code is left as it is, so the launches keep their operands.

    The chip, PTX features and optimization level are checked before any
    lowering: an unknown chip, a PTX version the chip cannot use or that the
    toolchain does not know is a diagnostic, not a crash in the backend.
    Math functions (`math.exp`, `math.rsqrt`, ...) lower to libdevice calls
    that are linked from the CUDA toolkit found through `cuda-path`; PTX that
    still calls an unresolved libdevice function is a diagnostic.
    With `ptx-dir`, the PTX of each module is also written to
    `<ptx-dir>/<module name>.ptx`, e.g. for `ptxas`.

    Before: `gpu.module @kernels { gpu.func @k(...) kernel {...} }`

    After: `gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90",
    features = "+ptx80">, assembly = "...">]`
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU architecture (sm_75 … sm_120a)">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "Target features: the PTX ISA version, e.g. +ptx80">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "LLVM optimization level for the NVPTX backend (0-3)">,
    Option<"ptxDir", "ptx-dir", "std::string", /*default=*/"\"\"",
           "Directory that receives one <module>.ptx file per gpu.module">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit whose libdevice implements math functions (default: "
           "$CUDA_HOME, $CUDA_ROOT, $CUDA_PATH, then /usr/local/cuda)">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect",
  ];
}

#endif // AUTOPROF_TRANSFORMS_PASSES_TD
