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
// stores, ldmatrix, cp.async); P must be a multiple of each buffer's
// element size and of the widest access of each buffer (so that a vector
// access that was aligned stays aligned: each row start moves by a multiple
// of P), and the padded buffers must fit the 48 KiB of static shared
// memory.
//
// Whether the conflicts were the limit is the GPU's to say; the family is
// ranked only where the profile establishes the fact shared-bank-conflicts
// (docs/diagnosis.md), the smallest padding first.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// Bytes that `user` accesses at once in `buffer`: the element for scalar
/// accesses, the vector for vector loads and stores and cp.async, a 16-byte
/// row for ldmatrix; nothing where `user` does not address `buffer`
/// through per-dimension indices.
static std::optional<int64_t> getAccessBytes(Operation *user, Value buffer,
                                             int64_t elementBytes) {
  if (isa<memref::LoadOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(
          user))
    return elementBytes;
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return store.getMemRef() == buffer ? std::optional<int64_t>(elementBytes)
                                       : std::nullopt;
  auto vectorBytes = [&](VectorType type) -> std::optional<int64_t> {
    if (type.isScalable())
      return std::nullopt;
    return type.getNumElements() * elementBytes;
  };
  if (auto load = dyn_cast<vector::LoadOp>(user))
    return vectorBytes(load.getVectorType());
  if (auto store = dyn_cast<vector::StoreOp>(user))
    return store.getBase() == buffer ? vectorBytes(store.getVectorType())
                                     : std::nullopt;
  if (isa<nvgpu::LdMatrixOp>(user))
    return 16;
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(user)) {
    auto type = cast<MemRefType>(copy.getDst().getType());
    return copy.getDstElements().getZExtValue() *
           llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return std::nullopt;
}

namespace {
class PadSharedFamily : public RewriteFamilyWithPlan<PadPlan> {
public:
  StringRef getName() const override { return "pad-shared"; }
  StringRef getSummary() const override {
    return "widen each row of the kernel's shared tiles by P bytes, so that "
           "a column's elements fall in different banks";
  }
  std::optional<std::string> checkParameter(int64_t p) const override {
    if (p < 1 || p > 128)
      return std::string("the padding must be in [1, 128] bytes");
    return std::nullopt;
  }
  ArrayRef<StringRef> getAddressedFacts() const override {
    static const StringRef facts[] = {"shared-bank-conflicts"};
    return facts;
  }
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
    PadPlan plan;
    int64_t added = 0;
    for (auto [position, buffer] :
         llvm::enumerate(kernel.getWorkgroupAttributions())) {
      auto type = dyn_cast<MemRefType>(buffer.getType());
      if (!type || !type.hasStaticShape()) {
        why =
            llvm::formatv("workgroup buffer {0} has no static shape", position);
        return failure();
      }
      if (type.getRank() < 2)
        continue;
      auto name = [&] {
        return std::string(
            llvm::formatv("workgroup buffer {0} ({1})", position, type));
      };
      if (!type.getLayout().isIdentity()) {
        why = name() + " has a non-identity layout";
        return failure();
      }
      if (!type.getElementType().isIntOrFloat()) {
        why = name() + " holds elements that are not scalars";
        return failure();
      }
      int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      if (p % elementBytes) {
        why = llvm::formatv("{0} bytes are not a whole number of the {1}-byte "
                            "elements of {2}",
                            p, elementBytes, name());
        return failure();
      }
      for (Operation *user : buffer.getUsers()) {
        std::optional<int64_t> bytes =
            getAccessBytes(user, buffer, elementBytes);
        if (!bytes) {
          why = llvm::formatv("{0} is used by '{1}', which does not address "
                              "it element by element through its indices",
                              name(), user->getName());
          return failure();
        }
        if (p % *bytes) {
          why = llvm::formatv("{0} bytes would misalign the {1}-byte "
                              "accesses of {2} ('{3}')",
                              p, *bytes, name(), user->getName());
          return failure();
        }
      }
      SmallVector<int64_t> shape(type.getShape());
      int64_t rows = type.getNumElements() / shape.back();
      shape.back() += p / elementBytes;
      added += rows * p;
      plan.buffers.push_back(
          {buffer, MemRefType::get(shape, type.getElementType(),
                                   MemRefLayoutAttrInterface(),
                                   type.getMemorySpace())});
    }
    if (plan.buffers.empty()) {
      why = "the kernel has no workgroup buffer with rows (static, of rank 2 "
            "or more)";
      return failure();
    }
    int64_t shared = getWorkgroupBytes(kernel) + added;
    if (shared > kStaticSharedLimit) {
      why = llvm::formatv("the padded buffers take {0} bytes of shared "
                          "memory, more than the {1} a kernel may use "
                          "statically",
                          shared, kStaticSharedLimit);
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
    for (auto [buffer, type] : plan.buffers)
      for (Operation *user : buffer.getUsers())
        rewriter.modifyOpInPlace(user, [] {});
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createPadSharedFamily() {
  return std::make_unique<PadSharedFamily>();
}
