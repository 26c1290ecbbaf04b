//===- PtxInstructions.cpp - What a PTX entry's instructions do -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/PtxInstructions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::autoprof;
using llvm::ArrayRef;
using llvm::StringRef;

namespace {
/// One instruction: `@%p opcode operand, operand, ...`.
struct Instruction {
  /// The guard's predicate register ("" when unguarded).
  StringRef guard;
  /// The opcode split at its dots: "ld", "global", "v4", "f32".
  llvm::SmallVector<StringRef> opcode;
  /// The operands, split at the commas outside braces and brackets.
  llvm::SmallVector<StringRef> operands;
};

/// A parsed entry body: its instructions and where its labels point.
struct ParsedBody {
  std::vector<Instruction> instructions;
  llvm::StringMap<size_t> labels;
};
} // namespace

static bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/// `text` without `//` and `/* */` comments (string literals of `.pragma`
/// hold neither) and without the debug directives that end at the line's
/// end rather than at a semicolon (`.loc 1 8 3`, `.file 1 "k.cu"`).
static std::string stripComments(StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    StringRef rest = text.substr(i);
    bool lineStart = i == 0 || text[i - 1] == '\n';
    StringRef line = rest.ltrim(" \t");
    if (lineStart && (line.starts_with(".loc") || line.starts_with(".file")) &&
        line.size() > 5 &&
        !isIdentifierChar(line[line.starts_with(".loc") ? 4 : 5])) {
      size_t end = text.find('\n', i);
      i = end == StringRef::npos ? text.size() : end;
    } else if (rest.starts_with("//")) {
      size_t end = text.find('\n', i);
      i = end == StringRef::npos ? text.size() : end;
    } else if (rest.starts_with("/*")) {
      size_t end = text.find("*/", i + 2);
      i = end == StringRef::npos ? text.size() : end + 2;
      out.push_back(' ');
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

/// Splits `operands` at the commas that are not inside braces or brackets.
static void splitOperands(StringRef operands,
                          llvm::SmallVectorImpl<StringRef> &out) {
  unsigned depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= operands.size(); ++i) {
    char c = i < operands.size() ? operands[i] : ',';
    if (c == '{' || c == '[' || c == '(')
      ++depth;
    else if ((c == '}' || c == ']' || c == ')') && depth)
      --depth;
    else if (c == ',' && depth == 0) {
      StringRef operand = operands.slice(start, i).trim();
      if (!operand.empty())
        out.push_back(operand);
      start = i + 1;
    }
  }
}

static ParsedBody parseBody(StringRef body, std::string &storage) {
  storage = stripComments(body);
  ParsedBody parsed;
  llvm::SmallVector<StringRef> statements;
  StringRef(storage).split(statements, ';');
  for (StringRef statement : statements) {
    statement = statement.trim();
    // Scope braces and labels (`$L__BB0_2:`) come before the instruction
    // they belong to.
    while (!statement.empty()) {
      if (statement.front() == '{' || statement.front() == '}') {
        statement = statement.drop_front().ltrim();
        continue;
      }
      size_t end = 0;
      while (end < statement.size() && isIdentifierChar(statement[end]) &&
             statement[end] != '.')
        ++end;
      if (end > 0 && end < statement.size() && statement[end] == ':') {
        parsed.labels[statement.take_front(end)] = parsed.instructions.size();
        statement = statement.drop_front(end + 1).ltrim();
        continue;
      }
      break;
    }
    // Declarations and directives: `.reg`, `.shared`, `.pragma`, ...
    if (statement.empty() || statement.front() == '.')
      continue;
    Instruction instruction;
    if (statement.consume_front("@")) {
      statement.consume_front("!");
      size_t end = statement.find_first_of(" \t\r\n");
      instruction.guard = statement.take_front(end);
      statement = statement.drop_front(instruction.guard.size()).ltrim();
    }
    size_t space = statement.find_first_of(" \t\r\n");
    StringRef opcode = statement.take_front(space);
    StringRef operands =
        space == StringRef::npos ? StringRef() : statement.drop_front(space);
    opcode.split(instruction.opcode, '.');
    splitOperands(operands, instruction.operands);
    parsed.instructions.push_back(std::move(instruction));
  }
  return parsed;
}

/// Whether `opcode` has a part `part` (or one starting with `part::`,
/// as `shared::cta`).
static bool hasPart(ArrayRef<StringRef> opcode, StringRef part) {
  return llvm::any_of(opcode, [&](StringRef p) {
    return p == part || p.starts_with((part + "::").str());
  });
}

namespace {
/// A PTX type suffix: "f32", "f16x2", "u64", "pred".
struct PtxType {
  char kind = 0; // 'f', 's', 'u', 'b', 'p' (pred), or 0 (not a type)
  unsigned bits = 0;
  unsigned lanes = 1;
  StringRef name;
};
} // namespace

static PtxType parseType(StringRef part) {
  PtxType type;
  type.name = part;
  if (part == "pred") {
    type.kind = 'p';
    type.bits = 1;
    return type;
  }
  if (part.size() < 2 || !llvm::is_contained(StringRef("fsub"), part[0]))
    return {};
  // The widths and packings PTX has (`b128`, `f16x2`, `u16x2`, `f32x2`);
  // anything else is no type.
  StringRef digits = part.drop_front();
  unsigned lanes = 1;
  if (auto [width, count] = digits.split('x'); !count.empty()) {
    if (count.getAsInteger(10, lanes) || (lanes != 2 && lanes != 4))
      return {};
    digits = width;
  }
  unsigned bits = 0;
  if (digits.getAsInteger(10, bits) ||
      !llvm::is_contained({8u, 16u, 32u, 64u, 128u}, bits))
    return {};
  type.kind = part[0];
  type.bits = bits;
  type.lanes = lanes;
  return type;
}

/// The type an instruction operates on: its last opcode part that is one.
/// Brain floats ("bf16", "bf16x2") are float types; tf32 and the f8 formats
/// (e4m3, e5m2) float types of their own.
static PtxType getOperationType(ArrayRef<StringRef> opcode) {
  for (StringRef part : llvm::reverse(opcode.drop_front())) {
    if (part.starts_with("bf16")) {
      PtxType type;
      type.kind = 'f';
      type.bits = 16;
      type.name = part;
      type.lanes = part == "bf16x2" ? 2 : 1;
      return type;
    }
    if (part == "tf32" || part.starts_with("e4m3") ||
        part.starts_with("e5m2")) {
      PtxType type;
      type.kind = 'f';
      type.bits = part == "tf32" ? 32 : 8;
      type.name = part;
      type.lanes = part.ends_with("x2") ? 2 : part.ends_with("x4") ? 4 : 1;
      return type;
    }
    PtxType type = parseType(part);
    if (type.kind)
      return type;
  }
  return {};
}

/// The feature a float operation of `type` counts towards.
static StringRef getFlopsFeature(const PtxType &type) {
  if (type.name.starts_with("bf16"))
    return "flops_bf16";
  if (type.name == "tf32" || type.bits == 8)
    return "flops_other";
  switch (type.bits) {
  case 64:
    return "flops_f64";
  case 32:
    return "flops_f32";
  case 16:
    return "flops_f16";
  default:
    return "flops_other";
  }
}

/// Bytes a load or store of `opcode` moves per thread: vector lanes times
/// the element's bytes.
/// Lanes of a vector load or store (`.v2`, `.v4`, `.v8`); 1 for a scalar
/// one.
static unsigned getVectorLanes(ArrayRef<StringRef> opcode) {
  for (StringRef part : opcode)
    if (part == "v2" || part == "v4" || part == "v8")
      return part[1] - '0';
  return 1;
}

static double getAccessBytes(ArrayRef<StringRef> opcode) {
  PtxType type = getOperationType(opcode);
  return double(getVectorLanes(opcode)) * type.lanes * type.bits / 8;
}

/// Registers an operand names: `%r1`, those of `{%f1, %f2}` and `[%rd8+4]`,
/// `%p1|%p2`, special registers (`%tid.x`).
static void collectRegisters(StringRef operand,
                             llvm::SmallVectorImpl<StringRef> &out) {
  for (size_t at = operand.find('%'); at != StringRef::npos;
       at = operand.find('%', at + 1)) {
    size_t end = at + 1;
    while (end < operand.size() && isIdentifierChar(operand[end]) &&
           operand[end] != '%')
      ++end;
    out.push_back(operand.slice(at, end));
    at = end - 1;
  }
}

static bool isThreadIndexRegister(StringRef name) {
  return name.starts_with("%tid") || name == "%laneid" || name == "%warpid" ||
         name.starts_with("%lanemask");
}

/// Whether the first operand of an instruction with this base opcode is
/// something it writes (registers), rather than memory or nothing.
static bool writesFirstOperand(ArrayRef<StringRef> opcode) {
  StringRef base = opcode.front();
  if (llvm::is_contained({"st",        "red",      "bar",
                          "barrier",   "bra",      "brx",
                          "ret",       "exit",     "membar",
                          "fence",     "prefetch", "prefetchu",
                          "trap",      "call",     "stmatrix",
                          "cp",        "mbarrier", "griddepcontrol",
                          "nanosleep", "pmevent"},
                         base))
    return false;
  if (base == "wmma" && opcode.size() > 1 && opcode[1] == "store")
    return false;
  return true;
}

/// The registers whose values depend on the thread index: those computed
/// from `%tid`, `%laneid`, ... or from such registers, through any number of
/// instructions (a load through a thread-dependent address included).
/// Flow-insensitive: a register is thread-dependent when any of its
/// definitions is. A worklist over the instructions that read each
/// register: every instruction is marked at most once.
static llvm::StringSet<> findThreadDependent(const ParsedBody &body) {
  size_t count = body.instructions.size();
  std::vector<llvm::SmallVector<StringRef, 2>> results(count);
  llvm::StringMap<llvm::SmallVector<size_t, 4>> readers;
  std::vector<size_t> work;
  for (auto [index, instruction] : llvm::enumerate(body.instructions)) {
    if (instruction.operands.empty() || !writesFirstOperand(instruction.opcode))
      continue;
    collectRegisters(instruction.operands.front(), results[index]);
    llvm::SmallVector<StringRef> sources;
    for (StringRef operand : llvm::drop_begin(instruction.operands))
      collectRegisters(operand, sources);
    bool fromThread = false;
    for (StringRef source : sources) {
      fromThread |= isThreadIndexRegister(source);
      readers[source].push_back(index);
    }
    if (fromThread)
      work.push_back(index);
  }
  llvm::StringSet<> dependent;
  std::vector<bool> marked(count, false);
  while (!work.empty()) {
    size_t index = work.back();
    work.pop_back();
    if (marked[index])
      continue;
    marked[index] = true;
    for (StringRef result : results[index]) {
      if (!dependent.insert(result).second)
        continue;
      auto found = readers.find(result);
      if (found != readers.end())
        llvm::append_range(work, found->second);
    }
  }
  return dependent;
}

std::optional<FloatFormat> mlir::autoprof::getFloatFormat(StringRef name) {
  name.consume_back("x2");
  name.consume_back("x4");
  return llvm::StringSwitch<std::optional<FloatFormat>>(name)
      .Case("f64", FloatFormat{52, 11})
      .Case("f32", FloatFormat{23, 8})
      .Case("tf32", FloatFormat{10, 8})
      .Case("f16", FloatFormat{10, 5})
      .Case("bf16", FloatFormat{7, 8})
      .Case("e4m3", FloatFormat{3, 4})
      .Case("e5m2", FloatFormat{2, 5})
      .Case("e3m2", FloatFormat{2, 3})
      .Case("e2m3", FloatFormat{3, 2})
      .Case("e2m1", FloatFormat{1, 2})
      .Default(std::nullopt);
}

std::string mlir::autoprof::describeFloatFormat(const FloatFormat &format) {
  if (format == FloatFormat{0, 0})
    return "an unknown format";
  for (StringRef name : {"f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2",
                         "e3m2", "e2m3", "e2m1"})
    if (getFloatFormat(name) == format)
      return name.str();
  return "m" + std::to_string(format.mantissa) + "e" +
         std::to_string(format.exponent);
}

/// The least precise of two optional formats, and the most precise.
static void noteLeast(std::optional<FloatFormat> &least, FloatFormat format) {
  least = least ? least->meet(format) : format;
}
static FloatFormat join(const FloatFormat &a, const FloatFormat &b) {
  return {std::max(a.mantissa, b.mantissa), std::max(a.exponent, b.exponent)};
}

/// The (to, from) float formats of a conversion: its last two type parts
/// (cvt.f32.f16, cvt.ftz.f32.f16, cvt.rn.f16.f32).
static std::optional<std::pair<FloatFormat, FloatFormat>>
getConversionFormats(ArrayRef<StringRef> opcode) {
  if (opcode.front() != "cvt" || opcode.size() < 3)
    return std::nullopt;
  std::optional<FloatFormat> to = getFloatFormat(opcode[opcode.size() - 2]);
  std::optional<FloatFormat> from = getFloatFormat(opcode.back());
  if (!to || !from)
    return std::nullopt;
  return std::make_pair(*to, *from);
}

/// For each register whose every definition is an exact widening
/// (cvt.f32.f16, cvt.f32.bf16, cvt.f64.f32), or a move or selection of
/// such registers and immediates, the format its values were widened from
/// (the most precise of its definitions'): a product of such values is
/// one of the narrower values. Computed to a fixed point.
static llvm::StringMap<FloatFormat>
findWidenedRegisters(const ParsedBody &body) {
  // Each written register's definitions.
  llvm::StringMap<llvm::SmallVector<const Instruction *, 2>> definitions;
  for (const Instruction &instruction : body.instructions)
    if (!instruction.operands.empty() &&
        writesFirstOperand(instruction.opcode))
      definitions[instruction.operands.front().trim()].push_back(&instruction);
  llvm::StringMap<FloatFormat> widened;
  // Optimistic start: every register a widening or a copy defines; a
  // register leaves when a definition is neither, or reads one that left.
  llvm::StringSet<> candidates;
  for (const auto &entry : definitions)
    candidates.insert(entry.getKey());
  bool changed = true;
  while (changed) {
    changed = false;
    for (const auto &entry : definitions) {
      StringRef name = entry.getKey();
      if (!candidates.contains(name))
        continue;
      std::optional<FloatFormat> format;
      bool exact = true;
      for (const Instruction *instruction : entry.getValue()) {
        ArrayRef<StringRef> opcode = instruction->opcode;
        if (auto formats = getConversionFormats(opcode)) {
          auto [to, from] = *formats;
          if (!to.covers(from) || to == from) {
            exact = false;
            break;
          }
          format = format ? join(*format, from) : from;
          continue;
        }
        if (opcode.front() != "mov" && opcode.front() != "selp") {
          exact = false;
          break;
        }
        // Sources: the operands after the result (selp's last one is its
        // predicate); immediates take any format.
        ArrayRef<StringRef> operands = instruction->operands;
        size_t last = opcode.front() == "selp" ? 3 : operands.size();
        for (size_t i = 1; i < last && i < operands.size(); ++i) {
          StringRef source = operands[i].trim();
          if (!source.starts_with("%"))
            continue;
          if (!candidates.contains(source)) {
            exact = false;
            break;
          }
          auto it = widened.find(source);
          if (it != widened.end())
            format = format ? join(*format, it->second) : it->second;
        }
        if (!exact)
          break;
      }
      if (!exact) {
        candidates.erase(name);
        widened.erase(name);
        changed = true;
        continue;
      }
      if (format) {
        auto [it, inserted] = widened.try_emplace(name, *format);
        if (inserted || !(it->second == *format)) {
          it->second = *format;
          changed = true;
        }
      }
    }
  }
  // Only registers some widening reaches count.
  return widened;
}

/// Records the formats of one instruction's products and accumulations.
static void notePrecision(const Instruction &instruction,
                          const llvm::StringMap<FloatFormat> &widened,
                          PtxMathPrecision &out) {
  ArrayRef<StringRef> opcode = instruction.opcode;
  StringRef base = opcode.front();
  StringRef second = opcode.size() > 1 ? opcode[1] : StringRef();
  // Tensor-core products: the formats after the shape are those of D, A, B
  // and C (wgmma: D, A, B; wmma of halves names D and C only). tcgen05's
  // are in its descriptor: unknown here.
  if (base == "tcgen05" && second == "mma") {
    noteLeast(out.productOperands, FloatFormat{0, 0});
    noteLeast(out.productRounding, FloatFormat{0, 0});
    noteLeast(out.accumulation, FloatFormat{0, 0});
    return;
  }
  if (base == "mma" ||
      ((base == "wgmma" || base == "wmma") && second.starts_with("mma"))) {
    llvm::SmallVector<FloatFormat> formats;
    bool unknown = false;
    for (StringRef part : opcode.drop_front()) {
      if (std::optional<FloatFormat> format = getFloatFormat(part))
        formats.push_back(*format);
      else if (part.size() >= 4 && part[0] == 'e' && llvm::isDigit(part[1]) &&
               part[2] == 'm' && llvm::isDigit(part[3]))
        unknown = true;
    }
    if (formats.empty())
      return;
    noteLeast(out.accumulation, formats.front());
    noteLeast(out.productRounding, formats.front());
    if (base != "wgmma" && formats.size() > 1)
      noteLeast(out.accumulation, formats.back());
    if (unknown) {
      noteLeast(out.productOperands, FloatFormat{0, 0});
    } else if (formats.size() > 2) {
      ArrayRef<FloatFormat> operands =
          ArrayRef(formats).drop_front().drop_back(base == "wgmma" ? 0 : 1);
      FloatFormat product = operands.front();
      for (FloatFormat format : operands)
        product = join(product, format);
      noteLeast(out.productOperands, product);
    } else {
      noteLeast(out.productOperands, *getFloatFormat("f16"));
    }
    return;
  }
  // A value rounded to tf32 (cvt.rna.tf32.f32) takes part in tf32
  // products.
  if (base == "cvt") {
    if (llvm::is_contained(opcode, StringRef("tf32")))
      noteLeast(out.productOperands, *getFloatFormat("tf32"));
    return;
  }
  bool multiplies = llvm::is_contained({"mul", "fma", "mad"}, base);
  bool accumulates = llvm::is_contained({"add", "sub", "fma", "mad"}, base);
  bool other = llvm::is_contained({"div", "rcp", "sqrt", "rsqrt", "ex2",
                                   "lg2", "sin", "cos", "tanh"},
                                  base);
  if (!multiplies && !accumulates && !other)
    return;
  // The formats the instruction names: one, or (PTX 8.6's mixed forms,
  // fma.rn.f32.f16) the result's and then the operands'.
  llvm::SmallVector<FloatFormat, 2> named;
  for (StringRef part : opcode.drop_front())
    if (std::optional<FloatFormat> format = getFloatFormat(part))
      named.push_back(*format);
  if (named.empty())
    return;
  FloatFormat result = named.front(), operandFormat = named.back();
  if (accumulates || other)
    noteLeast(out.accumulation, result);
  if (other) {
    noteLeast(out.productOperands, operandFormat);
    noteLeast(out.productRounding, result);
    return;
  }
  if (!multiplies)
    return;
  std::optional<FloatFormat> product;
  for (unsigned i = 1; i <= 2 && i < instruction.operands.size(); ++i) {
    auto it = widened.find(instruction.operands[i].trim());
    FloatFormat operand = it == widened.end() ? operandFormat : it->second;
    product = product ? join(*product, operand) : operand;
  }
  noteLeast(out.productOperands, product ? *product : operandFormat);
  noteLeast(out.productRounding, result);
}

PtxInstructionCounts mlir::autoprof::countPtxInstructions(StringRef body) {
  std::string storage;
  ParsedBody parsed = parseBody(body, storage);
  PtxInstructionCounts result;
  llvm::StringMap<double> &counts = result.counts;
  llvm::StringSet<> threadDependent = findThreadDependent(parsed);
  llvm::StringMap<FloatFormat> widened = findWidenedRegisters(parsed);

  // Loops: a branch to a label at or before it closes one; the loop is the
  // span from its header to its last back edge.
  llvm::DenseMap<size_t, size_t> loopEnds;
  for (auto [index, instruction] : llvm::enumerate(parsed.instructions)) {
    StringRef base = instruction.opcode.front();
    if (base != "bra" || instruction.operands.empty())
      continue;
    auto target = parsed.labels.find(instruction.operands.front());
    if (target == parsed.labels.end() || target->second > index)
      continue;
    size_t &end = loopEnds[target->second];
    end = std::max(end, index);
  }
  result.loops = loopEnds.size();
  // The nesting: the most loop spans that hold one instruction, by a sweep
  // over where spans open (+1) and close (-1), closing first at a tie.
  std::vector<std::pair<size_t, int>> events;
  for (auto [start, end] : loopEnds) {
    events.push_back({start, 1});
    events.push_back({end + 1, -1});
  }
  llvm::sort(events, [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  int depth = 0;
  for (auto [at, change] : events) {
    depth += change;
    result.loopDepth = std::max(result.loopDepth, unsigned(depth));
  }

  for (const Instruction &instruction : parsed.instructions) {
    ArrayRef<StringRef> opcode = instruction.opcode;
    StringRef base = opcode.front();
    StringRef second = opcode.size() > 1 ? opcode[1] : StringRef();
    PtxType type = getOperationType(opcode);
    notePrecision(instruction, widened, result.precision);

    // Control flow and synchronization.
    if (base == "bra" || base == "brx") {
      if (!instruction.guard.empty() || base == "brx") {
        counts["branches"] += 1;
        if (threadDependent.contains(instruction.guard))
          counts["divergent_branches"] += 1;
      }
      continue;
    }
    if ((base == "bar" || base == "barrier") && second != "warp") {
      counts["barriers"] += 1;
      continue;
    }
    if (base == "shfl") {
      counts["warp_shuffles"] += 1;
      continue;
    }
    if (base == "mma" ||
        ((base == "wgmma" || base == "wmma") && second.starts_with("mma"))) {
      counts["tensor_core_ops"] += 1;
      continue;
    }

    // Memory.
    if (base == "ld" || base == "ldu" || base == "st" ||
        (base == "wmma" && (second == "load" || second == "store"))) {
      bool store = base == "st" || second == "store";
      if (hasPart(opcode, "param") || hasPart(opcode, "local") ||
          hasPart(opcode, "const"))
        continue;
      double bytes = base == "wmma" ? 0 : getAccessBytes(opcode);
      if (hasPart(opcode, "shared")) {
        counts[store ? "shared_stores" : "shared_loads"] += 1;
        continue;
      }
      // Global, or generic (which kernels use for global memory).
      counts[store ? "global_stores" : "global_loads"] += 1;
      counts[store ? "global_store_bytes" : "global_load_bytes"] += bytes;
      if (getVectorLanes(opcode) > 1)
        result.maxVectorBits =
            std::max(result.maxVectorBits, uint64_t(bytes * 8));
      continue;
    }
    if (base == "ldmatrix") {
      counts["shared_loads"] += 1;
      continue;
    }
    if (base == "stmatrix") {
      counts["shared_stores"] += 1;
      continue;
    }
    if (base == "cp" && second.starts_with("async")) {
      // cp.async.ca.shared.global [dst], [src], 16: the first state space
      // is the destination's, the second the source's (shared to global
      // for cp.async.bulk.global.shared::cta, a store); the copy's size is
      // the third operand where the form has one (not the tensor forms).
      // A prefetch into L2 moves nothing into a thread's reach.
      if (hasPart(opcode, "prefetch"))
        continue;
      llvm::SmallVector<bool, 2> spaces; // true: global, false: shared
      for (StringRef part : opcode)
        if (part == "global" || part == "shared" ||
            part.starts_with("shared::"))
          spaces.push_back(part == "global");
      if (spaces.size() != 2)
        continue;
      bool toGlobal = spaces[0], fromGlobal = spaces[1];
      counts[toGlobal ? "global_stores" : "shared_stores"] += 1;
      counts[fromGlobal ? "global_loads" : "shared_loads"] += 1;
      uint64_t size = 0;
      if (instruction.operands.size() > 2 &&
          !instruction.operands[2].getAsInteger(0, size)) {
        if (toGlobal)
          counts["global_store_bytes"] += double(size);
        if (fromGlobal)
          counts["global_load_bytes"] += double(size);
      }
      continue;
    }
    if (base == "atom" || base == "red") {
      // red.global.add.v4.f32: four lanes of the vector each add.
      double lanes = double(getVectorLanes(opcode)) * type.lanes;
      counts["atomics"] += 1;
      if (type.kind == 'f' && hasPart(opcode, "add"))
        counts[getFlopsFeature(type)] += lanes;
      if (!hasPart(opcode, "shared"))
        counts["global_atomic_bytes"] += lanes * type.bits / 8;
      continue;
    }

    // Arithmetic.
    if (base == "cvt") {
      counts["conversions"] += 1;
      continue;
    }
    if (type.kind == 'f') {
      if (llvm::is_contained(
              {"ex2", "lg2", "sin", "cos", "tanh", "sqrt", "rsqrt", "rcp"},
              base)) {
        counts["special_functions"] += type.lanes;
        continue;
      }
      if (llvm::is_contained({"add", "sub", "mul", "div", "min", "max", "neg",
                              "abs", "setp", "set", "copysign", "fma", "mad"},
                             base)) {
        double per = base == "fma" || base == "mad" ? 2 : 1;
        counts[getFlopsFeature(type)] += per * type.lanes;
      }
      continue;
    }
    if (type.kind == 's' || type.kind == 'u' || type.kind == 'b' ||
        type.kind == 'p') {
      static const llvm::StringSet<> kIntegerOps = {
          "add", "sub",  "mul",   "mul24", "div",  "rem",  "abs",
          "neg", "min",  "max",   "shl",   "shr",  "and",  "or",
          "xor", "not",  "cnot",  "popc",  "clz",  "brev", "bfe",
          "bfi", "fns",  "setp",  "set",   "shf",  "prmt", "lop3",
          "sad", "bmsk", "szext", "addc",  "subc", "dp4a", "dp2a"};
      if (kIntegerOps.contains(base))
        counts["int_ops"] += 1;
      else if (base == "mad" || base == "mad24" || base == "madc")
        counts["int_ops"] += 2;
    }
  }
  return result;
}
