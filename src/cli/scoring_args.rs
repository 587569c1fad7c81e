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
    /// Data file format [default: auto, by extension and content].
    #[arg(long, value_enum)]
    pub data_format: Option<DataFormat>,
    /// Whether a CSV file starts with a header row [default: auto, detected].
    #[arg(long, value_enum)]
    pub header: Option<Header>,
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
        opts.format = self.data_format.unwrap_or(DataFormat::Auto);
        opts.header = self.header.unwrap_or(Header::Auto);
        Ok(opts)
    }

    /// The flags given on the command line.
    fn given(&self) -> [(&'static str, bool); 3] {
        [
            ("--data-format", self.data_format.is_some()),
            ("--header", self.header.is_some()),
            ("--network", self.network.is_some()),
        ]
    }
}

/// How data is scored into candidate parent sets.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct ScoringArgs {
    /// Score function [default: bdeu].
    #[arg(long, value_enum)]
    pub score: Option<ScoreName>,
    /// Equivalent sample size of BDeu [default: 1].
    #[arg(long, allow_negative_numbers = true)]
    pub ess: Option<f64>,
    /// Largest parent set scored [default: 3 with --search sequential (GOBNILP's palim),
    /// no limit with greedy and independence]. When `learn` reads a score
    /// file, a limit applied to its candidates (default: none).
    #[arg(long, allow_negative_numbers = true)]
    pub max_parents: Option<usize>,
    /// How parent sets are explored: sequential (all sets by size up to the limit),
    /// greedy or independence selection (Scanagatta et al. 2015; anytime, need a budget
    /// or a limit) [default: sequential].
    #[arg(long, value_enum)]
    pub search: Option<Search>,
    /// Seconds of exploration per variable (variables run in parallel).
    #[arg(long, value_name = "S", conflicts_with = "time_total", allow_negative_numbers = true, value_parser = super::parse_seconds)]
    pub time_per_var: Option<f64>,
    /// Total seconds of exploration, shared evenly by the variables (per variable:
    /// TOTAL × threads / variables).
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = super::parse_seconds)]
    pub time_total: Option<f64>,
    /// Pruning gap ε ≥ 0 in score units: drop only parent sets that cannot appear in a
    /// network within ε of the optimum (0 = exact pruning; ln BF for a Bayes factor BF)
    /// [default: 0].
    #[arg(long, allow_negative_numbers = true)]
    pub prune_gap: Option<f64>,
    /// Keep every parent set up to the limit (no pruning at all).
    #[arg(long, conflicts_with = "prune_gap")]
    pub no_prune: bool,
    /// Candidate parents of each variable: every other variable, or only its PC set or
    /// Markov blanket discovered by BAMB with G² tests (Y may be a parent of X when
    /// either one is in the other's set; a constant column gets no parents) [default: all].
    #[arg(long, value_enum)]
    pub candidates: Option<CandidateSet>,
    /// Significance level of the G² tests of `--candidates pc|mb` [default: 0.01].
    #[arg(long)]
    pub candidates_alpha: Option<f64>,
    #[command(flatten)]
    pub data: DataArgs,
}

impl ScoringArgs {
    /// The score function, validated.
    pub(crate) fn kind(&self) -> anyhow::Result<ScoreKind> {
        let ess = self.ess.unwrap_or(1.0);
        match self.score.unwrap_or(ScoreName::Bdeu) {
            ScoreName::Bic if self.ess.is_some() => {
                bail!("--ess is BDeu's; it does nothing with --score bic")
            }
            ScoreName::Bic => Ok(ScoreKind::Bic),
            ScoreName::Bdeu if ess.is_finite() && ess > 0.0 => Ok(ScoreKind::Bdeu { ess }),
            ScoreName::Bdeu => bail!("--ess must be a positive number, got {ess}"),
        }
    }

    /// The `--candidates` choice.
    pub(crate) fn candidate_set(&self) -> CandidateSet {
        self.candidates.unwrap_or(CandidateSet::All)
    }

    /// Refuses the flags that only shape how data is scored when `input` is a score
    /// file (whose scores are given), naming them; `--max-parents` is not among them,
    /// since it limits a score file's candidates.
    pub(crate) fn check_score_file(&self, input: &std::path::Path) -> anyhow::Result<()> {
        let given: Vec<&str> = [
            ("--score", self.score.is_some()),
            ("--ess", self.ess.is_some()),
            ("--search", self.search.is_some()),
            ("--time-per-var", self.time_per_var.is_some()),
            ("--time-total", self.time_total.is_some()),
            ("--prune-gap", self.prune_gap.is_some()),
            ("--no-prune", self.no_prune),
            ("--candidates", self.candidates.is_some()),
            ("--candidates-alpha", self.candidates_alpha.is_some()),
        ]
        .into_iter()
        .chain(self.data.given())
        .filter_map(|(flag, set)| set.then_some(flag))
        .collect();
        if given.is_empty() {
            return Ok(());
        }
        let verb = if given.len() == 1 { "applies" } else { "apply" };
        bail!(
            "{} {verb} to data input, but {} is a score file, whose scores are given \
             (use --input-kind data if it is a data set)",
            given.join(", "),
            input.display()
        )
    }

    /// Candidate generation options, validated.
    pub(crate) fn candidate_options(&self) -> anyhow::Result<CandidateOptions> {
        let gap = self.prune_gap.unwrap_or(0.0);
        if !(gap.is_finite() && gap >= 0.0) {
            bail!("--prune-gap must be a finite number ≥ 0, got {gap}");
        }
        let pruning = if self.no_prune {
            Pruning::Off
        } else {
            Pruning::Gap(gap)
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
        let budget = match (self.time_per_var, self.time_total) {
            (Some(s), _) => Budget::PerVariable(Duration::from_secs_f64(s)),
            (None, Some(s)) => Budget::Total(Duration::from_secs_f64(s)),
            (None, None) => Budget::Unlimited,
        };
        let search = self.search.unwrap_or(Search::Sequential);
        let max_parents = match search {
            Search::Sequential => Some(self.max_parents.unwrap_or(DEFAULT_MAX_PARENTS)),
            Search::Greedy | Search::Independence => self.max_parents,
        };
        if budget == Budget::Unlimited && max_parents.is_none() {
            bail!("--search greedy/independence explores without end: give --time-per-var, --time-total or --max-parents");
        }
        if search == Search::Sequential && budget == Budget::Unlimited {
            return Ok(None);
        }
        Ok(Some(SelectionSetup {
            search,
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
        let restriction = match self.candidate_set() {
            CandidateSet::All => return Ok(None),
            CandidateSet::Pc => Restriction::Pc,
            CandidateSet::Mb => Restriction::Mb,
        };
        let ci = CiOptions {
            alpha: self
                .candidates_alpha
                .unwrap_or(bnsl::mb::ci_test::DEFAULT_ALPHA),
            allow_constant: true,
            ..Default::default()
        };
        ci.validate().context("--candidates-alpha")?;
        Ok(Some((restriction, ci)))
    }
}
