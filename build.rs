//! Gives this package's binaries and tests an rpath to the SCIP shared library when the
//! `scip` feature is on. `bnsl-solvers`' build script links the library and passes its
//! directory here as `DEP_BNSL_SCIP_LIBDIR`; link arguments of a dependency do not reach
//! a dependent's binaries, so without this `target/release/bnsl` would not find SCIP.
//!
//! It also passes the git commit of the checkout being built as `BNSL_GIT_COMMIT`
//! (`unknown` outside a git checkout), which `bnsl --version` prints and benchmark
//! studies record.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    pass_git_commit();
    println!("cargo:rerun-if-env-changed=DEP_BNSL_SCIP_LIBDIR");
    if let Some(dir) = std::env::var_os("DEP_BNSL_SCIP_LIBDIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.to_string_lossy());
    }
}

/// Sets `BNSL_GIT_COMMIT` to `git rev-parse --short=12 HEAD`, rerunning when HEAD moves.
fn pass_git_commit() {
    let git = std::path::Path::new(".git");
    if git.is_dir() {
        println!("cargo:rerun-if-changed=.git/HEAD");
        println!("cargo:rerun-if-changed=.git/refs/heads");
        println!("cargo:rerun-if-changed=.git/packed-refs");
    }
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BNSL_GIT_COMMIT={commit}");
}
