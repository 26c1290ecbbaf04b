//===- autoprof-opt.cpp - The AutoProf optimizer driver -------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::autoprof::registerAllDialects(registry);
  mlir::autoprof::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "AutoProf optimizer driver\n", registry));
}
