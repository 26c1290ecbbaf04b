//===- WarpFragments.cpp - A warp's 16 x 16 fragments on tensor cores -----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "WarpFragments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <array>

using namespace mlir;
using namespace mlir::autoprof::rewrites;

WarpFragments::~WarpFragments() = default;

bool mlir::autoprof::rewrites::isTensorCoreElement(Type element) {
  return element.isF16() || element.isBF16();
}

/// The indices of element (`row`, `column`) of `tile`, in its buffer
/// `buffer` where that is not null.
static SmallVector<Value> tileIndices(Value buffer, Value row, Value column) {
  SmallVector<Value> indices;
  if (buffer)
    indices.push_back(buffer);
  indices.append({row, column});
  return indices;
}

namespace {
/// The offsets, from a fragment's first element and iteration, of the row
/// of 8 elements (16 bytes) whose address a lane gives ldmatrix.
struct LaneOffsets {
  Value element, iteration;
};

/// f16 and bf16 through nvgpu.ldmatrix and nvvm.mma.sync m16n8k16 (PTX
/// ISA, "Matrix Fragments for mma.m16n8k16"): with g = lane / 4 and q =
/// lane mod 4, a lane holds
///  - of the row operand, four registers of two elements: rows g and g + 8
///    at iterations 2q, 2q + 1, then the same rows at 8 + 2q, 9 + 2q
///    (registers 0 .. 3 = the 8 x 8 blocks (rows 0-7, k 0-7), (8-15, 0-7),
///    (0-7, 8-15), (8-15, 8-15));
///  - of the column operand, for each of its two halves of 8 columns, two
///    registers: column g at iterations 2q, 2q + 1, then at 8 + 2q, 9 + 2q;
///  - of the sums, for each half, four f32: row g at columns 2q, 2q + 1,
///    then row g + 8 at the same columns.
/// One ldmatrix of four 8 x 8 blocks loads each operand's fragment: lanes
/// 8 b .. 8 b + 7 give the addresses of block b's eight rows, and each lane
/// receives from each block row g, elements 2q and 2q + 1, or with
/// `transpose` the block's column g (a tile with a row per iteration).
class MmaSyncFragments : public WarpFragments {
public:
  MmaSyncFragments(OpBuilder &builder, Location loc, Type element,
                   Value linear, bool rowsByElement, bool columnsByElement)
      : element(element), rowsByElement(rowsByElement),
        columnsByElement(columnsByElement) {
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    auto rem = [&](Value value, int64_t by) -> Value {
      return arith::RemUIOp::create(builder, loc, value, index(by));
    };
    auto div = [&](Value value, int64_t by) -> Value {
      return arith::DivUIOp::create(builder, loc, value, index(by));
    };
    auto mul = [&](Value value, int64_t by) -> Value {
      return arith::MulIOp::create(builder, loc, value, index(by));
    };
    auto add = [&](Value lhs, Value rhs) -> Value {
      return arith::AddIOp::create(builder, loc, lhs, rhs);
    };
    Value lane = rem(linear, 32);
    // The block b = lane / 8 a lane gives a row address of, and that row.
    Value blockRow = rem(lane, 8);
    Value secondBlock = mul(rem(div(lane, 8), 2), 8); // 8 (b mod 2)
    Value secondPair = mul(div(lane, 16), 8);         // 8 (b div 2)
    // Row operand: blocks (rows 0-7, k 0-7), (8-15, 0-7), (0-7, 8-15),
    // (8-15, 8-15).
    rowOffsets = rowsByElement
                     ? LaneOffsets{rem(lane, 16), secondPair}
                     : LaneOffsets{secondBlock, add(blockRow, secondPair)};
    // Column operand: blocks (columns 0-7, k 0-7), (0-7, 8-15), (8-15,
    // 0-7), (8-15, 8-15): registers 0, 1 the first half, 2, 3 the second.
    columnOffsets = columnsByElement
                        ? LaneOffsets{add(blockRow, secondPair), secondBlock}
                        : LaneOffsets{secondPair, add(blockRow, secondBlock)};
    sumsRow = div(lane, 4);
    sumsColumn = mul(rem(lane, 4), 2);
  }

  unsigned getSumValues() const override { return 8; }

  SmallVector<Value> createZeroSums(OpBuilder &builder,
                                    Location loc) const override {
    Value zero =
        arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(0));
    return SmallVector<Value>(getSumValues(), zero);
  }

  SmallVector<Value> loadRows(OpBuilder &builder, Location loc, Value tile,
                              Value buffer, Value first,
                              int64_t step) const override {
    return load(builder, loc, tile, buffer, rowsByElement, rowOffsets, first,
                step);
  }

  SmallVector<Value> loadColumns(OpBuilder &builder, Location loc, Value tile,
                                 Value buffer, Value first,
                                 int64_t step) const override {
    return load(builder, loc, tile, buffer, columnsByElement, columnOffsets,
                first, step);
  }

  void multiplyAdd(OpBuilder &builder, Location loc, ValueRange rows,
                   ValueRange columns,
                   MutableArrayRef<Value> sums) const override {
    MLIRContext *context = builder.getContext();
    Type f32 = builder.getF32Type();
    Type result = LLVM::LLVMStructType::getLiteral(context, {f32, f32, f32, f32});
    NVVM::MMATypes type =
        element.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    for (int64_t half = 0; half < 2; ++half) {
      MutableArrayRef<Value> halfSums = sums.slice(4 * half, 4);
      Value product = NVVM::MmaOp::create(
          builder, loc, result, rows, columns.slice(2 * half, 2),
          SmallVector<Value>(halfSums.begin(), halfSums.end()), {16, 8, 16},
          std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{type, type},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      for (int64_t i = 0; i < 4; ++i)
        halfSums[i] = LLVM::ExtractValueOp::create(builder, loc, product, i);
    }
  }

  void storeSums(OpBuilder &builder, Location loc, ValueRange sums, Value tile,
                 Value row, Value column) const override {
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    auto add = [&](Value lhs, Value rhs) -> Value {
      return arith::AddIOp::create(builder, loc, lhs, rhs);
    };
    auto pairType = VectorType::get({2}, builder.getF32Type());
    Value top = add(row, sumsRow);
    std::array<Value, 2> rows = {top, add(top, index(8))};
    for (int64_t half = 0; half < 2; ++half) {
      Value at = add(add(column, sumsColumn), index(8 * half));
      for (auto [r, target] : llvm::enumerate(rows)) {
        Value pair = vector::FromElementsOp::create(
            builder, loc, pairType,
            ValueRange{sums[4 * half + 2 * r], sums[4 * half + 2 * r + 1]});
        vector::StoreOp::create(builder, loc, pair, tile,
                                ValueRange{target, at},
                                /*nontemporal=*/false, llvm::Align(8));
      }
    }
  }

private:
  /// ldmatrix of the fragment at element `first` and iteration `step`,
  /// split into the four 32-bit registers mma.sync takes (pairs of f16, or
  /// i32 for bf16).
  SmallVector<Value> load(OpBuilder &builder, Location loc, Value tile,
                          Value buffer, bool byElement,
                          const LaneOffsets &offsets, Value first,
                          int64_t step) const {
    Value e = arith::AddIOp::create(builder, loc, first, offsets.element);
    Value k = offsets.iteration;
    if (step != 0)
      k = arith::AddIOp::create(
          builder, loc, k, arith::ConstantIndexOp::create(builder, loc, step));
    Value matrix = nvgpu::LdMatrixOp::create(
        builder, loc, VectorType::get({4, 2}, element), tile,
        byElement ? tileIndices(buffer, e, k) : tileIndices(buffer, k, e),
        builder.getBoolAttr(!byElement), builder.getI32IntegerAttr(4));
    // mma.sync takes f16 pairs as vector<2xf16>, bf16 pairs as i32.
    SmallVector<Value> registers;
    for (int64_t i = 0; i < 4; ++i) {
      Value pair = vector::ExtractOp::create(builder, loc, matrix, i);
      if (element.isF16()) {
        registers.push_back(pair);
        continue;
      }
      Value word = vector::BitCastOp::create(
          builder, loc, VectorType::get({1}, builder.getI32Type()), pair);
      registers.push_back(vector::ExtractOp::create(builder, loc, word, 0));
    }
    return registers;
  }

  Type element;
  bool rowsByElement, columnsByElement;
  LaneOffsets rowOffsets, columnOffsets;
  Value sumsRow, sumsColumn;
};
} // namespace

std::unique_ptr<WarpFragments> mlir::autoprof::rewrites::createWarpFragments(
    OpBuilder &builder, Location loc, Type element, Value linear,
    bool rowsByElement, bool columnsByElement) {
  assert(isTensorCoreElement(element) &&
         "the tensor cores multiply f16 or bf16 here");
  return std::make_unique<MmaSyncFragments>(builder, loc, element, linear,
                                            rowsByElement, columnsByElement);
}
