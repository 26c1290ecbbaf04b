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

// -----

// A conversion that fails reports the op of the input it came from.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<16xf32>
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %w = vector.broadcast %v : f32 to vector<4xf32>
      // expected-error @below {{'nvvm.shfl.sync' op operand #1 must be 32-bit signless integer or 32-bit float, but got 'vector<4xf32>'}}
      %s, %ok = gpu.shuffle xor %w, %c1, %c32 : vector<4xf32>
      %e = vector.extract %s[0] : f32 from vector<4xf32>
      memref.store %e, %a[%i] : memref<16xf32>
      gpu.return
    }
  }
}

// -----

// Launch bounds that are no block size: refused at the kernel (the NVVM
// translation would refuse them without a location).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@k: nvvm.maxntid holds -1, not a block size (1 to 1024 threads)}}
    gpu.func @k(%a: memref<16xf32>) kernel attributes {nvvm.maxntid = array<i32: -1, 1, 1>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@k: nvvm.reqntid asks for blocks of 2048 threads, more than 1024}}
    gpu.func @k(%a: memref<16xf32>) kernel attributes {nvvm.reqntid = array<i32: 64, 32>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@k: nvvm.minctasm must be a positive integer}}
    gpu.func @k(%a: memref<16xf32>) kernel attributes {nvvm.minctasm = 0 : i32} {
      gpu.return
    }
  }
}

// -----

// An op the device pipeline leaves unlowered (here a vector load of two
// dimensions) is reported where it is, not as a cast the translation to
// LLVM IR refuses.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64x4xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      // expected-error @below {{'vector.load' (on memref<64x4xf32>, index, index, vector<2x4xf32>) has no lowering to the LLVM and NVVM dialects in autoprof-lower-to-ptx's pipeline}}
      %v = vector.load %x[%tid, %c0] : memref<64x4xf32>, vector<2x4xf32>
      %w = arith.addf %v, %v : vector<2x4xf32>
      vector.store %w, %x[%tid, %c0] : memref<64x4xf32>, vector<2x4xf32>
      gpu.return
    }
  }
}
