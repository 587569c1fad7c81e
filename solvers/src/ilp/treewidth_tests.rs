//! The bounded-treewidth MILP on every back-end against a brute-force oracle.

use super::bounded_treewidth::{finish, solve_bounded_treewidth, TreewidthMilp};
use super::tests::{random_tables, TableShape};
use super::{IlpOptions, IlpOutcome};
use crate::milp::{backends, Status};
use crate::test_tables::brute_force_within_width as brute_force;
use bnsl_formulations::bounded_treewidth::TreewidthForm;
use bnsl_formulations::treewidth::moral_graph;
use bnsl_formulations::{Dag, FamilyIlp, ScoreTable, VarSet};
use proptest::prelude::*;

/// A table over `x0, x1, …` from each node's (parents, score) list.
fn table_of(rows: &[&[(&[usize], f64)]]) -> ScoreTable {
    let n = rows.len();
    let candidates = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|&(parents, score)| bnsl_formulations::Candidate {
                    parents: VarSet::from_members(n, parents.iter().copied()),
                    score,
                })
                .collect()
        })
        .collect();
    ScoreTable::new((0..n).map(|i| format!("x{i}")).collect(), candidates).unwrap()
}

fn small_tables() -> impl Strategy<Value = ScoreTable> {
    random_tables(TableShape {
        nodes: 3..=6,
        sets: 4,
        quarters: -400..0,
        empty: -500.0,
        max_parents: 3,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn every_back_end_and_form_matches_the_oracle(table in small_tables(), width in 0usize..4) {
        let optimum = brute_force(&table, width);
        let ilp = FamilyIlp::new(&table);
        for backend in backends() {
            for (form, root_cuts, unbounded_first, branch_and_cut) in [
                (TreewidthForm::Paper, false, false, false),
                (TreewidthForm::Tight, false, false, false),
                (TreewidthForm::Tight, true, true, false),
                (TreewidthForm::Paper, false, false, true),
                (TreewidthForm::Tight, false, true, true),
            ] {
                let what = format!(
                    "{} {form:?} root cuts {root_cuts} unbounded first {unbounded_first} \
                     branch and cut {branch_and_cut} width {width}",
                    backend.name()
                );
                let settings = TreewidthMilp { width, form, root_cuts, unbounded_first, branch_and_cut };
                let out = solve_bounded_treewidth(
                    backend.as_ref(), &ilp, settings, &IlpOptions::default(), &|_| {},
                ).unwrap();
                prop_assert_eq!(out.ilp.status, Status::Optimal, "{}", what);
                let dag = out.ilp.dag.as_ref().unwrap();
                let score = dag.check(&table).unwrap();
                prop_assert!((score - optimum).abs() < 1e-9, "{}: {} vs oracle {}", what, score, optimum);
                let order = out.elimination_order.as_ref().unwrap();
                prop_assert!(moral_graph(dag).elimination_width(order) <= width, "{}", what);
            }
        }
    }
}

#[test]
fn a_start_within_the_bound_is_kept_and_one_beyond_is_not_used() {
    let n = 4;
    // Node 3's best family {0, 1, 2} makes the moral graph a 4-clique (width 3).
    let table = table_of(&[
        &[(&[], -10.0)],
        &[(&[], -10.0), (&[0], -5.0)],
        &[(&[], -10.0), (&[1], -5.0)],
        &[(&[], -10.0), (&[0, 1, 2], -1.0), (&[2], -6.0)],
    ]);
    let ilp = FamilyIlp::new(&table);
    let mut wide = Dag::empty(n);
    wide.set_parents(1, VarSet::from_members(n, [0]));
    wide.set_parents(2, VarSet::from_members(n, [1]));
    wide.set_parents(3, VarSet::from_members(n, [0, 1, 2]));
    for backend in backends() {
        let options = IlpOptions {
            start: Some(wide.clone()),
            ..IlpOptions::default()
        };
        let narrow = solve_bounded_treewidth(
            backend.as_ref(),
            &ilp,
            TreewidthMilp::new(1),
            &options,
            &|_| {},
        )
        .unwrap();
        assert_eq!(narrow.ilp.status, Status::Optimal);
        assert_eq!(narrow.ilp.score, Some(-26.0), "{}", backend.name());
        let full = solve_bounded_treewidth(
            backend.as_ref(),
            &ilp,
            TreewidthMilp::new(3),
            &options,
            &|_| {},
        )
        .unwrap();
        assert_eq!(full.ilp.score, Some(-21.0), "{}", backend.name());
    }
}

/// The unbounded optimum's bound stands when the MILP ends without one of its own (a
/// time limit inside its root), and closes the gap when it meets the incumbent.
#[test]
fn the_unbounded_bound_stands_when_the_milp_has_none() {
    let outcome = |score: f64, bound: Option<f64>| IlpOutcome {
        status: Status::Feasible,
        dag: None,
        score: Some(score),
        bound,
        nodes: 0,
        cuts: 0,
        lp_iterations: None,
        rounds: None,
        time_s: 0.0,
        clusters: Vec::new(),
    };
    let began = std::time::Instant::now();
    let kept = finish(outcome(-12.0, None), None, Some(-10.0), began);
    assert_eq!(
        (kept.ilp.bound, kept.ilp.status),
        (Some(-10.0), Status::Feasible)
    );
    let tighter = finish(outcome(-12.0, Some(-11.0)), None, Some(-10.0), began);
    assert_eq!(tighter.ilp.bound, Some(-11.0));
    let closed = finish(outcome(-10.0, None), None, Some(-10.0), began);
    assert_eq!(closed.ilp.status, Status::Optimal);
}

/// Two small tables on which HiGHS's presolve declared a wrong optimum of the
/// bounded-treewidth program (the empty DAG, with a better DAG at hand): every back-end
/// proves the right one (HiGHS solves these programs without presolve).
#[test]
fn highs_presolve_does_not_decide_bounded_treewidth_optima() {
    let table = table_of(&[
        &[(&[1], -0.5), (&[], -500.0)],
        &[(&[], -500.0)],
        &[(&[], -500.0)],
        &[(&[1, 2, 4], -35.25), (&[0, 1, 4], -73.75), (&[], -500.0)],
        &[(&[], -500.0)],
    ]);
    let paper = TreewidthMilp {
        width: 1,
        form: TreewidthForm::Paper,
        root_cuts: false,
        unbounded_first: false,
        branch_and_cut: false,
    };
    let cut = table_of(&[
        &[(&[2, 3, 5], -8.25), (&[1, 4, 5], -8.5), (&[], -500.0)],
        &[(&[0, 2, 5], -86.0), (&[], -500.0)],
        &[
            (&[1, 3, 5], -1.75),
            (&[0, 3, 4], -15.0),
            (&[0, 1, 3], -35.75),
            (&[], -500.0),
        ],
        &[(&[1, 2], -87.5), (&[], -500.0)],
        &[(&[0, 2], -30.0), (&[5], -78.0), (&[], -500.0)],
        &[
            (&[0, 1, 2], -48.0),
            (&[1, 2, 4], -91.25),
            (&[0, 2], -96.25),
            (&[1, 2], -98.0),
            (&[], -500.0),
        ],
    ]);
    for (table, settings, optimum) in [
        (table, paper, -2000.5),
        (cut, TreewidthMilp::new(1), -2578.0),
    ] {
        assert_eq!(brute_force(&table, 1), optimum);
        let ilp = FamilyIlp::new(&table);
        for backend in backends() {
            let out = solve_bounded_treewidth(
                backend.as_ref(),
                &ilp,
                settings,
                &IlpOptions::default(),
                &|_| {},
            )
            .unwrap();
            assert_eq!(out.ilp.status, Status::Optimal, "{}", backend.name());
            assert_eq!(out.ilp.score, Some(optimum), "{}", backend.name());
        }
    }
}
