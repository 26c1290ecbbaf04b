//===- autoprof-opt.cpp - The AutoProf optimizer driver -------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with AutoProf's dialects, passes and pipelines. The input is
// checked for bracket nesting deep enough to exhaust the parser's stack
// (Support/Nesting.h) before it is parsed, so that a hostile module is
// refused with the place instead of crashing the tool.
//
//===----------------------------------------------------------------------===//

#include "autoprof/InitAll.h"
#include "autoprof/Support/InputFile.h"
#include "autoprof/Support/Nesting.h"

#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::autoprof::registerAllDialects(registry);
  mlir::autoprof::registerAllPasses();
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "AutoProf optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));

  llvm::InitLLVM init(argc, argv);
  // Standard input is read as it comes; a named file must be a regular
  // file of a sane size (a FIFO or /dev/zero would hang).
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (inputFile == "-") {
    std::string error;
    input = mlir::openInputFile(inputFile, &error);
    if (!input) {
      llvm::errs() << error << "\n";
      return EXIT_FAILURE;
    }
  } else {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> read =
        autoprof::readInputFile(inputFile);
    if (!read) {
      llvm::errs() << "autoprof-opt: " << llvm::toString(read.takeError())
                   << "\n";
      return EXIT_FAILURE;
    }
    input = std::move(*read);
  }
  if (std::optional<std::string> why =
          autoprof::checkSourceNesting(input->getBuffer())) {
    llvm::errs() << (inputFile == "-" ? "<stdin>" : inputFile)
                 << ": error: " << *why << "\n";
    return EXIT_FAILURE;
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
