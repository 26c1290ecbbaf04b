// Option combinations the NVPTX backend would abort on are diagnosed before
// any lowering runs.
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="chip=sm_50" 2>&1 | FileCheck %s --check-prefix=OLD-CHIP
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=NOT-NVIDIA
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="chip=sm_90a features=+ptx78" 2>&1 | FileCheck %s --check-prefix=TOO-OLD-PTX
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="chip=sm_90a features=" 2>&1 | FileCheck %s --check-prefix=NO-PTX
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="features=+ptx79" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-PTX
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="features=+sm_90" 2>&1 | FileCheck %s --check-prefix=BAD-FEATURE
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="features=+ptx80,+ptx81" 2>&1 | FileCheck %s --check-prefix=TWO-PTX
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="opt-level=4" 2>&1 | FileCheck %s --check-prefix=OPT-LEVEL
// RUN: not autoprof-opt %s --autoprof-lower-to-ptx="cuda-path=%t.nowhere" 2>&1 | FileCheck %s --check-prefix=CUDA-PATH
// RUN: autoprof-opt %s --autoprof-lower-to-ptx="chip=sm_90a features=+ptx80" -o /dev/null

// OLD-CHIP: autoprof-lower-to-ptx-errors.mlir:[[# @LINE + 10]]:1: error: unsupported chip 'sm_50'; expected an NVIDIA architecture from sm_75 to sm_121a supported by CUDA 13, e.g. sm_90
// NOT-NVIDIA: error: unsupported chip 'gfx90a'
// TOO-OLD-PTX: error: chip sm_90a needs PTX 8.0 or newer, but features="+ptx78" asks for 7.8
// NO-PTX: error: features="" names no PTX version; the backend's default is too old for sm_90a, pass e.g. +ptx80
// UNKNOWN-PTX: error: PTX version 7.9 is not known to the LLVM NVPTX backend (6.0 to 9.0)
// BAD-FEATURE: error: unsupported feature '+sm_90' in features="+sm_90"; expected one PTX version such as +ptx80
// TWO-PTX: error: features="+ptx80,+ptx81" names more than one PTX version
// OPT-LEVEL: error: opt-level must be between 0 and 3, got 4
// CUDA-PATH: error: cuda-path '{{.*}}.nowhere' is not a CUDA toolkit: {{.*}}libdevice.10.bc does not exist

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<64xf32>
      %e = math.exp %v : f32
      memref.store %e, %x[%tid] : memref<64xf32>
      gpu.return
    }
  }
}
