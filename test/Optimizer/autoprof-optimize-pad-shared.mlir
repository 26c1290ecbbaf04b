// Whether pad-shared is tried follows the bank-conflict counters: the tiled
// transpose of the corpus, measured by a stand-in worker under a tree that
// collects the memory workload and the instruction counts, gets pad-shared=4
// first when its shared loads meet 31 conflicts each (every lane of a warp
// reads a column of the 32 x 32 tile in one bank), and keeps it (the
// stand-in times every candidate at half the baseline); with no conflicts
// it is not tried. Under the default tree, which does not collect both, the
// fact is unknown and pad-shared is not tried either.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env AUTOPROF_FAKE_METRICS='{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": 32505856, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 0, "smsp__sass_inst_executed_op_shared_ld.sum": 1048576, "smsp__sass_inst_executed_op_shared_st.sum": 1048576}' %autoprof_opt %S/../Corpus/transpose_smem_tiled.mlir --autoprof-optimize="budget=2 tree-file=%S/Inputs/shared-tree.mlir worker=%S/Inputs/fake-worker.py report=%t/conflicts.json" 2> %t/conflicts.log | FileCheck %s --check-prefix=PADDED
// RUN: FileCheck %s --input-file=%t/conflicts.log --check-prefix=CONFLICTS
// RUN: env AUTOPROF_FAKE_METRICS='{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": 0, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 0, "smsp__sass_inst_executed_op_shared_ld.sum": 1048576, "smsp__sass_inst_executed_op_shared_st.sum": 1048576}' %autoprof_opt %S/../Corpus/transpose_smem_tiled.mlir --autoprof-optimize="budget=2 tree-file=%S/Inputs/shared-tree.mlir worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env AUTOPROF_FAKE_METRICS='{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": 32505856, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 0, "smsp__sass_inst_executed_op_shared_ld.sum": 1048576, "smsp__sass_inst_executed_op_shared_st.sum": 1048576}' %autoprof_opt %S/../Corpus/transpose_smem_tiled.mlir --autoprof-optimize="budget=2 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

// CONFLICTS: autoprof-optimize: @transpose_smem_tiled pad-shared=4: verified, {{.*}} accepted
// CONFLICTS: autoprof-optimize: @transpose_smem_tiled: 100.00 us -> 50.00 us (2.00x) with pad-shared=4;
// PADDED-LABEL: gpu.func @transpose_smem_tiled
// PADDED-SAME: workgroup(%{{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>)

// NONE-NOT: pad-shared
// NONE: autoprof-optimize: @transpose_smem_tiled: 100.00 us -> 50.00 us (2.00x) with
// NONE-NOT: pad-shared
