//! Gives this package's binaries and tests an rpath to the SCIP shared library when the
//! `scip` feature is on. `bnsl-solvers`' build script links the library and passes its
//! directory here as `DEP_BNSL_SCIP_LIBDIR`; link arguments of a dependency do not reach
//! a dependent's binaries, so without this `target/release/bnsl` would not find SCIP.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_BNSL_SCIP_LIBDIR");
    if let Some(dir) = std::env::var_os("DEP_BNSL_SCIP_LIBDIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.to_string_lossy());
    }
}
