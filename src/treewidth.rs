//! Learning under a treewidth bound (Nie et al. 2016), wired for the pipeline: the bound
//! checked against the required arcs before a solve, and every answer's width certified
//! by a tree decomposition that [`TreeDecomposition::check`] accepts.

use crate::error::{read_text, InputError};
use crate::report::LearnReport;
use bnsl_formulations::treewidth::{
    moral_graph, treewidth, Graph, TreeDecomposition, TreewidthLimits,
};
use bnsl_formulations::{Dag, ScoreTable, VarSet};
use bnsl_solvers::heuristics::{AsobsOptions, KtreeOptions, KtreeVersion};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

/// Search nodes the exact treewidth of an answer may take; beyond, the width reported is
/// the best upper bound found, marked as not exact.
const ANSWER_WIDTH_NODES: u64 = 2_000_000;

/// The options of the k-tree search of `version` with climbs of `climb_steps` from
/// `start` (if any) for treewidth `width` with the time limit, restart cap, seed and stop
/// token of `heuristic` (the order search's settings, which `--time-limit`, `--restarts`
/// and `--seed` fill alike). The time limit counts from `began`, so the search that
/// found `start` is inside it.
pub(crate) fn ktree_options(
    width: usize,
    version: KtreeVersion,
    climb_steps: u64,
    start: Option<Dag>,
    heuristic: &AsobsOptions,
    began: Instant,
) -> KtreeOptions {
    KtreeOptions {
        width,
        version,
        time_limit: heuristic
            .time_limit
            .map(|t| t.saturating_sub(began.elapsed())),
        max_restarts: heuristic.max_restarts,
        climb_steps,
        seed: heuristic.seed,
        start,
        stop: heuristic.stop.clone(),
    }
}

/// The width of a DAG with the tree decomposition of its moral graph that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WidthCertificate {
    /// The width of `decomposition`.
    pub width: usize,
    /// Whether `width` is the treewidth (the search for a narrower decomposition ended).
    pub exact: bool,
    /// An elimination order of the moral graph of width `width`.
    pub order: Vec<usize>,
    /// The decomposition that order gives, checked against the moral graph.
    pub decomposition: TreeDecomposition,
}

/// The treewidth of `dag` (of its moral graph) with a checked decomposition, and the
/// lower bound shown. The exact search runs within `limits`; `hint`, an elimination
/// order from the method that learned `dag`, is kept when it is narrower than what the
/// search found. An error is a decomposition that fails its check: a bug.
pub fn dag_treewidth(
    dag: &Dag,
    hint: Option<&[usize]>,
    limits: &TreewidthLimits,
) -> Result<(WidthCertificate, usize), String> {
    let moral = moral_graph(dag);
    let found = treewidth(&moral, limits);
    let (order, width) = match hint.map(|h| (h, moral.elimination_width(h))) {
        Some((h, w)) if w < found.upper => (h.to_vec(), w),
        _ => (found.order.clone(), found.upper),
    };
    let shown = certificate(&moral, order, width, width <= found.lower)?;
    Ok((shown, found.lower.min(width)))
}

/// The budget of the exact width of an answer: two million search nodes.
pub fn answer_limits() -> TreewidthLimits {
    TreewidthLimits {
        deadline: None,
        max_nodes: Some(ANSWER_WIDTH_NODES),
    }
}

/// The certificate of `order` for `moral`, once [`TreeDecomposition::check`] has
/// accepted its decomposition with width `width`.
fn certificate(
    moral: &Graph,
    order: Vec<usize>,
    width: usize,
    exact: bool,
) -> Result<WidthCertificate, String> {
    let decomposition = TreeDecomposition::from_elimination(moral, &order);
    match decomposition.check(moral) {
        Ok(checked) if checked == width => Ok(WidthCertificate {
            width,
            exact,
            order,
            decomposition,
        }),
        Ok(checked) => Err(format!(
            "the decomposition of an elimination order of width {width} has width {checked}"
        )),
        Err(e) => Err(format!(
            "the decomposition of an elimination order fails its check: {e}"
        )),
    }
}

impl WidthCertificate {
    /// The JSON fields of a report: `treewidth`, `treewidth_exact`, `elimination_order`
    /// and `decomposition` (`bags` as lists of names, `edges` as pairs of bag indices).
    pub fn json_fields(&self, names: &[String]) -> Vec<(&'static str, Value)> {
        let name = |v: &usize| names[*v].clone();
        let bags: Vec<Vec<String>> = self
            .decomposition
            .bags
            .iter()
            .map(|bag| bag.iter().map(name).collect())
            .collect();
        vec![
            ("treewidth", json!(self.width)),
            ("treewidth_exact", json!(self.exact)),
            (
                "elimination_order",
                json!(self.order.iter().map(name).collect::<Vec<_>>()),
            ),
            (
                "decomposition",
                json!({ "bags": bags, "edges": self.decomposition.edges }),
            ),
        ]
    }
}

/// A tree decomposition read from a JSON file: an object with `bags` (lists of variable
/// names) and `edges` (pairs of bag indices), at the top or under `decomposition` (as
/// `bnsl learn --treewidth … --json` and `bnsl treewidth --json` write it).
pub fn read_decomposition(path: &Path, names: &[String]) -> Result<TreeDecomposition, InputError> {
    parse_decomposition(&read_text(path)?, path, names)
}

/// [`read_decomposition`] on the text of the file; `path` names it in errors.
#[doc(hidden)]
pub fn parse_decomposition(
    text: &str,
    path: &Path,
    names: &[String],
) -> Result<TreeDecomposition, InputError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| InputError::at(path, e.line(), format!("invalid JSON: {e}")))?;
    let object = value.get("decomposition").unwrap_or(&value);
    let field = |key: &str| {
        object.get(key).and_then(Value::as_array).ok_or_else(|| {
            InputError::file(
                path,
                format!("no `{key}` list (a decomposition has `bags` and `edges`)"),
            )
        })
    };
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let bags = field("bags")?
        .iter()
        .enumerate()
        .map(|(b, bag)| {
            let members = bag.as_array().ok_or_else(|| {
                InputError::file(path, format!("bag {b} is not a list of variable names"))
            })?;
            members
                .iter()
                .map(|m| {
                    m.as_str()
                        .and_then(|name| index.get(name).copied())
                        .ok_or_else(|| {
                            InputError::file(
                                path,
                                format!("bag {b}: {m} is not a variable of the DAG"),
                            )
                        })
                })
                .collect::<Result<Vec<usize>, _>>()
                .map(|mut bag| {
                    bag.sort_unstable();
                    bag.dedup();
                    bag
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let edges = field("edges")?
        .iter()
        .map(|e| match e.as_array().map(Vec::as_slice) {
            Some([a, b]) => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => Ok((a as usize, b as usize)),
                _ => Err(InputError::file(
                    path,
                    format!("tree edge {e} is not two bag indices"),
                )),
            },
            _ => Err(InputError::file(
                path,
                format!("tree edge {e} is not two bag indices"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TreeDecomposition { bags, edges })
}

/// Certifies the DAG of `report` against the treewidth bound `bound` and adds
/// `treewidth_bound` and the [`WidthCertificate`] fields to it. An answer whose width
/// cannot be shown within the bound is an error: no method may print one.
pub(crate) fn certify(
    report: &mut LearnReport,
    bound: usize,
    hint: Option<&[usize]>,
) -> Result<(), String> {
    report.extra.insert("treewidth_bound".into(), json!(bound));
    let Some(dag) = &report.dag else {
        return Ok(());
    };
    let (shown, _) = dag_treewidth(dag, hint, &answer_limits())?;
    if shown.width > bound {
        return Err(format!(
            "the {} answer has treewidth {}{} above the bound {bound}",
            report.method,
            if shown.exact {
                ""
            } else {
                " or less, but not shown"
            },
            shown.width
        ));
    }
    for (key, value) in shown.json_fields(&report.names) {
        report.extra.insert(key.into(), value);
    }
    Ok(())
}

/// Why no DAG of `table` has treewidth at most `bound`, when the arcs every DAG of it
/// has show it: each node's parents common to all its candidate sets (the required arcs
/// among them, once the constraints restrict the table). Every DAG's moral graph holds
/// the moral graph of those arcs, whose width is therefore a lower bound.
pub(crate) fn forced_arcs_exceed(table: &ScoreTable, bound: usize) -> Option<String> {
    let n = table.n();
    let forced: Vec<VarSet> = (0..n)
        .map(|v| {
            let mut candidates = table.candidates(v).iter();
            let first = candidates
                .next()
                .map_or_else(|| VarSet::empty(n), |c| c.parents.clone());
            candidates.fold(first, |common, c| common.intersection(&c.parents))
        })
        .collect();
    let found = treewidth(&moral_graph(&Dag::from_parents(forced)), &answer_limits());
    (found.lower > bound).then(|| {
        format!(
            "the arcs every network must have (required arcs, and parents common to all \
             candidate sets of a node) give a moral graph of treewidth {}{}, above the bound \
             {bound}",
            if found.is_exact() { "" } else { "at least " },
            found.lower
        )
    })
}
