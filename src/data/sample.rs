//! Forward (ancestral) sampling from a Bayesian network.
//!
//! Each row is drawn variable by variable in a topological order: the variable's CPT
//! row is selected by its parents' values in that row, and a state is drawn by
//! comparing one uniform number in [0, 1) with the row's cumulative sums. The random
//! stream is `ChaCha8Rng::seed_from_u64(seed)`, consumed one `f64` per variable per row,
//! rows in order, so a seed fixes the sample on every platform.

use super::dataset::DataSet;
use super::network::BayesNet;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Draws `n` rows from `net` with the random stream of `seed`. The data set has the
/// network's variables and declared states (states never drawn keep their place).
///
/// Panics if `net` fails [`BayesNet::check`]; networks from [`super::read_bif`] pass it.
pub fn sample(net: &BayesNet, n: usize, seed: u64) -> DataSet {
    if let Err(cause) = net.check() {
        panic!("sample: inconsistent network: {cause}");
    }
    let order = net.dag().topological_order().unwrap_or_default();
    let cumulative: Vec<Vec<f64>> = (0..net.n_vars()).map(|v| cumulative_rows(net, v)).collect();
    let mut columns = vec![vec![0u8; n]; net.n_vars()];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for row in 0..n {
        for &v in &order {
            let config = net.parents[v].iter().fold(0, |j, &p| j * net.arity(p) + columns[p][row] as usize);
            let r = net.arity(v);
            let cum = &cumulative[v][config * r..(config + 1) * r];
            let u: f64 = rng.gen();
            columns[v][row] = cum.iter().position(|&c| u < c).unwrap_or(r - 1) as u8;
        }
    }
    DataSet::new(net.variables.clone(), columns)
}

/// The cumulative sums of every CPT row of `v`, with the entry of the row's last state
/// of positive probability (and every later one) set to infinity, so that rounding can
/// neither skip past it nor select a state of probability zero.
fn cumulative_rows(net: &BayesNet, v: usize) -> Vec<f64> {
    let r = net.arity(v);
    let mut cum = Vec::with_capacity(net.cpts[v].len());
    for row in net.cpts[v].chunks(r) {
        let last = row.iter().rposition(|&p| p > 0.0).unwrap_or(r - 1);
        let mut total = 0.0;
        for (k, &p) in row.iter().enumerate() {
            total += p;
            cum.push(if k >= last { f64::INFINITY } else { total });
        }
    }
    cum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::network::tests::small_net;

    #[test]
    fn deterministic_for_a_seed() {
        let net = small_net();
        assert_eq!(sample(&net, 500, 7), sample(&net, 500, 7));
        assert_ne!(sample(&net, 500, 7), sample(&net, 500, 8));
    }

    #[test]
    fn never_draws_a_state_of_probability_zero() {
        let net = small_net();
        let d = sample(&net, 20_000, 1);
        let bad = (0..d.n_rows()).filter(|&i| d.column(0)[i] == 0 && d.column(1)[i] == 1 && d.column(2)[i] == 2).count();
        assert_eq!(bad, 0, "P(c = z | a = y, b = hi) is 0");
        assert_eq!(d.arities(), [2, 2, 3]);
    }

    #[test]
    fn root_frequency_is_close_to_its_probability() {
        let d = sample(&small_net(), 50_000, 3);
        let yes = d.column(0).iter().filter(|&&s| s == 0).count() as f64 / 50_000.0;
        let se = (0.3f64 * 0.7 / 50_000.0).sqrt();
        assert!((yes - 0.3).abs() < 5.0 * se, "P(a = y) estimated {yes}");
    }
}
