//===- PtxFeatures.cpp - Kernel features of an imported kernel ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/PtxFeatures.h"

#include "autoprof/Analysis/FeatureSchema.h"
#include "autoprof/Import/PtxInstructions.h"
#include "autoprof/Runtime/HostData.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

/// Bytes of a parameter under the bare-pointer ABI: a buffer is a pointer.
static uint64_t getParamBytes(const rt::JobParam &param) {
  return param.isScalar ? unsigned(rt::dtypeSize(param.dtype)) : 8;
}

/// Calls `visit` with the groups of every match of `regex` in `text`, left
/// to right, matches not overlapping.
static void forEachMatch(const llvm::Regex &regex, StringRef text,
                         function_ref<void(ArrayRef<StringRef>)> visit) {
  SmallVector<StringRef> match;
  while (regex.match(text, &match)) {
    text = text.drop_front(match[0].end() - text.begin());
    visit(match);
  }
}

/// Whether `text` names the identifier `name`: an occurrence neither
/// preceded nor followed by a character of a PTX identifier (`tile` is not
/// named by `tile_b` or `%tile`).
static bool namesIdentifier(StringRef text, StringRef name) {
  auto isIdentifierChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '%';
  };
  for (size_t at = text.find(name); at != StringRef::npos;
       at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at == 0 || !isIdentifierChar(text[at - 1])) &&
        (end == text.size() || !isIdentifierChar(text[end])))
      return true;
  }
  return false;
}

/// Bytes that `.<space>` variable declarations of `text` reserve, counting
/// only the variables `uses` names when given (`.extern` arrays of no size,
/// dynamic shared memory, reserve none).
static uint64_t getDeclaredBytes(StringRef text, StringRef space,
                                 std::optional<StringRef> uses) {
  llvm::Regex declaration(
      "(^|[\n;{])[ \t]*(\\.extern[ \t]+)?\\." + space.str() +
      "[ \t]+(\\.align[ \t]+[0-9]+[ \t]+)?\\.[bfsu]([0-9]+)[ \t]+"
      "([A-Za-z_$%][A-Za-z0-9_$]*)(\\[([0-9]*)\\])?");
  uint64_t bytes = 0;
  forEachMatch(declaration, text, [&](ArrayRef<StringRef> match) {
    if (!match[2].empty() || (uses && !namesIdentifier(*uses, match[5])))
      return;
    uint64_t bits = 0, count = 1;
    match[4].getAsInteger(10, bits);
    if (!match[6].empty() && match[7].getAsInteger(10, count))
      return;
    bytes += bits / 8 * count;
  });
  return bytes;
}

KernelFeatures
mlir::autoprof::computePtxFeatures(const ImportedKernel &kernel) {
  const rt::JobLaunch &launch = kernel.jobLaunch;
  KernelFeatures features;
  double blocks = double(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  double threads = double(launch.block[0]) * launch.block[1] * launch.block[2];
  features.set("grid_x", launch.grid[0]);
  features.set("grid_y", launch.grid[1]);
  features.set("grid_z", launch.grid[2]);
  features.set("block_x", launch.block[0]);
  features.set("block_y", launch.block[1]);
  features.set("block_z", launch.block[2]);
  features.set("grid_blocks", blocks);
  features.set("block_threads", threads);
  features.set("total_threads", blocks * threads);
  features.set("dynamic_shared_bytes", launch.dynamicSharedBytes);
  uint64_t argBytes = 0;
  for (const rt::JobParam &param : launch.params)
    argBytes += getParamBytes(param);
  features.set("arg_bytes", double(argBytes));
  // A cubin's machine code is not read: what its PTX would give is absent.
  if (kernel.isCubin())
    return features;

  // Declarations in the entry's body, and those at module scope that the
  // body names.
  StringRef ptx = kernel.ptx;
  StringRef body = getPtxEntryBody(ptx, kernel.entry);
  size_t entryStart = ptx.find(".entry");
  StringRef moduleScope =
      entryStart == StringRef::npos ? ptx : ptx.take_front(entryStart);
  for (auto [space, feature] :
       {std::pair<StringRef, StringRef>{"shared", "static_shared_bytes"},
        {"local", "local_bytes"}})
    features.set(feature, double(getDeclaredBytes(body, space, std::nullopt) +
                                 getDeclaredBytes(moduleScope, space, body)));

  // What the instructions do, each counted once (PtxInstructions.h), under
  // the names and with the derived estimates of a gpu.func's features.
  PtxInstructionCounts counts = countPtxInstructions(body);
  for (StringRef name :
       {"global_loads", "global_stores", "global_load_bytes",
        "global_store_bytes", "shared_loads", "shared_stores", "atomics",
        "barriers", "branches", "divergent_branches", "flops_f64", "flops_f32",
        "flops_f16", "flops_bf16", "special_functions", "int_ops",
        "conversions", "tensor_core_ops", "warp_shuffles"})
    features.set(name, counts.get(name));
  features.set("max_vector_bits", double(counts.maxVectorBits));
  features.set("unknown_trip_loops", counts.loops);
  features.set("loop_depth", counts.loopDepth);
  double flops = counts.get("flops_f64") + counts.get("flops_f32") +
                 counts.get("flops_f16") + counts.get("flops_bf16") +
                 counts.get("flops_other");
  double bytes = counts.get("global_load_bytes") +
                 counts.get("global_store_bytes") +
                 counts.get("global_atomic_bytes");
  features.set("flops", flops);
  features.set("global_bytes_per_thread", bytes);
  if (bytes > 0)
    features.set("arith_intensity", flops / bytes);
  features.set("global_bytes_total", bytes * blocks * threads);
  features.set("flops_total", flops * blocks * threads);
  return features;
}
