//===- Passes.td - AutoProf optimizer passes ---------------*- tablegen -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_PASSES_TD
#define AUTOPROF_OPTIMIZER_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Rewrites
//===----------------------------------------------------------------------===//

def ApplyRewritesPass : Pass<"autoprof-apply-rewrites", "ModuleOp"> {
  let summary = "Apply built-in kernel rewrites by name";
  let description = [{
    Normalizes the module (`autoprof-normalize-kernels`, as the optimizer
    does before it rewrites; `normalize=false` leaves it as written), then
    applies the named rewrites of the built-in proposer, in order, to one
    kernel (and its launches): e.g. `block-size=N`, `form-blocks=N`,
    `coalesce=P`, `restrict` (docs/optimizer.md lists them all). A rewrite
    whose preconditions do not hold is a diagnostic that says which one
    failed and why; the optimizer applies the same rewrites to the variants
    it measures, so this pass shows exactly what a winner changed.

    ```mlir
    // --autoprof-apply-rewrites="kernel=saxpy rewrites=restrict,block-size=128"
    gpu.func @saxpy(%x: memref<1024xf32> {llvm.noalias, llvm.readonly}, ...)
    gpu.launch_func @kernels::@saxpy blocks in (%c8, ...) threads in (%c128, ...)
    ```
  }];
  let options = [
    Option<"kernelName", "kernel", "std::string", /*default=*/"\"\"",
           "Kernel to rewrite: NAME, or MODULE::NAME where several GPU modules hold a kernel NAME (default: the only kernel of the module)">,
    ListOption<"rewrites", "rewrites", "std::string",
               "Rewrites to apply, e.g. block-size=128,unroll=4">,
    Option<"normalize", "normalize", "bool", /*default=*/"true",
           "Normalize the module first, as the optimizer does">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The GPU the rewrites assume: sm_80, sm_86, sm_89, sm_90 or sm_100 (its SMs, registers and shared memory; default: the chip of the kernel's gpu.module #nvvm.target, else sm_90)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def ProposeRewritesPass : Pass<"autoprof-propose-rewrites", "ModuleOp"> {
  let summary = "Attach the applicable built-in rewrites to every kernel, "
                "ranked";
  let description = [{
    Normalizes the module (`autoprof-normalize-kernels`; `normalize=false`
    leaves it as written) and attaches to every launched kernel the built-in rewrites whose preconditions hold, most
    promising first, as `autoprof.proposals`: the candidates
    `autoprof-optimize` would measure, in its order, ranked by the kernel's
    features and static memory-access analysis (and by the metrics of
    `autoprof.measurement` when the kernel was profiled). With `remarks`,
    each proposal gets a remark with its rank, score and the facts it
    addresses; with `refusals` as well, every rewrite considered and refused
    gets a remark saying why. No GPU is needed; each proposal can be applied
    with `autoprof-apply-rewrites`.

    ```mlir
    gpu.func @matmul_kernel(...) kernel attributes {
        autoprof.proposals = ["form-blocks=256", "register-accumulate=1", ...]}
    ```
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Explain each proposal as a remark">,
    Option<"emitRefusals", "refusals", "bool", /*default=*/"false",
           "With remarks, also explain each rewrite that does not apply">,
    Option<"normalize", "normalize", "bool", /*default=*/"true",
           "Normalize the module first, as the optimizer does">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The GPU the rewrites assume: sm_80, sm_86, sm_89, sm_90 or sm_100 (its SMs, registers and shared memory; default: the chip of the kernel's gpu.module #nvvm.target, else sm_90)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::autoprof::AutoProfDialect",
  ];
}

//===----------------------------------------------------------------------===//
// Optimization
//===----------------------------------------------------------------------===//

def OptimizePass : Pass<"autoprof-optimize", "ModuleOp"> {
  let summary = "Replace every launched kernel by its fastest verified variant";
  let description = [{
    For every launched kernel: measure a baseline (its time, then the
    metrics the profiling tree selects: by default, with the built-in
    proposer, the tree learned for its search,
    lib/Transforms/LearnedTree.mlir) in `autoprof-worker`; rank the
    built-in rewrites whose preconditions hold by those metrics and the kernel's features (or,
    with `proposer=llm`, ask a chat model for a replacement gpu.func, given the
    kernel, the device, the metrics with their meanings and the history of
    tried variants); for up to `budget` candidates, lower the variant to PTX, verify it against the
    original kernel on several seeds and input distributions and time it;
    keep it only when it is verified and faster than the incumbent by more
    than the measured noise, and again when both are timed once more
    interleaved in one worker run, then continue from it. The output module holds
    the winners (kernel attributes, bodies and launches updated) and never
    anything unverified; when nothing wins, the original stays.

    With `sanitize=memcheck|racecheck|all`, a candidate that would win is
    first launched once more on generated inputs under `compute-sanitizer
    --tool memcheck` and/or `--tool racecheck` (found on PATH, then in
    `$CUDA_HOME/bin` and `/usr/local/cuda/bin`, or given by `sanitizer=`): a
    memcheck error (an access outside every allocation) or a racecheck
    hazard of either severity (a shared-memory race that the inputs happened
    not to expose) rejects it with the tool's report as the reason. A run that ends without a report but does
    not complete (the tool's slowdown outlasts the deadline) is
    inconclusive and noted in the report; the candidate then stands on the
    other checks. Where compute-sanitizer is not installed, a warning says so
    once, the report records it, and candidates are accepted on the other
    checks alone; a `sanitizer=` path that is not an executable is an error.

    `report=` writes a JSON report of every candidate: the rewrite, verified
    or the reason for its rejection, timings with spread, and the baseline's
    metrics, replay passes and profiling time. A short summary goes to
    stderr. Without a GPU the pass fails with a diagnostic and leaves the
    module unchanged.

    A kernel whose search fails (its baseline cannot be measured, the
    language model cannot be reached or answers nothing usable, a variant
    cannot be lowered) costs that kernel only: the other kernels are still
    searched, an error names the failed kernel and why, and the report lists
    it under `failed_kernels` (and, when it was measured, with `failed` in
    its entry). The pass then fails, leaving the module as it was; with
    `keep-going=true` it succeeds instead and the module takes every
    verified winner, each failed kernel keeping the winners it had before
    its failure.

    A kernel imported from a kernel spec (a `gpu.binary` marked
    `autoprof.imported`, launched once) is searched with the PTX-level
    families: block sizes where the spec says the kernel is block-size
    generic, `.maxnreg`, and `.maxntid` with `.minnctapersm` on its entry
    (docs/optimizer.md, "Imported kernels"); the winner's PTX and launch
    sizes replace the binary's.
  }];
  let options = [
    Option<"budget", "budget", "unsigned", /*default=*/"8",
           "Candidates to measure per kernel">,
    Option<"treeFile", "tree-file", "std::string", /*default=*/"\"\"",
           "Profiling tree (default: with the built-in proposer the tree "
           "learned for its search, lib/Transforms/LearnedTree.mlir; with "
           "proposer=llm the starting tree)">,
    Option<"treeName", "tree", "std::string", /*default=*/"\"\"",
           "Name of the tree when the file holds several">,
    Option<"noProfile", "no-profile", "bool", /*default=*/"false",
           "Collect no counters: the baseline is timed, not profiled, and "
           "the rewrites are ranked from the kernel's static features alone "
           "(what profiling adds is measured against this)">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write the JSON report of every candidate to this file">,
    Option<"workerPath", "worker", "std::string", /*default=*/"\"\"",
           "autoprof-worker to run (default: next to this tool, then PATH)">,
    Option<"deadline", "deadline", "unsigned", /*default=*/"120",
           "Seconds after which a job is killed and its candidate rejected">,
    Option<"device", "device", "int", /*default=*/"0",
           "CUDA device ordinal">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU architecture for the PTX">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX ISA version for the PTX">,
    Option<"timeBudget", "time-budget", "double", /*default=*/"0.5",
           "Seconds of timed launches per variant (at least 10 launches)">,
    Option<"seed", "seed", "unsigned", /*default=*/"1",
           "First seed of the verification inputs (two seeds are used)">,
    Option<"search", "search", "::mlir::autoprof::SearchStrategy",
           /*default=*/"::mlir::autoprof::SearchStrategy::Greedy",
           "How built-in rewrites are combined",
           [{::llvm::cl::values(
             clEnumValN(::mlir::autoprof::SearchStrategy::Greedy, "greedy",
                        "each rewrite applies to the fastest variant so far; "
                        "winners are re-profiled and the rest re-ranked"),
             clEnumValN(::mlir::autoprof::SearchStrategy::Each, "each",
                        "each rewrite applies to the original alone (every "
                        "proposal verified on its own)"))}]>,
    Option<"proposer", "proposer", "::mlir::autoprof::ProposerKind",
           /*default=*/"::mlir::autoprof::ProposerKind::Builtin",
           "Who proposes variants",
           [{::llvm::cl::values(
             clEnumValN(::mlir::autoprof::ProposerKind::Builtin, "builtin",
                        "the built-in rewrites, ranked by features and "
                        "counters (no network)"),
             clEnumValN(::mlir::autoprof::ProposerKind::Model, "llm",
                        "a chat model asked for replacement kernels"))}]>,
    Option<"endpoint", "endpoint", "std::string", /*default=*/"\"\"",
           "LLM base URL (default: $OPENAI_BASE_URL / $ANTHROPIC_BASE_URL, "
           "then http://localhost:8000/v1)">,
    Option<"model", "model", "std::string", /*default=*/"\"\"",
           "LLM model name (default: $OPENAI_MODEL)">,
    Option<"apiStyle", "api-style", "::autoprof::llm::ApiStyle",
           /*default=*/"::autoprof::llm::ApiStyle::OpenAI", "LLM API",
           [{::llvm::cl::values(
             clEnumValN(::autoprof::llm::ApiStyle::OpenAI, "openai",
                        "chat completions"),
             clEnumValN(::autoprof::llm::ApiStyle::Anthropic, "anthropic",
                        "messages"))}]>,
    Option<"cacheDir", "cache-dir", "std::string", /*default=*/"\"\"",
           "Cache LLM answers by request hash in this directory">,
    Option<"replayOnly", "replay-only", "bool", /*default=*/"false",
           "Answer LLM requests only from the cache (no network)">,
    Option<"llmRetries", "llm-retries", "unsigned", /*default=*/"4",
           "Retries of an LLM request on 408/429/5xx and transport errors">,
    Option<"sanitize", "sanitize", "::mlir::autoprof::SanitizeMode",
           /*default=*/"::mlir::autoprof::SanitizeMode::None",
           "compute-sanitizer tools a would-be winner runs under before it "
           "is accepted (a reported error rejects it)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::autoprof::SanitizeMode::None, "none",
                        "no sanitizer run"),
             clEnumValN(::mlir::autoprof::SanitizeMode::Memcheck, "memcheck",
                        "out-of-bounds and misaligned accesses"),
             clEnumValN(::mlir::autoprof::SanitizeMode::Racecheck,
                        "racecheck", "shared-memory data races"),
             clEnumValN(::mlir::autoprof::SanitizeMode::All, "all",
                        "memcheck, then racecheck"))}]>,
    Option<"precision", "precision", "::mlir::autoprof::PrecisionPolicy",
           /*default=*/"::mlir::autoprof::PrecisionPolicy::Same",
           "The formats a candidate may compute in below the original's "
           "least precise ones (products and accumulations, read from the "
           "PTX); a candidate below them is rejected",
           [{::llvm::cl::values(
             clEnumValN(::mlir::autoprof::PrecisionPolicy::Same, "same",
                        "none: the original's precision"),
             clEnumValN(::mlir::autoprof::PrecisionPolicy::TF32, "tf32",
                        "down to tf32"),
             clEnumValN(::mlir::autoprof::PrecisionPolicy::F16, "f16",
                        "down to f16 (tf32 included)"),
             clEnumValN(::mlir::autoprof::PrecisionPolicy::BF16, "bf16",
                        "down to bf16"))}]>,
    Option<"sanitizerPath", "sanitizer", "std::string", /*default=*/"\"\"",
           "compute-sanitizer to run (default: PATH, then $CUDA_HOME/bin, "
           "then /usr/local/cuda/bin)">,
    Option<"keepGoing", "keep-going", "bool", /*default=*/"false",
           "When some kernels fail, still succeed with the other kernels' "
           "winners (the failures become warnings)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::autoprof::AutoProfDialect",
  ];
}

#endif // AUTOPROF_OPTIMIZER_PASSES_TD
