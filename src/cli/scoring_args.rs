//! Command-line options shared by every subcommand that scores data.

use crate::data::{read_bif, DataFormat, Header, LoadOptions};
use crate::mb::{CiOptions, Restriction};
use crate::pipeline::ScoringSetup;
use crate::scores::{CandidateOptions, Pruning, ScoreKind};
use anyhow::{bail, Context};
use std::path::PathBuf;

/// The parent limit when scoring data, GOBNILP's default palim.
pub const DEFAULT_MAX_PARENTS: usize = 3;

/// The score function names accepted by `--score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScoreName {
    /// Bayesian Dirichlet equivalent uniform (with `--ess`).
    Bdeu,
    /// Bayesian information criterion.
    Bic,
}

/// Which variables may be a variable's parents (`--candidates`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CandidateSet {
    /// Every other variable.
    All,
    /// The discovered parents-and-children set.
    Pc,
    /// The discovered Markov blanket.
    Mb,
}

/// How a data file is read.
#[derive(clap::Args, Debug, Clone)]
pub struct DataArgs {
    /// Data file format (auto: by extension and content).
    #[arg(long, value_enum, default_value_t = DataFormat::Auto)]
    pub data_format: DataFormat,
    /// Whether a CSV file starts with a header row (auto: detected).
    #[arg(long, value_enum, default_value_t = Header::Auto)]
    pub header: Header,
    /// Take variables and their declared states (arities) from this BIF network, so
    /// states that never occur in the data still count (as GOBNILP and bnlearn do with
    /// declared arities).
    #[arg(long, value_name = "NETWORK.bif")]
    pub network: Option<PathBuf>,
}

impl DataArgs {
    /// The loading options these flags describe (reads the network if one is given).
    pub fn load_options(&self) -> anyhow::Result<LoadOptions> {
        let mut opts = match &self.network {
            Some(path) => LoadOptions::with_network(&read_bif(path)?),
            None => LoadOptions::default(),
        };
        opts.format = self.data_format;
        opts.header = self.header;
        Ok(opts)
    }
}

/// How data is scored into candidate parent sets.
#[derive(clap::Args, Debug, Clone)]
pub struct ScoringArgs {
    /// Score function.
    #[arg(long, value_enum, default_value_t = ScoreName::Bdeu)]
    pub score: ScoreName,
    /// Equivalent sample size of BDeu.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub ess: f64,
    /// Largest parent set: when scoring data, the largest set scored (default 3, as
    /// GOBNILP's palim); when `learn` reads a score file, a limit applied to its
    /// candidates (default: none).
    #[arg(long, value_name = "K")]
    pub max_parents: Option<usize>,
    /// Pruning gap ε ≥ 0 in score units: drop only parent sets that cannot appear in a
    /// network within ε of the optimum (0 = exact pruning; ln BF for a Bayes factor BF).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub prune_gap: f64,
    /// Keep every parent set up to the limit (no pruning at all).
    #[arg(long, conflicts_with = "prune_gap")]
    pub no_prune: bool,
    /// Candidate parents of each variable: every other variable, or only its PC set or
    /// Markov blanket discovered by BAMB with G² tests (Y may be a parent of X when
    /// either one is in the other's set; a constant column gets no parents).
    #[arg(long, value_enum, default_value_t = CandidateSet::All)]
    pub candidates: CandidateSet,
    /// Significance level of the G² tests of `--candidates pc|mb`.
    #[arg(long, default_value_t = crate::mb::ci_test::DEFAULT_ALPHA)]
    pub candidates_alpha: f64,
    #[command(flatten)]
    pub data: DataArgs,
}

impl ScoringArgs {
    /// The score function, validated.
    pub fn kind(&self) -> anyhow::Result<ScoreKind> {
        match self.score {
            ScoreName::Bic => Ok(ScoreKind::Bic),
            ScoreName::Bdeu if self.ess.is_finite() && self.ess > 0.0 => {
                Ok(ScoreKind::Bdeu { ess: self.ess })
            }
            ScoreName::Bdeu => bail!("--ess must be a positive number, got {}", self.ess),
        }
    }

    /// Candidate generation options, validated.
    pub fn candidate_options(&self) -> anyhow::Result<CandidateOptions> {
        if !(self.prune_gap.is_finite() && self.prune_gap >= 0.0) {
            bail!(
                "--prune-gap must be a finite number ≥ 0, got {}",
                self.prune_gap
            );
        }
        let pruning = if self.no_prune {
            Pruning::Off
        } else {
            Pruning::Gap(self.prune_gap)
        };
        Ok(CandidateOptions {
            max_parents: Some(self.max_parents.unwrap_or(DEFAULT_MAX_PARENTS)),
            pruning,
            allowed_parents: None,
        })
    }

    /// The whole scoring setup.
    pub fn setup(&self) -> anyhow::Result<ScoringSetup> {
        Ok(ScoringSetup {
            kind: self.kind()?,
            candidates: self.candidate_options()?,
            load: self.data.load_options()?,
            restrict: self.restriction()?,
        })
    }

    /// The blanket restriction of `--candidates`, validated.
    pub fn restriction(&self) -> anyhow::Result<Option<(Restriction, CiOptions)>> {
        let restriction = match self.candidates {
            CandidateSet::All => return Ok(None),
            CandidateSet::Pc => Restriction::Pc,
            CandidateSet::Mb => Restriction::Mb,
        };
        let ci = CiOptions {
            alpha: self.candidates_alpha,
            allow_constant: true,
            ..Default::default()
        };
        ci.validate().context("--candidates-alpha")?;
        Ok(Some((restriction, ci)))
    }
}
