//! Times the exact DP oracle on a random score table.
//!
//! ```text
//! cargo run --release -p bnsl-solvers --example dp_scaling -- N [CANDIDATES_PER_NODE] [SEED]
//! /usr/bin/time -v target/release/examples/dp_scaling 24     # peak memory
//! ```
//!
//! Each node gets the empty set and up to CANDIDATES_PER_NODE (default 40) random parent
//! sets of one to three parents; about one node in ten loses its empty set, so some
//! subsets have no feasible sink.

use bnsl_formulations::{Candidate, ScoreTable, VarSet};
use bnsl_solvers::dp::{dp_memory_bytes, solve_dp, DpOptions};
use std::collections::HashSet;
use std::time::Instant;

/// SplitMix64, enough randomness for a benchmark table without extra dependencies.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

fn random_table(n: usize, per_node: usize, rng: &mut SplitMix) -> ScoreTable {
    let names = (0..n).map(|i| format!("x{i}")).collect();
    let candidates = (0..n)
        .map(|v| {
            let base = -1000.0 - rng.below(1000) as f64;
            let mut seen = HashSet::new();
            let mut list = Vec::new();
            if rng.below(10) != 0 {
                seen.insert(0u64);
                list.push(Candidate {
                    parents: VarSet::empty(n),
                    score: base,
                });
            }
            for _ in 0..per_node {
                let size = 1 + rng.below(3) as usize;
                let mut mask = 0u64;
                while (mask.count_ones() as usize) < size.min(n - 1) {
                    let u = rng.below(n as u64) as usize;
                    if u != v {
                        mask |= 1 << u;
                    }
                }
                if seen.insert(mask) {
                    let score =
                        base + rng.below(200) as f64 - 10.0 * size as f64 * rng.below(10) as f64;
                    list.push(Candidate {
                        parents: VarSet::from_mask(n, mask),
                        score,
                    });
                }
            }
            if list.is_empty() {
                list.push(Candidate {
                    parents: VarSet::empty(n),
                    score: base,
                });
            }
            list
        })
        .collect();
    ScoreTable::new(names, candidates).expect("random table is valid")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: dp_scaling N [CANDIDATES_PER_NODE] [SEED]";
    let n: usize = args.first().ok_or(usage)?.parse()?;
    let per_node: usize = args.get(1).map_or(Ok(40), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(1), |s| s.parse())?;
    if n < 2 {
        return Err("N must be at least 2".into());
    }
    let table = random_table(n, per_node, &mut SplitMix(seed));
    let estimate = dp_memory_bytes(n, table.total_candidates());
    let start = Instant::now();
    let outcome = solve_dp(&table, &DpOptions::default());
    let seconds = start.elapsed().as_secs_f64();
    let estimate_mib = estimate as f64 / (1 << 20) as f64;
    let candidates = table.total_candidates();
    match outcome {
        Ok(result) => {
            let checked = result.dag.check(&table)?;
            assert_eq!(
                checked, result.score,
                "reported score equals the checked score"
            );
            let arcs = result.dag.arc_count();
            println!(
                "n={n} candidates={candidates} estimate={estimate_mib:.0}MiB time={seconds:.2}s score={:.1} arcs={arcs}",
                result.score
            );
        }
        Err(e) => println!(
            "n={n} candidates={candidates} estimate={estimate_mib:.0}MiB time={seconds:.2}s: {e}"
        ),
    }
    Ok(())
}
