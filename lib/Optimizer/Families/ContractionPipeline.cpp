//===- ContractionPipeline.cpp - contraction-tile=S in two buffers -------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// contraction-tile=S (ContractionTile.cpp) with two shared buffers per
// staged tile. Before the loop the threads stage the first stage into
// buffer 0 and wait; stage s loads stage s + 1 from global memory into
// registers, computes its products from buffer s mod 2, stores the
// registers into the other buffer and waits once: one barrier per stage
// instead of two, and no thread waits for the others to finish reading a
// buffer before it overwrites the other. Copies of whole aligned vectors are
// asynchronous (cp.async: AsyncCopies.cpp): issued at the start of the
// stage, from global to shared memory without registers, and waited for
// before its barrier. The match refuses where both
// buffers do not fit in the 48 KiB of static shared memory (f64 tiles of
// 128).
//
// Whether it pays is the GPU's to say: the second buffer takes shared
// memory and registers that the one-buffer form leaves to more resident
// blocks. So the built-in proposer does not rank it; it revises a
// contraction-tile=S that won when the winner's own profile shows its warps
// waiting at the barriers or on the staging loads, or its L1 and shared
// path busy (pipelineFacts()), and the measurement keeps the faster of the
// two.
//
//===----------------------------------------------------------------------===//

#include "ContractionTiling.h"
#include "Families.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class ContractionPipelineFamily : public ContractionTilingFamily {
public:
  ContractionPipelineFamily()
      : ContractionTilingFamily(BuiltinRewriteFamily::ContractionPipeline) {}
  void rank(const RewriteEvidence &,
            SmallVectorImpl<RankedParameter> &) const override {
    // Proposed only as a revision of contraction-tile (the header).
  }

protected:
  bool usesTensorCores() const override { return false; }
  bool stagesInTwoBuffers() const override { return true; }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createContractionPipelineFamily() {
  return std::make_unique<ContractionPipelineFamily>();
}
