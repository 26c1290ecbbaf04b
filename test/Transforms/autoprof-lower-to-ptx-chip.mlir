// Instructions the chip does not have are diagnosed where they are, before
// the NVPTX backend would abort on them ("Cannot select"); the same kernels
// lower for a chip that has them.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-lower-to-ptx="chip=sm_75 features=+ptx80" -o /dev/null
// RUN: autoprof-opt %s -split-input-file --autoprof-lower-to-ptx="chip=sm_80 features=+ptx80" | FileCheck %s

// The tensor-core step of the f16 and bf16 tiles: m16n8k16 needs sm_80.
// CHECK-LABEL: gpu.binary @mma_f16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
module attributes {gpu.container_module} {
  gpu.module @mma_f16 {
    gpu.func @k(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>,
                %out: memref<32xf32>) kernel {
      // expected-error @below {{the m16n8k16 matrix product on f16 needs sm_80 or newer; chip is sm_75}}
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %lane = gpu.lane_id
      %e = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
      memref.store %e, %out[%lane] : memref<32xf32>
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: gpu.binary @mma_bf16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
module attributes {gpu.container_module} {
  gpu.module @mma_bf16 {
    gpu.func @k(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32,
                %c0: f32, %c1: f32, %c2: f32, %c3: f32,
                %out: !llvm.ptr<1>) kernel {
      // expected-error @below {{the m16n8k16 matrix product on bf16 needs sm_80 or newer; chip is sm_75}}
      %d = nvvm.mma.sync A[%a0, %a1, %a2, %a3] B[%b0, %b1]
          C[%c0, %c1, %c2, %c3]
          {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
           multiplicandAPtxType = #nvvm.mma_type<bf16>,
           multiplicandBPtxType = #nvvm.mma_type<bf16>,
           shape = #nvvm.shape<m = 16, n = 8, k = 16>}
          : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      %x = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
      llvm.store %x, %out : f32, !llvm.ptr<1>
      gpu.return
    }
  }
}

// -----

// Asynchronous copies from global to shared memory (cp.async) need sm_80.
// CHECK-LABEL: gpu.binary @async_copy
// CHECK-SAME: cp.async.cg.shared.global
module attributes {gpu.container_module} {
  gpu.module @async_copy {
    gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
        workgroup(%tile: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %tid, %c4 : index
      // expected-error @below {{'nvgpu.device_async_copy' needs sm_80 or newer; chip is sm_75}}
      %t = nvgpu.device_async_copy %src[%i], %tile[%i], 4 {bypassL1}
          : memref<1024xf32> to memref<128xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      gpu.barrier
      %v = memref.load %tile[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tid] : memref<1024xf32>
      gpu.return
    }
  }
}

// -----

// What sm_75 has lowers for it: the m16n8k8 product on f16 and ldmatrix.
// CHECK-LABEL: gpu.binary @mma_sm75
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
module attributes {gpu.container_module} {
  gpu.module @mma_sm75 {
    gpu.func @k(%b: vector<1x2xf16>, %c: vector<2x2xf32>,
                %out: memref<32xf32>)
        workgroup(%tile: memref<16x8xf16, #gpu.address_space<workgroup>>) kernel {
      %lane = gpu.lane_id
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %row = arith.remui %lane, %c16 : index
      %a = nvgpu.ldmatrix %tile[%row, %c0] {numTiles = 2 : i32, transpose = false}
          : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]}
          : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
      memref.store %e, %out[%lane] : memref<32xf32>
      gpu.return
    }
  }
}

// -----

// An NVVM op that declares the chips it needs is diagnosed where it is too.
// CHECK-LABEL: gpu.binary @redux
// CHECK-SAME: redux.sync.add.s32
module attributes {gpu.container_module} {
  gpu.module @redux {
    gpu.func @k(%x: memref<32xi32>) kernel {
      %lane = gpu.lane_id
      %v = memref.load %x[%lane] : memref<32xi32>
      %all = arith.constant -1 : i32
      // expected-error @below {{'nvvm.redux.sync' needs sm_80 or newer; chip is sm_75}}
      %r = nvvm.redux.sync add %v, %all : i32 -> i32
      memref.store %r, %x[%lane] : memref<32xi32>
      gpu.return
    }
  }
}
