//===- RewriteFamilyBase.td - Declaring rewrite families -*- tablegen -*-=====//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The classes RewriteFamilies.td declares the built-in families with: the
// kernel forms, the parameter domains and the family itself.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_REWRITEFAMILYBASE
#define AUTOPROF_OPTIMIZER_REWRITEFAMILYBASE

include "autoprof/Diagnosis/BottleneckFacts.td"

//===----------------------------------------------------------------------===//
// Kernel forms
//===----------------------------------------------------------------------===//

/// A form of kernel a family rewrites.
class KernelForm<string CppName, string Description> {
  string cppName = CppName;
  string description = Description;
}

def MlirKernel : KernelForm<"Mlir", "MLIR">;
def PtxKernel : KernelForm<"Ptx", "imported">;

//===----------------------------------------------------------------------===//
// Parameter domains
//===----------------------------------------------------------------------===//

/// The values a family's parameter takes; `Noun` names it in messages ("the
/// number of lanes must be ...").
class ParameterDomain<string Noun> {
  string noun = Noun;
}

/// One of `Choices`.
class Values<string Noun, list<int> Choices> : ParameterDomain<Noun> {
  list<int> values = Choices;
}

/// The parameter 1 of a family that has no choice to make.
def One : Values<"the parameter", [1]>;

/// A multiple of `Step` from `Low` to `High`; `Unit` follows the interval in
/// messages.
class Range<string Noun, int Low, int High, int Step = 1, string Unit = "">
    : ParameterDomain<Noun> {
  int low = Low;
  int high = High;
  int step = Step;
  string unit = Unit;
}

/// A power of two from `Low` to `High`.
class PowersOfTwo<string Noun, int Low, int High> : ParameterDomain<Noun> {
  int low = Low;
  int high = High;
}

/// A value whose limits are the GPU target's, checked when the family is
/// matched on a kernel; `Limits` says which.
class TargetLimited<string Noun, string Limits> : ParameterDomain<Noun> {
  string limits = Limits;
}

//===----------------------------------------------------------------------===//
// Families
//===----------------------------------------------------------------------===//

/// A rewrite family. The C++ class implementing it is `<def name>Family` in
/// lib/Optimizer/Families/ (MLIR kernels) or lib/Optimizer/PtxFamilies/
/// (imported kernels), made by `create<def name>Family()`.
class RewriteFamily<string Name, list<KernelForm> Forms = [MlirKernel]> {
  string name = Name;
  list<KernelForm> forms = Forms;
  /// One line on what the family does and what its parameter means.
  string summary = ?;
  /// The same for an imported kernel, where it says more than `summary`.
  string importedSummary = "";
  ParameterDomain parameter = ?;
  /// The facts whose holding speaks for the family; empty where no counter
  /// of one launch shows what it gains.
  list<BottleneckFact> facts = [];
}

#endif // AUTOPROF_OPTIMIZER_REWRITEFAMILYBASE
