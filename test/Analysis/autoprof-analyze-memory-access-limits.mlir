// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-analyze-memory-access -o /dev/null

// What the analysis cannot describe it says, naming the access: a gather
// through loaded indices, an index divided by a constant, an access through
// a view. Shared memory and vector accesses are described like global ones.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{@limits: consecutive global indices along x walk contiguous memory (1.0 votes); arg0 footprint 512 B per block, reuse 1.0; arg1 not described; arg2 (written) not described; buffers may alias: two buffers of a launch are neither their own allocations nor host arguments marked llvm.noalias, so they may overlap}}
    gpu.func @limits(%idx: memref<128xi32>, %data: memref<1024xf32>, %out: memref<128x8xf32>) kernel {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      // expected-remark @below {{load arg0: address = tid.x; strides thread (1, 0, 0) block (0, 0, 0); 32 lanes, 4 sectors per request, 128 of 128 bytes used}}
      %raw = memref.load %idx[%tid] : memref<128xi32>
      %i = arith.index_cast %raw : i32 to index
      // expected-remark @below {{load arg1: address = memref.load; not affine in the thread ids: the address depends on a thread or block id through 'memref.load'}}
      %v = memref.load %data[%i] : memref<1024xf32>
      %q = arith.divui %tid, %c4 : index
      %view = memref.subview %out[0, 0] [128, 4] [1, 1] : memref<128x8xf32> to memref<128x4xf32, strided<[8, 1]>>
      // expected-remark @below {{store a local buffer: address not described: the buffer is a view or not a kernel argument}}
      memref.store %v, %view[%q, %c4] : memref<128x4xf32, strided<[8, 1]>>
      // expected-remark @below {{store arg2: address = 8*arith.divui + 4; not affine in the thread ids: the address depends on a thread or block id through 'arith.divui'}}
      memref.store %v, %out[%q, %c4] : memref<128x8xf32>
      gpu.return
    }
  }
  func.func @main(%idx: memref<128xi32>, %data: memref<1024xf32>, %out: memref<128x8xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@limits blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%idx : memref<128xi32>, %data : memref<1024xf32>, %out : memref<128x8xf32>)
    return
  }
}

// -----

// A shared staging buffer and 128-bit vector loads; the buffers are fresh
// allocations, so they are distinct.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{@staged: consecutive global indices along x walk contiguous memory (1.0 votes); arg0 footprint 4096 B per block, reuse 1.0; shared0 (written) footprint 1024 B per block, reuse 1.0; buffers distinct}}
    gpu.func @staged(%in: memref<4096xf32>) workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %base = arith.muli %bid, %c1024 : index
      %four = arith.muli %tid, %c4 : index
      %i = arith.addi %base, %four : index
      // expected-remark @below {{load of 4 elements arg0: address = 1024*bid.x + 4*tid.x; strides thread (4, 0, 0) block (1024, 0, 0); 32 lanes, 16 sectors per request, 512 of 512 bytes used}}
      %v = vector.load %in[%i] : memref<4096xf32>, vector<4xf32>
      %s = vector.reduction <add>, %v : vector<4xf32> into f32
      // expected-remark @below {{store shared shared0: address = tid.x; strides thread (1, 0, 0) block (0, 0, 0); 32 lanes, 4 sectors per request, 128 of 128 bytes used}}
      memref.store %s, %tile[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %in = memref.alloc() : memref<4096xf32>
    gpu.launch_func @kernels::@staged blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<4096xf32>)
    return
  }
}

// -----

// A view of an allocation passed next to the allocation itself may overlap
// it: the two are not distinct although one is a fresh allocation.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark-re @below {{@views: {{.*}}; buffers may alias: two buffers of a launch are views of one buffer}}
    gpu.func @views(%a: memref<128xf32>, %b: memref<64xf32, strided<[1], offset: 32>>) kernel {
      %tid = gpu.thread_id x
      // expected-remark @below {{load arg0: address = tid.x;}}
      %v = memref.load %a[%tid] : memref<128xf32>
      // expected-remark @below {{store arg1: address = tid.x + 32;}}
      memref.store %v, %b[%tid] : memref<64xf32, strided<[1], offset: 32>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = memref.alloc() : memref<128xf32>
    %b = memref.subview %a[32] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 32>>
    gpu.launch_func @kernels::@views blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<128xf32>, %b : memref<64xf32, strided<[1], offset: 32>>)
    return
  }
}

// -----

// What differs between threads without being a thread or block id: the
// global id, the lane id, and a value a loop carries from one. None of
// these addresses is the same for every thread.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @below {{@other_ids: no dimension walks contiguous memory; arg0 not described; arg1 (written) not described; buffers may alias: two buffers of a launch are neither their own allocations nor host arguments marked llvm.noalias, so they may overlap}}
    gpu.func @other_ids(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %g = gpu.global_id x
      // expected-remark @below {{load arg0: address = gpu.global_id; not affine in the thread ids: the address depends on a thread or block id through 'gpu.global_id'}}
      %v = memref.load %in[%g] : memref<256xf32>
      %lane = gpu.lane_id
      // expected-remark @below {{store arg1: address = gpu.lane_id; not affine in the thread ids: the address depends on a thread or block id through 'gpu.lane_id'}}
      memref.store %v, %out[%lane] : memref<256xf32>
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %j = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
        %n = arith.addi %acc, %tid : index
        scf.yield %n : index
      }
      // expected-remark @below {{store arg1: address = scf.for; not affine in the thread ids: the address depends on a thread or block id through 'scf.for'}}
      memref.store %v, %out[%j] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<256xf32>, %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@other_ids blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<256xf32>, %out : memref<256xf32>)
    return
  }
}
