//===- PadShared.cpp - pad-shared=P ---------------------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Shared memory serves a warp's access in one pass when its lanes touch
// different 4-byte banks (32 of them) or the same word; lanes that walk a
// column of a tile whose rows span a multiple of 128 bytes all meet in one
// bank, and the access replays once per lane. This family widens the rows
// of every workgroup buffer that has rows (rank 2 or more, static shape)
// by P bytes: a retype of the buffer, whose accesses keep their indices, so
// that consecutive rows start in different banks. Nothing else changes: the
// elements a thread reads and writes are the same ones, only further apart.
//
// The buffers must be used only by operations that address them element by
// element through their indices (loads, stores, atomics, vector loads and
// stores, ldmatrix, cp.async), and:
// - P must be a whole number of each padded buffer's elements and a multiple
//   of each of its accesses' widths and stated alignments, so that an access
//   that was aligned stays aligned (each row start moves by a multiple of P);
// - the buffers lie one after another in shared memory, so a buffer declared
//   after a padded one moves by the bytes the padding added before it: that
//   shift must keep its accesses aligned too;
// - an access of several elements (a vector, a copy, an ldmatrix row) must
//   stay within its row, as the integer-range analysis bounds its column
//   index: what followed a row's end is now padding;
// - the padded buffers must fit the 48 KiB of static shared memory.
//
// Whether the conflicts were the limit is the GPU's to say; the family is
// ranked only where the profile establishes the fact shared-bank-conflicts
// (docs/diagnosis.md), the smallest padding first.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/AlignmentAttrInterface.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
/// The workgroup buffers pad-shared=P widens, with their new types.
struct PadPlan {
  SmallVector<std::pair<BlockArgument, MemRefType>> buffers;
};
} // namespace

namespace {
/// How one operation addresses a workgroup buffer.
struct BufferAccess {
  /// Bytes it accesses at once, or the alignment it states if larger: each
  /// row start must move by a multiple of it.
  int64_t alignment = 0;
  /// Consecutive elements of a row it reads or writes from its column
  /// index (1 for scalars), and that index.
  int64_t elements = 1;
  Value column;
};
} // namespace

/// How `user` addresses `buffer`, whose elements take `elementBytes`; or
/// why the rewrite cannot follow it.
static FailureOr<BufferAccess> getAccess(Operation *user, Value buffer,
                                         int64_t elementBytes,
                                         std::string &why) {
  auto stated = [&](BufferAccess access) {
    if (auto aligned = dyn_cast<AlignmentAttrOpInterface>(user))
      if (llvm::MaybeAlign align = aligned.getMaybeAlign())
        access.alignment = std::max<int64_t>(access.alignment, align->value());
    return access;
  };
  auto vector = [&](VectorType type,
                    ValueRange indices) -> FailureOr<BufferAccess> {
    if (type.isScalable()) {
      why = "a scalable vector";
      return failure();
    }
    if (type.getRank() == 0 || indices.empty())
      return stated({type.getNumElements() * elementBytes});
    return stated({type.getNumElements() * elementBytes, type.getShape().back(),
                   indices.back()});
  };
  if (isa<memref::LoadOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(
          user))
    return stated({elementBytes});
  if (auto store = dyn_cast<memref::StoreOp>(user)) {
    if (store.getMemRef() != buffer) {
      why = "it stores the buffer itself as a value";
      return failure();
    }
    return stated({elementBytes});
  }
  if (auto load = dyn_cast<vector::LoadOp>(user))
    return vector(load.getVectorType(), load.getIndices());
  if (auto store = dyn_cast<vector::StoreOp>(user)) {
    if (store.getBase() != buffer) {
      why = "it stores the buffer itself as a value";
      return failure();
    }
    return vector(store.getVectorType(), store.getIndices());
  }
  // Each lane's address starts a row of 16 bytes of the matrix.
  if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(user))
    return BufferAccess{16, 16 / elementBytes, ldmatrix.getIndices().back()};
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(user)) {
    int64_t elements = copy.getDstElements().getZExtValue();
    Value column = copy.getDst() == buffer ? copy.getDstIndices().back()
                                           : copy.getSrcIndices().back();
    return BufferAccess{elements * elementBytes, elements, column};
  }
  why = "it does not address the buffer element by element through its "
        "indices";
  return failure();
}

namespace {
class PadSharedFamily : public RewriteFamilyWithPlan<PadPlan> {
public:
  PadSharedFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::PadShared) {}
  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Only a measured conflict rate speaks for it: a padding that was not
    // needed costs shared memory, and may move an aligned access pattern
    // into conflicts. One word breaks a column walk over rows of a multiple
    // of 128 bytes; wider paddings keep 8- and 16-byte accesses aligned.
    if (evidence.getFact("shared-bank-conflicts") != FactState::True)
      return;
    ranked.push_back({10.8, 4});
    ranked.push_back({10.75, 8});
    ranked.push_back({10.7, 16});
    ranked.push_back({10.65, 32});
  }

protected:
  FailureOr<PadPlan> matchPlan(const RewriteTarget &target, int64_t p,
                               std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    // The column indices' ranges, from the integer-range analysis.
    MemoryAccessAnalysis analysis(kernel, getUniformBlock(target.launches));
    PadPlan plan;
    // Bytes the padded buffers declared so far add: how far every later
    // buffer starts further on (the buffers lie one after another), and in
    // the end what the padding adds to the kernel's shared memory.
    int64_t shift = 0;
    for (auto [position, buffer] :
         llvm::enumerate(kernel.getWorkgroupAttributions())) {
      auto type = dyn_cast<MemRefType>(buffer.getType());
      auto name = [&] {
        return std::string(llvm::formatv("workgroup buffer {0} ({1})", position,
                                         buffer.getType()));
      };
      if (!type || !type.hasStaticShape()) {
        why = name() + " has no static shape";
        return failure();
      }
      bool padded = type.getRank() >= 2 && type.getNumElements() > 0;
      if (padded && !type.getLayout().isIdentity()) {
        why = name() + " has a non-identity layout";
        return failure();
      }
      if (!type.getElementType().isIntOrFloat()) {
        if (!padded && shift == 0)
          continue;
        why = name() + " holds elements that are not scalars";
        return failure();
      }
      int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      int64_t rowLength = type.getRank() ? type.getShape().back() : 1;
      if (padded && p % elementBytes) {
        why = llvm::formatv("{0} bytes are not a whole number of the {1}-byte "
                            "elements of {2}",
                            p, elementBytes, name());
        return failure();
      }
      // Neither the buffer's row starts (by P bytes a row) nor its own start
      // (by `shift`) may move off the alignment of an access.
      if (padded || shift) {
        for (Operation *user : buffer.getUsers()) {
          std::string reason;
          FailureOr<BufferAccess> access =
              getAccess(user, buffer, elementBytes, reason);
          if (failed(access)) {
            why = llvm::formatv("{0}{1} is used by '{2}', whose addressing "
                                "the rewrite cannot follow: {3}",
                                name(),
                                padded ? "" : ", which the padding moves,",
                                user->getName(), reason);
            return failure();
          }
          if (padded && p % access->alignment) {
            why = llvm::formatv("{0} bytes would misalign the {1}-byte "
                                "accesses of {2} ('{3}')",
                                p, access->alignment, name(), user->getName());
            return failure();
          }
          if (shift % access->alignment) {
            why = llvm::formatv("the padding moves {0} by {1} bytes, off the "
                                "alignment of its {2}-byte accesses ('{3}')",
                                name(), shift, access->alignment,
                                user->getName());
            return failure();
          }
          // An access of several elements must stay within its row: what
          // followed the row's end is now padding.
          if (padded && access->elements > 1) {
            int64_t last = analysis.getRange(access->column).second;
            if (last == INT64_MAX || last + access->elements > rowLength) {
              why = llvm::formatv(
                  "the {0}-element accesses of {1} ('{2}') may run past the "
                  "end of a row of {3} (their column index reaches {4})",
                  access->elements, name(), user->getName(), rowLength,
                  last == INT64_MAX ? std::string("an unknown bound")
                                    : std::to_string(last));
              return failure();
            }
          }
        }
      }
      if (!padded)
        continue;
      SmallVector<int64_t> shape(type.getShape());
      int64_t rows = type.getNumElements() / rowLength;
      shape.back() += p / elementBytes;
      shift += rows * p;
      plan.buffers.push_back(
          {buffer, MemRefType::get(shape, type.getElementType(),
                                   MemRefLayoutAttrInterface(),
                                   type.getMemorySpace())});
    }
    if (plan.buffers.empty()) {
      why = "the kernel has no workgroup buffer with rows (static, of rank 2 "
            "or more, not empty)";
      return failure();
    }
    int64_t declared = getWorkgroupBytes(kernel);
    int64_t limit = target.gpu->staticSharedPerBlock;
    if (declared + shift > limit) {
      why = llvm::formatv("the padding adds {0} bytes to the {1} bytes of "
                          "shared memory the kernel declares, more than the "
                          "{2} a kernel may use statically",
                          shift, declared, limit);
      return failure();
    }
    return plan;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, PadPlan &plan) const override {
    // The accesses keep their operands and result types: only the buffer's
    // type, the distance between its rows, changes.
    rewriter.modifyOpInPlace(target.kernel, [&] {
      for (auto [buffer, type] : plan.buffers)
        buffer.setType(type);
    });
    for (auto [buffer, type] : plan.buffers) {
      llvm::SmallPtrSet<Operation *, 16> users(buffer.getUsers().begin(),
                                               buffer.getUsers().end());
      for (Operation *user : users)
        rewriter.modifyOpInPlace(user, [] {});
    }
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createPadSharedFamily() {
  return std::make_unique<PadSharedFamily>();
}
