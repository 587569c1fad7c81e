//! Links the SCIP shared library when the `scip` feature is on, and tells the microlp
//! back-end the version of microlp that the lock file pins.
//!
//! `scip-sys` is built with `DOCS_RS=1` (set in `.cargo/config.toml`): it then uses its
//! pregenerated SCIP 10 bindings and emits no link directives, so they come from here.
//! The library is SCIP 10.0.2 from the `pyscipopt==6.3.0` wheel, unpacked by
//! `scripts/setup.sh` into `$BNSL_SCIP_DIR/lib` (default: `.native/scip/lib` in the
//! workspace). Binaries get an rpath to that directory; the directory is also passed to
//! dependent packages' build scripts as `DEP_BNSL_SCIP_LIBDIR` so that they can add the
//! same rpath to their own binaries.

use std::env;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_MICROLP").is_some() {
        pass_microlp_version();
    }
    if env::var_os("CARGO_FEATURE_SCIP").is_none() {
        return;
    }
    println!("cargo:rerun-if-env-changed=BNSL_SCIP_DIR");
    let lib_dir = scip_dir().join("lib");
    let library = lib_dir.join("libscip.so");
    println!("cargo:rerun-if-changed={}", library.display());
    if !library.exists() {
        panic!(
            "\n\nSCIP library not found: {} does not exist.\n\
             Run `bash scripts/setup.sh` as root to fetch SCIP 10 (from the pyscipopt wheel), \
             or set BNSL_SCIP_DIR to a directory holding lib/libscip.so.\n\n",
            library.display()
        );
    }
    let lib_dir = lib_dir.display();
    println!("cargo:rustc-link-search=native={lib_dir}");
    println!("cargo:rustc-link-lib=dylib=scip");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{lib_dir}");
    println!("cargo:libdir={lib_dir}");
}

/// Sets `BNSL_MICROLP_VERSION` to the version of the `microlp` package in the
/// workspace's `Cargo.lock` (`unknown` without one: the crate built on its own).
fn pass_microlp_version() {
    let lock = workspace_dir().join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    let mut lines = text.lines();
    let mut version = "unknown".to_string();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"microlp\"" {
            if let Some(v) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "))
            {
                version = v.trim_matches('"').to_string();
            }
            break;
        }
    }
    println!("cargo:rustc-env=BNSL_MICROLP_VERSION={version}");
}

/// The workspace root: the parent of this package's folder.
fn workspace_dir() -> PathBuf {
    let manifest =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(Path::new("/")).to_path_buf()
}

/// `$BNSL_SCIP_DIR` (relative paths taken from the workspace root), else
/// `<workspace>/.native/scip`.
fn scip_dir() -> PathBuf {
    let workspace = workspace_dir();
    match env::var_os("BNSL_SCIP_DIR") {
        Some(dir) if !dir.is_empty() => workspace.join(dir),
        _ => workspace.join(".native").join("scip"),
    }
}
