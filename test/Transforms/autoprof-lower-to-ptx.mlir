// RUN: rm -rf %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" | FileCheck %s
// RUN: FileCheck %s --input-file=%t/kernels.ptx --check-prefix=PTX
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-lower-to-ptx="chip=sm_80 features=+ptx75 opt-level=0" | FileCheck %s --check-prefix=SM80

// The gpu.module becomes a gpu.binary holding PTX for sm_90 with PTX ISA 8.0;
// the host code, its buffers and launches stay as they were.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rsqrt_scale(%x: memref<4096xf32>, %y: memref<4096xf32>, %s: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32>
      %r = math.rsqrt %v : f32
      %t = arith.mulf %r, %s : f32
      memref.store %t, %y[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<4096xf32>, %y: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %s = arith.constant 0.5 : f32
    gpu.launch_func @kernels::@rsqrt_scale blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>, %y : memref<4096xf32>, %s : f32)
    return
  }
}

// CHECK-NOT: gpu.module
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@rsqrt_scale blocks in ({{.*}}) threads in ({{.*}}) args(%{{.*}} : memref<4096xf32>, %{{.*}} : memref<4096xf32>, %{{.*}} : f32)

// Bare-pointer ABI: two pointers and the scalar, no memref descriptors; the
// math function comes from libdevice, so no external call remains.
// PTX: .version 8.0
// PTX: .target sm_90
// PTX: .visible .entry rsqrt_scale(
// PTX-NEXT: .param .u64 .ptr .align 1 rsqrt_scale_param_0,
// PTX-NEXT: .param .u64 .ptr .align 1 rsqrt_scale_param_1,
// PTX-NEXT: .param .f32 rsqrt_scale_param_2
// PTX-NEXT: )
// PTX-NOT: .extern .func
// PTX: ret;

// SM80: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 0, chip = "sm_80", features = "+ptx75">
