//! `bnsl score` on the ebnsl CSV data reproduces GOBNILP's own score files
//! (`jkl/gobnilp_bdeu`, BDeu ess 1, parent limit 3): every parent set GOBNILP kept gets
//! the same score to 1e-6, and exact pruning keeps the same parent sets.
#![cfg(feature = "shared-tests")]

mod common;

use bnsl::data::load_data;
use bnsl::fio::read_scores;
use bnsl::scores::{generate_candidates, CandidateOptions, LocalScorer, Pruning, ScoreKind};

fn compare(stem: &str) {
    let shared = common::shared();
    let gob = read_scores(&shared.join(format!("jkl/gobnilp_bdeu/{stem}.BDeu1.palim3.jkl")))
        .unwrap()
        .table;
    let data = load_data(
        &shared.join(format!("data/ebnsl_csv/{stem}.csv")),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(
        data.names(),
        gob.names(),
        "{stem}: variables are named by column index in both"
    );
    let scorer = LocalScorer::new(&data, ScoreKind::Bdeu { ess: 1.0 });
    let opts = CandidateOptions {
        max_parents: Some(3),
        pruning: Pruning::Gap(0.0),
        allowed_parents: None,
    };
    let (ours, _) = generate_candidates(&scorer, &opts, &|_| {}).expect("fits in memory");
    let (mut only_gobnilp, mut only_ours) = (Vec::new(), 0usize);
    for v in 0..gob.n() {
        for c in gob.candidates(v) {
            let direct = scorer.score(v, &c.parents.to_vec()).score;
            assert!(
                (direct - c.score).abs() <= 1e-6,
                "{stem}: {v} | {:?}: bnsl {direct} vs GOBNILP {}",
                c.parents,
                c.score
            );
            match ours.score_of(v, &c.parents) {
                Some(s) => assert!((s - c.score).abs() <= 1e-6),
                None => only_gobnilp.push((v, c.parents.clone())),
            }
        }
        only_ours += ours
            .candidates(v)
            .iter()
            .filter(|c| gob.score_of(v, &c.parents).is_none())
            .count();
    }
    eprintln!(
        "{stem}: GOBNILP {} sets, bnsl {} sets, only in GOBNILP {}, only in bnsl {}",
        gob.total_candidates(),
        ours.total_candidates(),
        only_gobnilp.len(),
        only_ours
    );
    assert!(
        only_gobnilp.is_empty(),
        "{stem}: exact pruning dropped sets GOBNILP kept: {only_gobnilp:?}"
    );
    assert_eq!(only_ours, 0, "{stem}: bnsl kept sets that GOBNILP pruned");
}

#[test]
fn alarm1000() {
    compare("alarm1000");
}
#[test]
fn barley1000() {
    compare("barley1000");
}
#[test]
fn carpo100() {
    compare("carpo100");
}
#[test]
fn carpo500() {
    compare("carpo500");
}
#[test]
fn hailfinder100() {
    compare("hailfinder100");
}
#[test]
fn hailfinder500() {
    compare("hailfinder500");
}
#[test]
fn insurance1000() {
    compare("insurance1000");
}
#[test]
fn mildew1000() {
    compare("mildew1000");
}
#[test]
fn water1000() {
    compare("water1000");
}
