//===- PtxInstructionsTest.cpp - Counting a PTX entry's instructions ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/PtxInstructions.h"

#include "gtest/gtest.h"

using namespace mlir::autoprof;

namespace {

// nvcc's spelling of a grid-stride loop: `for (i = tid; i < n; i += stride)
// y[i] = a * x[i] + y[i];` with the exit test guarded by the thread's index.
constexpr const char *kGridStride = R"(
	.reg .pred 	%p<3>;
	.reg .b32 	%r<10>;
	.reg .f32 	%f<5>;
	.reg .b64 	%rd<8>;

	ld.param.f32 	%f1, [saxpy_param_0];
	ld.param.u64 	%rd3, [saxpy_param_1];
	ld.param.u32 	%r6, [saxpy_param_3];
	mov.u32 	%r7, %ctaid.x;
	mov.u32 	%r1, %ntid.x;
	mov.u32 	%r8, %tid.x;
	mad.lo.s32 	%r9, %r7, %r1, %r8;   // i
	setp.ge.s32 	%p1, %r9, %r6;
	@%p1 bra 	$L__BB0_3;
	cvta.to.global.u64 	%rd1, %rd3;
$L__BB0_2:
	mul.wide.s32 	%rd6, %r9, 4;
	add.s64 	%rd7, %rd1, %rd6;
	ld.global.f32 	%f2, [%rd7];
	ld.global.f32 	%f3, [%rd7+4194304];
	fma.rn.f32 	%f4, %f1, %f2, %f3; /* y = a * x + y */
	st.global.f32 	[%rd7+4194304], %f4;
	add.s32 	%r9, %r9, %r1;
	setp.lt.s32 	%p2, %r9, %r6;
	@%p2 bra 	$L__BB0_2;
$L__BB0_3:
	ret;
)";

TEST(PtxInstructionsTest, CountsALoopBodyOnce) {
  PtxInstructionCounts counts = countPtxInstructions(kGridStride);
  EXPECT_EQ(counts.loops, 1u);
  EXPECT_EQ(counts.loopDepth, 1u);
  EXPECT_EQ(counts.get("global_loads"), 2);
  EXPECT_EQ(counts.get("global_stores"), 1);
  EXPECT_EQ(counts.get("global_load_bytes"), 8);
  EXPECT_EQ(counts.get("global_store_bytes"), 4);
  EXPECT_EQ(counts.get("flops_f32"), 2);
  // mad.lo (2), setp x2, mul.wide, add.s64, add.s32; cvta and mov do not
  // count.
  EXPECT_EQ(counts.get("int_ops"), 7);
  // Both guarded branches test a value computed from %tid.x.
  EXPECT_EQ(counts.get("branches"), 2);
  EXPECT_EQ(counts.get("divergent_branches"), 2);
  // No special function among them.
  EXPECT_EQ(counts.get("special_functions"), 0);
}

// Two nested loops; the inner one's exit depends only on a parameter, and a
// block-uniform branch skips the work of some blocks.
constexpr const char *kNested = R"(
	ld.param.u32 	%r1, [k_param_0];
	mov.u32 	%r2, %ctaid.x;
	setp.eq.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__done;
	mov.u32 	%r3, 0;
$L__outer:
	mov.u32 	%r4, 0;
$L__inner:
	{
	.reg .f16 	%h<3>;
	add.rn.f16x2 	%r5, %r5, %r6;
	}
	add.s32 	%r4, %r4, 1;
	setp.lt.u32 	%p2, %r4, %r1;
	@%p2 bra.uni 	$L__inner;
	ex2.approx.ftz.f32 	%f1, %f1;
	add.s32 	%r3, %r3, 1;
	setp.lt.u32 	%p3, %r3, %r1;
	@%p3 bra.uni 	$L__outer;
$L__done:
	ret;
)";

TEST(PtxInstructionsTest, MeasuresLoopNesting) {
  PtxInstructionCounts counts = countPtxInstructions(kNested);
  EXPECT_EQ(counts.loops, 2u);
  EXPECT_EQ(counts.loopDepth, 2u);
  EXPECT_EQ(counts.get("branches"), 3);
  EXPECT_EQ(counts.get("divergent_branches"), 0);
  // Two half-precision lanes.
  EXPECT_EQ(counts.get("flops_f16"), 2);
  EXPECT_EQ(counts.get("special_functions"), 1);
}

constexpr const char *kMixed = R"(
	mov.u32 	%r1, %laneid;
	ld.global.nc.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd1];
	ld.shared::cta.u32 	%r2, [%r3];
	st.shared.v2.b64 	[%r3], {%rd4, %rd5};
	ld.local.f32 	%f5, [%rd6];
	cp.async.cg.shared.global 	[%r4], [%rd7], 16;
	cp.async.wait_all;
	bar.sync 	0;
	bar.warp.sync 	-1;
	shfl.sync.bfly.b32 	%r5, %r1, 16, 31, -1;
	atom.global.add.f32 	%f6, [%rd8], %f1;
	red.shared.add.u32 	[%r4], 1;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 	{%r6, %r7, %r8, %r9}, [%r4];
	mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 	{%f7, %f8, %f9, %f10}, {%r6, %r7, %r8, %r9}, {%r10, %r11}, {%f7, %f8, %f9, %f10};
	wgmma.fence.sync.aligned;
	cvt.rn.f32.f16 	%f11, %h1;
	fma.rn.f64 	%fd1, %fd2, %fd3, %fd4;
	div.rn.f32 	%f12, %f1, %f2;
	sqrt.rn.f32 	%f13, %f12;
	st.global.b128 	[%rd9], %rq1;
	@%p1 st.global.u8 	[%rd9], %rs1;
)";

TEST(PtxInstructionsTest, ClassifiesMemoryAndArithmetic) {
  PtxInstructionCounts counts = countPtxInstructions(kMixed);
  // The vector load and cp.async's 16 bytes; local memory does not count.
  EXPECT_EQ(counts.get("global_loads"), 2);
  EXPECT_EQ(counts.get("global_load_bytes"), 32);
  EXPECT_EQ(counts.get("global_stores"), 2);
  EXPECT_EQ(counts.get("global_store_bytes"), 17);
  // ld.shared::cta and ldmatrix; st.shared and cp.async's destination.
  EXPECT_EQ(counts.get("shared_loads"), 2);
  EXPECT_EQ(counts.get("shared_stores"), 2);
  EXPECT_EQ(counts.get("barriers"), 1);
  EXPECT_EQ(counts.get("warp_shuffles"), 1);
  EXPECT_EQ(counts.get("atomics"), 2);
  EXPECT_EQ(counts.get("global_atomic_bytes"), 4);
  // The f32 atomic add and the division.
  EXPECT_EQ(counts.get("flops_f32"), 2);
  EXPECT_EQ(counts.get("flops_f64"), 2);
  EXPECT_EQ(counts.get("tensor_core_ops"), 1);
  EXPECT_EQ(counts.get("conversions"), 1);
  EXPECT_EQ(counts.get("special_functions"), 1);
  EXPECT_EQ(counts.loops, 0u);
  // The v4.f32 load; st.global.b128 is one 128-bit scalar, not a vector.
  EXPECT_EQ(counts.maxVectorBits, 128u);
}

TEST(PtxInstructionsTest, WidestVectorAccessIsGlobalOrGeneric) {
  // Shared and local vectors do not count; a generic address does, as it
  // counts among the global loads.
  PtxInstructionCounts counts = countPtxInstructions(R"(
	ld.shared.v4.f32 	{%f1, %f2, %f3, %f4}, [%r1];
	st.local.v4.f32 	[%rd1], {%f1, %f2, %f3, %f4};
	ld.global.v2.f32 	{%f5, %f6}, [%rd2];
	st.v2.f16x2 	[%rd3], {%r2, %r3};
)");
  EXPECT_EQ(counts.maxVectorBits, 64u);
  EXPECT_EQ(countPtxInstructions(kGridStride).maxVectorBits, 0u);
}

TEST(PtxInstructionsTest, CountsVectorAtomicsAndBulkCopiesByDirection) {
  PtxInstructionCounts counts = countPtxInstructions(R"(
	red.global.add.v4.f32 	[%rd1], {%f1, %f2, %f3, %f4};
	cp.async.bulk.global.shared::cta.bulk_group 	[%rd2], [%r1], 256;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes 	[%r2], [%rd3], 512, [%r3];
	cp.async.bulk.prefetch.L2.global 	[%rd4], 1024;
)");
  // Each of the vector's four lanes adds a float.
  EXPECT_EQ(counts.get("atomics"), 1);
  EXPECT_EQ(counts.get("flops_f32"), 4);
  EXPECT_EQ(counts.get("global_atomic_bytes"), 16);
  // Shared to global is a store, global to shared a load; the prefetch
  // moves nothing into shared memory or registers.
  EXPECT_EQ(counts.get("global_stores"), 1);
  EXPECT_EQ(counts.get("global_store_bytes"), 256);
  EXPECT_EQ(counts.get("shared_loads"), 1);
  EXPECT_EQ(counts.get("global_loads"), 1);
  EXPECT_EQ(counts.get("global_load_bytes"), 512);
  EXPECT_EQ(counts.get("shared_stores"), 1);
}

TEST(PtxInstructionsTest, WidthsPtxDoesNotHaveAreNoTypes) {
  PtxInstructionCounts counts = countPtxInstructions(R"(
	add.f32x4294967295 	%f1, %f2, %f3;
	ld.global.v8.b4294967295x4294967295 	{%r1}, [%rd1];
	add.f24 	%f4, %f5, %f6;
	add.f16x2 	%r2, %r3, %r4;
)");
  // Only the f16x2 addition has a type: two lanes.
  EXPECT_EQ(counts.get("flops_f32"), 0);
  EXPECT_EQ(counts.get("flops_f16"), 2);
  EXPECT_EQ(counts.get("global_loads"), 1);
  EXPECT_EQ(counts.get("global_load_bytes"), 0);
  EXPECT_EQ(counts.maxVectorBits, 0u);
}

TEST(PtxInstructionsTest, ThreadDependenceFlowsAgainstTheTextsOrder) {
  // A loop whose exit predicate comes from a register defined later in the
  // text, from one defined later still, from %tid.x: found in one pass per
  // instruction, whatever the order.
  PtxInstructionCounts counts = countPtxInstructions(R"(
	bra.uni 	$L__start;
$L__loop:
	setp.lt.u32 	%p1, %r3, 64;
	@%p1 bra 	$L__loop;
	ret;
$L__start:
	add.s32 	%r3, %r2, 1;
	add.s32 	%r2, %r1, 1;
	mov.u32 	%r1, %tid.x;
	bra.uni 	$L__loop;
)");
  EXPECT_EQ(counts.get("divergent_branches"), 1);
}

TEST(PtxInstructionsTest, LoopsOneAfterAnotherAreNotNested) {
  PtxInstructionCounts counts = countPtxInstructions(R"(
$L__a:
	add.s32 	%r1, %r1, 1;
	@%p1 bra 	$L__a;
$L__b:
	add.s32 	%r2, %r2, 1;
	@%p2 bra 	$L__b;
)");
  EXPECT_EQ(counts.loops, 2u);
  EXPECT_EQ(counts.loopDepth, 1u);
}

// NVRTC's -lineinfo spelling: `.loc` directives end at the line's end,
// without a semicolon, before the instruction they describe.
constexpr const char *kLineInfo = "\t.loc\t1 8 3\n"
                                  "\tmov.u32 \t%r8, %tid.x;\n"
                                  "\t.loc\t1 9 3\n"
                                  "\tsetp.ge.s32 \t%p1, %r8, %r5;\n"
                                  "\t@%p1 bra \t$L__BB0_8;\n"
                                  "\t.file\t2 \"k.cu\"\n"
                                  "\tadd.f32 \t%f1, %f2, %f3;\n"
                                  "$L__BB0_8:\n"
                                  "\tret;\n";

TEST(PtxInstructionsTest, SkipsLineInformation) {
  PtxInstructionCounts counts = countPtxInstructions(kLineInfo);
  EXPECT_EQ(counts.get("int_ops"), 1);
  EXPECT_EQ(counts.get("branches"), 1);
  EXPECT_EQ(counts.get("divergent_branches"), 1);
  EXPECT_EQ(counts.get("flops_f32"), 1);
}

TEST(PtxInstructionsTest, EmptyBodyCountsNothing) {
  PtxInstructionCounts counts = countPtxInstructions("\n\t// nothing\n\tret;\n");
  EXPECT_TRUE(counts.counts.empty());
  EXPECT_EQ(counts.loops, 0u);
  EXPECT_EQ(counts.loopDepth, 0u);
}

TEST(PtxInstructionsTest, FindsTheLeastPreciseFormats) {
  // f32 FMAs: products and accumulations in f32; minima and conversions
  // for storage count in neither.
  PtxMathPrecision f32 = countPtxInstructions(kGridStride).precision;
  ASSERT_TRUE(f32.productOperands && f32.productRounding && f32.accumulation);
  EXPECT_EQ(describeFloatFormat(*f32.productOperands), "f32");
  EXPECT_EQ(describeFloatFormat(*f32.productRounding), "f32");
  EXPECT_EQ(describeFloatFormat(*f32.accumulation), "f32");
  // Tensor-core products of halves accumulated in f32, a min in f16.
  PtxMathPrecision mma = countPtxInstructions(R"(
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};
	min.f16 %h1, %h2, %h3;
	cvt.rn.f16.f32 %h4, %f1;
)").precision;
  EXPECT_EQ(describeFloatFormat(*mma.productOperands), "f16");
  EXPECT_EQ(describeFloatFormat(*mma.productRounding), "f32");
  EXPECT_EQ(describeFloatFormat(*mma.accumulation), "f32");
  // The same accumulated in f16, and a value rounded to tf32.
  PtxMathPrecision half = countPtxInstructions(R"(
	mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r3, %r4, %r5, %r6}, {%r7, %r8}, {%r1, %r2};
)").precision;
  EXPECT_EQ(describeFloatFormat(*half.accumulation), "f16");
  PtxMathPrecision tf32 = countPtxInstructions(R"(
	cvt.rna.tf32.f32 %r1, %f1;
	fma.rn.f32 %f2, %f3, %f4, %f2;
)").precision;
  EXPECT_EQ(describeFloatFormat(*tf32.productOperands), "tf32");
  EXPECT_EQ(describeFloatFormat(*tf32.accumulation), "f32");
  // Halves widened exactly and multiplied in f32 are f16 products, as a
  // tensor core's; one f32 operand makes the product f32.
  PtxMathPrecision widened = countPtxInstructions(R"(
	cvt.f32.f16 %f1, %h1;
	cvt.f32.f16 %f2, %h2;
	fma.rn.f32 %f3, %f1, %f2, %f3;
)").precision;
  EXPECT_EQ(describeFloatFormat(*widened.productOperands), "f16");
  EXPECT_EQ(describeFloatFormat(*widened.productRounding), "f32");
  EXPECT_EQ(describeFloatFormat(*widened.accumulation), "f32");
  PtxMathPrecision mixed = countPtxInstructions(R"(
	cvt.f32.f16 %f1, %h1;
	ld.global.f32 %f2, [%rd1];
	mul.rn.f32 %f3, %f1, %f2;
)").precision;
  EXPECT_EQ(describeFloatFormat(*mixed.productOperands), "f32");
  // Widened through a move and a selection (an immediate takes any
  // format), and by a conversion with a modifier.
  PtxMathPrecision copied = countPtxInstructions(R"(
	cvt.ftz.f32.f16 %f1, %h1;
	cvt.f32.f16 %f2, %h2;
	selp.f32 %f3, %f1, 0f00000000, %p1;
	mov.f32 %f4, %f2;
	fma.rn.f32 %f5, %f3, %f4, %f5;
)").precision;
  EXPECT_EQ(describeFloatFormat(*copied.productOperands), "f16");
  // Halves multiplied and rounded in f16, then widened and added in f32.
  PtxMathPrecision rounded = countPtxInstructions(R"(
	mul.rn.f16 %h3, %h1, %h2;
	cvt.f32.f16 %f3, %h3;
	add.rn.f32 %f4, %f4, %f3;
)").precision;
  EXPECT_EQ(describeFloatFormat(*rounded.productOperands), "f16");
  EXPECT_EQ(describeFloatFormat(*rounded.productRounding), "f16");
  EXPECT_EQ(describeFloatFormat(*rounded.accumulation), "f32");
  // PTX 8.6's mixed forms: the result's format, then the operands'.
  PtxMathPrecision mixedForm = countPtxInstructions(R"(
	fma.rn.f32.f16 %f1, %h1, %h2, %f1;
)").precision;
  EXPECT_EQ(describeFloatFormat(*mixedForm.productOperands), "f16");
  EXPECT_EQ(describeFloatFormat(*mixedForm.accumulation), "f32");
  // Formats of four and six bits, and tcgen05's (in its descriptor).
  PtxMathPrecision fp4 = countPtxInstructions(R"(
	mma.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};
)").precision;
  EXPECT_EQ(describeFloatFormat(*fp4.productOperands), "e2m1");
  PtxMathPrecision tcgen05 = countPtxInstructions(R"(
	tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;
)").precision;
  EXPECT_EQ(describeFloatFormat(*tcgen05.productOperands),
            "an unknown format");
  // No float arithmetic: no format.
  PtxMathPrecision none = countPtxInstructions(R"(
	add.s32 %r1, %r2, %r3;
	max.f32 %f1, %f2, %f3;
)").precision;
  EXPECT_FALSE(none.productOperands);
  EXPECT_FALSE(none.accumulation);
}

TEST(PtxInstructionsTest, OrdersFormatsByMantissaAndRange) {
  FloatFormat f32 = *getFloatFormat("f32"), tf32 = *getFloatFormat("tf32"),
              f16 = *getFloatFormat("f16x2"), bf16 = *getFloatFormat("bf16");
  EXPECT_TRUE(f32.covers(tf32));
  EXPECT_TRUE(tf32.covers(f16));
  EXPECT_FALSE(f16.covers(tf32));
  // f16 and bf16: neither covers the other.
  EXPECT_FALSE(f16.covers(bf16));
  EXPECT_FALSE(bf16.covers(f16));
  EXPECT_EQ(describeFloatFormat(f16.meet(bf16)), "m7e5");
  EXPECT_FALSE(getFloatFormat("s32"));
}

} // namespace
