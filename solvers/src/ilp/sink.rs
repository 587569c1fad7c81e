//! The sink heuristic: rounds a (fractional) solution of the family ILP into a DAG.
//!
//! Nodes are placed from last to first: among the nodes not yet placed, each may take
//! any parent set inside the others; the node whose best such parent set has the largest
//! solution value (ties: the smaller loss of score against its best candidate) becomes
//! the sink of the remaining nodes. The order found this way is then improved as in
//! Scanagatta et al. 2015, §4: OBS (every node takes its best-scoring candidate among its predecessors,
//! never worse than the rounded choice) with the swap local search, and ASOBS on the
//! final order (never worse than OBS on it, Theorem 3).

use crate::heuristics::{asobs_network, swap_search, Budget, Network};
use bnsl_formulations::{Dag, FamilyIlp, VarSet};

/// A DAG made of candidates of `ilp`'s table, guided by `values` (one per column).
/// `None` only when no DAG can be built from the candidates placed this way (some node
/// has no candidate inside any set of remaining nodes, e.g. under required arcs).
pub(super) fn round_to_dag(ilp: &FamilyIlp<'_>, values: &[f64]) -> Option<Dag> {
    round_to_network(ilp, values).map(|network| network.to_dag(ilp.table()))
}

/// [`round_to_dag`] as a choice of candidate per node.
pub(crate) fn round_to_network(ilp: &FamilyIlp<'_>, values: &[f64]) -> Option<Network> {
    let table = ilp.table();
    let order = sink_order(ilp, values)?;
    let (order, obs) = swap_search(table, order, &Budget::unlimited())?;
    Some(match asobs_network(table, &order) {
        Some(asobs) if asobs.score > obs.score => asobs,
        _ => obs,
    })
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
