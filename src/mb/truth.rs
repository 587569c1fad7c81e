//! The true Markov blanket of a node read off a network (Ling et al. 2019, Definition 6:
//! parents, children and spouses), and the accuracy measures of its §5.1.

use super::MbError;
use crate::data::{BayesNet, DataSet};

/// The true blanket of one node, as sorted indices of the data's variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrueBlanket {
    /// Parents.
    pub parents: Vec<usize>,
    /// Children.
    pub children: Vec<usize>,
    /// Other parents of the children, neither parents nor children themselves.
    pub spouses: Vec<usize>,
}

impl TrueBlanket {
    /// Parents and children.
    pub fn pc(&self) -> Vec<usize> {
        sorted_union(&self.parents, &self.children)
    }

    /// The Markov blanket: parents, children and spouses.
    pub fn mb(&self) -> Vec<usize> {
        sorted_union(&self.pc(), &self.spouses)
    }
}

/// Precision, recall and F1 of a found set against the true one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accuracy {
    /// True positives over the size of the found set (1 when nothing was found).
    pub precision: f64,
    /// True positives over the size of the true set (1 when the true set is empty).
    pub recall: f64,
    /// 2PR / (P + R) (0 when P + R = 0).
    pub f1: f64,
}

/// Accuracy of `found` against `truth` (Ling et al. 2019, §5.1; the conventions for empty sets
/// are those of [`Accuracy`]'s fields: an empty answer to an empty blanket scores 1).
pub fn accuracy(found: &[usize], truth: &[usize]) -> Accuracy {
    let tp = found.iter().filter(|v| truth.contains(v)).count() as f64;
    let ratio = |k: usize| if k == 0 { 1.0 } else { tp / k as f64 };
    let (precision, recall) = (ratio(found.len()), ratio(truth.len()));
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    Accuracy {
        precision,
        recall,
        f1,
    }
}

/// The data's variables located in a network with exactly the same variable names.
pub struct TruthMap<'n> {
    net: &'n BayesNet,
    /// Network index of each data variable.
    to_net: Vec<usize>,
    /// Data index of each network variable.
    to_data: Vec<usize>,
}

impl<'n> TruthMap<'n> {
    /// Matches the data's variables with the network's by name; both must have the same
    /// set of names (a blanket in a marginal of the network is not the network's).
    pub fn new(net: &'n BayesNet, data: &DataSet) -> Result<Self, MbError> {
        let to_net = data
            .variables()
            .iter()
            .map(|v| {
                net.index_of(&v.name).ok_or_else(|| {
                    MbError::Truth(format!(
                        "the data variable `{}` is not in the true network",
                        v.name
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut to_data = vec![usize::MAX; net.n_vars()];
        for (d, &n) in to_net.iter().enumerate() {
            to_data[n] = d;
        }
        if let Some(missing) = to_data.iter().position(|&d| d == usize::MAX) {
            return Err(MbError::Truth(format!(
                "the true network's variable `{}` is not in the data",
                net.variables[missing].name
            )));
        }
        Ok(TruthMap {
            net,
            to_net,
            to_data,
        })
    }

    /// The true blanket of data variable `v`, in data indices.
    pub fn blanket(&self, v: usize) -> TrueBlanket {
        let b = true_blanket(self.net, self.to_net[v]);
        let map = |vs: Vec<usize>| {
            let mut out: Vec<usize> = vs.into_iter().map(|u| self.to_data[u]).collect();
            out.sort_unstable();
            out
        };
        TrueBlanket {
            parents: map(b.parents),
            children: map(b.children),
            spouses: map(b.spouses),
        }
    }
}

/// The true blanket of node `v` of `net`, in the network's indices.
pub fn true_blanket(net: &BayesNet, v: usize) -> TrueBlanket {
    let mut parents = net.parents[v].clone();
    parents.sort_unstable();
    let children: Vec<usize> = (0..net.n_vars())
        .filter(|&c| net.parents[c].contains(&v))
        .collect();
    let mut spouses: Vec<usize> = children
        .iter()
        .flat_map(|&c| net.parents[c].iter().copied())
        .filter(|&s| s != v && !parents.contains(&s) && !children.contains(&s))
        .collect();
    spouses.sort_unstable();
    spouses.dedup();
    TrueBlanket {
        parents,
        children,
        spouses,
    }
}

fn sorted_union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out: Vec<usize> = a.iter().chain(b).copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::network::tests::small_net;

    #[test]
    fn blankets_of_a_v_structure() {
        // a → b, a → c, b → c.
        let net = small_net();
        let a = true_blanket(&net, 0);
        assert_eq!(
            (a.parents, a.children, a.spouses),
            (vec![], vec![1, 2], vec![])
        );
        let b = true_blanket(&net, 1);
        assert_eq!((b.parents.clone(), b.children.clone()), (vec![0], vec![2]));
        assert_eq!(b.mb(), vec![0, 2]);
    }

    #[test]
    fn accuracy_by_hand() {
        let a = accuracy(&[1, 2, 3], &[2, 3, 4, 5]);
        assert!((a.precision - 2.0 / 3.0).abs() < 1e-12);
        assert!((a.recall - 0.5).abs() < 1e-12);
        assert!((a.f1 - 4.0 / 7.0).abs() < 1e-12);
        assert_eq!(accuracy(&[], &[]).f1, 1.0);
        let miss = accuracy(&[], &[1]);
        assert_eq!((miss.precision, miss.recall, miss.f1), (1.0, 0.0, 0.0));
        assert_eq!(accuracy(&[1], &[2]).f1, 0.0);
    }
}
