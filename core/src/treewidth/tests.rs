use super::*;
use proptest::prelude::*;

fn grid(rows: usize, cols: usize) -> Graph {
    let mut g = Graph::new(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let v = r * cols + c;
            if c + 1 < cols {
                g.add_edge(v, v + 1);
            }
            if r + 1 < rows {
                g.add_edge(v, v + cols);
            }
        }
    }
    g
}

fn exact(g: &Graph) -> usize {
    let result = treewidth(g, &TreewidthLimits::default());
    assert!(result.is_exact());
    let decomposition = TreeDecomposition::from_elimination(g, &result.order);
    assert_eq!(decomposition.check(g), Ok(result.upper));
    result.upper
}

/// The least width over every elimination order.
fn brute_force(g: &Graph) -> usize {
    fn permute(g: &Graph, order: &mut Vec<usize>, used: &mut Vec<bool>, best: &mut usize) {
        if order.len() == g.n() {
            *best = (*best).min(g.elimination_width(order));
            return;
        }
        for v in 0..g.n() {
            if !used[v] {
                used[v] = true;
                order.push(v);
                permute(g, order, used, best);
                order.pop();
                used[v] = false;
            }
        }
    }
    let mut best = usize::MAX;
    permute(g, &mut Vec::new(), &mut vec![false; g.n()], &mut best);
    if g.n() == 0 {
        0
    } else {
        best
    }
}

#[test]
fn the_moral_graph_joins_co_parents() {
    let mut dag = Dag::empty(4);
    dag.set_parents(2, crate::VarSet::from_members(4, [0, 1]));
    dag.set_parents(3, crate::VarSet::from_members(4, [2]));
    let m = moral_graph(&dag);
    assert!(m.has_edge(0, 1) && m.has_edge(0, 2) && m.has_edge(1, 2) && m.has_edge(2, 3));
    assert_eq!(m.edge_count(), 4);
    assert_eq!(exact(&m), 2);
}

#[test]
fn classic_graphs_have_their_known_treewidth() {
    assert_eq!(exact(&Graph::new(0)), 0);
    assert_eq!(exact(&Graph::new(5)), 0);
    assert_eq!(
        exact(&Graph::from_edges(5, &[(0, 1), (1, 2), (1, 3), (3, 4)])),
        1
    );
    let cycle: Vec<(usize, usize)> = (0..8).map(|i| (i, (i + 1) % 8)).collect();
    assert_eq!(exact(&Graph::from_edges(8, &cycle)), 2);
    let complete: Vec<(usize, usize)> = (0..7)
        .flat_map(|i| (i + 1..7).map(move |j| (i, j)))
        .collect();
    assert_eq!(exact(&Graph::from_edges(7, &complete)), 6);
    assert_eq!(exact(&grid(3, 3)), 3);
    assert_eq!(exact(&grid(5, 5)), 5);
    assert_eq!(exact(&grid(6, 6)), 6);
    let petersen = Graph::from_edges(
        10,
        &[
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 0),
            (0, 5),
            (1, 6),
            (2, 7),
            (3, 8),
            (4, 9),
            (5, 7),
            (7, 9),
            (9, 6),
            (6, 8),
            (8, 5),
        ],
    );
    assert_eq!(exact(&petersen), 4);
    assert!(minor_min_width(&petersen) <= 4);
}

#[test]
fn a_limited_search_reports_valid_bounds() {
    let g = grid(8, 8);
    let limits = TreewidthLimits {
        deadline: None,
        max_nodes: Some(10),
    };
    let result = treewidth(&g, &limits);
    assert!(result.lower <= 8 && result.upper >= 8, "{result:?}");
    assert_eq!(g.elimination_width(&result.order), result.upper);
}

#[test]
fn the_check_rejects_what_is_not_a_decomposition() {
    let g = Graph::from_edges(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]);
    let good = TreeDecomposition::from_elimination(&g, &[0, 1, 2, 3]);
    assert_eq!(good.check(&g), Ok(2));
    let uncovered = TreeDecomposition {
        bags: vec![vec![0, 1], vec![1, 2], vec![2, 3]],
        edges: vec![(0, 1), (1, 2)],
    };
    assert_eq!(
        uncovered.check(&g),
        Err(DecompositionError::EdgeUncovered(0, 3))
    );
    let split = TreeDecomposition {
        bags: vec![vec![0, 1, 3], vec![1, 2], vec![2, 3]],
        edges: vec![(0, 1), (1, 2)],
    };
    assert_eq!(split.check(&g), Err(DecompositionError::Disconnected(3)));
    let cyclic = TreeDecomposition {
        bags: vec![vec![0, 1, 3], vec![1, 2, 3], vec![3]],
        edges: vec![(0, 1), (1, 0)],
    };
    assert!(matches!(
        cyclic.check(&g),
        Err(DecompositionError::NotATree { .. })
    ));
    let missing = TreeDecomposition {
        bags: vec![vec![0, 1, 3]],
        edges: vec![],
    };
    assert_eq!(missing.check(&g), Err(DecompositionError::NodeUncovered(2)));
    let stranger = TreeDecomposition {
        bags: vec![vec![0, 1, 2, 3, 4]],
        edges: vec![],
    };
    assert_eq!(
        stranger.check(&g),
        Err(DecompositionError::UnknownNode { node: 4, n: 4 })
    );
}

fn random_graph(max_n: usize) -> impl Strategy<Value = Graph> {
    (1..=max_n).prop_flat_map(|n| {
        prop::collection::vec(prop::bool::weighted(0.4), n * (n - 1) / 2).prop_map(move |bits| {
            let mut g = Graph::new(n);
            let mut k = 0;
            for u in 0..n {
                for v in u + 1..n {
                    if bits[k] {
                        g.add_edge(u, v);
                    }
                    k += 1;
                }
            }
            g
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_exact_width_is_the_least_over_all_orders(g in random_graph(7)) {
        let tw = exact(&g);
        prop_assert_eq!(tw, brute_force(&g));
        prop_assert!(minor_min_width(&g) <= tw);
        for rule in [Greedy::MinFill, Greedy::MinDegree] {
            prop_assert!(g.elimination_width(&greedy_order(&g, rule)) >= tw);
        }
    }

    #[test]
    fn every_order_gives_a_valid_decomposition(g in random_graph(12), seed in any::<u64>()) {
        let mut order: Vec<usize> = (0..g.n()).collect();
        let mut state = seed | 1;
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let d = TreeDecomposition::from_elimination(&g, &order);
        prop_assert_eq!(d.check(&g), Ok(g.elimination_width(&order)));
    }
}
