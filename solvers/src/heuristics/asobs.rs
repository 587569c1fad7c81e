//! Acyclic-selection OBS (ASOBS, Scanagatta et al. 2015, §4): nodes are visited from the last of the
//! order to the first, and each takes its best candidate none of whose parents is already
//! a descendant of it. Back-arcs to later nodes are allowed as long as they close no cycle,
//! so for every order the network scores at least as well as OBS's (Theorem 3).
//!
//! A node not yet visited has no parents, so it is no node's descendant: only parents
//! visited before need the descendant test, and [`Descendants`] runs its search for a
//! node the first time one of them comes up. The construction costs O(Ck) for the choices
//! plus those searches.

use super::budget::Budget;
use super::descendants::Descendants;
use super::network::Network;
use bnsl_formulations::ScoreTable;

/// The ASOBS network of `order`, or `None` when some node has no candidate avoiding its
/// descendants (possible only when a candidate list lacks the empty set).
pub fn asobs_network(table: &ScoreTable, order: &[usize]) -> Option<Network> {
    asobs_network_until(table, order, &Budget::unlimited())
}

/// Nodes visited between two looks at the clock.
const NODES_PER_CLOCK_CHECK: usize = 256;

/// [`asobs_network`] that stops testing descendants once `budget` is spent: the nodes left then
/// take their best candidate among the nodes not visited yet, OBS's rule, which closes
/// no cycle and needs no search. The network is complete either way.
pub(super) fn asobs_network_until(
    table: &ScoreTable,
    order: &[usize],
    budget: &Budget,
) -> Option<Network> {
    let n = table.n();
    let mut graph = Descendants::new(n);
    let mut visited = vec![false; n];
    let mut choice = vec![0; n];
    let mut searching = true;
    for (step, &v) in order.iter().rev().enumerate() {
        if searching && step % NODES_PER_CLOCK_CHECK == 0 {
            searching = !budget.is_spent();
        }
        let mut searched = false;
        let idx = table.candidates(v).iter().position(|c| {
            c.parents.iter().all(|p| {
                if !visited[p] {
                    return true;
                }
                if !searching {
                    return false;
                }
                if !searched {
                    graph.search_from(v);
                    searched = true;
                }
                !graph.is_marked(p)
            })
        })?;
        graph.add_parents(v, &table.candidates(v)[idx].parents);
        choice[v] = idx;
        visited[v] = true;
    }
    Some(Network::from_choice(table, choice))
}
