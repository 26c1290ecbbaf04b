#!/usr/bin/env bash
# Sets up, builds and runs every AutoProf test (lit regression tests, the
# GoogleTest unit tests, the Python package's pytest suite and the fuzz
# targets). Ends with the line "N passed, N failed, N skipped";
# skipped tests are those gated on a CUDA toolkit or GPU this machine lacks.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${AUTOPROF_BUILD_DIR:-build}

scripts/setup.sh || exit 1
scripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -v "$build/test" "$build/test/Unit" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit's summary lines look like "  Passed: 54 (100.00%)".
count() {
  sed -n "s/^ *$1 *: *\([0-9][0-9]*\) (.*/\1/p" "$log" | head -n 1 | grep . || echo 0
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") +
           $(count "Unexpectedly Passed") ))
skipped=$(( $(count Unsupported) ))
# A lit run that failed without counting a failure (e.g. a broken config).
if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
rm -f "$log"

# The Python package's tests (scripts/python-tests.sh); their summary line
# comes before the final one.
pylog=$(mktemp)
scripts/python-tests.sh 2>&1 | tee "$pylog"
pysummary='^python: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$'
pypassed=$(sed -n "s/$pysummary/\1/p" "$pylog" | tail -n 1)
pyfailed=$(sed -n "s/$pysummary/\2/p" "$pylog" | tail -n 1)
pyskipped=$(sed -n "s/$pysummary/\3/p" "$pylog" | tail -n 1)
[ -n "$pyfailed" ] || pyfailed=1
passed=$(( passed + ${pypassed:-0} ))
failed=$(( failed + pyfailed ))
skipped=$(( skipped + ${pyskipped:-0} ))
rm -f "$pylog"

# The libFuzzer targets (scripts/fuzz.sh: its own clang build, then a bounded
# run of each on its seed corpus) count as one test each; their summary line
# comes before the final one. AUTOPROF_SKIP_FUZZ=1 leaves them out.
if [ "${AUTOPROF_SKIP_FUZZ:-0}" != 1 ]; then
  fuzzlog=$(mktemp)
  scripts/fuzz.sh 2>&1 | tee "$fuzzlog"
  fuzzstatus=${PIPESTATUS[0]}
  summary='^\([0-9][0-9]*\) fuzz targets passed, \([0-9][0-9]*\) failed$'
  fuzzpassed=$(sed -n "s/$summary/\1/p" "$fuzzlog" | tail -n 1)
  fuzzfailed=$(sed -n "s/$summary/\2/p" "$fuzzlog" | tail -n 1)
  fuzzfailed=${fuzzfailed:-0}
  if [ "$fuzzstatus" != 0 ] && [ "$fuzzfailed" = 0 ]; then fuzzfailed=1; fi
  passed=$(( passed + ${fuzzpassed:-0} ))
  failed=$(( failed + fuzzfailed ))
  rm -f "$fuzzlog"
fi
# The repository's own pages, one check each: the docs lint (short
# sentences, links that resolve; docs/results/learn-h100 is written by
# `autoprof evaluate` and `autoprof sweep`) and README's results table and
# the results index against the measurement pages.
for check in "scripts/lint-docs.py --exclude docs/results/learn-h100 README.md docs" \
             "scripts/results-table.py --check"; do
  if python3 $check; then
    passed=$(( passed + 1 ))
  else
    echo "FAIL: $check"
    failed=$(( failed + 1 ))
  fi
done
# The reference page of the rewrite families against their declarations.
if "$build/bin/autoprof-tblgen" -gen-rewrite-family-doc -I include \
    include/autoprof/Optimizer/RewriteFamilies.td |
    diff -u docs/rewrite-families.md -; then
  passed=$(( passed + 1 ))
else
  echo "FAIL: docs/rewrite-families.md differs from what RewriteFamilies.td" \
    "declares (regenerate it: see its first lines)"
  failed=$(( failed + 1 ))
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$status" = 0 ] && [ "$failed" = 0 ]
