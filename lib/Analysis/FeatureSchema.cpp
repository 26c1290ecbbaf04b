//===- FeatureSchema.cpp - Names and ranges of kernel features ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/FeatureSchema.h"

#include <limits>

using namespace mlir::autoprof;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr FeatureKind S = FeatureKind::Static;
constexpr FeatureKind D = FeatureKind::Dynamic;

// Per-thread counts are weighted by constant loop trip counts (a loop whose
// trip count is unknown counts its body once); branches count both sides, so
// they are upper bounds for the path a thread takes. A kernel known only as
// PTX has the same features, counted from its instructions
// (autoprof/Import/PtxInstructions.h): PTX states no trip counts, so each of
// its loops counts as one of unknown trip count.
const FeatureInfo kSchema[] = {
    // Launch configuration, from the host's gpu.launch_func.
    {"grid_x", "blocks in the grid along x", S, true, 1, kInf},
    {"grid_y", "blocks in the grid along y", S, true, 1, kInf},
    {"grid_z", "blocks in the grid along z", S, true, 1, kInf},
    {"block_x", "threads per block along x", S, true, 1, 1024},
    {"block_y", "threads per block along y", S, true, 1, 1024},
    {"block_z", "threads per block along z", S, true, 1, 64},
    {"grid_blocks", "blocks in the grid", S, true, 1, kInf},
    {"block_threads", "threads per block", S, true, 1, 1024},
    {"total_threads", "threads in the launch", S, true, 1, kInf},
    {"dynamic_shared_bytes", "dynamic shared memory per block (bytes)", S, true,
     0, kInf},
    {"arg_bytes", "kernel parameter bytes under the bare-pointer ABI", S, true,
     0, kInf},
    // Memory footprint.
    {"static_shared_bytes", "static shared memory per block (bytes)", S, true,
     0, kInf},
    {"local_bytes",
     "per-thread private (local) memory: memref.alloca, or .local in PTX", S,
     true, 0, kInf},
    // Per-thread operation counts.
    {"global_loads", "global memory load instructions per thread", S, true, 0,
     kInf},
    {"global_stores", "global memory store instructions per thread", S, true, 0,
     kInf},
    {"global_load_bytes", "bytes loaded from global memory per thread", S, true,
     0, kInf},
    {"global_store_bytes", "bytes stored to global memory per thread", S, true,
     0, kInf},
    {"shared_loads", "shared memory loads per thread", S, true, 0, kInf},
    {"shared_stores", "shared memory stores per thread", S, true, 0, kInf},
    {"atomics", "atomic read-modify-write operations per thread", S, true, 0,
     kInf},
    {"barriers", "block-wide barriers per thread", S, true, 0, kInf},
    {"branches", "conditional branches and loop exits per thread", S, true, 0,
     kInf},
    {"divergent_branches",
     "branches whose condition depends on the thread index", S, true, 0, kInf},
    {"flops_f64", "f64 floating-point operations per thread (FMA = 2)", S, true,
     0, kInf},
    {"flops_f32", "f32 floating-point operations per thread (FMA = 2)", S, true,
     0, kInf},
    {"flops_f16", "f16 floating-point operations per thread (FMA = 2)", S, true,
     0, kInf},
    {"flops_bf16", "bf16 floating-point operations per thread (FMA = 2)", S,
     true, 0, kInf},
    {"flops", "floating-point operations per thread, all types", S, true, 0,
     kInf},
    {"special_functions",
     "transcendental and special-function evaluations per thread", S, true, 0,
     kInf},
    {"int_ops", "integer and index arithmetic per thread", S, true, 0, kInf},
    {"conversions", "numeric type conversions per thread", S, true, 0, kInf},
    {"tensor_core_ops", "tensor-core matrix operations per thread", S, true, 0,
     kInf},
    {"warp_shuffles", "warp shuffles per thread", S, true, 0, kInf},
    // Structure.
    {"loop_depth", "deepest loop nest in the kernel", S, true, 0, kInf},
    {"unknown_trip_loops",
     "loops whose trip count is not a compile-time constant", S, true, 0, kInf},
    {"max_vector_bits", "widest vector memory access (bits)", S, true, 0, kInf},
    // Derived estimates.
    {"global_bytes_per_thread",
     "global bytes loaded, stored and updated atomically per thread", S, true,
     0, kInf},
    {"global_bytes_total", "global bytes moved by the whole launch", S, true, 0,
     kInf},
    {"flops_total", "floating-point operations of the whole launch", S, true, 0,
     kInf},
    {"arith_intensity", "floating-point operations per global byte", S, false,
     0, kInf},
    // Dynamic: one timed run, no counters.
    {"duration_us", "measured kernel duration (microseconds)", D, false, 0,
     kInf},
    {"dram_bandwidth_fraction",
     "achieved bytes/s over the measured peak DRAM bandwidth", D, false, 0, 1},
    {"waves_per_sm", "blocks per SM over the resident blocks per SM", D, false,
     0, kInf},
};
} // namespace

llvm::ArrayRef<FeatureInfo> mlir::autoprof::getFeatureSchema() {
  return kSchema;
}

const FeatureInfo *mlir::autoprof::lookupFeature(llvm::StringRef name) {
  for (const FeatureInfo &info : kSchema)
    if (info.name == name)
      return &info;
  return nullptr;
}

std::string mlir::autoprof::suggestFeature(llvm::StringRef name) {
  llvm::StringRef best;
  unsigned bestDistance = std::max<unsigned>(2, name.size() / 3) + 1;
  for (const FeatureInfo &info : kSchema) {
    unsigned distance =
        name.edit_distance(info.name, /*AllowReplacements=*/true, bestDistance);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = info.name;
    }
  }
  return best.str();
}
