//! Tests of the exact DP against brute force over all orders, a plain bitmask DP, hand
//! examples with known optima, and its error cases.

use super::*;
use bnsl_formulations::Candidate;
use proptest::prelude::*;
use std::collections::HashSet;

/// Per node, candidate parent sets as masks over the *other* variables (bit `b` = the
/// `b`-th variable other than the node) with integer scores.
type RawNodes = Vec<Vec<(u32, i32)>>;

fn others(v: usize, mask: u32, n: usize) -> impl Iterator<Item = usize> {
    (0..n)
        .filter(move |&u| u != v)
        .enumerate()
        .filter(move |(b, _)| mask >> b & 1 == 1)
        .map(|(_, u)| u)
}

/// A table from raw nodes; repeated parent sets keep their first score. Scores are
/// halves of integers, so every sum below is exact.
fn table_from(nodes: &RawNodes) -> ScoreTable {
    let n = nodes.len();
    let names = (0..n).map(|i| format!("x{i}")).collect();
    let candidates = nodes
        .iter()
        .enumerate()
        .map(|(v, list)| {
            let mut seen = HashSet::new();
            list.iter()
                .filter(|(mask, _)| seen.insert(*mask))
                .map(|&(mask, s)| Candidate {
                    parents: VarSet::from_members(n, others(v, mask, n)),
                    score: f64::from(s) / 2.0,
                })
                .collect()
        })
        .collect();
    ScoreTable::new(names, candidates).expect("valid random table")
}

fn explicit(n: usize, lists: &[&[(&[usize], f64)]]) -> ScoreTable {
    let names = (0..n).map(|i| format!("x{i}")).collect();
    let candidates = lists
        .iter()
        .map(|list| {
            list.iter()
                .map(|(ps, s)| Candidate {
                    parents: VarSet::from_members(n, ps.iter().copied()),
                    score: *s,
                })
                .collect()
        })
        .collect();
    ScoreTable::new(names, candidates).expect("valid hand table")
}

/// `n` variables whose only candidate is the empty set, scoring 0.
fn empty_only(n: usize) -> ScoreTable {
    ScoreTable::new(
        (0..n).map(|i| format!("x{i}")).collect(),
        (0..n)
            .map(|_| {
                vec![Candidate {
                    parents: VarSet::empty(n),
                    score: 0.0,
                }]
            })
            .collect(),
    )
    .expect("valid table")
}

/// The best score over all orders of the variables, each node taking its best candidate
/// among its predecessors; `None` when no order admits every node.
fn brute_force(table: &ScoreTable) -> Option<f64> {
    fn extend(table: &ScoreTable, placed: &VarSet, left: &[usize]) -> Option<f64> {
        if left.is_empty() {
            return Some(0.0);
        }
        let mut best: Option<f64> = None;
        for (i, &v) in left.iter().enumerate() {
            let Some(cand) = table.best_within(v, placed) else {
                continue;
            };
            let rest: Vec<usize> = left
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &u)| u)
                .collect();
            if let Some(tail) = extend(table, &placed.with(v), &rest) {
                let total = cand.score + tail;
                best = Some(best.map_or(total, |b| b.max(total)));
            }
        }
        best
    }
    let all: Vec<usize> = (0..table.n()).collect();
    extend(table, &VarSet::empty(table.n()), &all)
}

/// A plain DP over bit masks with the same tie breaking (smallest sink index wins),
/// finding `bps` by scanning the candidate lists.
fn bitmask_dp(table: &ScoreTable) -> Option<Dag> {
    let n = table.n();
    let size = 1usize << n;
    let mut best = vec![f64::NEG_INFINITY; size];
    let mut sink = vec![usize::MAX; size];
    best[0] = 0.0;
    for set in 1..size {
        for v in (0..n).filter(|&v| set >> v & 1 == 1) {
            let rest = set & !(1 << v);
            if let Some(cand) = table.best_within(v, &VarSet::from_mask(n, rest as u64)) {
                let value = best[rest] + cand.score;
                if value > best[set] {
                    best[set] = value;
                    sink[set] = v;
                }
            }
        }
    }
    if best[size - 1] == f64::NEG_INFINITY {
        return None;
    }
    let mut dag = Dag::empty(n);
    let mut set = size - 1;
    while set != 0 {
        let v = sink[set];
        set &= !(1 << v);
        let cand = table
            .best_within(v, &VarSet::from_mask(n, set as u64))
            .expect("feasible path");
        dag.set_parents(v, cand.parents.clone());
    }
    Some(dag)
}

/// Random raw nodes for `n` in `sizes`: up to `max_list` candidates per node, masks the
/// AND of `density` random words (sparser for larger `density`), and the empty set
/// added with probability `p_empty`.
fn arb_nodes(
    sizes: std::ops::RangeInclusive<usize>,
    max_list: usize,
    density: usize,
    p_empty: f64,
) -> impl Strategy<Value = RawNodes> {
    sizes.prop_flat_map(move |n| {
        let bits = 1u32 << (n - 1);
        let entry = (prop::collection::vec(0..bits, density), -40i32..=0)
            .prop_map(|(words, s)| (words.into_iter().fold(u32::MAX, |a, w| a & w), s));
        let node = (
            prop::collection::vec(entry, 1..=max_list),
            prop::bool::weighted(p_empty),
            -40i32..=0,
        )
            .prop_map(|(mut list, with_empty, s)| {
                if with_empty {
                    list.push((0, s));
                }
                list
            });
        prop::collection::vec(node, n)
    })
}

fn check_against_table(table: &ScoreTable, result: &DpResult) {
    assert!(result.dag.is_acyclic());
    assert_eq!(result.dag.check(table), Ok(result.score));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn matches_brute_force_over_orders(nodes in arb_nodes(1..=6, 6, 1, 0.3)) {
        let table = table_from(&nodes);
        match (solve_dp(&table, &DpOptions::default()), brute_force(&table)) {
            (Ok(result), Some(best)) => {
                check_against_table(&table, &result);
                prop_assert_eq!(result.score, best);
            }
            (Err(DpError::Infeasible), None) => {}
            (dp, brute) => prop_assert!(false, "dp {:?} but brute force {:?}", dp, brute),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn matches_bitmask_dp_across_chunkings(nodes in arb_nodes(7..=11, 10, 2, 0.7), chunk in 1usize..=5) {
        let table = table_from(&nodes);
        let layered = solve_in_chunks(&table, &DpOptions::default(), chunk);
        match (layered, bitmask_dp(&table)) {
            (Ok(result), Some(dag)) => {
                check_against_table(&table, &result);
                prop_assert_eq!(&result.dag, &dag);
                prop_assert_eq!(Ok(result), solve_dp(&table, &DpOptions::default()));
            }
            (Err(DpError::Infeasible), None) => {}
            (dp, plain) => prop_assert!(false, "layered {:?} but bitmask {:?}", dp, plain),
        }
    }
}

#[test]
fn ranks_follow_colex_order() {
    let binom = Binomials::new();
    for k in 1..=10 {
        let mut mask = (1u64 << k) - 1;
        for rank in 0..binom.get(10, k) {
            assert_eq!(binom.rank(mask), rank);
            assert_eq!(binom.unrank(rank, k), mask);
            mask = next_same_size(mask);
        }
        assert!(mask >> 10 != 0, "all {k}-subsets of 10 visited");
    }
}

#[test]
fn mutual_preference_picks_the_better_direction() {
    // x0 prefers x1 as parent (gain 4), x1 prefers x0 (gain 1): only one arc fits.
    let table = explicit(
        2,
        &[&[(&[], -5.0), (&[1], -1.0)], &[(&[], -3.0), (&[0], -2.0)]],
    );
    let result = solve_dp(&table, &DpOptions::default()).unwrap();
    assert_eq!(result.score, -4.0);
    assert_eq!(result.dag.parents(0).to_vec(), vec![1]);
    assert!(result.dag.parents(1).is_empty());
}

#[test]
fn node_without_empty_set_forces_its_parents() {
    // x2 can only take {x0, x1}; x0 would like x2 as parent but that closes a cycle.
    let table = explicit(
        3,
        &[
            &[(&[], -2.0), (&[2], 0.0)],
            &[(&[], -1.0)],
            &[(&[0, 1], -1.0)],
        ],
    );
    let result = solve_dp(&table, &DpOptions::default()).unwrap();
    check_against_table(&table, &result);
    assert_eq!(result.score, -4.0);
    assert_eq!(result.dag.parents(2).to_vec(), vec![0, 1]);
    assert!(result.dag.parents(0).is_empty());
}

#[test]
fn best_network_is_not_the_greedy_choice() {
    // A v-structure x0 -> x2 <- x1 against the arcs x2 -> x0 and x2 -> x1 preferred
    // one at a time: 2 + 2 = 4 gained by x0, x1 from x2 loses to 6 gained by x2.
    let table = explicit(
        3,
        &[
            &[(&[], -10.0), (&[2], -8.0)],
            &[(&[], -10.0), (&[2], -8.0)],
            &[(&[], -10.0), (&[0], -9.0), (&[0, 1], -4.0)],
        ],
    );
    let result = solve_dp(&table, &DpOptions::default()).unwrap();
    check_against_table(&table, &result);
    assert_eq!(result.score, -24.0);
    assert_eq!(result.dag.parents(2).to_vec(), vec![0, 1]);
}

#[test]
fn empty_table_gives_empty_network() {
    let table = ScoreTable::new(Vec::new(), Vec::new()).unwrap();
    let result = solve_dp(&table, &DpOptions::default()).unwrap();
    assert_eq!(
        result,
        DpResult {
            dag: Dag::empty(0),
            score: 0.0
        }
    );
}

#[test]
fn cyclic_only_candidates_are_infeasible() {
    let two = explicit(2, &[&[(&[1], 0.0)], &[(&[0], 0.0)]]);
    assert_eq!(
        solve_dp(&two, &DpOptions::default()),
        Err(DpError::Infeasible)
    );
    let three = explicit(
        3,
        &[
            &[(&[2], 0.0)],
            &[(&[0], 0.0)],
            &[(&[1], 0.0), (&[0, 1], 1.0)],
        ],
    );
    assert_eq!(
        solve_dp(&three, &DpOptions::default()),
        Err(DpError::Infeasible)
    );
}

#[test]
fn refuses_too_many_variables() {
    let table = empty_only(5);
    let opts = DpOptions {
        max_variables: 4,
        ..DpOptions::default()
    };
    assert_eq!(
        solve_dp(&table, &opts),
        Err(DpError::TooManyVariables { n: 5, max: 4 })
    );

    let wide = empty_only(33);
    let opts = DpOptions {
        max_variables: 64,
        ..DpOptions::default()
    };
    assert_eq!(
        solve_dp(&wide, &opts),
        Err(DpError::TooManyVariables {
            n: 33,
            max: HARD_MAX_VARIABLES
        })
    );
}

#[test]
fn refuses_beyond_the_memory_budget() {
    let table = empty_only(10);
    let needed = dp_memory_bytes(10, 10);
    let opts = DpOptions {
        memory_limit_bytes: needed - 1,
        ..DpOptions::default()
    };
    let err = solve_dp(&table, &opts).unwrap_err();
    assert_eq!(
        err,
        DpError::MemoryLimit {
            n: 10,
            needed_bytes: needed,
            limit_bytes: needed - 1
        }
    );
    assert!(err.to_string().contains("10 variables"));
    assert!(solve_dp(
        &table,
        &DpOptions {
            memory_limit_bytes: needed,
            ..DpOptions::default()
        }
    )
    .is_ok());
}

#[test]
fn memory_estimate_fits_25_variables_in_a_few_gib() {
    let bytes = dp_memory_bytes(25, 25 * 1000);
    assert!(bytes > 1 << 30 && bytes < 2 << 30, "estimate {bytes}");
}

/// A time limit or a stopped token ends the DP between two chunks of subsets: it then
/// has no network and says how far it got.
#[test]
fn a_time_limit_or_a_stop_ends_the_dp_without_a_network() {
    let table = empty_only(24);
    let stop = StopToken::new();
    stop.stop();
    let stopped = DpOptions {
        stop,
        ..DpOptions::default()
    };
    assert_eq!(
        solve_dp(&table, &stopped),
        Err(DpError::Stopped { layers: 0, n: 24 })
    );
    let timed = DpOptions {
        time_limit: Some(std::time::Duration::ZERO),
        ..DpOptions::default()
    };
    assert!(matches!(
        solve_dp(&table, &timed),
        Err(DpError::Stopped { n: 24, .. })
    ));
    let small = empty_only(6);
    let generous = DpOptions {
        time_limit: Some(std::time::Duration::from_secs(600)),
        ..DpOptions::default()
    };
    assert!(solve_dp(&small, &generous).is_ok());
}
