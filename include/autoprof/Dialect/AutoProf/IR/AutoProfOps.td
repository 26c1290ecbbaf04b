//===- AutoProfOps.td - The profiling-tree dialect ---------*- tablegen -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A profiling tree decides, per kernel, which hardware metrics are worth
// collecting. Inner nodes (`autoprof.split`) compare one static or dynamic
// kernel feature against a threshold; leaves (`autoprof.collect`) name the
// metric groups and metrics to collect. Trees are ordinary IR so that they
// print, parse, verify, diff and version like any other MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_DIALECT_AUTOPROF_IR_AUTOPROFOPS_TD
#define AUTOPROF_DIALECT_AUTOPROF_IR_AUTOPROFOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def AutoProf_Dialect : Dialect {
  let name = "autoprof";
  let cppNamespace = "::mlir::autoprof";
  let summary = "Learned profiling trees that choose which GPU metrics to collect";
  let description = [{
    The `autoprof` dialect models a *profiling tree*: a small deterministic
    decision tree over kernel features whose leaves name the hardware metrics
    (grouped like Nsight Compute sections) that are worth collecting for a
    kernel. Evaluation is deterministic: the same features always reach the
    same leaf, and a feature that is missing takes the branch its split
    declares.

    ```mlir
    autoprof.tree @h200 attributes {chip = "sm_90"} {
      autoprof.split id(1) "arith_intensity" < 4.0 missing(then) {
        autoprof.collect id(2) groups ["SpeedOfLight", "MemoryWorkloadAnalysis"]
      } else {
        autoprof.collect id(3) groups ["SpeedOfLight", "ComputeWorkloadAnalysis"]
      }
    }
    ```
  }];
  // autoprof.measurement's metrics and timings are checked where the
  // attribute is (verifyOperationAttribute).
  let hasOperationAttrVerify = 1;
  let discardableAttrs = (ins
    DictionaryAttr:$features,
    DictionaryAttr:$profile,
    // A kernel's timing and collected metrics. Written by autoprof-profile.
    DictionaryAttr:$measurement,
    // A launch inside a host loop: trip_count (when constant) and
    // varying_operands, the kernel operands that depend on the loop's
    // induction variable. Written by autoprof-normalize-kernels.
    DictionaryAttr:$host_loop,
    // A kernel kept as the fallback of the kernel it names: the original code
    // of a kernel a rewrite changed, launched where a run-time check refuses
    // the rewritten one. Written by the fold-host-loop rewrite; the fallback
    // is verified against the named kernel of a reference module.
    FlatSymbolRefAttr:$fallback_of,
    // A kernel whose floating-point sums a rewrite split across threads, so
    // that they add their terms in another order, or whose products it fused
    // with their sums: its verification bounds the difference by the
    // magnitude of the terms, not of the result. Written by the warp-reduce,
    // block-reduce and contraction-tile rewrites.
    UnitAttr:$reassociated,
    // The applicable built-in rewrites of a kernel, most promising first, as
    // "family=parameter" strings. Written by autoprof-propose-rewrites.
    ArrayAttr:$proposals,
    // Bottleneck facts of a profiled kernel: fact name -> "true", "false"
    // or "unknown". Written by autoprof-diagnose.
    DictionaryAttr:$facts,
    // A kernel imported from a kernel spec (CUDA C++ or PTX), on the
    // gpu.binary that holds its PTX: format, source, entry,
    // block_size_generic, params (each one's name, kind, dtype, count and
    // role or value, as in an evaluation job) and, for CUDA, the source
    // text. No gpu.func gives such a kernel's parameters; this does.
    // Written by autoprof-import-kernel.
    DictionaryAttr:$imported
  );
}

class AutoProf_Op<string mnemonic, list<Trait> traits = []>
    : Op<AutoProf_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def AutoProf_ComparisonLT : I32EnumAttrCase<"lt", 0>;
def AutoProf_ComparisonLE : I32EnumAttrCase<"le", 1>;
def AutoProf_ComparisonGT : I32EnumAttrCase<"gt", 2>;
def AutoProf_ComparisonGE : I32EnumAttrCase<"ge", 3>;
def AutoProf_ComparisonAttr : I32EnumAttr<"Comparison",
    "how a split compares its feature with the threshold",
    [AutoProf_ComparisonLT, AutoProf_ComparisonLE, AutoProf_ComparisonGT,
     AutoProf_ComparisonGE]> {
  let cppNamespace = "::mlir::autoprof";
}

def AutoProf_BranchThen : I32EnumAttrCase<"then_branch", 0, "then">;
def AutoProf_BranchElse : I32EnumAttrCase<"else_branch", 1, "else">;
def AutoProf_BranchAttr : I32EnumAttr<"Branch",
    "a branch of a split", [AutoProf_BranchThen, AutoProf_BranchElse]> {
  let cppNamespace = "::mlir::autoprof";
}

//===----------------------------------------------------------------------===//
// TreeOp
//===----------------------------------------------------------------------===//

def AutoProf_TreeOp : AutoProf_Op<"tree", [
    Symbol, IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "A profiling tree: chooses the metrics to collect per kernel";
  let description = [{
    A named profiling tree for one GPU architecture (`chip`, e.g. `sm_90`).
    Its body holds exactly one node, the root: an `autoprof.split` or an
    `autoprof.collect`. Metric groups and metric names in the leaves must be
    known to the metric catalog of `chip`; features tested by splits must be
    known kernel features. Every node carries an `id` unique within the tree,
    a whole number from 0 to 2^53 - 1, so edits and evaluation paths can
    refer to nodes stably.

    The optional `note` says where the tree comes from (e.g. that it is a
    hand-written starting point that has not been learned yet).

    Example:

    ```mlir
    autoprof.tree @small attributes {chip = "sm_90", note = "hand-written"} {
      autoprof.collect id(1) groups ["SpeedOfLight"]
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    // Architecture whose metric catalog the leaves are checked against.
    StrAttr:$chip,
    // Free-form provenance of the whole tree.
    OptionalAttr<StrAttr>:$note
  );
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The root node (an autoprof.split or autoprof.collect), or null when
    /// the body is malformed.
    ::mlir::Operation *getRoot();
  }];
}

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

def AutoProf_SplitOp : AutoProf_Op<"split", [
    ParentOneOf<["TreeOp", "SplitOp"]>, SingleBlock, NoTerminator]> {
  let summary = "Inner node of a profiling tree: a test on one kernel feature";
  let description = [{
    Compares kernel feature `feature` with `threshold` using one of `<`,
    `<=`, `>`, `>=`. When the comparison holds evaluation continues in the
    first region, otherwise in the `else` region. When the kernel has no value
    for the feature (for example a dynamic feature of a kernel that was never
    run), evaluation takes the branch named by `missing(...)`. Each region
    holds exactly one node. An optional `provenance` (in the attribute
    dictionary) records the edit that made the split or last changed its
    test.

    Example:

    ```mlir
    autoprof.split id(1) "global_bytes_total" >= 6.4e7 missing(else) {
      autoprof.collect id(2) groups ["MemoryWorkloadAnalysis"]
    } else {
      autoprof.collect id(3) groups ["LaunchStats", "Occupancy"]
    }
    ```
  }];
  let arguments = (ins
    // Stable node id, unique within the tree, from 0 to 2^53 - 1.
    I64Attr:$id,
    // Name of the kernel feature to test (see the feature schema).
    StrAttr:$feature,
    AutoProf_ComparisonAttr:$comparison,
    F64Attr:$threshold,
    // Branch taken when the feature has no value.
    AutoProf_BranchAttr:$missing,
    // Which edit created the split or last changed its test (a learner's
    // SPLIT or REWRITE, a model's proposal).
    OptionalAttr<StrAttr>:$provenance
  );
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The node in the given branch, or null when the region is malformed.
    ::mlir::Operation *getChild(Branch branch);
    /// Whether `value` satisfies the comparison.
    bool holds(double value);
  }];
}

//===----------------------------------------------------------------------===//
// CollectOp
//===----------------------------------------------------------------------===//

def AutoProf_CollectOp : AutoProf_Op<"collect", [
    ParentOneOf<["TreeOp", "SplitOp"]>]> {
  let summary = "Leaf of a profiling tree: the metrics to collect";
  let description = [{
    Names what to collect for the kernels that reach this leaf: metric
    groups (named after Nsight Compute sections) and/or individual metric
    names, both checked against the metric catalog of the tree's chip. A leaf
    that collects nothing is rejected; use `summary` to request a derived
    verdict (`roofline`, `occupancy` or `stalls`) computed from the
    collected values.

    A leaf may record what it costs to collect (`cost_passes`: replay
    passes; `cost_seconds`: measured profiling time) and which edit created
    it (`provenance`), so that learned trees can be audited.

    Example:

    ```mlir
    autoprof.collect id(4) groups ["SpeedOfLight"]
        metrics ["dram__bytes_read.sum"] summary "roofline"
        {cost_passes = 8 : i64, cost_seconds = 0.24 : f64,
         provenance = "split of leaf 2"}
    ```
  }];
  let arguments = (ins
    I64Attr:$id,
    DefaultValuedAttr<StrArrayAttr, "{}">:$groups,
    DefaultValuedAttr<StrArrayAttr, "{}">:$metrics,
    OptionalAttr<StrAttr>:$summary,
    OptionalAttr<I64Attr>:$cost_passes,
    OptionalAttr<F64Attr>:$cost_seconds,
    OptionalAttr<StrAttr>:$provenance
  );
  let assemblyFormat = [{
    `id` `(` $id `)` (`groups` $groups^)? (`metrics` $metrics^)?
    (`summary` $summary^)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The derived summaries a leaf may request.
    static ::llvm::ArrayRef<::llvm::StringRef> getKnownSummaries();
  }];
}

#endif // AUTOPROF_DIALECT_AUTOPROF_IR_AUTOPROFOPS_TD
