//===- Kernels.cpp - Kernel loading ---------------------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Loading kernels from PTX, cubins and CUDA C++ (through NVRTC).
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

using namespace autoprof::runtime;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

namespace {

bool directoryExists(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

/// Compiles CUDA C++ with NVRTC for `arch` ("sm_90": a cubin; "compute_90":
/// PTX). On failure `error` says why, with NVRTC's log.
bool compileWithNvrtc(const std::string &source, const char *entry,
                      const std::string &arch,
                      const std::vector<std::string> &extraOptions,
                      bool wantPtx, std::vector<char> &output,
                      std::string &error) {
  const char *loadError = "";
  const NvrtcApi *nvrtc = loadNvrtcApi(&loadError);
  if (!nvrtc) {
    error = loadError;
    return false;
  }
  nvrtcProgram program = nullptr;
  std::string name = std::string(entry) + ".cu";
  if (nvrtcResult r = nvrtc->nvrtcCreateProgram(
          &program, source.c_str(), name.c_str(), 0, nullptr, nullptr)) {
    error = std::string("NVRTC cannot create a program for '") + entry +
            "': " + nvrtc->nvrtcGetErrorString(r);
    return false;
  }
  std::vector<std::string> options;
  options.push_back("--gpu-architecture=" + arch);
  options.push_back("--std=c++17");
  options.push_back("-lineinfo");
  // Toolkit headers (cuda_fp16.h, ...) when a toolkit is installed.
  const char *home = std::getenv("CUDA_HOME");
  std::string include;
  if (home && *home && directoryExists(std::string(home) + "/include"))
    include = std::string(home) + "/include";
  else if (directoryExists("/usr/local/cuda/include"))
    include = "/usr/local/cuda/include";
  if (!include.empty())
    options.push_back("--include-path=" + include);
  // CUDA 13 keeps libcu++, CUB and Thrust under include/cccl, which
  // cooperative groups and <cuda/std/...> need.
  if (!include.empty() && directoryExists(include + "/cccl"))
    options.push_back("--include-path=" + include + "/cccl");
  options.insert(options.end(), extraOptions.begin(), extraOptions.end());
  std::vector<const char *> optionPointers;
  for (const std::string &option : options)
    optionPointers.push_back(option.c_str());
  nvrtcResult compiled = nvrtc->nvrtcCompileProgram(
      program, static_cast<int>(optionPointers.size()), optionPointers.data());
  size_t logSize = 0;
  std::string log;
  if (nvrtc->nvrtcGetProgramLogSize(program, &logSize) == NVRTC_SUCCESS &&
      logSize > 1) {
    log.resize(logSize);
    nvrtc->nvrtcGetProgramLog(program, &log[0]);
    log.resize(std::strlen(log.c_str()));
  }
  if (compiled != NVRTC_SUCCESS) {
    nvrtc->nvrtcDestroyProgram(&program);
    error = std::string("NVRTC could not compile '") + entry + "' for " + arch +
            ": " + nvrtc->nvrtcGetErrorString(compiled) + "\n" + log;
    return false;
  }
  size_t size = 0;
  nvrtcResult r = wantPtx ? nvrtc->nvrtcGetPTXSize(program, &size)
                          : nvrtc->nvrtcGetCUBINSize(program, &size);
  if (r == NVRTC_SUCCESS && size > 0) {
    output.resize(size);
    r = wantPtx ? nvrtc->nvrtcGetPTX(program, output.data())
                : nvrtc->nvrtcGetCUBIN(program, output.data());
  }
  nvrtc->nvrtcDestroyProgram(&program);
  if (r != NVRTC_SUCCESS || size == 0) {
    error = std::string("NVRTC compiled '") + entry + "' but produced no " +
            (wantPtx ? "PTX" : "cubin") + ": " + nvrtc->nvrtcGetErrorString(r);
    return false;
  }
  return true;
}

/// Compiles CUDA C++ to a cubin for the session's device with NVRTC.
autoprof_status compileCuda(autoprof_session *session, const char *code,
                            size_t size, const char *entry,
                            std::vector<char> &cubin) {
  std::string source = size ? std::string(code, size) : std::string(code);
  std::string arch = "sm_" +
                     std::to_string(session->facts.compute_capability_major) +
                     std::to_string(session->facts.compute_capability_minor);
  std::string error;
  if (!compileWithNvrtc(source, entry, arch, {}, /*wantPtx=*/false, cubin,
                        error))
    return setError(session, AUTOPROF_ERROR_COMPILE, "%s", error.c_str());
  return AUTOPROF_OK;
}

} // namespace

extern "C" autoprof_status
autoprof_compile_cuda_to_ptx(const char *code, const char *entry,
                             const char *arch, const char *const *options,
                             size_t num_options, char **ptx, char **error) {
  auto copy = [](const std::string &text) {
    char *out = static_cast<char *>(std::malloc(text.size() + 1));
    if (out)
      std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
  };
  if (ptx)
    *ptx = nullptr;
  if (error)
    *error = nullptr;
  if (!code || !entry || !arch || !ptx || (num_options && !options)) {
    if (error)
      *error = copy("autoprof_compile_cuda_to_ptx: needs code, an entry, an "
                    "architecture, the options it counts and a place for the "
                    "PTX");
    return AUTOPROF_ERROR_INVALID_ARGUMENT;
  }
  std::vector<std::string> extraOptions;
  for (size_t i = 0; i < num_options; ++i) {
    if (!options[i]) {
      if (error)
        *error = copy("autoprof_compile_cuda_to_ptx: option " +
                      std::to_string(i) + " is null");
      return AUTOPROF_ERROR_INVALID_ARGUMENT;
    }
    extraOptions.push_back(options[i]);
  }
  // A missing NVRTC is the machine's problem, not the code's.
  const char *loadError = "";
  if (!loadNvrtcApi(&loadError)) {
    if (error)
      *error = copy(loadError);
    return AUTOPROF_ERROR_NO_DRIVER;
  }
  std::vector<char> output;
  std::string message;
  if (!compileWithNvrtc(code, entry, arch, extraOptions, /*wantPtx=*/true,
                        output, message)) {
    if (error)
      *error = copy(message);
    return AUTOPROF_ERROR_COMPILE;
  }
  *ptx =
      copy(std::string(output.data(), strnlen(output.data(), output.size())));
  return *ptx ? AUTOPROF_OK : AUTOPROF_ERROR_OUT_OF_MEMORY;
}

extern "C" autoprof_status autoprof_kernel_load(autoprof_session *session,
                                                autoprof_code_format format,
                                                const char *code, size_t size,
                                                const char *entry,
                                                autoprof_kernel **out) {
  AUTOPROF_CHECK_SESSION(session);
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: no output pointer given");
  *out = nullptr;
  if (!code || !entry || !*entry)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: no code or no entry name given");
  if (format != AUTOPROF_CODE_PTX && format != AUTOPROF_CODE_CUBIN &&
      format != AUTOPROF_CODE_CUDA)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: invalid code format %d",
                    static_cast<int>(format));
  if (format == AUTOPROF_CODE_CUBIN && size == 0)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: a cubin needs its size");
  AUTOPROF_PUSH_CONTEXT(session, scope);

  // The image: NUL-terminated PTX text, a cubin, or NVRTC's cubin.
  std::vector<char> image;
  if (format == AUTOPROF_CODE_CUDA) {
    if (autoprof_status s = compileCuda(session, code, size, entry, image))
      return s;
  } else if (format == AUTOPROF_CODE_PTX) {
    size_t length = size ? size : std::strlen(code);
    image.assign(code, code + length);
    image.push_back('\0');
  } else {
    image.assign(code, code + size);
  }

  constexpr unsigned LogSize = 1 << 16;
  std::vector<char> errorLog(LogSize, '\0'), infoLog(LogSize, '\0');
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(LogSize)),
                    infoLog.data(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(LogSize))};
  const CudaApi &api = cuda();
  CUmodule module = nullptr;
  CUresult r =
      api.cuModuleLoadDataEx(&module, image.data(), 4, options, values);
  if (r != CUDA_SUCCESS) {
    errorLog.back() = '\0';
    if (isStickyError(r))
      return cudaFailure(session, r, "cannot load the module");
    std::string description = describeCudaResult(r);
    const char *what = format == AUTOPROF_CODE_PTX     ? "PTX"
                       : format == AUTOPROF_CODE_CUBIN ? "cubin"
                                                       : "NVRTC's cubin";
    return setError(session,
                    r == CUDA_ERROR_OUT_OF_MEMORY ? AUTOPROF_ERROR_OUT_OF_MEMORY
                                                  : AUTOPROF_ERROR_LOAD,
                    "the driver rejected the %s of '%s': %s\n%s", what, entry,
                    description.c_str(), errorLog.data());
  }
  CUfunction function = nullptr;
  r = api.cuModuleGetFunction(&function, module, entry);
  if (r != CUDA_SUCCESS) {
    api.cuModuleUnload(module);
    std::string description = describeCudaResult(r);
    return setError(session, AUTOPROF_ERROR_LOAD,
                    "the module has no kernel named '%s': %s", entry,
                    description.c_str());
  }
  // Force the (lazily loaded) function to load now so errors surface here.
  int registers = 0;
  r = api.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function);
  if (r != CUDA_SUCCESS) {
    api.cuModuleUnload(module);
    return cudaFailure(session, r, "cannot load the kernel's code");
  }
  auto *kernel = new (std::nothrow) autoprof_kernel();
  if (!kernel) {
    api.cuModuleUnload(module);
    return setError(session, AUTOPROF_ERROR_OUT_OF_MEMORY,
                    "cannot allocate a kernel");
  }
  kernel->session = session;
  kernel->module = module;
  kernel->function = function;
  kernel->entry = entry;
  kernel->format = format;
  *out = kernel;
  return AUTOPROF_OK;
}

extern "C" void autoprof_kernel_unload(autoprof_kernel *kernel) {
  if (!kernel)
    return;
  {
    ContextScope scope(kernel->session);
    if (scope.result() == CUDA_SUCCESS && kernel->module)
      cuda().cuModuleUnload(kernel->module);
  }
  delete kernel;
}

extern "C" autoprof_status
autoprof_kernel_attributes_get(autoprof_kernel *kernel,
                               autoprof_kernel_attributes *out) {
  if (!kernel)
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_attributes_get: no kernel given");
  autoprof_session *session = kernel->session;
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_attributes_get: no output given");
  AUTOPROF_PUSH_CONTEXT(session, scope);
  struct {
    CUfunction_attribute attribute;
    int *slot;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, &out->registers_per_thread},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &out->static_shared_bytes},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &out->local_bytes_per_thread},
      {CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &out->const_bytes},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &out->max_threads_per_block},
      {CU_FUNC_ATTRIBUTE_PTX_VERSION, &out->ptx_version},
      {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &out->binary_version},
  };
  for (auto &query : queries) {
    *query.slot = 0;
    if (CUresult r = cuda().cuFuncGetAttribute(query.slot, query.attribute,
                                               kernel->function))
      return cudaFailure(session, r, "cannot read a kernel attribute");
  }
  return AUTOPROF_OK;
}

extern "C" autoprof_status autoprof_kernel_occupancy(autoprof_kernel *kernel,
                                                     int blockThreads,
                                                     size_t dynamicShared,
                                                     int *blocksPerSm) {
  if (!kernel)
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_occupancy: no kernel given");
  autoprof_session *session = kernel->session;
  if (!blocksPerSm || blockThreads <= 0)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_occupancy: needs a positive block size "
                    "and an output (block size %d)",
                    blockThreads);
  AUTOPROF_PUSH_CONTEXT(session, scope);
  if (CUresult r = cuda().cuOccupancyMaxActiveBlocksPerMultiprocessor(
          blocksPerSm, kernel->function, blockThreads, dynamicShared))
    return cudaFailure(session, r, "cannot compute the occupancy");
  return AUTOPROF_OK;
}

extern "C" autoprof_status
autoprof_launch_spec_check(autoprof_session *session, autoprof_kernel *kernel,
                           const autoprof_launch_spec *spec) {
  AUTOPROF_CHECK_SESSION(session);
  AUTOPROF_PUSH_CONTEXT(session, scope);
  return checkLaunchSpec(session, kernel, spec, 1);
}
