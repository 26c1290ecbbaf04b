//===- Passes.td - AutoProf pass definitions ---------------*- tablegen -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TRANSFORMS_PASSES_TD
#define AUTOPROF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

def ImportKernelPass : Pass<"autoprof-import-kernel", "ModuleOp"> {
  let summary = "Add kernels written in CUDA C++, PTX or a cubin, described "
                "by kernel specs";
  let description = [{
    Reads each kernel spec (JSON, `include/autoprof/Import/KernelSpec.h`:
    the source file, its entry, grid, block and dynamic shared memory, and
    every parameter's kind, element type, count and role or value) and adds
    the kernel to the module: a `gpu.binary` holding its PTX, marked
    `autoprof.imported` with the spec's parameters, and a host function
    `@<entry>_launch` that takes the buffers as statically shaped memrefs
    and launches the entry with `gpu.launch_func`. CUDA C++ is compiled to
    PTX by NVRTC in `autoprof-worker` (no GPU needed); PTX is read as it is;
    a cubin is kept as it is, as a `bin` object.

    The spec is checked against the PTX: the entry must exist, take as many
    parameters as the spec lists, a 64-bit pointer for each buffer and a
    scalar of the spec's size for each scalar, and the PTX must not target
    a newer architecture than `chip`. A cubin is checked the same way
    against the parameter sizes its entry's attributes record, and its code
    must run on `chip`. A spec that does not parse, names an unknown element
    type or a missing file, or disagrees with its source is refused with a
    diagnostic that names the field.

    ```sh
    autoprof-opt --autoprof-import-kernel="spec=saxpy.json" /dev/null
    ```

    gives, for a spec of `saxpy(float a, const float *x, float *y)`:

    ```mlir
    module attributes {gpu.container_module} {
      gpu.binary @saxpy [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "...">]
          {autoprof.imported = {entry = "saxpy", format = "cuda", params = [...], ...}}
      func.func @saxpy_launch(%x: memref<1048576xf32>, %y: memref<1048576xf32>) {
        %a = arith.constant 2.0 : f32
        ...
        gpu.launch_func @saxpy::@saxpy blocks in (%c4096, %c1, %c1)
            threads in (%c256, %c1, %c1) args(%a : f32, %x : memref<1048576xf32>, ...)
        return
      }
    }
    ```
  }];
  let options = [
    ListOption<"specs", "spec", "std::string",
               "Kernel spec files (JSON) to import">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU the PTX is for (sm_XX)">,
    Option<"workerPath", "worker", "std::string", /*default=*/"\"\"",
           "autoprof-worker that compiles CUDA C++ (default: next to this "
           "tool, then PATH)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::autoprof::AutoProfDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::NVVM::NVVMDialect",
  ];
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def NormalizeKernelsPass : Pass<"autoprof-normalize-kernels", "ModuleOp"> {
  let summary = "Bring launched kernels into the form the analyses and "
                "rewrites work on";
  let description = [{
    Upstream GPU pipelines (`convert-parallel-loops-to-gpu`,
    `gpu-kernel-outlining`) pass loop steps, bounds and tile sizes to kernels
    as arguments, index through `affine.apply`, and compute launch sizes with
    affine maps on the host. This pass rewrites such a module into one
    canonical form without changing what it computes:

    - `affine.apply` (kernels and host code) is lowered to `arith`, then the
      module is canonicalized and CSE'd, so launch sizes become constants;
    - a scalar kernel argument that every launch feeds the same constant is
      sunk into the kernel body as that constant, and removed from the
      kernel's signature and from every launch;
    - when every launch of a kernel has the same constant block (grid) size,
      the kernel records it as `known_block_size` (`known_grid_size`);
    - a launch inside a host `scf.for` is marked `autoprof.host_loop` with
      the loop's trip count when it is constant and the kernel operands that
      vary with the induction variable.

    The features, profile and optimize passes run the same normalization on
    their working copy first.

    Before:

    ```mlir
    gpu.func @k(%step: index, %lb: index, %a: memref<256xf32>) kernel {
      %bid = gpu.block_id x
      %i = affine.apply affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>(%bid)[%step, %lb]
      ...
    }
    gpu.launch_func @m::@k blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%c1 : index, %c0 : index, %a : memref<256xf32>)
    ```

    After:

    ```mlir
    gpu.func @k(%a: memref<256xf32>) kernel attributes
        {known_block_size = array<i32: 1, 1, 1>,
         known_grid_size = array<i32: 256, 1, 1>} {
      %bid = gpu.block_id x
      ... %bid is the index ...
    }
    gpu.launch_func @m::@k blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<256xf32>)
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::autoprof::AutoProfDialect",
  ];
}

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

    The features describe the kernels as `autoprof-normalize-kernels` leaves
    them (computed on a normalized copy; the module keeps its form), so that
    two spellings of one kernel get the same features; `normalize=false`
    describes the kernels exactly as written.

    A kernel imported from a kernel spec (a launched `gpu.binary` marked
    `autoprof.imported`) gets the features its launch and PTX give (those
    the schema marks `fromPtx`: docs/kernel-features.md) on the binary.

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
  let options = [
    Option<"normalize", "normalize", "bool", /*default=*/"true",
           "Describe the normalized kernels (false: the kernels as written)">,
  ];
  let dependentDialects = ["::mlir::autoprof::AutoProfDialect"];
}

def AnalyzeMemoryAccessPass
    : Pass<"autoprof-analyze-memory-access", "ModuleOp"> {
  let summary = "Explain every kernel memory access as remarks";
  let description = [{
    Normalizes a copy of the module (`autoprof-normalize-kernels`), runs the
    memory-access analysis on every launched kernel and reports, as a remark
    on each global or shared load, store and atomic: the address in elements
    as an affine form over thread ids (`tid.x`), block ids (`bid.x`), loop
    induction variables (`i0` for the outermost loop), kernel arguments and
    constants; the element strides between neighbouring threads and blocks
    along x, y and z; the loops the address varies with; and the 32-byte
    sectors one warp request touches against the bytes it uses. A remark on
    each kernel names the dimension whose consecutive global indices walk
    contiguous memory, each buffer's footprint per block and reuse, and
    whether the launches provably pass distinct buffers. An access the
    analysis cannot describe says why. The module itself is not changed.

    ```mlir
    // remark: load arg0: address = 128*bid.x + i0; strides thread (0, 0, 0)
    //   block (128, 0, 0); varies with i0; 1 lanes, 1 sectors per request,
    //   4 of 32 bytes used
    %v = memref.load %a[%bid, %i] : memref<256x128xf32>
    ```
  }];
}

def RaiseKernelsPass : Pass<"autoprof-raise-kernels", "ModuleOp"> {
  let summary = "Print each launched kernel raised to its iteration space";
  let description = [{
    Normalizes a copy of the module (`autoprof-normalize-kernels`) and
    raises every launched kernel to its iteration space
    (`include/autoprof/Raise/IterationSpace.h`): the parallel and reduction
    dimensions with their extents, each buffer access as an affine map of
    them, the guards folded into the extents, and the body's computation.
    A remark on each kernel either lists the dimensions and accesses or says
    why the kernel does not raise (workgroup memory, atomics, a gather,
    data-dependent control, ...). For each kernel that raises, a function
    `@<kernel>_raised` taking the kernel's (normalized) arguments is added
    to the module; its body is the raised form as an affine nest. This is a
    test pass: the optimizer raises kernels itself.

    ```mlir
    // remark: raised: d0 = 16*bid.x + tid.x in [0, 1000) parallel; ...
    func.func @add_kernel_raised(%a: memref<1000x777xf32>, ...) {
      affine.parallel (%i, %j) = (0, 0) to (1000, 777) {
        %x = affine.load %a[%i, %j] : memref<1000x777xf32>
        ...
        affine.store %s, %o[%i, %j] : memref<1000x777xf32>
      }
      return
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::func::FuncDialect",
  ];
}

def DiagnosePass : Pass<"autoprof-diagnose", "ModuleOp"> {
  let summary = "Turn each kernel's collected metrics into bottleneck facts";
  let description = [{
    Reads the metrics `autoprof-profile` collected for each kernel
    (`autoprof.measurement`) and attaches `autoprof.facts`: for every fact
    the diagnosis knows (DRAM-, L2-, L1- and compute-bound, uncoalesced
    loads and stores, shared bank conflicts, low occupancy, register spills,
    warp divergence, too few waves, tail effect, latency-, issue- and
    special-function-bound, barrier stalls) whether it holds. A fact whose
    metrics were not collected is `unknown`, never false. With `remarks`,
    each fact gets a remark with the values that decided it or the metrics
    that were missing. The facts and thresholds are in docs/diagnosis.md.

    ```mlir
    gpu.func @k(...) kernel attributes {autoprof.facts = {
        dram-bound = "true", low-occupancy = "unknown", ...}}
    ```
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Explain each fact as a remark">,
  ];
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
    from the starting tree shipped with AutoProf
    (lib/Transforms/StartingTree.mlir).

    ```mlir
    gpu.func @scale(...) kernel attributes {autoprof.profile = {
        tree = "h200_start", leaf = 4 : i64, path = [1, 3, 4],
        groups = ["SpeedOfLight", "MemoryWorkloadAnalysis"], ...}}
    ```
  }];
  let options = [
    Option<"treeFile", "tree-file", "std::string", /*default=*/"\"\"",
           "MLIR file holding the profiling tree (default: the shipped "
           "starting tree)">,
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
    `tree-file`/the shipped starting tree), or the explicit `metrics` list.
    Results are attached as `autoprof.measurement`; a metric that could not be
    collected is listed under `missing` with the reason, never as 0. The
    kernel's `autoprof.features` gain the dynamic features `duration_us`,
    `dram_bandwidth_fraction` (the static byte estimate over the measured time,
    against the DRAM bandwidth measured on the device) and `waves_per_sm`.
    A kernel imported from a kernel spec runs as its binary's PTX with the
    launch's sizes and the spec's parameters, and its measurement and
    features go on the `gpu.binary` (docs/import.md).

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
           "(<dir>/<gpu.module>.<kernel>.json when the name is taken; to "
           "reproduce a measurement with autoprof-worker or ncu)">,
  ];
  let dependentDialects = ["::mlir::autoprof::AutoProfDialect"];
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

def VerifyKernelsPass : Pass<"autoprof-verify-kernels", "ModuleOp"> {
  let summary = "Check on the GPU that every launched kernel computes what its "
                "counterpart in a reference module computes";
  let description = [{
    For every launched kernel `@m::@k` of the module, finds the kernel of the
    same name in the same `gpu.module` of the `reference` module (e.g. the
    module before `autoprof-normalize-kernels` or before `autoprof-optimize`)
    and runs one verification job in `autoprof-worker`: both kernels run on
    identical generated inputs for two seeds (`seed`, `seed + 1`) and every
    input distribution, and every buffer is compared. Nothing is timed or
    profiled. Each kernel gets a remark when it verifies; a kernel the worker
    rejects gets an error with the worker's reason, and the pass fails. The
    module is not changed.

    The first launch of each kernel is evaluated, in both modules (with the
    host code's affine maps folded on copies, so that launch sizes computed
    on the host are constants). The kernel may take fewer parameters than the
    reference: the worker's parameter map says which reference parameter
    each of its parameters receives.

    - A buffer receives the reference parameter that the reference launch
      feeds from the same place: the same argument of the host function of
      the same name, or the result of the host operation that comes at the
      same position among that function's operations of its kind (the
      second `memref.alloc`, ...). Each buffer of the reference must be
      received; element type and count must match.
    - Scalars keep their order: each scalar receives the next reference
      scalar, after the one the previous scalar received, that the
      reference launch feeds a constant of the same type and value. The
      reference scalars passed over are the ones the kernel has sunk into its
      body: only the reference receives them (with their constant values).
      Which of several equal constants a scalar receives does not change
      what either kernel is passed.

    A kernel without a counterpart in the reference, a reference kernel that
    is not launched, or parameters that cannot be mapped are errors on the
    kernel's launch. A launch in a host `scf.for` with constant bounds that
    passes the induction variable is verified as the loop's sequence of
    launches (a repeated launch; the varying scalar maps only to its
    counterpart, and a kernel that folded the loop leaves it out). A kernel
    marked `autoprof.fallback_of = @k` is verified against the reference's
    `@k`. A launch whose sizes or other scalars are not constants has no
    evaluation job: the kernel gets a warning that says so and is left
    unverified. Without a GPU (or a worker) the pass fails with a diagnostic
    that says why.

    A kernel imported from a kernel spec (a `gpu.binary` marked
    `autoprof.imported`) is verified against the imported binary of the same
    name and entry in the reference: the two PTX entries on the spec's
    parameters, each with its own launch (so a search's block size is
    checked against the original's), on every base input distribution but
    special float values (nothing says the PTX tolerates them). A binary
    launched more than once gets a warning and is left unverified; one
    without a counterpart is an error at the binary.

    ```sh
    autoprof-opt m.mlir --autoprof-normalize-kernels -o n.mlir
    autoprof-opt n.mlir --autoprof-verify-kernels="reference=m.mlir"
    ```

    ```mlir
    // Reference: gpu.launch_func @m::@k ... args(%c1 : index, %c0 : index,
    //                                            %arg0 : memref<256xf32>)
    // Here:      gpu.launch_func @m::@k ... args(%arg0 : memref<256xf32>)
    // remark: @k verified against the reference (2 seeds x 4 input
    //   distributions; 2 reference scalars sunk)
    gpu.func @k(%a: memref<256xf32>) kernel { ... }
    ```
  }];
  let options = [
    Option<"reference", "reference", "std::string", /*default=*/"\"\"",
           "Module holding the reference kernels (required)">,
    Option<"workerPath", "worker", "std::string", /*default=*/"\"\"",
           "autoprof-worker to run (default: next to this tool, then PATH)">,
    Option<"deadline", "deadline", "unsigned", /*default=*/"120",
           "Seconds after which a job is killed and its kernel rejected">,
    Option<"device", "device", "int", /*default=*/"0",
           "CUDA device ordinal">,
    Option<"seed", "seed", "unsigned", /*default=*/"1",
           "First seed of the verification inputs (two seeds are used)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU architecture for the PTX">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX ISA version for the PTX">,
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
    So is an instruction the chip does not have, at the op that needs it:
    tensor-core products (`nvgpu.mma.sync`, `nvvm.mma.sync`) of a shape and
    type the chip lacks (m16n8k16 on f16 or bf16 needs sm_80), asynchronous
    copies (`nvgpu.device_async_copy`, `nvvm.cp.async.*`: sm_80; bulk and
    tensor copies: sm_90), and NVVM ops that declare the chips they need.
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
