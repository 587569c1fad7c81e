//! Local scores equal pgmpy's and pygobnilp's (to 1e-6) on the data set the fixture
//! script generates and ships (`tests/fixtures/reference/random_small.csv`).

mod common;

#[test]
fn random_small_bdeu_matches_pgmpy_and_pygobnilp() {
    common::check_reference_fixture("random_small.bdeu.tsv");
}

#[test]
fn random_small_bic_matches_pgmpy_and_pygobnilp() {
    common::check_reference_fixture("random_small.bic.tsv");
}
