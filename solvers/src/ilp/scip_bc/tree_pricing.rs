//! The simplex pricing rule below the root.
//!
//! SCIP leaves the pricing of its LP solver to the solver (`lp/pricing` = `l`; SoPlex's
//! automatic rule). At the root that is the faster choice: the first LPs start from
//! scratch, where steepest-edge pricing must first compute its weights. Below the root
//! every node LP and every probing LP of the arrow branching rule re-solves from a
//! nearby basis, and there the dual simplex with steepest-edge pricing takes far fewer
//! iterations. [`TreePricing`] sets `lp/pricing` when the first node below the root is
//! focused (figures: README, "Large candidate sets").

use russcip::prelude::*;
use russcip::{ffi, Event, EventMask, Eventhdlr, SCIPEventhdlr, Solving};
use std::os::raw::c_char;

/// The values SCIP's `lp/pricing` accepts: `l` the LP solver's default, `a` automatic,
/// `f` full, `p` partial, `s` steepest edge, `q` steepest edge with unit initial
/// weights, `d` devex.
pub(super) const PRICING_RULES: &str = "lafpsqd";

/// An event handler that sets SCIP's `lp/pricing` to its rule at the first node below
/// the root, once.
pub(super) struct TreePricing {
    rule: c_char,
    applied: bool,
}

impl TreePricing {
    /// The handler for `rule`, one of [`PRICING_RULES`].
    pub(super) fn new(rule: char) -> Self {
        debug_assert!(PRICING_RULES.contains(rule));
        TreePricing {
            rule: rule as c_char,
            applied: false,
        }
    }
}

impl Eventhdlr for TreePricing {
    fn get_type(&self) -> EventMask {
        EventMask::NODE_FOCUSED
    }

    fn execute(&mut self, model: Model<Solving>, _eventhdlr: SCIPEventhdlr, _event: Event) {
        let scip = model.scip_ptr();
        // SAFETY: the live instance in the solving stage; the name is a static C string.
        unsafe {
            if self.applied || ffi::SCIPgetDepth(scip) < 1 {
                return;
            }
            // A rejected value leaves SCIP's own rule, which is as exact.
            let _ = ffi::SCIPsetCharParam(scip, c"lp/pricing".as_ptr(), self.rule);
        }
        self.applied = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SCIP's `lp/pricing` after solving "max Σ x subject to 2·Σ x ≤ rhs" over `n`
    /// binaries with presolving, cuts and heuristics off, the handler set to `s`: an odd
    /// `rhs` leaves a fractional root LP and a tree, an even one an integral root.
    fn pricing_after_solve(n: usize, rhs: f64) -> (u8, usize) {
        let mut scip = Model::new()
            .hide_output()
            .include_default_plugins()
            .create_prob("tree_pricing")
            .set_obj_sense(ObjSense::Maximize)
            .set_presolving(ParamSetting::Off)
            .set_separating(ParamSetting::Off)
            .set_heuristics(ParamSetting::Off);
        let vars: Vec<_> = (0..n)
            .map(|i| scip.add_var(0.0, 1.0, 1.0, &format!("x{i}"), VarType::Binary))
            .collect();
        let refs: Vec<_> = vars.iter().collect();
        scip.add_cons(refs, &vec![2.0; n], -f64::INFINITY, rhs, "capacity");
        scip.include_eventhdlr("tree_pricing", "test", Box::new(TreePricing::new('s')));
        let solved = scip.solve();
        let mut rule: c_char = 0;
        // SAFETY: a query on the live instance; the name is a static C string.
        let code =
            unsafe { ffi::SCIPgetCharParam(solved.scip_ptr(), c"lp/pricing".as_ptr(), &mut rule) };
        assert_eq!(code, ffi::SCIP_Retcode_SCIP_OKAY);
        (rule as u8, solved.n_nodes())
    }

    #[test]
    fn the_rule_applies_below_the_root_only() {
        let (rule, nodes) = pricing_after_solve(5, 5.0);
        assert!(nodes > 1, "the fractional root must branch");
        assert_eq!(rule, b's');
        let (rule, nodes) = pricing_after_solve(5, 4.0);
        assert_eq!(nodes, 1, "the integral root must not branch");
        assert_eq!(rule, b'l', "SCIP's own rule stays at the root");
    }
}
