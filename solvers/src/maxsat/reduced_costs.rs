//! Reduced-cost fixing for the hitting-set program of [`super::ihs`]: the columns no
//! point cheaper than an incumbent can use, read off the row multipliers of an LP
//! optimum.
//!
//! For a program `min c·y` subject to `lower_i ≤ a_i·y ≤ upper_i` and `l ≤ y ≤ u`, and
//! any multipliers `π` (one per row, clipped to zero where the row's side of their sign
//! is infinite), weak duality gives, for every feasible `y`,
//!
//! `c·y = Σ_i π_i a_i·y + d·y ≥ Σ_i π_i side_i(π_i) + Σ_j d_j y_j`, with `d = c − Aᵀπ`,
//!
//! where `side_i(π_i)` is `lower_i` for `π_i > 0` and `upper_i` for `π_i < 0`. Bounding
//! each `d_j y_j` below by `min(d_j l_j, d_j u_j)` gives the Lagrangian bound `L`; a
//! column whose reduced cost `d_j (u_j − l_j)` exceeds `U − L` is at its cheaper bound
//! in every feasible point that costs less than `U` (Nemhauser & Wolsey 1988, II.2.4;
//! GOBNILP and SCIP fix columns this way). The bound is computed here from the
//! multipliers, not taken from the solver, so a solver's sign convention or tolerance
//! can weaken the fixing but not make it wrong beyond floating-point rounding, which
//! [`FIXING_MARGIN`] covers.

use bnsl_formulations::milp::{MilpModel, VarId};

/// Slack, relative to the incumbent's cost, by which a reduced cost must exceed the gap
/// before its column is fixed (the sums run over costs up to about 10^13 in f64).
const FIXING_MARGIN: f64 = 1e-9;

/// The columns of `model` (a minimisation) that no feasible point cheaper than
/// `incumbent` sets above their lower bound, by the multipliers `duals` (one per row,
/// for the costs of `model`).
pub(super) fn fixable_columns(model: &MilpModel, duals: &[f64], incumbent: f64) -> Vec<VarId> {
    let mut reduced: Vec<f64> = model.variables().iter().map(|v| v.objective).collect();
    let mut bound = 0.0;
    for (row, &dual) in model.rows().iter().zip(duals) {
        let side = if dual > 0.0 { row.lower } else { row.upper };
        if dual == 0.0 || !side.is_finite() {
            continue;
        }
        bound += dual * side;
        for &(column, a) in &row.coefficients {
            reduced[column.index()] -= dual * a;
        }
    }
    for (v, &d) in model.variables().iter().zip(&reduced) {
        bound += (d * v.lower).min(d * v.upper);
    }
    let gap = incumbent - bound + FIXING_MARGIN * incumbent.abs();
    model
        .variables()
        .iter()
        .zip(&reduced)
        .enumerate()
        .filter(|(_, (v, &d))| d > 0.0 && d * (v.upper - v.lower) > gap)
        .map(|(j, _)| VarId::from_index(j))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bnsl_formulations::milp::Sense;

    /// `min 10a + 1b + 4c` subject to `a + b + c = 1` and `b + c ≥ 1`: the optimum is
    /// `b` (cost 1), and the multipliers (0 on the equality, 1 on the cover) give the
    /// reduced costs 10, 0 and 3.
    fn program() -> MilpModel {
        let mut model = MilpModel::new(Sense::Minimize);
        let a = model.add_binary("a", 10.0).unwrap();
        let b = model.add_binary("b", 1.0).unwrap();
        let c = model.add_binary("c", 4.0).unwrap();
        model
            .add_eq("one", vec![(a, 1.0), (b, 1.0), (c, 1.0)], 1.0)
            .unwrap();
        model
            .add_ge("cover", vec![(b, 1.0), (c, 1.0)], 1.0)
            .unwrap();
        model
    }

    #[test]
    fn columns_dearer_than_the_gap_are_fixed() {
        let model = program();
        let duals = [0.0, 1.0];
        let fixed = |incumbent: f64| -> Vec<usize> {
            fixable_columns(&model, &duals, incumbent)
                .iter()
                .map(|v| v.index())
                .collect()
        };
        // Bound 1: with an incumbent of 1 both a and c go; of 5, a only; of 12, none.
        assert_eq!(fixed(1.0), vec![0, 2]);
        assert_eq!(fixed(5.0), vec![0]);
        assert_eq!(fixed(12.0), Vec::<usize>::new());
    }

    /// Multipliers of the wrong sign or on an infinite side are dropped, so the bound
    /// stays valid whatever the solver reports: with the cover's multiplier negated the
    /// bound falls to the cheapest column of the equality, and nothing dearer than the
    /// incumbent's own column is fixed.
    #[test]
    fn multipliers_of_the_wrong_sign_weaken_the_fixing_but_keep_it_valid() {
        let model = program();
        let fixed: Vec<usize> = fixable_columns(&model, &[0.0, -1.0], 1.0)
            .iter()
            .map(|v| v.index())
            .collect();
        // d = c; L = 0 (all columns at 0): a (10) and c (4) exceed the gap of 1.
        assert_eq!(fixed, vec![0, 2]);
        // b, in the optimum, is never fixed, whatever the multipliers; a loose row
        // `b + c ≥ −5` with a negative multiplier would, on its lower side, lift the
        // bound to 5.
        let mut loose = model.clone();
        let (b, c) = (VarId::from_index(1), VarId::from_index(2));
        loose
            .add_ge("loose", vec![(b, 1.0), (c, 1.0)], -5.0)
            .unwrap();
        for duals in [
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
            [5.0, 0.0, 0.0],
            [-3.0, 2.0, 0.0],
            [0.0, 0.0, -1.0],
        ] {
            let fixed = fixable_columns(&loose, &duals, 1.0);
            assert!(!fixed.contains(&b), "{duals:?}");
        }
    }
}
