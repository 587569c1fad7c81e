//! `bnsl mb`: Markov blankets of one or all variables by BAMB, IAMB or HITON-MB with G² tests, and
//! their accuracy against a true network.

use super::out;
use super::scoring_args::DataArgs;
use anyhow::Context;
use bnsl::data::{load_data, read_bif, DataSet};
use bnsl::mb::{
    accuracy, discover_all, target_index, Accuracy, Algorithm, CiOptions, CiTester, TargetRun,
    TruthMap,
};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `bnsl mb`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["target", "all"])))]
pub(crate) struct Args {
    /// Data set: CSV (with or without header) or a `.dat` layout.
    pub data: PathBuf,
    /// The target variable (by name).
    #[arg(long)]
    pub target: Option<String>,
    /// Every variable as a target, in data order.
    #[arg(long)]
    pub all: bool,
    /// Discovery algorithm.
    #[arg(long, value_enum, default_value_t = Algorithm::Bamb)]
    pub algorithm: Algorithm,
    /// Significance level of the G² tests (independent when p > alpha).
    #[arg(long, default_value_t = bnsl::mb::ci_test::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// A test with fewer rows than this many per degree of freedom is not performed
    /// (it then neither adds nor removes a variable).
    #[arg(long, default_value_t = bnsl::mb::ci_test::DEFAULT_MIN_ROWS_PER_DOF)]
    pub min_rows_per_dof: f64,
    /// Accept constant columns (independent of everything, with an empty blanket)
    /// instead of refusing the data.
    #[arg(long)]
    pub allow_constant: bool,
    /// The true network: also print precision, recall and F1 against its blankets.
    #[arg(long, value_name = "NETWORK.bif")]
    pub truth: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub input: DataArgs,
}

/// Runs `bnsl mb`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let data = load_data(&args.data, &args.input.load_options()?)?;
    let opts = CiOptions {
        alpha: args.alpha,
        min_rows_per_dof: args.min_rows_per_dof,
        allow_constant: args.allow_constant,
    };
    let mut ci = CiTester::new(&data, opts).with_context(|| format!("{}", args.data.display()))?;
    let targets = match &args.target {
        Some(name) => vec![target_index(&ci, name)?],
        None => (0..data.n_vars()).collect(),
    };
    let truth_net = args.truth.as_deref().map(read_bif).transpose()?;
    let truth = truth_net
        .as_ref()
        .map(|net| TruthMap::new(net, &data))
        .transpose()
        .with_context(|| format!("--truth {}", args.truth.as_ref().unwrap().display()))?;
    let bar = super::progress::counter("targets");
    let start = Instant::now();
    let runs = discover_all(&mut ci, &targets, args.algorithm, &|_| bar.inc(1));
    let time_s = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let accs: Option<Vec<Accuracy>> = truth.as_ref().map(|t| {
        runs.iter()
            .map(|r| accuracy(&r.blanket.mb, &t.blanket(r.target).mb()))
            .collect()
    });
    let summary = Summary {
        data: &data,
        runs: &runs,
        accs: accs.as_deref(),
        computed: ci.performed(),
        time_s,
    };
    if args.json {
        out(format_args!("{}\n", summary.json(&args)))?;
    } else {
        summary.print(&args)?;
    }
    Ok(())
}

/// Everything printed about a run.
struct Summary<'a> {
    data: &'a DataSet,
    runs: &'a [TargetRun],
    accs: Option<&'a [Accuracy]>,
    computed: u64,
    time_s: f64,
}

impl Summary<'_> {
    fn names(&self, vars: &[usize]) -> Vec<String> {
        vars.iter()
            .map(|&v| self.data.variables()[v].name.clone())
            .collect()
    }

    fn total_tests(&self) -> u64 {
        self.runs.iter().map(|r| r.ci_tests).sum()
    }

    /// Mean precision, recall and F1 over the targets.
    fn means(&self) -> Option<(f64, f64, f64)> {
        let accs = self.accs?;
        let k = accs.len().max(1) as f64;
        let sum = |f: fn(&Accuracy) -> f64| accs.iter().map(f).sum::<f64>() / k;
        Some((sum(|a| a.precision), sum(|a| a.recall), sum(|a| a.f1)))
    }

    fn json(&self, args: &Args) -> Value {
        let targets: Vec<Value> = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut o = json!({
                    "target": self.data.variables()[r.target].name,
                    "mb": self.names(&r.blanket.mb),
                    "pc": r.blanket.pc.as_ref().map(|s| self.names(s)),
                    "spouses": r.blanket.spouses.as_ref().map(|s| self.names(s)),
                    "ci_tests": r.ci_tests,
                    "time_s": r.time_s,
                });
                if let Some(a) = self.accs.map(|a| a[i]) {
                    o["precision"] = json!(a.precision);
                    o["recall"] = json!(a.recall);
                    o["f1"] = json!(a.f1);
                }
                o
            })
            .collect();
        let mut o = json!({
            "data": args.data.display().to_string(),
            "algorithm": args.algorithm.as_str(),
            "alpha": args.alpha,
            "min_rows_per_dof": args.min_rows_per_dof,
            "rows": self.data.n_rows(),
            "targets": targets,
            "ci_tests": self.total_tests(),
            "ci_tests_computed": self.computed,
            "time_s": self.time_s,
        });
        if let Some((p, r, f)) = self.means() {
            o["mean_precision"] = json!(p);
            o["mean_recall"] = json!(r);
            o["mean_f1"] = json!(f);
        }
        o
    }

    fn print(&self, args: &Args) -> std::io::Result<()> {
        let set = |vars: &[usize]| format!("{{{}}}", self.names(vars).join(", "));
        for (i, r) in self.runs.iter().enumerate() {
            let mut line = format!(
                "{}: MB {}",
                self.data.variables()[r.target].name,
                set(&r.blanket.mb)
            );
            if let (Some(pc), Some(sp)) = (&r.blanket.pc, &r.blanket.spouses) {
                line += &format!(" = PC {} + spouses {}", set(pc), set(sp));
            }
            line += &format!("; {} CI tests, {:.4} s", r.ci_tests, r.time_s);
            if let Some(a) = self.accs.map(|a| a[i]) {
                line += &format!(
                    "; precision {:.3} recall {:.3} F1 {:.3}",
                    a.precision, a.recall, a.f1
                );
            }
            out(format_args!("{line}\n"))?;
        }
        let mut line = format!(
            "{} ({}, alpha {}): {} targets, {} CI tests ({} computed), {:.4} s",
            args.data.display(),
            args.algorithm.as_str(),
            args.alpha,
            self.runs.len(),
            self.total_tests(),
            self.computed,
            self.time_s
        );
        if let Some((p, r, f)) = self.means() {
            line += &format!("; mean precision {p:.3} recall {r:.3} F1 {f:.3}");
        }
        out(format_args!("{line}\n"))
    }
}
