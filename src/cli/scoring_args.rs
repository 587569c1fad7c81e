//! Command-line options shared by every subcommand that scores data.

use anyhow::{bail, Context};
use bnsl::data::{read_bif, DataFormat, Header, LoadOptions};
use bnsl::mb::{CiOptions, Restriction};
use bnsl::pipeline::{Budget, ScoringSetup, SelectionSetup};
use bnsl::scores::{CandidateOptions, Pruning, ScoreKind, Search};
use std::path::PathBuf;
use std::time::Duration;

/// The parent limit of sequential generation when `--max-parents` is not given.
pub(super) const DEFAULT_MAX_PARENTS: usize = 3;

/// The score function names accepted by `--score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ScoreName {
    /// Bayesian Dirichlet equivalent uniform (with `--ess`).
    Bdeu,
    /// Bayesian information criterion.
    Bic,
}

/// Which variables may be a variable's parents (`--candidates`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CandidateSet {
    /// Every other variable.
    All,
    /// The discovered parents-and-children set.
    Pc,
    /// The discovered Markov blanket.
    Mb,
}

/// How a data file is read.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct DataArgs {
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
    pub(crate) fn load_options(&self) -> anyhow::Result<LoadOptions> {
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
pub(crate) struct ScoringArgs {
    /// Score function.
    #[arg(long, value_enum, default_value_t = ScoreName::Bdeu)]
    pub score: ScoreName,
    /// Equivalent sample size of BDeu.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub ess: f64,
    /// Largest parent set scored [default: 3 with --search sequential (GOBNILP's palim),
    /// no limit with greedy and independence]. When `learn` reads a score
    /// file, a limit applied to its candidates (default: none).
    #[arg(long)]
    pub max_parents: Option<usize>,
    /// How parent sets are explored: sequential (all sets by size up to the limit),
    /// greedy or independence selection (Scanagatta et al. 2015; anytime, need a budget
    /// or a limit).
    #[arg(long, value_enum, default_value_t = Search::Sequential)]
    pub search: Search,
    /// Seconds of exploration per variable (variables run in parallel).
    #[arg(long, value_name = "S", conflicts_with = "time_total")]
    pub time_per_var: Option<f64>,
    /// Total seconds of exploration, shared evenly by the variables (per variable:
    /// TOTAL × threads / variables).
    #[arg(long, value_name = "S")]
    pub time_total: Option<f64>,
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
    #[arg(long, default_value_t = bnsl::mb::ci_test::DEFAULT_ALPHA)]
    pub candidates_alpha: f64,
    #[command(flatten)]
    pub data: DataArgs,
}

impl ScoringArgs {
    /// The score function, validated.
    pub(crate) fn kind(&self) -> anyhow::Result<ScoreKind> {
        match self.score {
            ScoreName::Bic => Ok(ScoreKind::Bic),
            ScoreName::Bdeu if self.ess.is_finite() && self.ess > 0.0 => {
                Ok(ScoreKind::Bdeu { ess: self.ess })
            }
            ScoreName::Bdeu => bail!("--ess must be a positive number, got {}", self.ess),
        }
    }

    /// Candidate generation options, validated.
    pub(crate) fn candidate_options(&self) -> anyhow::Result<CandidateOptions> {
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

    /// The parent-set exploration asked for, validated: `None` for the level-wise
    /// sequential generator (sequential search without a budget).
    pub(crate) fn selection(&self) -> anyhow::Result<Option<SelectionSetup>> {
        let seconds = |flag: &str, s: f64| {
            if s.is_finite() && s > 0.0 {
                Ok(Duration::from_secs_f64(s))
            } else {
                bail!("{flag} must be a positive number of seconds, got {s}")
            }
        };
        let budget = match (self.time_per_var, self.time_total) {
            (Some(s), _) => Budget::PerVariable(seconds("--time-per-var", s)?),
            (None, Some(s)) => Budget::Total(seconds("--time-total", s)?),
            (None, None) => Budget::Unlimited,
        };
        let max_parents = match self.search {
            Search::Sequential => Some(self.max_parents.unwrap_or(DEFAULT_MAX_PARENTS)),
            Search::Greedy | Search::Independence => self.max_parents,
        };
        if budget == Budget::Unlimited && max_parents.is_none() {
            bail!("--search greedy/independence explores without end: give --time-per-var, --time-total or --max-parents");
        }
        if self.search == Search::Sequential && budget == Budget::Unlimited {
            return Ok(None);
        }
        Ok(Some(SelectionSetup {
            search: self.search,
            budget,
            max_parents,
        }))
    }

    /// The whole scoring setup.
    pub(crate) fn setup(&self) -> anyhow::Result<ScoringSetup> {
        Ok(ScoringSetup {
            kind: self.kind()?,
            candidates: self.candidate_options()?,
            selection: self.selection()?,
            load: self.data.load_options()?,
            restrict: self.restriction()?,
        })
    }

    /// The blanket restriction of `--candidates`, validated.
    pub(crate) fn restriction(&self) -> anyhow::Result<Option<(Restriction, CiOptions)>> {
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
