//! `bnsl sample`: draw a data set from a BIF network by forward sampling.

use anyhow::{bail, Context};
use bnsl::data::{read_bif, sample, write_csv, write_dat};
use std::io::Write;
use std::path::PathBuf;

/// Output formats of `bnsl sample`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutFormat {
    /// Comma-separated values.
    Csv,
    /// GOBNILP `.dat` (names, arities, 0-based codes).
    Dat,
}

/// How CSV output writes states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StateStyle {
    /// The network's state names (as bnlearn's samples).
    Names,
    /// 0-based codes in the network's state order.
    Codes,
}

/// Arguments of `bnsl sample`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The network (BIF, optionally gzipped).
    pub network: PathBuf,
    /// Number of rows to draw.
    #[arg(short = 'n', long = "rows", allow_negative_numbers = true)]
    pub rows: usize,
    /// Seed of the random stream (ChaCha8); the same seed gives the same data.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Output file; `-` or omitted: standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Output format [default: dat when the output name ends in `.dat`, else csv].
    #[arg(long, value_enum)]
    pub format: Option<OutFormat>,
    /// States in CSV output [default: names].
    #[arg(long, value_enum)]
    pub states: Option<StateStyle>,
    /// Omit the CSV header row of variable names.
    #[arg(long)]
    pub no_header: bool,
}

/// Refuses a sample that cannot fit in this machine's memory: `rows` rows of `vars`
/// one-byte states, plus the eight-byte parent configuration of a row drawn per
/// variable, are held at once (no check where the machine's memory cannot be read).
fn check_memory(rows: usize, vars: usize) -> anyhow::Result<()> {
    let needed = (rows as f64) * (vars as f64 + 8.0);
    let Some(total) = bnsl::formulations::machine::available_memory_bytes() else {
        return Ok(());
    };
    if needed > total as f64 {
        bail!(
            "-n {rows}: a sample of {rows} rows of {vars} variables needs about {:.1} GiB in \
             memory, more than the {:.1} GiB available on this machine; draw fewer rows",
            needed / 1024f64.powi(3),
            total as f64 / 1024f64.powi(3)
        );
    }
    Ok(())
}

/// Runs `bnsl sample`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let net = read_bif(&args.network)?;
    let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    let format = args.format.unwrap_or(match output {
        Some(p) if p.extension().is_some_and(|e| e == "dat") => OutFormat::Dat,
        _ => OutFormat::Csv,
    });
    if format == OutFormat::Dat && (args.states.is_some() || args.no_header) {
        bail!("--states and --no-header apply to CSV output only (.dat always has names, arities and codes)");
    }
    check_memory(args.rows, net.n_vars())?;
    let data = sample(&net, args.rows, args.seed);
    let write = |w: &mut dyn Write| -> std::io::Result<()> {
        match format {
            OutFormat::Csv => write_csv(
                &data,
                !args.no_header,
                args.states != Some(StateStyle::Codes),
                w,
            ),
            OutFormat::Dat => write_dat(&data, w),
        }
    };
    match output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            let mut w = std::io::BufWriter::new(file);
            write(&mut w)
                .and_then(|()| w.flush())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            write(&mut w)
                .and_then(|()| w.flush())
                .context("cannot write to standard output")?;
        }
    }
    eprintln!(
        "{}: {} rows of {} variables (seed {})",
        args.network.display(),
        args.rows,
        net.n_vars(),
        args.seed
    );
    Ok(())
}
