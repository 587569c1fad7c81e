//! `bnsl export`: write the exact program of a score file as an LP or MPS model, so that
//! any MILP solver (Gurobi, CPLEX, …) can be run on the very model bnsl solves (SPEC C11),
//! or as a WCNF MaxSAT formula for any MaxSAT solver (SPEC C7; `bnsl decode` reads the
//! solver's answer back).

use super::learn::structural_constraints;
use anyhow::{bail, Context};
use bnsl::fio::read_scores;
use bnsl::ilp::Formulation;
use bnsl_formulations::bounded_treewidth::{treewidth_model, TreewidthForm};
use bnsl_formulations::maxsat::bnsl::encode_bnsl;
use bnsl_formulations::maxsat::treewidth::encode_bounded_treewidth;
use bnsl_formulations::maxsat::wcnf_format::{write_wcnf, WcnfFormat};
use bnsl_formulations::milp::lp_format::write_lp;
use bnsl_formulations::milp::mps_format::{write_mps_with, MaxObjective};
use bnsl_formulations::ordering::ordering_model;
use bnsl_formulations::{FamilyIlp, MilpModel, ScoreTable};
use bnsl_solvers::ilp::cut_loop::{root_cuts, RootCuts};
use bnsl_solvers::ilp::IlpOptions;
use bnsl_solvers::milp::Limits;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `bnsl export`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// A score file (jkl variants, URLearning .pss; .gz read transparently).
    pub input: PathBuf,
    /// Program to write: family variables (acyclicity left to cluster cuts, so the
    /// model alone is a relaxation unless --root-cuts closes it), or the ordering
    /// formulation (complete: its optimum is the optimal network).
    #[arg(long, value_enum, default_value_t = Formulation::Family)]
    pub formulation: Formulation,
    /// Write the bounded-treewidth MILP (Nie et al. 2016, (6)) for treewidth at most W
    /// instead, over the candidates of at most W parents (complete: its optimum is the
    /// best DAG of treewidth at most W).
    #[arg(long, value_name = "W", conflicts_with = "formulation", allow_negative_numbers = true, value_parser = super::parse_width)]
    pub treewidth: Option<usize>,
    /// Form of the --treewidth program: tight (rows summed over the families, the
    /// default) or paper (formulation (6) as written).
    #[arg(long, value_enum, value_name = "FORM", requires = "treewidth")]
    pub treewidth_form: Option<super::learn::TreewidthFormArg>,
    /// File format [default: from the extension of --output: .lp, .mps or .wcnf (the
    /// 2022 MaxSAT Evaluation format; wcnf-old is the `p wcnf` one)].
    #[arg(long, value_enum)]
    pub format: Option<ModelFormat>,
    /// Output file, `-` for standard output (then --format is needed).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Add the cluster cuts found by bnsl's cutting-plane rounds on the LP relaxation
    /// (the root of its search) to the program: to the family program (which they close
    /// on small problems), or to the ordering program, a complete program that then
    /// has the cluster cuts' LP bound.
    #[arg(long)]
    pub root_cuts: bool,
    /// Back-end that solves the LPs of --root-cuts [default: the first compiled in].
    #[arg(long, value_name = "NAME")]
    pub backend: Option<String>,
    /// Seconds allowed to the root rounds of --root-cuts.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = super::parse_seconds)]
    pub time_limit: Option<f64>,
    /// Structural constraints applied to the candidates (see README).
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,
    /// Drop candidate parent sets larger than K.
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub max_parents: Option<usize>,
    /// MPS only: write the minimisation of the negated score instead of OBJSENSE MAX,
    /// for readers that ignore OBJSENSE (the file's optimum is then minus the score).
    #[arg(long)]
    pub negate_objective: bool,
}

/// Model file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ModelFormat {
    /// CPLEX LP format.
    Lp,
    /// Free MPS format.
    Mps,
    /// WCNF, 2022 MaxSAT Evaluation format (`h` hard clauses).
    Wcnf,
    /// WCNF with the `p wcnf` header and a top weight.
    WcnfOld,
}

impl ModelFormat {
    fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "lp" => Some(ModelFormat::Lp),
            "mps" => Some(ModelFormat::Mps),
            "wcnf" => Some(ModelFormat::Wcnf),
            _ => None,
        }
    }
}

impl Args {
    /// The form of the --treewidth program.
    fn treewidth_form(&self) -> TreewidthForm {
        match self.treewidth_form {
            Some(super::learn::TreewidthFormArg::Paper) => TreewidthForm::Paper,
            Some(super::learn::TreewidthFormArg::Tight) | None => TreewidthForm::Tight,
        }
    }
}

/// Runs `bnsl export`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let format = match args.format.or_else(|| ModelFormat::from_path(&args.output)) {
        Some(f) => f,
        None => bail!(
            "cannot tell the model format of {}: name it .lp, .mps or .wcnf, or give --format",
            args.output.display()
        ),
    };
    if args.negate_objective && format != ModelFormat::Mps {
        bail!("--negate-objective applies to MPS output only");
    }
    let file = read_scores(&args.input)?;
    let limit = match (args.max_parents, args.treewidth) {
        (Some(k), Some(w)) => Some(k.min(w)),
        (k, w) => k.or(w),
    };
    let cons = structural_constraints(args.constraints.as_deref(), limit, &file.table)?;
    let restricted = cons
        .restrict(&file.table)
        .with_context(|| format!("{}: the constraints leave no network", args.input.display()))?;
    let (table, _) = restricted.without_dominated();
    if let Some(wcnf) = format.wcnf() {
        return export_wcnf(&args, &table, wcnf);
    }
    let ilp = FamilyIlp::new(&table);
    let (model, note) = build(&ilp, &args)?;
    let mps = (format == ModelFormat::Mps).then_some(match args.negate_objective {
        true => MaxObjective::Negated,
        false => MaxObjective::Objsense,
    });
    write_model(&args.output, &model, mps)?;
    let program = match args.treewidth {
        Some(w) => format!("bounded-treewidth (W = {w})"),
        None => args.formulation.as_str().to_string(),
    };
    eprintln!(
        "{}: {} variables, {program} program of {} columns and {} rows{note}; wrote {}",
        args.input.display(),
        table.n(),
        model.num_vars(),
        model.num_rows(),
        args.output.display()
    );
    Ok(())
}

impl ModelFormat {
    /// The WCNF layout of a WCNF format.
    fn wcnf(self) -> Option<WcnfFormat> {
        match self {
            ModelFormat::Wcnf => Some(WcnfFormat::Current),
            ModelFormat::WcnfOld => Some(WcnfFormat::Old),
            ModelFormat::Lp | ModelFormat::Mps => None,
        }
    }
}

/// Writes the MaxSAT encoding of `table` (`bnsl_formulations::maxsat::bnsl`), with the
/// comment block that maps its variables back to families.
fn export_wcnf(args: &Args, table: &ScoreTable, format: WcnfFormat) -> anyhow::Result<()> {
    if args.formulation != Formulation::Family || args.root_cuts || args.treewidth_form.is_some() {
        bail!("--formulation, --root-cuts and --treewidth-form shape the MILP: a WCNF model is the MaxSAT encoding");
    }
    let (encoding, what) = match args.treewidth {
        Some(w) => (
            encode_bounded_treewidth(table, w)?,
            format!("bounded-treewidth (W = {w}) MaxSAT encoding"),
        ),
        None => (encode_bnsl(table), "MaxSAT encoding".to_string()),
    };
    let context = || format!("cannot write {}", args.output.display());
    let mut out = open_output(&args.output)?;
    write_wcnf(&encoding.wcnf, &encoding.comments(table), format, &mut out)
        .with_context(context)?;
    out.flush().with_context(context)?;
    eprintln!(
        "{}: {} variables, {what} of {} Boolean variables, {} hard and {} soft clauses (weights to 10^-{}); wrote {}",
        args.input.display(),
        table.n(),
        encoding.wcnf.num_vars,
        encoding.wcnf.hard.len(),
        encoding.wcnf.soft.len(),
        encoding.digits,
        args.output.display()
    );
    Ok(())
}

/// The program to write, with a note on the root rounds when they ran.
fn build(ilp: &FamilyIlp<'_>, args: &Args) -> anyhow::Result<(MilpModel, String)> {
    let base = || match (args.treewidth, args.formulation) {
        (Some(w), _) => treewidth_model(ilp, w, args.treewidth_form()).model,
        (None, Formulation::Family) => ilp.model(),
        (None, Formulation::Ordering) => ordering_model(ilp),
    };
    if !args.root_cuts {
        return Ok((base(), String::new()));
    }
    let backend = bnsl_solvers::milp::configured(args.backend.as_deref(), &[])?;
    let options = IlpOptions {
        limits: Limits {
            time_limit: args.time_limit,
            ..Limits::default()
        },
        ..IlpOptions::default()
    };
    let root = root_cuts(backend.as_ref(), ilp, &options)
        .with_context(|| format!("root cutting-plane rounds on {}", backend.name()))?;
    let bound = root
        .bound
        .map_or_else(|| "none".to_string(), |b| format!("{b:.6}"));
    let note = format!(
        " ({} cluster cuts from {} LP rounds on {}, LP bound {bound})",
        root.cuts,
        root.rounds,
        backend.name()
    );
    let program = match (args.treewidth, args.formulation) {
        (None, Formulation::Family) => root.model,
        _ => with_cuts_of(base(), &root)?,
    };
    Ok((program, note))
}

/// `program` with the cluster cuts of `root`: the last `root.cuts` rows of its family
/// program. Both programs start with the family columns in the same order, so the rows
/// carry over unchanged.
fn with_cuts_of(mut program: MilpModel, root: &RootCuts) -> anyhow::Result<MilpModel> {
    root.add_cuts_to(&mut program)?;
    Ok(program)
}

/// Writes `model` in LP format, or in MPS format when `mps` says how to write its
/// maximisation.
fn write_model(output: &Path, model: &MilpModel, mps: Option<MaxObjective>) -> anyhow::Result<()> {
    let context = || format!("cannot write {}", output.display());
    let mut out = open_output(output)?;
    match mps {
        None => write_lp(model, &mut out),
        Some(max) => write_mps_with(model, max, &mut out),
    }
    .with_context(context)?;
    out.flush().with_context(context)
}

/// A buffered writer to `output`, or to standard output for `-`.
fn open_output(output: &Path) -> anyhow::Result<Box<dyn Write>> {
    if output.as_os_str() == "-" {
        return Ok(Box::new(std::io::BufWriter::new(std::io::stdout().lock())));
    }
    let file = std::fs::File::create(output)
        .with_context(|| format!("cannot create {}", output.display()))?;
    Ok(Box::new(std::io::BufWriter::new(file)))
}
