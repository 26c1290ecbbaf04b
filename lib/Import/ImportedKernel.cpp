//===- ImportedKernel.cpp - Kernels known only as PTX ---------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/ImportedKernel.h"

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Runtime/HostData.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::autoprof;
namespace json = llvm::json;
namespace rt = ::autoprof::runtime;

std::optional<PtxEntryLocation>
mlir::autoprof::locatePtxEntry(StringRef ptx, StringRef entry) {
  if (entry.empty())
    return std::nullopt;
  constexpr StringLiteral kBlanks = " \t\r\n";
  for (size_t at = ptx.find(".entry"); at != StringRef::npos;
       at = ptx.find(".entry", at + 1)) {
    size_t name = at + 6;
    if (name >= ptx.size() || !kBlanks.contains(ptx[name]))
      continue;
    name = ptx.find_first_not_of(kBlanks, name);
    if (name == StringRef::npos || !ptx.substr(name).starts_with(entry))
      continue;
    size_t open = ptx.find_first_not_of(kBlanks, name + entry.size());
    if (open == StringRef::npos || ptx[open] != '(')
      continue;
    size_t close = ptx.find(')', open);
    if (close == StringRef::npos)
      return std::nullopt;
    PtxEntryLocation location{open, close, ptx.find('{', close),
                              StringRef::npos};
    if (location.bodyOpen == StringRef::npos)
      return location;
    unsigned depth = 0;
    for (size_t i = location.bodyOpen; i < ptx.size(); ++i) {
      if (ptx[i] == '{') {
        ++depth;
      } else if (ptx[i] == '}' && --depth == 0) {
        location.bodyClose = i;
        break;
      }
    }
    return location;
  }
  return std::nullopt;
}

StringRef mlir::autoprof::getPtxEntryBody(StringRef ptx, StringRef entry) {
  std::optional<PtxEntryLocation> location = locatePtxEntry(ptx, entry);
  if (!location || location->bodyClose == StringRef::npos)
    return {};
  return ptx.slice(location->bodyOpen + 1, location->bodyClose);
}

/// Every `.func` with a body in `ptx`, by name.
static llvm::StringMap<StringRef> getPtxFunctionBodies(StringRef ptx) {
  constexpr StringLiteral kBlanks = " \t\r\n";
  llvm::StringMap<StringRef> bodies;
  auto isNameChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '%';
  };
  // Skips blanks and one parenthesized list from `at`, if there is one.
  auto skipList = [&](size_t at) -> size_t {
    at = ptx.find_first_not_of(kBlanks, at);
    if (at == StringRef::npos || ptx[at] != '(')
      return at;
    size_t close = ptx.find(')', at);
    return close == StringRef::npos
               ? StringRef::npos
               : ptx.find_first_not_of(kBlanks, close + 1);
  };
  for (size_t at = ptx.find(".func"); at != StringRef::npos;
       at = ptx.find(".func", at + 1)) {
    size_t after = at + 5;
    if (after >= ptx.size() || !StringRef(kBlanks).contains(ptx[after]))
      continue;
    size_t name = skipList(after);
    if (name == StringRef::npos)
      break;
    size_t end = name;
    while (end < ptx.size() && isNameChar(ptx[end]))
      ++end;
    if (end == name)
      continue;
    size_t open = skipList(end);
    if (open == StringRef::npos || ptx[open] != '{')
      continue;
    unsigned depth = 0;
    for (size_t i = open; i < ptx.size(); ++i) {
      if (ptx[i] == '{') {
        ++depth;
      } else if (ptx[i] == '}' && --depth == 0) {
        bodies.try_emplace(ptx.slice(name, end), ptx.slice(open + 1, i));
        break;
      }
    }
  }
  return bodies;
}

SmallVector<StringRef>
mlir::autoprof::getPtxCalledFunctionBodies(StringRef ptx, StringRef body) {
  llvm::StringMap<StringRef> functions = getPtxFunctionBodies(ptx);
  SmallVector<StringRef> reached;
  llvm::StringSet<> seen;
  SmallVector<StringRef> pending = {body};
  auto reach = [&](StringRef name) {
    auto it = functions.find(name);
    if (it != functions.end() && seen.insert(name).second) {
      reached.push_back(it->second);
      pending.push_back(it->second);
    }
  };
  while (!pending.empty()) {
    StringRef text = pending.pop_back_val();
    // Each statement `call[.uni] [(returns),] callee[, (arguments)]
    // [, prototype];` names its callee after the optional returns.
    for (size_t at = text.find("call"); at != StringRef::npos;
         at = text.find("call", at + 4)) {
      if (at > 0 && (llvm::isAlnum(text[at - 1]) || text[at - 1] == '_' ||
                     text[at - 1] == '.'))
        continue;
      StringRef rest = text.substr(at + 4);
      rest.consume_front(".uni");
      if (rest.empty() || !(rest[0] == ' ' || rest[0] == '\t'))
        continue;
      rest = rest.ltrim();
      if (rest.starts_with("(")) {
        size_t close = rest.find(')');
        if (close == StringRef::npos)
          continue;
        rest = rest.substr(close + 1).ltrim();
        rest.consume_front(",");
        rest = rest.ltrim();
      }
      StringRef callee = rest.take_until(
          [](char c) { return c == ',' || c == ';' || llvm::isSpace(c); });
      if (callee.starts_with("%")) {
        // Through a register: any function.
        for (auto &function : functions)
          reach(function.getKey());
        continue;
      }
      reach(callee);
    }
  }
  return reached;
}

rt::JobKernel ImportedKernel::getJobKernel(StringRef variantPtx,
                                           const rt::JobLaunch &launch) const {
  if (variantPtx.empty() && isCubin())
    return {cubin, rt::CodeFormat::Cubin, entry, launch};
  return {variantPtx.str(), rt::CodeFormat::Ptx, entry, launch};
}

/// The JSON form of one parameter of `autoprof.imported` (the evaluation
/// job's schema; the name is the spec's and stays out of the job).
static json::Object toJobJSON(DictionaryAttr param) {
  json::Object object;
  for (NamedAttribute field : param) {
    if (field.getName() == "name")
      continue;
    Attribute value = field.getValue();
    if (auto text = dyn_cast<StringAttr>(value))
      object[field.getName().strref()] = text.str();
    else if (auto flag = dyn_cast<BoolAttr>(value))
      object[field.getName().strref()] = flag.getValue();
    else if (auto integer = dyn_cast<IntegerAttr>(value))
      object[field.getName().strref()] = integer.getInt();
    else if (auto number = dyn_cast<FloatAttr>(value))
      object[field.getName().strref()] = number.getValueAsDouble();
    else if (auto numbers = dyn_cast<ArrayAttr>(value)) {
      json::Array array;
      for (Attribute element : numbers)
        if (auto number = dyn_cast<FloatAttr>(element))
          array.push_back(number.getValueAsDouble());
      object[field.getName().strref()] = std::move(array);
    }
  }
  return object;
}

/// Reads one imported kernel; emits a diagnostic and fails where it cannot.
static FailureOr<ImportedKernel> readImportedKernel(gpu::BinaryOp binary,
                                                    DictionaryAttr imported,
                                                    gpu::LaunchFuncOp launch) {
  ImportedKernel kernel;
  kernel.binary = binary;
  kernel.launch = launch;
  auto entry = dyn_cast_or_null<StringAttr>(imported.get("entry"));
  auto params = dyn_cast_or_null<ArrayAttr>(imported.get("params"));
  if (!entry || !params)
    return emitError(binary.getLoc(), "autoprof.imported of @")
           << binary.getSymName() << " lacks its entry or its params";
  kernel.entry = entry.str();
  if (auto generic =
          dyn_cast_or_null<BoolAttr>(imported.get("block_size_generic")))
    kernel.blockSizeGeneric = generic.getValue();
  auto format = dyn_cast_or_null<StringAttr>(imported.get("format"));
  auto code = dyn_cast_or_null<StringAttr>(imported.get("code"));
  if (format && rt::parseCodeFormat(format.getValue()) == rt::CodeFormat::Cuda &&
      code)
    kernel.cudaSource = code.str();
  if (Attribute options = imported.get("compile_options")) {
    auto array = dyn_cast<ArrayAttr>(options);
    if (!array || !llvm::all_of(array, llvm::IsaPred<StringAttr>))
      return emitError(binary.getLoc(), "autoprof.imported of @")
             << binary.getSymName()
             << ": compile_options is not an array of strings";
    for (Attribute option : array) {
      StringRef text = cast<StringAttr>(option).getValue();
      if (!rt::isAllowedCompileOption(text))
        return emitError(binary.getLoc(), "autoprof.imported of @")
               << binary.getSymName() << ": compile_options holds '" << text
               << "', " << rt::kCompileOptionRefusal;
      kernel.compileOptions.push_back(text.str());
    }
  }
  for (Attribute attr : binary.getObjects()) {
    auto object = dyn_cast<gpu::ObjectAttr>(attr);
    if (object && object.getFormat() == gpu::CompilationTarget::Assembly) {
      kernel.ptx = object.getObject().str();
      break;
    }
    if (object && object.getFormat() == gpu::CompilationTarget::Binary) {
      kernel.cubin = object.getObject().str();
      break;
    }
  }
  if (kernel.ptx.empty() && kernel.cubin.empty())
    return emitError(binary.getLoc(), "imported kernel @")
           << binary.getSymName() << " holds no PTX or cubin object";
  if (kernel.isCubin()) {
    llvm::Expected<CubinEntry> entry =
        readCubinEntry(kernel.cubin, kernel.entry);
    if (!entry)
      return emitError(binary.getLoc(), "the cubin of imported kernel @")
             << binary.getSymName() << ": "
             << llvm::toString(entry.takeError());
    kernel.cubinEntry = std::move(*entry);
  }
  if (launch.getKernelName() != entry)
    return launch.emitError("launches @")
           << launch.getKernelName().getValue() << " of the imported binary @"
           << binary.getSymName() << ", whose entry is '" << kernel.entry
           << "'";

  rt::JobLaunch &job = kernel.jobLaunch;
  Value sizes[] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                   launch.getGridSizeZ(),  launch.getBlockSizeX(),
                   launch.getBlockSizeY(), launch.getBlockSizeZ()};
  for (auto [index, size] : llvm::enumerate(sizes)) {
    std::optional<int64_t> value = getConstantIntValue(size);
    if (!value || *value < 1 || *value > int64_t(UINT32_MAX))
      return launch.emitError("the launch of imported kernel @")
             << binary.getSymName()
             << " has a grid or block size that is not a positive constant";
    (index < 3 ? job.grid[index] : job.block[index - 3]) = unsigned(*value);
  }
  if (Value shared = launch.getDynamicSharedMemorySize()) {
    std::optional<int64_t> value = getConstantIntValue(shared);
    if (!value || *value < 0)
      return launch.emitError("the launch of imported kernel @")
             << binary.getSymName()
             << " has a dynamic shared memory size that is not a constant";
    job.dynamicSharedBytes = unsigned(*value);
  }
  for (auto [index, attr] : llvm::enumerate(params)) {
    auto param = dyn_cast<DictionaryAttr>(attr);
    rt::JobParam parsed;
    json::Path::Root root("param");
    if (!param || !rt::fromJSON(json::Value(toJobJSON(param)), parsed, root))
      return emitError(binary.getLoc(), "parameter ")
             << index << " of imported kernel @" << binary.getSymName()
             << " is not one of an evaluation job"
             << (param ? ": " + llvm::toString(root.getError()) : "");
    job.params.push_back(std::move(parsed));
    auto name = dyn_cast_or_null<StringAttr>(param.get("name"));
    kernel.paramNames.push_back(name ? name.str()
                                     : "arg" + std::to_string(index));
  }
  // Integer inputs used as indices stay in bounds, as for MLIR launches.
  rt::applyDefaultIndexBounds(job);
  if (kernel.isCubin()) {
    const std::vector<CubinParam> &taken = kernel.cubinEntry->params;
    bool agree = taken.size() == job.params.size();
    for (size_t i = 0; agree && i < taken.size(); ++i)
      agree =
          taken[i].bytes ==
          (job.params[i].isScalar ? rt::dtypeSize(job.params[i].dtype) : 8u);
    if (!agree)
      return emitError(binary.getLoc(), "the parameters of imported kernel @")
             << binary.getSymName()
             << " do not match those its cubin's entry takes (" << taken.size()
             << ", of the sizes its attributes record)";
  }
  if (launch.getKernelOperands().size() != job.params.size())
    return launch.emitError("the launch of imported kernel @")
           << binary.getSymName() << " passes "
           << launch.getKernelOperands().size() << " operands for "
           << job.params.size() << " parameters";
  return kernel;
}

const GpuTarget &ImportedKernel::getGpuTarget() const {
  gpu::BinaryOp op = binary;
  for (Attribute attr : op.getObjects())
    if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()))
        if (const GpuTarget *known = findGpuTarget(nvvm.getChip()))
          return *known;
  return getDefaultGpuTarget();
}

FailureOr<std::vector<ImportedKernel>>
mlir::autoprof::findImportedKernels(ModuleOp module) {
  AutoProfDialect::ImportedAttrHelper helper(module.getContext());
  llvm::StringMap<gpu::LaunchFuncOp> firstLaunch;
  module.walk([&](gpu::LaunchFuncOp launch) {
    firstLaunch.try_emplace(launch.getKernelModuleName().getValue(), launch);
  });
  std::vector<ImportedKernel> kernels;
  bool failedAny = false;
  module.walk([&](gpu::BinaryOp binary) {
    DictionaryAttr imported = helper.getAttr(binary);
    gpu::LaunchFuncOp launch = firstLaunch.lookup(binary.getSymName());
    if (!imported || !launch)
      return;
    // A binary prints its source and PTX on one line: diagnostics at it
    // name its file and line, without quoting the line (column 0).
    if (auto at = dyn_cast<FileLineColLoc>(binary.getLoc());
        at && at.getColumn() != 0)
      binary->setLoc(
          FileLineColLoc::get(at.getFilename(), at.getLine(), /*column=*/0));
    FailureOr<ImportedKernel> kernel =
        readImportedKernel(binary, imported, launch);
    if (failed(kernel)) {
      failedAny = true;
      return;
    }
    kernels.push_back(std::move(*kernel));
  });
  if (failedAny)
    return failure();
  return kernels;
}
