//===- EvaluationJobs.cpp - Build GPU evaluation jobs from IR -------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Transforms/EvaluationJobs.h"

#include "autoprof/Runtime/HostData.h"
#include "autoprof/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::autoprof;

/// The job's element or scalar type for `type`, or nothing when the runtime
/// has none.
static std::optional<autoprof_dtype> getDtype(Type type) {
  if (type.isF32())
    return AUTOPROF_F32;
  if (type.isF64())
    return AUTOPROF_F64;
  if (type.isF16())
    return AUTOPROF_F16;
  if (type.isBF16())
    return AUTOPROF_BF16;
  if (type.isIndex())
    return AUTOPROF_I64;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 8:
    return isUnsigned ? AUTOPROF_U8 : AUTOPROF_I8;
  case 16:
    return isUnsigned ? AUTOPROF_U16 : AUTOPROF_I16;
  case 32:
    return isUnsigned ? AUTOPROF_U32 : AUTOPROF_I32;
  case 64:
    return isUnsigned ? AUTOPROF_U64 : AUTOPROF_I64;
  default:
    return std::nullopt;
  }
}

namespace {
/// How a kernel uses one of its buffers.
struct BufferUse {
  bool read = false;
  bool written = false;
};
} // namespace

/// Follows `buffer` through views and records whether the kernel reads or
/// writes it; uses AutoProf does not understand count as both.
static void collectUses(Value buffer, BufferUse &use) {
  for (OpOperand &operand : buffer.getUses()) {
    Operation *user = operand.getOwner();
    if (isa<memref::LoadOp, affine::AffineLoadOp, vector::LoadOp,
            vector::TransferReadOp, vector::MaskedLoadOp, vector::GatherOp>(
            user)) {
      use.read = true;
    } else if (isa<memref::StoreOp, affine::AffineStoreOp, vector::StoreOp,
                   vector::TransferWriteOp, vector::MaskedStoreOp,
                   vector::ScatterOp>(user)) {
      use.written = true;
    } else if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(user)) {
      // cp.async reads its source and writes its destination.
      (operand.get() == copy.getSrc() ? use.read : use.written) = true;
    } else if (isa<nvgpu::LdMatrixOp>(user)) {
      use.read = true;
    } else if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(user)) {
      use.read = use.written = true;
    } else if (isa<memref::CastOp, memref::SubViewOp, memref::ReinterpretCastOp,
                   memref::ViewOp, memref::CollapseShapeOp,
                   memref::ExpandShapeOp>(user)) {
      for (Value result : user->getResults())
        collectUses(result, use);
    } else if (isa<memref::DimOp, memref::ExtractAlignedPointerAsIndexOp>(
                   user)) {
      // Metadata only.
    } else {
      use.read = use.written = true;
    }
  }
}

CompulsoryTraffic mlir::autoprof::getCompulsoryTraffic(
    const ::autoprof::runtime::JobLaunch &launch) {
  CompulsoryTraffic traffic;
  for (const ::autoprof::runtime::JobParam &param : launch.params) {
    if (param.isScalar)
      continue;
    uint64_t bytes = param.count * ::autoprof::runtime::dtypeSize(param.dtype);
    if (param.role != ::autoprof::runtime::BufferRole::Output)
      traffic.readBytes += bytes;
    if (param.role != ::autoprof::runtime::BufferRole::Input)
      traffic.writeBytes += bytes;
  }
  return traffic;
}

uint64_t mlir::autoprof::getCompulsoryBytes(
    const ::autoprof::runtime::JobLaunch &launch) {
  CompulsoryTraffic traffic = getCompulsoryTraffic(launch);
  return traffic.readBytes + traffic.writeBytes;
}

::autoprof::runtime::BufferRole mlir::autoprof::inferBufferRole(Value buffer) {
  using ::autoprof::runtime::BufferRole;
  BufferUse use;
  collectUses(buffer, use);
  return use.written ? (use.read ? BufferRole::InOut : BufferRole::Output)
                     : BufferRole::Input;
}

std::optional<HostLoopRepeat>
mlir::autoprof::matchHostLoopRepeat(gpu::LaunchFuncOp launch,
                                    std::string *why) {
  auto fail = [&](const char *reason) -> std::optional<HostLoopRepeat> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  auto loop = dyn_cast<scf::ForOp>(launch->getParentOp());
  if (!loop)
    return fail(launch->getParentOfType<scf::ForOp>()
                    ? "the launch is not directly in the body of its host loop"
                    : "the launch is not in a host loop");
  APInt lb, ub, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)))
    return fail("the host loop's bounds and step are not constants");
  if (!step.isStrictlyPositive() || ub.sle(lb))
    return fail("the host loop does not run (or its step is not positive)");
  if (loop.getUnsignedCmp() || lb.getSignificantBits() > 64 ||
      ub.getSignificantBits() > 64 || step.getSignificantBits() > 64)
    return fail("the host loop compares unsigned or its bounds exceed 64 "
                "bits");
  HostLoopRepeat repeat;
  repeat.loop = loop;
  repeat.start = lb.getSExtValue();
  repeat.step = step.getSExtValue();
  int64_t span = 0;
  if (llvm::SubOverflow(ub.getSExtValue(), repeat.start, span))
    return fail("the host loop's trip count overflows 64 bits");
  repeat.tripCount = static_cast<uint64_t>(span) / repeat.step +
                     (static_cast<uint64_t>(span) % repeat.step != 0);
  // Every launch of the loop must pass the same buffers.
  for (Value operand : launch.getKernelOperands())
    if (isa<MemRefType>(operand.getType()) &&
        !loop.isDefinedOutsideOfLoop(operand))
      return fail("a buffer the launch passes is defined in the host loop");
  Value iv = loop.getInductionVar();
  unsigned uses = 0;
  for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands()))
    if (operand == iv) {
      repeat.operand = index;
      ++uses;
    }
  if (uses != 1)
    return fail(uses ? "the launch passes the induction variable more than "
                       "once"
                     : "the launch does not pass the induction variable");
  return repeat;
}

FailureOr<::autoprof::runtime::JobLaunch>
mlir::autoprof::buildJobLaunch(gpu::GPUFuncOp kernel,
                               gpu::LaunchFuncOp launch) {
  ::autoprof::runtime::JobLaunch job;
  std::optional<HostLoopRepeat> repeat = matchHostLoopRepeat(launch);
  if (repeat)
    job.repeat = ::autoprof::runtime::JobRepeat{
        repeat->operand, repeat->start, repeat->step, repeat->tripCount};
  auto constantSize = [&](Value value, StringRef what,
                          unsigned &result) -> LogicalResult {
    APInt constant;
    if (!matchPattern(value, m_ConstantInt(&constant))) {
      // Upstream's lowering computes sizes on the host; normalizing folds
      // them (autoprof-optimize normalizes by itself).
      InFlightDiagnostic diag =
          launch.emitError("the ")
          << what << " of this launch is not a constant the GPU accepts";
      diag.attachNote()
          << "it is computed on the host: run --autoprof-normalize-kernels "
             "first, which folds it to a constant";
      return diag;
    }
    if (constant.getSExtValue() < 0 || constant.getSExtValue() > UINT32_MAX)
      return launch.emitError("the ")
             << what << " of this launch is not a constant the GPU accepts";
    result = static_cast<unsigned>(constant.getZExtValue());
    return success();
  };
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  if (failed(constantSize(grid.x, "grid size x", job.grid[0])) ||
      failed(constantSize(grid.y, "grid size y", job.grid[1])) ||
      failed(constantSize(grid.z, "grid size z", job.grid[2])) ||
      failed(constantSize(block.x, "block size x", job.block[0])) ||
      failed(constantSize(block.y, "block size y", job.block[1])) ||
      failed(constantSize(block.z, "block size z", job.block[2])))
    return failure();
  if (Value shared = launch.getDynamicSharedMemorySize())
    if (failed(constantSize(shared, "dynamic shared memory size",
                            job.dynamicSharedBytes)))
      return failure();

  if (launch.getNumKernelOperands() != kernel.getNumArguments())
    return launch.emitError("launch passes ")
           << launch.getNumKernelOperands() << " arguments to @"
           << kernel.getName() << ", which takes " << kernel.getNumArguments();

  llvm::DenseSet<Value> seenBuffers;
  // The body's leading arguments are the parameters; workgroup and private
  // attributions follow them.
  for (auto [index, arg] : llvm::enumerate(
           kernel.getArguments().take_front(kernel.getNumArguments()))) {
    Value operand = launch.getKernelOperand(index);
    ::autoprof::runtime::JobParam param;
    Type type = arg.getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      std::optional<autoprof_dtype> dtype = getDtype(memref.getElementType());
      if (!dtype || !memref.hasStaticShape())
        return launch.emitError("argument #")
               << index << " of type " << type
               << " cannot be reproduced by the runtime (static shapes of "
                  "f32/f64/f16/bf16 or 8- to 64-bit integers only)";
      param.dtype = *dtype;
      // Separate buffers in the job would change what an aliasing launch
      // computes.
      if (!seenBuffers.insert(operand).second)
        return launch.emitError("argument #")
               << index
               << " passes a buffer that an earlier argument already passes; "
                  "aliasing launches cannot be evaluated";
      param.count = memref.getNumElements();
      // Input-generation hints on the kernel argument.
      if (auto bound = kernel.getArgAttrOfType<IntegerAttr>(
              index, "autoprof.index_bound"))
        param.indexBound = bound.getInt();
      param.sorted = kernel.getArgAttr(index, "autoprof.sorted") != nullptr;
      param.role = inferBufferRole(arg);
      if (Attribute range = kernel.getArgAttr(index, "autoprof.range")) {
        auto bounds = dyn_cast<ArrayAttr>(range);
        std::optional<double> low, high;
        if (bounds && bounds.size() == 2) {
          low = getNumericValue(bounds[0]);
          high = getNumericValue(bounds[1]);
        }
        if (!low || !high)
          return launch.emitError("argument #")
                 << index << " of @" << kernel.getName()
                 << ": autoprof.range is not [low, high], two numbers";
        param.range = std::array<double, 2>{*low, *high};
        if (std::optional<llvm::StringLiteral> why =
                ::autoprof::runtime::checkValueRange(param))
          return launch.emitError("argument #")
                 << index << " of @" << kernel.getName() << ": autoprof.range "
                 << llvm::formatv("[{0}, {1}]: ",
                                  llvm::format("%g", *low),
                                  llvm::format("%g", *high))
                        .str()
                 << *why;
      }
    } else {
      param.isScalar = true;
      std::optional<autoprof_dtype> dtype = getDtype(type);
      if (dtype)
        param.dtype = *dtype;
      if (repeat && index == repeat->operand && dtype &&
          isa<IndexType, IntegerType>(type)) {
        // Varies over the repeated launches.
        param.intValue = repeat->start;
        param.value = static_cast<double>(param.intValue);
        job.params.push_back(std::move(param));
        continue;
      }
      Attribute value;
      if (!dtype || !matchPattern(operand, m_Constant(&value)))
        return launch.emitError("scalar argument #")
               << index << " of type " << type
               << " must be a host constant of a supported type, or the "
                  "induction variable of a host loop with constant bounds "
                  "directly around the launch";
      if (auto integer = dyn_cast<IntegerAttr>(value)) {
        param.intValue = integer.getValue().getSExtValue();
        param.value = static_cast<double>(param.intValue);
      } else if (auto real = dyn_cast<FloatAttr>(value))
        param.value = real.getValueAsDouble();
      else
        return launch.emitError("scalar argument #")
               << index << " is not an integer or float constant";
    }
    job.params.push_back(std::move(param));
  }
  // Narrow integers (i8, i16) are data, not indices, when the smallest
  // buffer does not fit their type.
  ::autoprof::runtime::applyDefaultIndexBounds(job);
  return job;
}

/// Describes `op` by its position among the operations of its kind in
/// `function` ("memref.alloc #1 of @main"): what stays the same between two
/// spellings of one host function.
static std::string describeHostOp(Operation *op, func::FuncOp function) {
  unsigned ordinal = 0;
  if (function)
    function.walk<WalkOrder::PreOrder>([&](Operation *other) {
      if (other == op)
        return WalkResult::interrupt();
      if (other->getName() == op->getName())
        ++ordinal;
      return WalkResult::advance();
    });
  return (op->getName().getStringRef() + " #" + std::to_string(ordinal) +
          " of @" + (function ? function.getName() : StringRef("?")))
      .str();
}

/// Where the buffer a launch passes comes from, in terms that hold in another
/// spelling of the same module: an argument of the host function, or a
/// result of a host operation.
static std::string describeBufferOrigin(Value buffer,
                                        gpu::LaunchFuncOp launch) {
  auto function = launch->getParentOfType<func::FuncOp>();
  if (auto argument = dyn_cast<BlockArgument>(buffer)) {
    Block *owner = argument.getOwner();
    if (function && owner == &function.getBody().front())
      return "argument #" + std::to_string(argument.getArgNumber()) + " of @" +
             function.getName().str();
    return "argument #" + std::to_string(argument.getArgNumber()) +
           " of a block of " + describeHostOp(owner->getParentOp(), function);
  }
  auto result = cast<OpResult>(buffer);
  return "result #" + std::to_string(result.getResultNumber()) + " of " +
         describeHostOp(result.getOwner(), function);
}

/// Whether two scalar parameters pass the same value of the same type.
static bool isSameScalar(const ::autoprof::runtime::JobParam &a,
                         const ::autoprof::runtime::JobParam &b) {
  if (a.dtype != b.dtype)
    return false;
  if (::autoprof::runtime::isFloatType(a.dtype))
    return a.value == b.value || (a.value != a.value && b.value != b.value);
  return a.intValue == b.intValue;
}

/// A scalar parameter as "i64 1".
static std::string describeScalar(const ::autoprof::runtime::JobParam &param) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << ::autoprof::runtime::dtypeName(param.dtype) << " ";
  if (::autoprof::runtime::isFloatType(param.dtype))
    os << llvm::format("%g", param.value);
  else
    os << param.intValue;
  return text;
}

FailureOr<std::vector<unsigned>> mlir::autoprof::mapJobParameters(
    gpu::LaunchFuncOp launch, ::autoprof::runtime::JobLaunch &candidate,
    gpu::LaunchFuncOp referenceLaunch,
    const ::autoprof::runtime::JobLaunch &reference, StringRef kernelName) {
  llvm::StringMap<unsigned> referenceBuffers;
  SmallVector<unsigned> referenceScalars;
  for (unsigned r = 0; r < reference.params.size(); ++r) {
    if (reference.params[r].isScalar)
      referenceScalars.push_back(r);
    else
      referenceBuffers[describeBufferOrigin(referenceLaunch.getKernelOperand(r),
                                            referenceLaunch)] = r;
  }
  std::vector<unsigned> map;
  std::vector<bool> received(reference.params.size(), false);
  auto *nextScalar = referenceScalars.begin();
  for (unsigned i = 0; i < candidate.params.size(); ++i) {
    ::autoprof::runtime::JobParam &param = candidate.params[i];
    if (!param.isScalar) {
      std::string origin =
          describeBufferOrigin(launch.getKernelOperand(i), launch);
      auto found = referenceBuffers.find(origin);
      if (found == referenceBuffers.end())
        return launch.emitError("cannot map the parameters of @")
               << kernelName << " to the reference's: buffer argument #" << i
               << " (" << origin << ") is not passed to the reference kernel";
      const ::autoprof::runtime::JobParam &theirs =
          reference.params[found->second];
      if (theirs.dtype != param.dtype || theirs.count != param.count)
        return launch.emitError("cannot map the parameters of @")
               << kernelName << " to the reference's: buffer argument #" << i
               << " has " << param.count << " elements of "
               << ::autoprof::runtime::dtypeName(param.dtype)
               << " but the reference's argument #" << found->second << " from "
               << origin << " has " << theirs.count << " elements of "
               << ::autoprof::runtime::dtypeName(theirs.dtype);
      param.role = theirs.role;
      param.indexBound = theirs.indexBound;
      param.sorted = theirs.sorted;
      param.range = theirs.range;
      received[found->second] = true;
      map.push_back(found->second);
      continue;
    }
    // The scalar a repeated launch varies matches only its counterpart.
    bool varies = candidate.repeat && candidate.repeat->param == i;
    auto *match =
        std::find_if(nextScalar, referenceScalars.end(), [&](unsigned r) {
          bool theirsVaries = reference.repeat && reference.repeat->param == r;
          return varies == theirsVaries &&
                 isSameScalar(reference.params[r], param);
        });
    if (match == referenceScalars.end())
      return launch.emitError("cannot map the parameters of @")
             << kernelName << " to the reference's: scalar argument #" << i
             << " (" << describeScalar(param)
             << ") matches no later scalar argument of the reference launch "
                "(same type and value)";
    received[*match] = true;
    map.push_back(*match);
    nextScalar = match + 1;
  }
  for (unsigned r = 0; r < reference.params.size(); ++r)
    if (!reference.params[r].isScalar && !received[r])
      return launch.emitError("cannot map the parameters of @")
             << kernelName << " to the reference's: the reference launch "
             << "passes buffer argument #" << r << " ("
             << describeBufferOrigin(referenceLaunch.getKernelOperand(r),
                                     referenceLaunch)
             << ") but this launch does not";
  return map;
}

LogicalResult mlir::autoprof::checkWorkerDeadline(ModuleOp module,
                                                  unsigned seconds) {
  if (seconds >= 1 && seconds <= 86400)
    return success();
  return emitError(module.getLoc(),
                   "deadline must be between 1 and 86400 seconds, got ")
         << seconds;
}

std::optional<unsigned>
mlir::autoprof::getMinimumPtxVersion(StringRef chip) {
  return llvm::StringSwitch<std::optional<unsigned>>(chip)
      .Case("sm_75", 63)
      .Case("sm_80", 70)
      .Case("sm_86", 71)
      .Case("sm_87", 74)
      .Cases({"sm_89", "sm_90"}, 78)
      .Case("sm_90a", 80)
      .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
      .Cases({"sm_120", "sm_120a"}, 87)
      .Cases({"sm_103", "sm_103a", "sm_121", "sm_121a"}, 88)
      .Default(std::nullopt);
}

LogicalResult mlir::autoprof::checkJobOptions(Location loc, StringRef pass,
                                              StringRef chip,
                                              std::optional<int> device,
                                              std::optional<double> timeBudget) {
  if (!getMinimumPtxVersion(chip))
    return emitError(loc) << pass << ": option chip: unsupported chip '"
                          << chip
                          << "'; expected an NVIDIA architecture from sm_75 "
                             "to sm_121a supported by CUDA 13, e.g. sm_90";
  if (device && *device < 0)
    return emitError(loc) << pass << ": option device: expected a CUDA device "
                                     "number (0 or more), got "
                          << *device;
  if (timeBudget &&
      (!std::isfinite(*timeBudget) || *timeBudget < 0 || *timeBudget > 3600))
    return emitError(loc) << pass
                          << ": option time-budget: expected seconds from 0 "
                             "to 3600, got "
                          << llvm::formatv("{0}", llvm::format("%g", *timeBudget))
                                 .str();
  return success();
}

FailureOr<llvm::StringMap<std::string>>
mlir::autoprof::lowerModulesToPTX(ModuleOp module, StringRef chip,
                                  StringRef features) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  LowerToPTXPassOptions options;
  options.chip = chip.str();
  options.features = features.str();
  pm.addPass(createLowerToPTXPass(options));
  if (failed(pm.run(*copy)))
    return failure();
  llvm::StringMap<std::string> ptx;
  for (auto binary : copy->getOps<gpu::BinaryOp>())
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        if (object.getFormat() == gpu::CompilationTarget::Assembly)
          ptx[binary.getSymName()] = object.getObject().getValue().str();
  return ptx;
}

/// The element type of a vector, or `type` itself (not a memref's element).
static Type getScalarType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementType();
  return type;
}

/// Whether `type` is a float or a vector of floats.
static bool isFloatLike(Type type) {
  return isa<FloatType>(getScalarType(type));
}

/// Whether `type` is an integer or index, or a vector of them.
static bool isIntegerLike(Type type) {
  return isa<IntegerType, IndexType>(getScalarType(type));
}

std::vector<autoprof_distribution>
mlir::autoprof::getBaseVerifyDistributions() {
  return ::autoprof::runtime::EvaluationJob().verifyDistributions;
}

std::vector<autoprof_distribution>
mlir::autoprof::getVerifyDistributions(gpu::GPUFuncOp reference,
                                       std::string *why) {
  std::vector<autoprof_distribution> distributions =
      getBaseVerifyDistributions();
  auto refuse = [&](const Twine &reason) {
    if (why)
      *why = reason.str();
    return distributions;
  };
  bool readsFloats = llvm::any_of(reference.getArguments(), [](Value arg) {
    auto memref = dyn_cast<MemRefType>(arg.getType());
    return memref && isFloatLike(memref.getElementType()) &&
           inferBufferRole(arg) != ::autoprof::runtime::BufferRole::Output;
  });
  if (!readsFloats)
    return refuse("it reads no float buffer");
  std::string offending;
  reference.walk([&](Operation *op) {
    // Loops whose end a float may decide.
    if (isa<scf::WhileOp>(op) || op->getName().getDialectNamespace() == "cf" ||
        isa<LLVM::BrOp, LLVM::CondBrOp>(op)) {
      offending = "it has a loop or branch of its own (" +
                  op->getName().getStringRef().str() + ")";
      return WalkResult::interrupt();
    }
    // A float turned into an integer can become an address or a trip
    // count; comparisons give the same answer to both kernels.
    if (isa<arith::CmpFOp, LLVM::FCmpOp>(op))
      return WalkResult::advance();
    bool fromFloat = llvm::any_of(op->getOperandTypes(), isFloatLike);
    bool toInteger = llvm::any_of(op->getResultTypes(), isIntegerLike);
    if (fromFloat && toInteger) {
      offending = "it turns a float into an integer (" +
                  op->getName().getStringRef().str() + ")";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!offending.empty())
    return refuse(offending);
  distributions.push_back(AUTOPROF_DIST_SPECIAL);
  return distributions;
}

std::optional<std::vector<unsigned>>
mlir::autoprof::asReferenceParams(std::vector<unsigned> map,
                                  size_t numReferenceParams) {
  bool identity = map.size() == numReferenceParams;
  for (unsigned i = 0; identity && i < map.size(); ++i)
    identity = map[i] == i;
  if (identity)
    return std::nullopt;
  return map;
}
