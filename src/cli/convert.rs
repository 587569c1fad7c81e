//! `bnsl convert`: read a score file in any supported format (jkl variants, URLearning
//! `.pss`) and write it in GOBNILP's jkl form (or `.pss` when the output name says so).

use anyhow::{bail, Context};
use bnsl::fio::{read_scores, write_jkl, write_pss, NameStyle, ScoreFile, ScoreFormat};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `bnsl convert`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Input score file: GOBNILP/BLIP/MINOBS jkl (names or indices) or URLearning `.pss`;
    /// `.gz` is read transparently.
    pub input: PathBuf,
    /// Output file, `-` for standard output. GOBNILP jkl, or URLearning `.pss` when the
    /// name ends in `.pss`.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Write variables and parents as 0-based indices instead of names (jkl only).
    #[arg(long)]
    pub indices: bool,
}

/// Runs `bnsl convert`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let pss_out = args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pss"));
    if pss_out && args.indices {
        bail!(
            "--indices applies to jkl output only; {} is a .pss file, which names variables",
            args.output.display()
        );
    }
    let file = read_scores(&args.input)?;
    let style = if args.indices {
        NameStyle::Indices
    } else {
        NameStyle::Names
    };
    let write = |w: &mut dyn Write| -> std::io::Result<()> {
        if pss_out {
            write_pss(&file.table, w)
        } else {
            write_jkl(&file.table, w, style)
        }
    };
    write_output(&args.output, write)?;
    eprintln!(
        "{}",
        summary(
            &args.input,
            &file,
            &args.output,
            if pss_out {
                "URLearning .pss"
            } else {
                "GOBNILP jkl"
            }
        )
    );
    if !file.ancestral_constraints.is_empty() {
        let pairs = file.ancestral_constraints.len();
        eprintln!(
            "warning: {} has a trailing constraint section ({pairs} pair{}); it is not part of the score table and was \
             not written",
            args.input.display(),
            if pairs == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// Runs `write` on the output file (buffered), or on standard output for `-`.
fn write_output(
    output: &Path,
    write: impl Fn(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let context = || format!("cannot write {}", output.display());
    if output.as_os_str() == "-" {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        write(&mut out).with_context(context)?;
        return out.flush().with_context(context);
    }
    let file = std::fs::File::create(output)
        .with_context(|| format!("cannot create {}", output.display()))?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out).with_context(context)?;
    out.flush().with_context(context)
}

/// The one-line report: what was read and what was written.
fn summary(input: &Path, file: &ScoreFile, output: &Path, written_as: &str) -> String {
    let format = match file.format {
        ScoreFormat::Jkl => "jkl",
        ScoreFormat::Pss => "pss",
    };
    let naming = match file.naming {
        NameStyle::Names => "names",
        NameStyle::Indices => "indices",
    };
    format!(
        "{} ({format}, {naming}): {} variables, {} families, max {} parents -> {} ({written_as})",
        input.display(),
        file.table.n(),
        file.table.total_candidates(),
        file.table.max_parents(),
        output.display()
    )
}
