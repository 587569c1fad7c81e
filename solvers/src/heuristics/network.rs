//! A network under construction: the chosen candidate of every node and the total score.

use bnsl_formulations::{Dag, ScoreTable};

/// One choice of candidate per node (indices into [`ScoreTable::candidates`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// `choice[v]` indexes the candidate list of `v`.
    pub choice: Vec<usize>,
    /// Sum of the chosen candidates' scores, in node order.
    pub score: f64,
}

impl Network {
    /// A network from per-node choices, scoring it in node order (as [`Dag::check`] does).
    pub fn from_choice(table: &ScoreTable, choice: Vec<usize>) -> Self {
        let score = choice
            .iter()
            .enumerate()
            .map(|(v, &i)| table.candidates(v)[i].score)
            .sum();
        Network { choice, score }
    }

    /// The graph of the chosen parent sets.
    pub fn to_dag(&self, table: &ScoreTable) -> Dag {
        Dag::from_parents(
            self.choice
                .iter()
                .enumerate()
                .map(|(v, &i)| table.candidates(v)[i].parents.clone())
                .collect(),
        )
    }
}
