//===- CudaApi.cpp - Dynamically loaded CUDA driver, NVRTC and NVML -------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "CudaApi.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace autoprof::runtime;

#define AUTOPROF_STRINGIFY_IMPL(x) #x
/// Stringifies after macro expansion: cuMemAlloc -> "cuMemAlloc_v2".
#define AUTOPROF_STRINGIFY(x) AUTOPROF_STRINGIFY_IMPL(x)

namespace {

/// Resolves `name` in `handle` into `slot`; false when missing.
template <typename Fn> bool resolve(void *handle, const char *name, Fn &slot) {
  void *symbol = dlsym(handle, name);
  slot = reinterpret_cast<Fn>(symbol);
  return symbol != nullptr;
}

struct CudaLoadState {
  CudaApi api;
  CudaLoadResult result;
  std::string error;
};

struct NvrtcLoadState {
  NvrtcApi api;
  bool ok = false;
  std::string error;
};

struct NvmlLoadState {
  NvmlApi api;
  bool ok = false;
};

CudaLoadState *createCudaState() {
  auto *state = new CudaLoadState();
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    state->error = std::string("the CUDA driver library libcuda.so.1 could "
                               "not be loaded (is the NVIDIA driver "
                               "installed?): ") +
                   (why ? why : "unknown dlopen error");
    state->result.error = state->error.c_str();
    return state;
  }
  std::string missing;
#define AUTOPROF_RESOLVE_REQUIRED(name)                                        \
  if (!resolve(handle, AUTOPROF_STRINGIFY(name), state->api.name))             \
    missing +=                                                                 \
        std::string(missing.empty() ? "" : ", ") + AUTOPROF_STRINGIFY(name);
  AUTOPROF_CUDA_REQUIRED_FUNCTIONS(AUTOPROF_RESOLVE_REQUIRED)
#undef AUTOPROF_RESOLVE_REQUIRED
#define AUTOPROF_RESOLVE_OPTIONAL(name)                                        \
  resolve(handle, AUTOPROF_STRINGIFY(name), state->api.name);
  AUTOPROF_CUDA_OPTIONAL_FUNCTIONS(AUTOPROF_RESOLVE_OPTIONAL)
#undef AUTOPROF_RESOLVE_OPTIONAL
  if (!missing.empty()) {
    state->error = "the CUDA driver library is too old for CUDA 13 (missing " +
                   missing + "); update the NVIDIA driver";
    state->result.error = state->error.c_str();
    return state;
  }
  CUresult init = state->api.cuInit(0);
  state->result.initResult = init;
  if (init != CUDA_SUCCESS) {
    // Not describeCudaResult(): it would re-enter loadCudaApi().
    const char *name = nullptr;
    const char *text = nullptr;
    state->api.cuGetErrorName(init, &name);
    state->api.cuGetErrorString(init, &text);
    char fallback[64];
    if (!name) {
      std::snprintf(fallback, sizeof(fallback), "CUDA error %d",
                    static_cast<int>(init));
      name = fallback;
    }
    if (!text && init == CUDA_ERROR_STUB_LIBRARY)
      text = "the toolkit's stub libcuda was loaded instead of the driver's";
    state->error = std::string("cuInit failed: ") + name + " (" +
                   (text ? text : "no description") + ")";
    state->result.error = state->error.c_str();
    return state;
  }
  state->result.api = &state->api;
  return state;
}

const char *envOrNull(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

} // namespace

const CudaLoadResult &autoprof::runtime::loadCudaApi() {
  // A function-local static: initialized once, thread safe, no global
  // constructor. Intentionally never freed (the library stays loaded).
  static CudaLoadState *state = createCudaState();
  return state->result;
}

std::string autoprof::runtime::describeCudaResult(CUresult result) {
  const CudaLoadResult &loaded = loadCudaApi();
  const char *name = nullptr;
  const char *text = nullptr;
  if (loaded.api) {
    loaded.api->cuGetErrorName(result, &name);
    loaded.api->cuGetErrorString(result, &text);
  }
  char fallback[64];
  if (!name) {
    std::snprintf(fallback, sizeof(fallback), "CUDA error %d",
                  static_cast<int>(result));
    name = fallback;
  }
  std::string out = name;
  if (text) {
    out += " (";
    out += text;
    out += ")";
  }
  return out;
}

void *autoprof::runtime::openLibrary(const char *const *names, size_t numNames,
                                     const char *const *subdirs,
                                     size_t numSubdirs, std::string &tried) {
  tried.clear();
  std::string lastError;
  auto attempt = [&](const std::string &path) -> void * {
    if (!tried.empty())
      tried += ", ";
    tried += path;
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      lastError = why ? why : "";
    }
    return handle;
  };
  for (size_t i = 0; i < numNames; ++i)
    if (void *handle = attempt(names[i]))
      return handle;
  const char *roots[] = {envOrNull("CUDA_HOME"), envOrNull("CUDA_PATH"),
                         "/usr/local/cuda"};
  for (const char *root : roots) {
    if (!root)
      continue;
    for (size_t d = 0; d < numSubdirs; ++d)
      for (size_t i = 0; i < numNames; ++i)
        if (void *handle =
                attempt(std::string(root) + "/" + subdirs[d] + "/" + names[i]))
          return handle;
  }
  if (!lastError.empty())
    tried += " (last error: " + lastError + ")";
  return nullptr;
}

const NvrtcApi *autoprof::runtime::loadNvrtcApi(const char **error) {
  static NvrtcLoadState *state = [] {
    auto *state = new NvrtcLoadState();
    const char *names[] = {"libnvrtc.so.13", "libnvrtc.so"};
    const char *subdirs[] = {"lib64", "lib"};
    std::string tried;
    void *handle = openLibrary(names, 2, subdirs, 2, tried);
    if (!handle) {
      state->error = "NVRTC is not available, so CUDA C++ cannot be "
                     "compiled; tried " +
                     tried;
      return state;
    }
    std::string missing;
#define AUTOPROF_RESOLVE_NVRTC(name)                                           \
  if (!resolve(handle, AUTOPROF_STRINGIFY(name), state->api.name))             \
    missing +=                                                                 \
        std::string(missing.empty() ? "" : ", ") + AUTOPROF_STRINGIFY(name);
    AUTOPROF_NVRTC_FUNCTIONS(AUTOPROF_RESOLVE_NVRTC)
#undef AUTOPROF_RESOLVE_NVRTC
    if (!missing.empty()) {
      state->error = "the NVRTC library found lacks " + missing;
      return state;
    }
    state->ok = true;
    return state;
  }();
  if (!state->ok) {
    if (error)
      *error = state->error.c_str();
    return nullptr;
  }
  return &state->api;
}

const NvmlApi *autoprof::runtime::loadNvmlApi() {
  static NvmlLoadState *state = [] {
    auto *state = new NvmlLoadState();
    void *handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return state;
    bool ok = resolve(handle, "nvmlInit_v2", state->api.nvmlInit) &&
              resolve(handle, "nvmlDeviceGetHandleByPciBusId_v2",
                      state->api.nvmlDeviceGetHandleByPciBusId) &&
              resolve(handle, "nvmlDeviceGetClockInfo",
                      state->api.nvmlDeviceGetClockInfo);
    // nvmlInit is reference counted; the shim keeps its reference for the
    // life of the process.
    state->ok = ok && state->api.nvmlInit() == 0;
    return state;
  }();
  return state->ok ? &state->api : nullptr;
}
