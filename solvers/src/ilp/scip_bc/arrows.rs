//! The arrow and adjacency variables of the family ILP ([`ArrowLinks`]) in the SCIP
//! problem, with GOBNILP's branching priority: SCIP branches on them before it branches
//! on a family column.

use super::engine::{check, ScipCallFailed};
use bnsl_formulations::family::arrows::ArrowLinks;
use russcip::prelude::*;
use russcip::{ffi, ProblemCreated, Variable};

/// The branching priority of arrow and adjacency variables (family columns keep SCIP's
/// default, 0), GOBNILP's default.
const PRIORITY: i32 = 10;

/// Adds the variables of `links` (arrows, then adjacencies; objective 0) and their
/// linking rows over the family columns `family` to `scip`; returns the new variables
/// in that order.
pub(super) fn add(
    scip: &mut Model<ProblemCreated>,
    family: &[Variable],
    links: &ArrowLinks,
) -> Result<Vec<Variable>, ScipCallFailed> {
    let mut added = Vec::with_capacity(links.len());
    for arrow in &links.arrows {
        let name = format!("arrow_{}_{}", arrow.parent, arrow.child);
        let terms = arrow.columns.iter().map(|&c| &family[c]).collect();
        let var = add_sum(scip, &name, terms);
        added.push(var);
    }
    for adjacency in &links.adjacencies {
        let (u, v) = adjacency.nodes;
        let terms = adjacency.arrows.iter().map(|&a| &added[a]).collect();
        let var = add_sum(scip, &format!("adjacency_{u}_{v}"), terms);
        added.push(var);
    }
    for var in &added {
        // SAFETY: a variable of the live instance, in the problem stage.
        check(unsafe { ffi::SCIPchgVarBranchPriority(scip.scip_ptr(), var.inner(), PRIORITY) })?;
    }
    Ok(added)
}

/// A new binary `name` (objective 0) and the row `name = Σ terms`; returns the binary.
fn add_sum(scip: &mut Model<ProblemCreated>, name: &str, terms: Vec<&Variable>) -> Variable {
    let var = scip.add_var(0.0, 1.0, 0.0, name, VarType::Binary);
    let mut coefs = vec![1.0; terms.len()];
    coefs.push(-1.0);
    let mut row = terms;
    row.push(&var);
    scip.add_cons(row, &coefs, 0.0, 0.0, &format!("link_{name}"));
    var
}
