//! Unpruned scoring with the network's declared arities reproduces the MINOBS-anc score
//! files (`jkl/minobs_anc_bdeu`, every parent set of size ≤ 3, BDeu ess 1) set for set;
//! these files only match their data with the BIF's declared states.
#![cfg(feature = "shared-tests")]

mod common;

use bnsl::data::{load_data, read_bif, LoadOptions};
use bnsl::fio::read_scores;
use bnsl::scores::{generate_candidates, CandidateOptions, LocalScorer, Pruning, ScoreKind};

fn compare(network: &str, sample: &str) {
    let shared = common::shared();
    let net = read_bif(&shared.join(format!("bif/bnlearn_pgmpy/{network}.bif"))).unwrap();
    let data = load_data(
        &shared.join(format!("data/minobs_anc_csv/{sample}.csv")),
        &LoadOptions::with_network(&net),
    )
    .unwrap();
    let theirs = read_scores(&shared.join(format!("jkl/minobs_anc_bdeu/{sample}.BDeu.jkl")))
        .unwrap()
        .table;
    let scorer = LocalScorer::new(&data, ScoreKind::Bdeu { ess: 1.0 });
    let (ours, _) = generate_candidates(
        &scorer,
        &CandidateOptions {
            max_parents: Some(3),
            pruning: Pruning::Off,
            allowed_parents: None,
        },
        &|_| {},
    )
    .expect("fits in memory");
    assert_eq!(
        ours.total_candidates(),
        theirs.total_candidates(),
        "{sample}"
    );
    // The MINOBS files number variables in the data's column order.
    let mut worst = 0.0f64;
    for v in 0..theirs.n() {
        for c in theirs.candidates(v) {
            let got = ours
                .score_of(v, &c.parents)
                .unwrap_or_else(|| panic!("{sample}: {v} | {:?} missing", c.parents));
            worst = worst.max((got - c.score).abs());
        }
    }
    eprintln!(
        "{sample}: {} sets, largest deviation {worst:.2e}",
        theirs.total_candidates()
    );
    assert!(worst <= 1e-6, "{sample}: deviation {worst}");
}

#[test]
fn water_1000_declared_arities() {
    compare("water", "water_1000_1");
}

#[test]
fn insurance_500_declared_arities() {
    compare("insurance", "insurance_500_1");
}

#[test]
fn child_and_sachs() {
    compare("child", "child_500_1");
    compare("sachs", "sachs_1000_1");
}
