//! Forward (ancestral) sampling from a Bayesian network.
//!
//! Variables are drawn in a topological order, each for all rows at once: a row's CPT
//! row is selected by its parents' values in that row, and a state is drawn by
//! comparing one uniform number in [0, 1) with the row's cumulative sums. Variable `v`
//! (index in the network) consumes its own random stream,
//! `ChaCha8Rng::seed_from_u64(seed)` with `set_stream(v)`, one `f64` per row, rows in
//! order. So a seed fixes the sample on every platform, and the first `m` rows of a
//! sample of `n ≥ m` rows are the sample of `m` rows.

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
    let mut columns = vec![Vec::new(); net.n_vars()];
    for &v in &order {
        columns[v] = draw_column(net, v, &cumulative[v], &columns, n, seed);
    }
    DataSet::new(net.variables.clone(), columns)
}

/// Draws the `n` values of `v`, whose parents' columns are already drawn.
fn draw_column(
    net: &BayesNet,
    v: usize,
    cumulative: &[f64],
    columns: &[Vec<u8>],
    n: usize,
    seed: u64,
) -> Vec<u8> {
    let r = net.arity(v);
    let mut config = vec![0usize; n];
    for &p in &net.parents[v] {
        let rp = net.arity(p);
        for (j, &s) in config.iter_mut().zip(&columns[p]) {
            *j = *j * rp + s as usize;
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(v as u64);
    config
        .iter()
        .map(|&j| {
            let u: f64 = rng.gen();
            let cum = &cumulative[j * r..(j + 1) * r];
            cum.iter().position(|&c| u < c).unwrap_or(r - 1) as u8
        })
        .collect()
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
    fn deterministic_for_a_seed_and_prefix_stable() {
        let net = small_net();
        assert_eq!(sample(&net, 500, 7), sample(&net, 500, 7));
        assert_ne!(sample(&net, 500, 7), sample(&net, 500, 8));
        let (short, long) = (sample(&net, 100, 7), sample(&net, 500, 7));
        for v in 0..net.n_vars() {
            assert_eq!(short.column(v), &long.column(v)[..100]);
        }
    }

    #[test]
    fn never_draws_a_state_of_probability_zero() {
        let net = small_net();
        let d = sample(&net, 20_000, 1);
        let bad = (0..d.n_rows())
            .filter(|&i| d.column(0)[i] == 0 && d.column(1)[i] == 1 && d.column(2)[i] == 2)
            .count();
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
