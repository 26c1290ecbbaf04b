// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s

// Shared memory and barriers: static shared memory from workgroup
// attributions and from module-level workgroup globals, dynamic shared memory
// through gpu.dynamic_shared_memory, gpu.barrier / nvvm.barrier0 counts
// weighted by constant loop trips, and private memory that is neither shared
// nor global.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<32x33xf32, #gpu.address_space<workgroup>>

    // By hand (launch 16 x 256 threads; the loop runs 4 times):
    //   static_shared_bytes = 256*4 (%buf) + 8*8*2 (%halves)       = 1152
    //   barriers      = 1 + 4 * 2                                   = 9
    //   shared_loads  = 1 (%buf[%r]) + 4 * 1                        = 5
    //   shared_stores = 1 (%buf[%tid]) + 4 * 1 + 1 (%halves)        = 6
    //   global_loads = 1, global_stores = 1, 4 bytes each
    //   flops_f32 = 4 (one addf per trip); conversions = 1 (truncf)
    //   arith_intensity = 4 / 8 = 0.5
    //   branches = 4 (one loop exit test per trip); loop_depth = 1
    //   local_bytes = 0: no private memory
    // CHECK-LABEL: gpu.func @block_reverse
    // CHECK-SAME: arith_intensity = 5.000000e-01 : f64
    // CHECK-SAME: barriers = 9 : i64
    // CHECK-SAME: , branches = 4 : i64
    // CHECK-SAME: conversions = 1 : i64
    // CHECK-SAME: dynamic_shared_bytes = 0 : i64
    // CHECK-SAME: flops_f32 = 4 : i64
    // CHECK-SAME: global_load_bytes = 4 : i64, global_loads = 1 : i64
    // CHECK-SAME: global_store_bytes = 4 : i64, global_stores = 1 : i64
    // CHECK-SAME: local_bytes = 0 : i64, loop_depth = 1 : i64
    // CHECK-SAME: shared_loads = 5 : i64, shared_stores = 6 : i64
    // CHECK-SAME: static_shared_bytes = 1152 : i64
    gpu.func @block_reverse(%in: memref<4096xf32>, %out: memref<4096xf32>)
        workgroup(%buf : memref<256xf32, #gpu.address_space<workgroup>>,
                  %halves : memref<8x8xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c255 = arith.constant 255 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c256 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<4096xf32>
      memref.store %v, %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c255, %tid : index
      %w = memref.load %buf[%r] : memref<256xf32, #gpu.address_space<workgroup>>
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %w) -> (f32) {
        %x = memref.load %buf[%k] : memref<256xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %a, %x : f32
        gpu.barrier
        memref.store %s, %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        scf.yield %s : f32
      }
      %h = arith.truncf %acc : f32 to f16
      memref.store %h, %halves[%c0, %c0] : memref<8x8xf16, #gpu.address_space<workgroup>>
      memref.store %acc, %out[%i] : memref<4096xf32>
      gpu.return
    }

    // A workgroup memref.global used through two memref.get_global ops is
    // counted once: static_shared_bytes = 32*33*4 = 4224. nvvm.barrier0 is a
    // barrier like gpu.barrier: barriers = 1. One shared load, one shared
    // store, one 4-byte global load and store; no flops.
    // CHECK-LABEL: gpu.func @transpose_tile
    // CHECK-SAME: barriers = 1 : i64
    // CHECK-SAME: flops = 0 : i64
    // CHECK-SAME: global_load_bytes = 4 : i64, global_loads = 1 : i64
    // CHECK-SAME: global_store_bytes = 4 : i64, global_stores = 1 : i64
    // CHECK-SAME: shared_loads = 1 : i64, shared_stores = 1 : i64
    // CHECK-SAME: static_shared_bytes = 4224 : i64
    gpu.func @transpose_tile(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %t = memref.get_global @tile : memref<32x33xf32, #gpu.address_space<workgroup>>
      %v = memref.load %in[%ty, %tx] : memref<64x64xf32>
      memref.store %v, %t[%ty, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      nvvm.barrier0
      %t2 = memref.get_global @tile : memref<32x33xf32, #gpu.address_space<workgroup>>
      %w = memref.load %t2[%tx, %ty] : memref<32x33xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tx, %ty] : memref<64x64xf32>
      gpu.return
    }

    // Dynamic shared memory: the size comes from the launch
    // (dynamic_shared_bytes = 1024) and is not static_shared_bytes (0); the
    // accesses through the memref.view of it are shared accesses.
    // CHECK-LABEL: gpu.func @dynamic_smem
    // CHECK-SAME: barriers = 1 : i64
    // CHECK-SAME: dynamic_shared_bytes = 1024 : i64
    // CHECK-SAME: global_loads = 1 : i64
    // CHECK-SAME: global_stores = 1 : i64
    // CHECK-SAME: shared_loads = 1 : i64, shared_stores = 1 : i64
    // CHECK-SAME: static_shared_bytes = 0 : i64
    gpu.func @dynamic_smem(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
      %v = memref.load %in[%tid] : memref<256xf32>
      memref.store %v, %view[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %view[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tid] : memref<256xf32>
      gpu.return
    }

    // A private attribution is per-thread local memory (local_bytes = 4*4 =
    // 16), not shared memory, and its accesses are neither shared nor global:
    // only the global load of %in and the global store to %out are counted.
    // No barrier.
    // CHECK-LABEL: gpu.func @private_only
    // CHECK-SAME: barriers = 0 : i64
    // CHECK-SAME: global_loads = 1 : i64
    // CHECK-SAME: global_stores = 1 : i64
    // CHECK-SAME: local_bytes = 16 : i64
    // CHECK-SAME: shared_loads = 0 : i64, shared_stores = 0 : i64
    // CHECK-SAME: static_shared_bytes = 0 : i64
    gpu.func @private_only(%in: memref<256xf32>, %out: memref<256xf32>)
        private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = memref.load %in[%tid] : memref<256xf32>
      memref.store %v, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      %w = memref.load %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      memref.store %w, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }

  func.func @main(%a: memref<4096xf32>, %b: memref<4096xf32>, %m: memref<64x64xf32>,
                  %n: memref<64x64xf32>, %x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %smem = arith.constant 1024 : i32
    gpu.launch_func @kernels::@block_reverse blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<4096xf32>, %b : memref<4096xf32>)
    gpu.launch_func @kernels::@transpose_tile blocks in (%c1, %c1, %c1) threads in (%c32, %c32, %c1) args(%m : memref<64x64xf32>, %n : memref<64x64xf32>)
    gpu.launch_func @kernels::@dynamic_smem blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %smem args(%x : memref<256xf32>, %y : memref<256xf32>)
    gpu.launch_func @kernels::@private_only blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<256xf32>, %y : memref<256xf32>)
    return
  }
}
