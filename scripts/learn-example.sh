#!/usr/bin/env bash
# Installs what the build needs (scripts/setup.sh), builds bnsl with every native MILP
# back-end, and learns an optimal network from one of the shipped score files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
command -v cargo >/dev/null 2>&1 || export PATH="$HOME/.cargo/bin:$PATH"

cargo build --release --features native
"${CARGO_TARGET_DIR:-target}/release/bnsl" learn instances/scores/asia_10000.BDeu1.palim3.jkl --method dp
