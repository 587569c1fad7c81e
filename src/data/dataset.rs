//! A discrete data set: named variables with arities, stored column-major as compact
//! integer codes (one byte per value).

/// A discrete variable: its name and its states. The arity is the number of states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Variable name (unique within a data set or network).
    pub name: String,
    /// State labels; `states.len()` is the arity. Integer-coded inputs label the states
    /// `"0"`, `"1"`, ….
    pub states: Vec<String>,
}

impl Variable {
    /// A variable whose states are labelled `0..arity`.
    pub fn with_arity(name: impl Into<String>, arity: usize) -> Self {
        Variable {
            name: name.into(),
            states: (0..arity).map(|s| s.to_string()).collect(),
        }
    }

    /// Number of states.
    pub fn arity(&self) -> usize {
        self.states.len()
    }
}

/// Largest arity a data set can hold (values are stored as `u8`).
pub const MAX_ARITY: usize = 256;

/// Column-major discrete data: `columns[v][row]` is the state index of variable `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSet {
    variables: Vec<Variable>,
    columns: Vec<Vec<u8>>,
}

impl DataSet {
    /// A data set from variables and their columns. Callers (the readers) guarantee that
    /// all columns have the same length and every value is below its variable's arity.
    pub fn new(variables: Vec<Variable>, columns: Vec<Vec<u8>>) -> Self {
        assert_eq!(variables.len(), columns.len());
        debug_assert!(columns.windows(2).all(|w| w[0].len() == w[1].len()));
        debug_assert!(variables
            .iter()
            .zip(&columns)
            .all(|(v, c)| c.iter().all(|&x| (x as usize) < v.arity())));
        DataSet { variables, columns }
    }

    /// Number of variables.
    pub fn n_vars(&self) -> usize {
        self.variables.len()
    }

    /// Number of rows (samples).
    pub fn n_rows(&self) -> usize {
        self.columns.first().map_or(0, Vec::len)
    }

    /// The variables.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// Variable names.
    pub fn names(&self) -> Vec<String> {
        self.variables.iter().map(|v| v.name.clone()).collect()
    }

    /// Arity of each variable.
    pub fn arities(&self) -> Vec<usize> {
        self.variables.iter().map(Variable::arity).collect()
    }

    /// The column of variable `v`.
    pub fn column(&self, v: usize) -> &[u8] {
        &self.columns[v]
    }

    /// Index of the variable called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.name == name)
    }
}
