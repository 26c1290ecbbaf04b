// Modules the NVPTX backend would abort on or mishandle are diagnosed
// before any lowering.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-lower-to-ptx -o /dev/null

module attributes {gpu.container_module} {
  // expected-error @below {{'k-1' is not a PTX identifier ([A-Za-z_$][A-Za-z0-9_$]*); rename it before lowering to PTX}}
  gpu.module @kernels {
    gpu.func @"k-1"(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.module @kernels already has targets; autoprof-lower-to-ptx attaches its own (chip and features options), remove them first}}
  gpu.module @kernels [#nvvm.target<chip = "sm_50">] {
    gpu.func @k(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @outer {
    gpu.func @k(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
  builtin.module @inner attributes {gpu.container_module} {
    // expected-error @below {{gpu.module @nested is nested inside another op; autoprof-lower-to-ptx lowers the gpu.modules that are direct children of the module}}
    gpu.module @nested {
      gpu.func @k(%x: memref<64xf32>) kernel {
        gpu.return
      }
    }
  }
}

// -----

// f128 arithmetic: the backend would call a library it does not have and abort.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xf128>, %y: memref<64xf128>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %y[%tid] : memref<64xf128>
      // expected-error @below {{'arith.addf' computes on f128, which the NVPTX backend has no arithmetic for; autoprof-lower-to-ptx cannot lower it}}
      %w = arith.addf %v, %v : f128
      memref.store %w, %x[%tid] : memref<64xf128>
      gpu.return
    }
  }
}

// -----

// A conversion from a float to a 128-bit integer: a library call again.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xi128>, %y: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %y[%tid] : memref<64xf32>
      // expected-error @below {{'arith.fptosi' converts between a float and i128, which the NVPTX backend can do only through a library call it does not have; autoprof-lower-to-ptx cannot lower it}}
      %w = arith.fptosi %v : f32 to i128
      memref.store %w, %x[%tid] : memref<64xi128>
      gpu.return
    }
  }
}

// -----

// 8-bit floats: the arith lowering leaves the addition unconverted.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xf8E4M3FN>, %y: memref<64xf8E4M3FN>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %y[%tid] : memref<64xf8E4M3FN>
      // expected-error @below {{'arith.addf' computes on f8E4M3FN, which the arith lowering to LLVM does not handle; autoprof-lower-to-ptx cannot lower it}}
      %w = arith.addf %v, %v : f8E4M3FN
      memref.store %w, %x[%tid] : memref<64xf8E4M3FN>
      gpu.return
    }
  }
}
