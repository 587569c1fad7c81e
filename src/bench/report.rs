//! The report of a study: markdown tables (per method: solved counts, PAR-2, shifted
//! geometric mean and its ratio to a baseline, the virtual best; per instance: time,
//! status, gap, nodes, memory), a consistency check of the answers, the worst overruns
//! of the time limit, and the figures ([`super::plot`]).
//!
//! A *problem* is an (instance, seed) pair; a method's time on it is its run's wall
//! time when it proved its answer optimal, else unsolved.

use super::machine::MachineInfo;
use super::plot;
use super::record::RunRecord;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Two scores (or a score and a bound) closer than this agree: 1e-6, plus 1e-9 of the
/// score's magnitude for scores printed with fewer digits.
pub fn agree_tolerance(score: f64) -> f64 {
    1e-6 + 1e-9 * score.abs()
}

/// A run may exceed its time limit by this fraction plus [`OVERRUN_SECONDS`].
pub const OVERRUN_FRACTION: f64 = 0.05;
/// See [`OVERRUN_FRACTION`].
pub const OVERRUN_SECONDS: f64 = 1.0;

/// A rendered report: the markdown and the figures it refers to.
pub struct Report {
    /// The markdown text.
    pub markdown: String,
    /// `(file name, SVG text)` of each figure.
    pub figures: Vec<(String, String)>,
    /// The inconsistencies found (also in the markdown).
    pub inconsistencies: Vec<String>,
    /// Runs past their time limit by more than 5 % + 1 s.
    pub overruns: Vec<String>,
}

/// Renders the report of `records`; `baseline` names the method the ratios and scatter
/// plots compare with (default: the first method of the records).
pub fn render(
    records: &[RunRecord],
    machines: &[MachineInfo],
    baseline: Option<&str>,
) -> Result<Report, String> {
    if records.is_empty() {
        return Err("no run records to report on".into());
    }
    let methods = methods_in_order(records);
    let baseline = match baseline {
        Some(b) if methods.iter().any(|m| m == b) => b.to_string(),
        Some(b) => {
            return Err(format!(
                "baseline `{b}` is not a method of these results ({})",
                methods.join(", ")
            ))
        }
        None => methods[0].clone(),
    };
    let times = ProblemTimes::of(records);
    let mut md = String::new();
    header(&mut md, records, machines);
    summary_table(&mut md, records, &methods, &baseline, &times);
    instance_tables(&mut md, records, &methods);
    let inconsistencies = consistency(records);
    consistency_section(&mut md, &inconsistencies);
    let overruns = overrun_section(&mut md, records);
    let figures = figures(&mut md, &methods, &baseline, &times, records)?;
    Ok(Report {
        markdown: md,
        figures,
        inconsistencies,
        overruns,
    })
}

/// The methods, in the order they first appear.
fn methods_in_order(records: &[RunRecord]) -> Vec<String> {
    let mut methods: Vec<String> = Vec::new();
    for r in records {
        if !methods.contains(&r.method) {
            methods.push(r.method.clone());
        }
    }
    methods
}

/// Each method's time on each problem (`None`: ran, did not solve).
struct ProblemTimes {
    by_method: BTreeMap<String, BTreeMap<(String, u64), Option<f64>>>,
    limit: f64,
}

impl ProblemTimes {
    fn of(records: &[RunRecord]) -> Self {
        let mut by_method: BTreeMap<String, BTreeMap<(String, u64), Option<f64>>> = BTreeMap::new();
        for r in records {
            let time = r.solved().then_some(r.wall_s);
            by_method
                .entry(r.method.clone())
                .or_default()
                .insert((r.instance.clone(), r.seed), time);
        }
        let limit = records.iter().map(|r| r.time_limit_s).fold(0.0, f64::max);
        ProblemTimes { by_method, limit }
    }

    /// Every problem some method ran.
    fn problems(&self) -> BTreeSet<(String, u64)> {
        self.by_method
            .values()
            .flat_map(|m| m.keys().cloned())
            .collect()
    }

    /// The best time any method has on `problem`.
    fn best(&self, problem: &(String, u64)) -> Option<f64> {
        self.by_method
            .values()
            .filter_map(|m| m.get(problem).copied().flatten())
            .min_by(f64::total_cmp)
    }
}

fn header(md: &mut String, records: &[RunRecord], machines: &[MachineInfo]) {
    let studies: BTreeSet<&str> = records.iter().map(|r| r.study.as_str()).collect();
    let studies: Vec<&str> = studies.into_iter().collect();
    let _ = writeln!(md, "# Study {}\n", studies.join(", "));
    let instances: BTreeSet<&str> = records.iter().map(|r| r.instance.as_str()).collect();
    let _ = writeln!(
        md,
        "{} runs on {} instances. Times are wall-clock seconds of the whole process (reading the input included); a run is *solved* when it proved its answer optimal. PAR-2 counts an unsolved run as twice the time limit; SGM is the geometric mean of the times shifted by 1 s (unsolved runs at the limit).\n",
        records.len(),
        instances.len()
    );
    if !machines.is_empty() {
        let _ = writeln!(md, "| host | CPU | cores | memory (GiB) | kernel | bnsl | back-ends |\n|---|---|---|---|---|---|---|");
        for m in machines {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} |",
                m.host,
                m.cpu,
                m.cores,
                m.memory_gib,
                m.kernel,
                m.bnsl.join("; "),
                m.backends.join(", ")
            );
        }
        md.push('\n');
    }
}

/// The PAR-2 and shifted-geometric-mean times of `times` (unsolved: `None`).
fn par2_and_sgm(times: &[Option<f64>], limit: f64) -> (f64, f64) {
    if times.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let n = times.len() as f64;
    let par2 = times.iter().map(|t| t.unwrap_or(2.0 * limit)).sum::<f64>() / n;
    let log_sum: f64 = times
        .iter()
        .map(|t| (t.unwrap_or(limit).min(limit) + 1.0).ln())
        .sum();
    (par2, (log_sum / n).exp() - 1.0)
}

fn summary_table(
    md: &mut String,
    records: &[RunRecord],
    methods: &[String],
    baseline: &str,
    times: &ProblemTimes,
) {
    let _ = writeln!(md, "## Summary\n");
    let _ = writeln!(md, "| method | runs | solved | timeout | memout | error | other | PAR-2 (s) | SGM (s) | SGM × {baseline} | max memory (MiB) |\n|---|---|---|---|---|---|---|---|---|---|---|");
    let base = &times.by_method[baseline];
    for method in methods {
        let runs: Vec<&RunRecord> = records.iter().filter(|r| &r.method == method).collect();
        let count = |s: &str| runs.iter().filter(|r| r.status == s).count();
        let other =
            runs.len() - count("optimal") - count("timeout") - count("memout") - count("error");
        let mine = &times.by_method[method];
        let all: Vec<Option<f64>> = mine.values().copied().collect();
        let (par2, sgm) = par2_and_sgm(&all, times.limit);
        let common: Vec<&(String, u64)> = mine.keys().filter(|p| base.contains_key(*p)).collect();
        let ratio = if common.is_empty() {
            "-".to_string()
        } else {
            let (_, a) = par2_and_sgm(
                &common.iter().map(|p| mine[*p]).collect::<Vec<_>>(),
                times.limit,
            );
            let (_, b) = par2_and_sgm(
                &common.iter().map(|p| base[*p]).collect::<Vec<_>>(),
                times.limit,
            );
            format!("{:.2}", (a + 1.0) / (b + 1.0))
        };
        let memory = runs.iter().map(|r| r.peak_mib).fold(0.0, f64::max);
        let _ = writeln!(
            md,
            "| {method} | {} | {} | {} | {} | {} | {other} | {par2:.2} | {sgm:.2} | {ratio} | {memory:.0} |",
            runs.len(),
            count("optimal"),
            count("timeout"),
            count("memout"),
            count("error"),
        );
    }
    let problems = times.problems();
    let best: Vec<Option<f64>> = problems.iter().map(|p| times.best(p)).collect();
    let (par2, sgm) = par2_and_sgm(&best, times.limit);
    let _ = writeln!(
        md,
        "| *virtual best* | {} | {} | | | | | {par2:.2} | {sgm:.2} | | |\n",
        problems.len(),
        best.iter().flatten().count()
    );
    let _ = writeln!(md, "The SGM ratio is taken over the problems both methods ran, with the 1 s shift: below 1, faster than {baseline}.\n");
}

fn instance_tables(md: &mut String, records: &[RunRecord], methods: &[String]) {
    let _ = writeln!(md, "## Per instance\n");
    let _ = writeln!(md, "Median over seeds of time and nodes; the largest gap and memory; the best score, and its difference from the known optimum.\n");
    let _ = writeln!(md, "| instance | method | solved | time (s) | status | gap | nodes | memory (MiB) | score | − known optimum |\n|---|---|---|---|---|---|---|---|---|---|");
    let instances: BTreeSet<&str> = records.iter().map(|r| r.instance.as_str()).collect();
    for instance in instances {
        for method in methods {
            let runs: Vec<&RunRecord> = records
                .iter()
                .filter(|r| r.instance == instance && &r.method == method)
                .collect();
            if runs.is_empty() {
                continue;
            }
            let solved = runs.iter().filter(|r| r.solved()).count();
            let time = median(runs.iter().map(|r| r.wall_s).collect());
            let nodes = median(
                runs.iter()
                    .filter_map(|r| r.nodes.map(|n| n as f64))
                    .collect(),
            );
            let gap = runs
                .iter()
                .filter_map(|r| r.gap)
                .fold(None, |m: Option<f64>, g| Some(m.map_or(g, |m| m.max(g))));
            let memory = runs.iter().map(|r| r.peak_mib).fold(0.0, f64::max);
            let score = runs.iter().filter_map(|r| r.score).max_by(f64::total_cmp);
            let known = runs.iter().find_map(|r| r.known_optimum);
            let _ = writeln!(
                md,
                "| {instance} | {method} | {solved}/{} | {} | {} | {} | {} | {memory:.0} | {} | {} |",
                runs.len(),
                time.map_or("-".into(), |t| format!("{t:.2}")),
                status_counts(&runs),
                gap.map_or("-".into(), |g| format!("{:.3} %", 100.0 * g)),
                nodes.map_or("-".into(), |n| format!("{n:.0}")),
                score.map_or("-".into(), |s| format!("{s:.6}")),
                match (score, known) {
                    (Some(s), Some(k)) if (s - k).abs() >= 1e-3 => format!("{:.4}", s - k),
                    (Some(s), Some(k)) => format!("{:.1e}", s - k),
                    _ => "-".into(),
                }
            );
        }
    }
    md.push('\n');
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// `optimal 3` or `optimal 2, timeout 1`.
fn status_counts(runs: &[&RunRecord]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for r in runs {
        *counts.entry(r.status.as_str()).or_default() += 1;
    }
    counts
        .iter()
        .map(|(s, n)| format!("{s} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every contradiction between the runs of one instance: two proved optima that differ,
/// a score above another run's bound, a proved optimum away from the known optimum.
pub fn consistency(records: &[RunRecord]) -> Vec<String> {
    let mut found = Vec::new();
    let mut by_instance: BTreeMap<&str, Vec<&RunRecord>> = BTreeMap::new();
    for r in records {
        by_instance.entry(r.instance.as_str()).or_default().push(r);
    }
    for (instance, runs) in by_instance {
        let optimal: Vec<&&RunRecord> = runs
            .iter()
            .filter(|r| r.solved() && r.score.is_some())
            .collect();
        if let (Some(lo), Some(hi)) = (
            optimal
                .iter()
                .min_by(|a, b| a.score.unwrap().total_cmp(&b.score.unwrap())),
            optimal
                .iter()
                .max_by(|a, b| a.score.unwrap().total_cmp(&b.score.unwrap())),
        ) {
            let (l, h) = (lo.score.unwrap(), hi.score.unwrap());
            if h - l > agree_tolerance(h) {
                found.push(format!(
                    "{instance}: proved optima differ: {} gives {l:.6}, {} gives {h:.6}",
                    lo.key, hi.key
                ));
            }
        }
        for a in &runs {
            let Some(bound) = a.bound else { continue };
            for b in &runs {
                if let Some(score) = b.score {
                    if score - bound > agree_tolerance(score) {
                        found.push(format!("{instance}: {} scores {score:.6}, above the bound {bound:.6} that {} proved", b.key, a.key));
                    }
                }
            }
        }
        for r in &optimal {
            if let (Some(s), Some(k)) = (r.score, r.known_optimum) {
                if (s - k).abs() > agree_tolerance(k) {
                    found.push(format!(
                        "{instance}: {} proved {s:.6}, the known optimum is {k:.6}",
                        r.key
                    ));
                }
            }
        }
    }
    found
}

fn consistency_section(md: &mut String, found: &[String]) {
    let _ = writeln!(md, "## Consistency\n");
    if found.is_empty() {
        let _ = writeln!(md, "No contradiction: on every instance, the proved optima agree with each other and with the known optimum, and no score exceeds a proved bound (tolerance 1e-6 + 1e-9·|score|).\n");
    } else {
        let _ = writeln!(
            md,
            "**{} contradictions** (a bug in some solver, or different inputs):\n",
            found.len()
        );
        for f in found {
            let _ = writeln!(md, "- {f}");
        }
        md.push('\n');
    }
}

/// The worst overruns of the time limit; returns the runs past 5 % + 1 s.
fn overrun_section(md: &mut String, records: &[RunRecord]) -> Vec<String> {
    let mut runs: Vec<&RunRecord> = records.iter().collect();
    runs.sort_by(|a, b| (b.wall_s - b.time_limit_s).total_cmp(&(a.wall_s - a.time_limit_s)));
    let allowed = |r: &RunRecord| r.time_limit_s * (1.0 + OVERRUN_FRACTION) + OVERRUN_SECONDS;
    let over: Vec<String> = runs
        .iter()
        .filter(|r| r.wall_s > allowed(r))
        .map(|r| {
            format!(
                "{}: {:.2} s for a limit of {} s",
                r.key, r.wall_s, r.time_limit_s
            )
        })
        .collect();
    let _ = writeln!(md, "## Time limits\n");
    let _ = writeln!(
        md,
        "{} of {} runs exceeded their limit by more than 5 % + 1 s. The longest runs against their limit:\n",
        over.len(),
        records.len()
    );
    let _ = writeln!(
        md,
        "| run | status | limit (s) | wall (s) | over (s) |\n|---|---|---|---|---|"
    );
    for r in runs.iter().take(10) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.2} | {:+.2} |",
            r.key,
            r.status,
            r.time_limit_s,
            r.wall_s,
            r.wall_s - r.time_limit_s
        );
    }
    md.push('\n');
    over
}

fn figures(
    md: &mut String,
    methods: &[String],
    baseline: &str,
    times: &ProblemTimes,
    records: &[RunRecord],
) -> Result<Vec<(String, String)>, String> {
    let problems: Vec<(String, u64)> = times.problems().into_iter().collect();
    let ratios: Vec<(String, Vec<f64>)> = methods
        .iter()
        .map(|m| {
            let mine = &times.by_method[m];
            let r = problems
                .iter()
                .map(|p| match (mine.get(p).copied().flatten(), times.best(p)) {
                    (Some(t), Some(best)) => (t + 1.0) / (best + 1.0),
                    _ => f64::INFINITY,
                })
                .collect();
            (m.clone(), r)
        })
        .collect();
    let studies: BTreeSet<&str> = records.iter().map(|r| r.study.as_str()).collect();
    let title = format!(
        "Performance profile: {}",
        studies.into_iter().collect::<Vec<_>>().join(", ")
    );
    let mut figures = vec![(
        "profile.svg".to_string(),
        plot::performance_profile(&title, &ratios)?,
    )];
    let _ = writeln!(md, "## Figures\n");
    let _ = writeln!(md, "Performance profile over {} problems (times shifted by 1 s before the ratios are taken):\n\n![performance profile](profile.svg)\n", problems.len());
    let partial: Vec<String> = methods
        .iter()
        .filter(|m| times.by_method[*m].len() < problems.len())
        .map(|m| format!("{m} ({})", times.by_method[m].len()))
        .collect();
    if !partial.is_empty() {
        let _ = writeln!(md, "A problem a method did not run counts as unsolved by it: {} ran only part of the problems, and their curves stop at that fraction.\n", partial.join(", "));
    }
    let base = &times.by_method[baseline];
    for method in methods.iter().filter(|m| m.as_str() != baseline) {
        let mine = &times.by_method[method];
        let cap = |t: Option<f64>| t.unwrap_or(times.limit);
        let points: Vec<(f64, f64)> = mine
            .iter()
            .filter_map(|(p, &t)| base.get(p).map(|&b| (cap(b), cap(t))))
            .collect();
        if points.is_empty() {
            continue;
        }
        let file = format!("scatter-{}.svg", file_safe(method));
        figures.push((
            file.clone(),
            plot::time_scatter(baseline, method, &points, times.limit)?,
        ));
        let _ = writeln!(md, "![{method} against {baseline}]({file})\n");
    }
    Ok(figures)
}

/// A method name as part of a file name.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
