//! `bnsl learn --collect`: every network within a Bayes factor of the optimum (seed 002),
//! its Markov equivalence classes and edge probabilities.

use super::learn::{constraints, Args};
use super::{out, INTERRUPTED};
use anyhow::{bail, Context};
use bnsl::collection::{
    collect, CollectEngine, CollectOptions, Collected, EdgeProbabilities, COLLECT_TOLERANCE,
    DEFAULT_MAX_NETWORKS,
};
use bnsl::dag_io::parents_map;
use bnsl::ilp::Formulation;
use bnsl::pipeline::{is_data_file, load_problem, Method};
use bnsl_formulations::equivalence::Cpdag;
use bnsl_solvers::enumerate::EnumerationEnd;
use bnsl_solvers::interrupt;
use bnsl_solvers::StopToken;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Options of `--collect`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("collect_bound").args(["bayes_factor", "epsilon"])))]
pub(crate) struct CollectArgs {
    /// Collect every network within a Bayes factor (--bayes-factor) or a score
    /// difference (--epsilon) of the optimum, grouped into Markov equivalence classes,
    /// instead of one optimal network (seed 002). The search: an enumeration after the
    /// optimum, part by part of the candidate graph, when it can take its strongly
    /// connected parts (up to 25 variables always, up to 64 when their cluster bound is
    /// tight); the family ILP otherwise (or with --method ilp).
    #[arg(long)]
    pub collect: bool,
    /// BF ≥ 1: collect the networks whose posterior is within a factor BF of the best
    /// (ε = ln BF).
    #[arg(
        long,
        value_name = "BF",
        requires = "collect",
        allow_negative_numbers = true
    )]
    pub bayes_factor: Option<f64>,
    /// ε ≥ 0: collect the networks scoring at least OPT − ε.
    #[arg(
        long,
        value_name = "E",
        requires = "collect",
        allow_negative_numbers = true
    )]
    pub epsilon: Option<f64>,
    /// Stop after this many networks (the paper's limit).
    #[arg(long, value_name = "K", requires = "collect", default_value_t = DEFAULT_MAX_NETWORKS)]
    pub max_networks: usize,
    /// Write the collected networks to this file, one JSON object per line (score,
    /// class, parents), best first.
    #[arg(long, value_name = "FILE.jsonl", requires = "collect")]
    pub collect_out: Option<PathBuf>,
    /// Write the arc probabilities to this CSV file: a header of names, then one row per
    /// parent, one column per child.
    #[arg(long, value_name = "FILE.csv", requires = "collect")]
    pub edges_out: Option<PathBuf>,
    /// Make the ILP search meet every DAG. Without it, the search skips the DAGs with a
    /// covered arc u → v, u > v, whose reversal gives a DAG of candidates scoring the
    /// same, and completes the class of each DAG it meets; under BIC or BDeu (which give
    /// Markov-equivalent DAGs equal scores) it then meets one DAG or a few per class.
    /// The networks collected are the same.
    #[arg(long, requires = "collect")]
    pub every_dag: bool,
}

impl CollectArgs {
    /// ε from --bayes-factor or --epsilon, validated.
    fn epsilon(&self) -> anyhow::Result<f64> {
        match (self.bayes_factor, self.epsilon) {
            (Some(bf), _) if bf.is_finite() && bf >= 1.0 => Ok(bf.ln()),
            (Some(bf), _) => bail!("--bayes-factor must be a finite number ≥ 1, got {bf}"),
            (None, Some(e)) if e.is_finite() && e >= 0.0 => Ok(e),
            (None, Some(e)) => bail!("--epsilon must be a finite number ≥ 0, got {e}"),
            (None, None) => bail!("--collect needs --bayes-factor BF or --epsilon E"),
        }
    }
}

/// Runs `bnsl learn --collect`: exit code 0, or [`INTERRUPTED`] after Ctrl+C.
pub(super) fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    let epsilon = args.collect.epsilon()?;
    let engine = engine(&args)?;
    if args.output.is_some() || args.format.is_some() {
        bail!("--collect writes its networks with --collect-out FILE.jsonl, not -o/--format");
    }
    if args.treewidth.is_some() {
        bail!("--collect gathers networks of any treewidth: --treewidth does not apply");
    }
    let data = is_data_file(&args.input, args.input_kind);
    if data {
        set_pruning_gap(&mut args, epsilon)?;
    } else {
        args.scoring.check_score_file(&args.input)?;
        eprintln!(
            "note: {} must have been pruned with a gap of at least ε = {epsilon:.6} (`bnsl \
             score --prune-gap {epsilon:.6}`), or networks within ε are missing: a score \
             file does not record its gap",
            args.input.display()
        );
    }
    let setup = args.scoring.setup()?;
    let observer = super::progress::TerminalObserver::new(false);
    let table = load_problem(&args.input, args.input_kind, &setup, &observer)?;
    let constraints = constraints(&args, &table)?;
    let table = match constraints.restrict_if_any(&table) {
        Ok(Some(restricted)) => restricted,
        Ok(None) => table,
        Err(why) => bail!("no DAG satisfies the constraints: {why}"),
    };
    let options = CollectOptions {
        epsilon,
        max_networks: args.collect.max_networks,
        time_limit: args.run.time_limit.map(Duration::from_secs_f64),
        stop: StopToken::new(),
        engine,
        whole_classes: !args.collect.every_dag,
    };
    interrupt::catch_ctrl_c(&options.stop);
    let shown = super::progress::CollectionProgress::new(args.ilp.log_progress);
    let collected = collect(&table, &options, &|event| shown.record(event));
    shown.finish();
    let collected = collected?;
    let interrupted = options.stop.is_stopped();
    let edges = EdgeProbabilities::of(&collected);
    let names = table.names();
    if let Some(path) = &args.collect.collect_out {
        write_networks(path, &collected, names)?;
    }
    if let Some(path) = &args.collect.edges_out {
        write_edges(path, &edges, names)?;
    }
    let status = status(collected.end, interrupted);
    if args.json {
        let summary = summary_json(&collected, &edges, names, &args, status);
        out(format_args!("{summary}\n"))?;
    } else {
        out(format_args!(
            "{}",
            summary_text(&collected, &edges, names, status)
        ))?;
    }
    Ok(if interrupted {
        ExitCode::from(INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The collecting search the flags ask for: `--method dp` the enumeration, `--method
/// ilp` (or an ILP flag such as `--backend`) the family ILP, neither the enumeration
/// where its parts are small enough and the ILP otherwise. Flags that do not apply to
/// the chosen search are refused.
fn engine(args: &Args) -> anyhow::Result<CollectEngine> {
    let ilp_flags = !args.ilp.given_flags().is_empty();
    let method = match args.method {
        None if ilp_flags => Some(Method::Ilp),
        m => m,
    };
    args.search.check_used_by(Method::Dp, None)?;
    if args.ilp.formulation != Formulation::Family {
        bail!("--collect runs on the family formulation: drop --formulation");
    }
    match method {
        None => Ok(CollectEngine::Auto),
        Some(Method::Dp) => {
            args.ilp.check_used_by(Method::Dp, false)?;
            Ok(CollectEngine::Enumeration)
        }
        Some(Method::Ilp) => {
            if args.ilp.gap.is_some() || args.ilp.warm_start.is_some() {
                bail!("--collect searches every network within ε: --gap and --warm-start do not apply");
            }
            let settings = args.ilp.settings(&args.run, &args.search);
            Ok(CollectEngine::Ilp {
                backend: settings.backend,
                backend_params: settings.backend_params,
                options: settings.options,
            })
        }
        Some(other) => bail!(
            "--collect is exact: --method dp (optimum by DP, then an enumeration) or --method \
             ilp (the family ILP), not {}",
            other.name()
        ),
    }
}

/// Sets the pruning gap for scoring data: ε plus the collection tolerance, unless
/// `--prune-gap` says more; a smaller gap, or no pruning, is refused or kept as asked.
fn set_pruning_gap(args: &mut Args, epsilon: f64) -> anyhow::Result<()> {
    let needed = epsilon + COLLECT_TOLERANCE;
    match args.scoring.prune_gap {
        Some(gap) if gap < needed => bail!(
            "--prune-gap {gap} is below ε + {COLLECT_TOLERANCE} = {needed}: pruning would drop \
             parent sets of networks within ε; give at least {needed} or leave it out"
        ),
        Some(_) => {}
        None if args.scoring.no_prune => {}
        None => args.scoring.prune_gap = Some(needed),
    }
    Ok(())
}

/// The status word of a collection.
fn status(end: EnumerationEnd, interrupted: bool) -> &'static str {
    match (end, interrupted) {
        (EnumerationEnd::Complete, _) => "complete",
        (EnumerationEnd::NetworkLimit, _) => "limit",
        (EnumerationEnd::Stopped, true) => "interrupted",
        (EnumerationEnd::Stopped, false) => "time",
    }
}

/// One JSON object per network, best first.
fn write_networks(path: &Path, c: &Collected, names: &[String]) -> anyhow::Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut w = std::io::BufWriter::new(file);
    for net in &c.networks {
        let line = json!({
            "score": net.score, "class": net.class, "parents": parents_map(&net.dag, names),
        });
        writeln!(w, "{line}").with_context(|| format!("cannot write {}", path.display()))?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The arc probabilities as a CSV matrix (row: parent, column: child).
fn write_edges(path: &Path, edges: &EdgeProbabilities, names: &[String]) -> anyhow::Result<()> {
    let mut text = format!("parent,{}\n", names.join(","));
    for (a, row) in edges.arc.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|p| format!("{p:.6}")).collect();
        text.push_str(&format!("{},{}\n", names[a], cells.join(",")));
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// A CPDAG as text: `a -> b` for compelled arcs, `a -- b` for reversible edges.
fn cpdag_text(c: &Cpdag, names: &[String]) -> String {
    let arcs = c
        .directed
        .iter()
        .map(|&(a, b)| format!("{} -> {}", names[a], names[b]));
    let edges = c
        .undirected
        .iter()
        .map(|&(a, b)| format!("{} -- {}", names[a], names[b]));
    let all: Vec<String> = arcs.chain(edges).collect();
    if all.is_empty() {
        "(no edges)".into()
    } else {
        all.join(", ")
    }
}

fn summary_json(
    c: &Collected,
    edges: &EdgeProbabilities,
    names: &[String],
    args: &Args,
    status: &str,
) -> Value {
    let arcs: Vec<Value> = edges
        .sorted_arcs()
        .into_iter()
        .map(|(a, b, p)| json!({"from": names[a], "to": names[b], "probability": p}))
        .collect();
    let classes: Vec<Value> = c
        .classes
        .iter()
        .map(|k| {
            json!({
                "networks": k.networks, "best_score": k.best_score,
                "cpdag": {
                    "directed": k.cpdag.directed.iter().map(|&(a, b)| [&names[a], &names[b]]).collect::<Vec<_>>(),
                    "undirected": k.cpdag.undirected.iter().map(|&(a, b)| [&names[a], &names[b]]).collect::<Vec<_>>(),
                },
            })
        })
        .collect();
    json!({
        "opt": c.opt, "epsilon": c.epsilon, "bayes_factor": c.epsilon.exp(),
        "tolerance": COLLECT_TOLERANCE, "in_tolerance": c.in_tolerance,
        "networks": c.networks.len(), "classes": c.classes.len(),
        "collider_classes": c.collider_classes, "status": status,
        "time_s": c.time_s, "time_to_opt_s": c.time_to_opt_s,
        "engine": c.engine, "backend": c.backend, "whole_classes": c.whole_classes,
        "max_networks": args.collect.max_networks,
        "class_list": classes, "arc_probabilities": arcs,
    })
}

/// Classes and arcs shown in the text summary.
const SHOWN: usize = 10;

fn summary_text(
    c: &Collected,
    edges: &EdgeProbabilities,
    names: &[String],
    status: &str,
) -> String {
    let mut s = format!(
        "opt {:.6}  epsilon {:.6} (Bayes factor {:.4})  networks {}  classes {}  \
         collider_classes {}  status {status}  time {:.3}s (optimum at {:.3}s)  engine {}\n",
        c.opt,
        c.epsilon,
        c.epsilon.exp(),
        c.networks.len(),
        c.classes.len(),
        c.collider_classes,
        c.time_s,
        c.time_to_opt_s,
        match c.backend {
            Some(b) if c.whole_classes =>
                format!("{} on {b}, one DAG or a few per class", c.engine),
            Some(b) => format!("{} on {b}", c.engine),
            None => c.engine.to_string(),
        }
    );
    if c.in_tolerance > 0 {
        s.push_str(&format!(
            "{} networks lie below OPT - epsilon by at most the tolerance {COLLECT_TOLERANCE}\n",
            c.in_tolerance
        ));
    }
    for (i, k) in c.classes.iter().take(SHOWN).enumerate() {
        s.push_str(&format!(
            "class {i}: {} DAGs, best {:.6}: {}\n",
            k.networks,
            k.best_score,
            cpdag_text(&k.cpdag, names)
        ));
    }
    if c.classes.len() > SHOWN {
        s.push_str(&format!("… {} more classes\n", c.classes.len() - SHOWN));
    }
    s.push_str("arc probabilities (over the collected networks):\n");
    for (a, b, p) in edges.sorted_arcs().into_iter().take(SHOWN) {
        s.push_str(&format!("  {} -> {}: {p:.4}\n", names[a], names[b]));
    }
    s
}
