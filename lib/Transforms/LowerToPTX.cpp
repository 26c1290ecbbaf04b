//===- LowerToPTX.cpp - Lower gpu.modules to PTX --------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMRequiresSMTraits.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_LOWERTOPTXPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

void mlir::autoprof::registerPTXLoweringExtensions(DialectRegistry &registry) {
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}


/// PTX ISA versions (times ten) the LLVM 22 NVPTX backend can emit.
static bool isKnownPtxVersion(unsigned version) {
  static const unsigned known[] = {60, 61, 62, 63, 64, 65, 70, 71, 72,
                                   73, 74, 75, 76, 77, 78, 80, 81, 82,
                                   83, 84, 85, 86, 87, 88, 90};
  return llvm::is_contained(known, version);
}

namespace {
struct LowerToPTXPass
    : public mlir::autoprof::impl::LowerToPTXPassBase<LowerToPTXPass> {
  using Base::Base;

  void runOnOperation() override;

  /// The nested pipeline creates ops of many dialects (cf, llvm, nvvm, ...);
  /// they must be loaded before the pass runs multithreaded.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    OpPassManager pm(ModuleOp::getOperationName());
    buildLoweringPipeline(pm);
    buildSerializationPipeline(pm);
    pm.getDependentDialects(registry);
    registerPTXLoweringExtensions(registry);
  }

private:
  /// The device half of upstream's gpu-lower-to-nvvm-pipeline, applied to the
  /// gpu.modules only, so host code keeps its launches and buffers.
  void buildLoweringPipeline(OpPassManager &pm) const;
  /// From the gpu.modules in the LLVM and NVVM dialects to gpu.binary ops.
  void buildSerializationPipeline(OpPassManager &pm) const;
  /// Rejects, at its place in the input, an op the lowering left in another
  /// dialect than LLVM and NVVM, which the translation to LLVM IR would
  /// refuse without saying where.
  LogicalResult checkLowered(ModuleOp module);
  /// Rejects option combinations the NVPTX backend would abort on.
  LogicalResult validateOptions(Location loc);
  /// The CUDA toolkit to take libdevice from, or "" when none is found.
  std::string findCudaToolkit() const;
  /// Rejects what the NVPTX backend would abort on or silently mishandle:
  /// names that are not PTX identifiers, gpu.modules that are not direct
  /// children of the module, and targets already attached to a gpu.module.
  LogicalResult checkModulesCanBeLowered(ModuleOp module);
  /// Rejects PTX that still calls libdevice functions nobody linked.
  LogicalResult checkResolvedCalls(ModuleOp module);
  /// Writes the PTX of every gpu.binary to `ptxDir`.
  LogicalResult writePtxFiles(ModuleOp module);
};
} // namespace

LogicalResult LowerToPTXPass::validateOptions(Location loc) {
  std::optional<unsigned> minimum = getMinimumPtxVersion(chip);
  if (!minimum)
    return emitError(loc, "unsupported chip '")
           << chip
           << "'; expected an NVIDIA architecture from sm_75 to sm_121a "
              "supported by CUDA 13, e.g. sm_90";
  SmallVector<StringRef> entries;
  StringRef(features).split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::optional<unsigned> ptx;
  for (StringRef entry : entries) {
    entry = entry.trim();
    unsigned version;
    if (!entry.consume_front("+ptx") || entry.getAsInteger(10, version))
      return emitError(loc, "unsupported feature '")
             << entry << "' in features=\"" << features
             << "\"; expected one PTX version such as +ptx80";
    if (ptx)
      return emitError(loc, "features=\"")
             << features << "\" names more than one PTX version";
    ptx = version;
  }
  if (!ptx)
    return emitError(loc, "features=\"")
           << features
           << "\" names no PTX version; the backend's default is too old for "
           << chip << ", pass e.g. +ptx" << *minimum;
  if (!isKnownPtxVersion(*ptx))
    return emitError(loc, "PTX version ")
           << *ptx / 10 << "." << *ptx % 10
           << " is not known to the LLVM NVPTX backend (6.0 to 9.0)";
  if (*ptx < *minimum)
    return emitError(loc, "chip ")
           << chip << " needs PTX " << *minimum / 10 << "." << *minimum % 10
           << " or newer, but features=\"" << features << "\" asks for "
           << *ptx / 10 << "." << *ptx % 10;
  if (!cudaPath.empty()) {
    SmallString<128> libdevice(cudaPath);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (!llvm::sys::fs::exists(libdevice))
      return emitError(loc, "cuda-path '")
             << cudaPath << "' is not a CUDA toolkit: " << libdevice
             << " does not exist";
  }
  if (optLevel > 3)
    return emitError(loc, "opt-level must be between 0 and 3, got ")
           << static_cast<unsigned>(optLevel);
  return success();
}

std::string LowerToPTXPass::findCudaToolkit() const {
  if (!cudaPath.empty())
    return cudaPath;
  SmallVector<std::string> candidates;
  for (const char *variable : {"CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(variable))
      candidates.push_back(*value);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &candidate : candidates) {
    SmallString<128> libdevice(candidate);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      return candidate;
  }
  return "";
}

/// Whether `name` is a PTX identifier ([A-Za-z_$][A-Za-z0-9_$]*).
static bool isPtxIdentifier(StringRef name) {
  auto isStart = [](char c) {
    return llvm::isAlpha(c) || c == '_' || c == '$';
  };
  return !name.empty() && isStart(name.front()) &&
         llvm::all_of(name.drop_front(),
                      [&](char c) { return isStart(c) || llvm::isDigit(c); });
}

/// The scalar type of `type` (the element type of a vector or memref).
static Type getScalarType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

/// Why the device pipeline cannot lower `op` for the types it computes on,
/// or nothing.
static std::optional<std::string> findUnloweredType(Operation *op) {
  auto describe = [](Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return text;
  };
  // Memory effects alone (loads, stores, allocations) move the bits; what
  // computes on them needs the arithmetic.
  bool moves = isa<memref::LoadOp, memref::StoreOp, memref::AllocaOp,
                   memref::AllocOp, gpu::GPUFuncOp, gpu::ReturnOp>(op);
  for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                            op->getResultTypes())) {
    auto scalar = dyn_cast<FloatType>(getScalarType(type));
    if (!scalar || moves)
      continue;
    if (scalar.getWidth() > 64)
      return "computes on " + describe(scalar) +
             ", which the NVPTX backend has no arithmetic for";
    if (scalar.getWidth() < 16)
      return "computes on " + describe(scalar) +
             ", which the arith lowering to LLVM does not handle";
  }
  if (isa<arith::FPToSIOp, arith::FPToUIOp, arith::SIToFPOp,
          arith::UIToFPOp>(op))
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes()))
      if (auto integer = dyn_cast<IntegerType>(getScalarType(type));
          integer && integer.getWidth() > 64)
        return "converts between a float and " + describe(integer) +
               ", which the NVPTX backend can do only through a library "
               "call it does not have";
  return std::nullopt;
}

/// The compute capability (times ten) of `chip`: 90 for sm_90 and sm_90a.
static unsigned getComputeCapability(StringRef chip) {
  unsigned capability = 0;
  chip.consume_front("sm_");
  chip.take_while(llvm::isDigit).getAsInteger(10, capability);
  return capability;
}

/// The oldest compute capability (times ten) whose PTX has the warp-level
/// matrix product of `shape` on `type` (the PTX ISA's mma instruction).
static unsigned getMmaCapability(int64_t m, int64_t n, int64_t k,
                                 NVVM::MMATypes type) {
  auto shapeIs = [&](int64_t sm, int64_t sn, int64_t sk) {
    return m == sm && n == sn && k == sk;
  };
  switch (type) {
  case NVVM::MMATypes::f16:
    if (shapeIs(8, 8, 4))
      return 70;
    return shapeIs(16, 8, 8) ? 75 : 80;
  case NVVM::MMATypes::s8:
  case NVVM::MMATypes::u8:
    return shapeIs(8, 8, 16) ? 75 : 80;
  case NVVM::MMATypes::s4:
  case NVVM::MMATypes::u4:
    return shapeIs(8, 8, 32) ? 75 : 80;
  case NVVM::MMATypes::b1:
    return shapeIs(8, 8, 128) ? 75 : 80;
  case NVVM::MMATypes::e4m3:
  case NVVM::MMATypes::e5m2:
    return 89;
  case NVVM::MMATypes::e3m2:
  case NVVM::MMATypes::e2m3:
  case NVVM::MMATypes::e2m1:
    return 120;
  default: // bf16, tf32, f64 and the accumulator types
    return 80;
  }
}

/// The multiplicands' PTX type of an nvgpu.mma.sync or nvgpu.mma.sp.sync
/// with `a` as its first matrix.
static NVVM::MMATypes getMultiplicandType(Value a, bool tf32) {
  Type element = getScalarType(a.getType());
  if (element.isF16())
    return NVVM::MMATypes::f16;
  if (element.isBF16())
    return NVVM::MMATypes::bf16;
  if (element.isF64())
    return NVVM::MMATypes::f64;
  if (element.isInteger(8))
    return NVVM::MMATypes::s8;
  if (element.isInteger(4))
    return NVVM::MMATypes::s4;
  if (element.isInteger(1))
    return NVVM::MMATypes::b1;
  return tf32 || element.isF32() ? NVVM::MMATypes::tf32 : NVVM::MMATypes::f32;
}

/// The oldest compute capability (times ten) that has the instruction `op`
/// becomes, where the NVPTX backend would abort ("Cannot select") on an
/// older chip instead of reporting it, with what the instruction is; or
/// nothing. (NVVM ops that declare the chips they need, NVVMRequiresSM,
/// are checked by what they declare.)
static std::optional<std::pair<unsigned, std::string>>
getRequiredCapability(Operation *op) {
  auto mma = [](int64_t m, int64_t n, int64_t k, NVVM::MMATypes type) {
    return std::make_pair(
        getMmaCapability(m, n, k, type),
        llvm::formatv("the m{0}n{1}k{2} matrix product on {3}", m, n, k,
                      NVVM::stringifyMMATypes(type))
            .str());
  };
  if (auto sync = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    std::array<int64_t, 3> shape = sync.getMmaShapeAsArray();
    return mma(shape[0], shape[1], shape[2],
               getMultiplicandType(sync.getMatrixA(),
                                   sync.getTf32Enabled().value_or(false)));
  }
  if (auto sparse = dyn_cast<nvgpu::MmaSparseSyncOp>(op)) {
    std::array<int64_t, 3> shape = sparse.getMmaShapeAsArray();
    return std::make_pair(80u, llvm::formatv("the sparse m{0}n{1}k{2} matrix "
                                             "product",
                                             shape[0], shape[1], shape[2])
                                   .str());
  }
  if (auto sync = dyn_cast<NVVM::MmaOp>(op)) {
    NVVM::MMAShapeAttr shape = sync.getShape();
    std::optional<NVVM::MMATypes> type = sync.getMultiplicandAPtxType();
    if (!type && !sync.getOperandA().empty())
      type = getMultiplicandType(sync.getOperandA().front(), false);
    return mma(shape.getM(), shape.getN(), shape.getK(),
               type.value_or(NVVM::MMATypes::f16));
  }
  // Copies from global to shared memory without registers (cp.async), and
  // their bulk and tensor forms.
  StringRef name = op->getName().getStringRef();
  if (name.starts_with("nvvm.cp.async.bulk") ||
      name.starts_with("nvgpu.tma.") || name.starts_with("nvgpu.warpgroup."))
    return std::make_pair(90u, ("'" + name + "'").str());
  if (isa<nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
          nvgpu::DeviceAsyncWaitOp>(op) ||
      name.starts_with("nvvm.cp.async.") || name.starts_with("nvgpu.mbarrier."))
    return std::make_pair(80u, ("'" + name + "'").str());
  return std::nullopt;
}

/// Why the NVVM launch-bound attributes of `func` cannot become PTX
/// directives: `nvvm.maxntid`/`nvvm.reqntid` must hold one to three block
/// sizes of 1 to 1024 threads (at most 1024 in all), `nvvm.minctasm` and
/// `nvvm.maxnreg` a positive number.
static std::optional<std::string> checkLaunchBounds(gpu::GPUFuncOp func) {
  for (StringRef name : {"nvvm.maxntid", "nvvm.reqntid"}) {
    Attribute attr = func->getAttr(name);
    if (!attr)
      continue;
    auto sizes = dyn_cast<DenseI32ArrayAttr>(attr);
    if (!sizes || sizes.empty() || sizes.size() > 3)
      return (name + " must be an array<i32> of one to three block sizes")
          .str();
    int64_t threads = 1;
    for (int32_t size : sizes.asArrayRef()) {
      if (size < 1 || size > 1024)
        return (name + " holds " + Twine(size) +
                ", not a block size (1 to 1024 threads)")
            .str();
      threads *= size;
    }
    if (threads > 1024)
      return (name + " asks for blocks of " + Twine(threads) +
              " threads, more than 1024")
          .str();
  }
  for (StringRef name : {"nvvm.minctasm", "nvvm.maxnreg"}) {
    Attribute attr = func->getAttr(name);
    if (!attr)
      continue;
    auto value = dyn_cast<IntegerAttr>(attr);
    if (!value || value.getValue().getSExtValue() < 1)
      return (name + " must be a positive integer").str();
  }
  return std::nullopt;
}

LogicalResult LowerToPTXPass::checkModulesCanBeLowered(ModuleOp module) {
  WalkResult result = module.walk([&](gpu::GPUModuleOp gpuModule) {
    if (gpuModule->getParentOp() != module.getOperation()) {
      gpuModule.emitError("gpu.module @")
          << gpuModule.getName()
          << " is nested inside another op; autoprof-lower-to-ptx lowers "
             "the gpu.modules that are direct children of the module";
      return WalkResult::interrupt();
    }
    if (gpuModule.getTargetsAttr() && !gpuModule.getTargetsAttr().empty()) {
      gpuModule.emitError("gpu.module @")
          << gpuModule.getName()
          << " already has targets; autoprof-lower-to-ptx attaches its own "
             "(chip and features options), remove them first";
      return WalkResult::interrupt();
    }
    SmallVector<StringRef> names = {gpuModule.getName()};
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
      names.push_back(func.getName());
    for (StringRef name : names) {
      if (!isPtxIdentifier(name)) {
        gpuModule.emitError("'")
            << name
            << "' is not a PTX identifier ([A-Za-z_$][A-Za-z0-9_$]*); rename "
               "it before lowering to PTX";
        return WalkResult::interrupt();
      }
    }
    // Launch bounds the NVVM translation would refuse without saying where.
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
      if (std::optional<std::string> why = checkLaunchBounds(func)) {
        func.emitError("@") << func.getName() << ": " << *why;
        return WalkResult::interrupt();
      }
    // Types the device pipeline cannot lower: the NVPTX backend has no f80
    // or f128 arithmetic and no conversion between floats and integers of
    // more than 64 bits (it would call a library it does not have and
    // abort), and arith-to-llvm lowers no float of fewer than 16 bits.
    WalkResult types = gpuModule.walk([&](Operation *op) {
      if (std::optional<std::string> why = findUnloweredType(op)) {
        op->emitError("'") << op->getName() << "' " << *why
                           << "; autoprof-lower-to-ptx cannot lower it";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (types.wasInterrupted())
      return WalkResult::interrupt();
    // Instructions the chip does not have: those of NVVM ops that declare
    // the chips they need (which the NVVM target checks as well, after
    // the lowering, without the op's place in the input), and those that
    // the NVPTX backend would abort on.
    unsigned capability = getComputeCapability(chip);
    NVVM::NVVMCheckSMVersion target(StringRef(chip).ends_with("a"),
                                    int(capability));
    WalkResult instructions = gpuModule.walk([&](Operation *op) {
      if (auto declared = dyn_cast<NVVM::RequiresSMInterface>(op)) {
        NVVM::NVVMCheckSMVersion needed = declared.getRequiredMinSMVersion();
        if (needed.isCompatibleWith(target))
          return WalkResult::advance();
        InFlightDiagnostic diag = op->emitError("'")
                                  << op->getName() << "' needs ";
        llvm::interleave(
            needed.smVersionList, diag,
            [&](int version) {
              diag << "sm_" << version << (needed.archAccelerated ? "a" : "");
            },
            " or ");
        if (!needed.archAccelerated)
          diag << " or newer";
        diag << "; chip is " << chip;
        return WalkResult::interrupt();
      }
      std::optional<std::pair<unsigned, std::string>> required =
          getRequiredCapability(op);
      if (!required || required->first <= capability)
        return WalkResult::advance();
      op->emitError() << required->second << " needs sm_" << required->first
                      << " or newer; chip is " << chip;
      return WalkResult::interrupt();
    });
    if (instructions.wasInterrupted())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult LowerToPTXPass::checkResolvedCalls(ModuleOp module) {
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      StringRef ptx = object.getObject().getValue();
      size_t pos = ptx.find(".extern .func");
      if (pos == StringRef::npos)
        continue;
      StringRef rest = ptx.substr(pos);
      size_t name = rest.find("__nv_");
      if (name == StringRef::npos)
        continue;
      StringRef function = rest.substr(name).take_until(
          [](char c) { return !(llvm::isAlnum(c) || c == '_'); });
      return emitError(binary.getLoc(), "kernels in @")
             << binary.getSymName() << " call libdevice function '" << function
             << "' but no CUDA toolkit with nvvm/libdevice/libdevice.10.bc "
                "was found; set CUDA_HOME or pass cuda-path=";
    }
  }
  return success();
}

LogicalResult LowerToPTXPass::writePtxFiles(ModuleOp module) {
  if (std::error_code ec = llvm::sys::fs::create_directories(ptxDir))
    return emitError(module.getLoc(), "cannot create ptx-dir '")
           << ptxDir << "': " << ec.message();
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      SmallString<128> path(ptxDir);
      llvm::sys::path::append(path, binary.getSymName() + ".ptx");
      std::string error;
      auto file = openOutputFile(path, &error);
      if (!file)
        return emitError(binary.getLoc(), "cannot write '")
               << path << "': " << error;
      file->os() << object.getObject().getValue();
      file->keep();
    }
  }
  return success();
}

LogicalResult LowerToPTXPass::checkLowered(ModuleOp module) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    WalkResult result = gpuModule.walk([&](Operation *op) {
      if (op == gpuModule.getOperation() ||
          isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(op->getDialect()))
        return WalkResult::advance();
      // A cast left between a converted and an unconverted value: the op
      // on the unconverted side is the one that has no lowering.
      if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op)) {
        for (Operation *user : cast->getUsers())
          if (!isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(user->getDialect()))
            op = user;
        for (Value input : cast.getInputs())
          if (Operation *def = input.getDefiningOp();
              def &&
              !isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(def->getDialect()))
            op = def;
      }
      std::string types;
      llvm::raw_string_ostream os(types);
      llvm::interleaveComma(
          llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()),
          os);
      op->emitError("'") << op->getName() << "' (on " << types
                         << ") has no lowering to the LLVM and NVVM dialects "
                            "in autoprof-lower-to-ptx's pipeline";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

void LowerToPTXPass::buildLoweringPipeline(OpPassManager &pm) const {
  // The device half of upstream's gpu-lower-to-nvvm-pipeline, applied to the
  // gpu.modules only, so the host code keeps its launches and buffers.
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createLowerAffinePass());
  device.addPass(createConvertVectorToSCFPass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  toNVVM.indexBitwidth = 64;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
}

void LowerToPTXPass::buildSerializationPipeline(OpPassManager &pm) const {
  // Locations go last: a conversion that fails reports the op's place in
  // the input, and the PTX carries no line information either way.
  pm.nest<gpu::GPUModuleOp>().addPass(createStripDebugInfoPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = chip;
  target.features = features;
  target.optLevel = optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  toBinary.toolkitPath = findCudaToolkit();
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
}

void LowerToPTXPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(validateOptions(module.getLoc())))
    return signalPassFailure();
  if (module.getOps<gpu::GPUModuleOp>().empty()) {
    module.emitWarning("no gpu.module to lower to PTX");
    return;
  }
  if (failed(checkModulesCanBeLowered(module)))
    return signalPassFailure();

  OpPassManager lowering(ModuleOp::getOperationName());
  buildLoweringPipeline(lowering);
  if (failed(runPipeline(lowering, module)) || failed(checkLowered(module)))
    return signalPassFailure();
  OpPassManager serialization(ModuleOp::getOperationName());
  buildSerializationPipeline(serialization);
  if (failed(runPipeline(serialization, module)))
    return signalPassFailure();
  if (failed(checkResolvedCalls(module)))
    return signalPassFailure();
  if (!ptxDir.empty() && failed(writePtxFiles(module)))
    return signalPassFailure();
}
