#!/usr/bin/env bash
# Installs what building bnsl with its native MILP back-ends needs, on Debian 12 as root:
#   - Debian packages: cmake, make, g++, libclang-dev (HiGHS is compiled from source and
#     bound with bindgen), coinor-libcbc-dev and pkg-config (CBC), python3-pip and unzip
#     (to fetch SCIP), zlib1g-dev;
#   - SCIP 10.0.2 as a shared library, taken from the PyPI wheel pyscipopt==6.3.0 (SCIP
#     has no Debian package), unpacked into $BNSL_SCIP_DIR/lib (default .native/scip/lib
#     in the repository) with a libscip.so symlink for the linker.
# Idempotent: installs only what is missing and prints nothing when all is in place.
# Rust itself is not installed here: cargo (from rustup) must already be on the machine.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCIP_DIR="${BNSL_SCIP_DIR:-$ROOT/.native/scip}"

# The wheel that carries SCIP 10.0.2 for x86_64 Linux; its hash pins the exact file.
PYSCIPOPT_VERSION=6.3.0
WHEEL_SHA256=6e3931d84f51cb1ca6646eea900012c5455af124774221318fecd731c79c80ca

# zlib1g-dev: CBC's pkg-config file links -lz, but coinor-libcbc-dev does not pull it in.
APT_PACKAGES=(cmake make g++ libclang-dev pkg-config coinor-libcbc-dev zlib1g-dev unzip ca-certificates)

die() {
    echo "setup.sh: error: $*" >&2
    exit 1
}

missing_packages() {
    local pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            echo "$pkg"
        fi
    done
}

install_packages() {
    local missing
    mapfile -t missing < <(missing_packages "$@")
    [ "${#missing[@]}" -eq 0 ] && return 0
    [ "$(id -u)" -eq 0 ] || die "Debian packages missing (${missing[*]}); run this script as root"
    echo "setup.sh: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update failed"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || die "apt-get install ${missing[*]} failed"
}

check_cargo() {
    if ! command -v cargo >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
        die "cargo not found: install the Rust toolchain with rustup (https://rustup.rs) first"
    fi
}

scip_installed() {
    [ -f "$SCIP_DIR/.installed" ] \
        && [ "$(cat "$SCIP_DIR/.installed")" = "pyscipopt-$PYSCIPOPT_VERSION $WHEEL_SHA256" ] \
        && [ -e "$SCIP_DIR/lib/libscip.so" ]
}

install_scip() {
    scip_installed && return 0
    [ "$(uname -m)" = x86_64 ] || die "the SCIP wheel used here is for x86_64 Linux only"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        install_packages python3-pip
    fi
    echo "setup.sh: fetching SCIP from pyscipopt==$PYSCIPOPT_VERSION into $SCIP_DIR" >&2
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    # `pip download` only fetches the file; the platform and Python version are pinned so
    # that the same wheel comes whichever Python runs pip.
    python3 -m pip download --quiet --no-deps --only-binary=:all: \
        --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp \
        --dest "$tmp" "pyscipopt==$PYSCIPOPT_VERSION" \
        || die "pip could not download pyscipopt==$PYSCIPOPT_VERSION"
    local wheels wheel
    wheels=("$tmp"/pyscipopt-"$PYSCIPOPT_VERSION"-*.whl)
    wheel="${wheels[0]}"
    [ -f "$wheel" ] || die "pip downloaded no pyscipopt wheel"
    echo "$WHEEL_SHA256  $wheel" | sha256sum --check --quiet - \
        || die "$wheel does not have the expected SHA-256 $WHEEL_SHA256"
    unzip -q -j -o "$wheel" 'pyscipopt.libs/*' -d "$tmp/lib" || die "could not unpack $wheel"
    local libs
    libs=("$tmp"/lib/libscip-*.so.*)
    [ -f "${libs[0]}" ] || die "$wheel contains no libscip-*.so.*"
    ln -s "$(basename "${libs[0]}")" "$tmp/lib/libscip.so"
    mkdir -p "$SCIP_DIR"
    rm -rf "$SCIP_DIR/lib"
    mv "$tmp/lib" "$SCIP_DIR/lib"
    echo "pyscipopt-$PYSCIPOPT_VERSION $WHEEL_SHA256" >"$SCIP_DIR/.installed"
}

check_cargo
install_packages "${APT_PACKAGES[@]}"
install_scip
