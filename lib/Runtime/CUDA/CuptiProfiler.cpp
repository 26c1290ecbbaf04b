//===- CuptiProfiler.cpp - Hardware counters through CUPTI ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// autoprof_profile_collect() and autoprof_profile_free(): hardware counters
// through CUPTI's Range Profiler and Profiler Host API (CUDA 13.0), plus the
// launch and device metrics Nsight Compute computes itself (`launch__*`,
// `device__attribute_*`), which come from driver queries here.
//
// CUPTI flow for one collection (kernel replay, auto range):
//   1. host side: chip name, counter availability of the context, a host
//      object; every requested name is validated on its own (one unknown or
//      unsupported name makes a whole config fail with
//      CUPTI_ERROR_INVALID_PARAMETER), the valid ones make the config image,
//      and the host API tells the number of replay passes before anything
//      runs;
//   2. target side: the range profiler is enabled on the session's context,
//      configured with the config image and a counter data image for one
//      range, started; the kernel is launched once (CUPTI replays it once per
//      pass, saving and restoring device memory itself); stopped until every
//      pass is submitted; decoded;
//   3. host side again: the metric values are evaluated from the counter
//      data image.
//
// libcupti is opened with dlopen on first use so that the shim builds from
// the headers alone. Names are validated once per process and chip; the
// verdicts are cached.
//
// Set AUTOPROF_PROFILER_TRACE=1 to print the time of every phase to stderr.
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include <cuda_occupancy.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

using namespace autoprof::runtime;

namespace {

//===----------------------------------------------------------------------===//
// Loading libcupti
//===----------------------------------------------------------------------===//

/// CUPTI functions the profiler needs; every one must resolve. The Range
/// Profiler exists since CUDA 12.6 Update 2.
#define AUTOPROF_CUPTI_FUNCTIONS(X)                                            \
  X(cuptiGetResultString)                                                      \
  X(cuptiGetVersion)                                                           \
  X(cuptiProfilerInitialize)                                                   \
  X(cuptiDeviceGetChipName)                                                    \
  X(cuptiProfilerGetCounterAvailability)                                       \
  X(cuptiProfilerHostInitialize)                                               \
  X(cuptiProfilerHostDeinitialize)                                             \
  X(cuptiProfilerHostConfigAddMetrics)                                         \
  X(cuptiProfilerHostGetConfigImageSize)                                       \
  X(cuptiProfilerHostGetConfigImage)                                           \
  X(cuptiProfilerHostGetNumOfPasses)                                           \
  X(cuptiProfilerHostEvaluateToGpuValues)                                      \
  X(cuptiProfilerHostGetMetricProperties)                                      \
  X(cuptiRangeProfilerEnable)                                                  \
  X(cuptiRangeProfilerDisable)                                                 \
  X(cuptiRangeProfilerSetConfig)                                               \
  X(cuptiRangeProfilerStart)                                                   \
  X(cuptiRangeProfilerStop)                                                    \
  X(cuptiRangeProfilerDecodeData)                                              \
  X(cuptiRangeProfilerGetCounterDataSize)                                      \
  X(cuptiRangeProfilerCounterDataImageInitialize)                              \
  X(cuptiRangeProfilerGetCounterDataInfo)

/// CUPTI, resolved from libcupti; members are named like the functions.
struct CuptiApi {
  AUTOPROF_CUPTI_FUNCTIONS(AUTOPROF_DECLARE_FUNCTION_POINTER)
};

/// Outcome of loading libcupti, once per process.
struct CuptiLoadState {
  CuptiApi api;
  bool ok = false;
  /// A sentence saying why CUPTI is unavailable; empty when ok.
  std::string error;
  /// The library that was opened, and its CUPTI API version.
  std::string path;
  uint32_t version = 0;
};

template <typename Fn>
bool resolveSymbol(void *handle, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  return fn != nullptr;
}

const CuptiLoadState &loadCupti() {
  static const CuptiLoadState state = [] {
    CuptiLoadState s;
    const char *names[] = {"libcupti.so.13", "libcupti.so"};
    const char *subdirs[] = {"extras/CUPTI/lib64", "lib64"};
    std::string tried;
    void *handle = openLibrary(names, 2, subdirs, 2, tried);
    // Where the toolkit is installed under its versioned name only.
    const char *fallbacks[] = {
        "/usr/local/cuda-13.0/lib/libcupti.so.13",
        "/usr/local/cuda-13.0/lib64/libcupti.so.13",
        "/usr/local/cuda-13.0/extras/CUPTI/lib64/libcupti.so.13"};
    for (const char *path : fallbacks) {
      if (handle)
        break;
      tried += std::string(", ") + path;
      handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    if (!handle) {
      s.error = "CUPTI is not available, so hardware counters cannot be "
                "collected (install the CUDA toolkit's CUPTI or set "
                "CUDA_HOME); tried " +
                tried;
      return s;
    }
    std::string missing;
#define AUTOPROF_RESOLVE_CUPTI(name)                                           \
  if (!resolveSymbol(handle, #name, s.api.name))                               \
    missing += std::string(missing.empty() ? "" : ", ") + #name;
    AUTOPROF_CUPTI_FUNCTIONS(AUTOPROF_RESOLVE_CUPTI)
#undef AUTOPROF_RESOLVE_CUPTI
    Dl_info info;
    if (s.api.cuptiGetVersion &&
        dladdr(reinterpret_cast<void *>(s.api.cuptiGetVersion), &info) &&
        info.dli_fname)
      s.path = info.dli_fname;
    if (!missing.empty()) {
      s.error = "the CUPTI library found (" + s.path +
                ") lacks the Range Profiler API (CUDA 12.6 Update 2 or "
                "newer is needed): missing " +
                missing;
      return s;
    }
    s.api.cuptiGetVersion(&s.version);
    s.ok = true;
    return s;
  }();
  return state;
}

/// "CUPTI_ERROR_X" plus a hint for the results that have a usual cause.
std::string describeCupti(const CuptiApi &api, CUptiResult result) {
  const char *text = nullptr;
  std::string message;
  if (api.cuptiGetResultString &&
      api.cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text)
    message = text;
  else
    message = "CUPTI error " + std::to_string(static_cast<int>(result));
  switch (result) {
  case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
  case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    message += " (GPU performance counters are restricted to administrators: "
               "run as root or load the nvidia module with "
               "NVreg_RestrictProfilingToAdminUsers=0)";
    break;
  case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
  case CUPTI_ERROR_HARDWARE_BUSY:
  case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    message += " (another profiler such as ncu or nsys, or another CUPTI "
               "client, holds the GPU's counters)";
    break;
  default:
    break;
  }
  return message;
}

//===----------------------------------------------------------------------===//
// Process-wide CUPTI state
//===----------------------------------------------------------------------===//

/// What validation found out about one metric name on one chip.
struct MetricVerdict {
  bool valid = false;
  /// Why the name is invalid; empty when valid.
  std::string note;
};

struct CuptiProcessState {
  std::mutex mutex;
  /// cuptiProfilerInitialize has succeeded (done once per process; the
  /// profiler stays initialized until the process exits).
  bool profilerInitialized = false;
  /// Verdicts by "<chip>/<metric name>".
  std::unordered_map<std::string, MetricVerdict> verdicts;
  /// Chip name and counter availability image by device ordinal; both are
  /// fixed for a device, and the availability query costs ~70 ms.
  struct DeviceInfo {
    std::string chip;
    std::vector<uint8_t> availability;
  };
  std::unordered_map<int, DeviceInfo> devices;
};

CuptiProcessState &processState() {
  static CuptiProcessState state;
  return state;
}

/// Zero-initialized CUPTI parameter struct with its structSize set.
template <typename Params> Params makeParams(size_t structSize) {
  Params params{};
  params.structSize = structSize;
  return params;
}

//===----------------------------------------------------------------------===//
// RAII wrappers of CUPTI objects
//===----------------------------------------------------------------------===//

/// A profiler host object (configuration and evaluation), deinitialized on
/// destruction.
class HostObject {
public:
  explicit HostObject(const CuptiApi &api) : api(api) {}
  ~HostObject() { reset(); }
  HostObject(const HostObject &) = delete;
  HostObject &operator=(const HostObject &) = delete;

  CUptiResult initialize(const std::string &chip,
                         const std::vector<uint8_t> &availability) {
    reset();
    auto params = makeParams<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    params.pChipName = chip.c_str();
    params.pCounterAvailabilityImage =
        availability.empty() ? nullptr : availability.data();
    CUptiResult result = api.cuptiProfilerHostInitialize(&params);
    if (result == CUPTI_SUCCESS)
      object = params.pHostObject;
    added = 0;
    return result;
  }

  void reset() {
    if (!object)
      return;
    auto params = makeParams<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    params.pHostObject = object;
    api.cuptiProfilerHostDeinitialize(&params);
    object = nullptr;
    added = 0;
  }

  CUptiResult addMetrics(std::vector<const char *> &names) {
    auto params = makeParams<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    params.pHostObject = object;
    params.ppMetricNames = names.data();
    params.numMetrics = names.size();
    CUptiResult result = api.cuptiProfilerHostConfigAddMetrics(&params);
    if (result == CUPTI_SUCCESS)
      added += names.size();
    return result;
  }

  /// Whether `name` (with or without rollup and submetric) is a metric the
  /// host knows on its chip.
  bool knowsMetric(const std::string &name) {
    auto params = makeParams<CUpti_Profiler_Host_GetMetricProperties_Params>(
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    params.pHostObject = object;
    params.pMetricName = name.c_str();
    return api.cuptiProfilerHostGetMetricProperties(&params) == CUPTI_SUCCESS;
  }

  CUpti_Profiler_Host_Object *get() const { return object; }
  /// Metrics added since initialize().
  size_t numAdded() const { return added; }

private:
  const CuptiApi &api;
  CUpti_Profiler_Host_Object *object = nullptr;
  size_t added = 0;
};

/// The configuration image of the metrics added to `host` and the replay
/// passes it takes; on a failure, the CUPTI call that failed in `failed`.
CUptiResult configureHost(const CuptiApi &api, const HostObject &host,
                          std::vector<uint8_t> &image, size_t &passes,
                          const char *&failed) {
  auto sizeParams = makeParams<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  sizeParams.pHostObject = host.get();
  failed = "cuptiProfilerHostGetConfigImageSize";
  CUptiResult result = api.cuptiProfilerHostGetConfigImageSize(&sizeParams);
  if (result != CUPTI_SUCCESS)
    return result;
  image.assign(sizeParams.configImageSize, 0);
  auto imageParams = makeParams<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  imageParams.pHostObject = host.get();
  imageParams.configImageSize = image.size();
  imageParams.pConfigImage = image.data();
  failed = "cuptiProfilerHostGetConfigImage";
  result = api.cuptiProfilerHostGetConfigImage(&imageParams);
  if (result != CUPTI_SUCCESS)
    return result;
  auto passParams = makeParams<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passParams.configImageSize = image.size();
  passParams.pConfigImage = image.data();
  failed = "cuptiProfilerHostGetNumOfPasses";
  result = api.cuptiProfilerHostGetNumOfPasses(&passParams);
  if (result != CUPTI_SUCCESS)
    return result;
  passes = passParams.numOfPasses;
  failed = nullptr;
  return CUPTI_SUCCESS;
}

/// The range profiler of one context: enabled, started and stopped through
/// this object, stopped and disabled on destruction.
class RangeProfiler {
public:
  explicit RangeProfiler(const CuptiApi &api) : api(api) {}
  ~RangeProfiler() { reset(); }
  RangeProfiler(const RangeProfiler &) = delete;
  RangeProfiler &operator=(const RangeProfiler &) = delete;

  CUptiResult enable(CUcontext context) {
    auto params = makeParams<CUpti_RangeProfiler_Enable_Params>(
        CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    params.ctx = context;
    CUptiResult result = api.cuptiRangeProfilerEnable(&params);
    if (result == CUPTI_SUCCESS)
      object = params.pRangeProfilerObject;
    return result;
  }

  CUptiResult start() {
    auto params = makeParams<CUpti_RangeProfiler_Start_Params>(
        CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = object;
    CUptiResult result = api.cuptiRangeProfilerStart(&params);
    started = result == CUPTI_SUCCESS;
    return result;
  }

  CUptiResult stop(bool &allPassesSubmitted) {
    auto params = makeParams<CUpti_RangeProfiler_Stop_Params>(
        CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = object;
    CUptiResult result = api.cuptiRangeProfilerStop(&params);
    started = false;
    allPassesSubmitted = params.isAllPassSubmitted != 0;
    return result;
  }

  void reset() {
    if (!object)
      return;
    if (started) {
      bool ignored = false;
      stop(ignored);
    }
    auto params = makeParams<CUpti_RangeProfiler_Disable_Params>(
        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = object;
    api.cuptiRangeProfilerDisable(&params);
    object = nullptr;
  }

  CUpti_RangeProfiler_Object *get() const { return object; }

private:
  const CuptiApi &api;
  CUpti_RangeProfiler_Object *object = nullptr;
  bool started = false;
};

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// One requested metric and what became of it.
struct MetricSlot {
  std::string name;
  bool collected = false;
  double value = 0;
  std::string note;

  void set(double v) {
    collected = true;
    value = v;
    note.clear();
  }
  void setWithNote(double v, std::string why) {
    set(v);
    note = std::move(why);
  }
  void miss(std::string why) {
    collected = false;
    value = 0;
    note = std::move(why);
  }
};

/// The profile handed out by autoprof_profile_collect(): the C struct and the
/// storage its pointers refer to.
struct ProfileResult : autoprof_profile {
  std::vector<MetricSlot> slots;
  std::vector<autoprof_metric_value> values;

  ProfileResult() : autoprof_profile() {}

  /// Points the C view at the slots; call once the slots are final.
  void publish() {
    values.resize(slots.size());
    for (size_t i = 0; i < slots.size(); ++i) {
      values[i].name = slots[i].name.c_str();
      values[i].collected = slots[i].collected ? 1 : 0;
      values[i].value = slots[i].collected ? slots[i].value : 0;
      values[i].note = slots[i].note.empty() ? nullptr : slots[i].note.c_str();
    }
    metrics = values.empty() ? nullptr : values.data();
    num_metrics = values.size();
  }
};

bool startsWith(const std::string &text, const char *prefix) {
  return text.compare(0, std::strlen(prefix), prefix) == 0;
}

/// Prints phase times when AUTOPROF_PROFILER_TRACE is set.
class PhaseTrace {
public:
  PhaseTrace() : enabled(std::getenv("AUTOPROF_PROFILER_TRACE") != nullptr) {
    last = std::chrono::steady_clock::now();
  }
  void mark(const char *phase) {
    if (!enabled)
      return;
    auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "[autoprof-profiler] %-28s %8.2f ms\n", phase,
                 std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  }

private:
  bool enabled;
  std::chrono::steady_clock::time_point last;
};

//===----------------------------------------------------------------------===//
// Driver-derived metrics (launch__*, device__attribute_*)
//===----------------------------------------------------------------------===//

/// The occupancy view of one launch, as Nsight Compute reports it.
struct OccupancyFacts {
  /// False when the calculator could not run; `error` says why.
  bool valid = false;
  std::string error;
  /// Per-resource block limits from the CUDA occupancy calculator
  /// (cuda_occupancy.h); INT_MAX where a resource is unused.
  cudaOccResult limits = {};
  /// Registers per thread as allocated: NUM_REGS rounded up to the
  /// allocation granularity (256 registers per warp). Nsight Compute reports
  /// this as launch__registers_per_thread (12 used -> 16 allocated).
  int allocatedRegsPerThread = 0;
  /// Shared memory carveout per SM the launch runs with, and the block
  /// limit it implies.
  size_t carveoutBytes = 0;
  int sharedMemLimit = 0;
};

/// Computes the occupancy view of a launch of `blockThreads` threads with
/// `dynamicShared` bytes of dynamic shared memory. Pure: no driver calls.
OccupancyFacts computeOccupancy(const cudaOccDeviceProp &properties,
                                const cudaOccFuncAttributes &attributes,
                                int carveoutPreference, uint64_t blockThreads,
                                size_t dynamicShared) {
  OccupancyFacts facts;
  int regGranularity = 0;
  int warpSize = properties.warpSize;
  if (cudaOccRegAllocationGranularity(&regGranularity, &properties) ==
          CUDA_OCC_SUCCESS &&
      regGranularity > 0 && warpSize > 0)
    facts.allocatedRegsPerThread =
        (attributes.numRegs * warpSize + regGranularity - 1) / regGranularity *
        regGranularity / warpSize;
  else
    facts.allocatedRegsPerThread = attributes.numRegs;

  if (blockThreads == 0 || blockThreads > uint64_t(INT_MAX)) {
    facts.error = "the block is empty or too large";
    return facts;
  }
  cudaOccDeviceState state;
  state.carveoutConfig = carveoutPreference;
  cudaOccError occError = cudaOccMaxActiveBlocksPerMultiprocessor(
      &facts.limits, &properties, &attributes, &state,
      static_cast<int>(blockThreads), dynamicShared);
  if (occError != CUDA_OCC_SUCCESS) {
    facts.error =
        occError == CUDA_OCC_ERROR_UNKNOWN_DEVICE
            ? "the CUDA occupancy calculator does not know compute "
              "capability " +
                  std::to_string(properties.computeMajor) + "." +
                  std::to_string(properties.computeMinor)
            : std::string("the CUDA occupancy calculator rejected the "
                          "launch's inputs");
    return facts;
  }
  facts.valid = true;

  // The shared memory carveout of the launch. With a preferred carveout the
  // calculator already used it. Without one the driver picks the carveout
  // per launch and does not publish its rule. This is the rule that fits
  // what Nsight Compute 2025.3.1 reported on the H200: the smallest
  // supported carveout that holds the hardware block limit's worth of
  // blocks (32 x 1 KiB -> 32 KiB for a kernel without shared memory; the
  // maximum once that does not fit). Nsight Compute reports that
  // configuration and the block limit it implies.
  const cudaOccResult &limits = facts.limits;
  size_t sharedPerSm = properties.sharedMemPerMultiprocessor;
  size_t perBlock = limits.allocatedSharedMemPerBlock;
  facts.sharedMemLimit = limits.blockLimitSharedMem;
  if (carveoutPreference < 0 && perBlock > 0 &&
      limits.blockLimitSharedMem > 0) {
    size_t needed = perBlock * size_t(std::max(limits.blockLimitBlocks, 1));
    size_t carveout = std::min(needed, sharedPerSm);
    if (cudaOccAlignUpShmemSizeVoltaPlus(&carveout, &properties) !=
        CUDA_OCC_SUCCESS)
      carveout = sharedPerSm;
    facts.carveoutBytes = carveout;
    facts.sharedMemLimit = static_cast<int>(carveout / perBlock);
  } else if (carveoutPreference >= 0) {
    size_t carveout = size_t(carveoutPreference) * sharedPerSm / 100;
    if (cudaOccAlignUpShmemSizeVoltaPlus(&carveout, &properties) !=
        CUDA_OCC_SUCCESS)
      carveout = sharedPerSm;
    // A preference too small for one block is overridden by the driver.
    facts.carveoutBytes = std::max(carveout, perBlock);
  } else {
    facts.carveoutBytes = sharedPerSm;
  }
  return facts;
}

/// Device attributes that `device__attribute_<name>` can ask for, named as
/// Nsight Compute names them (the CUDA attribute name in lower case).
struct DeviceAttributeName {
  const char *name;
  CUdevice_attribute attribute;
};

constexpr DeviceAttributeName DeviceAttributeNames[] = {
    {"max_threads_per_block", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
    {"max_block_dim_x", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
    {"max_block_dim_y", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
    {"max_block_dim_z", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
    {"max_grid_dim_x", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
    {"max_grid_dim_y", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
    {"max_grid_dim_z", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
    {"max_shared_memory_per_block",
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
    {"max_shared_memory_per_block_optin",
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
    {"max_shared_memory_per_multiprocessor",
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
    {"reserved_shared_memory_per_block",
     CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK},
    {"total_constant_memory", CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
    {"warp_size", CU_DEVICE_ATTRIBUTE_WARP_SIZE},
    {"max_registers_per_block", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
    {"max_registers_per_multiprocessor",
     CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR},
    {"clock_rate", CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
    {"memory_clock_rate", CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
    {"global_memory_bus_width", CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
    {"l2_cache_size", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
    {"max_persisting_l2_cache_size",
     CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE},
    {"multiprocessor_count", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
    {"max_threads_per_multiprocessor",
     CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR},
    {"max_blocks_per_multiprocessor",
     CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR},
    {"compute_capability_major", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
    {"compute_capability_minor", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
    {"async_engine_count", CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT},
    {"concurrent_kernels", CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS},
    {"ecc_enabled", CU_DEVICE_ATTRIBUTE_ECC_ENABLED},
    {"pci_bus_id", CU_DEVICE_ATTRIBUTE_PCI_BUS_ID},
    {"pci_device_id", CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID},
    {"pci_domain_id", CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID},
    {"global_l1_cache_supported",
     CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED},
    {"local_l1_cache_supported", CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED},
    {"single_to_double_precision_perf_ratio",
     CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO},
    {"cooperative_launch", CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH},
    {"cluster_launch", CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH},
    {"max_access_policy_window_size",
     CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE},
    {"unified_addressing", CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING},
    {"managed_memory", CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY},
    {"multi_gpu_board", CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD},
    {"integrated", CU_DEVICE_ATTRIBUTE_INTEGRATED},
};

/// Launch facts shared by every driver-derived metric of one collection,
/// computed on first use.
class LaunchFacts {
public:
  LaunchFacts(autoprof_session *session, autoprof_kernel *kernel,
              const autoprof_launch_spec *spec)
      : session(session), kernel(kernel), spec(spec) {}

  /// Fills `slot` with the value of driver metric `slot.name`, or marks it
  /// missing with the reason.
  void evaluate(MetricSlot &slot);

private:
  bool compute();
  bool deviceAttribute(CUdevice_attribute attribute, int &value,
                       std::string &why);
  bool functionAttribute(CUfunction_attribute attribute, int &value,
                         const char *what);
  void evaluateLaunch(MetricSlot &slot, const std::string &what);
  void evaluateDevice(MetricSlot &slot, const std::string &what);

  autoprof_session *session;
  autoprof_kernel *kernel;
  const autoprof_launch_spec *spec;

  bool computed = false;
  /// Why compute() failed; empty when it succeeded.
  std::string error;

  // Kernel attributes.
  int numRegs = 0;
  int staticShared = 0;
  int maxDynamicShared = 0;
  int carveoutPreference = -1;
  int funcMaxThreads = 0;
  int clusterWidth = 0, clusterHeight = 0, clusterDepth = 0;
  // Device attributes.
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  int warpSize = 0;
  int maxThreadsPerSm = 0;
  int reservedSharedPerBlock = 0;
  int sharedPerSm = 0;
  // Launch shape.
  uint64_t blockThreads = 0;
  uint64_t gridBlocks = 0;
  /// Per-resource block limits and the carveout, as Nsight Compute
  /// reports them.
  OccupancyFacts occupancy;
  /// Resident blocks per SM according to the driver.
  int driverBlocksPerSm = 0;
  std::string driverOccupancyError;
};

bool LaunchFacts::deviceAttribute(CUdevice_attribute attribute, int &value,
                                  std::string &why) {
  CUresult result =
      cuda().cuDeviceGetAttribute(&value, attribute, session->device);
  if (result == CUDA_SUCCESS)
    return true;
  why = "cuDeviceGetAttribute failed: " + describeCudaResult(result);
  return false;
}

bool LaunchFacts::functionAttribute(CUfunction_attribute attribute, int &value,
                                    const char *what) {
  CUresult result =
      cuda().cuFuncGetAttribute(&value, attribute, kernel->function);
  if (result == CUDA_SUCCESS)
    return true;
  error = std::string("cuFuncGetAttribute(") + what +
          ") failed: " + describeCudaResult(result);
  return false;
}

bool LaunchFacts::compute() {
  if (computed)
    return error.empty();
  computed = true;

  blockThreads = uint64_t(spec->block[0]) * spec->block[1] * spec->block[2];
  gridBlocks = uint64_t(spec->grid[0]) * spec->grid[1] * spec->grid[2];

  if (!functionAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, numRegs, "NUM_REGS") ||
      !functionAttribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, staticShared,
                         "SHARED_SIZE_BYTES") ||
      !functionAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                         maxDynamicShared, "MAX_DYNAMIC_SHARED_SIZE_BYTES") ||
      !functionAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                         carveoutPreference,
                         "PREFERRED_SHARED_MEMORY_CARVEOUT") ||
      !functionAttribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                         funcMaxThreads, "MAX_THREADS_PER_BLOCK") ||
      !functionAttribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, clusterWidth,
                         "REQUIRED_CLUSTER_WIDTH") ||
      !functionAttribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT,
                         clusterHeight, "REQUIRED_CLUSTER_HEIGHT") ||
      !functionAttribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, clusterDepth,
                         "REQUIRED_CLUSTER_DEPTH"))
    return false;

  int regsPerBlock = 0, regsPerSm = 0, sharedPerBlock = 0;
  int sharedPerBlockOptin = 0, maxThreadsPerBlock = 0;
  struct {
    CUdevice_attribute attribute;
    int *value;
  } deviceQueries[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &ccMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &smCount},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &warpSize},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &maxThreadsPerSm},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &maxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &regsPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, &regsPerSm},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &sharedPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &sharedPerBlockOptin},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, &sharedPerSm},
      {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
       &reservedSharedPerBlock},
  };
  for (auto &query : deviceQueries)
    if (!deviceAttribute(query.attribute, *query.value, error))
      return false;

  // Resident blocks per SM as the driver computes them.
  int blocksPerSm = 0;
  CUresult result = cuda().cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocksPerSm, kernel->function, static_cast<int>(blockThreads),
      spec->dynamic_shared_bytes);
  if (result != CUDA_SUCCESS)
    driverOccupancyError = "cuOccupancyMaxActiveBlocksPerMultiprocessor "
                           "failed: " +
                           describeCudaResult(result);
  else
    driverBlocksPerSm = blocksPerSm;

  // The per-resource limits, as the CUDA occupancy calculator (and Nsight
  // Compute) define them.
  cudaOccDeviceProp properties;
  properties.computeMajor = ccMajor;
  properties.computeMinor = ccMinor;
  properties.maxThreadsPerBlock = maxThreadsPerBlock;
  properties.maxThreadsPerMultiprocessor = maxThreadsPerSm;
  properties.regsPerBlock = regsPerBlock;
  properties.regsPerMultiprocessor = regsPerSm;
  properties.warpSize = warpSize;
  properties.sharedMemPerBlock = size_t(sharedPerBlock);
  properties.sharedMemPerMultiprocessor = size_t(sharedPerSm);
  properties.numSms = smCount;
  properties.sharedMemPerBlockOptin = size_t(sharedPerBlockOptin);
  properties.reservedSharedMemPerBlock = size_t(reservedSharedPerBlock);

  cudaOccFuncAttributes attributes;
  attributes.maxThreadsPerBlock = funcMaxThreads;
  attributes.numRegs = numRegs;
  attributes.sharedSizeBytes = size_t(staticShared);
  attributes.partitionedGCConfig = PARTITIONED_GC_OFF;
  attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attributes.maxDynamicSharedSizeBytes = size_t(maxDynamicShared);
  // The driver does not tell how many named barriers a kernel uses; every
  // block holds at least barrier 0.
  attributes.numBlockBarriers = 1;
  attributes.virtualResourceCount = 0;

  occupancy = computeOccupancy(properties, attributes, carveoutPreference,
                               blockThreads, spec->dynamic_shared_bytes);
  return true;
}

void LaunchFacts::evaluate(MetricSlot &slot) {
  if (!compute()) {
    slot.miss(error);
    return;
  }
  if (startsWith(slot.name, "launch__"))
    evaluateLaunch(slot, slot.name.substr(std::strlen("launch__")));
  else
    evaluateDevice(slot, slot.name.substr(std::strlen("device__attribute_")));
}

void LaunchFacts::evaluateLaunch(MetricSlot &slot, const std::string &what) {
  if (what == "block_size")
    return slot.set(double(blockThreads));
  if (what == "grid_size")
    return slot.set(double(gridBlocks));
  if (what == "thread_count")
    return slot.set(double(gridBlocks) * double(blockThreads));
  if (what == "registers_per_thread")
    return slot.set(occupancy.allocatedRegsPerThread);
  if (what == "shared_mem_per_block_static")
    return slot.set(staticShared);
  if (what == "shared_mem_per_block_dynamic")
    return slot.set(spec->dynamic_shared_bytes);
  if (what == "shared_mem_per_block_driver")
    return slot.set(reservedSharedPerBlock);
  if (what == "sm_count")
    return slot.set(smCount);
  if (what == "cluster_size") {
    // Launches go through cuLaunchKernel, which takes no cluster shape, so
    // only a compile-time cluster (.reqnctapercluster) makes one.
    if (clusterWidth > 0)
      return slot.set(double(clusterWidth) * std::max(clusterHeight, 1) *
                      std::max(clusterDepth, 1));
    return slot.set(0);
  }
  if (what == "waves_per_multiprocessor") {
    if (!driverOccupancyError.empty())
      return slot.miss(driverOccupancyError);
    if (driverBlocksPerSm <= 0 || smCount <= 0)
      return slot.miss("no block of this launch fits on an SM, so it has no "
                       "waves");
    return slot.set(double(gridBlocks) /
                    (double(driverBlocksPerSm) * double(smCount)));
  }

  bool isOccupancyMetric =
      startsWith(what, "occupancy_limit_") || what == "shared_mem_config_size";
  if (!isOccupancyMetric)
    return slot.miss("unknown launch metric: AutoProf computes launch__* "
                     "metrics from the driver and does not know '" +
                     slot.name + "'");
  if (!occupancy.valid)
    return slot.miss(occupancy.error);
  const cudaOccResult &limits = occupancy.limits;

  // A limit of INT_MAX means the kernel does not use the resource at all;
  // the hardware block limit is then what binds.
  auto limit = [&](int value) {
    return value == INT_MAX ? limits.blockLimitBlocks : value;
  };
  if (what == "shared_mem_config_size")
    return slot.set(double(occupancy.carveoutBytes));
  if (what == "occupancy_limit_registers")
    return slot.set(limit(limits.blockLimitRegs));
  if (what == "occupancy_limit_shared_mem")
    return slot.set(limit(occupancy.sharedMemLimit));
  if (what == "occupancy_limit_warps")
    return slot.set(limit(limits.blockLimitWarps));
  if (what == "occupancy_limit_blocks")
    return slot.set(limits.blockLimitBlocks);
  if (what == "occupancy_limit_barriers")
    // Nsight Compute reports this limit capped by the hardware block limit.
    return slot.setWithNote(
        std::min(limits.blockLimitBlocks, limit(limits.blockLimitBarriers)),
        "assumes the kernel uses one block barrier: the driver does not "
        "report how many named barriers a kernel uses");
  return slot.miss("unknown launch metric: AutoProf computes launch__* "
                   "metrics from the driver and does not know '" +
                   slot.name + "'");
}

void LaunchFacts::evaluateDevice(MetricSlot &slot, const std::string &what) {
  if (what == "max_warps_per_multiprocessor") {
    if (warpSize <= 0)
      return slot.miss("the driver reported a warp size of 0");
    return slot.set(double(maxThreadsPerSm / warpSize));
  }
  for (const DeviceAttributeName &entry : DeviceAttributeNames) {
    if (what != entry.name)
      continue;
    int value = 0;
    std::string why;
    if (!deviceAttribute(entry.attribute, value, why))
      return slot.miss(why);
    return slot.set(value);
  }
  slot.miss("unknown device attribute: AutoProf reads device__attribute_* "
            "metrics from cuDeviceGetAttribute and has no attribute '" +
            what + "'");
}

//===----------------------------------------------------------------------===//
// CUPTI collection
//===----------------------------------------------------------------------===//

/// Collects `names` (unique, non-empty, none driver-derived) with CUPTI and
/// stores one outcome per name in `outcomes` (same order). Metrics CUPTI
/// rejects become missing; anything that prevents collection as a whole is
/// an error status.
class CuptiCollection {
public:
  CuptiCollection(autoprof_session *session, autoprof_kernel *kernel,
                  const autoprof_launch_spec *spec, uint64_t seed,
                  PhaseTrace &trace)
      : session(session), kernel(kernel), spec(spec), seed(seed), trace(trace) {
  }

  autoprof_status run(const std::vector<std::string> &names,
                      std::vector<MetricSlot> &outcomes, int &passes);

private:
  autoprof_status fail(const char *what, CUptiResult result) {
    return setError(session, AUTOPROF_ERROR_PROFILER, "%s failed: %s", what,
                    describeCupti(*api, result).c_str());
  }
  autoprof_status initializeProfiler();
  autoprof_status queryDevice();
  autoprof_status validate(const std::vector<std::string> &names,
                           std::vector<MetricSlot> &outcomes);
  std::string rejectionNote(HostObject &host, const std::string &name,
                            CUptiResult result);
  autoprof_status collect(std::vector<const char *> &valid,
                          std::vector<double> &values,
                          std::vector<std::string> &evaluationErrors,
                          int &passes);

  autoprof_session *session;
  autoprof_kernel *kernel;
  const autoprof_launch_spec *spec;
  uint64_t seed;
  PhaseTrace &trace;
  const CuptiApi *api = nullptr;
  std::string chip;
  std::vector<uint8_t> availability;
};

autoprof_status CuptiCollection::initializeProfiler() {
  CuptiProcessState &state = processState();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.profilerInitialized)
    return AUTOPROF_OK;
  auto params = makeParams<CUpti_Profiler_Initialize_Params>(
      CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  CUptiResult result = api->cuptiProfilerInitialize(&params);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiProfilerInitialize", result);
  state.profilerInitialized = true;
  return AUTOPROF_OK;
}

std::string CuptiCollection::rejectionNote(HostObject &host,
                                           const std::string &name,
                                           CUptiResult result) {
  std::string base = name.substr(0, name.find('.'));
  std::string why = describeCupti(*api, result);
  if (!host.knowsMetric(base))
    return "unknown metric: CUPTI has no metric '" + base + "' on " + chip +
           " (" + why + ")";
  if (base != name && !host.knowsMetric(name))
    return "'" + base + "' exists on " + chip + " but '" +
           name.substr(base.size()) +
           "' is not a rollup/submetric it supports (" + why + ")";
  return "CUPTI's Range Profiler cannot collect '" + name + "' on " + chip +
         " (" + why + ")";
}

autoprof_status CuptiCollection::validate(const std::vector<std::string> &names,
                                          std::vector<MetricSlot> &outcomes) {
  CuptiProcessState &state = processState();
  std::vector<size_t> unknown;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    for (size_t i = 0; i < names.size(); ++i) {
      auto it = state.verdicts.find(chip + "/" + names[i]);
      if (it == state.verdicts.end()) {
        unknown.push_back(i);
        continue;
      }
      if (it->second.valid)
        outcomes[i].collected = true; // Provisional: "valid".
      else
        outcomes[i].miss(it->second.note);
    }
  }
  if (unknown.empty())
    return AUTOPROF_OK;

  // One name per ConfigAddMetrics call, so that one bad name cannot hide the
  // others. A name rejected by a host object that already holds other names
  // is tried again on a fresh one before it is declared invalid.
  HostObject host(*api);
  std::unordered_map<std::string, MetricVerdict> found;
  for (size_t index : unknown) {
    const std::string &name = names[index];
    MetricVerdict verdict;
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!host.get()) {
        CUptiResult result = host.initialize(chip, availability);
        if (result != CUPTI_SUCCESS)
          return fail("cuptiProfilerHostInitialize", result);
      }
      bool fresh = host.numAdded() == 0;
      std::vector<const char *> one = {name.c_str()};
      CUptiResult result = host.addMetrics(one);
      if (result == CUPTI_SUCCESS) {
        verdict.valid = true;
        break;
      }
      if (result != CUPTI_ERROR_INVALID_PARAMETER &&
          result != CUPTI_ERROR_INVALID_METRIC_NAME &&
          result != CUPTI_ERROR_NOT_SUPPORTED)
        return fail("cuptiProfilerHostConfigAddMetrics", result);
      if (fresh) {
        verdict.note = rejectionNote(host, name, result);
        host.reset();
        break;
      }
      // Retry on a fresh host object.
      host.reset();
    }
    if (verdict.valid)
      outcomes[index].collected = true;
    else
      outcomes[index].miss(verdict.note);
    found.emplace(chip + "/" + name, std::move(verdict));
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  for (auto &entry : found)
    state.verdicts.emplace(entry.first, std::move(entry.second));
  return AUTOPROF_OK;
}

autoprof_status CuptiCollection::collect(
    std::vector<const char *> &valid, std::vector<double> &values,
    std::vector<std::string> &evaluationErrors, int &passes) {
  // Configuration: one host object holds the valid set, builds the config
  // image, and evaluates the counter data at the end.
  HostObject host(*api);
  CUptiResult result = host.initialize(chip, availability);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiProfilerHostInitialize", result);
  result = host.addMetrics(valid);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiProfilerHostConfigAddMetrics (validated metrics)",
                result);

  // The configuration image, and the cost, known before anything runs.
  std::vector<uint8_t> configImage;
  size_t numPasses = 0;
  const char *failedCall = nullptr;
  result = configureHost(*api, host, configImage, numPasses, failedCall);
  if (result != CUPTI_SUCCESS)
    return fail(failedCall, result);
  passes = static_cast<int>(numPasses);
  trace.mark("config image");

  // Inputs first, outside the profiled range.
  LaunchBuffers buffers(session);
  if (autoprof_status status =
          buffers.prepare(*spec, seed, AUTOPROF_DIST_NORMAL))
    return status;
  trace.mark("prepare buffers");

  RangeProfiler profiler(*api);
  result = profiler.enable(session->context);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiRangeProfilerEnable", result);

  // Counter data for the one range (the kernel launch).
  auto dataSizeParams =
      makeParams<CUpti_RangeProfiler_GetCounterDataSize_Params>(
          CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  dataSizeParams.pRangeProfilerObject = profiler.get();
  dataSizeParams.pMetricNames = valid.data();
  dataSizeParams.numMetrics = valid.size();
  dataSizeParams.maxNumOfRanges = 1;
  dataSizeParams.maxNumRangeTreeNodes = 1;
  result = api->cuptiRangeProfilerGetCounterDataSize(&dataSizeParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiRangeProfilerGetCounterDataSize", result);
  std::vector<uint8_t> counterData(dataSizeParams.counterDataSize);
  auto dataInitParams =
      makeParams<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
          CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  dataInitParams.pRangeProfilerObject = profiler.get();
  dataInitParams.counterDataSize = counterData.size();
  dataInitParams.pCounterData = counterData.data();
  result = api->cuptiRangeProfilerCounterDataImageInitialize(&dataInitParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiRangeProfilerCounterDataImageInitialize", result);

  auto configParams = makeParams<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  configParams.pRangeProfilerObject = profiler.get();
  configParams.configSize = configImage.size();
  configParams.pConfig = configImage.data();
  configParams.counterDataImageSize = counterData.size();
  configParams.pCounterDataImage = counterData.data();
  configParams.range = CUPTI_AutoRange;
  configParams.replayMode = CUPTI_KernelReplay;
  configParams.maxRangesPerPass = 1;
  configParams.numNestingLevels = 1;
  configParams.minNestingLevel = 1;
  configParams.passIndex = 0;
  configParams.targetNestingLevel = 1;
  result = api->cuptiRangeProfilerSetConfig(&configParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiRangeProfilerSetConfig", result);
  trace.mark("enable + configure");

  // With kernel replay CUPTI replays the launch for every pass itself, so
  // one round normally submits everything; more rounds start from the same
  // inputs.
  bool allSubmitted = false;
  int maxRounds = std::max(passes, 1) + 1;
  for (int round = 0; !allSubmitted; ++round) {
    if (round == maxRounds)
      return setError(session, AUTOPROF_ERROR_PROFILER,
                      "CUPTI had not received all %d replay passes after %d "
                      "launches",
                      passes, round);
    if (round > 0)
      if (autoprof_status status = buffers.upload())
        return status;
    result = profiler.start();
    if (result != CUPTI_SUCCESS)
      return fail("cuptiRangeProfilerStart", result);
    if (autoprof_status status = buffers.launch(kernel, *spec, session->stream))
      return status;
    if (autoprof_status status = buffers.synchronize())
      return status;
    result = profiler.stop(allSubmitted);
    if (result != CUPTI_SUCCESS)
      return fail("cuptiRangeProfilerStop", result);
  }
  trace.mark("replay passes");

  auto decodeParams = makeParams<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decodeParams.pRangeProfilerObject = profiler.get();
  result = api->cuptiRangeProfilerDecodeData(&decodeParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiRangeProfilerDecodeData", result);
  if (decodeParams.numOfRangeDropped != 0)
    return setError(session, AUTOPROF_ERROR_PROFILER,
                    "CUPTI dropped %zu range(s): more than one kernel ran "
                    "inside the profiled range",
                    decodeParams.numOfRangeDropped);
  profiler.reset();
  trace.mark("decode + disable");

  auto infoParams = makeParams<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  infoParams.pCounterDataImage = counterData.data();
  infoParams.counterDataImageSize = counterData.size();
  result = api->cuptiRangeProfilerGetCounterDataInfo(&infoParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiRangeProfilerGetCounterDataInfo", result);
  if (infoParams.numTotalRanges != 1)
    return setError(session, AUTOPROF_ERROR_PROFILER,
                    "CUPTI recorded %zu ranges for one kernel launch "
                    "(expected 1)",
                    infoParams.numTotalRanges);

  // Evaluate all at once; if that fails, one by one so that one metric
  // cannot take the others down.
  values.assign(valid.size(), 0);
  evaluationErrors.assign(valid.size(), std::string());
  auto evaluate = [&](const char **names, size_t count, double *out) {
    auto params = makeParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    params.pHostObject = host.get();
    params.pCounterDataImage = counterData.data();
    params.counterDataImageSize = counterData.size();
    params.rangeIndex = 0;
    params.ppMetricNames = names;
    params.numMetrics = count;
    params.pMetricValues = out;
    return api->cuptiProfilerHostEvaluateToGpuValues(&params);
  };
  result = evaluate(valid.data(), valid.size(), values.data());
  if (result != CUPTI_SUCCESS) {
    for (size_t i = 0; i < valid.size(); ++i) {
      CUptiResult one = evaluate(&valid[i], 1, &values[i]);
      if (one != CUPTI_SUCCESS)
        evaluationErrors[i] = "cuptiProfilerHostEvaluateToGpuValues failed: " +
                              describeCupti(*api, one);
    }
  }
  trace.mark("evaluate");
  return AUTOPROF_OK;
}

autoprof_status CuptiCollection::queryDevice() {
  CuptiProcessState &state = processState();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto it = state.devices.find(session->ordinal);
  if (it != state.devices.end()) {
    chip = it->second.chip;
    availability = it->second.availability;
    return AUTOPROF_OK;
  }
  auto chipParams = makeParams<CUpti_Device_GetChipName_Params>(
      CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chipParams.deviceIndex = size_t(session->ordinal);
  CUptiResult result = api->cuptiDeviceGetChipName(&chipParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiDeviceGetChipName", result);
  if (!chipParams.pChipName || !*chipParams.pChipName)
    return setError(session, AUTOPROF_ERROR_PROFILER,
                    "cuptiDeviceGetChipName returned no name for device %d",
                    session->ordinal);
  chip = chipParams.pChipName;

  auto availabilityParams =
      makeParams<CUpti_Profiler_GetCounterAvailability_Params>(
          CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availabilityParams.ctx = session->context;
  result = api->cuptiProfilerGetCounterAvailability(&availabilityParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiProfilerGetCounterAvailability", result);
  availability.assign(availabilityParams.counterAvailabilityImageSize, 0);
  availabilityParams.pCounterAvailabilityImage = availability.data();
  result = api->cuptiProfilerGetCounterAvailability(&availabilityParams);
  if (result != CUPTI_SUCCESS)
    return fail("cuptiProfilerGetCounterAvailability", result);
  CuptiProcessState::DeviceInfo &info = state.devices[session->ordinal];
  info.chip = chip;
  info.availability = availability;
  return AUTOPROF_OK;
}

autoprof_status CuptiCollection::run(const std::vector<std::string> &names,
                                     std::vector<MetricSlot> &outcomes,
                                     int &passes) {
  passes = 0;
  outcomes.assign(names.size(), MetricSlot());
  for (size_t i = 0; i < names.size(); ++i)
    outcomes[i].name = names[i];

  const CuptiLoadState &load = loadCupti();
  if (!load.ok)
    return setError(session, AUTOPROF_ERROR_PROFILER, "%s", load.error.c_str());
  api = &load.api;
  if (autoprof_status status = initializeProfiler())
    return status;

  if (autoprof_status status = queryDevice())
    return status;
  trace.mark("load + chip + availability");

  if (autoprof_status status = validate(names, outcomes))
    return status;
  trace.mark("validate names");

  std::vector<const char *> valid;
  std::vector<size_t> validIndex;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!outcomes[i].collected)
      continue;
    valid.push_back(names[i].c_str());
    validIndex.push_back(i);
    outcomes[i].collected = false; // Until evaluated.
  }
  if (valid.empty())
    return AUTOPROF_OK;

  std::vector<double> values;
  std::vector<std::string> evaluationErrors;
  if (autoprof_status status = collect(valid, values, evaluationErrors, passes))
    return status;

  for (size_t k = 0; k < valid.size(); ++k) {
    MetricSlot &slot = outcomes[validIndex[k]];
    if (!evaluationErrors[k].empty())
      slot.miss(evaluationErrors[k]);
    else if (!std::isfinite(values[k]))
      slot.miss("CUPTI evaluated this metric to " +
                std::string(std::isnan(values[k]) ? "NaN" : "infinity") +
                " for this kernel (undefined, e.g. a ratio whose "
                "denominator is zero)");
    else
      slot.set(values[k]);
  }
  return AUTOPROF_OK;
}

/// Metric families no Range Profiler config accepts, with the reason.
const char *unsupportedFamily(const std::string &name) {
  if (startsWith(name, "smsp__pcsamp_"))
    return "PC sampling metrics come from CUPTI's PC Sampling API, not the "
           "Range Profiler; AutoProf does not collect them";
  return nullptr;
}

bool isDriverMetric(const std::string &name) {
  return startsWith(name, "launch__") || startsWith(name, "device__attribute_");
}

} // namespace

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

autoprof_status autoprof_profile_collect(autoprof_session *session,
                                         autoprof_kernel *kernel,
                                         const autoprof_launch_spec *spec,
                                         const char *const *metric_names,
                                         size_t num_metrics, uint64_t seed,
                                         autoprof_profile **out) {
  auto begin = std::chrono::steady_clock::now();
  PhaseTrace trace;
  if (out)
    *out = nullptr;
  if (!session)
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_profile_collect: session is null");
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_profile_collect: out is null");
  if (!kernel || !spec)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_profile_collect: %s is null",
                    kernel ? "spec" : "kernel");
  if (kernel->session != session)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_profile_collect: the kernel belongs to another "
                    "session");
  if (num_metrics && !metric_names)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_profile_collect: metric_names is null but "
                    "num_metrics is %zu",
                    num_metrics);

  std::unique_ptr<ProfileResult> result(new (std::nothrow) ProfileResult());
  if (!result)
    return setError(session, AUTOPROF_ERROR_OUT_OF_MEMORY,
                    "autoprof_profile_collect: out of host memory");

  ContextScope scope(session);
  if (scope.result() != CUDA_SUCCESS)
    return cudaFailure(session, scope.result(),
                       "autoprof_profile_collect: cuCtxPushCurrent");
  if (autoprof_status status = checkLaunchSpec(session, kernel, spec, 1))
    return status;
  // A repeated launch is profiled on its first launch: every launch of the
  // sequence runs the same code on the same geometry.
  autoprof_launch_spec firstLaunch = *spec;
  std::vector<autoprof_param> firstParams(spec->params,
                                          spec->params + spec->num_params);
  if (spec->repeat_count > 1) {
    firstParams[spec->repeat_param].i = spec->repeat_start;
    firstLaunch.params = firstParams.data();
    firstLaunch.repeat_count = 0;
  }
  spec = &firstLaunch;

  // Sort the names: driver-derived, unsupported, or for CUPTI (each unique
  // name once, in order of first appearance).
  result->slots.resize(num_metrics);
  LaunchFacts launchFacts(session, kernel, spec);
  std::vector<std::string> cuptiNames;
  std::unordered_map<std::string, size_t> cuptiIndex;
  std::vector<size_t> slotToCupti(num_metrics, SIZE_MAX);
  for (size_t i = 0; i < num_metrics; ++i) {
    MetricSlot &slot = result->slots[i];
    slot.name = metric_names[i] ? metric_names[i] : "";
    if (slot.name.empty()) {
      slot.miss("empty metric name");
      continue;
    }
    if (isDriverMetric(slot.name)) {
      launchFacts.evaluate(slot);
      continue;
    }
    if (const char *why = unsupportedFamily(slot.name)) {
      slot.miss(why);
      continue;
    }
    auto inserted = cuptiIndex.emplace(slot.name, cuptiNames.size());
    if (inserted.second)
      cuptiNames.push_back(slot.name);
    slotToCupti[i] = inserted.first->second;
  }
  trace.mark("driver metrics");

  int passes = 0;
  if (!cuptiNames.empty()) {
    std::vector<MetricSlot> outcomes;
    CuptiCollection collection(session, kernel, spec, seed, trace);
    if (autoprof_status status = collection.run(cuptiNames, outcomes, passes))
      return status;
    for (size_t i = 0; i < num_metrics; ++i)
      if (slotToCupti[i] != SIZE_MAX) {
        const MetricSlot &outcome = outcomes[slotToCupti[i]];
        MetricSlot &slot = result->slots[i];
        slot.collected = outcome.collected;
        slot.value = outcome.value;
        slot.note = outcome.note;
      }
  }

  result->publish();
  result->replay_passes = passes;
  result->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  *out = result.release();
  return AUTOPROF_OK;
}

void autoprof_profile_free(autoprof_profile *profile) {
  delete static_cast<ProfileResult *>(profile);
}

autoprof_status autoprof_metrics_host_passes(const char *chip,
                                             const char *const *metric_names,
                                             size_t num_metrics,
                                             size_t *passes) {
  if (passes)
    *passes = 0;
  if (!chip || !passes || (num_metrics && !metric_names))
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_metrics_host_passes: %s is null",
                    !chip     ? "chip"
                    : !passes ? "passes"
                              : "metric_names");
  const CuptiLoadState &load = loadCupti();
  if (!load.ok)
    return setError(nullptr, AUTOPROF_ERROR_PROFILER, "%s", load.error.c_str());
  HostObject host(load.api);
  CUptiResult result = host.initialize(chip, {});
  if (result != CUPTI_SUCCESS)
    return setError(nullptr, AUTOPROF_ERROR_PROFILER,
                    "CUPTI's profiler host does not initialize for %s: %s",
                    chip, describeCupti(load.api, result).c_str());
  if (num_metrics == 0)
    return AUTOPROF_OK;
  std::vector<const char *> names(metric_names, metric_names + num_metrics);
  result = host.addMetrics(names);
  if (result != CUPTI_SUCCESS)
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "CUPTI's profiler host for %s does not take %s%s: %s", chip,
                    num_metrics == 1 ? "" : "these metrics, e.g. ",
                    names.front(), describeCupti(load.api, result).c_str());
  std::vector<uint8_t> image;
  const char *failed = nullptr;
  result = configureHost(load.api, host, image, *passes, failed);
  if (result != CUPTI_SUCCESS)
    return setError(nullptr, AUTOPROF_ERROR_PROFILER, "%s failed: %s", failed,
                    describeCupti(load.api, result).c_str());
  return AUTOPROF_OK;
}
