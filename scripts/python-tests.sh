#!/usr/bin/env bash
# Runs the tests of the Python package (python/tests) with pytest, in a
# virtual environment under the build tree that sees the system's
# matplotlib and pytest (scripts/setup.sh installs them) and holds the
# package installed from python/ with pip, as a user would. The tools come
# from the build tree. Ends with "python: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
build=${AUTOPROF_BUILD_DIR:-build}
venv=$build/python-venv
# Debian's python3 carries the packages setup.sh installs.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)

fail() { echo "python-tests: $1" >&2; echo "python: 0 passed, 1 failed, 0 skipped"; exit 1; }
[ -x "$venv/bin/python" ] ||
  "$python" -m venv --system-site-packages "$venv" >/dev/null ||
  fail "cannot create a virtual environment with $python (python3-venv)"
"$venv/bin/python" -m pip install -q --no-build-isolation --no-deps \
  --disable-pip-version-check -e python >/dev/null ||
  fail "pip cannot install python/ (python3-setuptools, python3-wheel)"

# Triton (for autoprof.triton's tests; they compile for sm_90 without a GPU)
# from PyPI, pinned to the version the GPU hosts run; without a network its
# tests are skipped with that reason.
"$venv/bin/python" -c "import triton" 2>/dev/null ||
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    triton==3.6.0 >/dev/null 2>&1 ||
  echo "python-tests: triton==3.6.0 could not be installed; its tests skip"

log=$(mktemp)
AUTOPROF_TOOLS_DIR=$PWD/$build/bin "$venv/bin/python" -m pytest -rs \
  -p no:cacheprovider python/tests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(tail -n 1 "$log")
count() { echo "$summary" | grep -o "[0-9][0-9]* $1" | grep -o "[0-9]*" || echo 0; }
passed=$(count passed)
failed=$(( $(count failed) + $(count error) ))
skipped=$(count skipped)
rm -f "$log"
if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
echo "python: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
