# -*- Python -*-
# Lit configuration of the AutoProf regression tests.

import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "AutoProf"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.autoprof_obj_root, "test")
config.excludes = ["Unit", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "profile-corpus.py",
                   "lit.site.cfg.py", "Inputs",
                   # Fuzz targets and their seed corpora run through
                   # scripts/fuzz.sh, not lit.
                   "Fuzz"]

# Strict FileCheck, as upstream MLIR uses it.
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.use_default_substitutions()
config.substitutions.append(("%python", sys.executable))
# `%lit DIR`: lit itself, on a folder of this suite's built tests.
lit_home = os.path.dirname(os.path.dirname(os.path.abspath(lit.__file__)))
config.substitutions.append(
    ("%lit", f'env PYTHONPATH={lit_home} {sys.executable} -c '
             '"from lit.main import main; main()"'))
config.substitutions.append(("%test_obj_root", config.test_exec_root))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tools = ["autoprof-opt", "autoprof-learn", "autoprof-chat"]
# The worker exists where the CUDA toolkit was found at configure time.
if os.path.exists(os.path.join(config.autoprof_tools_dir, "autoprof-worker")):
    config.available_features.add("autoprof-worker")
    tools += ["autoprof-worker", "autoprof-runtime-smoke",
              "autoprof-profiler-smoke"]
# The catalog checker exists where CUPTI's host library was found.
if os.path.exists(os.path.join(config.autoprof_tools_dir,
                               "autoprof-metric-names")):
    config.available_features.add("cupti-host")
    tools += ["autoprof-metric-names"]
# The TableGen backends are a build tool: a bundle for a GPU host leaves it out.
if os.path.exists(os.path.join(config.autoprof_tools_dir, "autoprof-tblgen")):
    config.available_features.add("autoprof-tblgen")
    tools += ["autoprof-tblgen"]
llvm_config.add_tool_substitutions(tools, [config.autoprof_tools_dir])
config.substitutions.append(
    ("%autoprof_opt", os.path.join(config.autoprof_tools_dir, "autoprof-opt")))
config.substitutions.append(
    ("%autoprof_learn",
     os.path.join(config.autoprof_tools_dir, "autoprof-learn")))

# `cuda-toolkit`: ptxas is available, so generated PTX is assembled.
if config.have_ptxas and os.path.exists(config.ptxas_executable):
    config.available_features.add("cuda-toolkit")
    config.available_features.add("ptxas")
    config.substitutions.append(
        ("%ptxas", config.ptxas_executable + " --gpu-name sm_90"))


# `nvrtc`: the worker can compile CUDA C++ (NVRTC loads, as the runtime
# looks for it: the loader's path, then $CUDA_HOME and /usr/local/cuda).
def has_nvrtc():
    import ctypes
    homes = [os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"]
    candidates = ["libnvrtc.so.13", "libnvrtc.so"] + [
        os.path.join(home, sub, name) for home in homes if home
        for sub in ("lib64", "lib")
        for name in ("libnvrtc.so.13", "libnvrtc.so")]
    for candidate in candidates:
        try:
            ctypes.CDLL(candidate)
            return True
        except OSError:
            pass
    return False


if "autoprof-worker" in config.available_features and has_nvrtc():
    config.available_features.add("nvrtc")


# `cuda-device`: an NVIDIA GPU and its driver are present; GPU tests are gated
# on it and do not run on machines without one (such as CI).
def has_cuda_device():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        result = subprocess.run([smi, "-L"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and b"GPU" in result.stdout


if has_cuda_device():
    config.available_features.add("cuda-device")


# `compute-sanitizer`: found where autoprof-optimize's sanitize= looks for it
# (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin).
def has_compute_sanitizer():
    if shutil.which("compute-sanitizer"):
        return True
    homes = [os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"]
    return any(os.access(os.path.join(home, "bin", "compute-sanitizer"),
                         os.X_OK) for home in homes if home)


if has_compute_sanitizer():
    config.available_features.add("compute-sanitizer")
lit_config.parallelism_groups["cuda-device"] = 1

# `mlir-opt-22`: Debian's upstream mlir-opt, which generates the upstream
# corpus (absent on GPU hosts that run a bundle without LLVM).
mlir_opt = shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt"
if os.path.exists(mlir_opt):
    config.available_features.add("mlir-opt-22")
    config.substitutions.append(("%mlir_opt", mlir_opt))

# `mpi`: Open MPI's mpirun and mpi4py for the interpreter the tests run
# (the worker pool across ranks).
if shutil.which("mpirun") and subprocess.run(
        [sys.executable, "-c", "import mpi4py"],
        capture_output=True).returncode == 0:
    config.available_features.add("mpi")
# `triton`: Triton and PyTorch for the interpreter the tests run
# (autoprof.triton end to end).
if subprocess.run([sys.executable, "-c", "import triton, torch"],
                  capture_output=True).returncode == 0:
    config.available_features.add("triton")
config.substitutions.append(
    ("%repo", os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

# `--param autoprof_require=cuda-device,triton,...`: features the host must
# have. A GPU host's run (scripts/gpu-host-tests.sh) names the GPU's, so that
# a missing driver, toolkit, Triton or PyTorch fails the run instead of
# skipping the tests that need them.
required = [name.strip() for name in
            lit_config.params.get("autoprof_require", "").split(",")
            if name.strip()]
missing = [name for name in required
           if name not in config.available_features]
if missing:
    lit_config.fatal("this host lacks what the run requires "
                     "(autoprof_require): " + ", ".join(missing))

