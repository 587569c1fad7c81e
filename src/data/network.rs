//! Discrete Bayesian networks: variables, parent lists and conditional probability
//! tables (CPTs), as read from and written to BIF by [`super::bif`] and sampled by
//! [`super::sample()`].

use super::dataset::Variable;
use bnsl_formulations::{Dag, VarSet};

/// How far a CPT row may sum from 1 and still be accepted (absolute): 1e-4. Rows within
/// it are renormalized by the readers; the bnlearn networks deviate by at most 3e-7.
pub const SUM_TOLERANCE: f64 = 1e-4;

/// A discrete Bayesian network.
///
/// **CPT layout.** `cpts[v]` holds `n_configs(v) × arity(v)` probabilities, one row per
/// configuration of the parents of `v`: entry `j * arity(v) + k` is
/// P(v = state k | parents in configuration j). Configurations are numbered in mixed
/// radix over `parents[v]` in order, the **last parent varying fastest**:
/// j = ((s₀·r₁ + s₁)·r₂ + s₂)… for parent states s₀, s₁, … with arities r₀, r₁, ….
/// This is the order in which BIF files list their rows. A variable without parents
/// has one configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct BayesNet {
    /// The variables (names and states).
    pub variables: Vec<Variable>,
    /// The parents of each variable, as indices into `variables`, in CPT order.
    pub parents: Vec<Vec<usize>>,
    /// The CPT of each variable, in the layout described above.
    pub cpts: Vec<Vec<f64>>,
}

impl BayesNet {
    /// Number of variables.
    pub fn n_vars(&self) -> usize {
        self.variables.len()
    }

    /// Index of the variable called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.name == name)
    }

    /// Number of states of variable `v`.
    pub fn arity(&self, v: usize) -> usize {
        self.variables[v].arity()
    }

    /// Number of parent configurations of `v` (the product of its parents' arities).
    pub fn n_configs(&self, v: usize) -> usize {
        self.parents[v].iter().map(|&p| self.arity(p)).product()
    }

    /// The distribution of `v` in parent configuration `config`.
    pub fn cpt_row(&self, v: usize, config: usize) -> &[f64] {
        let r = self.arity(v);
        &self.cpts[v][config * r..(config + 1) * r]
    }

    /// The parent states of configuration `config` of `v` (inverse of the numbering
    /// described on [`BayesNet`]).
    pub fn config_states(&self, v: usize, mut config: usize) -> Vec<usize> {
        let mut states = vec![0; self.parents[v].len()];
        for (slot, &p) in states.iter_mut().zip(&self.parents[v]).rev() {
            let r = self.arity(p);
            *slot = config % r;
            config /= r;
        }
        states
    }

    /// The network's graph.
    pub fn dag(&self) -> Dag {
        let n = self.n_vars();
        Dag::from_parents(
            self.parents
                .iter()
                .map(|ps| VarSet::from_members(n, ps.iter().copied()))
                .collect(),
        )
    }

    /// Checks that the parts fit together: parents in range, distinct and not the
    /// variable itself; CPT sizes; probabilities finite, non-negative, rows summing to
    /// 1 within [`SUM_TOLERANCE`]; the graph acyclic. Returns the cause otherwise.
    pub fn check(&self) -> Result<(), String> {
        let n = self.n_vars();
        if self.parents.len() != n || self.cpts.len() != n {
            return Err(format!(
                "{n} variables but {} parent lists and {} CPTs",
                self.parents.len(),
                self.cpts.len()
            ));
        }
        for v in 0..n {
            self.check_family(v)?;
        }
        self.dag().topological_order().map(|_| ()).map_err(|cycle| {
            let names: Vec<&str> = cycle
                .iter()
                .map(|&v| self.variables[v].name.as_str())
                .collect();
            format!(
                "the network has a directed cycle through {}",
                names.join(", ")
            )
        })
    }

    /// The checks of [`BayesNet::check`] on the family of `v`.
    fn check_family(&self, v: usize) -> Result<(), String> {
        let name = &self.variables[v].name;
        let ps = &self.parents[v];
        if let Some((i, &p)) = ps
            .iter()
            .enumerate()
            .find(|(i, &p)| p >= self.n_vars() || p == v || ps[..*i].contains(&p))
        {
            return Err(format!(
                "parent {i} ({p}) of `{name}` is out of range, repeated or `{name}` itself"
            ));
        }
        let r = self.arity(v);
        if r == 0 || self.cpts[v].len() != self.n_configs(v) * r {
            return Err(format!(
                "the CPT of `{name}` has {} entries, expected {}",
                self.cpts[v].len(),
                self.n_configs(v) * r
            ));
        }
        for (j, row) in self.cpts[v].chunks(r).enumerate() {
            let sum: f64 = row.iter().sum();
            if row.iter().any(|p| !p.is_finite() || *p < 0.0) || (sum - 1.0).abs() > SUM_TOLERANCE {
                return Err(format!(
                    "row {j} of the CPT of `{name}` is not a probability distribution"
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Two binary parents `a`, `b` and a ternary child `c`.
    pub(crate) fn small_net() -> BayesNet {
        let var = |name: &str, states: &[&str]| Variable {
            name: name.into(),
            states: states.iter().map(|s| s.to_string()).collect(),
        };
        BayesNet {
            variables: vec![
                var("a", &["y", "n"]),
                var("b", &["lo", "hi"]),
                var("c", &["x", "y", "z"]),
            ],
            parents: vec![vec![], vec![0], vec![0, 1]],
            cpts: vec![
                vec![0.3, 0.7],
                vec![0.9, 0.1, 0.2, 0.8],
                vec![0.1, 0.2, 0.7, 0.5, 0.5, 0.0, 0.25, 0.25, 0.5, 0.6, 0.3, 0.1],
            ],
        }
    }

    #[test]
    fn configurations_run_last_parent_fastest() {
        let net = small_net();
        assert_eq!(net.n_configs(2), 4);
        assert_eq!(net.config_states(2, 1), [0, 1]);
        assert_eq!(net.config_states(2, 2), [1, 0]);
        assert_eq!(net.cpt_row(2, 1), [0.5, 0.5, 0.0]);
        assert!(net.check().is_ok());
    }

    #[test]
    fn check_finds_inconsistencies() {
        let mut net = small_net();
        net.cpts[1][0] = 0.8;
        assert!(net.check().unwrap_err().contains("row 0 of the CPT of `b`"));
        let mut net = small_net();
        net.parents[0] = vec![2];
        net.cpts[0] = vec![0.5; 6];
        assert!(net.check().unwrap_err().contains("directed cycle"));
        let mut net = small_net();
        net.parents[2] = vec![0, 0];
        assert!(net.check().unwrap_err().contains("repeated"));
    }
}
