//! Acyclic-selection OBS (ASOBS, Scanagatta et al. 2015, §4): nodes are visited from the last of the
//! order to the first, and each takes its best candidate none of whose parents is already
//! a descendant of it. Back-arcs to later nodes are allowed as long as they close no cycle,
//! so for every order the network scores at least as well as OBS's (Theorem 3). With the
//! [`DescendantMatrix`] the whole construction costs O(Ck) for the choices plus the
//! matrix updates.

use super::descendants::DescendantMatrix;
use super::network::Network;
use bnsl_formulations::{ScoreTable, VarSet};

/// The ASOBS network of `order`, or `None` when some node has no candidate avoiding its
/// descendants (possible only when a candidate list lacks the empty set).
pub fn asobs_network(table: &ScoreTable, order: &[usize]) -> Option<Network> {
    let n = table.n();
    let empty = VarSet::empty(n);
    let mut matrix = DescendantMatrix::new(n);
    let mut choice: Vec<Option<usize>> = vec![None; n];
    for &v in order.iter().rev() {
        let banned = matrix.descendants(v);
        let idx = table
            .candidates(v)
            .iter()
            .position(|c| !c.parents.intersects(banned))?;
        let parents = &table.candidates(v)[idx].parents;
        matrix.add_parents(v, parents, |x| {
            choice[x].map_or(&empty, |i| &table.candidates(x)[i].parents)
        });
        choice[v] = Some(idx);
    }
    let choice = choice
        .into_iter()
        .map(|c| c.expect("every node visited"))
        .collect();
    Some(Network::from_choice(table, choice))
}
