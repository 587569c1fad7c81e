use super::code::{Code, KTree, Symbol};
use super::*;
use bnsl_formulations::treewidth::{moral_graph, Graph};
use bnsl_formulations::Dag;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::collections::HashMap;

fn edges(tree: &KTree) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (u, ns) in tree.adjacent.iter().enumerate() {
        out.extend(ns.iter().filter(|&v| v > u).map(|v| (u, v)));
    }
    out
}

/// Every code of the k-trees on `n` nodes.
fn all_codes(n: usize, k: usize) -> Vec<Code> {
    let m = n - k;
    let symbols: Vec<Symbol> = std::iter::once(Symbol::Root)
        .chain((0..m).flat_map(|w| (0..k).map(move |i| Symbol::Node(w, i))))
        .collect();
    let mut roots = Vec::new();
    for mask in 0u32..(1 << n) {
        if mask.count_ones() as usize == k {
            roots.push((0..n).filter(|b| mask >> b & 1 == 1).collect::<Vec<_>>());
        }
    }
    let mut sequences: Vec<Vec<Symbol>> = vec![Vec::new()];
    for _ in 0..m.saturating_sub(1) {
        sequences = sequences
            .into_iter()
            .flat_map(|s| {
                symbols.iter().map(move |&x| {
                    let mut t = s.clone();
                    t.push(x);
                    t
                })
            })
            .collect();
    }
    roots
        .iter()
        .flat_map(|r| {
            sequences.iter().map(move |s| Code {
                root: r.clone(),
                sequence: s.clone(),
            })
        })
        .collect()
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Decoding every code gives every k-tree the same number of codes, k(n − k) + 1 (one
/// per root clique), and as many k-trees as Beineke & Pippert count: so a uniform code
/// is a uniform k-tree.
#[test]
fn every_k_tree_has_one_code_per_k_clique() {
    for (n, k) in [
        (3, 1),
        (4, 1),
        (5, 1),
        (4, 2),
        (5, 2),
        (6, 2),
        (5, 3),
        (6, 3),
    ] {
        let mut count: HashMap<Vec<(usize, usize)>, usize> = HashMap::new();
        for code in all_codes(n, k) {
            let tree = code.decode(n);
            assert_eq!(tree.joined.len(), n - k);
            let e = edges(&tree);
            assert_eq!(e.len(), k * (k - 1) / 2 + k * (n - k), "n {n} k {k}");
            *count.entry(e).or_default() += 1;
        }
        let cliques = k * (n - k) + 1;
        let expected = binomial(n, k) * cliques.pow((n - k - 2) as u32);
        assert_eq!(count.len(), expected, "n {n} k {k}");
        assert!(count.values().all(|&c| c == cliques), "n {n} k {k}");
    }
}

fn graph_of(tree: &KTree) -> Graph {
    let mut g = Graph::new(tree.adjacent.len());
    for (u, v) in edges(tree) {
        g.add_edge(u, v);
    }
    g
}

/// A k-tree sampled from `seed` and the network Version 2 finds in it.
fn sampled_network(table: &ScoreTable, k: usize, seed: u64) -> (KTree, Network) {
    let n = table.n();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let tree = Code::sample(n, k, &mut rng).decode(n);
    let before = orient(&tree, &mut rng);
    let net = best_within(table, &tree, &before).expect("the empty set fits");
    (tree, net)
}

proptest! {
    #[test]
    fn sampled_k_trees_have_width_k_and_version_2_fits_in_them(
        table in crate::test_tables::arb_table(8),
        k in 1usize..4,
        seed in any::<u64>(),
    ) {
        prop_assume!(table.n() > k + 1);
        let (tree, net) = sampled_network(&table, k, seed);
        let g = graph_of(&tree);
        prop_assert_eq!(g.elimination_width(&tree.elimination_order()), k);
        let dag = net.to_dag(&table);
        prop_assert!(dag.check(&table).is_ok());
        let moral = moral_graph(&dag);
        for (u, v) in moral.edges() {
            prop_assert!(g.has_edge(u, v));
        }
        prop_assert!(moral.elimination_width(&tree.elimination_order()) <= k);
    }
}

/// A restart count without a time limit gives the same answer on one thread and on
/// several, and the answer fits its elimination order.
#[test]
fn the_search_is_repeatable_and_within_the_bound() {
    let table = crate::test_tables::table_from(
        7,
        &(0..7)
            .map(|v| {
                vec![
                    (0b111_1111 ^ (1 << v), -3),
                    (0b000_0110, -5),
                    (0b101_0000, -7),
                ]
            })
            .collect::<Vec<_>>(),
    );
    for (version, climb_steps) in [
        (KtreeVersion::One, 0),
        (KtreeVersion::Two, 0),
        (KtreeVersion::One, 20),
        (KtreeVersion::Two, 20),
    ] {
        let opts = KtreeOptions {
            start: None,
            width: 2,
            version,
            time_limit: None,
            max_restarts: Some(200),
            climb_steps,
            seed: 9,
            stop: StopToken::new(),
        };
        let many = ktree_search(&table, &opts, &|_| {}).unwrap();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| ktree_search(&table, &opts, &|_| {}).unwrap());
        assert_eq!((many.dag.clone(), many.score), (one.dag, one.score));
        assert_eq!(many.restarts, 200);
        assert!(moral_graph(&many.dag).elimination_width(&many.elimination_order) <= 2);
    }
}

/// A table over `n` nodes in which each node is best with the two nodes before it as
/// parents (a chain of triangles, width 2, the optimum), else alone.
fn chain_of_triangles(n: usize) -> ScoreTable {
    let raw: Vec<Vec<(u32, i32)>> = (0..n)
        .map(|v| match v {
            0 => Vec::new(),
            1 => vec![(0b1, -10)],
            v => vec![
                ((0b11 << (v - 2)) as u32, -10),
                ((1 << (v - 1)) as u32, -40),
            ],
        })
        .collect();
    crate::test_tables::table_from(n, &raw)
}

/// A climb starts from the network its sampled k-tree gives and keeps the best it
/// meets, so it never ends below it; on a table whose good networks are rare among the
/// k-trees, it ends above it for most seeds.
#[test]
fn the_climb_never_loses_and_usually_gains() {
    let n = 10;
    let table = chain_of_triangles(n);
    let run = |seed: u64, climb_steps: u64| {
        let opts = KtreeOptions {
            start: None,
            width: 2,
            version: KtreeVersion::Two,
            time_limit: None,
            max_restarts: Some(1),
            climb_steps,
            seed,
            stop: StopToken::new(),
        };
        let (net, _) = climb(&table, 2, &opts, None, 0, &Budget::unlimited()).unwrap();
        net.score
    };
    let mut gains = 0;
    for seed in 0..20 {
        let (sampled, climbed) = (run(seed, 0), run(seed, 2_000));
        assert!(climbed >= sampled, "seed {seed}: {climbed} < {sampled}");
        gains += usize::from(climbed > sampled);
    }
    assert!(gains >= 10, "the climb gained on {gains} of 20 seeds");
}

/// The best score of a DAG of `table`'s candidates whose moral graph is a subgraph of
/// `tree`, by trying every choice of families (pruned by the best completion).
fn best_inside(table: &ScoreTable, tree: &KTree) -> f64 {
    fn choose(
        table: &ScoreTable,
        g: &Graph,
        v: usize,
        score: f64,
        chosen: &mut Vec<VarSet>,
        best: &mut f64,
    ) {
        let n = table.n();
        let rest: f64 = (v..n).map(|u| table.candidates(u)[0].score).sum();
        if score + rest <= *best {
            return;
        }
        if v == n {
            let dag = Dag::from_parents(chosen.clone());
            if dag.is_acyclic() && moral_graph(&dag).edges().all(|(a, b)| g.has_edge(a, b)) {
                *best = score;
            }
            return;
        }
        for c in table.candidates(v) {
            chosen[v] = c.parents.clone();
            choose(table, g, v + 1, score + c.score, chosen, best);
        }
    }
    let n = table.n();
    let mut best = f64::NEG_INFINITY;
    choose(
        table,
        &graph_of(tree),
        0,
        0.0,
        &mut vec![VarSet::empty(n); n],
        &mut best,
    );
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Version 1 finds the best DAG inside the k-tree (the complete one among them when
    /// n = k + 1), and so never does worse than Version 2 in the same k-tree.
    #[test]
    fn version_1_is_the_best_dag_inside_the_k_tree(
        table in crate::test_tables::arb_table(6),
        k in 0usize..4,
        seed in any::<u64>(),
    ) {
        let n = table.n();
        let k = k.min(n - 1);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let tree = Code::sample(n, k, &mut rng).decode(n);
        let net = exact::best_in_ktree(&table, &tree).expect("the empty set fits");
        let dag = net.to_dag(&table);
        prop_assert!(dag.check(&table).is_ok());
        let g = graph_of(&tree);
        prop_assert!(moral_graph(&dag).edges().all(|(a, b)| g.has_edge(a, b)));
        prop_assert!((net.score - best_inside(&table, &tree)).abs() < 1e-9);
        let version_2 = best_within(&table, &tree, &orient(&tree, &mut rng)).unwrap();
        prop_assert!(net.score >= version_2.score - 1e-9);
    }
}

/// On the complete k-tree (n = k + 1) Version 1 is the unbounded optimum.
#[test]
fn version_1_on_the_complete_k_tree_is_the_dp_optimum() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..32 {
        let table = crate::test_tables::arb_table(7)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let n = table.n();
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let tree = Code::sample(n, n - 1, &mut rng).decode(n);
        let net = exact::best_in_ktree(&table, &tree).unwrap();
        let dp = crate::dp::solve_dp(&table, &crate::dp::DpOptions::default()).unwrap();
        assert!(
            (net.score - dp.score).abs() < 1e-9,
            "{} vs {}",
            net.score,
            dp.score
        );
    }
}

/// Version 1 refuses widths beyond its limit.
#[test]
fn version_1_refuses_wide_k_trees() {
    let table = crate::test_tables::table_from(9, &vec![Vec::new(); 9]);
    let opts = KtreeOptions {
        start: None,
        width: VERSION_1_MAX_WIDTH + 1,
        version: KtreeVersion::One,
        time_limit: None,
        max_restarts: Some(1),
        climb_steps: 0,
        seed: 0,
        stop: StopToken::new(),
    };
    assert!(matches!(
        ktree_search(&table, &opts, &|_| {}),
        Err(HeuristicError::TooWide { .. })
    ));
}

/// Encoding a decoded k-tree gives back its code, for every code of small k-trees.
#[test]
fn encoding_inverts_decoding() {
    for (n, k) in [(3, 1), (5, 1), (5, 2), (6, 2), (6, 3), (4, 0)] {
        for code in all_codes(n, k) {
            assert_eq!(code.decode(n).code(), code, "n {n} k {k}");
        }
    }
}

/// The DAG in which every node of a k-tree takes as parents the whole clique it joined
/// (the root clique's nodes those before them): its moral graph is the k-tree.
fn dag_of_ktree(tree: &KTree) -> Dag {
    let n = tree.adjacent.len();
    let mut dag = Dag::empty(n);
    for (i, &v) in tree.root.iter().enumerate() {
        dag.set_parents(v, VarSet::from_members(n, tree.root[..i].iter().copied()));
    }
    for &v in &tree.joined {
        dag.set_parents(v, VarSet::from_members(n, tree.clique[v].iter().copied()));
    }
    dag
}

proptest! {
    /// The covering k-tree is a k-tree whose code decodes to it; of a DAG whose moral
    /// graph is a k-tree it is that k-tree; and a wider DAG loses only edges.
    #[test]
    fn the_covering_k_tree_keeps_a_narrow_dag_whole(
        n in 3usize..12,
        k in 1usize..4,
        seed in any::<u64>(),
    ) {
        prop_assume!(n > k + 1);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let tree = Code::sample(n, k, &mut rng).decode(n);
        let narrow = dag_of_ktree(&tree);
        let covering = start::covering_ktree(&narrow, k, None);
        prop_assert_eq!(edges(&covering), edges(&tree));
        let wide = dag_of_ktree(&Code::sample(n, k + 1, &mut rng).decode(n));
        let covering = start::covering_ktree(&wide, k, None);
        let g = graph_of(&covering);
        prop_assert_eq!(g.edge_count(), k * (k - 1) / 2 + k * (n - k));
        prop_assert_eq!(g.elimination_width(&covering.elimination_order()), k);
        prop_assert_eq!(edges(&covering.code().decode(n)), edges(&covering));
    }
}

/// A restart started from a network of width at most k finds a network at least as good
/// without a single climbing step, by either version; sampling alone does not.
#[test]
fn a_start_that_fits_is_kept() {
    let n = 10;
    let table = chain_of_triangles(n);
    let mut chain = Dag::empty(n);
    for v in 1..n {
        chain.set_parents(v, VarSet::from_members(n, v.saturating_sub(2)..v));
    }
    let optimum = chain.check(&table).unwrap();
    let run = |version, start: Option<Dag>, seed| {
        let opts = KtreeOptions {
            width: 2,
            version,
            time_limit: None,
            max_restarts: Some(1),
            climb_steps: 0,
            seed,
            start,
            stop: StopToken::new(),
        };
        ktree_search(&table, &opts, &|_| {}).unwrap()
    };
    for version in [KtreeVersion::One, KtreeVersion::Two] {
        let started = run(version, Some(chain.clone()), 3);
        assert!((started.score - optimum).abs() < 1e-9);
        assert!(moral_graph(&started.dag).elimination_width(&started.elimination_order) <= 2);
    }
    let sampled = (0..5).filter(|&seed| run(KtreeVersion::Two, None, seed).score < optimum - 1e-9);
    assert!(sampled.count() >= 3);
}

proptest! {
    /// Polishing never loses, stays acyclic, and its elimination order shows width at
    /// most k.
    #[test]
    fn polishing_never_loses_and_keeps_the_width(
        table in crate::test_tables::arb_table(8),
        k in 1usize..4,
        seed in any::<u64>(),
    ) {
        prop_assume!(table.n() > k + 1);
        let (tree, net) = sampled_network(&table, k, seed);
        let (polished, order) = polish::polish(
            &table,
            net.clone(),
            tree.elimination_order(),
            k,
            &Budget::unlimited(),
        );
        prop_assert!(polished.score >= net.score);
        let dag = polished.to_dag(&table);
        prop_assert!((dag.check(&table).unwrap() - polished.score).abs() < 1e-9);
        prop_assert!(moral_graph(&dag).elimination_width(&order) <= k);
    }
}

/// Where neither node gains alone, the pair move reverses their arc: 1 gives up its
/// parent 0 (from -9 to -100) so that 0 can take 1 (from -100 to -5).
#[test]
fn polishing_reverses_an_arc_that_no_single_node_gives_up() {
    let table =
        crate::test_tables::table_from(3, &[vec![(0b010, -10)], vec![(0b001, -18)], vec![]]);
    let position = |v: usize, members: &[usize]| {
        let parents = VarSet::from_members(3, members.iter().copied());
        table
            .candidates(v)
            .iter()
            .position(|c| c.parents == parents)
            .unwrap()
    };
    let start = Network::from_choice(&table, vec![position(0, &[]), position(1, &[0]), 0]);
    let (polished, order) = polish::polish(&table, start, vec![0, 1, 2], 1, &Budget::unlimited());
    assert_eq!(
        polished.choice,
        vec![position(0, &[1]), position(1, &[]), 0]
    );
    assert!((polished.score - -205.0).abs() < 1e-9);
    assert!(moral_graph(&polished.to_dag(&table)).elimination_width(&order) <= 1);
}

/// A start network that is cyclic or over other nodes is refused.
#[test]
fn a_bad_start_is_refused() {
    let table = crate::test_tables::table_from(4, &vec![Vec::new(); 4]);
    let mut cyclic = Dag::empty(4);
    cyclic.set_parents(0, VarSet::from_members(4, [1]));
    cyclic.set_parents(1, VarSet::from_members(4, [0]));
    for start in [cyclic, Dag::empty(5)] {
        let opts = KtreeOptions {
            width: 1,
            version: KtreeVersion::Two,
            time_limit: None,
            max_restarts: Some(1),
            climb_steps: 0,
            seed: 0,
            start: Some(start),
            stop: StopToken::new(),
        };
        assert!(matches!(
            ktree_search(&table, &opts, &|_| {}),
            Err(HeuristicError::BadStart(_))
        ));
    }
}
