//! A solver-neutral mixed-integer linear program: variables with bounds, integrality and
//! objective coefficients, ranged linear rows, and an objective sense.
//!
//! Every MILP formulation of bnsl (the family-variable ILP, the bounded-treewidth MILP,
//! the cluster-cut separation problem) is built as a [`MilpModel`]; the back-ends in
//! `bnsl-solvers` translate it to HiGHS, CBC or SCIP, and the LP/MPS writers print it.
//! Rows are ranged, `lower <= a·x <= upper`, with `f64::INFINITY` /
//! `f64::NEG_INFINITY` for an open side, as in the HiGHS and CBC C interfaces.
//!
//! [`lp_format`] and [`mps_format`] write a model as a CPLEX LP or free MPS file, so that
//! any other solver (Gurobi, CPLEX, SCIP, CBC, HiGHS) can be run on the very same model
//! (SPEC C11); [`tokens`] holds the name and number spelling both formats share.

pub mod lp_format;
pub mod mps_format;
pub mod tokens;

/// Direction of optimisation. BNSL maximises the total score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// Find the largest objective value.
    Maximize,
    /// Find the smallest objective value.
    Minimize,
}

/// Index of a variable (column) in a [`MilpModel`], in order of creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(usize);

impl VarId {
    /// The column index, `0..model.num_vars()`.
    pub fn index(self) -> usize {
        self.0
    }

    /// The id of column `index`; meaningful for models that have that many columns
    /// (adding a row with an out-of-range id is an error).
    pub fn from_index(index: usize) -> Self {
        VarId(index)
    }
}

/// Index of a linear row in a [`MilpModel`], in order of creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowId(usize);

impl RowId {
    /// The row index, `0..model.num_rows()`.
    pub fn index(self) -> usize {
        self.0
    }
}

/// One variable (column).
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Name used in model files and solver logs.
    pub name: String,
    /// Lower bound, possibly `f64::NEG_INFINITY`.
    pub lower: f64,
    /// Upper bound, possibly `f64::INFINITY`.
    pub upper: f64,
    /// Whether the variable must take an integer value.
    pub integer: bool,
    /// Objective coefficient.
    pub objective: f64,
}

/// One ranged linear row `lower <= Σ coefficient·x <= upper`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Name used in model files and solver logs.
    pub name: String,
    /// Non-zero coefficients, sorted by variable, each variable at most once.
    pub coefficients: Vec<(VarId, f64)>,
    /// Lower side, possibly `f64::NEG_INFINITY`.
    pub lower: f64,
    /// Upper side, possibly `f64::INFINITY`.
    pub upper: f64,
}

/// The shape of a row's sides, as the LP and MPS formats distinguish them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RowKind {
    /// Both sides infinite: the row constrains nothing.
    Free,
    /// `a·x = rhs` (both sides equal).
    Equal(f64),
    /// `a·x <= upper` (lower side infinite).
    AtMost(f64),
    /// `a·x >= lower` (upper side infinite).
    AtLeast(f64),
    /// `lower <= a·x <= upper` with two different finite sides.
    Ranged(f64, f64),
}

impl Row {
    /// Classifies the row by which of its sides are finite.
    pub fn kind(&self) -> RowKind {
        match (self.lower.is_finite(), self.upper.is_finite()) {
            (false, false) => RowKind::Free,
            (false, true) => RowKind::AtMost(self.upper),
            (true, false) => RowKind::AtLeast(self.lower),
            (true, true) if self.lower == self.upper => RowKind::Equal(self.lower),
            (true, true) => RowKind::Ranged(self.lower, self.upper),
        }
    }
}

/// Why a variable or a row cannot be added to a model.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MilpError {
    /// Bounds that are NaN, inverted, or empty at infinity (`lower = +inf`, `upper = -inf`).
    #[error("`{name}`: bounds [{lower}, {upper}] are not a valid range")]
    BadBounds {
        /// The variable or row.
        name: String,
        /// Its lower bound or side.
        lower: f64,
        /// Its upper bound or side.
        upper: f64,
    },
    /// A coefficient (objective or row) that is NaN or infinite.
    #[error("`{name}`: coefficient {value} is not a finite number")]
    BadCoefficient {
        /// The variable or row.
        name: String,
        /// The coefficient.
        value: f64,
    },
    /// A row refers to a variable the model does not have.
    #[error("row `{row}` refers to variable #{index}, but the model has {num_vars} variables")]
    UnknownVariable {
        /// The row.
        row: String,
        /// The variable index it names.
        index: usize,
        /// The variables the model has.
        num_vars: usize,
    },
    /// A row lists the same variable twice.
    #[error("row `{row}` lists variable `{var}` twice")]
    DuplicateVariable {
        /// The row.
        row: String,
        /// The variable listed twice.
        var: String,
    },
}

/// Columns and rows to add to another program whose `base_columns` columns come first
/// (the family program, for the engines that solve it): column `k` of `columns` is
/// column `base_columns + k` of the whole, and `rows` refer to both kinds by
/// [`VarId::index`] in the whole.
#[derive(Clone, Debug, PartialEq)]
pub struct SideConstraints {
    /// Columns of the program the side is added to.
    pub base_columns: usize,
    /// The added columns.
    pub columns: Vec<Variable>,
    /// The added rows.
    pub rows: Vec<Row>,
}

/// Column-major (compressed sparse column) form of a model's constraint matrix, the
/// layout the HiGHS and CBC C interfaces take.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnMajor {
    /// `starts[j]..starts[j + 1]` are the entries of column `j`; `num_vars + 1` items.
    pub starts: Vec<usize>,
    /// Row index of each entry, increasing within a column.
    pub rows: Vec<usize>,
    /// Coefficient of each entry.
    pub values: Vec<f64>,
}

/// A mixed-integer linear program.
#[derive(Clone, Debug, PartialEq)]
pub struct MilpModel {
    sense: Sense,
    variables: Vec<Variable>,
    rows: Vec<Row>,
}

impl MilpModel {
    /// An empty model with the given objective sense.
    pub fn new(sense: Sense) -> Self {
        MilpModel {
            sense,
            variables: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// The objective sense.
    pub fn sense(&self) -> Sense {
        self.sense
    }

    /// All variables, indexed by [`VarId::index`].
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// The variable with the given id.
    pub fn variable(&self, id: VarId) -> &Variable {
        &self.variables[id.0]
    }

    /// All rows, indexed by [`RowId::index`].
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.variables.len()
    }

    /// The number of rows.
    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    /// The LP relaxation: the same model with every integrality requirement dropped.
    pub fn relaxation(&self) -> MilpModel {
        let mut relaxed = self.clone();
        for var in &mut relaxed.variables {
            var.integer = false;
        }
        relaxed
    }

    /// Whether any variable is integer (otherwise the model is a plain LP).
    pub fn has_integers(&self) -> bool {
        self.variables.iter().any(|v| v.integer)
    }

    /// Whether every variable has finite bounds, so the model cannot be unbounded.
    pub fn is_bounded(&self) -> bool {
        self.variables
            .iter()
            .all(|v| v.lower.is_finite() && v.upper.is_finite())
    }

    /// Adds a variable after checking its bounds and objective coefficient.
    pub fn add_var(&mut self, var: Variable) -> Result<VarId, MilpError> {
        check_range(&var.name, var.lower, var.upper)?;
        check_finite(&var.name, var.objective)?;
        self.variables.push(var);
        Ok(VarId(self.variables.len() - 1))
    }

    /// Adds a binary (0/1 integer) variable.
    pub fn add_binary(
        &mut self,
        name: impl Into<String>,
        objective: f64,
    ) -> Result<VarId, MilpError> {
        self.add_var(Variable {
            name: name.into(),
            lower: 0.0,
            upper: 1.0,
            integer: true,
            objective,
        })
    }

    /// Adds an integer variable with bounds `[lower, upper]` (either may be infinite).
    pub fn add_integer(
        &mut self,
        name: impl Into<String>,
        lower: f64,
        upper: f64,
        objective: f64,
    ) -> Result<VarId, MilpError> {
        self.add_var(Variable {
            name: name.into(),
            lower,
            upper,
            integer: true,
            objective,
        })
    }

    /// Adds a continuous variable with bounds `[lower, upper]` (either may be infinite).
    pub fn add_continuous(
        &mut self,
        name: impl Into<String>,
        lower: f64,
        upper: f64,
        objective: f64,
    ) -> Result<VarId, MilpError> {
        self.add_var(Variable {
            name: name.into(),
            lower,
            upper,
            integer: false,
            objective,
        })
    }

    /// Changes the objective coefficient of a variable.
    pub fn set_objective(&mut self, var: VarId, objective: f64) -> Result<(), MilpError> {
        let v = &mut self.variables[var.0];
        check_finite(&v.name, objective)?;
        v.objective = objective;
        Ok(())
    }

    /// Changes the bounds of a variable to `[lower, upper]`.
    pub fn set_bounds(&mut self, var: VarId, lower: f64, upper: f64) -> Result<(), MilpError> {
        let v = &mut self.variables[var.0];
        check_range(&v.name, lower, upper)?;
        v.lower = lower;
        v.upper = upper;
        Ok(())
    }

    /// Adds the ranged row `lower <= Σ c·x <= upper`. Coefficients are sorted by
    /// variable; zero coefficients are dropped; a variable listed twice is an error.
    pub fn add_row(
        &mut self,
        name: impl Into<String>,
        coefficients: impl IntoIterator<Item = (VarId, f64)>,
        lower: f64,
        upper: f64,
    ) -> Result<RowId, MilpError> {
        let name = name.into();
        check_range(&name, lower, upper)?;
        let mut coefficients: Vec<(VarId, f64)> = coefficients.into_iter().collect();
        for &(var, value) in &coefficients {
            if var.0 >= self.variables.len() {
                return Err(MilpError::UnknownVariable {
                    row: name,
                    index: var.0,
                    num_vars: self.variables.len(),
                });
            }
            check_finite(&name, value)?;
        }
        coefficients.retain(|&(_, value)| value != 0.0);
        coefficients.sort_by_key(|&(var, _)| var);
        if let Some(pair) = coefficients.windows(2).find(|w| w[0].0 == w[1].0) {
            let var = self.variables[pair[0].0 .0].name.clone();
            return Err(MilpError::DuplicateVariable { row: name, var });
        }
        self.rows.push(Row {
            name,
            coefficients,
            lower,
            upper,
        });
        Ok(RowId(self.rows.len() - 1))
    }

    /// Adds the row `Σ c·x <= rhs`.
    pub fn add_le(
        &mut self,
        name: impl Into<String>,
        coefficients: impl IntoIterator<Item = (VarId, f64)>,
        rhs: f64,
    ) -> Result<RowId, MilpError> {
        self.add_row(name, coefficients, f64::NEG_INFINITY, rhs)
    }

    /// Adds the row `Σ c·x >= rhs`.
    pub fn add_ge(
        &mut self,
        name: impl Into<String>,
        coefficients: impl IntoIterator<Item = (VarId, f64)>,
        rhs: f64,
    ) -> Result<RowId, MilpError> {
        self.add_row(name, coefficients, rhs, f64::INFINITY)
    }

    /// Adds the row `Σ c·x = rhs`.
    pub fn add_eq(
        &mut self,
        name: impl Into<String>,
        coefficients: impl IntoIterator<Item = (VarId, f64)>,
        rhs: f64,
    ) -> Result<RowId, MilpError> {
        self.add_row(name, coefficients, rhs, rhs)
    }

    /// The objective value of an assignment (one value per variable).
    pub fn objective_value(&self, values: &[f64]) -> f64 {
        assert_eq!(values.len(), self.variables.len(), "one value per variable");
        self.variables
            .iter()
            .zip(values)
            .map(|(v, x)| v.objective * x)
            .sum()
    }

    /// The largest violation by an assignment of a bound, a row side or integrality
    /// (0 for a feasible assignment); the check behind every back-end's answer.
    pub fn max_violation(&self, values: &[f64]) -> f64 {
        assert_eq!(values.len(), self.variables.len(), "one value per variable");
        let bounds = self.variables.iter().zip(values).map(|(v, &x)| {
            let integrality = if v.integer {
                (x - x.round()).abs()
            } else {
                0.0
            };
            side_violation(x, v.lower, v.upper).max(integrality)
        });
        let rows = self.rows.iter().map(|r| {
            let activity: f64 = r
                .coefficients
                .iter()
                .map(|&(var, c)| c * values[var.0])
                .sum();
            side_violation(activity, r.lower, r.upper)
        });
        bounds.chain(rows).fold(0.0, f64::max)
    }

    /// The constraint matrix in column-major form.
    pub fn column_major(&self) -> ColumnMajor {
        let mut counts = vec![0usize; self.variables.len() + 1];
        for row in &self.rows {
            for &(var, _) in &row.coefficients {
                counts[var.0 + 1] += 1;
            }
        }
        for j in 0..self.variables.len() {
            counts[j + 1] += counts[j];
        }
        let starts = counts.clone();
        let nnz = starts[self.variables.len()];
        let mut rows = vec![0usize; nnz];
        let mut values = vec![0.0; nnz];
        let mut next = counts;
        for (i, row) in self.rows.iter().enumerate() {
            for &(var, c) in &row.coefficients {
                let slot = next[var.0];
                rows[slot] = i;
                values[slot] = c;
                next[var.0] += 1;
            }
        }
        ColumnMajor {
            starts,
            rows,
            values,
        }
    }
}

fn check_range(name: &str, lower: f64, upper: f64) -> Result<(), MilpError> {
    let valid = !lower.is_nan()
        && !upper.is_nan()
        && lower <= upper
        && lower != f64::INFINITY
        && upper != f64::NEG_INFINITY;
    if valid {
        Ok(())
    } else {
        Err(MilpError::BadBounds {
            name: name.to_string(),
            lower,
            upper,
        })
    }
}

fn check_finite(name: &str, value: f64) -> Result<(), MilpError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(MilpError::BadCoefficient {
            name: name.to_string(),
            value,
        })
    }
}

/// How far `x` lies outside `[lower, upper]`.
fn side_violation(x: f64, lower: f64, upper: f64) -> f64 {
    (lower - x).max(x - upper).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> (MilpModel, VarId, VarId, VarId) {
        let mut m = MilpModel::new(Sense::Maximize);
        let x = m.add_binary("x", 3.0).unwrap();
        let y = m.add_integer("y", -2.0, 5.0, 1.0).unwrap();
        let z = m.add_continuous("z", 0.0, f64::INFINITY, -0.5).unwrap();
        m.add_le("cap", [(x, 2.0), (y, 1.0)], 4.0).unwrap();
        m.add_row("range", [(z, 1.0), (y, -1.0)], -1.0, 1.5)
            .unwrap();
        m.add_eq("fix", [(x, 1.0), (z, 1.0)], 1.0).unwrap();
        (m, x, y, z)
    }

    #[test]
    fn builds_variables_and_rows() {
        let (m, x, y, z) = small();
        assert_eq!((m.num_vars(), m.num_rows()), (3, 3));
        assert_eq!(m.sense(), Sense::Maximize);
        assert_eq!(m.variable(y).lower, -2.0);
        assert!(m.variable(x).integer && !m.variable(z).integer);
        assert!(m.has_integers());
        assert!(!m.is_bounded(), "z has no upper bound");
        let range = &m.rows()[1];
        assert_eq!(
            range.coefficients,
            vec![(y, -1.0), (z, 1.0)],
            "sorted by variable"
        );
        assert_eq!((range.lower, range.upper), (-1.0, 1.5));
        assert_eq!(m.rows()[0].lower, f64::NEG_INFINITY);
        assert_eq!(m.rows()[2].upper, 1.0);
    }

    #[test]
    fn evaluates_objective_and_violation() {
        let (m, ..) = small();
        let feasible = [1.0, 1.0, 0.0];
        assert_eq!(m.objective_value(&feasible), 4.0);
        assert_eq!(m.max_violation(&feasible), 0.0);
        // y = 0.7 breaks only integrality, by 0.3.
        assert!((m.max_violation(&[1.0, 0.7, 0.0]) - 0.3).abs() < 1e-12);
        // x = 0 breaks `fix` by 1; z - y = -3 breaks `range` by 2: the larger counts.
        assert!((m.max_violation(&[0.0, 3.0, 0.0]) - 2.0).abs() < 1e-12);
        // x = 2 breaks its upper bound by 1 (and `fix` by 1).
        assert!((m.max_violation(&[2.0, 0.0, 0.0]) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn classifies_rows() {
        let (mut m, x, ..) = small();
        m.add_row("free", [(x, 1.0)], f64::NEG_INFINITY, f64::INFINITY)
            .unwrap();
        m.add_ge("ge", [(x, 1.0)], -2.0).unwrap();
        let kinds: Vec<RowKind> = m.rows().iter().map(Row::kind).collect();
        assert_eq!(
            kinds,
            [
                RowKind::AtMost(4.0),
                RowKind::Ranged(-1.0, 1.5),
                RowKind::Equal(1.0),
                RowKind::Free,
                RowKind::AtLeast(-2.0),
            ]
        );
    }

    #[test]
    fn column_major_matches_rows() {
        let (m, ..) = small();
        let csc = m.column_major();
        assert_eq!(csc.starts, vec![0, 2, 4, 6]);
        assert_eq!(csc.rows, vec![0, 2, 0, 1, 1, 2]);
        assert_eq!(csc.values, vec![2.0, 1.0, 1.0, -1.0, 1.0, 1.0]);
    }

    #[test]
    fn rejects_bad_input() {
        let mut m = MilpModel::new(Sense::Minimize);
        assert!(matches!(
            m.add_continuous("a", 1.0, 0.0, 0.0),
            Err(MilpError::BadBounds { .. })
        ));
        assert!(matches!(
            m.add_continuous("a", f64::INFINITY, f64::INFINITY, 0.0),
            Err(MilpError::BadBounds { .. })
        ));
        assert!(matches!(
            m.add_binary("a", f64::NAN),
            Err(MilpError::BadCoefficient { .. })
        ));
        let a = m.add_binary("a", 1.0).unwrap();
        assert!(matches!(
            m.add_le("r", [(a, 1.0), (a, 2.0)], 1.0),
            Err(MilpError::DuplicateVariable { .. })
        ));
        let err = m.add_le("r", [(VarId(7), 1.0)], 1.0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row `r` refers to variable #7, but the model has 1 variables"
        );
        assert!(matches!(
            m.add_ge("r", [(a, f64::INFINITY)], 0.0),
            Err(MilpError::BadCoefficient { .. })
        ));
        assert!(matches!(
            m.add_row("r", [(a, 1.0)], 2.0, 1.0),
            Err(MilpError::BadBounds { .. })
        ));
        assert!(matches!(
            m.set_objective(a, f64::NAN),
            Err(MilpError::BadCoefficient { .. })
        ));
        assert_eq!(m.num_rows(), 0, "failed rows are not added");
    }

    #[test]
    fn drops_zero_coefficients_and_changes_objective() {
        let mut m = MilpModel::new(Sense::Minimize);
        let a = m.add_binary("a", 1.0).unwrap();
        let b = m.add_binary("b", 1.0).unwrap();
        m.add_ge("r", [(b, 0.0), (a, 1.0)], 1.0).unwrap();
        assert_eq!(m.rows()[0].coefficients, vec![(a, 1.0)]);
        m.set_objective(b, -4.0).unwrap();
        assert_eq!(m.objective_value(&[1.0, 1.0]), -3.0);
        assert!(m.is_bounded());
    }

    #[test]
    fn bounds_change_only_to_a_valid_range() {
        let mut m = MilpModel::new(Sense::Maximize);
        let a = m.add_binary("a", 1.0).unwrap();
        m.set_bounds(a, 1.0, 1.0).unwrap();
        assert_eq!((m.variable(a).lower, m.variable(a).upper), (1.0, 1.0));
        assert!(matches!(
            m.set_bounds(a, 1.0, 0.0),
            Err(MilpError::BadBounds { .. })
        ));
        m.set_bounds(a, 0.0, f64::INFINITY).unwrap();
        assert!(!m.is_bounded());
        assert_eq!(m.variable(a).lower, 0.0);
    }
}
