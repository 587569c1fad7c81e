//! The plain encoding against every choice of families, and the WCNF files round trip.

use super::bnsl::{encode_bnsl, BnslEncoding};
use super::wcnf_format::{
    count_vars, read_cnf, read_family_map, read_solution, write_wcnf, WcnfFormat,
};
use crate::{Candidate, Dag, ScoreTable, VarSet};
use proptest::prelude::*;

/// Tables of 2 to 4 nodes: the empty set and up to 3 random parent sets each, scores
/// with decimals.
fn tables() -> impl Strategy<Value = ScoreTable> {
    (2usize..=4).prop_flat_map(|n| {
        proptest::collection::vec(
            proptest::collection::vec((0u32..(1 << n), -9_000_000i64..-1), 0..4),
            n,
        )
        .prop_map(move |raw| {
            let candidates = raw
                .iter()
                .enumerate()
                .map(|(v, list)| {
                    let mut out = vec![Candidate {
                        parents: VarSet::empty(n),
                        score: -95_000.123_456_7,
                    }];
                    for &(mask, s) in list {
                        let mask = mask & !(1 << v);
                        let parents =
                            VarSet::from_members(n, (0..n).filter(|b| mask >> b & 1 == 1));
                        if out.iter().all(|c| c.parents != parents) {
                            out.push(Candidate {
                                parents,
                                score: s as f64 / 97.0,
                            });
                        }
                    }
                    out
                })
                .collect();
            ScoreTable::new((0..n).map(|i| format!("x{i}")).collect(), candidates).unwrap()
        })
    })
}

/// Every choice of one candidate per node, as candidate indices.
fn choices(table: &ScoreTable) -> Vec<Vec<usize>> {
    let mut all = vec![Vec::new()];
    for v in 0..table.n() {
        all = all
            .into_iter()
            .flat_map(|c| {
                (0..table.candidates(v).len()).map(move |i| {
                    let mut c = c.clone();
                    c.push(i);
                    c
                })
            })
            .collect();
    }
    all
}

fn dag_of(table: &ScoreTable, choice: &[usize]) -> Dag {
    Dag::from_parents(
        choice
            .iter()
            .enumerate()
            .map(|(v, &i)| table.candidates(v)[i].parents.clone())
            .collect(),
    )
}

/// The assignments of `choice` (its families and their counters) with every order of
/// the pairs: those a cyclic choice would need.
fn with_every_order(enc: &BnslEncoding, table: &ScoreTable, choice: &[usize]) -> Vec<Vec<bool>> {
    let n = table.n();
    let empty = Dag::empty(n);
    let mut base = enc.assignment(table, &empty).unwrap();
    for (v, &i) in choice.iter().enumerate() {
        enc.set_family(&mut base, v, i);
    }
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    (0..1u32 << pairs.len())
        .map(|mask| {
            let mut value = base.clone();
            for (k, &(a, b)) in pairs.iter().enumerate() {
                value[enc.before(a, b) as usize] = mask >> k & 1 == 1;
            }
            value
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// An acyclic choice has an assignment that satisfies every hard clause, costs its
    /// rounded weights and decodes to it; a cyclic one has none, whatever the order; so
    /// the least cost is the best DAG's.
    #[test]
    fn the_hard_clauses_hold_exactly_for_dags(table in tables()) {
        let enc = encode_bnsl(&table);
        let scale = 10f64.powi(enc.digits as i32);
        let mut best_score = f64::NEG_INFINITY;
        let mut least_cost = u64::MAX;
        for choice in choices(&table) {
            let dag = dag_of(&table, &choice);
            if dag.is_acyclic() {
                let value = enc.assignment(&table, &dag).expect("a DAG of candidates");
                let cost = enc.wcnf.cost(&value).expect("the hard clauses hold");
                let score = dag.check(&table).unwrap();
                prop_assert!(((enc.offset - score) * scale - cost as f64).abs() <= table.n() as f64);
                prop_assert_eq!(enc.family_map(&table).decode(&value).unwrap().0, dag);
                best_score = best_score.max(score);
                least_cost = least_cost.min(cost);
            } else {
                for value in with_every_order(&enc, &table, &choice) {
                    prop_assert_eq!(enc.wcnf.cost(&value), None);
                }
            }
        }
        let tolerance = table.n() as f64 * 0.5 / scale + 1e-9;
        prop_assert!((enc.offset - least_cost as f64 / scale - best_score).abs() <= tolerance);
    }
}

/// Both file layouts carry the same clauses and family map; a solver's answer in
/// either `v` convention decodes to the network it encodes, with its score.
#[test]
fn wcnf_files_round_trip() {
    let n = 3;
    let set = |m: &[usize]| VarSet::from_members(n, m.iter().copied());
    let c = |parents: &[usize], score| Candidate {
        parents: set(parents),
        score,
    };
    let table = ScoreTable::new(
        vec!["a".into(), "b".into(), "c".into()],
        vec![
            vec![c(&[], -10.25), c(&[2], -9.5)],
            vec![c(&[], -10.0), c(&[0], -4.125)],
            vec![c(&[0, 1], -2.0), c(&[], -10.0)],
        ],
    )
    .unwrap();
    let enc = encode_bnsl(&table);
    let mut dag = Dag::empty(n);
    dag.set_parents(1, set(&[0]));
    dag.set_parents(2, set(&[0, 1]));
    let value = enc.assignment(&table, &dag).unwrap();
    for format in [WcnfFormat::Current, WcnfFormat::Old] {
        let mut text = Vec::new();
        write_wcnf(&enc.wcnf, &enc.comments(&table), format, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(count_vars(&text), enc.wcnf.num_vars as usize, "{format:?}");
        let hard = text
            .lines()
            .filter(|l| match format {
                WcnfFormat::Current => l.starts_with("h "),
                WcnfFormat::Old => l.starts_with(&format!("{} ", enc.wcnf.total_weight() + 1)),
            })
            .count();
        assert_eq!(hard, enc.wcnf.hard.len(), "{format:?}");
        let map = read_family_map(&text).unwrap();
        assert_eq!(map.names, ["a", "b", "c"]);
        let literals: Vec<String> = (1..value.len())
            .map(|v| {
                if value[v] {
                    v.to_string()
                } else {
                    format!("-{v}")
                }
            })
            .collect();
        let bits: String = value[1..]
            .iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect();
        for answer in [
            format!("s OPTIMUM FOUND\nv {}\n", literals.join(" ")),
            format!("v {bits}\n"),
        ] {
            let read = read_solution(&answer, enc.wcnf.num_vars as usize).unwrap();
            let (decoded, score) = map.decode_with(|v| read.value(v)).unwrap();
            assert_eq!(decoded, dag);
            assert_eq!(score, dag.check(&table).unwrap());
        }
    }
    // a <- c and c <- {a, b}: a cycle, refused whatever the order variables say.
    let mut cyclic = value.clone();
    let a_from_c = table
        .candidates(0)
        .iter()
        .position(|c| c.parents == set(&[2]))
        .unwrap();
    enc.set_family(&mut cyclic, 0, a_from_c);
    assert_eq!(
        enc.family_map(&table).decode(&cyclic).map(|d| d.0),
        Err(super::bnsl::DecodeError::Cyclic)
    );
    let mut text = Vec::new();
    write_wcnf(
        &enc.wcnf,
        &enc.comments(&table),
        WcnfFormat::Current,
        &mut text,
    )
    .unwrap();
    let map = read_family_map(&String::from_utf8(text).unwrap()).unwrap();
    assert!(map
        .decode(&cyclic)
        .unwrap_err()
        .to_string()
        .contains("directed cycle"));
    assert!(read_solution("s UNKNOWN\n", 3).is_err());
    assert!(read_solution("v 1 -99 0\n", 3)
        .unwrap_err()
        .contains("beyond"));
    assert!(read_family_map("c hello\nh 1 0\n")
        .unwrap_err()
        .contains("not a model written by bnsl"));
}

// Found by the `wcnf_family_map` fuzz target: a node index was a vector's length, so
// one line asked for gigabytes.
#[test]
fn family_map_refuses_a_node_index_beyond_its_node_lines() {
    let e = read_family_map("c bnsl node 666500000 a\n").unwrap_err();
    assert_eq!(
        e,
        "line 1: node index 666500000 is beyond the 1 `c bnsl node` lines of the file \
         (nodes are numbered from 0)"
    );
    let e = read_family_map("c bnsl node 0 a\nc bnsl node 2 c\n").unwrap_err();
    assert!(
        e.starts_with("line 2: node index 2 is beyond the 2 "),
        "{e}"
    );
    // A node given twice keeps its last name, as before.
    let map = read_family_map("c bnsl node 1 b\nc bnsl node 0 a\nc bnsl node 0 z\n").unwrap();
    assert_eq!(map.names, ["z", "b"]);
}

// Found by the `wcnf_solution` fuzz target: the answer was a vector indexed by variable,
// as long as the model's variable count (which `count_vars` takes from the header or any
// large number in a clause) and then as long as the largest variable in the answer.
#[test]
fn solution_is_sized_by_its_literals_not_by_the_numbers_in_them() {
    let model = "w 500001500001 0\n";
    assert_eq!(count_vars(model), 500001500001);
    let value = read_solution("v -1 2 50000500001\n", count_vars(model)).unwrap();
    assert_eq!(value.true_vars(), [2, 50000500001]);
    assert!(!value.value(1) && value.value(2) && !value.value(3));
    let value = read_solution("v 1 -1 3 -2\n", usize::MAX).unwrap();
    assert_eq!(value.true_vars(), [3]);
    let value = read_solution("v 0110\n", 1 << 40).unwrap();
    assert_eq!(value.true_vars(), [2, 3]);
    assert!(read_solution("v 3\n", 2)
        .unwrap_err()
        .contains("beyond the 2"));
}

// Found by the `cnf` fuzz target: a second header replaced the first, so clauses read
// under it could hold literals beyond the variable count returned.
#[test]
fn cnf_refuses_a_second_header() {
    assert_eq!(
        read_cnf("p cnf 20 1\n14 0\np cnf 6 1\n").unwrap_err(),
        "line 3: a second `p cnf` header"
    );
    assert_eq!(
        read_cnf("c x\np cnf 2 2\n1 -2 0\n2 0\n").unwrap(),
        (2, vec![vec![1, -2], vec![2]])
    );
}
