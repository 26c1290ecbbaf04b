// Without a tree file, the built-in proposer's search collects what the tree
// learned for it asks for (lib/Transforms/LearnedTree.mlir): launch metrics
// alone for a kernel of few floating-point operations, CudaForge's list for a
// 2048^3 matrix multiplication. The report names the tree and leaf. A tree
// file given replaces it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %autoprof_opt %S/../Corpus/saxpy.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py report=%t/small.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=SMALL --input-file=%t/small.json
// RUN: %autoprof_opt %S/../Corpus/Upstream/matmul_bf16.tile16x16.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py report=%t/large.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=LARGE --input-file=%t/large.json
// RUN: %autoprof_opt %S/../Corpus/saxpy.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py report=%t/given.json tree-file=%repo/lib/Transforms/StartingTree.mlir" -o /dev/null
// RUN: FileCheck %s --check-prefix=GIVEN --input-file=%t/given.json

// SMALL: "profile_leaf": 3,
// SMALL: "profile_tree": "sm90_learned",
// LARGE: "metrics": [
// LARGE: "name": "l1tex__throughput.avg.pct_of_peak_sustained_active",
// LARGE: "profile_leaf": 4,
// LARGE: "profile_tree": "sm90_learned",
// GIVEN: "profile_tree": "h200_start",
