//! The result of a learning run, in the one shape every method reports: score, status,
//! bound, gap, time and the parent lists, plus method-specific fields.

use crate::dag_io::parents_map;
use bnsl_formulations::Dag;
use bnsl_solvers::milp::relative_gap;
use serde_json::{json, Map, Value};

pub use bnsl_solvers::milp::Status;

/// A verified learning result.
#[derive(Clone, Debug)]
pub struct LearnReport {
    /// Method name (`dp`, …).
    pub method: String,
    /// Run status.
    pub status: Status,
    /// Variable names.
    pub names: Vec<String>,
    /// The best DAG found, already checked against the score table.
    pub dag: Option<Dag>,
    /// Its total score (recomputed from the table).
    pub score: Option<f64>,
    /// Upper bound on the optimal score (higher is better), when known.
    pub bound: Option<f64>,
    /// Wall-clock seconds of the solve.
    pub time_s: f64,
    /// Method-specific fields (nodes, cuts, …), merged into the JSON object.
    pub extra: Map<String, Value>,
}

impl LearnReport {
    /// Relative gap `(bound − score) / |score|` (0 when proved optimal), if both are known.
    pub fn gap(&self) -> Option<f64> {
        match (self.score, self.bound) {
            (Some(s), Some(b)) => Some(relative_gap(s, b)),
            _ => None,
        }
    }

    /// The JSON object `--json` prints.
    pub fn to_json(&self) -> Value {
        let mut obj = json!({
            "method": self.method,
            "status": self.status.as_str(),
            "score": self.score,
            "bound": self.bound,
            "gap": self.gap(),
            "time_s": self.time_s,
            "parents": self.dag.as_ref().map(|d| Value::Object(parents_map(d, &self.names))),
        });
        let map = obj.as_object_mut().expect("object");
        for (k, v) in &self.extra {
            map.insert(k.clone(), v.clone());
        }
        obj
    }

    /// A short human summary (status, score, bound, gap, time, method; the treewidth
    /// and its bound when a bound was set).
    pub fn summary(&self) -> String {
        let fmt = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.6}"));
        let width = match (
            self.extra.get("treewidth"),
            self.extra.get("treewidth_bound"),
        ) {
            (Some(w), Some(b)) => format!("  treewidth {w} (bound {b})"),
            (None, Some(b)) => format!("  treewidth bound {b}"),
            _ => String::new(),
        };
        format!(
            "status {}  score {}  bound {}  gap {}  time {:.3}s  method {}{width}",
            self.status.as_str(),
            fmt(self.score),
            fmt(self.bound),
            self.gap()
                .map_or("-".to_string(), |g| format!("{:.4}%", 100.0 * g)),
            self.time_s,
            self.method
        )
    }
}
