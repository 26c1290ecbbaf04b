// Imported kernels (gpu.binary marked autoprof.imported) that
// autoprof-extract-features and autoprof-profile cannot read: each is
// diagnosed at the binary or at its launch, before anything runs.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-extract-features -o /dev/null
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-profile="worker=/bin/false" -o /dev/null

module attributes {gpu.container_module} {
  // expected-error @below {{autoprof.imported of @k lacks its entry or its params}}
  gpu.binary @k {autoprof.imported = {entry = "k", format = "ptx"}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{imported kernel @k holds no PTX or cubin object}}
  gpu.binary @k {autoprof.imported = {entry = "k", format = "ptx", params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, offload = "\00">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

// A binary object is a cubin, read before anything runs.
module attributes {gpu.container_module} {
  // expected-error @below {{the cubin of imported kernel @k: the file is not a cubin (no ELF header)}}
  gpu.binary @k {autoprof.imported = {entry = "k", format = "cubin", params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{parameter 0 of imported kernel @k is not one of an evaluation job: unknown element type at param.dtype}}
  gpu.binary @k {autoprof.imported = {entry = "k", format = "ptx", params = [{kind = "buffer", dtype = "f128", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k {autoprof.imported = {entry = "k", format = "ptx", params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{the launch of imported kernel @k has a grid or block size that is not a positive constant}}
    gpu.launch_func @k::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k {autoprof.imported = {entry = "k", format = "ptx", params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{the launch of imported kernel @k passes 2 operands for 1 parameters}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>, %x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k {autoprof.imported = {entry = "k", format = "ptx", params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{launches @other of the imported binary @k, whose entry is 'k'}}
    gpu.launch_func @k::@other blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{autoprof.imported of @k: compile_options is not an array of strings}}
  gpu.binary @k {autoprof.imported = {entry = "k", format = "cuda", code = "extern \"C\" __global__ void k(float *x) {}", compile_options = [3], params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{autoprof.imported of @k: compile_options holds '--include-path=/etc', not an NVRTC option AutoProf passes (fast-math and optimization choices and -D macro definitions are)}}
  gpu.binary @k {autoprof.imported = {entry = "k", format = "cuda", code = "extern \"C\" __global__ void k(float *x) {}", compile_options = ["--ftz=true", "--include-path=/etc"], params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}
