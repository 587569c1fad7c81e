#!/usr/bin/env bash
# Installs what the build needs (scripts/setup.sh), then runs the tests of the default
# build (no native library: microlp is its back-end), then the whole test suite with
# every native MILP back-end (HiGHS, CBC, SCIP) and microlp. Everything is built with
# --release, as the main job is, so that the native libraries are compiled once per
# profile.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
command -v cargo >/dev/null 2>&1 || export PATH="$HOME/.cargo/bin:$PATH"

cargo test --release --no-default-features --features cli,microlp --test default_build
cargo test --workspace --release --features native
