//! The sink heuristic: rounds a (fractional) solution of the family ILP into a DAG.
//!
//! Nodes are placed from last to first: among the nodes not yet placed, each may take
//! any parent set inside the others; the node whose best such parent set has the largest
//! solution value (ties: the smaller loss of score against its best candidate) becomes
//! the sink of the remaining nodes. The order found this way is then used as in OBS
//! (seed 001, §4): every node takes its best-scoring candidate among its predecessors, which
//! never scores less than the rounded choice.

use bnsl_formulations::{Dag, FamilyIlp, VarSet};

/// A DAG made of candidates of `ilp`'s table, guided by `values` (one per column).
/// `None` only when no DAG can be built from the candidates placed this way (some node
/// has no candidate inside any set of remaining nodes, e.g. under required arcs).
pub fn round_to_dag(ilp: &FamilyIlp<'_>, values: &[f64]) -> Option<Dag> {
    let order = sink_order(ilp, values)?;
    best_parents_in_order(ilp, &order)
}

/// A topological order (first = source) built by repeatedly removing a sink.
fn sink_order(ilp: &FamilyIlp<'_>, values: &[f64]) -> Option<Vec<usize>> {
    let n = ilp.n();
    let table = ilp.table();
    let mut remaining = VarSet::from_members(n, 0..n);
    let mut reversed = Vec::with_capacity(n);
    while !remaining.is_empty() {
        let mut best: Option<(f64, f64, usize)> = None;
        for v in remaining.iter() {
            let allowed = remaining.without(v);
            let top = table.candidates(v)[0].score;
            let choice = ilp
                .columns_of(v)
                .filter(|&col| ilp.parents(col).is_subset(&allowed))
                .map(|col| {
                    let (_, k) = ilp.family(col);
                    (values[col], table.candidates(v)[k].score - top)
                })
                .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            if let Some((value, loss)) = choice {
                let better = best.is_none_or(|(bv, bl, _)| {
                    value > bv + 1e-9 || ((value - bv).abs() <= 1e-9 && loss > bl)
                });
                if better {
                    best = Some((value, loss, v));
                }
            }
        }
        let (_, _, sink) = best?;
        remaining.remove(sink);
        reversed.push(sink);
    }
    reversed.reverse();
    Some(reversed)
}

/// Every node's best candidate whose parents come before it in `order`.
fn best_parents_in_order(ilp: &FamilyIlp<'_>, order: &[usize]) -> Option<Dag> {
    let n = ilp.n();
    let mut before = VarSet::empty(n);
    let mut dag = Dag::empty(n);
    for &v in order {
        let choice = ilp.table().best_within(v, &before)?;
        dag.set_parents(v, choice.parents.clone());
        before.insert(v);
    }
    Some(dag)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bnsl_formulations::{Candidate, ScoreTable};

    #[test]
    fn rounds_a_cyclic_choice_into_a_dag() {
        let n = 3;
        let c = |ps: &[usize], s| Candidate {
            parents: VarSet::from_members(n, ps.iter().copied()),
            score: s,
        };
        let t = ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![
                vec![c(&[2], -1.0), c(&[], -3.0)],
                vec![c(&[0], -1.0), c(&[], -2.0)],
                vec![c(&[1], -1.0), c(&[], -5.0)],
            ],
        )
        .unwrap();
        let ilp = FamilyIlp::new(&t);
        // The cycle a <- c <- b <- a, each chosen fully.
        let values = vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
        let dag = round_to_dag(&ilp, &values).unwrap();
        let score = dag.check(&t).unwrap();
        // Breaking the cycle at b (b takes no parent, loss 1) is the best repair.
        assert_eq!(score, -4.0);
    }
}
