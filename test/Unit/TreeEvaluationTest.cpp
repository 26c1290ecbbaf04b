//===- TreeEvaluationTest.cpp - Profiling-tree evaluation tests -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Dialect/AutoProf/IR/TreeEvaluation.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace {

constexpr const char *kTree = R"mlir(
autoprof.tree @t attributes {chip = "sm_90"} {
  autoprof.split id(1) "arith_intensity" < 4.0 missing(then) {
    autoprof.split id(2) "atomics" >= 1.0 missing(else) {
      autoprof.collect id(3) groups ["SpeedOfLight", "WarpStateStats"]
    } else {
      autoprof.collect id(4) groups ["MemoryWorkloadAnalysis"]
    }
  } else {
    autoprof.split id(5) "duration_us" <= 20.0 missing(else) {
      autoprof.collect id(6) groups ["LaunchStats"]
    } else {
      autoprof.collect id(7) metrics ["dram__bytes_read.sum"]
    }
  }
}
)mlir";

class TreeEvaluationTest : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<AutoProfDialect>();
    module = parseSourceString<ModuleOp>(kTree, &context);
    ASSERT_TRUE(module);
    tree = *module->getOps<TreeOp>().begin();
  }

  /// Evaluates the tree on `features` and returns the leaf id and the path.
  std::pair<int64_t, std::vector<int64_t>>
  evaluate(const llvm::StringMap<double> &features) {
    TreeEvaluation result =
        evaluateTree(tree, [&](StringRef name) -> std::optional<double> {
          auto it = features.find(name);
          if (it == features.end())
            return std::nullopt;
          return it->second;
        });
    std::vector<int64_t> path;
    for (const TreeDecision &decision : result.decisions)
      path.push_back(SplitOp(decision.split).getId());
    return {result.leaf.getId(), path};
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  TreeOp tree;
};

TEST_F(TreeEvaluationTest, FollowsComparisons) {
  EXPECT_EQ(evaluate({{"arith_intensity", 0.5}, {"atomics", 3}}).first, 3);
  EXPECT_EQ(evaluate({{"arith_intensity", 0.5}, {"atomics", 0}}).first, 4);
  EXPECT_EQ(evaluate({{"arith_intensity", 9}, {"duration_us", 10}}).first, 6);
  EXPECT_EQ(evaluate({{"arith_intensity", 9}, {"duration_us", 30}}).first, 7);
}

TEST_F(TreeEvaluationTest, ThresholdBoundaries) {
  // `<` excludes the threshold, `>=` and `<=` include it.
  EXPECT_EQ(evaluate({{"arith_intensity", 4.0}, {"duration_us", 1}}).first, 6);
  EXPECT_EQ(evaluate({{"arith_intensity", 0}, {"atomics", 1.0}}).first, 3);
  EXPECT_EQ(evaluate({{"arith_intensity", 5}, {"duration_us", 20.0}}).first, 6);
}

TEST_F(TreeEvaluationTest, MissingFeatureTakesDeclaredBranch) {
  // arith_intensity missing -> then; atomics missing -> else.
  auto [leaf, path] = evaluate({});
  EXPECT_EQ(leaf, 4);
  EXPECT_EQ(path, (std::vector<int64_t>{1, 2}));
  // duration_us missing -> else.
  EXPECT_EQ(evaluate({{"arith_intensity", 8}}).first, 7);
}

TEST_F(TreeEvaluationTest, RecordsDecisions) {
  TreeEvaluation result = evaluateTree(tree, [](StringRef name) {
    return name == "arith_intensity" ? std::optional<double>(10.0)
                                     : std::nullopt;
  });
  ASSERT_EQ(result.decisions.size(), 2u);
  EXPECT_EQ(result.decisions[0].value, std::optional<double>(10.0));
  EXPECT_EQ(result.decisions[0].branch, Branch::else_branch);
  EXPECT_FALSE(result.decisions[1].value.has_value());
  EXPECT_EQ(result.decisions[1].branch, Branch::else_branch);
}

TEST_F(TreeEvaluationTest, IsDeterministic) {
  llvm::StringMap<double> features = {{"arith_intensity", 1.5}, {"atomics", 2}};
  auto first = evaluate(features);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(evaluate(features), first);
}

TEST_F(TreeEvaluationTest, DictionaryFeatures) {
  Builder builder(&context);
  DictionaryAttr features = builder.getDictionaryAttr({
      builder.getNamedAttr("arith_intensity", builder.getF64FloatAttr(0.25)),
      builder.getNamedAttr("atomics", builder.getI64IntegerAttr(2)),
  });
  EXPECT_EQ(evaluateTree(tree, features).leaf.getId(), 3);
  // A feature of the wrong kind counts as missing.
  DictionaryAttr wrongKind = builder.getDictionaryAttr(
      {builder.getNamedAttr("arith_intensity", builder.getStringAttr("low"))});
  EXPECT_EQ(evaluateTree(tree, wrongKind).leaf.getId(), 4);
}

TEST(ShippedTreeParsing, RejectsUnverifiedTrees) {
  MLIRContext context;
  context.loadDialect<AutoProfDialect>();
  // Diagnostics are expected here; keep them off the test output.
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  const char *emptyLeaf = R"mlir(
    autoprof.tree @t attributes {chip = "sm_90"} {
      autoprof.collect id(1)
    })mlir";
  EXPECT_FALSE(parseSourceString<ModuleOp>(emptyLeaf, &context));
}

} // namespace
