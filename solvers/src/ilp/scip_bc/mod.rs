//! The SCIP branch-and-cut engine for the family-variable ILP: GOBNILP's approach
//! (Bartlett & Cussens 2017, "Integer linear programming for the Bayesian network
//! structure learning problem", AIJ 244) on SCIP 10 through russcip.
//!
//! One SCIP solve holds the family binaries with the convexity rows as set-partitioning
//! constraints (eq. (2)), and plugins that handle the exponentially many cluster
//! constraints (eq. (3)) inside the search:
//! - the constraint handler `acyclic` makes the search exact: integral LP solutions
//!   whose families form a cycle are cut off by the clusters of that cycle;
//! - a separator cuts fractional LP solutions with the cluster heuristics and, when
//!   [`ScipBcSettings`] ask for it, the combinatorial cluster search and the exact sub-IP
//!   (§5 of the paper); cuts are global rows kept in SCIP's cut pool;
//! - the sink heuristic rounds LP solutions into DAGs (§6);
//! - on large and deep-tree tables ([`ScipBcSettings::deep_tree_score`]), the branching
//!   rule `arrows` branches on arrows by bounds on the family columns (§7's arrow
//!   branching without arrow variables);
//! - an event handler reports progress when the incumbent or the bound improve.
//!
//! The same tree collects every DAG above a threshold (seed 002) with the handler
//! `collector` added and the threshold as SCIP's objective limit; when the collection
//! takes whole Markov equivalence classes, under the covered-arc rows as set packings
//! (`bnsl_formulations::family::covered_arcs`).

mod acyclic;
mod arrow_branch;
mod arrows;
mod collector;
pub(crate) mod engine;
pub(crate) mod handler;
mod params;
mod plugins;
mod propagator;
mod root_stall;
mod separator;
mod sub_scip;
mod tree_pricing;

use super::collect::{
    covered_arc_tolerance, search_limit, CollectProgress, CollectSettings, Found,
};
use super::{gap_closed, proven_bound, FamilyIlpSolver, IlpOptions, IlpOutcome, IlpProgress};
use crate::enumerate::{Enumeration, EnumerationEnd};
use crate::milp::{finite, Limits, SolverError, Status};
use bnsl_formulations::family::arrows::ArrowLinks;
use bnsl_formulations::family::cluster::ClusterCut;
use bnsl_formulations::family::covered_arcs::decreasing_covered_arc_pairs;
use bnsl_formulations::family::set_packing::set_packing_rows;
use bnsl_formulations::milp::SideConstraints;
use bnsl_formulations::{Dag, FamilyIlp, VarSet};
use collector::Collector;
use engine::{Engine, ScipCallFailed};
use plugins::{ProgressEvents, SinkHeuristic, StartHeuristic};
use root_stall::{RootStall, RootStallRule};
use russcip::prelude::*;
use russcip::{ffi, ProblemCreated, Solved, Variable};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;
use tree_pricing::{TreePricing, PRICING_RULES};

pub(crate) use params::set as set_param;
pub use params::ScipParamError;

const NAME: &str = "scip";

/// The prefixes of the SCIP parameters of the engine's own plugins: the constraint
/// handlers `acyclic` and `collect`, the propagator `acyclic`, the separator
/// `clusters`, the branching rule `arrows` and the heuristics `sink` and `start`. SCIP
/// makes them when a solve includes the plugins, so an instance with SCIP's default
/// plugins alone does not know them. A test ties them to the names the plugins are
/// included with.
const PLUGIN_PARAM_PREFIXES: &[&str] = &[
    "constraints/acyclic/",
    "constraints/collect/",
    "propagating/acyclic/",
    "separating/clusters/",
    "branching/arrows/",
    "heuristics/sink/",
    "heuristics/start/",
];

/// Whether `name` is a SCIP parameter of one of the engine's plugins
/// (`PLUGIN_PARAM_PREFIXES`), which is checked when a solve sets it.
pub(crate) fn is_plugin_param(name: &str) -> bool {
    plugin_of(name).is_some()
}

/// The prefix in `PLUGIN_PARAM_PREFIXES` of `name`, a parameter of one of the engine's
/// plugins.
fn plugin_of(name: &str) -> Option<&'static str> {
    PLUGIN_PARAM_PREFIXES
        .iter()
        .copied()
        .find(|prefix| name.starts_with(prefix))
}

/// Settings of the branch-and-cut engine beyond [`IlpOptions`].
#[derive(Clone, Debug, PartialEq)]
pub struct ScipBcSettings {
    /// Visits allowed to the combinatorial cluster search per call (0: no search, the
    /// default: where it was tried, the search ran out of its visit budget at every call
    /// and made the solve slower; see README, "Benchmark notes behind design choices").
    pub search_budget: usize,
    /// At most this many (most violated) clusters of one search become cuts.
    pub search_cuts: usize,
    /// The exact separation sub-IP (a SCIP sub-instance, see `sub_scip`) runs, when the
    /// heuristics (and the search) found no cluster, at nodes of at most this depth (0:
    /// the root only; negative: never). `None`: every depth when solving, as in GOBNILP,
    /// since the sub-IP became cheap and closes files at the root that the heuristics
    /// alone leave to a much longer search; the root when collecting, whose thousands
    /// of nodes have integral LP solutions that the heuristics separate exactly (see
    /// README, "Benchmark notes behind design choices").
    pub sub_ip_depth: Option<i32>,
    /// The most seconds one call of the sub-IP may take (default 1 s; GOBNILP's is
    /// 10 s); the clusters it found by then are its cuts, and a call that found none
    /// leaves the point to branching (the constraint handler keeps the search exact).
    /// On the fractional LP solutions of large tables learned from few rows, a single
    /// call could otherwise take the rest of the time limit while the bound stands still
    /// (README, "Large candidate sets").
    pub sub_ip_time_limit: f64,
    /// The branching rule of the sub-IP: the name of one of SCIP's branching rules, put
    /// ahead of the others, or `default` for SCIP's own choice (reliability branching).
    /// The default, `leastinf`, see `sub_scip`.
    pub sub_ip_branching: String,
    /// Whether a start DAG goes to SCIP at the first node below the root (the default,
    /// see `plugins::StartHeuristic`) rather than before the solve. A start still held
    /// back when the solve ends (it ended at the root) is the outcome if it beats SCIP's.
    pub start_below_root: bool,
    /// The sink heuristic runs at nodes of at most this depth (negative: every depth).
    /// `None`: every depth when solving; not at all when collecting, where the tree
    /// reaches every DAG and the collection handler rejects the heuristic's (README,
    /// "Benchmark notes behind design choices").
    pub heuristic_depth: Option<i32>,
    /// Whether cluster cuts may be removed from the LP when SCIP finds them inactive
    /// (they stay in the global cut pool either way).
    pub removable_cuts: bool,
    /// Whether the set-packing rows of small clusters (GOBNILP's initial rows, see
    /// [`set_packing_rows`]) start in the program.
    pub set_packing: bool,
    /// Whether those rows are in the initial LP (GOBNILP's choice) rather than
    /// separated by SCIP's set-packing handler only when the LP solution violates them
    /// (the default: lazily is faster on some files and no slower on the others; see
    /// README, "Benchmark notes behind design choices").
    pub set_packing_initial: bool,
    /// Whether the acyclicity propagator closes, at every node, the family columns that
    /// would close a cycle with the arcs the node's bounds imply (GOBNILP's DAG-cluster
    /// propagation, see `propagator`).
    pub propagation: bool,
    /// Whether SCIP's own general-purpose cut separators run (the cluster separator
    /// always does). `None`: when solving, not when collecting (README, as above).
    pub scip_cuts: Option<bool>,
    /// Whether SCIP's own primal heuristics run (the sink heuristic always does).
    /// `None`: when solving, not when collecting (README, as above).
    pub scip_heuristics: Option<bool>,
    /// Tables of at least this many family columns count as large, unless their scores make
    /// them deep-tree tables ([`ScipBcSettings::deep_tree_score`]): there the root keeps
    /// separating as long as cuts are found (until the root-stall rule ends it), SCIP's
    /// heuristics and separators that do nothing there are off (`LARGE_TABLE_PARAMS`), and
    /// a start DAG goes to SCIP before the solve. Their node LPs are slow (tens of
    /// thousands of columns), so the bound rises faster by cuts at the root than by
    /// branching; a root that never ends would never take a start held back for the first
    /// node below it. Measured in README, "Benchmark notes behind design choices".
    pub large_table_columns: usize,
    /// Tables whose variables' best local scores average at least this magnitude (nats;
    /// `inf`: never) are *deep-tree* tables, of any number of columns: learned from many
    /// rows, their LP is nearly integral and the proof is won in a deep tree over small
    /// differences. SCIP's root stall rule counts a round as stalled when the LP value
    /// moves by less than 10⁻⁴ of itself, which on network scores of 10⁴-10⁶ ends the root
    /// while its cuts still gain. They take the small tables' settings
    /// (`SMALL_TABLE_PARAMS`, 4B cuts, the start below the root) and the large tables' root
    /// and tree: the root runs while cuts come (until the root-stall rule of
    /// [`ScipBcSettings::root_stall_gain`]), then arrow branching by the family columns and
    /// best-first nodes without plunging (`DEEP_TREE_PARAMS`). Measured in README, "Large
    /// candidate sets".
    pub deep_tree_score: f64,
    /// Seconds of an ASOBS search (one thread, insertion local search, seed 1) run at
    /// the first node below the root of a deep-tree table when no start DAG is given
    /// (an optimising solve without side constraints); its network goes to SCIP as the
    /// start heuristic's. The root closes the easy ones without it; in the tree an
    /// early near-optimal incumbent prunes. It searches longer when the root took long:
    /// for [`ScipBcSettings::deep_tree_start_share`] of the root's time when that is
    /// more. `0`: none. Measured in README, "Large candidate sets".
    pub deep_tree_start: f64,
    /// The share of the root's time the search of [`ScipBcSettings::deep_tree_start`]
    /// may take (at least `deep_tree_start` seconds): the primal side gets a fixed
    /// share of the effort the dual side has spent, as SCIP's heuristics get a share of
    /// the LP iterations.
    pub deep_tree_start_share: f64,
    /// A deep-tree table ([`ScipBcSettings::deep_tree_score`]) with at least this many
    /// family columns per variable (`inf`: none) separates its root as GOBNILP does
    /// (`ROOT_CUT_LOOP_PARAMS`: close cuts, Gomory cuts in every round, fewer and deeper
    /// cuts per round): many near-equal parent sets per variable leave a root LP that
    /// plain rounds close slowly and a long tree, which the stronger root shortens,
    /// while on the tables whose root closes it costs seconds. Measured in README,
    /// "Large candidate sets".
    pub deep_root_columns: f64,
    /// Whether the problem holds GOBNILP's arrow and adjacency variables, linked to the
    /// family columns ([`ArrowLinks`]), and SCIP branches on them first. Off by
    /// default: with them SCIP needed fewer nodes on some files but took longer on
    /// most (the linking rows make the root and strong branching dearer; figures in
    /// README, the row of `bnsl/arrow_branching` under "Exact ILP").
    pub arrow_branching: bool,
    /// Whether SCIP branches on arrows by bounds on the family columns (the rule
    /// `arrow_branch`: u → v absent in one child, present in the other; no arrow
    /// variables in the LP); `None`: on large and deep-tree tables
    /// ([`ScipBcSettings::deep_tree_score`]), and on small tables whose best scores
    /// average at least [`ScipBcSettings::arrow_fixing_score`]. Optimising solves only;
    /// a collection branches as SCIP chooses.
    pub arrow_fixing: Option<bool>,
    /// A small table whose variables' best local scores average at least this
    /// magnitude (nats; `inf`: none) branches on arrows by default
    /// ([`ScipBcSettings::arrow_fixing`]) while keeping the small tables' root: learned
    /// from a few thousand rows, its tree is deep enough for the rule to pay, and its
    /// root still closes quickly. Such a table also turns off SCIP's aggregation
    /// separator, Farkas diving and the feasibility pump (`DEEP_TREE_OFF_PARAMS`), as
    /// deep-tree tables do. Measured in README, "Large candidate sets".
    pub arrow_fixing_score: f64,
    /// How many of the most fractional arrows the rule of
    /// [`ScipBcSettings::arrow_fixing`] probes per node (strong branching on both
    /// children's LPs); 0 or 1: it branches on the most fractional one unprobed.
    pub arrow_probes: usize,
    /// After how many probings of both children an arrow of the rule of
    /// [`ScipBcSettings::arrow_fixing`] is scored by its pseudocosts instead of probed
    /// (reliability branching on arrows); the rule then scores
    /// `CANDIDATES_PER_PROBE` times [`ScipBcSettings::arrow_probes`] candidates and
    /// probes at most `arrow_probes` of the unreliable ones. 0: the
    /// `arrow_probes` most fractional arrows, all probed. Measured in README, "Large
    /// candidate sets".
    pub arrow_reliability: u32,
    /// On large and deep-tree tables, leave the root once
    /// [`ScipBcSettings::root_stall_share`] of the time limit has passed (no limit: one
    /// window) and the bound gained over the last `root_stall_window` seconds is less
    /// than this fraction of the gap between bound and incumbent; `0`: never
    /// (`root_stall`). Measured in README, "Large candidate sets".
    pub root_stall_gain: f64,
    /// The window of [`ScipBcSettings::root_stall_gain`], in seconds.
    pub root_stall_window: f64,
    /// The share of the time limit the root of a large table always gets before
    /// [`ScipBcSettings::root_stall_gain`] may end it.
    pub root_stall_share: f64,
    /// The solving time, in seconds, from which the root of a large or deep-tree table
    /// also ends once a window gains less than [`ScipBcSettings::root_stall_late_gain`]
    /// of the gap (`inf`: never); with a time limit at or below it, the root keeps the
    /// rule of [`ScipBcSettings::root_stall_gain`] alone. Measured in README, "Large
    /// candidate sets".
    pub root_stall_late: f64,
    /// The fraction of the gap a window of the root must gain after
    /// [`ScipBcSettings::root_stall_late`] (`inf`: the root ends then whatever it gains).
    pub root_stall_late_gain: f64,
    /// Whether the separator also adds violated 4B inequalities, facets of the
    /// four-node family-variable polytope beyond the cluster constraints
    /// (`bnsl_formulations::family::four_b`), at every node; `None`: on tables that are
    /// not large, in optimising solves (with `SMALL_TABLE_PARAMS`) and collections.
    /// Measured in README, "Large candidate sets" and "Benchmark notes behind design
    /// choices".
    pub four_b_cuts: Option<bool>,
    /// The largest k of the k-cluster cuts separated at the root
    /// (`bnsl_formulations::family::k_cluster`); below 2: none.
    pub k_cluster_max: usize,
    /// In a collection, a child of the branching that excludes a DAG is collected by
    /// enumeration instead of being created when the candidates its nodes keep fall
    /// into strongly connected parts of at most this many nodes (`ilp::small_region`); 0:
    /// never. Measured in README, "Benchmark notes behind design choices".
    pub region_part: usize,
    /// SCIP's LP pricing rule (`lp/pricing`: `l`, `a`, `f`, `p`, `s`, `q` or `d`) from
    /// the first node below the root of an optimising solve on; the root keeps
    /// SCIP's (or the user's `lp/pricing`). Default `s`, steepest edge: below the root
    /// the LPs re-solve from a nearby basis, where it takes far fewer dual simplex
    /// iterations than SoPlex's automatic rule (`tree_pricing`; README, "Large
    /// candidate sets").
    pub tree_pricing: char,
    /// SCIP parameters set verbatim after the engine's own (`name`, `value`), e.g.
    /// `("separating/maxrounds", "5")`.
    pub params: Vec<(String, String)>,
}

impl Default for ScipBcSettings {
    fn default() -> Self {
        ScipBcSettings {
            search_budget: 0,
            search_cuts: 5,
            sub_ip_depth: None,
            sub_ip_branching: sub_scip::DEFAULT_BRANCHING.to_string(),
            sub_ip_time_limit: 1.0,
            start_below_root: true,
            heuristic_depth: None,
            removable_cuts: true,
            set_packing: true,
            set_packing_initial: false,
            propagation: true,
            scip_cuts: None,
            scip_heuristics: None,
            k_cluster_max: 0,
            region_part: super::small_region::DEFAULT_REGION_PART,
            four_b_cuts: None,
            arrow_branching: false,
            arrow_fixing: None,
            arrow_fixing_score: 500.0,
            arrow_probes: 8,
            arrow_reliability: 1,
            large_table_columns: 10_000,
            deep_tree_score: 1_000.0,
            deep_tree_start: 1.0,
            deep_tree_start_share: 0.25,
            deep_root_columns: 100.0,
            root_stall_gain: 0.01,
            root_stall_window: 120.0,
            root_stall_share: 1.0 / 3.0,
            root_stall_late: f64::INFINITY,
            root_stall_late_gain: 0.1,
            tree_pricing: 's',
            params: Vec::new(),
        }
    }
}

impl ScipBcSettings {
    /// Settings from `name=value` pairs: the engine's own settings under `bnsl/`
    /// (`bnsl/sub_ip_depth`, `bnsl/sub_ip_branching`, `bnsl/heuristic_depth`, ...), every
    /// other name is a SCIP parameter passed through (checked when the solve starts).
    pub fn from_params(pairs: &[(String, String)]) -> Result<Self, ScipParamError> {
        let mut settings = ScipBcSettings::default();
        for (name, value) in pairs {
            let bad = |kind| ScipParamError::BadValue {
                name: name.clone(),
                kind,
                value: value.clone(),
            };
            let threshold = || parse_threshold(value).ok_or_else(|| bad("real ≥ 0 or inf"));
            let flag = || parsed::<bool>(value, "bool", &bad);
            let finite = || parse_non_negative(value).ok_or_else(|| bad("finite real ≥ 0"));
            match name.as_str() {
                "bnsl/sub_ip_depth" => settings.sub_ip_depth = Some(parsed(value, "int", &bad)?),
                "bnsl/sub_ip_branching" => settings.sub_ip_branching = value.clone(),
                "bnsl/sub_ip_time_limit" => {
                    settings.sub_ip_time_limit = value
                        .parse::<f64>()
                        .ok()
                        .filter(|x| *x > 0.0)
                        .ok_or_else(|| bad("real > 0"))?
                }
                "bnsl/start_below_root" => settings.start_below_root = flag()?,
                "bnsl/search_budget" => settings.search_budget = parsed(value, "int", &bad)?,
                "bnsl/search_cuts" => settings.search_cuts = parsed(value, "int", &bad)?,
                "bnsl/heuristic_depth" => {
                    settings.heuristic_depth = Some(parsed(value, "int", &bad)?)
                }
                "bnsl/removable_cuts" => settings.removable_cuts = flag()?,
                "bnsl/set_packing" => settings.set_packing = flag()?,
                "bnsl/set_packing_initial" => settings.set_packing_initial = flag()?,
                "bnsl/propagation" => settings.propagation = flag()?,
                "bnsl/scip_cuts" => settings.scip_cuts = Some(flag()?),
                "bnsl/large_table_columns" => {
                    settings.large_table_columns = parsed(value, "int", &bad)?
                }
                "bnsl/deep_tree_score" => settings.deep_tree_score = threshold()?,
                "bnsl/deep_tree_start" => {
                    settings.deep_tree_start =
                        parse_non_negative(value).ok_or_else(|| bad("real ≥ 0"))?
                }
                "bnsl/deep_tree_start_share" => settings.deep_tree_start_share = finite()?,
                "bnsl/deep_root_columns" => settings.deep_root_columns = threshold()?,
                "bnsl/arrow_branching" => settings.arrow_branching = flag()?,
                "bnsl/arrow_fixing" => settings.arrow_fixing = Some(flag()?),
                "bnsl/arrow_fixing_score" => settings.arrow_fixing_score = threshold()?,
                "bnsl/arrow_reliability" => {
                    settings.arrow_reliability = parsed(value, "int", &bad)?
                }
                "bnsl/arrow_probes" => settings.arrow_probes = parsed(value, "int", &bad)?,
                "bnsl/root_stall_gain" => settings.root_stall_gain = finite()?,
                "bnsl/root_stall_window" => settings.root_stall_window = finite()?,
                "bnsl/root_stall_share" => {
                    settings.root_stall_share = parse_non_negative(value)
                        .filter(|share| *share <= 1.0)
                        .ok_or_else(|| bad("real in [0, 1]"))?
                }
                "bnsl/root_stall_late" => settings.root_stall_late = threshold()?,
                "bnsl/root_stall_late_gain" => settings.root_stall_late_gain = threshold()?,
                "bnsl/four_b_cuts" => settings.four_b_cuts = Some(flag()?),
                "bnsl/k_cluster_max" => settings.k_cluster_max = parsed(value, "int", &bad)?,
                "bnsl/region_part" => {
                    settings.region_part = value
                        .parse()
                        .ok()
                        .filter(|&k| k <= super::small_region::MAX_REGION_PART)
                        .ok_or_else(|| bad("int from 0 to 25"))?
                }
                "bnsl/scip_heuristics" => settings.scip_heuristics = Some(flag()?),
                "bnsl/tree_pricing" => {
                    settings.tree_pricing = value
                        .parse::<char>()
                        .ok()
                        .filter(|rule| PRICING_RULES.contains(*rule))
                        .ok_or_else(|| bad("one of l, a, f, p, s, q, d"))?
                }
                other if other.starts_with("bnsl/") => {
                    return Err(ScipParamError::Unknown(other.to_string()))
                }
                _ => settings.params.push((name.clone(), value.clone())),
            }
        }
        Ok(settings)
    }

    /// The settings of a collection: those left to the engine (`None`) take their
    /// collection defaults.
    fn for_collection(&self) -> Self {
        ScipBcSettings {
            sub_ip_depth: Some(self.sub_ip_depth.unwrap_or(0)),
            scip_cuts: Some(self.scip_cuts.unwrap_or(false)),
            scip_heuristics: Some(self.scip_heuristics.unwrap_or(false)),
            ..self.clone()
        }
    }

    /// Whether an optimising solve in `regime` branches on arrows
    /// ([`ScipBcSettings::arrow_fixing`]).
    fn branches_on_arrows(&self, regime: TableRegime) -> bool {
        self.arrow_fixing.unwrap_or(!matches!(
            regime,
            TableRegime::Small {
                arrow_scores: false
            }
        ))
    }

    /// The lists of SCIP parameters of an optimising solve of `ilp` in `regime`, in
    /// the order they are set after `ALWAYS_PARAMS`: `OPTIMISING_PARAMS`, then the
    /// regime's.
    fn table_params(
        &self,
        ilp: &FamilyIlp<'_>,
        regime: TableRegime,
    ) -> Vec<&'static [(&'static str, &'static str)]> {
        let mut lists = vec![OPTIMISING_PARAMS];
        match regime {
            TableRegime::Small { arrow_scores } => {
                lists.push(SMALL_TABLE_PARAMS);
                if arrow_scores {
                    lists.push(DEEP_TREE_OFF_PARAMS);
                }
            }
            TableRegime::DeepTree => {
                lists.extend([
                    SMALL_TABLE_PARAMS,
                    DEEP_TREE_PARAMS,
                    DEEP_TREE_OFF_PARAMS,
                    DIVING_OFF_PARAMS,
                ]);
                if self.separates_a_deep_root(ilp, regime) {
                    lists.push(ROOT_CUT_LOOP_PARAMS);
                }
            }
            TableRegime::Large => {
                lists.extend([ROOT_CUT_LOOP_PARAMS, LARGE_TABLE_PARAMS, DIVING_OFF_PARAMS])
            }
        }
        lists
    }

    /// Whether a solve of `ilp`, in `regime`, separates its root as GOBNILP does
    /// ([`ScipBcSettings::deep_root_columns`]).
    fn separates_a_deep_root(&self, ilp: &FamilyIlp<'_>, regime: TableRegime) -> bool {
        let n = ilp.n().max(1);
        regime == TableRegime::DeepTree
            && ilp.num_columns() as f64 / n as f64 >= self.deep_root_columns
    }

    /// Whether `ilp` is a large table ([`ScipBcSettings::large_table_columns`]).
    fn is_large(&self, ilp: &FamilyIlp<'_>) -> bool {
        ilp.num_columns() >= self.large_table_columns
    }

    /// The settings regime of an optimising solve of `ilp`: deep-tree by its scores
    /// whatever its size, else large by its columns, else small.
    fn regime(&self, ilp: &FamilyIlp<'_>) -> TableRegime {
        let magnitude = mean_best_score_magnitude(ilp);
        if magnitude >= self.deep_tree_score {
            TableRegime::DeepTree
        } else if self.is_large(ilp) {
            TableRegime::Large
        } else {
            TableRegime::Small {
                arrow_scores: magnitude >= self.arrow_fixing_score,
            }
        }
    }

    /// Whether a solve under these settings of a table of `regime` separates 4B
    /// inequalities ([`ScipBcSettings::four_b_cuts`]).
    fn four_b_cuts_for(&self, regime: TableRegime) -> bool {
        self.four_b_cuts.unwrap_or(regime != TableRegime::Large)
    }

    /// The depth limit of the sub-IP ([`ScipBcSettings::sub_ip_depth`]).
    pub(crate) fn sub_ip_depth(&self) -> i32 {
        self.sub_ip_depth.unwrap_or(i32::MAX)
    }
}

/// `value` as a finite non-negative real, if it is one.
fn parse_non_negative(value: &str) -> Option<f64> {
    value
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
}

/// `value` as a `T`, or the error `bad` makes for a value that is not a `kind`.
fn parsed<T: std::str::FromStr>(
    value: &str,
    kind: &'static str,
    bad: &dyn Fn(&'static str) -> ScipParamError,
) -> Result<T, ScipParamError> {
    value.parse().map_err(|_| bad(kind))
}

/// `value` as a threshold: a real ≥ 0 or infinity (never reached), if it is one.
fn parse_threshold(value: &str) -> Option<f64> {
    value.parse::<f64>().ok().filter(|x| *x >= 0.0)
}

/// The engine (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct ScipBranchAndCut {
    settings: ScipBcSettings,
}

impl ScipBranchAndCut {
    /// The engine with `settings`.
    pub fn new(settings: ScipBcSettings) -> Self {
        ScipBranchAndCut { settings }
    }
}

/// Solves `scip`, printing SCIP's statistics when `verbose`.
fn run(scip: Model<ProblemCreated>, verbose: bool) -> Result<Model<Solved>, SolverError> {
    let solved = scip
        .try_solve()
        .map_err(|code| error(format!("solve failed: {code:?}")))?;
    if verbose {
        // SAFETY: the solved instance is live; a null file is SCIP's standard output.
        let _ = unsafe { ffi::SCIPprintStatistics(solved.scip_ptr(), std::ptr::null_mut()) };
    }
    Ok(solved)
}

/// SCIP parameters of every solve of the engine.
///
/// No locks from the acyclicity handler: strong dual reductions, which reason from
/// locks, would be unsound. Weak dual reductions (in propagation: reduced-cost fixing at
/// the root and at every node, and pseudo-objective propagation, which reason from the
/// objective, the LP and the incumbent only) are off here because a collection wants
/// the networks they would cut off; optimising solves turn them on
/// (`OPTIMISING_PARAMS`). No presolving, so SCIP's presolvers, which would use locks,
/// never run. No restarts: a good incumbent fixes many columns at the root by reduced
/// cost, and the restart that follows runs the whole root cut loop again, which makes
/// a warm start slower than a cold solve. Random rounding never yields a DAG here. Lock
/// rounding fixes the columns one at a time, propagating after each, and the
/// acyclicity propagator reads every column's bound per call, so its cost grows with
/// the square of the candidates; it yields no DAG on small tables either. Zero-half
/// cuts ({0, 1/2}-Chvátal-Gomory cuts of the cluster and convexity rows) in every root
/// round, not only SCIP's default 20: where the cluster cuts have converged they go on
/// raising the root bound. (Figures: README, "Benchmark notes behind design choices".)
const ALWAYS_PARAMS: &[(&str, &str)] = &[
    ("misc/allowstrongdualreds", "false"),
    ("misc/allowweakdualreds", "false"),
    ("presolving/maxrounds", "0"),
    ("presolving/maxrestarts", "0"),
    ("heuristics/randrounding/freq", "-1"),
    ("heuristics/locks/freq", "-1"),
    ("separating/zerohalf/maxroundsroot", "-1"),
];

/// SCIP parameters of every optimising solve, first of its `table_params`: weak dual
/// reductions on, so that SCIP's reduced-cost fixing closes the family columns whose
/// reduced cost exceeds the gap between the LP bound and the incumbent, at the root
/// for good and at every node below it: smaller node and probing LPs and fewer arrows
/// to branch on (README, "Large candidate sets").
const OPTIMISING_PARAMS: &[(&str, &str)] = &[("misc/allowweakdualreds", "true")];

/// SCIP parameters of a collection: depth-first node selection. Under the fixed
/// objective limit the order of the nodes hardly changes which ones are processed, and
/// depth first each child starts from its parent's LP basis. (Figures: README,
/// "Benchmark notes behind design choices".)
const COLLECTION_PARAMS: &[(&str, &str)] = &[("nodeselection/dfs/stdpriority", "536870911")];

/// SCIP parameters of the optimising solves of tables that are not large: SCIP's
/// reliability branching gives up its strong branching after one candidate that does
/// not beat the best (GOBNILP's setting; SCIP: 9), and the global cut pool is separated
/// at every node (GOBNILP's setting; SCIP: at depths that are multiples of 10), so the
/// cluster cuts that left the LP as removable rows come back wherever they are
/// violated. With the 4B cuts, on by default on these tables
/// ([`ScipBcSettings::four_b_cuts`]), the trees are smaller and strong branching is
/// most of their time; with the pool at every node they take fewer nodes again (README,
/// "Large candidate sets"). The cluster separator at every node, as GOBNILP separates
/// cluster cuts (SCIP's exponential back-off, 4, would call it at depths 0, 1, 4, 16,
/// 64 only): the deep trees take fewer nodes. The large tables keep the back-off: their
/// few nodes re-solve LPs of tens of thousands of columns, and their bound at the limit
/// is the stronger with it (README, "Benchmark notes behind design choices").
const SMALL_TABLE_PARAMS: &[(&str, &str)] = &[
    ("branching/relpscost/maxlookahead", "1"),
    ("separating/poolfreq", "1"),
    ("separating/clusters/expbackoff", "1"),
];

/// How an optimising solve is set up, by the table ([`ScipBcSettings::regime`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum TableRegime {
    /// Below [`ScipBcSettings::large_table_columns`] and
    /// [`ScipBcSettings::deep_tree_score`].
    Small {
        /// Whether the variables' best local scores average at least
        /// [`ScipBcSettings::arrow_fixing_score`].
        arrow_scores: bool,
    },
    /// Scores of at least [`ScipBcSettings::deep_tree_score`] per variable, any
    /// number of columns.
    DeepTree,
    /// At least [`ScipBcSettings::large_table_columns`] columns, scores below
    /// [`ScipBcSettings::deep_tree_score`].
    Large,
}

/// The mean over the variables of the magnitude of their best local score (0 for no
/// variables): it grows with the number of rows the scores were learned from
/// ([`ScipBcSettings::deep_tree_score`]).
fn mean_best_score_magnitude(ilp: &FamilyIlp<'_>) -> f64 {
    let table = ilp.table();
    let n = ilp.n();
    if n == 0 {
        return 0.0;
    }
    let total: f64 = (0..n)
        .filter_map(|v| table.candidates(v).iter().map(|c| c.score).reduce(f64::max))
        .map(f64::abs)
        .sum();
    total / n as f64
}

/// SCIP parameters of the solves of deep-tree tables
/// ([`ScipBcSettings::deep_tree_score`]), after `SMALL_TABLE_PARAMS`: the large
/// tables' root (no round-counting stall rule) and node selection (best first without
/// plunging) (README, "Large candidate sets").
const DEEP_TREE_PARAMS: &[(&str, &str)] = &[
    ("separating/maxstallroundsroot", "-1"),
    ("nodeselection/bfs/stdpriority", "1000000"),
    ("nodeselection/bfs/maxplungedepth", "0"),
];

/// SCIP parameters of the tables that are not large and whose variables' best scores
/// average at least [`ScipBcSettings::arrow_fixing_score`] (learned from thousands of
/// rows, deep-tree tables among them): off three of what the large tables turn off,
/// which on these tables run at the root and in the tree and find nothing: the
/// aggregation separator (c-MIR, flow cover, knapsack cover), Farkas diving and the
/// feasibility pump. On tables learned from fewer rows they stay on: there they shorten
/// carpo100's tree (README, "Large candidate sets").
const DEEP_TREE_OFF_PARAMS: &[(&str, &str)] = &[
    ("separating/aggregation/freq", "-1"),
    ("heuristics/farkasdiving/freq", "-1"),
    ("heuristics/feaspump/freq", "-1"),
];

/// SCIP's diving heuristics, off on deep-tree and large tables. Each dive re-solves the
/// LP down a path of fixings; where the tree is long or the LP has tens of thousands of
/// columns a dive costs seconds to minutes, and none finds a DAG the sink heuristic and
/// the start (given, or searched below the root) do not. On the other tables they stay
/// on, where they shorten the trees (README, "Large candidate sets").
const DIVING_OFF_PARAMS: &[(&str, &str)] = &[
    ("heuristics/adaptivediving/freq", "-1"),
    ("heuristics/coefdiving/freq", "-1"),
    ("heuristics/conflictdiving/freq", "-1"),
    ("heuristics/distributiondiving/freq", "-1"),
    ("heuristics/farkasdiving/freq", "-1"),
    ("heuristics/fracdiving/freq", "-1"),
    ("heuristics/guideddiving/freq", "-1"),
    ("heuristics/linesearchdiving/freq", "-1"),
    ("heuristics/objpscostdiving/freq", "-1"),
    ("heuristics/pscostdiving/freq", "-1"),
    ("heuristics/rootsoldiving/freq", "-1"),
    ("heuristics/veclendiving/freq", "-1"),
];

/// SCIP parameters of GOBNILP's root cut loop, for large tables and for deep-tree
/// tables with many columns per variable ([`ScipBcSettings::deep_root_columns`]).
///
/// SCIP's close-cut separator at the root, separating a point between the LP optimum
/// and the incumbent (GOBNILP's setting) with every separator, the cluster separator
/// included (`separator`): those cuts raise the bound at the time limit (README, "Large
/// candidate sets"). Gomory cuts in every round, at most 300 cuts a round (SCIP: 2,000)
/// and none of efficacy below 0.0005 (SCIP: 0.0001): fewer, deeper cuts keep the root
/// LP small and its bound converges lower (README, "Leaving a stalled root").
const ROOT_CUT_LOOP_PARAMS: &[(&str, &str)] = &[
    ("separating/closecuts/freq", "0"),
    ("separating/closecuts/separelint", "false"),
    ("separating/gomory/maxroundsroot", "-1"),
    ("separating/maxcutsroot", "300"),
    ("separating/minefficacyroot", "0.0005"),
];

/// SCIP parameters of the solves of large tables
/// ([`ScipBcSettings::large_table_columns`]).
///
/// The root keeps separating as long as cuts are found (SCIP's stall rule, counting
/// rounds, is off; the root-stall rule of [`ScipBcSettings::root_stall_gain`], counting
/// seconds, ends it). Off: the diving heuristics (`DIVING_OFF_PARAMS`),
/// shifting, the feasibility pump and RENS (the sink heuristic and the start find the
/// DAGs), and the separators that find nothing in these rows (aggregation, clique,
/// implied bounds, objective integrality, multi-commodity flow): on large tables they
/// cost much of the root's time and find no DAG and no cut, while on small ones some of
/// them pay (the heuristics and aggregation shorten carpo500's tree). GOBNILP turns off
/// the same ones (`BN_setParamaterDefaults`). (Figures: README, "Benchmark notes behind
/// design choices".)
///
/// A cut's efficacy is its violation (`separating/efficacynorm` `d`, GOBNILP's
/// setting) rather than its violation over its Euclidean norm, so SCIP's cut selection
/// does not favour the cuts of small clusters over those of large ones, whose rows have
/// thousands of columns.
///
/// On, besides `ROOT_CUT_LOOP_PARAMS`: odd-cycle cuts at the root. Below the root,
/// best-first node selection without plunging: the node taken is always one whose
/// bound is the global bound, so with the arrow branching rule (`arrow_branch`, on by
/// default on large tables) each node processed can raise it (README, "Arrow branching
/// by the family columns").
const LARGE_TABLE_PARAMS: &[(&str, &str)] = &[
    ("separating/maxstallroundsroot", "-1"),
    ("separating/efficacynorm", "d"),
    ("separating/oddcycle/freq", "0"),
    ("nodeselection/bfs/stdpriority", "1000000"),
    ("nodeselection/bfs/maxplungedepth", "0"),
    ("heuristics/shifting/freq", "-1"),
    ("heuristics/feaspump/freq", "-1"),
    ("heuristics/rens/freq", "-1"),
    ("separating/aggregation/freq", "-1"),
    ("separating/clique/freq", "-1"),
    ("separating/impliedbounds/freq", "-1"),
    ("separating/intobj/freq", "-1"),
    ("separating/mcf/freq", "-1"),
];

fn error(message: String) -> SolverError {
    SolverError::Backend {
        backend: NAME,
        message,
    }
}

fn failed(what: &str) -> impl Fn(ScipCallFailed) -> SolverError + '_ {
    move |ScipCallFailed(code)| error(format!("{what} failed (SCIP code {code})"))
}

impl FamilyIlpSolver for ScipBranchAndCut {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(
        &self,
        ilp: &FamilyIlp<'_>,
        options: &IlpOptions,
        progress: &dyn Fn(&IlpProgress),
    ) -> Result<IlpOutcome, SolverError> {
        options.limits.validate()?;
        let began = Instant::now();
        let (scip, vars, links) = self.build(ilp, options)?;
        let original = vars.iter().map(Variable::inner).collect();
        let regime = self.settings.regime(ilp);
        // SAFETY: the engine lives in the plugins of `scip`, which is dropped (freeing
        // them) before this function returns; `ilp` and `progress` outlive it.
        let engine = Rc::new(RefCell::new(unsafe {
            Engine::new(
                ilp,
                original,
                inner(&links),
                options,
                &self.settings,
                self.settings.four_b_cuts_for(regime),
                progress,
            )
        }));
        engine.borrow_mut().root_stall = self.root_stall(regime);
        let large = regime == TableRegime::Large;
        let mut scip = self.include_plugins(scip, &engine, options.side.is_none())?;
        scip.include_eventhdlr(
            "tree_pricing",
            "sets the LP pricing rule at the first node below the root",
            Box::new(TreePricing::new(self.settings.tree_pricing)),
        );
        if self.settings.branches_on_arrows(regime) {
            arrow_branch::include(
                scip.scip_ptr(),
                &engine,
                ilp,
                self.settings.arrow_probes,
                self.settings.arrow_reliability,
            )
            .map_err(failed("including the arrow branching rule"))?;
        }
        if options.side.is_some() {
            // A DAG alone sets no side column: no start can be given.
        } else if self.settings.start_below_root && !large {
            engine.borrow_mut().pending_start = options.start.clone();
        } else if let Some(dag) = &options.start {
            add_start(&mut scip, ilp, &vars, &links, dag);
        }
        engine.borrow_mut().pending_search = options.start.is_none()
            && options.side.is_none()
            && regime == TableRegime::DeepTree
            && self.settings.deep_tree_start > 0.0;
        let table_params = self.settings.table_params(ilp, regime);
        scip = self.set_params(scip, options, &table_params)?;
        let solved = run(scip, options.limits.verbose)?;
        let held_back = engine.borrow_mut().pending_start.take();
        let mut outcome = read_outcome(
            ilp,
            &solved,
            &vars,
            &options.limits,
            self.sets_a_gap_limit(),
            held_back,
        );
        outcome.cuts = engine.borrow().cut_count() as u64;
        outcome.clusters = engine.borrow().clusters.iter().cloned().collect();
        outcome.clusters.sort_unstable();
        drop((vars, links));
        drop(solved);
        outcome.time_s = began.elapsed().as_secs_f64();
        Ok(outcome)
    }

    fn collect(
        &self,
        ilp: &FamilyIlp<'_>,
        settings: &CollectSettings,
        progress: &dyn Fn(&CollectProgress),
    ) -> Result<Enumeration, SolverError> {
        ScipBranchAndCut::new(self.settings.for_collection()).collect_tree(ilp, settings, progress)
    }
}

impl ScipBranchAndCut {
    /// [`FamilyIlpSolver::collect`] with the engine's settings as they are.
    fn collect_tree(
        &self,
        ilp: &FamilyIlp<'_>,
        settings: &CollectSettings,
        progress: &dyn Fn(&CollectProgress),
    ) -> Result<Enumeration, SolverError> {
        let options = collection_options(&settings.ilp);
        options.limits.validate()?;
        let (mut scip, vars, links) = self.build(ilp, &options)?;
        add_clusters(&mut scip, ilp, &vars, &settings.clusters);
        if settings.takes_whole_classes() {
            let tolerance = covered_arc_tolerance(ilp, settings.threshold);
            add_covered_arc_rows(&mut scip, ilp, tolerance, &vars);
        }
        let original = vars.iter().map(Variable::inner).collect();
        // SAFETY: as in `solve`; `ignore` is static.
        let engine = Rc::new(RefCell::new(unsafe {
            Engine::new(
                ilp,
                original,
                inner(&links),
                &options,
                &self.settings,
                self.settings.four_b_cuts_for(self.settings.regime(ilp)),
                &ignore,
            )
        }));
        engine
            .borrow_mut()
            .clusters
            .extend(settings.clusters.iter().cloned());
        // SAFETY: the collector lives in the handler of `scip`, dropped before `progress`.
        let collector = Rc::new(RefCell::new(unsafe {
            Collector::new(engine.clone(), Found::new(settings), progress)
        }));
        let sink = self.settings.heuristic_depth.is_some();
        let mut scip = self.include_plugins(scip, &engine, sink)?;
        collector::include(scip.scip_ptr(), &collector)
            .map_err(failed("including the collection handler"))?;
        scip = self.set_params(scip, &options, &[COLLECTION_PARAMS])?;
        let limit = search_limit(settings.threshold);
        // SAFETY: the live instance, in the problem stage.
        engine::check(unsafe { ffi::SCIPsetObjlimit(scip.scip_ptr(), limit) })
            .map_err(failed("setting the objective limit"))?;
        let solved = run(scip, options.limits.verbose)?;
        let end = match solved.status() {
            russcip::Status::Infeasible | russcip::Status::Inforunbd | russcip::Status::Optimal => {
                EnumerationEnd::Complete
            }
            _ => EnumerationEnd::Stopped,
        };
        drop((vars, links));
        drop(solved);
        let collector = Rc::try_unwrap(collector)
            .map_err(|_| error("the collection handler outlived SCIP".into()))?
            .into_inner();
        Ok(collector.found.finish(end))
    }
}

/// The sink heuristic's name in SCIP.
const SINK_HEURISTIC: &str = "sink";
/// The start heuristic's name in SCIP.
const START_HEURISTIC: &str = "start";

/// The sink heuristic (rounds LP solutions into DAGs) and the start heuristic (submits
/// the start DAG, or the network of a short ASOBS search, below the root).
fn include_heuristics(scip: &mut Model<ProblemCreated>, engine: &engine::Shared, sink_depth: i32) {
    scip.include_heur(
        SINK_HEURISTIC,
        "rounds the LP solution into a DAG by repeatedly picking a sink",
        100_000,
        'k',
        1,
        0,
        sink_depth,
        HeurTiming::AFTER_LP_NODE,
        false,
        Box::new(SinkHeuristic(engine.clone())),
    );
    scip.include_heur(
        START_HEURISTIC,
        "submits the start DAG, or an ASOBS network, at the first node below the root",
        200_000,
        's',
        1,
        0,
        -1,
        HeurTiming::BEFORE_NODE,
        false,
        Box::new(StartHeuristic(engine.clone())),
    );
}

/// The arrow and adjacency variables of a problem, when it has them.
type LinkVariables = Option<(ArrowLinks, Vec<Variable>)>;

/// The links of `links` with their SCIP variables as raw pointers, for the engine.
fn inner(links: &LinkVariables) -> engine::LinkPointers {
    links
        .as_ref()
        .map(|(links, vars)| (links.clone(), vars.iter().map(Variable::inner).collect()))
}

/// Gives SCIP the start `dag` before the solve: its family columns and, when the
/// problem has them, its arrows and adjacencies. A start that is not a DAG of
/// candidates is simply not stored.
fn add_start(
    scip: &mut Model<ProblemCreated>,
    ilp: &FamilyIlp<'_>,
    vars: &[Variable],
    links: &LinkVariables,
    dag: &Dag,
) {
    let Some(values) = engine::dag_values(ilp, links.as_ref().map(|(links, _)| links), dag) else {
        return;
    };
    let link_vars = links.iter().flat_map(|(_, vars)| vars);
    let sol = scip.create_orig_sol();
    for (var, &value) in vars.iter().chain(link_vars).zip(&values) {
        sol.set_val(var, value);
    }
    let _ = scip.add_sol(sol);
}

/// Adds the columns and rows of `side` to `scip`, after the family columns `vars`.
fn add_side(scip: &mut Model<ProblemCreated>, vars: &[Variable], side: &SideConstraints) {
    let added: Vec<Variable> = side
        .columns
        .iter()
        .map(|c| {
            let kind = match (c.integer, c.lower, c.upper) {
                (true, 0.0, 1.0) => VarType::Binary,
                (true, _, _) => VarType::Integer,
                (false, _, _) => VarType::Continuous,
            };
            scip.add_var(c.lower, c.upper, c.objective, &c.name, kind)
        })
        .collect();
    let column = |index: usize| match index.checked_sub(side.base_columns) {
        Some(k) => &added[k],
        None => &vars[index],
    };
    for row in &side.rows {
        let row_vars: Vec<&Variable> = row
            .coefficients
            .iter()
            .map(|&(v, _)| column(v.index()))
            .collect();
        let coefs: Vec<f64> = row.coefficients.iter().map(|&(_, c)| c).collect();
        scip.add_cons(row_vars, &coefs, row.lower, row.upper, &row.name);
    }
}

/// Adds the cluster constraints of `clusters` to the program, as rows of the first LP.
fn add_clusters(
    scip: &mut Model<ProblemCreated>,
    ilp: &FamilyIlp<'_>,
    vars: &[Variable],
    clusters: &[VarSet],
) {
    for (k, cluster) in clusters.iter().enumerate() {
        let cut = ClusterCut::new(ilp, cluster);
        let (lower, upper) = cut.bounds();
        let row_vars: Vec<&Variable> = cut.columns.iter().map(|&c| &vars[c]).collect();
        let coefs = vec![1.0; row_vars.len()];
        scip.add_cons(
            row_vars,
            &coefs,
            lower,
            upper,
            &format!("start_cluster_{k}"),
        );
    }
}

/// Adds the rows that forbid decreasing covered arcs (module
/// `bnsl_formulations::family::covered_arcs`) as set packings of two columns.
fn add_covered_arc_rows(
    scip: &mut Model<ProblemCreated>,
    ilp: &FamilyIlp<'_>,
    tolerance: f64,
    vars: &[Variable],
) {
    let pairs = decreasing_covered_arc_pairs(ilp, tolerance);
    for (k, [parent, child]) in pairs.into_iter().enumerate() {
        scip.add_cons_set_pack(vec![&vars[parent], &vars[child]], &format!("covered_{k}"));
    }
}

/// The options of a collection's search: those of `options` without a gap, a start or
/// an improving-solution limit, which do not apply.
fn collection_options(options: &IlpOptions) -> IlpOptions {
    IlpOptions {
        limits: Limits {
            gap: None,
            improving_solutions: None,
            ..options.limits.clone()
        },
        start: None,
        ..options.clone()
    }
}

/// Progress of the optimising kind, not reported while collecting.
fn ignore(_: &IlpProgress) {}

impl ScipBranchAndCut {
    /// Whether a `--scip-param limits/gap|limits/absgap` gives SCIP a gap limit of its
    /// own (besides the user's `--gap`, which is in the limits).
    fn sets_a_gap_limit(&self) -> bool {
        self.settings
            .params
            .iter()
            .any(|(name, _)| name == "limits/gap" || name == "limits/absgap")
    }

    /// The SCIP problem: binaries with the local scores as objective (maximised) and a
    /// set-partitioning row per node; the set-packing rows and the arrow and adjacency
    /// variables when the settings ask for them.
    fn build(
        &self,
        ilp: &FamilyIlp<'_>,
        options: &IlpOptions,
    ) -> Result<(Model<ProblemCreated>, Vec<Variable>, LinkVariables), SolverError> {
        let scip =
            Model::try_new().map_err(|code| error(format!("could not create SCIP: {code:?}")))?;
        let scip = if options.limits.verbose {
            scip.set_display_verbosity(4)
        } else {
            crate::milp::scip::silence(scip)
        };
        let mut scip = scip.include_default_plugins();
        if !self.settings.scip_cuts.unwrap_or(true) {
            scip = scip.set_separating(ParamSetting::Off);
        }
        if !self.settings.scip_heuristics.unwrap_or(true) {
            scip = scip.set_heuristics(ParamSetting::Off);
        }
        let mut scip = scip
            .create_prob("bnsl_family")
            .set_obj_sense(ObjSense::Maximize);
        crate::milp::scip::stop_with(&mut scip, &options.limits.stop)?;
        let table = ilp.table();
        let mut vars = Vec::with_capacity(ilp.num_columns());
        for v in 0..ilp.n() {
            let first = vars.len();
            for (k, c) in table.candidates(v).iter().enumerate() {
                vars.push(scip.add_var(0.0, 1.0, c.score, &format!("x_{v}_{k}"), VarType::Binary));
            }
            scip.add_cons_set_part(vars[first..].iter().collect(), &format!("convexity_{v}"));
        }
        if let Some(side) = &options.side {
            add_side(&mut scip, &vars, side);
        }
        if self.settings.set_packing {
            for (r, row) in set_packing_rows(ilp).iter().enumerate() {
                let cons = scip.add_cons_set_pack(
                    row.iter().map(|&c| &vars[c]).collect(),
                    &format!("packing_{r}"),
                );
                if !self.settings.set_packing_initial {
                    // SAFETY: a constraint of the live instance, in the problem stage.
                    let code = unsafe { ffi::SCIPsetConsInitial(scip.scip_ptr(), cons.inner(), 0) };
                    engine::check(code).map_err(failed("making a set-packing row lazy"))?;
                }
            }
        }
        let links = if self.settings.arrow_branching {
            let links = ArrowLinks::of(ilp);
            let added = arrows::add(&mut scip, &vars, &links)
                .map_err(failed("adding the arrow variables"))?;
            Some((links, added))
        } else {
            None
        };
        Ok((scip, vars, links))
    }

    /// The engine's plugins; the DAG heuristics (sink, start) only when `heuristics`:
    /// they set the family columns alone, which a side constraint rejects.
    fn include_plugins(
        &self,
        mut scip: Model<ProblemCreated>,
        engine: &engine::Shared,
        heuristics: bool,
    ) -> Result<Model<ProblemCreated>, SolverError> {
        acyclic::include(scip.scip_ptr(), engine)
            .map_err(failed("including the acyclicity handler"))?;
        if self.settings.propagation {
            propagator::include(scip.scip_ptr(), engine)
                .map_err(failed("including the acyclicity propagator"))?;
        }
        separator::include(scip.scip_ptr(), engine)
            .map_err(failed("including the cluster separator"))?;
        if heuristics {
            include_heuristics(
                &mut scip,
                engine,
                self.settings.heuristic_depth.unwrap_or(-1),
            );
        }
        scip.include_eventhdlr(
            "progress",
            "reports improvements of incumbent and bound",
            Box::new(ProgressEvents(engine.clone())),
        );
        Ok(scip)
    }

    /// The root-stall rule of a solve under `regime`: large and deep-tree tables (whose
    /// root has no round-counting stall rule), when either gain is set.
    fn root_stall(&self, regime: TableRegime) -> Option<RootStall> {
        let settings = &self.settings;
        let late_set = settings.root_stall_late.is_finite() && settings.root_stall_late_gain > 0.0;
        let set = settings.root_stall_gain > 0.0 || late_set;
        (!matches!(regime, TableRegime::Small { .. }) && set).then(|| {
            RootStall::new(RootStallRule {
                gain: settings.root_stall_gain,
                window: settings.root_stall_window,
                share: settings.root_stall_share,
                late: settings.root_stall_late,
                late_gain: settings.root_stall_late_gain,
            })
        })
    }

    /// The engine's SCIP parameters (`ALWAYS_PARAMS`, then each of `table_params` in
    /// turn), then the limits, then the user's pass-through ones.
    fn set_params(
        &self,
        scip: Model<ProblemCreated>,
        options: &IlpOptions,
        table_params: &[&[(&str, &str)]],
    ) -> Result<Model<ProblemCreated>, SolverError> {
        let ptr = scip.scip_ptr();
        let rule = &self.settings.sub_ip_branching;
        if let Some(name) = sub_scip::branching_priority(rule) {
            if !params::exists(ptr, &name) {
                return Err(error(format!(
                    "bnsl/sub_ip_branching: SCIP has no branching rule `{rule}` \
                     (e.g. leastinf, inference, mostinf, pscost, relpscost, or `default`)"
                )));
            }
        }
        let table_params = table_params.iter().copied().flatten();
        for (name, value) in ALWAYS_PARAMS.iter().chain(table_params) {
            params::set(ptr, name, value).map_err(|e| error(e.to_string()))?;
        }
        let limits = &options.limits;
        let mut derived = vec![("limits/gap", limits.gap.unwrap_or(0.0).to_string())];
        if let Some(seconds) = limits.time_limit {
            derived.push(("limits/time", seconds.to_string()));
        }
        if let Some(seed) = limits.seed_i32() {
            derived.push(("randomization/randomseedshift", seed.to_string()));
        }
        for (name, value) in &derived {
            params::set(ptr, name, value).map_err(|e| error(e.to_string()))?;
        }
        crate::milp::scip::set_params(ptr, &self.settings.params)?;
        Ok(scip)
    }
}

/// The outcome of a finished solve: the best solution's DAG (or the start DAG that was
/// `held_back` from SCIP, when it is better), SCIP's dual bound and statistics.
///
/// SCIP's `Optimal` status proves the incumbent optimal ([`proven_bound`]) unless a gap
/// limit stopped it: `limits.gap`, or one set by a SCIP parameter (`gap_parameter`).
fn read_outcome(
    ilp: &FamilyIlp<'_>,
    solved: &Model<Solved>,
    vars: &[Variable],
    limits: &Limits,
    gap_parameter: bool,
    held_back: Option<Dag>,
) -> IlpOutcome {
    let scored = |dag: Dag| dag.check(ilp.table()).ok().map(|score| (dag, score));
    let found = solved.best_sol().and_then(|sol| {
        let values: Vec<f64> = vars.iter().map(|v| sol.val(v)).collect();
        scored(ilp.graph_of(&values))
    });
    let start = held_back.and_then(scored);
    let incumbent = match (found, start) {
        (Some(f), Some(s)) => Some(if s.1 > f.1 { s } else { f }),
        (f, s) => f.or(s),
    };
    let infeasible = incumbent.is_none()
        && matches!(
            solved.status(),
            russcip::Status::Infeasible | russcip::Status::Inforunbd
        );
    let bound = if infeasible {
        None
    } else {
        finite(solved.best_bound())
    };
    let bound = match (bound, &incumbent) {
        (Some(b), Some((_, s))) => Some(b.max(*s)),
        (b, _) => b,
    };
    let scip_optimal = !gap_parameter && solved.status() == russcip::Status::Optimal;
    let bound = proven_bound(
        scip_optimal,
        limits,
        incumbent.as_ref().map(|(_, s)| *s),
        bound,
    );
    let status = match (&incumbent, bound) {
        _ if infeasible => Status::Infeasible,
        (Some((_, score)), Some(b)) if gap_closed(*score, b) => Status::Optimal,
        (Some(_), _) => Status::Feasible,
        (None, _) => Status::Unknown,
    };
    // SAFETY: the pointer is the live SCIP instance owned by `solved`.
    let nodes = unsafe { ffi::SCIPgetNTotalNodes(solved.scip_ptr()) };
    let (dag, score) = incumbent.map_or((None, None), |(d, s)| (Some(d), Some(s)));
    IlpOutcome {
        status,
        dag,
        score,
        bound,
        nodes: u64::try_from(nodes).unwrap_or(0),
        cuts: 0,
        lp_iterations: u64::try_from(solved.n_lp_iterations()).ok(),
        rounds: None,
        time_s: 0.0,
        clusters: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
