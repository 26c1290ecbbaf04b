// What autoprof-verify-kernels finds before any kernel runs, and the jobs it
// asks for (through a stand-in worker that rejects every job with a
// description of it). The reference is an upstream-style module.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-verify-kernels="reference=%S/Inputs/verify-reference.mlir worker=%S/Inputs/describe-job-worker.py" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-verify-kernels="reference=%S/Inputs/verify-reference.mlir worker=%S/Inputs/describe-job-worker.py seed=7" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEED
// RUN: not autoprof-opt %s -split-input-file --autoprof-verify-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-OPTION
// RUN: not autoprof-opt %s -split-input-file --autoprof-verify-kernels="reference=%t.none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FILE
// RUN: not autoprof-opt %s -split-input-file --autoprof-verify-kernels="reference=%S/Inputs/verify-reference.mlir deadline=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEADLINE
// RUN: not autoprof-opt %s -split-input-file --autoprof-verify-kernels="reference=%S/Inputs/verify-reference.mlir worker=%t.none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-WORKER

// SEED: error: @scale failed verification against the reference (rejected): {{.*}}, seeds [7, 8],
// NO-OPTION: error: autoprof-verify-kernels needs the reference module: reference=<file>
// NO-FILE: error: cannot read the reference module: cannot read '{{.*}}.none': No such file or directory
// DEADLINE: error: deadline must be between 1 and 86400 seconds, got 0
// NO-WORKER: error: cannot verify @scale: worker '{{.*}}.none' is not an executable file

// The normalized kernel: both index arguments and the f32 scale are sunk, the
// buffers come from the same host arguments. Verification only, two seeds.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@scale failed verification against the reference (rejected): reference (i64=1 i64=0 f32:input f32:output f32=2), candidate (f32:input f32:output), reference_params [2, 3], seeds [1, 2], sections candidate device kernel verify}}
    gpu.func @scale(%x: memref<256xf32>, %y: memref<256xf32>) kernel {
      %cst = arith.constant 2.0 : f32
      %bid = gpu.block_id x
      %v = memref.load %x[%bid] : memref<256xf32>
      %r = arith.mulf %v, %cst : f32
      memref.store %r, %y[%bid] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@scale blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<256xf32>, %y : memref<256xf32>)
    return
  }
}

// -----

// A scalar the kernel keeps receives the reference's scalar of the same type
// and value; the index arguments are sunk. The buffers may come in another
// order and take the reference's roles.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@scale failed verification against the reference (rejected): reference (i64=1 i64=0 f32:input f32:output f32=2), candidate (f32:output f32:input f32=2), reference_params [3, 2, 4], seeds [1, 2]}}
    gpu.func @scale(%y: memref<256xf32>, %x: memref<256xf32>, %a: f32) kernel {
      %bid = gpu.block_id x
      %v = memref.load %x[%bid] : memref<256xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %y[%bid] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %a = arith.constant 2.0 : f32
    gpu.launch_func @kernels::@scale blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<256xf32>, %x : memref<256xf32>, %a : f32)
    return
  }
}

// -----

// The kernel passes a scale the reference never passes.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<256xf32>, %y: memref<256xf32>, %a: f32) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %a = arith.constant 3.0 : f32
    // expected-error @below {{cannot map the parameters of @scale to the reference's: scalar argument #2 (f32 3) matches no later scalar argument of the reference launch (same type and value)}}
    gpu.launch_func @kernels::@scale blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<256xf32>, %y : memref<256xf32>, %a : f32)
    return
  }
}

// -----

// The kernel writes into a buffer the reference kernel is not passed.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<256xf32>, %y: memref<256xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %other = memref.alloc() : memref<256xf32>
    // expected-error @below {{cannot map the parameters of @scale to the reference's: buffer argument #1 (result #0 of memref.alloc #0 of @main) is not passed to the reference kernel}}
    gpu.launch_func @kernels::@scale blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<256xf32>, %other : memref<256xf32>)
    return
  }
}

// -----

// The kernel leaves out a buffer of the reference.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<256xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    // expected-error @below {{cannot map the parameters of @scale to the reference's: the reference launch passes buffer argument #3 (argument #1 of @main) but this launch does not}}
    gpu.launch_func @kernels::@scale blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<256xf32>)
    return
  }
}

// -----

// The same host argument, seen through another type.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<256xf32>, %y: memref<256xf16>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf16>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    // expected-error @below {{cannot map the parameters of @scale to the reference's: buffer argument #1 has 256 elements of f16 but the reference's argument #3 from argument #1 of @main has 256 elements of f32}}
    gpu.launch_func @kernels::@scale blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<256xf32>, %y : memref<256xf16>)
    return
  }
}

// -----

// Kernels the reference does not have, or does not launch.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@renamed has no counterpart in the reference module: it holds no kernel @kernels::@renamed}}
    gpu.func @renamed(%x: memref<64xf32>) kernel {
      gpu.return
    }
    // expected-error @below {{@unlaunched cannot be verified: the reference module never launches @kernels::@unlaunched}}
    gpu.func @unlaunched(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @moved {
    // expected-error @below {{@scale has no counterpart in the reference module: it holds no kernel @moved::@scale}}
    gpu.func @scale(%x: memref<256xf32>, %y: memref<256xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>, %a: memref<256xf32>, %b: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@renamed blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    gpu.launch_func @kernels::@unlaunched blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    gpu.launch_func @moved::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>)
    return
  }
}

// -----

// A launch in a host loop fed by its induction variable is a repeated launch:
// the scalar takes the loop's values, in the job of both kernels.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@looped failed verification against the reference (rejected): reference (i64=0 f32:output) repeating #0 from 0 by 1 4 times, candidate (i64=0 f32:output) repeating #0 from 0 by 1 4 times, reference_params absent}}
    gpu.func @looped(%i: index, %x: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@looped blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%i : index, %t : memref<64xf32>)
    }
    return
  }
}

// -----

// A kernel that takes the loop into its body (fold-host-loop) drops the
// induction variable: the reference alone repeats.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@looped failed verification against the reference (rejected): reference (i64=0 f32:output) repeating #0 from 0 by 1 4 times, candidate (f32:output), reference_params [1]}}
    gpu.func @looped(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@looped blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<64xf32>)
    return
  }
}

// -----

// A scalar that varies with a host loop other than as its induction variable
// has no job: a warning, and the pass succeeds.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shifted(%i: index, %x: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %i1 = arith.addi %i, %c1 : index
      // expected-warning @below {{@shifted not verified: the scalar argument #0 of its launch is not a constant (it varies with a host loop, not as the induction variable of a loop with constant bounds directly around the launch), so the kernel has no single evaluation job}}
      gpu.launch_func @kernels::@shifted blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%i1 : index, %t : memref<64xf32>)
    }
    return
  }
}

// -----

// When only the reference launches the kernel so, the warning says so.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shifted(%i: index, %x: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<64xf32>
    // expected-warning @below {{@shifted not verified: the scalar argument #0 of its reference launch is not a constant (it varies with a host loop, not as the induction variable of a loop with constant bounds directly around the launch), so the kernel has no single evaluation job}}
    gpu.launch_func @kernels::@shifted blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%c0 : index, %t : memref<64xf32>)
    return
  }
}

// -----

// expected-warning @below {{no launched kernel to verify}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<256xf32>) kernel {
      gpu.return
    }
  }
}
