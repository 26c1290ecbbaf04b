//===- KernelSpec.cpp - Kernels from CUDA C++ and PTX sources -------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/KernelSpec.h"
#include "autoprof/Import/Cubin.h"
#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/Runtime/HostData.h"
#include "autoprof/Support/Json.h"
#include "autoprof/Support/Yaml.h"

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::autoprof;
namespace json = llvm::json;
namespace rt = ::autoprof::runtime;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// The spec
//===----------------------------------------------------------------------===//

/// The fields a spec may have; another is a typo the user should hear of.
static constexpr llvm::StringLiteral kSpecFields[] = {
    "source", "format", "entry", "grid", "block", "dynamic_shared_bytes",
    "block_size_generic", "compile_options", "params"};

/// The source format a file name implies, or "" when it implies none.
static std::optional<rt::CodeFormat> formatOfPath(StringRef path) {
  StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".cu" || extension == ".cuh")
    return rt::CodeFormat::Cuda;
  if (extension == ".ptx")
    return rt::CodeFormat::Ptx;
  if (extension == ".cubin")
    return rt::CodeFormat::Cubin;
  return std::nullopt;
}

/// Why `launch` is not one a GPU runs, or nothing: blocks of 1 to 1024
/// threads (at most 1024 x 1024 x 64), grids of at most 2^31 - 1 x 65535 x
/// 65535 blocks (the parser refuses sizes of 0).
static std::optional<std::string>
checkLaunchLimits(const ::autoprof::runtime::JobLaunch &launch) {
  static constexpr unsigned kBlockLimits[] = {1024, 1024, 64};
  static constexpr unsigned kGridLimits[] = {2147483647, 65535, 65535};
  uint64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    if (launch.block[d] > kBlockLimits[d])
      return llvm::formatv("field 'block': {0} threads along dimension {1}, "
                           "more than a GPU launches ({2})",
                           launch.block[d], d, kBlockLimits[d])
          .str();
    if (launch.grid[d] > kGridLimits[d])
      return llvm::formatv("field 'grid': {0} blocks along dimension {1}, "
                           "more than a GPU launches ({2})",
                           launch.grid[d], d, kGridLimits[d])
          .str();
    threads *= launch.block[d];
  }
  if (threads > 1024)
    return llvm::formatv("field 'block': {0} threads per block, more than a "
                         "GPU launches (1024)",
                         threads)
        .str();
  return std::nullopt;
}

/// Why a scalar's value does not fit its type (it would be converted to
/// another value silently), or nothing.
static std::optional<std::string>
checkScalarValue(const ::autoprof::runtime::JobParam &param) {
  if (!param.isScalar)
    return std::nullopt;
  StringRef dtype = rt::dtypeName(param.dtype);
  if (rt::isFloatType(param.dtype)) {
    double largest = param.dtype == AUTOPROF_F16 ? 65504.0
                     : param.dtype == AUTOPROF_F64
                         ? std::numeric_limits<double>::max()
                         : std::numeric_limits<float>::max();
    if (std::isfinite(param.value) && std::fabs(param.value) > largest)
      return llvm::formatv("{0:E} is beyond the largest {1} ({2:E})",
                           param.value, dtype, largest)
          .str();
    return std::nullopt;
  }
  unsigned bits = rt::dtypeSize(param.dtype) * 8;
  int64_t value = param.intValue;
  if (rt::isUnsignedType(param.dtype)) {
    if (value < 0 || (bits < 64 && static_cast<uint64_t>(value) >> bits))
      return llvm::formatv("{0} does not fit {1} (0 to 2^{2} - 1)", value,
                           dtype, bits)
          .str();
    return std::nullopt;
  }
  if (bits < 64 && (value < -(int64_t(1) << (bits - 1)) ||
                    value >= (int64_t(1) << (bits - 1))))
    return llvm::formatv("{0} does not fit {1} (-2^{2} to 2^{2} - 1)", value,
                         dtype, bits - 1)
        .str();
  return std::nullopt;
}

llvm::Expected<KernelSpec>
mlir::autoprof::parseKernelSpec(StringRef text, StringRef specPath) {
  // A .yaml or .yml spec is read as the JSON value it denotes.
  StringRef extension = llvm::sys::path::extension(specPath);
  bool isYaml = extension == ".yaml" || extension == ".yml";
  llvm::Expected<json::Value> value =
      isYaml ? ::autoprof::parseYamlAsJson(text) : ::autoprof::parseJson(text);
  if (!value)
    return makeError((isYaml ? "not YAML: " : "not JSON: ") +
                     llvm::toString(value.takeError()));
  const json::Object *object = value->getAsObject();
  if (!object)
    return makeError(isYaml ? "expected a YAML mapping"
                            : "expected a JSON object");
  for (const auto &field : *object)
    if (!llvm::is_contained(kSpecFields, field.first.str()))
      return makeError("unknown field '" + field.first.str() +
                       "' (a spec has: source, format, entry, grid, block, "
                       "dynamic_shared_bytes, block_size_generic, "
                       "compile_options, params)");
  for (StringRef required : {"source", "entry", "grid", "block", "params"})
    if (!object->get(required))
      return makeError(llvm::Twine("missing field '") + required + "'");

  KernelSpec spec;
  spec.specPath = specPath.str();
  json::Path::Root root("spec");
  json::ObjectMapper mapper(*value, root);
  std::string source;
  std::optional<std::string> format;
  if (!mapper.map("source", source) || !mapper.map("entry", spec.entry) ||
      !mapper.mapOptional("format", format) ||
      !mapper.mapOptional("block_size_generic", spec.blockSizeGeneric) ||
      !mapper.mapOptional("compile_options", spec.compileOptions) ||
      !rt::fromJSON(*value, spec.launch, root))
    return root.getError();
  if (source.empty())
    return makeError("field 'source': expected a file name");
  if (spec.entry.empty())
    return makeError("field 'entry': expected the kernel's name");

  // The source, relative to the spec's folder.
  SmallString<256> resolved(source);
  if (llvm::sys::path::is_relative(resolved)) {
    resolved = llvm::sys::path::parent_path(specPath);
    llvm::sys::path::append(resolved, source);
  }
  spec.sourcePath = std::string(resolved);

  std::optional<rt::CodeFormat> parsedFormat =
      format ? rt::parseCodeFormat(*format) : formatOfPath(source);
  if (!format && !parsedFormat)
    return makeError("field 'format' is needed: the name '" + source +
                     "' does not say (.cu: cuda, .ptx: ptx, "
                     ".cubin: cubin)");
  if (!parsedFormat)
    return makeError("field 'format': expected \"cuda\", \"ptx\" or "
                     "\"cubin\", got \"" +
                     *format + "\"");
  spec.format = *parsedFormat;
  if (!spec.compileOptions.empty() && spec.format != rt::CodeFormat::Cuda)
    return makeError("field 'compile_options': only CUDA C++ is compiled; " +
                     rt::getCodeFormatName(spec.format) +
                     " is taken as it is");
  for (auto [index, option] : llvm::enumerate(spec.compileOptions))
    if (!rt::isAllowedCompileOption(option))
      return makeError(llvm::formatv("compile_options[{0}]: '{1}' is {2}",
                                     index, option, rt::kCompileOptionRefusal));

  // Parameter names: given or arg<i>, distinct.
  const json::Array *params = object->getArray("params");
  llvm::StringSet<> seen;
  for (auto [index, param] : llvm::enumerate(*params)) {
    std::string name = "arg" + std::to_string(index);
    if (const json::Value *given = param.getAsObject()->get("name")) {
      std::optional<StringRef> string = given->getAsString();
      if (!string || string->empty())
        return makeError(llvm::formatv("params[{0}].name: expected a name",
                                       index));
      name = string->str();
    }
    if (!seen.insert(name).second)
      return makeError(llvm::formatv(
          "params[{0}].name: '{1}' names another parameter too", index, name));
    spec.paramNames.push_back(name);
  }
  if (spec.launch.params.empty())
    return makeError("field 'params': a kernel without parameters has "
                     "nothing to verify");
  if (std::optional<std::string> why = checkLaunchLimits(spec.launch))
    return makeError(*why);
  for (auto [index, param] : llvm::enumerate(spec.launch.params))
    if (std::optional<std::string> why = checkScalarValue(param))
      return makeError(llvm::formatv("params[{0}].value: {1}", index, *why));
  return spec;
}

//===----------------------------------------------------------------------===//
// PTX
//===----------------------------------------------------------------------===//

llvm::Expected<PtxEntry> mlir::autoprof::readPtxEntry(StringRef ptx,
                                                      StringRef entry) {
  PtxEntry result;
  SmallVector<StringRef> match;
  if (llvm::Regex("(^|\n)[ \t]*\\.target[ \t]+([A-Za-z0-9_]+)")
          .match(ptx, &match))
    result.target = match[2].str();
  std::optional<PtxEntryLocation> location = locatePtxEntry(ptx, entry);
  if (!location) {
    // The first declaration of that name, closed or not.
    if (llvm::Regex("\\.entry[ \t\r\n]+" + llvm::Regex::escape(entry) +
                    "[ \t\r\n]*\\(")
            .match(ptx))
      return makeError("the parameter list of entry '" + entry +
                       "' is not closed");
    return makeError("the PTX has no entry '" + entry + "'");
  }
  StringRef list =
      ptx.slice(location->paramsOpen + 1, location->paramsClose).trim();
  if (list.empty())
    return result;
  SmallVector<StringRef> params;
  list.split(params, ',');
  for (StringRef param : params) {
    SmallVector<StringRef> tokens;
    param.split(tokens, ' ', -1, /*KeepEmpty=*/false);
    std::string type;
    for (StringRef token : tokens) {
      token = token.trim();
      if (token == ".param" || token.starts_with(".align") ||
          token.starts_with(".ptr") || token == ".global" ||
          token == ".const" || token == ".shared" || token == ".local")
        continue;
      if (token.starts_with(".")) {
        type = token.str();
        continue;
      }
      // The name: an aggregate passed by value ends in [bytes].
      if (token.contains('['))
        type += token.drop_until([](char c) { return c == '['; }).str();
    }
    if (type.empty())
      return makeError("cannot read parameter '" + param.trim() +
                       "' of entry '" + entry + "'");
    result.paramTypes.push_back(type);
  }
  return result;
}

/// Bits of an element type.
static unsigned dtypeBits(autoprof_dtype dtype) {
  return rt::dtypeSize(dtype) * 8;
}

/// Bits of a scalar PTX type (".u64" -> 64), or 0 for anything else.
static unsigned ptxTypeBits(StringRef type) {
  if (type.size() < 3 || type.contains('[') ||
      !llvm::is_contained({'u', 's', 'b', 'f'}, type[1]))
    return 0;
  unsigned bits = 0;
  if (type.drop_front(2).getAsInteger(10, bits))
    return 0;
  return bits;
}

/// The number in "sm_90", "sm_90a", "compute_90"; 0 when there is none.
static unsigned archNumber(StringRef arch) {
  arch = arch.drop_until([](char c) { return c == '_'; }).drop_front();
  unsigned number = 0;
  arch.take_while(llvm::isDigit).getAsInteger(10, number);
  return number;
}

llvm::Error mlir::autoprof::checkPtxEntry(const KernelSpec &spec,
                                          const PtxEntry &entry,
                                          StringRef chip) {
  const auto &params = spec.launch.params;
  if (params.size() != entry.paramTypes.size())
    return makeError(llvm::formatv(
        "field 'params': the spec lists {0} parameters, but entry '{1}' "
        "takes {2}",
        params.size(), spec.entry, entry.paramTypes.size()));
  for (auto [index, param] : llvm::enumerate(params)) {
    StringRef type = entry.paramTypes[index];
    unsigned bits = ptxTypeBits(type);
    std::string where = llvm::formatv("params[{0}] ('{1}')", index,
                                      spec.paramNames[index]);
    if (!bits)
      return makeError(where + ": entry '" + spec.entry + "' takes a " +
                       type + " there, which is neither a pointer nor a "
                       "scalar (aggregates by value are not imported)");
    if (!param.isScalar && (bits != 64 || type[1] == 'f'))
      return makeError(where + ": a buffer is a 64-bit pointer, but entry '" +
                       spec.entry + "' takes a " + type + " there");
    if (param.isScalar && bits != dtypeBits(param.dtype))
      return makeError(where + ": a " + rt::dtypeName(param.dtype) +
                       " scalar, but entry '" + spec.entry + "' takes a " +
                       type + " there");
    // Of the same size, a float where the PTX spells an integer (.u, .s)
    // or the other way round (.f) would reach the kernel as the wrong
    // bits; untyped .b parameters take either.
    bool isFloat = rt::isFloatType(param.dtype);
    if (param.isScalar && ((type[1] == 'f' && !isFloat) ||
                           ((type[1] == 'u' || type[1] == 's') && isFloat)))
      return makeError(
          where + ": a " + rt::dtypeName(param.dtype) + " scalar, but entry '" +
          spec.entry + "' takes a " + type + " there (" +
          (type[1] == 'f' ? "a float" : "an integer") + " of the same size)");
  }
  unsigned target = archNumber(entry.target);
  unsigned device = archNumber(chip);
  if (target && device && target > device)
    return makeError("the PTX targets " + entry.target + ", newer than " +
                     chip + ": the driver cannot load it");
  return llvm::Error::success();
}

llvm::Error mlir::autoprof::checkCubinEntry(const KernelSpec &spec,
                                            const CubinEntry &entry,
                                            StringRef chip) {
  const auto &params = spec.launch.params;
  if (params.size() != entry.params.size())
    return makeError(llvm::formatv(
        "field 'params': the spec lists {0} parameters, but entry '{1}' "
        "of the cubin takes {2}",
        params.size(), spec.entry, entry.params.size()));
  for (auto [index, param] : llvm::enumerate(params)) {
    unsigned bytes = entry.params[index].bytes;
    std::string where =
        llvm::formatv("params[{0}] ('{1}')", index, spec.paramNames[index]);
    if (!param.isScalar && bytes != 8)
      return makeError(llvm::formatv("{0}: a buffer is a 64-bit pointer, but "
                                     "entry '{1}' of the cubin takes {2} "
                                     "bytes there",
                                     where, spec.entry, bytes));
    if (param.isScalar && bytes * 8 != dtypeBits(param.dtype))
      return makeError(llvm::formatv("{0}: a {1} scalar, but entry '{2}' of "
                                     "the cubin takes {3} bytes there",
                                     where, rt::dtypeName(param.dtype),
                                     spec.entry, bytes));
  }
  // Machine code runs on its own major architecture, on minor revisions
  // from its own on; code for an architecture-specific target ("sm_90a")
  // only on that one.
  unsigned cubin = archNumber(entry.chip), device = archNumber(chip);
  bool specific = !StringRef(entry.chip)
                       .ends_with(std::to_string(cubin)); // "sm_90a", "sm_100f"
  if (cubin / 10 != device / 10 || cubin > device ||
      (specific && entry.chip != chip))
    return makeError("the cubin holds code for " + entry.chip +
                     ", which does not run on " + chip +
                     ": give a cubin for that architecture, or the PTX");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

/// The MLIR element type of a dtype: unsigned types for the u* buffers
/// (`signless` for scalars, which arith.constant needs).
static Type elementType(MLIRContext *context, autoprof_dtype dtype,
                        bool signless) {
  Builder builder(context);
  if (dtype == AUTOPROF_F32)
    return builder.getF32Type();
  if (dtype == AUTOPROF_F64)
    return builder.getF64Type();
  if (dtype == AUTOPROF_F16)
    return builder.getF16Type();
  if (dtype == AUTOPROF_BF16)
    return builder.getBF16Type();
  return IntegerType::get(context, dtypeBits(dtype),
                          rt::isUnsignedType(dtype) && !signless
                              ? IntegerType::Unsigned
                              : IntegerType::Signless);
}

/// The spec's parameters as attributes, in the job schema's terms.
static ArrayAttr paramsAttr(Builder &builder, const KernelSpec &spec) {
  SmallVector<Attribute> params;
  for (auto [param, name] :
       llvm::zip_equal(spec.launch.params, spec.paramNames)) {
    SmallVector<NamedAttribute> fields = {
        builder.getNamedAttr("name", builder.getStringAttr(name)),
        builder.getNamedAttr("kind", builder.getStringAttr(
                                         param.isScalar ? "scalar" : "buffer")),
        builder.getNamedAttr(
            "dtype", builder.getStringAttr(rt::dtypeName(param.dtype)))};
    if (param.isScalar) {
      bool isFloat = rt::isFloatType(param.dtype);
      fields.push_back(builder.getNamedAttr(
          "value", isFloat ? Attribute(builder.getF64FloatAttr(param.value))
                           : Attribute(builder.getI64IntegerAttr(
                                 param.intValue))));
    } else {
      fields.push_back(builder.getNamedAttr(
          "count", builder.getI64IntegerAttr(param.count)));
      fields.push_back(
          builder.getNamedAttr(
              "role", builder.getStringAttr(rt::getBufferRoleName(param.role))));
      if (param.indexBound > 0)
        fields.push_back(builder.getNamedAttr(
            "index_bound", builder.getI64IntegerAttr(param.indexBound)));
      if (param.sorted)
        fields.push_back(
            builder.getNamedAttr("sorted", builder.getBoolAttr(true)));
      if (param.range)
        fields.push_back(builder.getNamedAttr(
            "range", builder.getF64ArrayAttr({(*param.range)[0],
                                              (*param.range)[1]})));
    }
    params.push_back(builder.getDictionaryAttr(fields));
  }
  return builder.getArrayAttr(params);
}

std::string mlir::autoprof::importKernel(ModuleOp module,
                                         const KernelSpec &spec, StringRef code,
                                         StringRef chip, StringRef sourceText) {
  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  Location loc = FileLineColLoc::get(context, spec.specPath, 1, 1);

  // A name of its own for the binary and its launching function.
  std::string name = spec.entry;
  for (unsigned suffix = 1; module.lookupSymbol(name) ||
                            module.lookupSymbol(name + "_launch");
       ++suffix)
    name = spec.entry + "_" + std::to_string(suffix);

  auto target = NVVM::NVVMTargetAttr::get(
      context, /*optLevel=*/2, "nvptx64-nvidia-cuda", chip, /*features=*/"");
  auto object = gpu::ObjectAttr::get(
      context, target,
      spec.format == rt::CodeFormat::Cubin ? gpu::CompilationTarget::Binary
                             : gpu::CompilationTarget::Assembly,
      builder.getStringAttr(code), nullptr, nullptr);
  auto binary = gpu::BinaryOp::create(builder, loc, name,
                                      /*offloadingHandler=*/nullptr,
                                      ArrayRef<Attribute>{object});
  SmallVector<NamedAttribute> imported = {
      builder.getNamedAttr(
          "format", builder.getStringAttr(rt::getCodeFormatName(spec.format))),
      builder.getNamedAttr("source", builder.getStringAttr(spec.sourcePath)),
      builder.getNamedAttr("entry", builder.getStringAttr(spec.entry)),
      builder.getNamedAttr("block_size_generic",
                           builder.getBoolAttr(spec.blockSizeGeneric)),
      builder.getNamedAttr("params", paramsAttr(builder, spec))};
  if (spec.format == rt::CodeFormat::Cuda)
    imported.push_back(
        builder.getNamedAttr("code", builder.getStringAttr(sourceText)));
  if (!spec.compileOptions.empty())
    imported.push_back(builder.getNamedAttr(
        "compile_options", builder.getStrArrayAttr(llvm::to_vector_of<StringRef>(
                               spec.compileOptions))));
  AutoProfDialect::ImportedAttrHelper(context).setAttr(
      binary, builder.getDictionaryAttr(imported));

  // The host side: buffers come in as arguments, scalars are constants.
  SmallVector<Type> bufferTypes;
  for (const rt::JobParam &param : spec.launch.params)
    if (!param.isScalar)
      bufferTypes.push_back(MemRefType::get(
          {static_cast<int64_t>(param.count)},
          elementType(context, param.dtype, /*signless=*/false)));
  auto function = func::FuncOp::create(
      builder, loc, name + "_launch",
      builder.getFunctionType(bufferTypes, /*results=*/{}));
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  SmallVector<Value> operands;
  unsigned nextBuffer = 0;
  for (const rt::JobParam &param : spec.launch.params) {
    if (!param.isScalar) {
      operands.push_back(body->getArgument(nextBuffer++));
      continue;
    }
    Type type = elementType(context, param.dtype, /*signless=*/true);
    TypedAttr value =
        isa<FloatType>(type)
            ? TypedAttr(builder.getFloatAttr(type, param.value))
            : TypedAttr(builder.getIntegerAttr(type, param.intValue));
    operands.push_back(arith::ConstantOp::create(builder, loc, value));
  }
  llvm::DenseMap<unsigned, Value> sizes;
  auto size = [&](unsigned value) -> Value {
    Value &constant = sizes[value];
    if (!constant)
      constant = arith::ConstantIndexOp::create(builder, loc, value);
    return constant;
  };
  const rt::JobLaunch &launch = spec.launch;
  gpu::KernelDim3 grid{size(launch.grid[0]), size(launch.grid[1]),
                       size(launch.grid[2])};
  gpu::KernelDim3 block{size(launch.block[0]), size(launch.block[1]),
                        size(launch.block[2])};
  Value sharedBytes;
  if (launch.dynamicSharedBytes)
    sharedBytes = arith::ConstantOp::create(
        builder, loc, builder.getI32IntegerAttr(launch.dynamicSharedBytes));
  auto kernel = SymbolRefAttr::get(
      context, name, {FlatSymbolRefAttr::get(context, spec.entry)});
  gpu::LaunchFuncOp::create(builder, loc, kernel, grid, block, sharedBytes,
                            operands);
  func::ReturnOp::create(builder, loc);
  return name;
}
