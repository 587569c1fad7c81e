//! `bnsl verify`: check a DAG against a score file (acyclic, every parent set a
//! candidate, total score recomputed) or against data (acyclic, score recomputed).

use super::out;
use super::scoring_args::ScoringArgs;
use anyhow::{bail, Context};
use bnsl::certificate::read_certificate;
use bnsl::dag_io::read_dag_file;
use bnsl::data::load_data;
use bnsl::fio::read_scores;
use bnsl::formulations::treewidth::moral_graph;
use bnsl::formulations::{Dag, ScoreTable};
use bnsl::pb_proof::{check_pb_proof, is_pb_proof};
use bnsl::proof::check_proof;
use bnsl::scores::LocalScorer;
use bnsl::treewidth::{answer_limits, dag_treewidth, read_decomposition};
use std::path::PathBuf;

/// Arguments of `bnsl verify`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["scores", "data"])))]
pub(crate) struct Args {
    /// Score file the DAG must be built from.
    #[arg(long)]
    pub scores: Option<PathBuf>,
    /// Data set to recompute the family scores from (with --score/--ess).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The DAG (parent lists, model string, JSON with `parents`, or a BIF network
    /// whose graph is checked, e.g. the true network of sampled data). With
    /// --certificate it may be left out: the certificate's DAG is checked.
    #[arg(long, required_unless_present = "certificate")]
    pub dag: Option<PathBuf>,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Fail unless the recomputed total score equals this value (within 1e-6).
    #[arg(long, allow_negative_numbers = true)]
    pub expect: Option<f64>,
    /// Fail unless the DAG's treewidth (of its moral graph) is at most W: shown by the
    /// decomposition of --decomposition when given, else by bnsl's own search.
    #[arg(long, value_name = "W", allow_negative_numbers = true, value_parser = super::parse_width)]
    pub treewidth: Option<usize>,
    /// A tree decomposition of the DAG's moral graph (JSON with `bags` of names and
    /// `edges` between bags, as `bnsl learn --treewidth W --json` and `bnsl treewidth
    /// -o` write it), checked bag by bag against the moral graph.
    #[arg(long, value_name = "FILE", requires = "treewidth")]
    pub decomposition: Option<PathBuf>,
    /// A proof of the DAG's optimality written by `bnsl learn --proof DIR`: its formula
    /// (CNF, or OPB for `--proof-format veripb`) is rebuilt from --scores and the DAG and
    /// compared, and its refutation (DRAT, or VeriPB cutting planes) checked by bnsl's
    /// own checker (not the program that wrote it).
    #[arg(long, value_name = "DIR", requires = "scores")]
    pub proof: Option<PathBuf>,
    /// A certificate of the DAG's optimality written by `bnsl learn --certificate
    /// FILE`, checked against --scores in exact rational arithmetic with no solver: the
    /// DAG is a network of the table, and every leaf's dual solution bounds every
    /// network of its side within 1e-6 of the DAG's score.
    #[arg(long, value_name = "FILE", requires = "scores")]
    pub certificate: Option<PathBuf>,
    /// Print one JSON object with the checks to stdout.
    #[arg(long)]
    pub json: bool,
}

/// The DAG of the file at `path` over `names`; the nodes it does not list are said on
/// stderr, since they get no parents.
fn read_listed(path: &std::path::Path, names: &[String]) -> anyhow::Result<Dag> {
    let file = read_dag_file(path, names)?;
    if !file.unlisted.is_empty() {
        let unlisted: Vec<&str> = file.unlisted.iter().map(|&v| names[v].as_str()).collect();
        eprintln!(
            "note: {} does not list {}: they get no parents",
            path.display(),
            unlisted.join(", ")
        );
    }
    Ok(file.dag)
}

/// The width at most `bound` that shows the DAG's treewidth: the width of the checked
/// decomposition of `--decomposition`, or of bnsl's own search; an error when neither
/// shows the bound.
fn check_width(args: &Args, dag: &Dag, names: &[String], bound: usize) -> anyhow::Result<usize> {
    let moral = moral_graph(dag);
    if let Some(path) = &args.decomposition {
        let decomposition = read_decomposition(path, names)?;
        let width = decomposition.check(&moral).map_err(|e| {
            anyhow::anyhow!(
                "{} is not a tree decomposition of the DAG's moral graph: {e}",
                path.display()
            )
        })?;
        if width > bound {
            bail!(
                "{} has width {width}, above the bound {bound}",
                path.display()
            );
        }
        return Ok(width);
    }
    let (shown, lower) = dag_treewidth(dag, None, &answer_limits()).map_err(anyhow::Error::msg)?;
    match (shown.width <= bound, shown.exact) {
        (true, _) => Ok(shown.width),
        (false, true) => bail!(
            "the DAG has treewidth {}, above the bound {bound}",
            shown.width
        ),
        (false, false) => bail!(
            "no decomposition of width at most {bound} found (best {}, lower bound {lower}); \
             give one with --decomposition",
            shown.width
        ),
    }
}

/// Checks the certificate at `file` against the table of `scores` (exactly) and
/// returns its DAG.
fn check_certificate(
    file: &std::path::Path,
    table: &ScoreTable,
    scores: &std::path::Path,
) -> anyhow::Result<Dag> {
    let certificate = read_certificate(file, table)?;
    let check = certificate.check(table).with_context(|| {
        format!(
            "the certificate {} is rejected against {}",
            file.display(),
            scores.display()
        )
    })?;
    eprintln!(
        "certificate checked (exact arithmetic): {} leaves, {} branches, {} inequalities; \
         no network scores above {} (the DAG's score + {:.2e})",
        check.leaves,
        check.branches,
        check.inequalities,
        check.bound,
        check.gap()
    );
    Ok(certificate.dag)
}

/// Runs `bnsl verify`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let (score, dag, names) = match (&args.scores, &args.data) {
        (Some(path), _) => {
            args.scoring.check_score_file(path)?;
            let table = read_scores(path)?.table;
            let certified = match &args.certificate {
                Some(file) => Some(check_certificate(file, &table, path)?),
                None => None,
            };
            let (dag, dag_path) = match (&args.dag, certified) {
                (Some(dag_path), certified) => {
                    let dag = read_listed(dag_path, table.names())?;
                    if certified.is_some_and(|c| c != dag) {
                        bail!(
                            "{} is not the DAG that the certificate shows optimal",
                            dag_path.display()
                        );
                    }
                    (dag, dag_path.clone())
                }
                (None, Some(dag)) => (dag, args.certificate.clone().expect("given")),
                (None, None) => unreachable!("clap requires --dag or --certificate"),
            };
            let score = dag.check(&table).with_context(|| {
                format!("{} fails against {}", dag_path.display(), path.display())
            })?;
            if let Some(dir) = &args.proof {
                let rejected = || format!("the proof in {} is rejected", dir.display());
                if is_pb_proof(dir) {
                    let checked = check_pb_proof(&table, &dag, dir).with_context(rejected)?;
                    eprintln!(
                        "proof checked (cutting planes): {} formula constraints, {} steps by reverse unit propagation, {} linear combinations",
                        checked.formula, checked.rup, checked.pol
                    );
                } else {
                    let checked = check_proof(&table, &dag, dir).with_context(rejected)?;
                    eprintln!(
                        "proof checked: {} lemmas ({} by RAT), {} deletions",
                        checked.lemmas, checked.rat_lemmas, checked.deletions
                    );
                }
            }
            (score, dag, table.names().to_vec())
        }
        (None, Some(path)) => {
            let data = load_data(path, &args.scoring.data.load_options()?)?;
            let names = data.names();
            let dag_path = args
                .dag
                .as_ref()
                .expect("clap requires --dag without --certificate");
            let dag = read_listed(dag_path, &names)?;
            let score = LocalScorer::new(&data, args.scoring.kind()?).score_dag(&dag)?;
            (score, dag, names)
        }
        (None, None) => unreachable!("clap requires --scores or --data"),
    };
    let (arcs, n) = (dag.arc_count(), dag.n());
    let width = match args.treewidth {
        Some(bound) => Some(check_width(&args, &dag, &names, bound)?),
        None => None,
    };
    let matches = args.expect.map(|want| (score - want).abs() <= 1e-6);
    if args.json {
        let obj = serde_json::json!({
            "acyclic": true, "candidates": args.scores.is_some(), "score": score,
            "nodes": n, "arcs": arcs, "expected": args.expect, "matches_expected": matches,
            "treewidth_bound": args.treewidth, "treewidth_shown": width,
            "proof_checked": args.proof.is_some(),
            "certificate_checked": args.certificate.is_some(),
        });
        out(format_args!("{obj}\n"))?;
    } else {
        let width = width.map_or(String::new(), |w| {
            format!(
                ", treewidth at most {w} (bound {})",
                args.treewidth.unwrap_or(w)
            )
        });
        out(format_args!(
            "ok: {n} nodes, {arcs} arcs, acyclic, score {score:.6}{width}\n"
        ))?;
    }
    if let (Some(want), Some(false)) = (args.expect, matches) {
        bail!("the DAG scores {score:.9}, not the expected {want:.9}");
    }
    Ok(())
}
