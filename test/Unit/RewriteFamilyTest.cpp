//===- RewriteFamilyTest.cpp - Rewrite families and their registry --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The family registry as a tool sees it: the built-in families, a family a
// tool registers itself, and rewrites by name through KernelRewrites.h.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/RewriteFamily.h"
#include "autoprof/InitAll.h"
#include "autoprof/Optimizer/KernelRewrites.h"
#include "autoprof/Optimizer/PtxRewrite.h"
#include "autoprof/Schedule/NestSchedule.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace {

/// The built-in families, in the order the ranking breaks ties in.
constexpr const char *kBuiltinFamilies[] = {
    "restrict",
    "block-size",
    "vectorize",
    "coarsen",
    "privatize-atomics",
    "map-nest",
    "map-lanes",
    "map-vector",
    "map-split",
    "map-reuse",
    "map-stack",
    "map-tile",
    "map-stage",
    "form-blocks",
    "coalesce",
    "transpose-tile",
    "contraction-tile",
    "mma-tile",
    "contraction-pipeline",
    "mma-pipeline",
    "pad-shared",
    "halo-tile",
    "coarsen-rows",
    "distribute-loop",
    "register-accumulate",
    "warp-reduce",
    "block-reduce",
    "unroll",
    "max-registers",
    "min-blocks",
    "launch-bounds",
    "fold-host-loop",
};

/// The attribute the test family sets; its dialect is not loaded, so the
/// verifier leaves it alone.
constexpr const char *kMarkAttr = "autoprof_test.marked";

/// What the test family's match found: the attribute to set.
struct MarkPlan {
  StringAttr name;
};

/// What the test family declares, built before the family that refers to
/// it (a base class constructed first).
struct MarkKernelDecl {
  explicit MarkKernelDecl(std::string name) : name(std::move(name)) {
    decl.name = this->name;
    decl.summary = "mark the kernel with a unit attribute";
    decl.parameter = {ParameterDomain::Kind::Values, "the parameter", "1",
                      kOne};
    decl.facts = kFacts;
  }
  static constexpr int64_t kOne[] = {1};
  static inline const StringRef kFacts[] = {"dram-bound"};
  std::string name;
  RewriteFamilyDecl decl;
};

/// A family a tool could register: marks the kernel with a unit attribute
/// and refuses kernels marked already. Its parameter must be 1.
class MarkKernelFamily : private MarkKernelDecl,
                         public RewriteFamilyWithPlan<MarkPlan> {
public:
  explicit MarkKernelFamily(std::string name = "mark-kernel")
      : MarkKernelDecl(std::move(name)),
        RewriteFamilyWithPlan(MarkKernelDecl::decl) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    ranked.push_back({100, 1});
  }

protected:
  FailureOr<MarkPlan> matchPlan(const RewriteTarget &target, int64_t parameter,
                                std::string &why) const override {
    if (target.kernel->hasAttr(kMarkAttr)) {
      why = "the kernel is marked already";
      return failure();
    }
    return MarkPlan{StringAttr::get(target.kernel->getContext(), kMarkAttr)};
  }
  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t parameter, MarkPlan &plan) const override {
    rewriter.modifyOpInPlace(target.kernel, [&] {
      target.kernel->setAttr(plan.name, rewriter.getUnitAttr());
    });
    return success();
  }

private:
  std::string name;
};

/// Registers the test family once per process: the registry is process-wide
/// and the tests of this file may run in one process or one each.
void registerMarkKernelFamily() {
  static bool registered = succeeded(
      RewriteFamilyRegistry::get().add(std::make_unique<MarkKernelFamily>()));
  ASSERT_TRUE(registered);
}

/// A 1-D kernel launched once with 4 blocks of 256 threads.
constexpr const char *kModule = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_sum(%x: memref<16384xf32>, %y: memref<1024xf32>, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %row = arith.muli %i, %c16 : index
      %sum = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %idx = arith.addi %row, %j : index
        %v = memref.load %x[%idx] : memref<16384xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<16384xf32>
    %y = gpu.alloc() : memref<1024xf32>
    gpu.launch_func @kernels::@row_sum blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %y : memref<1024xf32>, %c16 : index)
    return
  }
}
)mlir";

class RewriteFamilyTest : public ::testing::Test {
protected:
  RewriteFamilyTest() : context(makeRegistry()) {}

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  void SetUp() override {
    module = parseSourceString<ModuleOp>(kModule, &context);
    ASSERT_TRUE(module);
    module->walk([&](gpu::GPUFuncOp func) { kernel = func; });
    ASSERT_TRUE(kernel);
  }

  /// Parses `text`, failing the test when it does not parse.
  KernelRewrite parse(StringRef text) {
    std::string error;
    FailureOr<KernelRewrite> rewrite = parseKernelRewrite(text, error);
    EXPECT_TRUE(succeeded(rewrite)) << error;
    return succeeded(rewrite) ? *rewrite : KernelRewrite{};
  }

  /// Applies `rewrite`, returning whether it applied and any error it
  /// emitted in `error`.
  bool apply(const KernelRewrite &rewrite, std::string &error) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      error += diag.str();
      return success();
    });
    return succeeded(applyKernelRewrite(rewrite, *module, kernel));
  }

  /// The rewrites proposed for the kernel without features or metrics.
  SmallVector<KernelRewrite>
  propose(SmallVectorImpl<RefusedRewrite> *refused = nullptr) {
    return proposeKernelRewrites(*module, kernel, DictionaryAttr(), {},
                                 refused);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  gpu::GPUFuncOp kernel;
};

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

TEST_F(RewriteFamilyTest, RegistryHoldsTheBuiltinsInRankingOrder) {
  SmallVector<const RewriteFamily *> families =
      RewriteFamilyRegistry::get().getFamilies();
  constexpr size_t kBuiltins = std::size(kBuiltinFamilies);
  ASSERT_GE(families.size(), kBuiltins);
  for (size_t i = 0; i < kBuiltins; ++i) {
    EXPECT_EQ(families[i]->getName(), kBuiltinFamilies[i]) << "at " << i;
    EXPECT_FALSE(families[i]->getSummary().empty()) << kBuiltinFamilies[i];
  }
  // Families a tool registers come after the built-ins; the only one here is
  // this file's, when another test of the process registered it.
  for (size_t i = kBuiltins; i < families.size(); ++i)
    EXPECT_EQ(families[i]->getName(), "mark-kernel");
}

TEST_F(RewriteFamilyTest, RegistriesFollowTheDeclarations) {
  // Every declaration of an MLIR form is in the registry, in the order of
  // RewriteFamilies.td; every declaration of an imported form among the PTX
  // families, in the same order.
  SmallVector<const RewriteFamily *> families =
      RewriteFamilyRegistry::get().getFamilies();
  size_t mlir = 0, imported = 0;
  for (const RewriteFamilyDecl &decl : getBuiltinRewriteFamilyDecls()) {
    EXPECT_TRUE(decl.rewritesMlir || decl.rewritesImported) << decl.name.str();
    if (decl.rewritesMlir) {
      ASSERT_LT(mlir, families.size());
      EXPECT_EQ(&families[mlir++]->getDecl(), &decl) << decl.name.str();
    }
    if (decl.rewritesImported) {
      ASSERT_LT(imported, getPtxRewriteFamilies().size());
      EXPECT_EQ(&getPtxRewriteFamilies()[imported++]->getDecl(), &decl)
          << decl.name.str();
    }
  }
  EXPECT_EQ(imported, getPtxRewriteFamilies().size());
  EXPECT_EQ(mlir, std::size(kBuiltinFamilies));
}

TEST_F(RewriteFamilyTest, DeclaredDomainsMatchTheSchedule) {
  // The schedule's limits and the declared parameters must agree: a value
  // the declaration admits is one the schedule takes.
  auto domain = [](BuiltinRewriteFamily family) {
    return getBuiltinRewriteFamilyDecl(family).parameter;
  };
  EXPECT_EQ(domain(BuiltinRewriteFamily::MapReuse).high, kMaxNestReuse);
  EXPECT_EQ(domain(BuiltinRewriteFamily::MapTile).high, kMaxNestReuse);
  EXPECT_EQ(domain(BuiltinRewriteFamily::MapSplit).high, kMaxNestSplit);
  EXPECT_EQ(domain(BuiltinRewriteFamily::MapStack).high, kMaxNestSplit);
  EXPECT_EQ(domain(BuiltinRewriteFamily::MapNest).values, getNestBlockSizes());
  EXPECT_EQ(domain(BuiltinRewriteFamily::MapVector).values,
            getNestVectorWidths().drop_front());
}

TEST_F(RewriteFamilyTest, ParameterDomainsSayWhatTheyTake) {
  auto check = [](BuiltinRewriteFamily family, int64_t parameter) {
    return getBuiltinRewriteFamilyDecl(family).parameter.check(parameter);
  };
  // Values.
  EXPECT_EQ(check(BuiltinRewriteFamily::WarpReduce, 8), std::nullopt);
  EXPECT_EQ(check(BuiltinRewriteFamily::WarpReduce, 2),
            "the number of lanes must be 4, 8, 16 or 32");
  EXPECT_EQ(check(BuiltinRewriteFamily::Restrict, 2),
            "the parameter must be 1");
  // Ranges, with a step and with a unit.
  EXPECT_EQ(check(BuiltinRewriteFamily::BlockSize, 96), std::nullopt);
  EXPECT_EQ(check(BuiltinRewriteFamily::BlockSize, 100),
            "the block size must be a multiple of 32 in [32, 1024]");
  EXPECT_EQ(check(BuiltinRewriteFamily::BlockSize, 1056),
            "the block size must be a multiple of 32 in [32, 1024]");
  EXPECT_EQ(check(BuiltinRewriteFamily::PadShared, 0),
            "the padding must be in [1, 128] bytes");
  // Powers of two.
  EXPECT_EQ(check(BuiltinRewriteFamily::MapSplit, 64), std::nullopt);
  EXPECT_EQ(check(BuiltinRewriteFamily::MapSplit, 48),
            "chunks per point must be a power of two from 2 to 4096");
  EXPECT_EQ(check(BuiltinRewriteFamily::MapSplit, 1),
            "chunks per point must be a power of two from 2 to 4096");
  // The target's limits are checked at the match.
  EXPECT_EQ(check(BuiltinRewriteFamily::MaxRegisters, 8), std::nullopt);
}

TEST_F(RewriteFamilyTest, LookupByName) {
  const RewriteFamilyRegistry &registry = RewriteFamilyRegistry::get();
  for (const char *name : kBuiltinFamilies) {
    const RewriteFamily *family = registry.lookup(name);
    ASSERT_NE(family, nullptr) << name;
    EXPECT_EQ(family->getName(), name);
  }
  EXPECT_EQ(registry.lookup("tile"), nullptr);
  EXPECT_EQ(registry.lookup(""), nullptr);
  // Names are exact: no prefixes, no case folding.
  EXPECT_EQ(registry.lookup("max-register"), nullptr);
  EXPECT_EQ(registry.lookup("Unroll"), nullptr);
}

TEST_F(RewriteFamilyTest, AddingAnExistingNameFails) {
  RewriteFamilyRegistry &registry = RewriteFamilyRegistry::get();
  const RewriteFamily *builtin = registry.lookup("max-registers");
  ASSERT_NE(builtin, nullptr);
  size_t count = registry.getFamilies().size();
  EXPECT_TRUE(failed(
      registry.add(std::make_unique<MarkKernelFamily>("max-registers"))));
  // The built-in stays in place and nothing is added.
  EXPECT_EQ(registry.lookup("max-registers"), builtin);
  EXPECT_EQ(registry.getFamilies().size(), count);

  registerMarkKernelFamily();
  const RewriteFamily *mark = registry.lookup("mark-kernel");
  ASSERT_NE(mark, nullptr);
  EXPECT_TRUE(failed(registry.add(std::make_unique<MarkKernelFamily>())));
  EXPECT_EQ(registry.lookup("mark-kernel"), mark);
}

//===----------------------------------------------------------------------===//
// A family a tool registers
//===----------------------------------------------------------------------===//

TEST_F(RewriteFamilyTest, RegisteredFamilyParsesChecksAndApplies) {
  registerMarkKernelFamily();
  KernelRewrite rewrite = parse("mark-kernel=1");
  EXPECT_EQ(rewrite.family, "mark-kernel");
  EXPECT_EQ(rewrite.parameter, 1);
  EXPECT_EQ(rewrite.str(), "mark-kernel=1");
  EXPECT_EQ(parse("mark-kernel"), rewrite);

  EXPECT_EQ(checkKernelRewrite(rewrite, *module, kernel), std::nullopt);
  // The family's own parameter check runs before its match.
  std::optional<std::string> badParameter =
      checkKernelRewrite({"mark-kernel", 2}, *module, kernel);
  ASSERT_TRUE(badParameter);
  EXPECT_EQ(*badParameter, "the parameter must be 1");

  std::string error;
  ASSERT_TRUE(apply(rewrite, error)) << error;
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_TRUE(kernel->hasAttr(kMarkAttr));
  EXPECT_TRUE(succeeded(verify(*module)));

  // The second time the family's match refuses, and the error says why.
  std::optional<std::string> why = checkKernelRewrite(rewrite, *module, kernel);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "the kernel is marked already");
  EXPECT_FALSE(apply(rewrite, error));
  EXPECT_NE(error.find("cannot apply mark-kernel=1 to @row_sum"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("the kernel is marked already"), std::string::npos)
      << error;
}

TEST_F(RewriteFamilyTest, RegisteredFamilyIsProposed) {
  registerMarkKernelFamily();
  KernelRewrite mark{"mark-kernel", 1};
  // Its score of 100 puts it ahead of every built-in.
  SmallVector<KernelRewrite> proposed = propose();
  ASSERT_FALSE(proposed.empty());
  EXPECT_EQ(proposed.front(), mark);

  std::string error;
  ASSERT_TRUE(apply(mark, error)) << error;
  // Once applied it is refused, with its reason.
  SmallVector<RefusedRewrite> refused;
  proposed = propose(&refused);
  EXPECT_FALSE(llvm::is_contained(proposed, mark));
  auto it = llvm::find_if(
      refused, [&](const RefusedRewrite &r) { return r.rewrite == mark; });
  ASSERT_NE(it, refused.end());
  EXPECT_EQ(it->reason, "the kernel is marked already");
}

TEST_F(RewriteFamilyTest, ProposalsCarryTheirScoresAndFacts) {
  registerMarkKernelFamily();
  llvm::StringMap<double> metrics;
  metrics["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 83.5;
  SmallVector<ProposedRewrite> proposed;
  SmallVector<KernelRewrite> ranked = proposeKernelRewrites(
      *module, kernel, DictionaryAttr(), metrics, nullptr, &proposed);
  ASSERT_EQ(proposed.size(), ranked.size());
  for (auto [entry, rewrite] : llvm::zip(proposed, ranked))
    EXPECT_EQ(entry.rewrite, rewrite);
  for (size_t i = 1; i < proposed.size(); ++i)
    EXPECT_GE(proposed[i - 1].score, proposed[i].score);
  ASSERT_FALSE(proposed.empty());
  const ProposedRewrite &mark = proposed.front();
  EXPECT_EQ(mark.rewrite, (KernelRewrite{"mark-kernel", 1}));
  EXPECT_EQ(mark.score, 100);
  ASSERT_EQ(mark.facts.size(), 1u);
  EXPECT_EQ(mark.facts[0].definition->name, "dram-bound");
  EXPECT_EQ(mark.facts[0].state, FactState::True);
  EXPECT_NE(mark.facts[0].evidence.find("83.50 >= 60"), std::string::npos);
}

TEST_F(RewriteFamilyTest, AddressedFactsAreDefinedFacts) {
  for (const RewriteFamily *family : RewriteFamilyRegistry::get().getFamilies())
    for (StringRef name : family->getAddressedFacts())
      EXPECT_TRUE(llvm::any_of(getFactDefinitions(),
                               [&](const FactDefinition &definition) {
                                 return definition.name == name;
                               }))
          << family->getName().str() << " addresses '" << name.str()
          << "', which is no fact of the diagnosis";
}

TEST_F(RewriteFamilyTest, DeclaredFactsAreTheDiagnosisFacts) {
  // BottleneckFacts.td and lib/Diagnosis/BottleneckFacts.cpp list the same
  // facts in the same order.
  SmallVector<StringRef> defined;
  for (const FactDefinition &definition : getFactDefinitions())
    defined.push_back(definition.name);
  EXPECT_EQ(ArrayRef<StringRef>(defined), getDeclaredFactNames());
}

TEST_F(RewriteFamilyTest, EvidenceReadsTheFacts) {
  RewriteTarget target = RewriteTarget::get(*module, kernel);
  auto evidence = [&](llvm::StringMap<double> metrics) {
    return RewriteEvidence::compute(target, DictionaryAttr(), metrics);
  };
  constexpr const char *sectors =
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  constexpr const char *requests =
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
  constexpr const char *occupancy =
      "sm__warps_active.avg.pct_of_peak_sustained_active";

  // Without counters every fact is unknown; the static estimate decides
  // whether the loads are scattered: each thread walks its own row of 16
  // elements, so a warp's lanes read 64 bytes apart.
  RewriteEvidence none = evidence({});
  EXPECT_EQ(none.facts.size(), getFactDefinitions().size());
  EXPECT_EQ(none.getFact("uncoalesced-loads"), FactState::Unknown);
  EXPECT_TRUE(none.isScattered());
  EXPECT_FALSE(none.registerBound);
  EXPECT_EQ(none.getFact("no-such-fact"), FactState::Unknown);
  EXPECT_EQ(none.findFact("no-such-fact"), nullptr);

  // Measured counters overrule the estimate, both ways.
  constexpr const char *bytes = "smsp__sass_data_bytes_mem_global_op_ld.sum";
  RewriteEvidence contiguous =
      evidence({{sectors, 400}, {requests, 100}, {bytes, 12800}});
  EXPECT_EQ(contiguous.getFact("uncoalesced-loads"), FactState::False);
  EXPECT_FALSE(contiguous.isScattered());
  EXPECT_TRUE(contiguous.isCoalesced());
  RewriteEvidence scattered =
      evidence({{sectors, 3200}, {requests, 100}, {bytes, 12800}});
  EXPECT_EQ(scattered.getFact("uncoalesced-loads"), FactState::True);
  EXPECT_TRUE(scattered.isScattered());
  EXPECT_FALSE(scattered.isCoalesced());
  // 16 sectors per request of 128-bit lanes use every byte they fetch.
  RewriteEvidence vectors =
      evidence({{sectors, 1600}, {requests, 100}, {bytes, 51200}});
  EXPECT_EQ(vectors.getFact("uncoalesced-loads"), FactState::False);
  EXPECT_FALSE(vectors.isScattered());
  EXPECT_TRUE(vectors.isCoalesced());
  // Without the requested bytes the fact is unknown, and measured sectors
  // are never set against the analysis' static widths (which count a lane
  // that shares an address once): the excess is unknown and the sectors per
  // request decide, at most 5 coalesced, more than 8 scattered.
  RewriteEvidence sectorsAlone = evidence({{sectors, 400}, {requests, 100}});
  EXPECT_EQ(sectorsAlone.getFact("uncoalesced-loads"), FactState::Unknown);
  EXPECT_FALSE(sectorsAlone.getSectorExcess().has_value());
  EXPECT_FALSE(sectorsAlone.isScattered());
  EXPECT_TRUE(sectorsAlone.isCoalesced());
  RewriteEvidence scatteredAlone =
      evidence({{sectors, 1600}, {requests, 100}});
  EXPECT_FALSE(scatteredAlone.getSectorExcess().has_value());
  EXPECT_TRUE(scatteredAlone.isScattered());
  EXPECT_FALSE(scatteredAlone.isCoalesced());
  // Without any counter the static pair decides: each thread's own row of
  // 4-byte elements, 64 bytes apart.
  ASSERT_TRUE(none.getSectorExcess().has_value());
  EXPECT_GT(*none.getSectorExcess(), 2.0);

  // Low achieved occupancy makes the kernel register bound.
  RewriteEvidence low = evidence({{occupancy, 20}});
  EXPECT_EQ(low.getFact("low-occupancy"), FactState::True);
  EXPECT_TRUE(low.registerBound);
  RewriteEvidence high = evidence({{occupancy, 80}});
  EXPECT_EQ(high.getFact("low-occupancy"), FactState::False);
  EXPECT_FALSE(high.registerBound);
}

TEST_F(RewriteFamilyTest, KernelsNeverLaunchedAreRefused) {
  registerMarkKernelFamily();
  module->walk([](gpu::LaunchFuncOp launch) { launch.erase(); });
  std::optional<std::string> why =
      checkKernelRewrite({"mark-kernel", 1}, *module, kernel);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "the kernel is never launched");
}

//===----------------------------------------------------------------------===//
// Built-in families
//===----------------------------------------------------------------------===//

TEST_F(RewriteFamilyTest, MaxRegistersSetsTheCap) {
  KernelRewrite rewrite = parse("max-registers=32");
  EXPECT_EQ(rewrite.parameter, 32);
  EXPECT_EQ(checkKernelRewrite(rewrite, *module, kernel), std::nullopt);
  std::string error;
  ASSERT_TRUE(apply(rewrite, error)) << error;
  auto cap = kernel->getAttrOfType<IntegerAttr>(
      NVVM::NVVMDialect::getMaxnregAttrName());
  ASSERT_TRUE(cap);
  EXPECT_EQ(cap.getInt(), 32);
  EXPECT_TRUE(cap.getType().isInteger(32));
  EXPECT_TRUE(succeeded(verify(*module)));
  // A kernel has one cap.
  std::optional<std::string> why = checkKernelRewrite(rewrite, *module, kernel);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "the kernel already has a register limit");
}

TEST_F(RewriteFamilyTest, MaxRegistersRefusesTooFewRegisters) {
  KernelRewrite rewrite = parse("max-registers=8");
  std::optional<std::string> why = checkKernelRewrite(rewrite, *module, kernel);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("16-255"), std::string::npos) << *why;
  std::string error;
  EXPECT_FALSE(apply(rewrite, error));
  EXPECT_NE(error.find("16-255"), std::string::npos) << error;
  // A refused rewrite leaves the kernel alone.
  EXPECT_FALSE(kernel->hasAttr(NVVM::NVVMDialect::getMaxnregAttrName()));
}

TEST_F(RewriteFamilyTest, BlockSizeChecksItsParameter) {
  const RewriteFamily *family =
      RewriteFamilyRegistry::get().lookup("block-size");
  ASSERT_NE(family, nullptr);
  std::optional<std::string> why = family->checkParameter(100);
  ASSERT_TRUE(why);
  EXPECT_FALSE(why->empty());
  EXPECT_EQ(family->checkParameter(256), std::nullopt);
  // Through the public API the parameter check comes first.
  std::optional<std::string> refused =
      checkKernelRewrite({"block-size", 100}, *module, kernel);
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused, *why);
}

TEST_F(RewriteFamilyTest, RewriteMatchCarriesThePlanOrTheReason) {
  const RewriteFamily *family =
      RewriteFamilyRegistry::get().lookup("max-registers");
  ASSERT_NE(family, nullptr);
  RewriteTarget target = RewriteTarget::get(*module, kernel);
  ASSERT_EQ(target.launches.size(), 1u);

  RewriteMatch refused = family->match(target, 8);
  EXPECT_FALSE(refused.succeeded());
  EXPECT_FALSE(refused.getReason().empty());

  RewriteMatch matched = family->match(target, 32);
  EXPECT_TRUE(matched.succeeded());
  EXPECT_TRUE(matched.getReason().empty());

  RewriteMatch failure = RewriteMatch::failure("the kernel has no loop");
  EXPECT_FALSE(failure.succeeded());
  EXPECT_EQ(failure.getReason(), "the kernel has no loop");
  EXPECT_TRUE(RewriteMatch::success().succeeded());
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

TEST_F(RewriteFamilyTest, ParsingAnUnknownFamilyListsTheKnownOnes) {
  std::string error;
  EXPECT_TRUE(failed(parseKernelRewrite("tile", error)));
  EXPECT_NE(error.find("unknown rewrite 'tile'"), std::string::npos) << error;
  for (const char *name : kBuiltinFamilies)
    EXPECT_NE(error.find(name), std::string::npos)
        << error << " does not name " << name;
}

TEST_F(RewriteFamilyTest, ParsingANonIntegerParameterFails) {
  std::string error;
  EXPECT_TRUE(failed(parseKernelRewrite("unroll=x", error)));
  EXPECT_NE(error.find("must be an integer"), std::string::npos) << error;
  EXPECT_NE(error.find("'x'"), std::string::npos) << error;

  KernelRewrite unroll = parse("unroll=4");
  EXPECT_EQ(unroll.family, "unroll");
  EXPECT_EQ(unroll.parameter, 4);
  // A bare name means parameter 1.
  EXPECT_EQ(parse("restrict").parameter, 1);
}

} // namespace
