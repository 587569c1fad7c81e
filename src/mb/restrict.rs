//! Blanket-restricted candidate parents for large problems: each variable's parents are
//! drawn only from its discovered PC set or Markov blanket (BAMB, Ling et al. 2019, Algorithm 1).

use super::{bamb, CiOptions, CiTester, MbError};
use crate::data::DataSet;
use bnsl_formulations::VarSet;

/// Which discovered set bounds a variable's parents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Restriction {
    /// Parents and children (a true parent is always in its child's PC set).
    Pc,
    /// The whole Markov blanket (parents, children, spouses).
    Mb,
}

/// The allowed parents of every variable, and the number of CI tests computed.
///
/// Y may be a parent of X when Y is in X's discovered set or X in Y's (the union makes
/// the relation symmetric, as the true PC and MB relations are, so one missed test on
/// either side does not lose an edge).
pub fn allowed_parents(
    data: &DataSet,
    restriction: Restriction,
    opts: CiOptions,
) -> Result<(Vec<VarSet>, u64), MbError> {
    let mut ci = CiTester::new(data, opts)?;
    let n = data.n_vars();
    let mut allowed = vec![VarSet::empty(n); n];
    for t in 0..n {
        let b = bamb(&mut ci, t);
        let set = match restriction {
            Restriction::Pc => b.pc.unwrap_or(b.mb),
            Restriction::Mb => b.mb,
        };
        for v in set {
            allowed[t].insert(v);
            allowed[v].insert(t);
        }
    }
    Ok((allowed, ci.performed()))
}
