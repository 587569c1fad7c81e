use super::*;
use crate::score_table::{Candidate, ScoreTable};
use crate::varset::VarSet;

/// Four nodes; node 3 may take any two of 0, 1, 2 as parents, node 2 may take {0, 1}.
fn table() -> ScoreTable {
    let n = 4;
    let c = |ps: &[usize]| Candidate {
        parents: VarSet::from_members(n, ps.iter().copied()),
        score: -(ps.len() as f64),
    };
    ScoreTable::new(
        (0..n).map(|i| format!("x{i}")).collect(),
        vec![
            vec![c(&[])],
            vec![c(&[]), c(&[0])],
            vec![c(&[]), c(&[0, 1])],
            vec![c(&[]), c(&[0, 1]), c(&[1, 2]), c(&[0, 2])],
        ],
    )
    .unwrap()
}

fn dag(parents: &[&[usize]]) -> Dag {
    let n = parents.len();
    Dag::from_parents(
        parents
            .iter()
            .map(|ps| VarSet::from_members(n, ps.iter().copied()))
            .collect(),
    )
}

#[test]
fn a_dag_within_the_bound_is_a_feasible_point_of_both_forms() {
    let t = table();
    let ilp = FamilyIlp::new(&t);
    // 1 <- 0, 2 <- {0, 1}, 3 <- {1, 2}: moral graph = K4 minus edge 0-3, width 2.
    let d = dag(&[&[], &[0], &[0, 1], &[1, 2]]);
    for form in [TreewidthForm::Paper, TreewidthForm::Tight] {
        let program = treewidth_model(&ilp, 2, form);
        let values = program
            .start_values(&ilp, &d, &[0, 1, 2, 3])
            .expect("width 2");
        assert!(program.model.max_violation(&values) <= 1e-9, "{form:?}");
        assert_eq!(program.elimination_order(&values), vec![0, 1, 2, 3]);
        let narrow = treewidth_model(&ilp, 1, form);
        assert!(narrow.start_values(&ilp, &d, &[0, 1, 2, 3]).is_none());
    }
}

#[test]
fn a_point_whose_chordal_graph_misses_a_moral_edge_is_infeasible() {
    let t = table();
    let ilp = FamilyIlp::new(&t);
    let program = treewidth_model(&ilp, 3, TreewidthForm::Tight);
    let d = dag(&[&[], &[0], &[0, 1], &[1, 2]]);
    let mut values = program.start_values(&ilp, &d, &[0, 1, 2, 3]).unwrap();
    // Drop the moral edge 1 - 2 (co-parents of 3, also the arc 1 -> 2).
    values[program.y(1, 2).index()] = 0.0;
    assert!(program.model.max_violation(&values) >= 1.0 - 1e-9);
}

#[test]
fn the_tight_form_sums_rows_the_paper_writes_per_family() {
    let t = table();
    let ilp = FamilyIlp::new(&t);
    let paper = treewidth_model(&ilp, 2, TreewidthForm::Paper);
    let tight = treewidth_model(&ilp, 2, TreewidthForm::Tight);
    assert_eq!(paper.model.num_vars(), tight.model.num_vars());
    let n = 4;
    assert_eq!(
        paper.model.num_vars(),
        ilp.num_columns() + n + n * (n - 1) + n
    );
    // Shared: convexity n, width n, elimination n(n-1), perfect n·C(n-1, 2).
    let shared = n + n + n * (n - 1) + n * 3;
    // Paper: per family and parent 2 rows, per family and parent pair 1 row:
    // families {0}, {0,1}, {0,1}, {1,2}, {0,2}: 9 parents, 4 pairs.
    assert_eq!(paper.model.num_rows(), shared + 2 * 9 + 4);
    // Tight: 6 possible arcs, 6 pairs with an arc, 4 (child, pair) rows, 6 one-way rows.
    assert_eq!(tight.model.num_rows(), shared + 6 + 6 + 4 + 6);
}
