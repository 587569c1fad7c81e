//! The plan of a study: a TOML file naming the instances (globs over score files and
//! data sets, with known optima), the methods (bnsl settings, crossed over a matrix of
//! values, or outside programs), the seeds, and the limits of every run; and its
//! expansion into the list of runs, in a fixed order.
//!
//! ```toml
//! name = "exact-ilp"
//! time_limit = 60        # seconds per run; bnsl runs get --time-limit
//! kill_after = 75        # wall-clock seconds after which a run is killed (default
//!                        # time_limit × 1.1 + 10)
//! memory_limit = 8192    # MiB of resident memory; a run past it is killed
//! seeds = [1, 2, 3]
//!
//! [[instances]]
//! files = ["scores/*.jkl"]          # globs, relative to the plan file
//! optima = "optima.csv"            # optional: columns instance, optimum
//!
//! [[methods]]
//! name = "ilp-{backend}"
//! args = ["--method", "ilp", "--backend", "{backend}"]
//! matrix = { backend = ["scip", "highs", "cbc"] }
//!
//! [[methods]]
//! name = "peer"
//! command = ["{env:PEER}", "{instance}", "{time_limit}"]
//! score = 'score is (\S+)'
//! optimal = 'optimal'
//! ```
//!
//! Placeholders in `args`, `command` and `name`: `{instance}` (the file's path),
//! `{instance_name}`, `{seed}`, `{time_limit}`, `{run_dir}` (a folder of the run's own,
//! for the files it writes), `{env:NAME}` and the method's matrix variables.

use crate::data::csv::fields;
use crate::error::InputError;
use regex::Regex;
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The most runs a plan may have (before the methods' instance filters), and the most
/// methods one matrix may cross into: a plan past it is refused rather than expanded.
pub const MAX_RUNS: usize = 1_000_000;

/// A parsed and checked plan.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The study's name.
    pub name: String,
    /// The plan file.
    pub path: PathBuf,
    /// Seconds each run is given (bnsl runs get it as `--time-limit`).
    pub time_limit: f64,
    /// Wall-clock seconds after which a run is killed and recorded as `timeout`.
    pub kill_after: f64,
    /// Resident memory (MiB) past which a run is killed and recorded as `memout`.
    pub memory_limit_mib: Option<u64>,
    /// The seeds; every (instance, method) pair runs once per seed.
    pub seeds: Vec<u64>,
    /// The instances, sorted by name.
    pub instances: Vec<Instance>,
    /// The methods, after the matrix expansion, in plan order.
    pub methods: Vec<Method>,
}

/// One input file of the study.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// The file name without its last extension (`alarm1000.BDeu1.palim3`).
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// The optimum a table of known optima gives for it.
    pub known_optimum: Option<f64>,
}

/// How one method runs.
#[derive(Clone, Debug)]
pub struct Method {
    /// Its name in the results (matrix values substituted).
    pub name: String,
    /// What runs.
    pub program: Program,
    /// Glob patterns on instance names; empty: every instance.
    pub only: Vec<glob::Pattern>,
}

/// The program of a method.
#[derive(Clone, Debug)]
pub enum Program {
    /// `bnsl learn INSTANCE ARGS --json --time-limit T [--seed S]`.
    Bnsl {
        /// The bnsl binary; `None`: the one running the study.
        binary: Option<PathBuf>,
        /// The arguments after the instance (placeholders not yet filled).
        args: Vec<String>,
        /// Whether `--seed` is passed.
        seeded: bool,
    },
    /// An outside program, its answer read from its output by regular expressions.
    External {
        /// The command line (placeholders not yet filled).
        command: Vec<String>,
        /// How its output is read.
        reader: OutputReader,
    },
}

/// Regular expressions that read an outside program's answer from its standard output
/// and error: the first capture group of the last match of `score` and `bound`; the
/// status is `optimal` where `optimal` matches, else `feasible` with a score.
#[derive(Clone, Debug)]
pub struct OutputReader {
    /// The score of the answer (higher is better, as bnsl's).
    pub score: Option<Regex>,
    /// The bound on the optimum.
    pub bound: Option<Regex>,
    /// Matches where the program proved its answer optimal.
    pub optimal: Option<Regex>,
}

/// One run: an instance, a method and a seed.
#[derive(Clone, Debug)]
pub struct Run {
    /// Its position in the plan's order (0-based), as `--job` takes it.
    pub index: usize,
    /// `instance/method/seed`, unique within the plan.
    pub key: String,
    /// The instance.
    pub instance: Instance,
    /// The method's name.
    pub method: String,
    /// The seed.
    pub seed: u64,
}

/// The TOML shape of a plan.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFile {
    name: String,
    time_limit: f64,
    kill_after: Option<f64>,
    memory_limit: Option<u64>,
    #[serde(default = "default_seeds")]
    seeds: Vec<u64>,
    binary: Option<String>,
    #[serde(default)]
    instances: Vec<InstanceFile>,
    #[serde(default)]
    methods: Vec<MethodFile>,
}

fn default_seeds() -> Vec<u64> {
    vec![1]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InstanceFile {
    files: Vec<String>,
    optima: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MethodFile {
    name: String,
    args: Option<Vec<String>>,
    command: Option<Vec<String>>,
    #[serde(default)]
    matrix: BTreeMap<String, Vec<toml::Value>>,
    #[serde(default)]
    instances: Vec<String>,
    seeded: Option<bool>,
    binary: Option<String>,
    score: Option<String>,
    bound: Option<String>,
    optimal: Option<String>,
}

/// Reads and checks a plan file; globs and paths are taken relative to its folder.
pub fn read_plan(path: &Path) -> Result<Plan, InputError> {
    let text = crate::error::read_text(path)?;
    parse_plan(path, &text)
}

/// Parses and checks the text of a plan file at `path`.
pub fn parse_plan(path: &Path, text: &str) -> Result<Plan, InputError> {
    let file: PlanFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |span| line_of(text, span.start));
        InputError::at(path, line, e.message().to_string())
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    check_limits(path, &file)?;
    let instances = expand_instances(path, dir, &file.instances)?;
    let plan_binary = file.binary.as_deref().map(|b| dir.join(b));
    let mut methods = Vec::new();
    for (i, method) in file.methods.iter().enumerate() {
        methods.extend(expand_method(path, dir, i, method, plan_binary.as_ref())?);
    }
    if methods.is_empty() {
        return Err(InputError::file(path, "the plan names no [[methods]]"));
    }
    let runs = [instances.len(), methods.len(), file.seeds.len()]
        .iter()
        .try_fold(1usize, |n, &k| n.checked_mul(k))
        .filter(|&n| n <= MAX_RUNS);
    if runs.is_none() {
        return Err(InputError::file(
            path,
            format!("instances × methods × seeds is more than {MAX_RUNS} runs: split the study"),
        ));
    }
    let mut seen = HashSet::new();
    for m in &methods {
        if !seen.insert(m.name.as_str()) {
            return Err(InputError::file(
                path,
                format!("two methods are named `{}`: give each its own name (matrix values can go in it as {{variable}})", m.name),
            ));
        }
    }
    Ok(Plan {
        name: file.name,
        path: path.to_path_buf(),
        time_limit: file.time_limit,
        kill_after: file.kill_after.unwrap_or(file.time_limit * 1.1 + 10.0),
        memory_limit_mib: file.memory_limit,
        seeds: file.seeds,
        instances,
        methods,
    })
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn check_limits(path: &Path, file: &PlanFile) -> Result<(), InputError> {
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if !positive(file.time_limit) {
        return Err(InputError::file(
            path,
            "time_limit must be a positive number of seconds",
        ));
    }
    if let Some(k) = file.kill_after {
        if !positive(k) || k < file.time_limit {
            return Err(InputError::file(
                path,
                "kill_after must be a number of seconds no smaller than time_limit",
            ));
        }
    }
    if file.memory_limit == Some(0) {
        return Err(InputError::file(
            path,
            "memory_limit must be a positive number of MiB",
        ));
    }
    if file.seeds.is_empty() {
        return Err(InputError::file(
            path,
            "seeds is empty: give at least one seed",
        ));
    }
    let mut seen = HashSet::new();
    if let Some(seed) = file.seeds.iter().find(|s| !seen.insert(**s)) {
        // Two runs of one key: a resume would take the second for done.
        return Err(InputError::file(
            path,
            format!("seed {seed} is given twice"),
        ));
    }
    Ok(())
}

/// Every file the instance globs match, with its known optimum; sorted by name, each
/// name once.
fn expand_instances(
    path: &Path,
    dir: &Path,
    specs: &[InstanceFile],
) -> Result<Vec<Instance>, InputError> {
    let mut files: Vec<(PathBuf, Option<f64>)> = Vec::new();
    for spec in specs {
        let optima = match &spec.optima {
            Some(csv) => read_optima(&dir.join(csv))?,
            None => Vec::new(),
        };
        for pattern in &spec.files {
            let pattern = fill_env(path, pattern)?;
            let full = dir.join(&pattern);
            let matches = glob::glob(&full.to_string_lossy()).map_err(|e| {
                InputError::file(path, format!("instance glob `{pattern}`: {}", e.msg))
            })?;
            let mut any = false;
            for entry in matches {
                let file = entry.map_err(|e| InputError::file(path, e.to_string()))?;
                let file = std::fs::canonicalize(&file).unwrap_or(file);
                any = true;
                if !files.iter().any(|(f, _)| f == &file) {
                    let optimum = known_optimum(&file, &optima);
                    files.push((file, optimum));
                }
            }
            if !any {
                return Err(InputError::file(
                    path,
                    format!("instance glob `{}` matches no file", full.display()),
                ));
            }
        }
    }
    if files.is_empty() {
        return Err(InputError::file(path, "the plan names no [[instances]]"));
    }
    name_instances(path, files)
}

/// The optimum of the first row whose path `file`'s path ends with.
fn known_optimum(file: &Path, optima: &[(String, f64)]) -> Option<f64> {
    let text = file.to_string_lossy();
    optima
        .iter()
        .find(|(suffix, _)| text.ends_with(suffix.as_str()))
        .map(|&(_, v)| v)
}

/// Names each file by its name up to the first dot (`alarm1000.BDeu1.palim3.jkl`:
/// `alarm1000`) where that is unique among the files, else by its name without the last
/// extension; two files of one such name are refused.
fn name_instances(
    path: &Path,
    files: Vec<(PathBuf, Option<f64>)>,
) -> Result<Vec<Instance>, InputError> {
    let file_name = |f: &Path| {
        f.file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let short = |f: &Path| {
        file_name(f)
            .split('.')
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let stem = |f: &Path| {
        f.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut by_name: BTreeMap<String, Instance> = BTreeMap::new();
    for (file, known_optimum) in &files {
        let s = short(file);
        let shared = files.iter().filter(|(f, _)| short(f) == s).count() > 1;
        let name = if shared { stem(file) } else { s };
        if let Some(other) = by_name.get(&name) {
            return Err(InputError::file(
                path,
                format!(
                    "two instances are named `{name}`: {} and {}",
                    other.path.display(),
                    file.display()
                ),
            ));
        }
        by_name.insert(
            name.clone(),
            Instance {
                name,
                path: file.clone(),
                known_optimum: *known_optimum,
            },
        );
    }
    Ok(by_name.into_values().collect())
}

/// The `(instance path, optimum)` rows of a CSV file with the columns `instance` and
/// `optimum` (others ignored; rows without a number are skipped). An instance file
/// takes the optimum of the row whose path its own path ends with.
pub fn read_optima(path: &Path) -> Result<Vec<(String, f64)>, InputError> {
    let text = crate::error::read_text(path)?;
    let mut lines = text.lines();
    let header: Vec<&str> = fields(lines.next().unwrap_or("")).collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| InputError::at(path, 1, format!("no `{name}` column")))
    };
    let (instance, optimum) = (column("instance")?, column("optimum")?);
    let mut rows = Vec::new();
    for line in lines {
        let row: Vec<&str> = fields(line).collect();
        let (Some(file), Some(value)) = (row.get(instance), row.get(optimum)) else {
            continue;
        };
        if let Ok(v) = value.trim().parse::<f64>() {
            if v.is_finite() && !file.trim().is_empty() {
                rows.push((file.trim().to_string(), v));
            }
        }
    }
    Ok(rows)
}

/// The methods of one `[[methods]]` entry: one per combination of its matrix values.
fn expand_method(
    path: &Path,
    dir: &Path,
    index: usize,
    spec: &MethodFile,
    plan_binary: Option<&PathBuf>,
) -> Result<Vec<Method>, InputError> {
    let what = |cause: String| {
        InputError::file(path, format!("methods[{index}] (`{}`): {cause}", spec.name))
    };
    let only = spec
        .instances
        .iter()
        .map(|p| {
            glob::Pattern::new(p).map_err(|e| what(format!("instance pattern `{p}`: {}", e.msg)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let program = program_of(spec, dir, plan_binary).map_err(what)?;
    let mut methods = Vec::new();
    for assignment in matrix_assignments(&spec.matrix).map_err(what)? {
        let fill = |s: &String| substitute_matrix(s, &assignment);
        let program = match &program {
            Program::Bnsl {
                binary,
                args,
                seeded,
            } => Program::Bnsl {
                binary: binary.clone(),
                args: args.iter().map(fill).collect(),
                seeded: *seeded,
            },
            Program::External { command, reader } => Program::External {
                command: command.iter().map(fill).collect(),
                reader: reader.clone(),
            },
        };
        let name = fill(&spec.name);
        if name.contains('/') || name.trim().is_empty() {
            return Err(what(format!("the name `{name}` is empty or has a `/`")));
        }
        methods.push(Method {
            name,
            program,
            only: only.clone(),
        });
    }
    Ok(methods)
}

fn program_of(
    spec: &MethodFile,
    dir: &Path,
    plan_binary: Option<&PathBuf>,
) -> Result<Program, String> {
    let regex = |field: &str, text: &Option<String>| -> Result<Option<Regex>, String> {
        text.as_deref()
            .map(|t| Regex::new(t).map_err(|e| format!("{field}: {e}")))
            .transpose()
    };
    match (&spec.args, &spec.command) {
        (Some(args), None) => {
            if spec.score.is_some() || spec.bound.is_some() || spec.optimal.is_some() {
                return Err("score, bound and optimal read an outside program's output: give them with command, not args".into());
            }
            Ok(Program::Bnsl {
                binary: spec
                    .binary
                    .as_deref()
                    .map(|b| dir.join(b))
                    .or(plan_binary.cloned()),
                args: args.clone(),
                seeded: spec.seeded.unwrap_or(true),
            })
        }
        (None, Some(command)) if !command.is_empty() => {
            if spec.seeded.is_some() || spec.binary.is_some() {
                return Err("seeded and binary are for bnsl runs (args): an outside program takes {seed} in its command".into());
            }
            if spec.score.is_none() {
                return Err("an outside program needs score, a regular expression whose first group is the answer's score".into());
            }
            Ok(Program::External {
                command: command.clone(),
                reader: OutputReader {
                    score: regex("score", &spec.score)?,
                    bound: regex("bound", &spec.bound)?,
                    optimal: regex("optimal", &spec.optimal)?,
                },
            })
        }
        (None, Some(_)) => Err("command is empty".into()),
        _ => Err("give either args (a bnsl learn run) or command (an outside program)".into()),
    }
}

/// Every assignment of one value to each matrix variable, in the order of the
/// variables' names and of their values.
fn matrix_assignments(
    matrix: &BTreeMap<String, Vec<toml::Value>>,
) -> Result<Vec<Vec<(String, String)>>, String> {
    let count = matrix
        .values()
        .try_fold(1usize, |n, values| n.checked_mul(values.len()))
        .filter(|&n| n <= MAX_RUNS);
    if count.is_none() {
        return Err(format!(
            "the matrix crosses into more than {MAX_RUNS} methods"
        ));
    }
    let mut assignments = vec![Vec::new()];
    for (variable, values) in matrix {
        if values.is_empty() {
            return Err(format!("matrix variable `{variable}` has no values"));
        }
        let mut next = Vec::new();
        for partial in &assignments {
            for value in values {
                let text = match value {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_) => {
                        value.to_string()
                    }
                    _ => {
                        return Err(format!(
                            "matrix variable `{variable}`: values are strings or numbers"
                        ))
                    }
                };
                let mut extended: Vec<(String, String)> = partial.clone();
                extended.push((variable.clone(), text));
                next.push(extended);
            }
        }
        assignments = next;
    }
    Ok(assignments)
}

fn substitute_matrix(text: &str, assignment: &[(String, String)]) -> String {
    assignment.iter().fold(text.to_string(), |t, (var, value)| {
        t.replace(&format!("{{{var}}}"), value)
    })
}

/// `text` with every `{env:NAME}` replaced by the environment variable's value; an
/// unset variable is an error naming it.
pub fn fill_env(path: &Path, text: &str) -> Result<String, InputError> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{env:") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 5..];
        let end = after
            .find('}')
            .ok_or_else(|| InputError::file(path, format!("`{text}`: `{{env:` without `}}`")))?;
        let name = &after[..end];
        let value = std::env::var(name).map_err(|_| {
            InputError::file(
                path,
                format!("`{text}` needs the environment variable {name}, which is not set"),
            )
        })?;
        out.push_str(&value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

impl Plan {
    /// Every run of the plan: instances (by name) × methods (plan order) × seeds.
    pub fn runs(&self) -> Vec<Run> {
        let mut runs = Vec::new();
        for instance in &self.instances {
            for method in &self.methods {
                if !method.only.is_empty() && !method.only.iter().any(|p| p.matches(&instance.name))
                {
                    continue;
                }
                for &seed in &self.seeds {
                    runs.push(Run {
                        index: runs.len(),
                        key: format!("{}/{}/{seed}", instance.name, method.name),
                        instance: instance.clone(),
                        method: method.name.clone(),
                        seed,
                    });
                }
            }
        }
        runs
    }

    /// The method of the given name.
    pub fn method(&self, name: &str) -> Option<&Method> {
        self.methods.iter().find(|m| m.name == name)
    }

    /// The command line of `run`: its placeholders filled, `run_dir` the run's own
    /// folder, `bnsl` the binary of bnsl methods that name none. A bnsl run ends with
    /// `--json --time-limit T` and, when seeded, `--seed S`.
    pub fn command_line(
        &self,
        run: &Run,
        run_dir: &Path,
        bnsl: &Path,
    ) -> Result<Vec<String>, InputError> {
        let method = self
            .method(&run.method)
            .ok_or_else(|| InputError::file(&self.path, format!("no method `{}`", run.method)))?;
        let limit = self.time_limit.to_string();
        let fill = |text: &String| {
            let text = text
                .replace("{instance}", &run.instance.path.to_string_lossy())
                .replace("{instance_name}", &run.instance.name)
                .replace("{seed}", &run.seed.to_string())
                .replace("{time_limit}", &limit)
                .replace("{run_dir}", &run_dir.to_string_lossy());
            fill_env(&self.path, &text)
        };
        match &method.program {
            Program::Bnsl {
                binary,
                args,
                seeded,
            } => {
                let binary = binary.as_deref().unwrap_or(bnsl);
                let mut line = vec![
                    binary.to_string_lossy().into_owned(),
                    "learn".to_string(),
                    run.instance.path.to_string_lossy().into_owned(),
                ];
                for arg in args {
                    line.push(fill(arg)?);
                }
                line.extend([
                    "--json".to_string(),
                    "--time-limit".to_string(),
                    limit.clone(),
                ]);
                if *seeded {
                    line.extend(["--seed".to_string(), run.seed.to_string()]);
                }
                Ok(line)
            }
            Program::External { command, .. } => command.iter().map(fill).collect(),
        }
    }
}

#[cfg(test)]
mod tests;
