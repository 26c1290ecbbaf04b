//===- Verification.cpp - A candidate against its reference ---------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Runs a candidate and its reference on the same generated inputs and
// compares their results (docs/runtime.md, "Verification").
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

using namespace autoprof::runtime;

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

namespace {

/// Why a candidate's buffer does not match.
enum class Mismatch {
  None,
  WrongResult,
  DidNotWrite,
  WroteOutside,
  UnexpectedNaN,
  WroteInput,
};

/// Compares one element of a float buffer: tolerance, NaN and infinities;
/// `slack` is added to the bound (the rounding a reassociated sum may
/// differ by; 0 otherwise).
Mismatch compareFloat(double actual, double expected, double tolerance,
                      double slack = 0) {
  if (std::isnan(expected))
    return std::isnan(actual) ? Mismatch::None : Mismatch::WrongResult;
  if (std::isnan(actual))
    return Mismatch::UnexpectedNaN;
  if (std::isinf(expected) || std::isinf(actual))
    return actual == expected ? Mismatch::None : Mismatch::WrongResult;
  return std::fabs(actual - expected) <=
                 tolerance * (1 + std::fabs(expected)) + slack
             ? Mismatch::None
             : Mismatch::WrongResult;
}

/// How much of the magnitude of its terms a reassociated sum of `dtype` may
/// differ by: well above the rounding of sums in another order (on an H200,
/// split f32 sums of 128 to 8192 products differed by at most 1e-6 of it),
/// well below one term of a few thousand (a dropped or repeated term).
double reassociationTolerance(autoprof_dtype dtype) {
  switch (dtype) {
  case AUTOPROF_F64:
    return 1e-12;
  case AUTOPROF_F16:
  case AUTOPROF_BF16:
    return 1e-2;
  default:
    return 1e-5;
  }
}

/// Classifies element `j` of buffer parameter `param`.
Mismatch classify(const autoprof_param &param, const uint8_t *initial,
                  const uint8_t *reference, const uint8_t *candidate,
                  uint64_t j, double tolerance,
                  const uint8_t *magnitudes = nullptr) {
  size_t size = dtypeSize(param.dtype);
  const uint8_t *ref = reference + j * size;
  const uint8_t *cand = candidate + j * size;
  if (std::memcmp(ref, cand, size) == 0)
    return Mismatch::None;
  if (param.role == AUTOPROF_ROLE_INPUT)
    return std::memcmp(cand, initial + j * size, size) == 0
               ? Mismatch::None
               : Mismatch::WroteInput;
  if (param.role == AUTOPROF_ROLE_OUTPUT) {
    // An output starts as the poison (LaunchBuffers::prepare).
    const uint8_t *poison = initial + j * size;
    if (std::memcmp(ref, poison, size) == 0)
      return Mismatch::WroteOutside;
    if (std::memcmp(cand, poison, size) == 0)
      return Mismatch::DidNotWrite;
  }
  if (!isFloatType(param.dtype))
    return Mismatch::WrongResult; // Integers compare exactly.
  double slack = 0;
  if (magnitudes) {
    double magnitude = std::fabs(loadElement(magnitudes, param.dtype, j));
    if (std::isfinite(magnitude))
      slack = reassociationTolerance(param.dtype) * magnitude;
  }
  return compareFloat(loadElement(candidate, param.dtype, j),
                      loadElement(reference, param.dtype, j), tolerance, slack);
}

/// How many times the reference's own run-to-run variation a candidate may
/// differ by, on top of the base tolerance.
constexpr double NondeterminismMargin = 4.0;

/// The largest |a - b| / (1 + |a|) over the elements of two runs of a float
/// buffer. Elements where one run is not finite are left out: a reference
/// that disagrees with itself there cannot bound anything.
double relativeDisagreement(const autoprof_param &param,
                            const std::vector<uint8_t> &a,
                            const std::vector<uint8_t> &b) {
  double worst = 0;
  for (uint64_t j = 0; j < param.count; ++j) {
    double x = loadElement(a.data(), param.dtype, j);
    double y = loadElement(b.data(), param.dtype, j);
    if (x == y || (std::isnan(x) && std::isnan(y)))
      continue;
    if (!std::isfinite(x) || !std::isfinite(y))
      continue;
    worst = std::max(worst, std::fabs(x - y) / (1 + std::fabs(x)));
  }
  return worst;
}

/// Whether a candidate parameter receives what a reference parameter holds:
/// the same kind and type, and for buffers the same count, role and input
/// generation; for scalars the same value.
bool isSameParameter(const autoprof_param &a, const autoprof_param &b) {
  bool same = (!a.is_scalar) == (!b.is_scalar) && a.dtype == b.dtype;
  if (same && !a.is_scalar)
    same = a.count == b.count && a.role == b.role &&
           a.index_bound == b.index_bound && a.sorted == b.sorted &&
           (a.has_range != 0) == (b.has_range != 0) &&
           (!a.has_range || (a.range_low == b.range_low &&
                             a.range_high == b.range_high));
  if (same && a.is_scalar)
    same = isFloatType(a.dtype) ? (a.f == b.f || (a.f != a.f && b.f != b.f))
                                : a.i == b.i;
  return same;
}

/// Checks that two specs describe the same problem (launch shapes may
/// differ): the same parameter list, or, with `map` (candidate parameter i
/// receives reference parameter map[i]), a candidate list that receives every
/// reference buffer once and leaves out reference scalars only.
autoprof_status checkSameParameters(autoprof_session *session,
                                    const autoprof_launch_spec &reference,
                                    const autoprof_launch_spec &candidate,
                                    const size_t *map, size_t mapSize) {
  // A repeated launch is part of the problem: a candidate that receives the
  // varying scalar must vary it the same way.
  auto repeats = [](const autoprof_launch_spec &spec) {
    return spec.repeat_count > 1;
  };
  auto sameRepeat = [&] {
    return reference.repeat_count == candidate.repeat_count &&
           reference.repeat_start == candidate.repeat_start &&
           reference.repeat_step == candidate.repeat_step;
  };
  if (!map) {
    if (repeats(reference) != repeats(candidate) ||
        (repeats(reference) &&
         (!sameRepeat() || reference.repeat_param != candidate.repeat_param)))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the reference and the candidate repeat their launches "
                      "differently; with the same parameter list both must "
                      "run the same sequence of launches");
    if (reference.num_params != candidate.num_params)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the reference has %zu parameters but the candidate has "
                      "%zu; both must have the same parameter list",
                      reference.num_params, candidate.num_params);
    for (size_t i = 0; i < reference.num_params; ++i)
      if (!isSameParameter(reference.params[i], candidate.params[i]))
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "parameter %zu differs between the reference and the "
                        "candidate launch specs (kind, element type, count, "
                        "role, index bound or scalar value); both must have "
                        "the same parameter list",
                        i);
    return AUTOPROF_OK;
  }
  if (mapSize != candidate.num_params)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "the parameter map has %zu entries but the candidate has "
                    "%zu parameters",
                    mapSize, candidate.num_params);
  std::vector<bool> received(reference.num_params, false);
  for (size_t i = 0; i < candidate.num_params; ++i) {
    size_t r = map[i];
    if (r >= reference.num_params)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the parameter map gives candidate parameter %zu "
                      "reference parameter %zu, but the reference has %zu",
                      i, r, reference.num_params);
    if (received[r])
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the parameter map gives reference parameter %zu to "
                      "more than one candidate parameter",
                      r);
    received[r] = true;
    bool referenceVaries = repeats(reference) && r == reference.repeat_param;
    bool candidateVaries = repeats(candidate) && i == candidate.repeat_param;
    if (referenceVaries != candidateVaries ||
        (referenceVaries && !sameRepeat()))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "candidate parameter %zu receives reference parameter "
                      "%zu, but only one of them varies over repeated "
                      "launches, or they vary differently",
                      i, r);
    if (referenceVaries)
      continue;
    if (!isSameParameter(reference.params[r], candidate.params[i]))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "candidate parameter %zu differs from reference "
                      "parameter %zu, which it receives (kind, element type, "
                      "count, role, index bound or scalar value)",
                      i, r);
  }
  for (size_t r = 0; r < reference.num_params; ++r)
    if (!received[r] && !reference.params[r].is_scalar)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "reference parameter %zu is a buffer that no candidate "
                      "parameter receives; a candidate can only leave out "
                      "scalar parameters",
                      r);
  return AUTOPROF_OK;
}

void clearVerifyResult(autoprof_verify_result &out) {
  std::memset(&out, 0, sizeof(out));
  out.passed = 0;
  out.param_index = -1;
}

} // namespace

extern "C" autoprof_status autoprof_verify(
    autoprof_session *session, autoprof_kernel *reference,
    const autoprof_launch_spec *referenceSpec, autoprof_kernel *candidate,
    const autoprof_launch_spec *candidateSpec,
    const autoprof_verify_options *options, autoprof_verify_result *out) {
  AUTOPROF_CHECK_SESSION(session);
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_verify: no result given");
  clearVerifyResult(*out);
  if (!reference || !candidate || !referenceSpec || !candidateSpec)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_verify: needs a reference and a candidate "
                    "kernel with their launch specs");
  // Defaults: two seeds, all four distributions.
  static const uint64_t DefaultSeeds[] = {1, 2};
  static const autoprof_distribution DefaultDistributions[] = {
      AUTOPROF_DIST_NORMAL, AUTOPROF_DIST_UNIFORM, AUTOPROF_DIST_LARGE,
      AUTOPROF_DIST_SMALL_INT};
  const uint64_t *seeds = DefaultSeeds;
  size_t numSeeds = 2;
  const autoprof_distribution *distributions = DefaultDistributions;
  size_t numDistributions = 4;
  double tolerance32 = 1e-4, tolerance16 = 1e-2, tolerance64 = 1e-10;
  if (options) {
    if (options->num_seeds > 0) {
      if (!options->seeds)
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "autoprof_verify: num_seeds is %zu but no seeds are "
                        "given",
                        options->num_seeds);
      seeds = options->seeds;
      numSeeds = options->num_seeds;
    }
    if (options->num_distributions > 0) {
      if (!options->distributions)
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "autoprof_verify: num_distributions is %zu but no "
                        "distributions are given",
                        options->num_distributions);
      distributions = options->distributions;
      numDistributions = options->num_distributions;
    }
    if (options->tolerance_f32 > 0)
      tolerance32 = options->tolerance_f32;
    if (options->tolerance_f16 > 0)
      tolerance16 = options->tolerance_f16;
    if (options->tolerance_f64 > 0)
      tolerance64 = options->tolerance_f64;
  }
  bool reassociated = options && options->reassociated;
  for (size_t d = 0; d < numDistributions; ++d)
    if (!isValidDistribution(distributions[d]))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "autoprof_verify: invalid distribution %d",
                      static_cast<int>(distributions[d]));
  const size_t *candidateMap = options ? options->candidate_param_map : nullptr;
  if (!candidateMap && options && options->candidate_param_map_size > 0)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_verify: candidate_param_map_size is %zu but no "
                    "map is given",
                    options->candidate_param_map_size);
  if (autoprof_status s = checkSameParameters(
          session, *referenceSpec, *candidateSpec, candidateMap,
          options ? options->candidate_param_map_size : 0))
    return s;
  AUTOPROF_PUSH_CONTEXT(session, scope);
  // One set of device buffers serves both kernels (re-uploaded in between).
  if (autoprof_status s = checkLaunchSpec(session, reference, referenceSpec, 1))
    return s;
  if (autoprof_status s = checkLaunchSpec(session, candidate, candidateSpec, 1))
    return s;

  const autoprof_launch_spec &spec = *referenceSpec;
  std::vector<std::vector<uint8_t>> referenceOut(spec.num_params);
  std::vector<std::vector<uint8_t>> candidateOut(spec.num_params);
  // One set of buffers for every seed and distribution (prepare() keeps
  // the allocations).
  LaunchBuffers buffers(session);
  for (size_t si = 0; si < numSeeds; ++si) {
    for (size_t di = 0; di < numDistributions; ++di) {
      uint64_t seed = seeds[si];
      autoprof_distribution distribution = distributions[di];
      out->seed = seed;
      out->distribution = distribution;
      const char *distName = distributionName(distribution);
      // Every other seed poisons outputs with another byte.
      uint8_t poison = si % 2 ? AlternatePoisonByte : PoisonByte;
      double kernelSeconds = 0;
      auto iterationStart = std::chrono::steady_clock::now();
      // Adds this iteration's time to the result however it ends.
      struct Account {
        autoprof_verify_result &out;
        const LaunchBuffers &buffers;
        const double &kernels;
        std::chrono::steady_clock::time_point start;
        double inputsBefore = buffers.generateSeconds;
        double transfersBefore = buffers.transferSeconds;
        ~Account() {
          double total = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
          double inputs = buffers.generateSeconds - inputsBefore;
          double transfers = buffers.transferSeconds - transfersBefore;
          out.seconds_inputs += inputs;
          out.seconds_transfers += transfers;
          out.seconds_kernels += kernels;
          out.seconds_other +=
              std::max(0.0, total - inputs - transfers - kernels);
        }
      } account{*out, buffers, kernelSeconds, iterationStart};
      if (autoprof_status s = buffers.prepare(spec, seed, distribution, poison))
        return s;

      // Launches one kernel and waits for it; a failure names the kernel,
      // its role and the inputs that triggered it. The candidate finds the
      // reference's buffers through `map`.
      auto run = [&](autoprof_kernel *kernel, const autoprof_launch_spec &ks,
                     const char *role,
                     const size_t *map = nullptr) -> autoprof_status {
        StopwatchScope running(kernelSeconds);
        if (autoprof_status s =
                buffers.launch(kernel, ks, session->stream, map)) {
          writeReason(out->reason,
                      "the %s kernel '%s' could not be launched: %s", role,
                      kernel->entry.c_str(), session->lastError.c_str());
          return s;
        }
        if (autoprof_status s = buffers.synchronize()) {
          writeReason(out->reason,
                      "the %s kernel '%s' faulted for seed %llu and "
                      "distribution %s: %s",
                      role, kernel->entry.c_str(),
                      static_cast<unsigned long long>(seed), distName,
                      session->lastError.c_str());
          return s;
        }
        return AUTOPROF_OK;
      };

      // Results stay on the device, compared there, and come to the host
      // only for a buffer that differs: the device keeps the initial
      // contents and the reference's results. Where it has no room for
      // them, every buffer is copied back and compared on the host.
      bool onDevice =
          buffers.keepDeviceCopies(/*inputsToo=*/true) == AUTOPROF_OK;
      // Which buffers' results are on the host for this seed and
      // distribution (referenceOut and candidateOut).
      std::vector<char> onHost(spec.num_params, 0);
      auto writesInput = [&](size_t i) {
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "the reference kernel '%s' writes into parameter "
                        "%zu, which the launch spec marks as an input; "
                        "mark it inout or output",
                        reference->entry.c_str(), i);
      };

      // Reference.
      if (autoprof_status s = run(reference, *referenceSpec, "reference"))
        return s;
      if (onDevice)
        onDevice = buffers.keepExpected() == AUTOPROF_OK;
      if (onDevice) {
        std::vector<char> changed;
        if (autoprof_status s =
                buffers.findDifferences(changed, /*inputsOnly=*/true))
          return s;
        for (size_t i = 0; i < spec.num_params; ++i)
          if (changed[i])
            return writesInput(i);
      } else {
        for (size_t i = 0; i < spec.num_params; ++i) {
          if (spec.params[i].is_scalar)
            continue;
          if (autoprof_status s = buffers.download(i, referenceOut[i]))
            return s;
          onHost[i] = 1;
          if (spec.params[i].role == AUTOPROF_ROLE_INPUT &&
              referenceOut[i] != buffers.initial(i))
            return writesInput(i);
        }
      }
      bool strayWrite = false;
      size_t strayParam = 0;
      uint64_t strayOffset = 0;
      uint8_t strayValue = 0;
      if (autoprof_status s = buffers.findGuardWrite(strayWrite, strayParam,
                                                     strayOffset, strayValue))
        return s;
      if (strayWrite)
        return setError(
            session, AUTOPROF_ERROR_INVALID_ARGUMENT,
            "the reference kernel '%s' writes past the end of "
            "parameter %zu (byte %llu after its %llu elements); "
            "the launch spec gives it too few elements",
            reference->entry.c_str(), strayParam,
            static_cast<unsigned long long>(strayOffset),
            static_cast<unsigned long long>(spec.params[strayParam].count));

      // The candidate runs twice on the same inputs: a candidate whose
      // results depend on what an earlier launch left behind (device
      // globals, a fingerprint of its inputs) fails the second run.
      // The magnitude run leaves absolute values in the input buffers, which
      // restoreAsync() does not undo: the next run uploads everything.
      bool inputsReplaced = false;
      // Both runs compare against what the reference does on these inputs,
      // measured at most once for the two.
      // A reference with float atomics may not agree with itself. Run it
      // once more, only when a float buffer differs, and measure by how much
      // (for every float buffer on the host then; a buffer that only the
      // second run of the candidate changes measures it again).
      std::vector<double> selfDisagreement(spec.num_params, 0.0);
      std::vector<char> disagreementMeasured(spec.num_params, 0);
      auto rerunReference = [&]() -> autoprof_status {
        if (autoprof_status s = buffers.upload())
          return s;
        if (autoprof_status s = run(reference, *referenceSpec, "reference"))
          return s;
        std::vector<uint8_t> again;
        for (size_t i = 0; i < spec.num_params; ++i) {
          const autoprof_param &param = spec.params[i];
          if (param.is_scalar || !isFloatType(param.dtype) || !onHost[i])
            continue;
          if (autoprof_status s = buffers.download(i, again))
            return s;
          selfDisagreement[i] =
              relativeDisagreement(param, referenceOut[i], again);
          disagreementMeasured[i] = 1;
        }
        return AUTOPROF_OK;
      };
      // A reassociating candidate: the reference on the inputs' absolute
      // values gives the magnitude of each sum's terms. Only the buffers the
      // reference writes come back (an input's magnitude bounds nothing; on
      // a matrix-vector product the matrix is most of the bytes).
      std::vector<std::vector<uint8_t>> magnitudes(spec.num_params);
      bool magnitudesRun = false;
      auto runMagnitudes = [&]() -> autoprof_status {
        magnitudesRun = true;
        inputsReplaced = true;
        if (autoprof_status s = buffers.uploadAbsolute())
          return s;
        if (autoprof_status s = run(reference, *referenceSpec, "reference"))
          return s;
        for (size_t i = 0; i < spec.num_params; ++i) {
          const autoprof_param &param = spec.params[i];
          if (param.is_scalar || !isFloatType(param.dtype) ||
              param.role == AUTOPROF_ROLE_INPUT)
            continue;
          if (autoprof_status s = buffers.download(i, magnitudes[i]))
            return s;
        }
        return AUTOPROF_OK;
      };
      for (int pass = 0; pass < 2; ++pass) {
        // Prefixes a rejection of the second run with what it means.
        auto secondRun = [&]() {
          if (pass == 0)
            return;
          std::string reason = std::string("results depend on earlier launches "
                                           "(a second run on the same "
                                           "inputs): ") +
                               out->reason;
          writeReason(out->reason, "%s", reason.c_str());
        };
        // Candidate, on the same initial contents.
        if (onDevice && !inputsReplaced) {
          if (autoprof_status s = buffers.restoreAsync(session->stream))
            return s;
          if (autoprof_status s = buffers.refillGuardsAsync())
            return s;
        } else if (autoprof_status s = buffers.upload()) {
          return s;
        }
        if (autoprof_status s =
                run(candidate, *candidateSpec, "candidate", candidateMap))
          return s;
        std::vector<char> differs(spec.num_params, 1);
        if (onDevice)
          if (autoprof_status s = buffers.findDifferences(differs))
            return s;
        for (size_t i = 0; i < spec.num_params; ++i) {
          if (spec.params[i].is_scalar || !differs[i])
            continue;
          if (autoprof_status s = buffers.download(i, candidateOut[i]))
            return s;
          if (!onHost[i]) {
            if (spec.params[i].role == AUTOPROF_ROLE_INPUT)
              referenceOut[i] = buffers.initial(i);
            else if (autoprof_status s =
                         buffers.downloadExpected(i, referenceOut[i]))
              return s;
            onHost[i] = 1;
          }
        }
        if (autoprof_status s = buffers.findGuardWrite(strayWrite, strayParam,
                                                       strayOffset, strayValue))
          return s;
        if (strayWrite) {
          const autoprof_param &param = spec.params[strayParam];
          out->passed = 0;
          out->param_index = static_cast<int>(strayParam);
          out->element = param.count + strayOffset / dtypeSize(param.dtype);
          writeReason(out->reason,
                      "wrote past the end of a buffer: byte %llu after the "
                      "%llu elements of parameter %zu (%s %s) is 0x%02x, not "
                      "the guard byte 0x%02x (seed %llu, distribution %s)",
                      static_cast<unsigned long long>(strayOffset),
                      static_cast<unsigned long long>(param.count), strayParam,
                      dtypeName(param.dtype), roleName(param.role), strayValue,
                      GuardByte, static_cast<unsigned long long>(seed),
                      distName);
          secondRun();
          return AUTOPROF_OK;
        }
        for (size_t i = 0; i < spec.num_params; ++i) {
          const autoprof_param &param = spec.params[i];
          if (param.is_scalar)
            continue;
          if (!differs[i])
            continue;
          const std::vector<uint8_t> &expected = referenceOut[i];
          if (candidateOut[i] == expected)
            continue;
          if (isFloatType(param.dtype) && !disagreementMeasured[i])
            if (autoprof_status s = rerunReference())
              return s;
          // A reference that disagrees with itself reorders its sums (float
          // atomics): the candidate may round as another order does, so it is
          // compared as a reassociated sum too, through its terms' magnitude.
          bool nondeterministic =
              isFloatType(param.dtype) && selfDisagreement[i] > 0;
          if (isFloatType(param.dtype) && (reassociated || nondeterministic) &&
              !magnitudesRun)
            if (autoprof_status s = runMagnitudes())
              return s;
          const uint8_t *magnitude =
              (reassociated || nondeterministic) && !magnitudes[i].empty()
                  ? magnitudes[i].data()
                  : nullptr;
          double baseTolerance =
              param.dtype == AUTOPROF_F16 || param.dtype == AUTOPROF_BF16
                  ? tolerance16
              : param.dtype == AUTOPROF_F64 ? tolerance64
                                            : tolerance32;
          // Allow a candidate what the reference allows itself, with margin.
          double tolerance =
              baseTolerance + NondeterminismMargin * selfDisagreement[i];
          const uint8_t *initial = buffers.initial(i).data();
          Mismatch first = Mismatch::None;
          uint64_t firstElement = 0, bad = 0;
          for (uint64_t j = 0; j < param.count; ++j) {
            Mismatch m =
                classify(param, initial, expected.data(),
                         candidateOut[i].data(), j, tolerance, magnitude);
            if (m == Mismatch::None)
              continue;
            if (bad++ == 0) {
              first = m;
              firstElement = j;
            }
          }
          if (first == Mismatch::None)
            continue; // Differences within tolerance.
          out->passed = 0;
          out->param_index = static_cast<int>(i);
          out->element = firstElement;
          out->expected =
              loadElement(expected.data(), param.dtype, firstElement);
          out->actual =
              loadElement(candidateOut[i].data(), param.dtype, firstElement);
          std::string exp =
              formatElement(expected.data(), param.dtype, firstElement);
          std::string act =
              formatElement(candidateOut[i].data(), param.dtype, firstElement);
          std::string was = formatElement(initial, param.dtype, firstElement);
          char where[160];
          std::snprintf(where, sizeof(where),
                        "parameter %zu (%s %s) element %llu", i,
                        dtypeName(param.dtype), roleName(param.role),
                        static_cast<unsigned long long>(firstElement));
          char tail[200];
          std::snprintf(tail, sizeof(tail),
                        "%llu of %llu elements differ; seed %llu, distribution "
                        "%s",
                        static_cast<unsigned long long>(bad),
                        static_cast<unsigned long long>(param.count),
                        static_cast<unsigned long long>(seed), distName);
          switch (first) {
          case Mismatch::WrongResult:
            if (nondeterministic && magnitude)
              writeReason(
                  out->reason,
                  "wrong result: %s is %s but the reference computed "
                  "%s (tolerance %g x (1 + |expected|) + %g x %s, the "
                  "magnitude of the terms of its sums, widened because the "
                  "reference itself varies by up to %g x (1 + |expected|) "
                  "between runs; %s)",
                  where, act.c_str(), exp.c_str(), tolerance,
                  reassociationTolerance(param.dtype),
                  formatElement(magnitude, param.dtype, firstElement).c_str(),
                  selfDisagreement[i], tail);
            else if (isFloatType(param.dtype) && magnitude)
              writeReason(
                  out->reason,
                  "wrong result: %s is %s but the reference computed "
                  "%s (tolerance %g x (1 + |expected|) + %g x %s, the "
                  "magnitude of the terms of the reassociated sums; "
                  "%s)",
                  where, act.c_str(), exp.c_str(), tolerance,
                  reassociationTolerance(param.dtype),
                  formatElement(magnitude, param.dtype, firstElement).c_str(),
                  tail);
            else if (isFloatType(param.dtype))
              writeReason(out->reason,
                          "wrong result: %s is %s but the reference computed "
                          "%s (tolerance %g x (1 + |expected|); %s)",
                          where, act.c_str(), exp.c_str(), tolerance, tail);
            else
              writeReason(out->reason,
                          "wrong result: %s is %s but the reference computed "
                          "%s (integers compare exactly; %s)",
                          where, act.c_str(), exp.c_str(), tail);
            break;
          case Mismatch::DidNotWrite:
            writeReason(out->reason,
                        "did not write: %s still holds the poison value "
                        "(bytes 0x%02x) where the reference computed %s (%s)",
                        where, buffers.poisonByte(), exp.c_str(), tail);
            break;
          case Mismatch::WroteOutside:
            writeReason(out->reason,
                        "wrote outside the reference's outputs: %s is %s but "
                        "the reference left it unwritten (poison) (%s)",
                        where, act.c_str(), tail);
            break;
          case Mismatch::UnexpectedNaN:
            writeReason(out->reason,
                        "NaN where the reference has none: %s is %s but the "
                        "reference computed %s (%s)",
                        where, act.c_str(), exp.c_str(), tail);
            break;
          case Mismatch::WroteInput:
            out->expected = loadElement(initial, param.dtype, firstElement);
            writeReason(out->reason,
                        "wrote into an input: %s is %s but was %s before the "
                        "run (%s)",
                        where, act.c_str(), was.c_str(), tail);
            break;
          case Mismatch::None:
            break;
          }
          secondRun();
          return AUTOPROF_OK;
        }
      } // pass
    }
  }
  out->passed = 1;
  out->param_index = -1;
  out->reason[0] = '\0';
  return AUTOPROF_OK;
}
