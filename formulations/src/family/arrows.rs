//! Arrow and adjacency variables over the family ILP, GOBNILP's branching variables
//! (Bartlett & Cussens 2017, §7: "branching on arrow variables"; Cussens 2011 §4).
//!
//! For every ordered pair (u, v) such that some candidate parent set of v contains u,
//! an arrow variable a(u→v) and the linking row
//!
//! ```text
//! a(u→v) = Σ_{Π ∋ u} x(v, Π)
//! ```
//!
//! and for every unordered pair {u, v} with at least one such arrow, an adjacency
//! variable e(u–v) and the row `e(u–v) = a(u→v) + a(v→u)` (a missing arrow counts 0).
//! The linking rows fix the new variables once the family columns are integral, so the
//! program's optimum and its LP bound are unchanged; they give the branch-and-bound two
//! kinds of variables whose branches split the search far more evenly than a family
//! column does (a family column at 1 fixes a whole parent set; at 0 it removes one of
//! thousands of candidates). The adjacency row also states the 2-cycle cluster
//! constraint a(u→v) + a(v→u) ≤ 1 through the bound e ≤ 1.

use super::FamilyIlp;
use crate::dag::Dag;

/// An arrow variable: `parent → child` and the child's family columns whose parent set
/// holds `parent`, ascending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// The tail of the arc.
    pub parent: usize,
    /// The head of the arc.
    pub child: usize,
    /// The family columns of `child` whose parent set contains `parent`.
    pub columns: Vec<usize>,
}

/// An adjacency variable: the unordered pair `nodes` (smaller first) and the indices
/// (into [`ArrowLinks::arrows`]) of its one or two arrows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjacency {
    /// The two nodes, the smaller first.
    pub nodes: (usize, usize),
    /// The arrows between the two nodes, either direction.
    pub arrows: Vec<usize>,
}

/// Every arrow and adjacency variable of a family ILP (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrowLinks {
    /// The arrows, ordered by child, then parent.
    pub arrows: Vec<Arrow>,
    /// The adjacencies, ordered by their node pair.
    pub adjacencies: Vec<Adjacency>,
}

impl ArrowLinks {
    /// The arrows and adjacencies of `ilp`.
    pub fn of(ilp: &FamilyIlp<'_>) -> Self {
        let n = ilp.n();
        let mut arrows = Vec::new();
        // `index[u * n + v]`: the arrow u → v, if any.
        let mut index = vec![None; n * n];
        for child in 0..n {
            let mut columns = vec![Vec::new(); n];
            for column in ilp.columns_of(child) {
                for parent in ilp.parents(column).iter() {
                    columns[parent].push(column);
                }
            }
            for (parent, columns) in columns.into_iter().enumerate() {
                if !columns.is_empty() {
                    index[parent * n + child] = Some(arrows.len());
                    arrows.push(Arrow {
                        parent,
                        child,
                        columns,
                    });
                }
            }
        }
        let mut adjacencies = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                let pair: Vec<usize> = [index[u * n + v], index[v * n + u]]
                    .into_iter()
                    .flatten()
                    .collect();
                if !pair.is_empty() {
                    adjacencies.push(Adjacency {
                        nodes: (u, v),
                        arrows: pair,
                    });
                }
            }
        }
        ArrowLinks {
            arrows,
            adjacencies,
        }
    }

    /// The number of new variables: arrows, then adjacencies.
    pub fn len(&self) -> usize {
        self.arrows.len() + self.adjacencies.len()
    }

    /// Whether there is no arrow (every candidate parent set is empty).
    pub fn is_empty(&self) -> bool {
        self.arrows.is_empty()
    }

    /// The 0/1 values of the arrows, then the adjacencies, in `dag`.
    pub fn values_of(&self, dag: &Dag) -> Vec<f64> {
        let arrows: Vec<f64> = self
            .arrows
            .iter()
            .map(|a| f64::from(u8::from(dag.parents(a.child).contains(a.parent))))
            .collect();
        let adjacencies: Vec<f64> = self
            .adjacencies
            .iter()
            .map(|e| e.arrows.iter().map(|&a| arrows[a]).sum())
            .collect();
        let mut values = arrows;
        values.extend(adjacencies);
        values
    }

    /// The arrows whose value `a(u→v) = Σ_{Π ∋ u} x(v, Π)` under the column values
    /// `values` is fractional (at least `tolerance` from 0 and 1): at most `count` of
    /// them, as (index into [`ArrowLinks::arrows`], value), the most fractional first
    /// (ties: the lower index). Whenever a family column is fractional some arrow is:
    /// distinct parent sets sharing a child's unit of LP weight differ in a parent.
    pub fn most_fractional(
        &self,
        values: &[f64],
        count: usize,
        tolerance: f64,
    ) -> Vec<(usize, f64)> {
        let mut fractional: Vec<(usize, f64)> = self
            .arrows
            .iter()
            .enumerate()
            .map(|(a, arrow)| (a, arrow.columns.iter().map(|&c| values[c]).sum::<f64>()))
            .filter(|&(_, value)| value >= tolerance && value <= 1.0 - tolerance)
            .collect();
        let distance = |value: f64| (value - 0.5).abs();
        fractional.sort_by(|x, y| distance(x.1).total_cmp(&distance(y.1)).then(x.0.cmp(&y.0)));
        fractional.truncate(count);
        fractional
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::small_table;
    use crate::varset::VarSet;

    #[test]
    fn arrows_list_the_families_holding_each_parent() {
        // Columns, best candidate first: a {c} 0, {b} 1, {} 2; b {a} 3, {} 4;
        // c {a, b} 5, {} 6.
        let t = small_table();
        let ilp = FamilyIlp::new(&t);
        let links = ArrowLinks::of(&ilp);
        let arcs: Vec<(usize, usize, Vec<usize>)> = links
            .arrows
            .iter()
            .map(|a| (a.parent, a.child, a.columns.clone()))
            .collect();
        assert_eq!(
            arcs,
            vec![
                (1, 0, vec![1]),
                (2, 0, vec![0]),
                (0, 1, vec![3]),
                (0, 2, vec![5]),
                (1, 2, vec![5]),
            ]
        );
        let pairs: Vec<((usize, usize), Vec<usize>)> = links
            .adjacencies
            .iter()
            .map(|e| (e.nodes, e.arrows.clone()))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ((0, 1), vec![2, 0]),
                ((0, 2), vec![3, 1]),
                ((1, 2), vec![4])
            ]
        );
        assert_eq!(links.len(), 8);
    }

    #[test]
    fn values_of_a_dag_satisfy_the_linking_rows() {
        let t = small_table();
        let ilp = FamilyIlp::new(&t);
        let links = ArrowLinks::of(&ilp);
        let mut dag = Dag::empty(3);
        dag.set_parents(2, VarSet::from_members(3, [0, 1]));
        dag.set_parents(1, VarSet::from_members(3, [0]));
        let x = ilp.values_of(&dag).unwrap();
        let values = links.values_of(&dag);
        for (a, arrow) in links.arrows.iter().enumerate() {
            let sum: f64 = arrow.columns.iter().map(|&c| x[c]).sum();
            assert_eq!(values[a], sum);
        }
        let arrows = links.arrows.len();
        for (e, adjacency) in links.adjacencies.iter().enumerate() {
            let sum: f64 = adjacency.arrows.iter().map(|&a| values[a]).sum();
            assert_eq!(values[arrows + e], sum);
        }
        assert_eq!(values, vec![0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    }

    #[test]
    fn most_fractional_ranks_arrows_by_distance_from_one_half() {
        let t = small_table();
        let ilp = FamilyIlp::new(&t);
        let links = ArrowLinks::of(&ilp);
        // a: {c} 0.3, {b} 0.6, {} 0.1; b: {a} 1; c: {a, b} 0.45, {} 0.55.
        let x = [0.3, 0.6, 0.1, 1.0, 0.0, 0.45, 0.55];
        let ranked = links.most_fractional(&x, 10, 1e-6);
        let order: Vec<usize> = ranked.iter().map(|&(a, _)| a).collect();
        // Arrows 3 and 4 (into c) at 0.45, arrow 0 (b → a) at 0.6, arrow 1 (c → a) at
        // 0.3; arrow 2 (a → b) is integral.
        assert_eq!(order, vec![3, 4, 0, 1]);
        assert!((ranked[2].1 - 0.6).abs() < 1e-12);
        assert_eq!(links.most_fractional(&x, 1, 1e-6).len(), 1);
        let integral = [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0];
        assert!(links.most_fractional(&integral, 10, 1e-6).is_empty());
    }
}
