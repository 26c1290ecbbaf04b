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
