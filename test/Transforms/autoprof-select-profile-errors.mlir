// Bad tree files are diagnosed with their own locations and stop the pass.
// RUN: not autoprof-opt %s --autoprof-select-profile="tree-file=%S/Inputs/broken-tree.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not autoprof-opt %s --autoprof-select-profile="tree-file=%S/Inputs/unparsable-tree.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNPARSABLE
// RUN: not autoprof-opt %s --autoprof-select-profile="tree-file=%S/Inputs/two-trees.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// RUN: not autoprof-opt %s --autoprof-select-profile="tree-file=%S/Inputs/two-trees.mlir tree=nope" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONAME
// RUN: not autoprof-opt %s --autoprof-select-profile="tree-file=%t.does-not-exist" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// BROKEN: broken-tree.mlir:2:3: error: 'autoprof.collect' op names unknown metric group 'NoSuchSection'
// BROKEN: autoprof-select-profile-errors.mlir:{{[0-9]+}}:1: error: the profiling tree in '{{.*}}broken-tree.mlir' does not parse or verify (see the errors above)

// UNPARSABLE: unparsable-tree.mlir:2:34: error: unexpected character
// UNPARSABLE: error: the profiling tree in '{{.*}}unparsable-tree.mlir' does not parse or verify

// AMBIGUOUS: error: '{{.*}}two-trees.mlir' holds 2 profiling trees; pick one with 'tree='
// AMBIGUOUS: two-trees.mlir:2:1: note: tree @memory
// AMBIGUOUS: two-trees.mlir:5:1: note: tree @by_threads

// NONAME: error: no profiling tree named @nope in '{{.*}}two-trees.mlir'

// MISSING: error: cannot read the tree file: cannot read '{{.*}}does-not-exist': No such file or directory

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
}
