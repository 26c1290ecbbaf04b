//===- RewriteFamily.cpp - Rewrite families and their registry ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/RewriteFamily.h"

#include "Families/Families.h"
#include "Families/NestGeneration.h"
#include "RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Raise/IterationSpace.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

RewritePlan::~RewritePlan() = default;
RewriteFamily::~RewriteFamily() = default;

RewriteTarget RewriteTarget::get(ModuleOp module, gpu::GPUFuncOp kernel,
                                 const GpuTarget *gpu) {
  RewriteTarget target{module, kernel, getLaunches(module, kernel)};
  if (gpu) {
    target.gpu = gpu;
    return target;
  }
  if (auto container = kernel->getParentOfType<gpu::GPUModuleOp>())
    if (ArrayAttr targets = container.getTargetsAttr())
      for (Attribute attr : targets)
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr))
          if (const GpuTarget *known = findGpuTarget(nvvm.getChip())) {
            target.gpu = known;
            break;
          }
  return target;
}

RewriteMatch RewriteMatch::success(std::unique_ptr<RewritePlan> plan) {
  RewriteMatch match;
  match.plan = std::move(plan);
  return match;
}

RewriteMatch RewriteMatch::failure(std::string reason) {
  RewriteMatch match;
  match.reason = std::move(reason);
  return match;
}

//===----------------------------------------------------------------------===//
// Evidence
//===----------------------------------------------------------------------===//

double RewriteEvidence::getFeature(StringRef name) const {
  return getNumericValue(features ? features.get(name) : Attribute())
      .value_or(0);
}

double RewriteEvidence::getMultiprocessors() const {
  std::optional<double> sms = getMetric("launch__sm_count");
  return sms && *sms >= 1 ? *sms : double(gpu->multiprocessors);
}

std::string RewriteEvidence::describeMultiprocessors() const {
  std::optional<double> sms = getMetric("launch__sm_count");
  if (sms && *sms >= 1)
    return "";
  return (" (launch__sm_count not collected: " + gpu->chip + "'s, " +
          gpu->part + ")")
      .str();
}

double RewriteEvidence::getResidentThreadSlots() const {
  std::optional<double> warps =
      getMetric("device__attribute_max_warps_per_multiprocessor");
  return getMultiprocessors() *
         (warps && *warps >= 1 ? *warps * 32
                               : double(gpu->threadsPerMultiprocessor));
}

std::optional<double> RewriteEvidence::getMetric(StringRef name) const {
  auto it = metrics.find(name);
  if (it == metrics.end())
    return std::nullopt;
  return it->second;
}

const BottleneckFact *RewriteEvidence::findFact(StringRef name) const {
  for (const BottleneckFact &fact : facts)
    if (fact.definition->name == name)
      return &fact;
  return nullptr;
}

FactState RewriteEvidence::getFact(StringRef name) const {
  const BottleneckFact *fact = findFact(name);
  return fact ? fact->state : FactState::Unknown;
}

std::optional<double> RewriteEvidence::getSectorExcess() const {
  if (!sectorsPerRequest || !sectorsNeededPerRequest ||
      *sectorsNeededPerRequest <= 0)
    return std::nullopt;
  return *sectorsPerRequest / *sectorsNeededPerRequest;
}

bool RewriteEvidence::isScattered() const {
  FactState measured = getFact("uncoalesced-loads");
  if (measured != FactState::Unknown)
    return measured == FactState::True;
  // Sectors counted without the bytes asked for (a profile that did not
  // collect them): more than 8 per request, as for 32-bit lanes.
  if (std::optional<double> excess = getSectorExcess())
    return *excess > 2;
  return sectorsPerRequest && *sectorsPerRequest > 8;
}

bool RewriteEvidence::isCoalesced() const {
  if (std::optional<double> excess = getSectorExcess())
    return *excess <= 1.25;
  return sectorsPerRequest && *sectorsPerRequest <= 5;
}

RewriteEvidence
RewriteEvidence::compute(const RewriteTarget &target, DictionaryAttr features,
                         const llvm::StringMap<double> &metrics) {
  RewriteEvidence evidence = fromMeasurements(features, metrics);
  evidence.gpu = target.gpu;
  evidence.memoryBound = evidence.getFeature("arith_intensity") < 4.0;

  // Sectors per global load request (MemoryWorkloadAnalysis): 4 when a warp
  // reads 128 contiguous bytes, 16 when it reads 512 in 128-bit vectors, up
  // to 32 when every lane hits its own sector; and the sectors the bytes
  // the lanes ask for fill.
  if (std::optional<double> requests = evidence.getMetric(
          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
      requests && *requests > 0) {
    // The two figures of a ratio come from one source: the bytes only
    // with the sectors they are compared with (the analysis counts a lane
    // that shares an address once, the counter every lane).
    std::optional<double> sectors = evidence.getMetric(
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    std::optional<double> bytes =
        evidence.getMetric("smsp__sass_data_bytes_mem_global_op_ld.sum");
    if (sectors)
      evidence.sectorsPerRequest = *sectors / *requests;
    if (sectors && bytes && *bytes > 0)
      evidence.sectorsNeededPerRequest = *bytes / 32 / *requests;
  }
  MemoryAccessAnalysis analysis(target.kernel,
                                getUniformBlock(target.launches));
  {
    std::array<int64_t, 3> block = analysis.getBlockSize();
    double walked = 0, total = 0;
    for (const MemoryAccess &access : analysis.getAccesses()) {
      if (!access.reads || access.writes || access.shared || !access.address)
        continue;
      // Distinct addresses: an accumulator loaded at one address every
      // iteration is one element of traffic, not one per iteration.
      double bytes =
          static_cast<double>(std::max<int64_t>(1, access.addressesPerThread) *
                              access.elementBytes * access.vectorWidth);
      // An address every thread shares (a matrix-vector product's vector) is
      // one request for a whole warp: a 32nd of a thread's own traffic.
      if (access.threadAffine &&
          llvm::all_of(access.threadStride, [](int64_t s) { return s == 0; }) &&
          llvm::all_of(access.blockStride, [](int64_t s) { return s == 0; }))
        bytes /= 32;
      total += bytes;
      // The innermost loop the address varies with moves it by one element
      // over a row of at least a warp's width (a window of a few taps is
      // not a row), and no thread dimension of the block does: threads read
      // apart.
      bool loopWalks = false;
      for (int l = static_cast<int>(access.loops.size()) - 1; l >= 0; --l) {
        if (!access.loopVariant[l])
          continue;
        scf::ForOp loop = access.loops[l];
        std::optional<APInt> trips = loop.getStaticTripCount();
        for (auto [atom, coefficient] : access.address->terms)
          if (analysis.getAtoms()[atom].value == loop.getInductionVar())
            loopWalks = std::abs(coefficient) == 1 && trips &&
                        trips->getZExtValue() >= 32;
        break;
      }
      bool threadsApart = false, threadWalks = false;
      for (int d = 0; d < 3; ++d) {
        if (block[d] < 2)
          continue;
        threadWalks |= std::abs(access.threadStride[d]) == 1;
        threadsApart |= access.threadStride[d] != 0;
      }
      if (loopWalks && threadsApart && !threadWalks)
        walked += bytes;
    }
    if (total > 0)
      evidence.rowWalkShare = walked / total;
  }
  evidence.windowShare = std::max(analysis.getWindowShare(gpu::Dimension::y),
                                  analysis.getWindowShare(gpu::Dimension::z));
  evidence.windowShareX = analysis.getWindowShare(gpu::Dimension::x);
  // The iteration space, where the kernel raises to one.
  std::string why;
  if (FailureOr<IterationSpace> space = raiseKernel(target.kernel, analysis, why);
      succeeded(space)) {
    evidence.raises = true;
    const SpaceDim &contiguous = space->dims[space->getContiguousDim()];
    evidence.raisedContiguousOnX =
        contiguous.hardware == gpu::Dimension::x &&
        (contiguous.source == SpaceDimSource::Global ||
         contiguous.source == SpaceDimSource::Thread) &&
        space->blockSize[0] >= 32;
    evidence.raisedContiguousInLoop =
        contiguous.source == SpaceDimSource::Loop;
    // A reduction of at least a warp's width over an input that some
    // parallel dimension (of more than one point) does not index: several
    // points share its elements.
    evidence.raisedParallelPoints = double(space->getParallelPoints());
    evidence.raisedReductionPoints = double(space->getReductionPoints());
    NestProblem problem = rewrites::getNestProblem(*space);
    evidence.raisedContiguousReduction = problem.contiguousReduction.has_value();
    evidence.raisedSplitLimit = getNestSplitLimit(problem);
    if (space->getReductionPoints() >= 32)
      for (const SpaceOperand &operand : space->operands)
        for (unsigned d : space->getParallelDims())
          evidence.raisedContraction |= !operand.written &&
                                        space->dims[d].extent > 1 &&
                                        !operand.map.isFunctionOfDim(d);
  }
  // Without the counters, the static analysis estimates the same ratios
  // from each global load's address and width.
  {
    double sectors = 0, needed = 0, requests = 0;
    for (const MemoryAccess &access : analysis.getAccesses())
      if (access.reads && !access.writes && !access.shared &&
          access.sectorsPerRequest > 0) {
        double weight = std::max<int64_t>(1, access.executionsPerThread);
        // Per 32 lanes, as the counter counts a full warp's request.
        sectors += weight * access.sectorsPerRequest;
        // Lanes that share an address need its sector once.
        needed += weight * std::max(1.0, access.bytesPerRequest / 32.0);
        requests += weight * std::max<int64_t>(1, access.warpLanes) / 32.0;
      }
    // Both or neither: sectors measured without the bytes keep the
    // sectors-per-request tests (isScattered, isCoalesced).
    if (requests > 0 && !evidence.sectorsPerRequest) {
      evidence.sectorsPerRequest = sectors / requests;
      evidence.sectorsNeededPerRequest = needed / requests;
    }
  }

  gpu::GPUFuncOp kernel = target.kernel;
  kernel.walk([&](Operation *op) {
    Value memref;
    bool stores = false;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      stores = true;
    }
    Type element =
        memref ? cast<MemRefType>(memref.getType()).getElementType() : Type();
    if (!element || !element.isIntOrFloat() ||
        element.getIntOrFloatBitWidth() < 8)
      return;
    int64_t bytes = std::min<int64_t>(4, element.getIntOrFloatBitWidth() / 8);
    evidence.narrowestElementBytes =
        std::min(evidence.narrowestElementBytes, bytes);
    if (stores)
      evidence.widestStoredElementBytes =
          std::max(evidence.widestStoredElementBytes, bytes);
  });
  return evidence;
}

RewriteEvidence
RewriteEvidence::fromMeasurements(DictionaryAttr features,
                                  const llvm::StringMap<double> &metrics) {
  RewriteEvidence evidence;
  evidence.features = features;
  evidence.metrics = metrics;
  evidence.facts = diagnose(metrics);
  evidence.blockThreads = evidence.getFeature("block_threads");
  evidence.gridBlocks = evidence.getFeature("grid_blocks");
  evidence.registersPerThread =
      evidence.getMetric("launch__registers_per_thread").value_or(0);
  std::optional<double> registerLimit =
      evidence.getMetric("launch__occupancy_limit_registers");
  evidence.registerBound = evidence.registersPerThread > 64 ||
                           (registerLimit && *registerLimit <= 4) ||
                           evidence.getFact("low-occupancy") == FactState::True;
  return evidence;
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

RewriteFamilyRegistry::RewriteFamilyRegistry() {
  registerBuiltinRewriteFamilies(*this);
}

RewriteFamilyRegistry &RewriteFamilyRegistry::get() {
  static RewriteFamilyRegistry registry;
  return registry;
}

LogicalResult
RewriteFamilyRegistry::add(std::unique_ptr<RewriteFamily> family) {
  if (!byName.try_emplace(family->getName(), family.get()).second)
    return failure();
  families.push_back(std::move(family));
  return success();
}

const RewriteFamily *RewriteFamilyRegistry::lookup(StringRef name) const {
  return byName.lookup(name);
}

SmallVector<const RewriteFamily *> RewriteFamilyRegistry::getFamilies() const {
  SmallVector<const RewriteFamily *> result;
  for (const std::unique_ptr<RewriteFamily> &family : families)
    result.push_back(family.get());
  return result;
}

void mlir::autoprof::registerBuiltinRewriteFamilies(
    RewriteFamilyRegistry &registry) {
  // Those RewriteFamilies.td declares for MLIR kernels, in its order, which
  // breaks ties between equal scores.
#define AUTOPROF_MLIR_REWRITE_FAMILY(Name)                                     \
  (void)registry.add(create##Name##Family());
#define GET_MLIR_REWRITE_FAMILIES
#include "autoprof/Optimizer/RewriteFamilies.h.inc"
}
