//===- ImportKernel.cpp - Kernels from kernel specs -----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/Cubin.h"
#include "autoprof/Import/KernelSpec.h"
#include "autoprof/Runtime/WorkerClient.h"
#include "autoprof/Support/InputFile.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_IMPORTKERNELPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

namespace {
struct ImportKernelPass
    : public mlir::autoprof::impl::ImportKernelPassBase<ImportKernelPass> {
  using Base::Base;

  void runOnOperation() override {
    if (specs.empty()) {
      emitError(getOperation().getLoc(),
                "autoprof-import-kernel needs spec=FILE");
      return signalPassFailure();
    }
    if (failed(checkJobOptions(getOperation().getLoc(),
                               "autoprof-import-kernel", chip)))
      return signalPassFailure();
    for (const std::string &path : specs)
      if (failed(importSpec(path)))
        return signalPassFailure();
  }

  LogicalResult importSpec(StringRef path) {
    Location loc = FileLineColLoc::get(&getContext(), path, 1, 1);
    auto fail = [&](const Twine &message) {
      return emitError(loc, "kernel spec: ") << message;
    };
    auto specText = ::autoprof::readInputFile(path);
    // (At the module: a location in the file would have the diagnostic
    // read it to quote a line.)
    if (!specText)
      return emitError(getOperation().getLoc(), "kernel spec: ")
             << llvm::toString(specText.takeError());
    llvm::Expected<KernelSpec> spec =
        parseKernelSpec((*specText)->getBuffer(), path);
    if (!spec)
      return fail(llvm::toString(spec.takeError()));
    bool isCubin = spec->format == ::autoprof::runtime::CodeFormat::Cubin;
    auto sourceText =
        ::autoprof::readInputFile(spec->sourcePath, /*text=*/!isCubin);
    if (!sourceText)
      return fail("field 'source': " + llvm::toString(sourceText.takeError()));
    StringRef source = (*sourceText)->getBuffer();

    if (isCubin) {
      llvm::Expected<CubinEntry> entry = readCubinEntry(source, spec->entry);
      if (!entry)
        return fail("field 'source': " + llvm::toString(entry.takeError()));
      if (llvm::Error error = checkCubinEntry(*spec, *entry, chip))
        return fail(llvm::toString(std::move(error)));
      importKernel(getOperation(), *spec, source, chip, StringRef());
      return success();
    }
    std::string ptx = source.str();
    if (spec->format == ::autoprof::runtime::CodeFormat::Cuda) {
      // CUDA C++ to PTX with NVRTC, in a compile-only worker job.
      rt::WorkerOptions options;
      options.workerPath = workerPath;
      // A #line directive names the source file as it is: NVRTC's messages
      // and the PTX's line information (`.file`) then point at it.
      llvm::SmallString<256> path(spec->sourcePath);
      (void)llvm::sys::fs::make_absolute(path);
      std::string named = "#line 1 \"";
      for (char c : path) {
        if (c == '"' || c == '\\')
          named += '\\';
        named += c;
      }
      named += "\"\n" + source.str();
      llvm::Expected<std::string> compiled = rt::compileCudaToPtx(
          named, spec->entry, chip, spec->compileOptions, options);
      if (!compiled) {
        // The worker speaks of candidates; an imported kernel is the
        // user's own source.
        std::string why = llvm::toString(compiled.takeError());
        StringRef reason(why);
        reason.consume_front("the candidate does not compile: ");
        return fail("cannot compile '" + spec->sourcePath + "': " + reason);
      }
      ptx = std::move(*compiled);
    }
    llvm::Expected<PtxEntry> entry = readPtxEntry(ptx, spec->entry);
    if (!entry)
      return fail("field 'entry': " + llvm::toString(entry.takeError()));
    if (llvm::Error error = checkPtxEntry(*spec, *entry, chip))
      return fail(llvm::toString(std::move(error)));
    importKernel(getOperation(), *spec, ptx, chip,
                 spec->format == ::autoprof::runtime::CodeFormat::Cuda ? source : StringRef());
    return success();
  }
};
} // namespace
