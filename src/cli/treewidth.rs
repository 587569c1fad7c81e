//! `bnsl treewidth`: the treewidth of a DAG (of its moral graph), with the tree
//! decomposition that shows it.

use super::out;
use super::scoring_args::ScoringArgs;
use anyhow::Context;
use bnsl::dag_io::{read_dag_alone, read_dag_file};
use bnsl::data::load_data;
use bnsl::fio::read_scores;
use bnsl::formulations::treewidth::TreewidthLimits;
use bnsl::treewidth::{dag_treewidth, WidthCertificate};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `bnsl treewidth`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The DAG (parent lists, model string, JSON with `parents`, or a BIF network).
    pub dag: PathBuf,
    /// Take the variable names from this score file (by default, from the DAG file).
    #[arg(long, conflicts_with = "data")]
    pub scores: Option<PathBuf>,
    /// Take the variable names from this data set.
    #[arg(long)]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Seconds the search for the exact width may take; past them, the width printed is
    /// the best decomposition found, with a lower bound.
    #[arg(long, value_name = "S", default_value_t = 60.0, value_parser = super::parse_seconds)]
    pub time_limit: f64,
    /// Write the decomposition (JSON, as --json prints it) to this file, for
    /// `bnsl verify --decomposition`.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Print one JSON object (treewidth, exact, lower_bound, elimination_order,
    /// decomposition) to stdout.
    #[arg(long)]
    pub json: bool,
}

/// Runs `bnsl treewidth`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let (names, dag) = match (&args.scores, &args.data) {
        (Some(path), _) => {
            let names = read_scores(path)?.table.names().to_vec();
            let dag = read_dag_file(&args.dag, &names)?.dag;
            (names, dag)
        }
        (None, Some(path)) => {
            let names = load_data(path, &args.scoring.data.load_options()?)?.names();
            let dag = read_dag_file(&args.dag, &names)?.dag;
            (names, dag)
        }
        (None, None) => read_dag_alone(&args.dag)?,
    };
    let began = Instant::now();
    let limits = TreewidthLimits {
        deadline: Some(began + Duration::from_secs_f64(args.time_limit)),
        max_nodes: None,
    };
    let (shown, lower) = dag_treewidth(&dag, None, &limits).map_err(anyhow::Error::msg)?;
    let report = report_json(&shown, lower, &names, began.elapsed().as_secs_f64());
    if let Some(path) = &args.output {
        std::fs::write(path, format!("{report}\n"))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        return Ok(out(format_args!("{report}\n"))?);
    }
    let bound = match shown.exact {
        true => "exact".to_string(),
        false => format!("not proven: at least {lower}, search stopped at --time-limit"),
    };
    out(format_args!("treewidth {} ({bound})\n", shown.width))?;
    let order: Vec<&str> = shown.order.iter().map(|&v| names[v].as_str()).collect();
    out(format_args!("elimination order: {}\n", order.join(" ")))?;
    out(format_args!(
        "tree decomposition ({} bags):\n",
        shown.decomposition.bags.len()
    ))?;
    let mut parent = vec![None; shown.decomposition.bags.len()];
    for &(a, b) in &shown.decomposition.edges {
        parent[a] = Some(b);
    }
    for (b, bag) in shown.decomposition.bags.iter().enumerate() {
        let members: Vec<&str> = bag.iter().map(|&v| names[v].as_str()).collect();
        let joined = parent[b].map_or(String::new(), |p| format!("  - joined to bag {p}"));
        out(format_args!(
            "  bag {b}: {{{}}}{joined}\n",
            members.join(", ")
        ))?;
    }
    Ok(())
}

/// The JSON object of `bnsl treewidth --json`.
fn report_json(
    shown: &WidthCertificate,
    lower: usize,
    names: &[String],
    time_s: f64,
) -> serde_json::Value {
    let mut object = serde_json::Map::new();
    for (key, value) in shown.json_fields(names) {
        object.insert(key.into(), value);
    }
    object.insert("lower_bound".into(), json!(lower));
    object.insert("nodes".into(), json!(names.len()));
    object.insert("time_s".into(), json!(time_s));
    serde_json::Value::Object(object)
}
