//! Obstructions to a treewidth bound: a subgraph of treewidth above the bound that loses
//! that property when any one of its edges is removed. Every graph of treewidth at most
//! the bound that lies inside the original graph lacks at least one edge of it (a
//! subgraph's treewidth never exceeds the graph's), which is what a search that
//! forbids edges branches on.

use super::exact::{treewidth, TreewidthLimits};
use super::Graph;

/// An edge-minimal subgraph of `graph` whose treewidth exceeds `width`, as its edges
/// (`(u, v)` with `u < v`); `None` when `graph`'s treewidth is not shown to exceed
/// `width` within `limits` (each width computation gets them anew). The edges of `keep`
/// (as `(u, v)`, `u < v`) that `graph` has are never removed: the subgraph is minimal in
/// its other edges.
///
/// Edges are tried for removal from the nodes of least degree on, so that what stays is
/// the densest part of the graph and the subgraph has few edges. An edge whose removal
/// leaves a width that `limits` do not settle is kept: the answer's width always
/// exceeds `width`, even when it is not minimal.
pub fn wider_subgraph(
    graph: &Graph,
    width: usize,
    keep: &[(usize, usize)],
    limits: &TreewidthLimits,
) -> Option<Vec<(usize, usize)>> {
    let degree = |v: usize| graph.neighbours(v).len();
    let mut trial_order: Vec<(usize, usize)> = graph.edges().collect();
    trial_order.sort_by_key(|&(u, v)| (degree(u).min(degree(v)), degree(u) + degree(v), u, v));
    wider_subgraph_removing(graph, width, keep, limits, &trial_order)
}

/// [`wider_subgraph`] with the edges tried for removal in the order `trial_order` (the
/// edges of `graph` it lacks stay): the later an edge comes, the likelier it is to stay.
pub fn wider_subgraph_removing(
    graph: &Graph,
    width: usize,
    keep: &[(usize, usize)],
    limits: &TreewidthLimits,
    trial_order: &[(usize, usize)],
) -> Option<Vec<(usize, usize)>> {
    let exceeds = |edges: &[(usize, usize)]| {
        treewidth(&Graph::from_edges(graph.n(), edges), limits).lower > width
    };
    let mut kept: Vec<(usize, usize)> = graph.edges().collect();
    if !exceeds(&kept) {
        return None;
    }
    for edge in trial_order.iter().filter(|e| !keep.contains(e)) {
        let without: Vec<(usize, usize)> = kept.iter().copied().filter(|e| e != edge).collect();
        if without.len() < kept.len() && exceeds(&without) {
            kept = without;
        }
    }
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(nodes: &[usize]) -> Vec<(usize, usize)> {
        let mut edges = Vec::new();
        for (i, &u) in nodes.iter().enumerate() {
            for &v in &nodes[i + 1..] {
                edges.push((u.min(v), u.max(v)));
            }
        }
        edges
    }

    #[test]
    fn a_clique_with_a_pendant_path_keeps_the_clique() {
        // K5 on 0..5 (treewidth 4) with a path 4-5-6-7 hanging off it.
        let mut edges = complete(&[0, 1, 2, 3, 4]);
        edges.extend([(4, 5), (5, 6), (6, 7)]);
        let g = Graph::from_edges(8, &edges);
        let mut found = wider_subgraph(&g, 3, &[], &TreewidthLimits::default()).unwrap();
        found.sort_unstable();
        assert_eq!(found, complete(&[0, 1, 2, 3, 4]));
        assert_eq!(
            wider_subgraph(&g, 4, &[], &TreewidthLimits::default()),
            None
        );
    }

    #[test]
    fn kept_edges_stay_and_the_rest_is_minimal() {
        // Two K4s sharing the edge 0-1 (treewidth 3). Kept: the second one's edges, so
        // the subgraph is that K4 whatever the trial order.
        let mut edges = complete(&[0, 1, 2, 3]);
        edges.extend(complete(&[0, 1, 4, 5]));
        let g = Graph::from_edges(6, &edges);
        let keep = complete(&[0, 1, 4, 5]);
        let mut found = wider_subgraph(&g, 2, &keep, &TreewidthLimits::default()).unwrap();
        found.sort_unstable();
        assert_eq!(found, keep);
    }

    #[test]
    fn the_answer_exceeds_the_width_and_is_edge_minimal() {
        // A 4 × 4 grid (treewidth 4) with one diagonal per cell: treewidth above 2.
        let at = |r: usize, c: usize| 4 * r + c;
        let mut edges = Vec::new();
        for r in 0..4 {
            for c in 0..4 {
                if c + 1 < 4 {
                    edges.push((at(r, c), at(r, c + 1)));
                }
                if r + 1 < 4 {
                    edges.push((at(r, c), at(r + 1, c)));
                }
                if r + 1 < 4 && c + 1 < 4 {
                    edges.push((at(r, c), at(r + 1, c + 1)));
                }
            }
        }
        let g = Graph::from_edges(16, &edges);
        let limits = TreewidthLimits::default();
        for width in 1..4 {
            let found = wider_subgraph(&g, width, &[], &limits).unwrap();
            let width_of =
                |edges: &[(usize, usize)]| treewidth(&Graph::from_edges(16, edges), &limits).upper;
            assert!(width_of(&found) > width);
            for k in 0..found.len() {
                let mut less = found.clone();
                less.remove(k);
                assert!(width_of(&less) <= width, "edge {:?} can go", found[k]);
            }
        }
    }

    #[test]
    fn the_edges_tried_last_are_the_ones_that_stay() {
        // Two disjoint K5s (each of treewidth 4): whichever comes last in the trial
        // order is the subgraph of treewidth above 3.
        let (first, second) = (complete(&[0, 1, 2, 3, 4]), complete(&[5, 6, 7, 8, 9]));
        let g = Graph::from_edges(10, &[first.clone(), second.clone()].concat());
        let limits = TreewidthLimits::default();
        for (early, late) in [(&first, &second), (&second, &first)] {
            let order = [early.clone(), late.clone()].concat();
            let mut found = wider_subgraph_removing(&g, 3, &[], &limits, &order).unwrap();
            found.sort_unstable();
            assert_eq!(&found, late);
        }
    }
}
