//===- AnalyzeMemoryAccess.cpp - Explain memory accesses as remarks -------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_ANALYZEMEMORYACCESSPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

/// "arg2" or "shared0" for a buffer, "a local buffer" otherwise.
static std::string nameBuffer(gpu::GPUFuncOp kernel, BlockArgument buffer) {
  if (!buffer)
    return "a local buffer";
  unsigned number = buffer.getArgNumber();
  if (number < kernel.getNumArguments())
    return "arg" + std::to_string(number);
  return "shared" + std::to_string(number - kernel.getNumArguments());
}

static std::string triple(const std::array<int64_t, 3> &values) {
  return llvm::formatv("({0}, {1}, {2})", values[0], values[1], values[2]);
}

static void explainKernel(gpu::GPUFuncOp kernel,
                          ArrayRef<gpu::LaunchFuncOp> launches) {
  MemoryAccessAnalysis analysis(kernel);
  for (const MemoryAccess &access : analysis.getAccesses()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << (access.atomic ? "atomic" : access.writes ? "store" : "load");
    if (access.vectorWidth > 1)
      os << " of " << access.vectorWidth << " elements";
    os << (access.shared ? " shared " : " ")
       << nameBuffer(kernel, access.buffer) << ": ";
    if (!access.address) {
      os << "address not described: " << access.unknownReason;
      emitRemark(access.op->getLoc(), text);
      continue;
    }
    os << "address = " << analysis.describe(*access.address);
    if (!access.threadAffine) {
      os << "; not affine in the thread ids: " << access.unknownReason;
      emitRemark(access.op->getLoc(), text);
      continue;
    }
    os << "; strides thread " << triple(access.threadStride) << " block "
       << triple(access.blockStride);
    SmallVector<std::string> variant, invariant;
    for (auto [loop, varies] : llvm::zip(access.loops, access.loopVariant))
      (varies ? variant : invariant)
          .push_back("i" + std::to_string(&loop - access.loops.data()));
    if (!variant.empty())
      os << "; varies with " << llvm::join(variant, ", ");
    if (!invariant.empty())
      os << "; invariant to " << llvm::join(invariant, ", ");
    if (access.warpLanes > 0)
      os << "; " << access.warpLanes << " lanes, " << access.sectorsPerRequest
         << " sectors per request, " << access.bytesPerRequest << " of "
         << access.sectorsPerRequest * 32 << " bytes used";
    emitRemark(access.op->getLoc(), text);
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "@" << kernel.getName() << ": ";
  if (auto contiguous = analysis.getContiguousDimension())
    os << "consecutive global indices along "
       << gpu::stringifyDimension(contiguous->first)
       << " walk contiguous memory ("
       << llvm::formatv("{0:F1}", contiguous->second) << " votes)";
  else
    os << "no dimension walks contiguous memory";
  for (const BufferFootprint &buffer : analysis.getBuffers()) {
    os << "; " << nameBuffer(kernel, buffer.buffer)
       << (buffer.written ? " (written)" : "") << " ";
    if (!buffer.described)
      os << "not described";
    else
      os << "footprint " << buffer.footprintBytes << " B per block, reuse "
         << llvm::formatv("{0:F1}", buffer.reuse);
  }
  std::string why;
  if (launches.empty())
    os << "; never launched";
  else if (proveDistinctBuffers(launches, why))
    os << "; buffers distinct";
  else
    os << "; buffers may alias: " << why;
  emitRemark(kernel.getLoc(), text);
}

namespace {
struct AnalyzeMemoryAccessPass
    : public mlir::autoprof::impl::AnalyzeMemoryAccessPassBase<
          AnalyzeMemoryAccessPass> {
  using Base::Base;

  void runOnOperation() override {
    OwningOpRef<ModuleOp> copy = getOperation().clone();
    if (failed(normalizeKernels(*copy)))
      return signalPassFailure();
    llvm::MapVector<gpu::GPUFuncOp, SmallVector<gpu::LaunchFuncOp>> launches;
    copy->walk([&](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        launches[kernel];
    });
    copy->walk([&](gpu::LaunchFuncOp launch) {
      if (auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
              launch, launch.getKernel()))
        launches[kernel].push_back(launch);
    });
    for (auto &[kernel, kernelLaunches] : launches)
      explainKernel(kernel, kernelLaunches);
  }
};
} // namespace
