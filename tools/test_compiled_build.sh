#!/usr/bin/env bash
# The opt-in compiled build (mypyc), built and tested the way a user builds it (README, "Compiled
# build"): a venv of its own (.venv-compiled), a regular (non-editable) install so the extensions
# land in site-packages and never shadow the source tree, then the tests that prove the compiled
# engine plays the very same games as the pure one, run against the installed package
# (`-o pythonpath=` drops the `src` entry pytest would otherwise put first).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-compiled
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# First everything the type check behind mypyc needs (the dependencies, the pinned mypy, the
# stubs and pydantic's mypy plugin: the test extra has them all) and the build tools; then the
# package itself compiled, built without isolation so that it sees them.
"$VENV/bin/python" -m pip install --quiet "setuptools==80.9.0" wheel
"$VENV/bin/python" -m pip install --quiet '.[test]'
start=$(date +%s)
BLOODFORGE_MYPYC=require "$VENV/bin/python" -m pip install --quiet --no-build-isolation --no-deps \
  --force-reinstall .
echo "compiled build installed in $(( $(date +%s) - start )) s"

"$VENV/bin/python" -c "from bloodforge.buildinfo import build_info; print('bloodforge build:', build_info().describe())"
BLOODFORGE_EXPECT_COMPILED=1 "$VENV/bin/python" -m pytest -o pythonpath= -p no:cacheprovider \
  -n "${PYTEST_WORKERS:-2}" \
  tests/test_build.py tests/test_identical_games.py tests/arena/test_arena_identical_games.py \
  tests/test_conformance.py tests/server/test_aiwork_packing.py tests/arena/test_arena_worker_pickle.py \
  tests/bloodstones/test_worker_pickle.py tests/kingdoms/test_kingdoms_pickle.py "$@"
