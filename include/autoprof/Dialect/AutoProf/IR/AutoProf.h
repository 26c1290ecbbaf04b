//===- AutoProf.h - The profiling-tree dialect ------------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_DIALECT_AUTOPROF_IR_AUTOPROF_H
#define AUTOPROF_DIALECT_AUTOPROF_IR_AUTOPROF_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "autoprof/Dialect/AutoProf/IR/AutoProfEnums.h.inc"

namespace mlir::autoprof {
/// How a split's comparison is written: "<", "<=", ">" or ">=".
llvm::StringRef getComparisonSpelling(Comparison comparison);

/// The value of an integer or float attribute, or nothing for any other
/// (or none): how features, measured times and metrics are read. An
/// unsigned integer reads as unsigned, and integers of any width round to
/// the nearest double.
std::optional<double> getNumericValue(Attribute attr);
} // namespace mlir::autoprof

#include "autoprof/Dialect/AutoProf/IR/AutoProfOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "autoprof/Dialect/AutoProf/IR/AutoProfOps.h.inc"

#endif // AUTOPROF_DIALECT_AUTOPROF_IR_AUTOPROF_H
