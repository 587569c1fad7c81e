//! Collecting every DAG whose score reaches a threshold with the family ILP: the search
//! of seed 002 ("The Bayes Factor Approach", Liao et al.), which finds the networks
//! within a Bayes factor of the optimum in one branch and cut.
//!
//! The engines search the DAGs scoring at least [`search_limit`] of the threshold: an
//! objective limit on SCIP, a row on the cut loop's back-ends. Each DAG the search meets
//! is excluded by a no-good over its family columns, so the search moves on to the
//! others, and is recorded when its score, recomputed from the table,
//! reaches the threshold itself. The margin between the two keeps the solvers'
//! tolerances from deciding networks right at the threshold; the recomputed score
//! decides them, identically on every back-end.

use super::IlpOptions;
use crate::enumerate::{Enumeration, EnumerationEnd};
use bnsl_formulations::equivalence::equivalent_dags;
use bnsl_formulations::family::ColumnIndex;
use bnsl_formulations::{Dag, FamilyIlp, VarSet};
use rustc_hash::FxHashSet;

/// What to collect.
#[derive(Clone, Debug, Default)]
pub struct CollectSettings {
    /// Collect the DAGs scoring at least this.
    pub threshold: f64,
    /// Stop once this many DAGs are collected (`None`: no limit).
    pub max_networks: Option<usize>,
    /// The time limit (in the limits, covering the collection), the stop token,
    /// separation settings and engine switches of the search. Its gap, start DAG and
    /// improving-solution limit do not apply ([`CollectSettings::start`] does).
    pub ilp: IlpOptions,
    /// Clusters whose constraints the search starts with (the optimising solve's,
    /// [`IlpOutcome::clusters`](super::IlpOutcome::clusters)), so that its root need not
    /// find them again. Every cluster constraint holds for every DAG, so any clusters
    /// of the table's nodes may be given. SCIP's tree starts from them; the cut loop of
    /// HiGHS and CBC separates its own.
    pub clusters: Vec<VarSet>,
    /// A DAG of the table to begin with (the optimising solve's), so that the search
    /// need not find a first one: the cut loop splits the whole program at it before
    /// any MIP solve, which on tables of at most 20 variables leaves only regions it
    /// enumerates. It is collected if it reaches the threshold. SCIP's tree does not
    /// use it.
    pub start: Option<Dag>,
    /// Whether the search takes whole Markov equivalence classes: it runs under the rows
    /// of [`covered_arcs`](bnsl_formulations::family::covered_arcs), which leave one DAG
    /// or a few per class, and each DAG it meets scoring at least [`search_limit`]
    /// brings the DAGs of its class that are made of candidates, each recorded on the
    /// same terms as the others. It collects the same networks on any table, and far
    /// fewer searched ones under a score-equivalent score (BIC, BDeu); a program with
    /// side constraints ([`IlpOptions::side`]) does not take it.
    pub whole_classes: bool,
}

impl CollectSettings {
    /// Whether the search takes whole classes (see [`CollectSettings::whole_classes`]).
    pub(crate) fn takes_whole_classes(&self) -> bool {
        self.whole_classes && self.ilp.side.is_none()
    }
}

/// A snapshot of a running collection, for progress lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollectProgress {
    /// DAGs collected so far.
    pub networks: usize,
    /// Branch-and-bound nodes (or, on the cut loop, MIP solves) so far.
    pub nodes: u64,
}

/// The objective bound the search uses for `threshold`: a little below, by 1e-3 or
/// 1e-9 of the threshold's magnitude, whichever is larger (see the module doc).
pub fn search_limit(threshold: f64) -> f64 {
    threshold - (1e-3f64).max(1e-9 * threshold.abs())
}

/// The tolerance of the covered-arc rows of a collection above `threshold` on `ilp`: a
/// DAG and the DAG its swaps lead to differ by at most one tolerance per arc, so the
/// tolerance is half the search's margin below the threshold over the most arcs a DAG
/// of the table can have, and the DAG led to scores above [`search_limit`].
pub(crate) fn covered_arc_tolerance(ilp: &FamilyIlp<'_>, threshold: f64) -> f64 {
    let most_arcs: usize = (0..ilp.n())
        .map(|v| {
            ilp.columns_of(v)
                .map(|c| ilp.parents(c).len())
                .max()
                .unwrap_or(0)
        })
        .sum();
    (threshold - search_limit(threshold)) / (2 * most_arcs.max(1)) as f64
}

/// The DAGs collected so far, each once.
pub(crate) struct Found {
    threshold: f64,
    max_networks: usize,
    /// The chosen columns of every DAG recorded.
    seen: FxHashSet<Box<[u32]>>,
    networks: Vec<(Dag, f64)>,
    /// With whole classes, the table's columns by parent set, built at the first class.
    class_columns: Option<ColumnIndex>,
    /// With whole classes, the chosen columns of every DAG of candidates in a class
    /// already taken.
    classes_taken: FxHashSet<Box<[u32]>>,
    whole_classes: bool,
}

/// The chosen columns of a DAG as a key.
fn key_of(columns: &[usize]) -> Box<[u32]> {
    columns
        .iter()
        .map(|&c| u32::try_from(c).expect("column indices fit in 32 bits"))
        .collect()
}

/// Whether a DAG offered to [`Found::offer`] was recorded (with whole classes: any DAG
/// of its class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Offered {
    /// A new DAG reaching the threshold.
    Recorded,
    /// Recorded before, cyclic, or below the threshold.
    Passed,
}

impl Found {
    pub(crate) fn new(settings: &CollectSettings) -> Self {
        Found {
            threshold: settings.threshold,
            max_networks: settings.max_networks.unwrap_or(usize::MAX),
            seen: FxHashSet::default(),
            networks: Vec::new(),
            class_columns: None,
            classes_taken: FxHashSet::default(),
            whole_classes: settings.takes_whole_classes(),
        }
    }

    /// Records the graph of `columns` (one chosen column per node) if it is acyclic,
    /// new, and scores at least the threshold (recomputed from the table), unless the
    /// network limit is reached. With whole classes, a DAG of candidates scoring at
    /// least [`search_limit`] brings instead every DAG of its Markov equivalence class
    /// made of candidates, each recorded on those terms, and the result says whether any
    /// was.
    pub(crate) fn offer(&mut self, ilp: &FamilyIlp<'_>, columns: &[usize]) -> Offered {
        if !self.whole_classes {
            return self.offer_one(ilp, columns);
        }
        if self.is_full() || self.classes_taken.contains(&key_of(columns)) {
            return Offered::Passed;
        }
        let dag = Dag::from_parents(columns.iter().map(|&c| ilp.parents(c).clone()).collect());
        match dag.check(ilp.table()) {
            Ok(score) if score >= search_limit(self.threshold) => self.offer_class(ilp, &dag),
            _ => Offered::Passed,
        }
    }

    /// Offers every DAG of candidates equivalent to `dag` and marks them taken.
    fn offer_class(&mut self, ilp: &FamilyIlp<'_>, dag: &Dag) -> Offered {
        let index = self
            .class_columns
            .get_or_insert_with(|| ColumnIndex::of(ilp));
        let members: Vec<Vec<usize>> = equivalent_dags(dag)
            .iter()
            .filter_map(|member| index.columns_of_dag(member))
            .collect();
        let mut offered = Offered::Passed;
        for columns in members {
            self.classes_taken.insert(key_of(&columns));
            if self.offer_one(ilp, &columns) == Offered::Recorded {
                offered = Offered::Recorded;
            }
        }
        offered
    }

    /// [`Found::offer`] for one DAG.
    fn offer_one(&mut self, ilp: &FamilyIlp<'_>, columns: &[usize]) -> Offered {
        if self.is_full() {
            return Offered::Passed;
        }
        let key = key_of(columns);
        if self.seen.contains(&key) {
            return Offered::Passed;
        }
        let dag = Dag::from_parents(columns.iter().map(|&c| ilp.parents(c).clone()).collect());
        match dag.check(ilp.table()) {
            Ok(score) if score >= self.threshold => {
                self.seen.insert(key);
                self.networks.push((dag, score));
                Offered::Recorded
            }
            _ => Offered::Passed,
        }
    }

    /// The least score a DAG must reach to be recorded.
    pub(crate) fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Whether the network limit is reached.
    pub(crate) fn is_full(&self) -> bool {
        self.networks.len() >= self.max_networks
    }

    /// DAGs recorded so far.
    pub(crate) fn len(&self) -> usize {
        self.networks.len()
    }

    /// The networks, and why the search ended: the network limit when it is reached,
    /// else `end`.
    pub(crate) fn finish(self, end: EnumerationEnd) -> Enumeration {
        let end = if self.is_full() {
            EnumerationEnd::NetworkLimit
        } else {
            end
        };
        Enumeration {
            networks: self.networks,
            end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_tables::table_from;

    #[test]
    fn the_search_limit_lies_below_the_threshold() {
        assert_eq!(search_limit(-10.0), -10.001);
        assert!(search_limit(-1e8) < -1e8 - 0.09);
    }

    /// With whole classes, a DAG brings its equivalent DAG of candidates, recorded once;
    /// a class above the search limit but below the threshold records nothing.
    #[test]
    fn found_takes_whole_classes() {
        // Each node: {} −100, the other node −1: both one-arc DAGs score −101.
        let table = table_from(2, &[vec![(0b10, -2)], vec![(0b01, -2)]]);
        let ilp = FamilyIlp::new(&table);
        let column = |v: usize, with_parent: bool| {
            ilp.columns_of(v)
                .find(|&c| ilp.parents(c).is_empty() != with_parent)
                .unwrap()
        };
        let one_arc = [column(0, true), column(1, false)];
        let reversed = [column(0, false), column(1, true)];
        let settings = |threshold| CollectSettings {
            threshold,
            whole_classes: true,
            ..CollectSettings::default()
        };
        let mut found = Found::new(&settings(-101.0));
        assert_eq!(found.offer(&ilp, &one_arc), Offered::Recorded);
        assert_eq!(found.len(), 2);
        assert_eq!(found.offer(&ilp, &reversed), Offered::Passed, "taken");
        let mut above = Found::new(&settings(-101.0 + 5e-4));
        assert_eq!(above.offer(&ilp, &one_arc), Offered::Passed);
        assert_eq!(above.len(), 0);
    }

    /// A DAG is recorded once, when acyclic and at or above the threshold.
    #[test]
    fn found_records_each_acyclic_dag_above_the_threshold_once() {
        // Each node: {} −100, the other node −1.
        let table = table_from(2, &[vec![(0b10, -2)], vec![(0b01, -2)]]);
        let ilp = FamilyIlp::new(&table);
        let column = |v: usize, with_parent: bool| {
            let k = table
                .candidates(v)
                .iter()
                .position(|c| c.parents.is_empty() != with_parent);
            ilp.column(v, k.unwrap())
        };
        let mut found = Found::new(&CollectSettings {
            threshold: -101.0,
            max_networks: Some(2),
            ..CollectSettings::default()
        });
        let cycle = [column(0, true), column(1, true)];
        assert_eq!(found.offer(&ilp, &cycle), Offered::Passed, "cyclic");
        let empty = [column(0, false), column(1, false)];
        assert_eq!(found.offer(&ilp, &empty), Offered::Passed, "score −200");
        let one_arc = [column(0, true), column(1, false)];
        assert_eq!(found.offer(&ilp, &one_arc), Offered::Recorded);
        assert_eq!(found.offer(&ilp, &one_arc), Offered::Passed, "seen");
        assert!(!found.is_full());
        let other_arc = [column(0, false), column(1, true)];
        assert_eq!(found.offer(&ilp, &other_arc), Offered::Recorded);
        assert!(found.is_full());
        let no_arc_at_all = [column(0, false), column(1, false)];
        let threshold_met = Found::new(&CollectSettings {
            threshold: -1000.0,
            ..CollectSettings::default()
        })
        .offer(&ilp, &no_arc_at_all);
        assert_eq!(threshold_met, Offered::Recorded, "a DAG above −1000");
        assert_eq!(found.offer(&ilp, &no_arc_at_all), Offered::Passed, "full");
        let done = found.finish(EnumerationEnd::Complete);
        assert_eq!(done.end, EnumerationEnd::NetworkLimit);
        assert_eq!(done.networks.len(), 2);
        assert!(done.networks.iter().all(|(_, s)| *s == -101.0));
    }
}
