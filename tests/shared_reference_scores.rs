//! Local scores equal pgmpy's and pygobnilp's (to 1e-6), BDeu and BIC, on shared data sets
//! (.dat with declared arities, headerless integer CSV, CSV with header and string states).
#![cfg(feature = "shared-tests")]

mod common;

fn check(name: &str) {
    common::shared();
    let worst = common::check_reference_fixture(name);
    eprintln!("{name}: largest deviation {worst:.3e}");
}

#[test]
fn discrete_dat() {
    for f in [
        "discrete.bdeu1.tsv",
        "discrete.bdeu10.tsv",
        "discrete.bic.tsv",
    ] {
        check(f);
    }
}

#[test]
fn asia_10000_dat() {
    check("asia_10000.bdeu.tsv");
    check("asia_10000.bic.tsv");
}

#[test]
fn water_1000_dat_declared_unobserved_states() {
    check("Water_1000.bdeu.tsv");
    check("Water_1000.bic.tsv");
}

#[test]
fn alarm1000_headerless_csv() {
    check("alarm1000.bdeu.tsv");
    check("alarm1000.bic.tsv");
}

#[test]
fn water1000_headerless_csv() {
    check("water1000.bdeu.tsv");
    check("water1000.bic.tsv");
}

#[test]
fn sachs_csv_with_header() {
    check("sachs_1000_1.bdeu.tsv");
    check("sachs_1000_1.bic.tsv");
}
