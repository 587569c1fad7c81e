//! `bnsl bench`: run a study plan (each run a child process, results streamed to a
//! result folder, resumable), or emit its runs as jobs; `bnsl bench report` and
//! `bnsl bench merge` on result folders.

use super::{out, INTERRUPTED};
use anyhow::{bail, Context};
use bnsl::bench::child::{run_child, ChildLimits, ChildRun, Ending};
use bnsl::bench::machine::{host_name, MachineInfo};
use bnsl::bench::plan::{read_plan, Plan, Program, Run};
use bnsl::bench::record::{RecordContext, RunRecord};
use bnsl::bench::report::render;
use bnsl::bench::store::{merge, read_results, ResultStore};
use bnsl::StopToken;
use bnsl_solvers::interrupt;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `bnsl bench`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    #[command(flatten)]
    pub study: StudyArgs,
}

/// What `bnsl bench` does besides running a plan.
#[derive(clap::Subcommand, Debug)]
pub(crate) enum Action {
    /// Markdown tables, a consistency check, time-limit overruns and SVG figures
    /// (performance profile, time scatter plots) of result folders.
    Report(ReportArgs),
    /// Join result folders (of many machines, or of --emit-jobs runs) into one.
    Merge(MergeArgs),
}

/// Running a plan.
#[derive(clap::Args, Debug)]
pub(crate) struct StudyArgs {
    /// The study plan (TOML; see README, "Benchmark studies").
    #[arg(required = true)]
    pub plan: Option<PathBuf>,
    /// The result folder [default: NAME-results, NAME the plan's name]. A folder that
    /// holds results already is resumed: its finished runs are not run again.
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one command line per run, each running that run alone into a folder of its
    /// own (DIR/jobs/INDEX), for GNU parallel or a Slurm job array; then join them with
    /// `bnsl bench merge DIR/jobs/* --out DIR/merged`.
    #[arg(long, conflicts_with = "job")]
    pub emit_jobs: bool,
    /// Run only the run of this index (0-based, in the plan's order; see --list).
    #[arg(long, value_name = "INDEX")]
    pub job: Option<usize>,
    /// List the runs (index, key, command line) without running them.
    #[arg(long)]
    pub list: bool,
}

/// Arguments of `bnsl bench report`.
#[derive(clap::Args, Debug)]
pub(crate) struct ReportArgs {
    /// Result folders (or their results.jsonl files).
    #[arg(required = true, value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
    /// The method the ratios and the scatter plots compare with [default: the first].
    #[arg(long, value_name = "METHOD")]
    pub baseline: Option<String>,
    /// Folder for report.md and the figures [default: the first result folder].
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Exit with code 3 when the check finds contradictory answers or runs past their
    /// time limit by more than 5 % + 1 s.
    #[arg(long)]
    pub check: bool,
}

/// Arguments of `bnsl bench merge`.
#[derive(clap::Args, Debug)]
pub(crate) struct MergeArgs {
    /// Result folders (or their results.jsonl files).
    #[arg(required = true, value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
    /// The new result folder.
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Runs `bnsl bench`.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Some(Action::Report(a)) => report(a),
        Some(Action::Merge(a)) => merge_results(a),
        None => study(args.study),
    }
}

fn study(args: StudyArgs) -> anyhow::Result<ExitCode> {
    let plan_path = args.plan.expect("clap requires the plan");
    let plan_path = std::fs::canonicalize(&plan_path)
        .with_context(|| format!("{}: cannot read the plan", plan_path.display()))?;
    let plan = read_plan(&plan_path)?;
    let runs = plan.runs();
    let out_dir = std::path::absolute(
        args.out
            .unwrap_or_else(|| PathBuf::from(format!("{}-results", plan.name))),
    )?;
    let bnsl = std::env::current_exe().context("cannot find the bnsl binary running")?;
    if args.emit_jobs {
        emit_jobs(&bnsl, &plan_path, &out_dir, &runs)?;
        return Ok(ExitCode::SUCCESS);
    }
    let selected: Vec<Run> = match args.job {
        Some(i) => vec![runs.get(i).cloned().with_context(|| {
            format!(
                "--job {i}: the plan has {} runs (0 to {})",
                runs.len(),
                runs.len().saturating_sub(1)
            )
        })?],
        None => runs,
    };
    if args.list {
        for run in &selected {
            let line = plan.command_line(run, &out_dir.join("runs").join(&run.key), &bnsl)?;
            out(format_args!(
                "{}\t{}\t{}\n",
                run.index,
                run.key,
                shell_line(&line)
            ))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    execute(&plan, &selected, &out_dir, &bnsl)
}

/// Runs the runs not yet in the result folder.
fn execute(plan: &Plan, runs: &[Run], out_dir: &Path, bnsl: &Path) -> anyhow::Result<ExitCode> {
    let mut store = ResultStore::open(out_dir)?;
    let done = store.done();
    let todo: Vec<&Run> = runs.iter().filter(|r| !done.contains(&r.key)).collect();
    eprintln!(
        "bench: study {}: {} runs, {} done, {} to run; results in {}",
        plan.name,
        runs.len(),
        runs.len() - todo.len(),
        todo.len(),
        out_dir.display()
    );
    store.add_machine(&MachineInfo::here(&binaries(plan, bnsl)))?;
    let stop = StopToken::new();
    interrupt::catch_ctrl_c(&stop);
    let bar = progress_bar(todo.len() as u64);
    let host = host_name();
    let limits = ChildLimits {
        kill_after: plan.kill_after,
        memory_kib: plan.memory_limit_mib.map(|m| m * 1024),
    };
    for run in todo {
        bar.set_message(run.key.clone());
        let run_dir = store.run_dir(&run.key)?;
        let command = plan.command_line(run, &run_dir, bnsl)?;
        let child = run_child(&command, Path::new("."), limits, &stop)
            .unwrap_or_else(|e| failed_start(&command, &e));
        if child.ending == Ending::Interrupted {
            break;
        }
        store.keep_output(&run_dir, &child.stdout, &child.stderr)?;
        let method = plan
            .method(&run.method)
            .expect("a run's method is in its plan");
        let record = RunRecord::new(
            RecordContext {
                study: &plan.name,
                run,
                program: &method.program,
                time_limit_s: plan.time_limit,
                host: &host,
                command,
            },
            &child,
        );
        // A hidden bar (no terminal) prints nothing, lines included: they go to stderr.
        if bar.is_hidden() {
            eprintln!("{}", line_of(&record));
        } else {
            bar.println(line_of(&record));
        }
        store.append(record)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let left = runs.len() - store.done().len().min(runs.len());
    if stop.is_stopped() {
        eprintln!("bench: stopped; {left} runs left: run the same command again to resume");
        return Ok(ExitCode::from(INTERRUPTED));
    }
    eprintln!(
        "bench: done; report with `bnsl bench report {}`",
        out_dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The record of a command that could not be started: an `error` run of no time.
fn failed_start(command: &[String], error: &std::io::Error) -> ChildRun {
    ChildRun {
        ending: Ending::Exited(127),
        wall_s: 0.0,
        peak_rss_kib: 0,
        stdout: String::new(),
        stderr: format!(
            "cannot start {}: {error}",
            command.first().map_or("", String::as_str)
        ),
    }
}

/// The bnsl binaries a plan runs.
fn binaries<'a>(plan: &'a Plan, bnsl: &'a Path) -> Vec<&'a Path> {
    let mut list: Vec<&Path> = Vec::new();
    for m in &plan.methods {
        if let Program::Bnsl { binary, .. } = &m.program {
            let b = binary.as_deref().unwrap_or(bnsl);
            if !list.contains(&b) {
                list.push(b);
            }
        }
    }
    list
}

fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} runs, {elapsed_precise} elapsed, ETA {eta}  {msg}",
        )
        .expect("a valid template"),
    );
    bar
}

/// One line per finished run.
fn line_of(r: &RunRecord) -> String {
    let score = r.score.map_or("-".to_string(), |s| format!("{s:.6}"));
    let gap = r
        .gap
        .map_or(String::new(), |g| format!("  gap {:.3}%", 100.0 * g));
    let error = r
        .error
        .as_ref()
        .map_or(String::new(), |e| format!("  ({e})"));
    format!(
        "{}  {}  {:.2}s  score {score}{gap}  {:.0} MiB{error}",
        r.key, r.status, r.wall_s, r.peak_mib
    )
}

fn emit_jobs(bnsl: &Path, plan: &Path, out_dir: &Path, runs: &[Run]) -> anyhow::Result<()> {
    for run in runs {
        let job_dir = out_dir.join("jobs").join(run.index.to_string());
        let line = [
            bnsl.to_string_lossy().into_owned(),
            "bench".into(),
            plan.to_string_lossy().into_owned(),
            "--job".into(),
            run.index.to_string(),
            "--out".into(),
            job_dir.to_string_lossy().into_owned(),
        ];
        out(format_args!("{}\n", shell_line(&line)))?;
    }
    Ok(())
}

/// A command line a POSIX shell reads back as the same words.
fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let (records, machines) = read_results(&args.results)?;
    let report =
        render(&records, &machines, args.baseline.as_deref()).map_err(anyhow::Error::msg)?;
    let dir = match args.out {
        Some(d) => d,
        None if args.results[0].is_dir() => args.results[0].clone(),
        None => args.results[0]
            .parent()
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let path = dir.join("report.md");
    std::fs::write(&path, &report.markdown)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    for (file, svg) in &report.figures {
        let p = dir.join(file);
        std::fs::write(&p, svg).with_context(|| format!("{}: cannot write", p.display()))?;
    }
    out(format_args!("{}", report.markdown))?;
    eprintln!(
        "bench report: {} and {} figures in {}",
        path.display(),
        report.figures.len(),
        dir.display()
    );
    for f in &report.inconsistencies {
        eprintln!("bench report: contradiction: {f}");
    }
    for o in &report.overruns {
        eprintln!("bench report: past its time limit: {o}");
    }
    if args.check && (!report.inconsistencies.is_empty() || !report.overruns.is_empty()) {
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}

fn merge_results(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let (count, repeated) = merge(&args.results, &args.out)?;
    if count == 0 {
        bail!("no run records in {} folders", args.results.len());
    }
    for key in &repeated {
        eprintln!("bench merge: {key} is in more than one folder; the last to finish is kept");
    }
    eprintln!("bench merge: {count} runs into {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
