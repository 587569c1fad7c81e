//! The swap local search of Scanagatta et al. 2015, §4: for the current order V1 … Vn and its OBS
//! network, swap adjacent nodes Vj, Vj+1 whenever the swapped order scores better, until
//! no swap improves. After the swap Vj may also take parent sets containing Vj+1 and
//! Vj+1 loses Vj, so only Vj's candidates that contain Vj+1 are inspected, and Vj+1's only
//! when its parent set holds Vj (O((c_j + c_{j+1})·k) per swap tried).

use super::budget::Budget;
use super::network::Network;
use super::obs::{best_gaining, best_losing, obs_network, positions};
use bnsl_formulations::ScoreTable;

/// A score change counts as an improvement only above this relative tolerance, so
/// rounding never makes the search swap back and forth.
const IMPROVEMENT_TOLERANCE: f64 = 1e-12;

/// Swaps tried between two looks at the clock.
const SWAPS_PER_CLOCK_CHECK: usize = 1024;

/// Hill-climbs over adjacent swaps from `order`, starting from its OBS network; stops at a
/// local optimum or once `budget` is spent. Returns the final order and its OBS network, or `None`
/// when `order` admits no network (see [`obs_network`]).
pub(crate) fn swap_search(
    table: &ScoreTable,
    mut order: Vec<usize>,
    budget: &Budget,
) -> Option<(Vec<usize>, Network)> {
    let mut net = obs_network(table, &order)?;
    let mut pos = positions(&order);
    'passes: loop {
        let mut improved = false;
        for j in 0..order.len().saturating_sub(1) {
            if j % SWAPS_PER_CLOCK_CHECK == 0 && budget.is_spent() {
                break 'passes;
            }
            if let Some((new_a, new_b, delta)) = try_swap(table, &order, &pos, &net.choice, j) {
                let (a, b) = (order[j], order[j + 1]);
                order.swap(j, j + 1);
                pos[a] = j + 1;
                pos[b] = j;
                net.choice[a] = new_a;
                net.choice[b] = new_b;
                net.score += delta;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    let net = Network::from_choice(table, net.choice);
    Some((order, net))
}

/// Evaluates swapping positions `j` and `j + 1`: the new choices of the two nodes and the
/// score change, when the swap is possible and improves.
fn try_swap(
    table: &ScoreTable,
    order: &[usize],
    pos: &[usize],
    choice: &[usize],
    j: usize,
) -> Option<(usize, usize, f64)> {
    let (a, b) = (order[j], order[j + 1]);
    let (ca, cb) = (table.candidates(a), table.candidates(b));
    let new_a = best_gaining(table, a, pos, j, b, choice[a]);
    let new_b = best_losing(table, b, pos, j, a, choice[b])?;
    let delta = (ca[new_a].score - ca[choice[a]].score) + (cb[new_b].score - cb[choice[b]].score);
    let scale = ca[choice[a]]
        .score
        .abs()
        .max(cb[choice[b]].score.abs())
        .max(1.0);
    (delta > IMPROVEMENT_TOLERANCE * scale).then_some((new_a, new_b, delta))
}
