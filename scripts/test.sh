#!/usr/bin/env bash
# Installs what the build needs (scripts/setup.sh), then runs the tests of the default
# build (no native library: microlp is its back-end), then the whole test suite with
# every native MILP back-end (HiGHS, CBC, SCIP) and microlp. Everything is built with
# --release, as the main job is, so that the native libraries are compiled once per
# profile.
#
# With BNSL_SHARED_TESTS=1 (as .ci/run sets it), the whole suite also takes the tests on
# the shared benchmark data (tests/shared_*.rs, feature `shared-tests`), in the same
# build; they need ../shared/instances beside the repository.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
command -v cargo >/dev/null 2>&1 || export PATH="$HOME/.cargo/bin:$PATH"

features=native
if [ "${BNSL_SHARED_TESTS:-}" = 1 ]; then
    if [ ! -d ../shared/instances ]; then
        echo "scripts/test.sh: error: BNSL_SHARED_TESTS=1 but ../shared/instances is not beside the repository ($ROOT/..)" >&2
        exit 1
    fi
    features=native,shared-tests
fi

cargo test --release --no-default-features --features cli,microlp --test default_build
cargo test --workspace --release --features "$features"
