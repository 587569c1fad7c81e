//! The library as a user meets it first: read a score file, learn the optimal network
//! with SCIP's branch and cut under a time limit while a progress observer prints the
//! bound, stop the solve from another thread, then verify and print the DAG.
//!
//! ```sh
//! cargo run --release --features scip --example learn_with_scip -- \
//!     instances/scores/alarm_1000.BDeu1.palim3.jkl 30
//! ```
//! The second argument stops the solve after that many seconds (default: never).

use bnsl::fio::read_scores;
use bnsl::observe::Observer;
use bnsl::pipeline::{learn, LearnOptions, Method};
use bnsl::solvers::ilp::IlpProgress;
use std::path::PathBuf;
use std::time::Duration;

/// Prints every improvement of incumbent or bound.
struct PrintProgress;

impl Observer for PrintProgress {
    fn ilp(&self, p: &IlpProgress) {
        eprintln!(
            "incumbent {:?}  bound {:?}  cuts {}  nodes {}",
            p.incumbent, p.bound, p.cuts, p.nodes
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(
        args.next()
            .unwrap_or_else(|| "instances/scores/alarm_1000.BDeu1.palim3.jkl".into()),
    );
    let stop_after: Option<f64> = args.next().map(|s| s.parse()).transpose()?;
    let table = read_scores(&path)?.table;

    let mut options = LearnOptions::new(Method::Ilp);
    options.ilp.backend = Some("scip".into());
    options.ilp.options.limits.time_limit = Some(600.0);
    if let Some(seconds) = stop_after {
        // Any clone of the token stops the solve: here from a thread of our own.
        let token = options.stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(seconds));
            token.stop();
        });
    }
    let report = learn(&table, &options, &PrintProgress)?;

    // `learn` has checked the DAG against the table already; check it again here to
    // show how: acyclic, every parent set a candidate, the score recomputed.
    if let Some(dag) = &report.dag {
        let score = dag.check(&table)?;
        println!("verified score {score:.6}");
        for v in 0..table.n() {
            let parents: Vec<&str> = dag
                .parents(v)
                .iter()
                .map(|u| table.names()[u].as_str())
                .collect();
            println!("{} <- {}", table.names()[v], parents.join(", "));
        }
    }
    println!("{}", report.summary());
    Ok(())
}
