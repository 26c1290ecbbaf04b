//===- BottleneckFacts.td - The facts of the diagnosis -----*- tablegen -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The names of the bottleneck facts (lib/Diagnosis/BottleneckFacts.cpp
// defines each one's metrics and test; docs/diagnosis.md explains them), in
// the diagnosis' order: the vocabulary that declarations such as
// RewriteFamilies.td name facts in. A unit test checks that it and the
// diagnosis list the same facts in the same order.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_DIAGNOSIS_BOTTLENECKFACTS
#define AUTOPROF_DIAGNOSIS_BOTTLENECKFACTS

/// A bottleneck fact, by its stable name.
class BottleneckFact<string Name> {
  string name = Name;
}

def DramBound : BottleneckFact<"dram-bound">;
def L2Bound : BottleneckFact<"l2-bound">;
def L1Bound : BottleneckFact<"l1-bound">;
def ComputeBound : BottleneckFact<"compute-bound">;
def UncoalescedLoads : BottleneckFact<"uncoalesced-loads">;
def UncoalescedStores : BottleneckFact<"uncoalesced-stores">;
def SharedBankConflicts : BottleneckFact<"shared-bank-conflicts">;
def LowOccupancy : BottleneckFact<"low-occupancy">;
def RegisterSpills : BottleneckFact<"register-spills">;
def WarpDivergence : BottleneckFact<"warp-divergence">;
def TooFewWaves : BottleneckFact<"too-few-waves">;
def TailEffect : BottleneckFact<"tail-effect">;
def LatencyBound : BottleneckFact<"latency-bound">;
def IssueBound : BottleneckFact<"issue-bound">;
def SpecialFunctionBound : BottleneckFact<"special-function-bound">;
def AtomicContention : BottleneckFact<"atomic-contention">;
def BarrierStalls : BottleneckFact<"barrier-stalls">;

#endif // AUTOPROF_DIAGNOSIS_BOTTLENECKFACTS
