//===- RewriteFamilies.td - The built-in rewrite families --*- tablegen -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Every built-in rewrite family declared once: its name, what it does, the
// values its parameter takes, the bottleneck facts (docs/diagnosis.md) it
// addresses and the kernel forms it rewrites. autoprof-tblgen generates from
// this file the table the registries are built from
// (-gen-rewrite-family-defs: RewriteFamilies.h.inc) and the reference page
// docs/rewrite-families.md (-gen-rewrite-family-doc).
//
// The order of the definitions is the order of the registries, which breaks
// ties between candidates of equal scores.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_REWRITEFAMILIES
#define AUTOPROF_OPTIMIZER_REWRITEFAMILIES

include "autoprof/Optimizer/RewriteFamilyBase.td"

def Restrict : RewriteFamily<"restrict"> {
  let summary = "mark buffers no-alias and never-written ones read-only; "
                "parameter 1";
  let parameter = One;
  // Loads through the read-only path, reordered freely.
  let facts = [DramBound, LatencyBound];
}

def BlockSize : RewriteFamily<"block-size", [MlirKernel, PtxKernel]> {
  let summary = "re-launch a 1-D kernel with N threads per block and the same "
                "total number of threads";
  let importedSummary = "launch blocks of N threads, as many as cover the "
                        "original threads (block-size-generic kernels only)";
  let parameter = Range<"the block size", 32, 1024, 32>;
  // The block size sets the warps an SM holds and how the last wave fills.
  let facts = [LowOccupancy, TooFewWaves, TailEffect];
}

def Vectorize : RewriteFamily<"vectorize"> {
  let summary = "each thread handles V consecutive elements with vector "
                "loads, stores and arithmetic (grid x / V)";
  let parameter = Values<"the vector width", [2, 4, 8, 16]>;
  // Fewer, wider load and store instructions.
  let facts = [IssueBound, DramBound];
}

def Coarsen : RewriteFamily<"coarsen"> {
  let summary = "each thread does the work of C threads of C consecutive "
                "blocks (grid x / C, the body in a loop)";
  let parameter = Range<"the coarsening factor", 2, 64>;
  // Fewer, longer-lived blocks.
  let facts = [TailEffect, IssueBound];
}

def PrivatizeAtomics : RewriteFamily<"privatize-atomics"> {
  let summary = "coarsen by C, then give each block a shared copy of a "
                "buffer only updated by atomic adds";
  let parameter = Range<"the coarsening factor", 1, 64>;
  // Atomic adds into shared memory instead of L2, one per element and block
  // there.
  let facts = [AtomicContention, L2Bound, LatencyBound];
}

def MapNest : RewriteFamily<"map-nest"> {
  let summary = "the raised iteration space mapped anew: one thread per "
                "parallel point, the contiguous dimension along the lanes, T "
                "threads per block, reductions in registers";
  let parameter = Values<"threads per block", [64, 128, 256, 512]>;
  let facts = [UncoalescedLoads, UncoalescedStores, LowOccupancy];
}

def MapLanes : RewriteFamily<"map-lanes"> {
  let summary = "the raised iteration space mapped anew with L lanes per "
                "parallel point splitting its reductions, combined by "
                "shuffles";
  let parameter = PowersOfTwo<"lanes per point", 2, 256>;
  let facts = [UncoalescedLoads, LowOccupancy, TooFewWaves];
}

def MapVector : RewriteFamily<"map-vector"> {
  let summary = "the raised iteration space mapped anew with V consecutive "
                "points per thread along the contiguous dimension, their "
                "accesses one vector access where aligned";
  let parameter = Values<"points per thread", [2, 4, 8, 16]>;
  let facts = [UncoalescedLoads, UncoalescedStores, DramBound];
}

def MapSplit : RewriteFamily<"map-split"> {
  let summary = "the raised iteration space mapped anew with each point's "
                "reductions split into S chunks of threads across the grid, "
                "combined in the output by atomic operations";
  let parameter = PowersOfTwo<"chunks per point", 2, 4096>;
  let facts = [TooFewWaves, LowOccupancy];
}

def MapReuse : RewriteFamily<"map-reuse"> {
  let summary = "the raised iteration space mapped anew with R points per "
                "thread along the parallel dimension whose points share the "
                "largest loads, loaded once for the R";
  let parameter = PowersOfTwo<"points per thread", 2, 16>;
  let facts = [L1Bound, UncoalescedLoads, IssueBound];
}

def MapStack : RewriteFamily<"map-stack"> {
  let summary = "the raised iteration space mapped anew in blocks of 8 rows "
                "of 32 points, the rows splitting each point's reductions "
                "and combined through shared memory, in S chunks across the "
                "grid";
  let parameter = PowersOfTwo<"chunks per point", 1, 4096>;
  let facts = [TooFewWaves, LowOccupancy];
}

def MapTile : RewriteFamily<"map-tile"> {
  let summary = "the raised iteration space mapped anew with a register tile "
                "per thread: R points along the dimension whose points share "
                "the largest loads times 4 (or 2) along the contiguous one";
  let parameter = PowersOfTwo<"rows per tile", 2, 16>;
  let facts = [L1Bound, UncoalescedLoads, IssueBound];
}

def MapStage : RewriteFamily<"map-stage"> {
  let summary = "the raised iteration space mapped anew in block tiles whose "
                "shared operand slices are staged in shared memory per chunk "
                "of 16 reduction points, R x 4 (or 2) points per thread";
  let parameter = Values<"rows per thread", [1, 2, 4, 8]>;
  let facts = [L1Bound, UncoalescedLoads, IssueBound, DramBound];
}

def FormBlocks : RewriteFamily<"form-blocks"> {
  let summary = "one-thread blocks become blocks of N threads along the "
                "contiguous dimension (grid rounded up, guarded)";
  let parameter = Values<"the block size", [64, 128, 256, 512]>;
  // One-thread blocks run one lane of 32.
  let facts = [WarpDivergence, LowOccupancy];
}

def Coalesce : RewriteFamily<"coalesce"> {
  let summary = "the contiguous dimension moves to x, with P threads of a "
                "block along it";
  let parameter = Values<"the block's extent along x", [32, 64, 128]>;
  // Consecutive lanes on contiguous memory.
  let facts = [UncoalescedLoads, UncoalescedStores];
}

def TransposeTile : RewriteFamily<"transpose-tile"> {
  let summary = "stage T x T tiles in shared memory so that both the load "
                "and the store of a transposition are coalesced";
  let parameter = Values<"the tile size", [16, 32]>;
  // Both sides of a transpose coalesced through shared memory.
  let facts = [UncoalescedLoads, UncoalescedStores];
}

def ContractionTile : RewriteFamily<"contraction-tile"> {
  let summary = "blocks of 16 x 16 threads (8 x 8 at S = 32) compute S x S "
                "results of a contraction from row and column tiles staged "
                "in shared memory";
  let parameter = Values<"the tile of results", [16, 32, 64, 128]>;
  // Each staged element serves S results from shared memory.
  let facts = [L1Bound, L2Bound, DramBound, LatencyBound];
}

def MmaTile : RewriteFamily<"mma-tile"> {
  let summary = "contraction-tile=S (64 or 128) on tensor cores: eight warps "
                "compute an S x S tile of f16 or bf16 products with f32 sums "
                "from shared tiles";
  let parameter = Values<"the tile of results", [64, 128]>;
  // The FMA pipe's work moves to the tensor cores; each staged element
  // serves 64 results.
  let facts = [IssueBound, L1Bound, L2Bound, LatencyBound];
}

/// What a tile in two shared buffers addresses: warps waiting at the
/// barriers of a stage, or for its loads.
defvar PipelineFacts = [BarrierStalls, LatencyBound, L1Bound];

def ContractionPipeline : RewriteFamily<"contraction-pipeline"> {
  let summary = "contraction-tile=S (16, 32, 64 or 128) with two shared "
                "buffers per staged tile: the next stage's copies overlap "
                "this stage's products, one barrier per stage";
  let parameter = Values<"the tile of results", [16, 32, 64, 128]>;
  let facts = PipelineFacts;
}

def MmaPipeline : RewriteFamily<"mma-pipeline"> {
  let summary = "mma-tile=S (64 or 128) with two shared buffers per staged "
                "tile: the next stage's copies overlap this stage's "
                "tensor-core products, one barrier per stage";
  let parameter = Values<"the tile of results", [64, 128]>;
  let facts = PipelineFacts;
}

def PadShared : RewriteFamily<"pad-shared"> {
  let summary = "widen each row of the kernel's shared tiles by P bytes, so "
                "that a column's elements fall in different banks";
  let parameter = Range<"the padding", 1, 128, 1, "bytes">;
  let facts = [SharedBankConflicts];
}

def HaloTile : RewriteFamily<"halo-tile"> {
  let summary = "stage the input box a block's window loops read, with its "
                "halo, in shared memory once";
  let parameter = One;
  // A block reads its input box from shared memory.
  let facts = [L1Bound, L2Bound];
}

def CoarsenRows : RewriteFamily<"coarsen-rows"> {
  let summary = "each thread does the work of R threads that are neighbours "
                "along y (or z, or x), their loops jammed so that "
                "overlapping windows are loaded once (grid / R along that "
                "dimension)";
  let parameter = Range<"the number of rows per thread", 2, 16>;
  // Rows the neighbouring windows share are loaded once, into registers.
  let facts = [L1Bound, L2Bound];
}

def DistributeLoop : RewriteFamily<"distribute-loop"> {
  let summary = "L lanes per original thread split its loop";
  let parameter = Values<"the number of lanes", [2, 4, 8, 16, 32]>;
  // Lanes walk a row together.
  let facts = [UncoalescedLoads, TooFewWaves];
}

def RegisterAccumulate : RewriteFamily<"register-accumulate"> {
  let summary = "keep an element a loop loads and stores every iteration in "
                "a register; parameter 1";
  let parameter = One;
  // No load and store of the accumulator per iteration.
  let facts = [L1Bound, LatencyBound];
}

def WarpReduce : RewriteFamily<"warp-reduce"> {
  let summary = "L lanes of a warp split a reduction loop and combine their "
                "partial results with shuffles";
  let parameter = Values<"the number of lanes", [4, 8, 16, 32]>;
  // Lanes of a warp read a row together.
  let facts = [UncoalescedLoads, TooFewWaves, LatencyBound];
}

def BlockReduce : RewriteFamily<"block-reduce"> {
  let summary = "S threads along y split a reduction loop and combine their "
                "partial results through shared memory";
  let parameter = Values<"the number of threads", [4, 8, 16, 32]>;
  // More threads per column keep more loads in flight and fill the GPU.
  let facts = [TooFewWaves, LatencyBound];
}

def Unroll : RewriteFamily<"unroll"> {
  let summary = "unroll innermost constant-step scf.for loops by F";
  let parameter = Range<"the unroll factor", 2, 16>;
  // Independent loads and FMAs in flight.
  let facts = [LatencyBound, IssueBound];
}

def MaxRegisters : RewriteFamily<"max-registers", [MlirKernel, PtxKernel]> {
  let summary = "cap registers per thread at R (nvvm.maxnreg)";
  let importedSummary = "cap the registers per thread at N (.maxnreg N on "
                        "the entry)";
  let parameter = TargetLimited<"the register limit",
      "16 to the target's registers per thread, and at most its registers "
      "per block over the block's threads">;
  // A register cap raises the warps an SM holds.
  let facts = [LowOccupancy];
}

def MinBlocks : RewriteFamily<"min-blocks", [MlirKernel, PtxKernel]> {
  let summary = "ask for K resident blocks per SM (nvvm.minctasm, with the "
                "exact block size)";
  let importedSummary = "ask for K resident blocks per SM (.maxntid with the "
                        "block size and .minnctapersm K on the entry)";
  let parameter = TargetLimited<"the resident blocks",
      "2 or more, their threads at most the target's per SM">;
  // More resident blocks per SM.
  let facts = [LowOccupancy];
}

def LaunchBounds : RewriteFamily<"launch-bounds"> {
  let summary = "promise the exact block size (nvvm.maxntid); parameter 1";
  let parameter = One;
  // The compiler knows the block size and may use fewer registers.
  let facts = [LowOccupancy, RegisterSpills];
}

def FoldHostLoop : RewriteFamily<"fold-host-loop"> {
  let summary = "a host loop around a launch moves into the kernel (one "
                "launch, the loop in every thread); parameter 1";
  let parameter = One;
  // Launch start-up and the accumulator's round trip through memory between
  // launches, which no counter of one launch shows.
  let facts = [];
}

def FastMath : RewriteFamily<"fast-math", [PtxKernel]> {
  let summary = "compile the CUDA source with NVRTC's fast floating-point "
                "options, level N: 1 flushes denormals, 2 also approximates "
                "division and square roots, 3 is --use_fast_math";
  let parameter = Values<"the fast-math level", [1, 2, 3]>;
  // Ranked on the kernel's special functions and flops, not on facts.
  let facts = [];
}

#endif // AUTOPROF_OPTIMIZER_REWRITEFAMILIES
