//===- MemoryAccess.h - Kernel memory accesses as affine forms --*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Describes every global and shared-memory access of a kernel by its address:
// the linearized element offset as an affine form over thread ids, block ids,
// loop induction variables, kernel arguments and constants, whatever spelling
// of the index the kernel uses (the form is computed through the arith ops,
// and the integer-range dataflow analysis supplies the values that turn out
// to be constant and every variable's range). From the form follow the facts
// the rewrites need: which thread dimension walks the contiguous memory and
// with what stride, which loops and thread dimensions an access is invariant
// to, how many 32-byte sectors a warp request touches, and per buffer the
// footprint of a block and its reuse.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_ANALYSIS_MEMORYACCESS_H
#define AUTOPROF_ANALYSIS_MEMORYACCESS_H

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace mlir::autoprof {

/// What a variable of an affine index stands for.
enum class IndexAtomKind {
  ThreadId,       ///< gpu.thread_id along `dim`
  BlockId,        ///< gpu.block_id along `dim`
  InductionVar,   ///< the induction variable of an scf.for
  KernelArgument, ///< a scalar argument of the kernel
  Opaque,         ///< any other value (a division, a loaded index, ...)
};

/// A variable of the affine forms, with the range the integer-range analysis
/// proves for it.
struct IndexAtom {
  Value value;
  IndexAtomKind kind = IndexAtomKind::Opaque;
  gpu::Dimension dim = gpu::Dimension::x;
  int64_t lower = INT64_MIN, upper = INT64_MAX;
  /// Opaque atoms: the thread ids, block ids and induction variables they
  /// are computed from (non-affinely).
  SmallVector<Value> roots;
  /// Printable name: tid.x, bid.y, i0 (loop depth), arg3, or the op name.
  std::string name;
};

/// sum(coefficient * atom) + constant; atoms index MemoryAccessAnalysis's
/// atom table.
struct AffineIndex {
  SmallVector<std::pair<unsigned, int64_t>> terms;
  int64_t constant = 0;

  /// The coefficient of atom `atom` (0 when absent).
  int64_t coefficientOf(unsigned atom) const;
};

/// One load, store or atomic of global or shared memory.
struct MemoryAccess {
  Operation *op = nullptr;
  /// The memref operand, and the kernel argument or workgroup attribution it
  /// is (null when it comes from a view or an allocation in the kernel).
  Value memref;
  BlockArgument buffer;
  bool reads = false, writes = false, atomic = false, shared = false;
  int64_t elementBytes = 0;
  int64_t vectorWidth = 1;
  /// The address in elements, linearized by the memref's strides; absent
  /// when it cannot be expressed (then `unknownReason` says why).
  std::optional<AffineIndex> address;
  std::string unknownReason;

  // Facts derived from `address` (meaningful when `threadAffine`).
  /// Whether the address is affine in every thread and block id (no opaque
  /// variable depends on one).
  bool threadAffine = false;
  /// Elements between the addresses of neighbouring threads (blocks) along
  /// each dimension.
  std::array<int64_t, 3> threadStride = {0, 0, 0};
  std::array<int64_t, 3> blockStride = {0, 0, 0};
  /// The enclosing scf.for loops (outermost first) and whether the address
  /// changes with each.
  SmallVector<scf::ForOp> loops;
  SmallVector<bool> loopVariant;
  /// Lanes of one warp request, 32-byte sectors they touch and the distinct
  /// bytes they use (needs the kernel's known block size; 0 when unknown).
  int64_t warpLanes = 0, sectorsPerRequest = 0, bytesPerRequest = 0;
  /// Dynamic executions per thread (product of constant trip counts).
  int64_t executionsPerThread = 1;
  /// Distinct addresses per thread: the product of the constant trip counts
  /// of the loops the address varies with (an accumulator a loop loads and
  /// stores at one address counts once).
  int64_t addressesPerThread = 1;
};

/// Per-buffer facts of a kernel.
struct BufferFootprint {
  BlockArgument buffer;
  bool shared = false, written = false;
  /// Bytes one block touches (the largest span of one access within a
  /// block, at most the buffer) and bytes its accesses move.
  int64_t footprintBytes = 0;
  int64_t accessedBytes = 0;
  /// accessedBytes / footprintBytes.
  double reuse = 0;
  /// Whether every access of the buffer has an affine address.
  bool described = true;
};

/// The memory accesses of one kernel. Runs the integer-range analysis on
/// construction; the kernel must not change while the analysis is used.
class MemoryAccessAnalysis {
public:
  /// `launchBlock` and `launchGrid`: the block and grid sizes every launch
  /// uses, for kernels that do not record them as `known_block_size` and
  /// `known_grid_size`.
  explicit MemoryAccessAnalysis(
      gpu::GPUFuncOp kernel,
      std::optional<std::array<int64_t, 3>> launchBlock = std::nullopt,
      std::optional<std::array<int64_t, 3>> launchGrid = std::nullopt);
  ~MemoryAccessAnalysis();

  gpu::GPUFuncOp getKernel() const { return kernel; }
  ArrayRef<MemoryAccess> getAccesses() const { return accesses; }
  ArrayRef<IndexAtom> getAtoms() const { return atoms; }
  ArrayRef<BufferFootprint> getBuffers() const { return buffers; }
  /// The known block size (1 where unknown) and whether it is known.
  std::array<int64_t, 3> getBlockSize() const { return blockSize; }
  bool hasKnownBlockSize() const { return knownBlockSize; }

  /// `value` as an affine form, or nothing when it is not an integer.
  std::optional<AffineIndex> express(Value value);
  /// The range the integer-range analysis proves for `value`.
  std::pair<int64_t, int64_t> getRange(Value value) const;
  /// "16*bid.x + tid.x + 128*i0 + 4".
  std::string describe(const AffineIndex &index) const;

  /// What `access` weighs among the kernel's accesses: its distinct
  /// addresses per thread times the fraction of the threads that touch
  /// distinct elements (an element every thread of a row shares weighs 1 /
  /// the row's threads; an accumulator a loop loads and stores at one
  /// address, once). Along a dimension where blocks have one thread, the
  /// block ids are the global indices, and the grid's extent there counts
  /// (when it is known) as the block's does elsewhere.
  double getWeight(const MemoryAccess &access) const;

  /// The dimension along which consecutive global indices (block_id *
  /// block_size + thread_id) walk contiguous memory in most accesses, and
  /// their votes, each access weighing getWeight; nothing when no access
  /// has such a dimension.
  std::optional<std::pair<gpu::Dimension, double>>
  getContiguousDimension() const;

  /// The share of the global loads' weight (getWeight) whose window slides
  /// along `dim`: a loop of 2 to 64 iterations moves the address by the
  /// distance between neighbouring global indices along `dim`, so that
  /// neighbouring threads read overlapping windows (the rows of a stencil,
  /// a convolution or a pooling window). 0 when no load does.
  double getWindowShare(gpu::Dimension dim) const;
  /// The loop of 2 to 64 iterations along which `access`'s window slides
  /// along `dim` (as getWindowShare counts it), or null.
  scf::ForOp getSlidingLoop(const MemoryAccess &access,
                            gpu::Dimension dim) const;

private:
  unsigned getAtom(Value value, IndexAtomKind kind);
  void analyzeAccess(Operation *op, Value memref, ValueRange indices,
                     int64_t vectorWidth, bool reads, bool writes, bool atomic);
  void deriveFacts(MemoryAccess &access);
  void computeFootprints();

  gpu::GPUFuncOp kernel;
  std::unique_ptr<DataFlowSolver> solver;
  std::array<int64_t, 3> blockSize = {1, 1, 1};
  bool knownBlockSize = false;
  /// The grid size, 1 where unknown.
  std::array<int64_t, 3> gridSize = {1, 1, 1};
  SmallVector<IndexAtom, 0> atoms;
  llvm::DenseMap<Value, unsigned> atomOf;
  llvm::DenseMap<Value, std::optional<AffineIndex>> expressed;
  SmallVector<MemoryAccess, 0> accesses;
  SmallVector<BufferFootprint> buffers;
};

/// Whether the launches provably pass distinct, non-overlapping buffers: each
/// comes from its own allocation or from a host argument marked llvm.noalias,
/// except at most one of unknown origin; otherwise `why` says which do not.
bool proveDistinctBuffers(ArrayRef<gpu::LaunchFuncOp> launches,
                          std::string &why);

} // namespace mlir::autoprof

#endif // AUTOPROF_ANALYSIS_MEMORYACCESS_H
