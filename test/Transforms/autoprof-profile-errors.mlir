// Problems autoprof-profile finds before running anything on a GPU.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-profile="worker=/bin/false" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-profile="deadline=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEADLINE

// DEADLINE: error: deadline must be between 1 and 86400 seconds, got 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A profile attached by hand must name its metrics.
    // expected-error @below {{the kernel's autoprof.profile has no 'metrics' array of strings; remove it or run --autoprof-select-profile}}
    gpu.func @k(%x: memref<64xf32>) kernel attributes {autoprof.profile = {metrics = [1, 2]}} {
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xf32>, %y: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-error @below {{argument #1 passes a buffer that an earlier argument already passes; aliasing launches cannot be evaluated}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xf32>, %s: f32) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-error @below {{scalar argument #1 of type 'f32' must be a host constant of a supported type}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %s : f32)
    return
  }
}
