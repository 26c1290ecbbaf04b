//===- MemoryAccess.cpp - Kernel memory accesses as affine forms ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::autoprof;

int64_t AffineIndex::coefficientOf(unsigned atom) const {
  for (auto [index, coefficient] : terms)
    if (index == atom)
      return coefficient;
  return 0;
}

/// a + scale * b, or nothing on overflow.
static std::optional<AffineIndex> combine(const AffineIndex &a,
                                          const AffineIndex &b, int64_t scale) {
  AffineIndex result = a;
  std::optional<int64_t> scaled = llvm::checkedMul(b.constant, scale);
  std::optional<int64_t> constant =
      scaled ? llvm::checkedAdd(result.constant, *scaled) : std::nullopt;
  if (!constant)
    return std::nullopt;
  result.constant = *constant;
  for (auto [atom, coefficient] : b.terms) {
    std::optional<int64_t> term = llvm::checkedMul(coefficient, scale);
    if (!term)
      return std::nullopt;
    unsigned index = atom;
    auto it = llvm::find_if(result.terms,
                            [&](auto &entry) { return entry.first == index; });
    if (it == result.terms.end()) {
      result.terms.push_back({atom, *term});
      continue;
    }
    std::optional<int64_t> sum = llvm::checkedAdd(it->second, *term);
    if (!sum)
      return std::nullopt;
    it->second = *sum;
  }
  llvm::erase_if(result.terms, [](auto &entry) { return entry.second == 0; });
  return result;
}

static std::optional<AffineIndex> scale(const AffineIndex &a, int64_t factor) {
  return combine(AffineIndex(), a, factor);
}

MemoryAccessAnalysis::MemoryAccessAnalysis(
    gpu::GPUFuncOp kernel, std::optional<std::array<int64_t, 3>> launchBlock,
    std::optional<std::array<int64_t, 3>> launchGrid)
    : kernel(kernel), solver(std::make_unique<DataFlowSolver>()) {
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownGridSize()) {
    for (int d = 0; d < 3; ++d)
      gridSize[d] = std::max<int64_t>(1, (*known)[d]);
  } else if (launchGrid) {
    for (int d = 0; d < 3; ++d)
      gridSize[d] = std::max<int64_t>(1, (*launchGrid)[d]);
  }
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
    knownBlockSize = true;
    for (int d = 0; d < 3; ++d)
      blockSize[d] = (*known)[d];
  } else if (launchBlock) {
    knownBlockSize = true;
    blockSize = *launchBlock;
  }
  solver->load<dataflow::DeadCodeAnalysis>();
  solver->load<dataflow::SparseConstantPropagation>();
  solver->load<dataflow::IntegerRangeAnalysis>();
  // A solver that cannot run leaves every range unknown, which only makes
  // the facts less precise.
  (void)solver->initializeAndRun(kernel);

  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      analyzeAccess(op, load.getMemRef(), load.getIndices(), 1, true, false,
                    false);
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      analyzeAccess(op, store.getMemRef(), store.getIndices(), 1, false, true,
                    false);
    else if (auto load = dyn_cast<vector::LoadOp>(op))
      analyzeAccess(op, load.getBase(), load.getIndices(),
                    load.getVectorType().getNumElements(), true, false, false);
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      analyzeAccess(op, store.getBase(), store.getIndices(),
                    store.getVectorType().getNumElements(), false, true, false);
    else if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op))
      analyzeAccess(op, rmw.getMemref(), rmw.getIndices(), 1, true, true, true);
    else if (auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(op))
      analyzeAccess(op, rmw.getMemref(), rmw.getIndices(), 1, true, true, true);
  });
  computeFootprints();
}

MemoryAccessAnalysis::~MemoryAccessAnalysis() = default;

std::pair<int64_t, int64_t> MemoryAccessAnalysis::getRange(Value value) const {
  auto *lattice =
      solver->lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return {INT64_MIN, INT64_MAX};
  const ConstantIntRanges &range = lattice->getValue().getValue();
  if (range.smin().getBitWidth() > 64)
    return {INT64_MIN, INT64_MAX};
  return {range.smin().getSExtValue(), range.smax().getSExtValue()};
}

unsigned MemoryAccessAnalysis::getAtom(Value value, IndexAtomKind kind) {
  auto [it, inserted] = atomOf.try_emplace(value, atoms.size());
  if (!inserted)
    return it->second;
  IndexAtom atom;
  atom.value = value;
  atom.kind = kind;
  std::tie(atom.lower, atom.upper) = getRange(value);
  std::string dims = "xyz";
  if (auto tid = value.getDefiningOp<gpu::ThreadIdOp>()) {
    atom.dim = tid.getDimension();
    atom.name = std::string("tid.") + dims[static_cast<int>(atom.dim)];
  } else if (auto bid = value.getDefiningOp<gpu::BlockIdOp>()) {
    atom.dim = bid.getDimension();
    atom.name = std::string("bid.") + dims[static_cast<int>(atom.dim)];
  } else if (kind == IndexAtomKind::InductionVar) {
    unsigned depth = 0;
    for (Operation *parent = value.getParentBlock()->getParentOp();
         parent && parent != kernel; parent = parent->getParentOp())
      if (isa<scf::ForOp>(parent))
        ++depth;
    atom.name = "i" + std::to_string(depth - 1);
  } else if (kind == IndexAtomKind::KernelArgument) {
    atom.name =
        "arg" + std::to_string(cast<BlockArgument>(value).getArgNumber());
  } else {
    Operation *def = value.getDefiningOp();
    atom.name = def ? def->getName().getStringRef().str() : "value";
    // The ids and induction variables it is computed from.
    SmallVector<Value> worklist = {value};
    llvm::DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value current = worklist.pop_back_val();
      if (!seen.insert(current).second)
        continue;
      Operation *op = current.getDefiningOp();
      // Ids, and what else differs between the threads of a launch: the
      // global id, the lane and subgroup ids, NVVM's special registers.
      if (op && (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::GlobalIdOp,
                     gpu::LaneIdOp, gpu::SubgroupIdOp>(op) ||
                 op->getName().getDialectNamespace() == "nvvm")) {
        atom.roots.push_back(current);
        continue;
      }
      if (auto arg = dyn_cast<BlockArgument>(current)) {
        if (isa<scf::ForOp>(arg.getOwner()->getParentOp()))
          atom.roots.push_back(current);
        continue;
      }
      if (!op)
        continue;
      llvm::append_range(worklist, op->getOperands());
      // A value a region yields (scf.if, scf.while) depends on what the
      // region computes.
      for (Region &region : op->getRegions())
        region.walk([&](Operation *nested) {
          if (nested->hasTrait<OpTrait::IsTerminator>())
            llvm::append_range(worklist, nested->getOperands());
        });
    }
  }
  atoms.push_back(std::move(atom));
  return it->second;
}

std::optional<AffineIndex> MemoryAccessAnalysis::express(Value value) {
  if (!value.getType().isIntOrIndex())
    return std::nullopt;
  if (auto it = expressed.find(value); it != expressed.end())
    return it->second;
  auto atomic = [&](IndexAtomKind kind) {
    AffineIndex index;
    index.terms.push_back({getAtom(value, kind), 1});
    return index;
  };
  std::optional<AffineIndex> result;
  APInt constant;
  auto [lower, upper] = getRange(value);
  if (matchPattern(value, m_ConstantInt(&constant)) &&
      constant.getSignificantBits() <= 64) {
    result = AffineIndex();
    result->constant = constant.getSExtValue();
  } else if (lower == upper) {
    result = AffineIndex();
    result->constant = lower;
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && arg == loop.getInductionVar())
      result = atomic(IndexAtomKind::InductionVar);
    else if (owner == kernel.getOperation() && arg.getOwner()->isEntryBlock())
      result = atomic(IndexAtomKind::KernelArgument);
    else
      result = atomic(IndexAtomKind::Opaque);
  } else if (auto size = value.getDefiningOp<gpu::BlockDimOp>();
             size && knownBlockSize) {
    result = AffineIndex();
    result->constant = blockSize[static_cast<int>(size.getDimension())];
  } else if (value.getDefiningOp<gpu::ThreadIdOp>()) {
    result = atomic(IndexAtomKind::ThreadId);
  } else if (value.getDefiningOp<gpu::BlockIdOp>()) {
    result = atomic(IndexAtomKind::BlockId);
  } else {
    Operation *op = value.getDefiningOp();
    auto operand = [&](unsigned i) { return express(op->getOperand(i)); };
    if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      std::optional<AffineIndex> a = operand(0), b = operand(1);
      if (a && b)
        result = combine(*a, *b, isa<arith::AddIOp>(op) ? 1 : -1);
    } else if (isa<arith::MulIOp>(op)) {
      std::optional<AffineIndex> a = operand(0), b = operand(1);
      if (a && b && a->terms.empty())
        result = scale(*b, a->constant);
      else if (a && b && b->terms.empty())
        result = scale(*a, b->constant);
    } else if (isa<arith::ShLIOp>(op)) {
      std::optional<AffineIndex> a = operand(0), b = operand(1);
      if (a && b && b->terms.empty() && b->constant >= 0 && b->constant < 62)
        result = scale(*a, int64_t(1) << b->constant);
    } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                   arith::ExtUIOp>(op)) {
      // A cast keeps the value when the value fits the result type (and,
      // for the zero-extending casts, is not negative).
      auto bits = [](Type type) -> unsigned {
        return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
      };
      unsigned to = bits(op->getResult(0).getType());
      auto [lower, upper] = getRange(op->getOperand(0));
      bool unsignedCast = isa<arith::IndexCastUIOp, arith::ExtUIOp>(op);
      bool fits =
          to >= 64 || (unsignedCast ? upper < (int64_t(1) << to)
                                    : lower >= -(int64_t(1) << (to - 1)) &&
                                          upper < (int64_t(1) << (to - 1)));
      if (fits && (!unsignedCast || lower >= 0))
        result = operand(0);
    }
    if (!result)
      result = atomic(IndexAtomKind::Opaque);
  }
  expressed[value] = result;
  return result;
}

std::string MemoryAccessAnalysis::describe(const AffineIndex &index) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (auto [atom, coefficient] : index.terms) {
    int64_t magnitude = coefficient < 0 ? -coefficient : coefficient;
    os << (first ? (coefficient < 0 ? "-" : "")
                 : (coefficient < 0 ? " - " : " + "));
    if (magnitude != 1)
      os << magnitude << "*";
    os << atoms[atom].name;
    first = false;
  }
  if (index.constant != 0 || first)
    os << (first ? "" : (index.constant < 0 ? " - " : " + "))
       << (first ? index.constant
                 : (index.constant < 0 ? -index.constant : index.constant));
  return text;
}

/// The memref a kernel argument or workgroup attribution is, through no
/// view.
static BlockArgument getKernelBuffer(gpu::GPUFuncOp kernel, Value memref) {
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return BlockArgument();
  return arg;
}

void MemoryAccessAnalysis::analyzeAccess(Operation *op, Value memref,
                                         ValueRange indices,
                                         int64_t vectorWidth, bool reads,
                                         bool writes, bool atomic) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return;
  Attribute space = type.getMemorySpace();
  bool shared = gpu::GPUDialect::isWorkgroupMemoryAddressSpace(space);
  auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  // Private memory lives in registers or the thread's stack.
  if (gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Private)
    return;
  MemoryAccess access;
  access.op = op;
  access.memref = memref;
  access.buffer = getKernelBuffer(kernel, memref);
  access.reads = reads;
  access.writes = writes;
  access.atomic = atomic;
  access.shared = shared;
  access.vectorWidth = vectorWidth;
  Type element = type.getElementType();
  access.elementBytes =
      element.isIntOrFloat()
          ? std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8)
          : 0;
  for (Operation *parent = op->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      access.loops.insert(access.loops.begin(), loop);

  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (!access.buffer && !memref.getDefiningOp<memref::AllocOp>() &&
      !memref.getDefiningOp<memref::AllocaOp>()) {
    access.unknownReason = "the buffer is a view or not a kernel argument";
  } else if (failed(type.getStridesAndOffset(strides, offset)) ||
             llvm::any_of(strides, ShapedType::isDynamic) ||
             ShapedType::isDynamic(offset)) {
    access.unknownReason = "the buffer's layout has dynamic strides";
  } else {
    AffineIndex address;
    address.constant = offset;
    bool ok = true;
    for (auto [index, stride] : llvm::zip(indices, strides)) {
      std::optional<AffineIndex> form = express(index);
      std::optional<AffineIndex> sum =
          form ? combine(address, *form, stride) : std::nullopt;
      if (!sum) {
        ok = false;
        break;
      }
      address = *sum;
    }
    if (ok)
      access.address = address;
    else
      access.unknownReason = "the address overflows 64 bits";
  }
  if (access.address)
    deriveFacts(access);
  accesses.push_back(std::move(access));
}

void MemoryAccessAnalysis::deriveFacts(MemoryAccess &access) {
  const AffineIndex &address = *access.address;
  access.threadAffine = true;
  llvm::DenseSet<Value> variantIvs;
  for (auto [atomIndex, coefficient] : address.terms) {
    const IndexAtom &atom = atoms[atomIndex];
    int d = static_cast<int>(atom.dim);
    switch (atom.kind) {
    case IndexAtomKind::ThreadId:
      access.threadStride[d] += coefficient;
      break;
    case IndexAtomKind::BlockId:
      access.blockStride[d] += coefficient;
      break;
    case IndexAtomKind::InductionVar:
      variantIvs.insert(atom.value);
      break;
    case IndexAtomKind::KernelArgument:
      break;
    case IndexAtomKind::Opaque:
      for (Value root : atom.roots) {
        if (isa<BlockArgument>(root))
          variantIvs.insert(root);
        else
          access.threadAffine = false;
      }
      if (!access.threadAffine && access.unknownReason.empty())
        access.unknownReason = "the address depends on a thread or block id "
                               "through '" +
                               atom.name + "'";
      break;
    }
  }
  for (scf::ForOp loop : access.loops) {
    access.loopVariant.push_back(variantIvs.contains(loop.getInductionVar()));
    auto [lower, lowerMax] = getRange(loop.getLowerBound());
    auto [upperMin, upper] = getRange(loop.getUpperBound());
    auto [step, stepMax] = getRange(loop.getStep());
    if (lower == lowerMax && upperMin == upper && step == stepMax && step > 0) {
      int64_t trips = std::max<int64_t>(0, (upper - lower + step - 1) / step);
      access.executionsPerThread *= trips;
      if (access.loopVariant.back())
        access.addressesPerThread *= trips;
    }
  }
  if (!access.threadAffine || !knownBlockSize)
    return;
  // One warp: lanes 0..31 of the block in x-major order.
  int64_t threads = blockSize[0] * blockSize[1] * blockSize[2];
  access.warpLanes = std::min<int64_t>(32, threads);
  int64_t bytes = access.elementBytes * access.vectorWidth;
  llvm::DenseSet<int64_t> sectors, elements;
  for (int64_t lane = 0; lane < access.warpLanes; ++lane) {
    int64_t tx = lane % blockSize[0];
    int64_t ty = (lane / blockSize[0]) % blockSize[1];
    int64_t tz = lane / (blockSize[0] * blockSize[1]);
    int64_t element = access.threadStride[0] * tx +
                      access.threadStride[1] * ty + access.threadStride[2] * tz;
    if (!elements.insert(element).second)
      continue;
    int64_t first = element * access.elementBytes;
    for (int64_t byte = first; byte < first + bytes; byte += 32)
      sectors.insert(llvm::divideFloorSigned(byte, 32));
    sectors.insert(llvm::divideFloorSigned(first + bytes - 1, 32));
  }
  access.sectorsPerRequest = sectors.size();
  // Lanes that share an address share its bytes.
  access.bytesPerRequest = static_cast<int64_t>(elements.size()) * bytes;
}

double MemoryAccessAnalysis::getWeight(const MemoryAccess &access) const {
  double distinct = 1, threads = 1;
  for (int d = 0; d < 3; ++d) {
    // The global indices along d: the block's threads, or the blocks where
    // a block has one thread along d.
    bool byThread = blockSize[d] > 1;
    double extent = static_cast<double>(byThread ? blockSize[d] : gridSize[d]);
    int64_t stride =
        byThread ? access.threadStride[d] : access.blockStride[d];
    threads *= extent;
    if (stride != 0)
      distinct *= extent;
  }
  return distinct / threads *
         static_cast<double>(std::max<int64_t>(1, access.addressesPerThread));
}

double MemoryAccessAnalysis::getWindowShare(gpu::Dimension dim) const {
  double window = 0, total = 0;
  for (const MemoryAccess &access : accesses) {
    if (!access.reads || access.writes || access.shared || !access.address)
      continue;
    double weight = getWeight(access);
    total += weight;
    if (getSlidingLoop(access, dim))
      window += weight;
  }
  return total > 0 ? window / total : 0;
}

scf::ForOp MemoryAccessAnalysis::getSlidingLoop(const MemoryAccess &access,
                                                gpu::Dimension dim) const {
  if (!access.address)
    return nullptr;
  int d = static_cast<int>(dim);
  int64_t stride =
      blockSize[d] > 1 ? access.threadStride[d] : access.blockStride[d];
  if (stride == 0)
    return nullptr;
  for (auto [constLoop, variant] :
       llvm::zip(access.loops, access.loopVariant)) {
    scf::ForOp loop = constLoop;
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!variant || !trips || trips->getZExtValue() < 2 ||
        trips->getZExtValue() > 64)
      continue;
    for (auto [atom, coefficient] : access.address->terms)
      if (atoms[atom].value == loop.getInductionVar() &&
          std::abs(coefficient) == std::abs(stride))
        return loop;
  }
  return nullptr;
}

std::optional<std::pair<gpu::Dimension, double>>
MemoryAccessAnalysis::getContiguousDimension() const {
  std::array<double, 3> votes = {0, 0, 0};
  for (const MemoryAccess &access : accesses) {
    if (access.shared || !access.threadAffine)
      continue;
    double weight = getWeight(access);
    for (int d = 0; d < 3; ++d) {
      // Consecutive global indices along d: the next thread of a block, or
      // the next block when the block has one thread along d.
      int64_t stride =
          blockSize[d] > 1 ? access.threadStride[d] : access.blockStride[d];
      // A vector access is contiguous when neighbours start one vector
      // apart.
      if (stride == access.vectorWidth || stride == -access.vectorWidth)
        votes[d] += weight;
    }
  }
  int best = std::max_element(votes.begin(), votes.end()) - votes.begin();
  if (votes[best] == 0)
    return std::nullopt;
  return std::make_pair(static_cast<gpu::Dimension>(best), votes[best]);
}

void MemoryAccessAnalysis::computeFootprints() {
  llvm::MapVector<Value, BufferFootprint> byBuffer;
  int64_t threads = blockSize[0] * blockSize[1] * blockSize[2];
  for (const MemoryAccess &access : accesses) {
    if (!access.buffer)
      continue;
    BufferFootprint &facts = byBuffer[access.buffer];
    facts.buffer = access.buffer;
    facts.shared = access.shared;
    facts.written |= access.writes;
    int64_t bytes = access.elementBytes * access.vectorWidth;
    auto total =
        llvm::checkedMul(bytes,
                         llvm::checkedMul(threads, access.executionsPerThread)
                             .value_or(INT64_MAX / 2))
            .value_or(INT64_MAX / 2);
    facts.accessedBytes =
        llvm::checkedAdd(facts.accessedBytes, total).value_or(INT64_MAX / 2);
    if (!access.address || !access.threadAffine) {
      facts.described = false;
      continue;
    }
    // Within one block, every variable but the block ids and the kernel
    // arguments (fixed for a launch) takes its range: the access touches at
    // most the span of its addresses, and at most one element per
    // combination of values.
    int64_t span = 1, combinations = 1;
    bool bounded = true;
    for (auto [atomIndex, coefficient] : access.address->terms) {
      const IndexAtom &atom = atoms[atomIndex];
      if (atom.kind == IndexAtomKind::BlockId ||
          atom.kind == IndexAtomKind::KernelArgument)
        continue;
      int64_t lower = atom.lower, upper = atom.upper;
      if (atom.kind == IndexAtomKind::ThreadId && knownBlockSize) {
        lower = 0;
        upper = blockSize[static_cast<int>(atom.dim)] - 1;
      }
      std::optional<int64_t> extent = llvm::checkedSub(upper, lower);
      std::optional<int64_t> part =
          extent ? llvm::checkedMul(*extent, coefficient < 0 ? -coefficient
                                                             : coefficient)
                 : std::nullopt;
      std::optional<int64_t> grown =
          part ? llvm::checkedAdd(span, *part) : std::nullopt;
      std::optional<int64_t> values =
          extent ? llvm::checkedMul(combinations, *extent + 1) : std::nullopt;
      if (!grown || !values) {
        bounded = false;
        break;
      }
      span = *grown;
      combinations = *values;
    }
    // A vector access covers its width from each address.
    span = std::min(span + access.vectorWidth - 1,
                    combinations * access.vectorWidth);
    auto type = cast<MemRefType>(access.memref.getType());
    int64_t limit = type.hasStaticShape()
                        ? type.getNumElements() * access.elementBytes
                        : INT64_MAX;
    int64_t spanBytes =
        bounded ? llvm::checkedMul(span, access.elementBytes).value_or(limit)
                : limit;
    facts.footprintBytes =
        std::max(facts.footprintBytes, std::min(spanBytes, limit));
  }
  for (auto &[value, facts] : byBuffer) {
    if (facts.footprintBytes > 0)
      facts.reuse = static_cast<double>(facts.accessedBytes) /
                    static_cast<double>(facts.footprintBytes);
    buffers.push_back(facts);
  }
}

bool mlir::autoprof::proveDistinctBuffers(ArrayRef<gpu::LaunchFuncOp> launches,
                                          std::string &why) {
  // The buffer a view (cast, subview, ...) is taken of.
  auto root = [](Value value) {
    while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
      value = view.getViewSource();
    return value;
  };
  for (gpu::LaunchFuncOp launch : launches) {
    llvm::DenseSet<Value> seen, roots;
    unsigned unknownOrigin = 0;
    for (Value operand : launch.getKernelOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      bool provable = false;
      if (operand.getDefiningOp<memref::AllocOp>() ||
          operand.getDefiningOp<gpu::AllocOp>() ||
          operand.getDefiningOp<memref::AllocaOp>()) {
        provable = true;
      } else if (auto arg = dyn_cast<BlockArgument>(operand)) {
        auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
        provable = func && arg.getOwner()->isEntryBlock() &&
                   func.getArgAttr(arg.getArgNumber(),
                                   LLVM::LLVMDialect::getNoAliasAttrName());
      }
      // A fresh allocation overlaps nothing, so one buffer of unknown origin
      // next to fresh allocations is still distinct from all of them.
      if (!provable && ++unknownOrigin > 1) {
        why = "two buffers of a launch are neither their own allocations nor "
              "host arguments marked llvm.noalias, so they may overlap";
        return false;
      }
      if (!seen.insert(operand).second) {
        why = "a launch passes the same buffer twice";
        return false;
      }
      // Two views of one buffer may overlap whatever their origin.
      if (!roots.insert(root(operand)).second) {
        why = "two buffers of a launch are views of one buffer";
        return false;
      }
    }
  }
  return true;
}
