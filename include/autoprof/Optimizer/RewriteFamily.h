//===- RewriteFamily.h - One family of kernel rewrites ----------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The interface every built-in rewrite family implements, and the registry
// that holds them. A family has a name and an integer parameter; matching a
// kernel and its launches yields either a plan (what the analysis found:
// the loops, accesses and geometry the rewrite changes) or the reason it
// does not apply; applying a plan changes the IR through a RewriterBase. A
// family also says which of its parameters are worth trying on a kernel and
// how promising each is, from the evidence the profile and the analyses
// give (RewriteEvidence).
//
// A plan refers to operations of the kernel it was matched on: it is valid
// until that kernel or its launches change, and is applied at most once.
//
// The built-in families are declared in RewriteFamilies.td (name, summary,
// parameter domain, addressed facts, kernel forms), live one per file in
// lib/Optimizer/Families/ and are registered, in the order of their
// declarations, in RewriteFamilyRegistry's constructor; tools may register
// their own, with a declaration of their own.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_REWRITEFAMILY_H
#define AUTOPROF_OPTIMIZER_REWRITEFAMILY_H

#include "autoprof/Diagnosis/BottleneckFacts.h"
#include "autoprof/Schedule/NestSchedule.h"
#include "autoprof/Target/GpuTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::autoprof {

/// A kernel and every launch of it in its module: what a family matches.
struct RewriteTarget {
  ModuleOp module;
  gpu::GPUFuncOp kernel;
  SmallVector<gpu::LaunchFuncOp> launches;
  /// The GPU the kernel is for: the one the caller names (the search's
  /// `chip`), else the chip of its gpu.module's #nvvm.target where that
  /// names a described one, else the default (sm_90).
  const GpuTarget *gpu = &getDefaultGpuTarget();

  /// The target for `kernel` in `module`, with its launches collected, for
  /// `gpu` (null: as the module says).
  static RewriteTarget get(ModuleOp module, gpu::GPUFuncOp kernel,
                           const GpuTarget *gpu = nullptr);
};

/// What a family's match found; each family derives its own.
class RewritePlan {
public:
  virtual ~RewritePlan();
};

/// The outcome of matching a family on a target: a plan, or why not.
class RewriteMatch {
public:
  /// The rewrite applies; `plan` is what applying it needs.
  static RewriteMatch
  success(std::unique_ptr<RewritePlan> plan = std::make_unique<RewritePlan>());
  /// The rewrite does not apply, for `reason` (a sentence fragment that
  /// names what failed: "the kernel has workgroup memory").
  static RewriteMatch failure(std::string reason);

  /// Whether the rewrite applies.
  bool succeeded() const { return plan != nullptr; }
  /// Why it does not apply (empty when it does).
  StringRef getReason() const { return reason; }
  /// The plan of a successful match.
  RewritePlan &getPlan() const { return *plan; }

private:
  std::unique_ptr<RewritePlan> plan;
  std::string reason;
};

/// What the ranking of rewrites for one kernel rests on: its static
/// features, the metrics collected for it, and what the memory-access
/// analysis derives. Computed once per kernel and shared by every family.
struct RewriteEvidence {
  /// The kernel's static features (autoprof-extract-features); may be null.
  DictionaryAttr features;
  /// Collected metrics by name; a missing metric is absent, never 0.
  llvm::StringMap<double> metrics;
  /// The bottleneck facts the metrics establish (diagnose(metrics)): one
  /// per definition, unknown where its metrics were not collected.
  std::vector<BottleneckFact> facts;

  /// Arithmetic intensity below 4 flops per byte.
  bool memoryBound = false;
  /// Threads per block and blocks per grid of the first launch.
  double blockThreads = 0;
  double gridBlocks = 0;
  /// Global-load sectors per warp request: measured when the counters were
  /// collected, else estimated from each load's address by the analysis.
  std::optional<double> sectorsPerRequest;
  /// The sectors per request the bytes the lanes ask for fill (4 for 4-byte
  /// lanes, 16 for 128-bit vectors; at least 1): measured where the
  /// requested bytes were collected with the sectors, from the analysis'
  /// access widths where the sectors were not measured either, else
  /// unknown (never a measured figure over a static one).
  std::optional<double> sectorsNeededPerRequest;
  /// Bytes of the narrowest element the kernel loads or stores (at most 4).
  int64_t narrowestElementBytes = 4;
  /// Bytes of the widest element the kernel stores (at most 4; 0 when it
  /// stores nothing).
  int64_t widestStoredElementBytes = 0;
  /// The share of the global loads' bytes (distinct addresses per thread) that
  /// each thread reads walking contiguous memory with a loop while
  /// neighbouring threads read other rows: a row reduction's loads, which a
  /// remap of the threads cannot make contiguous (0 when nothing is known).
  /// An address all threads share counts a 32nd: a warp reads it once.
  double rowWalkShare = 0;
  /// The share of the global loads whose window slides along y or z, the
  /// larger of the two (MemoryAccessAnalysis::getWindowShare): neighbouring
  /// threads there read overlapping windows.
  double windowShare = 0;
  /// The same along x (the contiguous dimension, where a window loop walks
  /// neighbouring elements).
  double windowShareX = 0;
  /// The kernel raised to its iteration space (autoprof/Raise): whether it
  /// raises; whether the parallel dimension most accesses walk contiguously
  /// already runs along x in blocks of at least a warp (a new mapping gains
  /// little there), or is a loop each thread runs (no thread remap reaches
  /// it); and whether a reduction reads an input that several parallel
  /// points share (a contraction: the tile families stage it).
  bool raises = false;
  bool raisedContiguousOnX = false;
  bool raisedContiguousInLoop = false;
  bool raisedContraction = false;
  /// The raised form's parallel and reduction points, and whether the
  /// largest loads walk a reduction dimension contiguously (lanes that
  /// split the reduction read consecutive elements).
  double raisedParallelPoints = 0;
  double raisedReductionPoints = 0;
  bool raisedContiguousReduction = false;
  /// The most chunks a split of the raised form's reductions may take
  /// (getNestSplitLimit): fewer where combining them into an output is a
  /// compare-and-swap loop.
  int64_t raisedSplitLimit = kMaxNestSplit;
  /// The GPU the kernel is for (RewriteTarget::gpu); measured figures
  /// (launch__sm_count) take precedence over its where collected.
  const GpuTarget *gpu = &getDefaultGpuTarget();
  /// Registers per thread the driver reported (0 when unknown).
  double registersPerThread = 0;
  /// Occupancy is limited by registers: many registers per thread, few
  /// blocks per SM allowed by the register file, or the fact
  /// `low-occupancy`.
  bool registerBound = false;

  /// The evidence that the features and metrics alone give (facts, launch
  /// sizes, registers per thread and whether they limit the occupancy):
  /// all a kernel known only as PTX has; compute() adds the analysis of a
  /// gpu.func.
  static RewriteEvidence
  fromMeasurements(DictionaryAttr features,
                   const llvm::StringMap<double> &metrics);

  /// The value of a static feature, 0 when absent.
  double getFeature(StringRef name) const;
  /// The value of a collected metric, if collected.
  std::optional<double> getMetric(StringRef name) const;
  /// The GPU's resident thread slots: its SMs times the threads each holds,
  /// from the launch counters, else the target's.
  double getResidentThreadSlots() const;
  /// The GPU's SMs: counted by the profile (launch__sm_count), else the
  /// target's.
  double getMultiprocessors() const;
  /// For remarks that quote getMultiprocessors(): empty where the profile
  /// counted them, else " (launch__sm_count not collected: sm_90's, H100
  /// or H200)".
  std::string describeMultiprocessors() const;
  /// The fact named `name` (docs/diagnosis.md), or null when no fact has
  /// that name.
  const BottleneckFact *findFact(StringRef name) const;
  /// Whether the fact named `name` holds, does not, or is unknown (also
  /// when no fact has that name).
  FactState getFact(StringRef name) const;
  /// The sectors a global load request fetches over those its bytes fill
  /// (1 when every byte fetched is used), where both are known.
  std::optional<double> getSectorExcess() const;
  /// Accesses are scattered: the fact `uncoalesced-loads` (more than twice
  /// the sectors the requested bytes fill), or where the counters were not
  /// collected the same test on the static estimate; where the sectors
  /// were measured without the bytes, more than 8 sectors per request.
  /// Rewrites that remap threads gain, widening accesses loses.
  bool isScattered() const;
  /// Accesses are coalesced already: at most 1.25 times the sectors the
  /// requested bytes fill, or, with the sectors alone, at most 5 per
  /// request.
  bool isCoalesced() const;

  /// Gathers the evidence for `target`.
  static RewriteEvidence compute(const RewriteTarget &target,
                                 DictionaryAttr features,
                                 const llvm::StringMap<double> &metrics);
};

/// A parameter of a family worth trying, with how promising it is: higher
/// scores are tried first.
struct RankedParameter {
  double score;
  int64_t parameter;
  /// What placed it there beyond its family's facts (a model's estimate),
  /// for the remarks; empty when nothing more.
  std::string why = {};
  /// The family of a revision that another family makes (a tile in one
  /// shared buffer revised to the same tile in two); empty for the ranking
  /// family itself.
  StringRef family = {};
};

/// The values a family's parameter takes.
struct ParameterDomain {
  enum class Kind {
    /// One of `values`.
    Values,
    /// A multiple of `step` in [low, high].
    Range,
    /// A power of two in [low, high].
    PowersOfTwo,
    /// Any value here; the family checks it against the GPU target when
    /// it is matched on a kernel.
    TargetLimited,
  };
  Kind kind = Kind::Values;
  /// What the parameter is, in messages ("the number of lanes").
  StringRef noun;
  /// What it must be ("4, 8, 16 or 32"; for TargetLimited, the limits).
  StringRef phrase;
  ArrayRef<int64_t> values = {};
  int64_t low = 0, high = 0, step = 1;

  /// Why `parameter` is not in the domain ("the number of lanes must be 4,
  /// 8, 16 or 32"), or nothing.
  std::optional<std::string> check(int64_t parameter) const;
};

/// What a family declares about itself: for the built-in families, what
/// include/autoprof/Optimizer/RewriteFamilies.td says.
struct RewriteFamilyDecl {
  /// The name that selects the family ("coalesce").
  StringRef name;
  /// One line on what the family does and what its parameter means.
  StringRef summary;
  /// The same for an imported kernel, where it says more (else empty).
  StringRef importedSummary;
  ParameterDomain parameter;
  /// The bottleneck facts (names of getFactDefinitions()) the family's
  /// rewrite addresses: what a profile that establishes them says in its
  /// favour. Empty for a family no counter speaks for (launch overhead).
  ArrayRef<StringRef> facts;
  /// The kernel forms it rewrites: MLIR gpu.funcs, imported kernels.
  bool rewritesMlir = true;
  bool rewritesImported = false;
};

#define GET_REWRITE_FAMILY_ENUM
#include "autoprof/Optimizer/RewriteFamilies.h.inc"

/// The built-in families' declarations, in registry order.
ArrayRef<RewriteFamilyDecl> getBuiltinRewriteFamilyDecls();
/// The facts those declarations may name (BottleneckFacts.td), in order.
ArrayRef<StringRef> getDeclaredFactNames();
/// The declaration of the built-in family `family`.
const RewriteFamilyDecl &
getBuiltinRewriteFamilyDecl(BuiltinRewriteFamily family);

/// One family of rewrites of MLIR kernels.
class RewriteFamily {
public:
  /// A family that `decl` declares; `decl` outlives it.
  explicit RewriteFamily(const RewriteFamilyDecl &decl) : decl(decl) {}
  /// A built-in family.
  explicit RewriteFamily(BuiltinRewriteFamily family)
      : RewriteFamily(getBuiltinRewriteFamilyDecl(family)) {}
  virtual ~RewriteFamily();

  /// What the family declares about itself.
  const RewriteFamilyDecl &getDecl() const { return decl; }
  /// The name that selects the family ("coalesce").
  StringRef getName() const { return decl.name; }
  /// One line on what the family does and what its parameter means.
  StringRef getSummary() const { return decl.summary; }
  /// Why `parameter` is not a valid parameter of the family, or nothing.
  std::optional<std::string> checkParameter(int64_t parameter) const {
    return decl.parameter.check(parameter);
  }
  /// The bottleneck facts the family's rewrite addresses (decl.facts).
  ArrayRef<StringRef> getAddressedFacts() const { return decl.facts; }

  /// Matches the family with `parameter` on `target`, whose kernel is
  /// launched at least once; `parameter` is valid (checkParameter).
  virtual RewriteMatch match(const RewriteTarget &target,
                             int64_t parameter) const = 0;
  /// Applies a successful match of `parameter` on `target` through
  /// `rewriter`. Failure means an internal inconsistency and comes with an
  /// error on the kernel.
  virtual LogicalResult apply(RewriterBase &rewriter,
                              const RewriteTarget &target, int64_t parameter,
                              RewritePlan &plan) const = 0;
  /// The parameters worth trying given `evidence`, each with its score
  /// (docs/optimizer.md states the rules). Whether they apply is checked
  /// afterwards.
  virtual void rank(const RewriteEvidence &evidence,
                    SmallVectorImpl<RankedParameter> &ranked) const = 0;
  /// Other parameters worth trying in place of `parameter`, which won,
  /// given the winner's own `evidence` (its profile after the win): a tile
  /// of results that leaves the SMs idle or spills is revised to a smaller
  /// one, one whose pipes are the limit to a larger one, one whose warps
  /// wait at its barriers to the same tile in two buffers (a parameter of
  /// another family: RankedParameter::family). The search applies them to
  /// the kernel as it was before that win. None by default.
  virtual void rankRevisions(const RewriteEvidence &evidence,
                             int64_t parameter,
                             SmallVectorImpl<RankedParameter> &ranked) const {}

private:
  const RewriteFamilyDecl &decl;
};

/// A family whose match produces a typed plan `PlanT`.
template <typename PlanT> class RewriteFamilyWithPlan : public RewriteFamily {
public:
  using RewriteFamily::RewriteFamily;

  RewriteMatch match(const RewriteTarget &target,
                     int64_t parameter) const final {
    std::string why;
    FailureOr<PlanT> plan = matchPlan(target, parameter, why);
    if (::mlir::failed(plan))
      return RewriteMatch::failure(std::move(why));
    return RewriteMatch::success(std::make_unique<Model>(std::move(*plan)));
  }
  LogicalResult apply(RewriterBase &rewriter, const RewriteTarget &target,
                      int64_t parameter, RewritePlan &plan) const final {
    return applyPlan(rewriter, target, parameter,
                     static_cast<Model &>(plan).value);
  }

protected:
  /// The plan of `parameter` on `target`, or failure with `why`.
  virtual FailureOr<PlanT> matchPlan(const RewriteTarget &target,
                                     int64_t parameter,
                                     std::string &why) const = 0;
  /// Applies `plan` (see RewriteFamily::apply).
  virtual LogicalResult applyPlan(RewriterBase &rewriter,
                                  const RewriteTarget &target,
                                  int64_t parameter, PlanT &plan) const = 0;

private:
  struct Model : RewritePlan {
    explicit Model(PlanT value) : value(std::move(value)) {}
    PlanT value;
  };
};

/// The families known to the optimizer, in the order the ranking breaks
/// ties in.
class RewriteFamilyRegistry {
public:
  /// The process-wide registry, holding the built-in families.
  static RewriteFamilyRegistry &get();

  /// Adds `family`; fails when a family of that name exists.
  LogicalResult add(std::unique_ptr<RewriteFamily> family);
  /// The family named `name`, or null.
  const RewriteFamily *lookup(StringRef name) const;
  /// Every family, in registration order.
  SmallVector<const RewriteFamily *> getFamilies() const;

private:
  RewriteFamilyRegistry();
  SmallVector<std::unique_ptr<RewriteFamily>> families;
  llvm::StringMap<const RewriteFamily *> byName;
};

/// Adds the built-in families to `registry`, in ranking order.
void registerBuiltinRewriteFamilies(RewriteFamilyRegistry &registry);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_REWRITEFAMILY_H
