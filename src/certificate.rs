//! Certificates of optimality for the family ILP as files (SPEC C10): the JSON a
//! certification pass writes ([`write_certificate`]) and its reading back for the exact
//! check ([`read_certificate`], then
//! [`DualCertificate::check`](bnsl_formulations::family::certificate::DualCertificate::check)).
//!
//! The file, one JSON object:
//!
//! ```text
//! format       "bnsl-family-ilp-certificate/1"
//! scores       the score file the certificate is about (as given)
//! variables    the table's variable names, in the file's order
//! dag          { variable: [parents] } of the network claimed optimal
//! score        its score (a float, for reading; the check recomputes it exactly)
//! bound        the largest leaf bound (decimal)
//! tolerance    "0.000001": how far a leaf bound may exceed the score
//! tree         the branching tree in preorder, each item one of
//!              { "branch": { "node": v, "parent": u } }   (the side with u → v
//!                                                           first, then without)
//!              { "leaf": { "bound": b, "u": [u per variable],
//!                          "clusters": [ { "nodes": [..], "lambda": λ } ],
//!                          "packings": [ { "nodes": [..], "mu": μ } ] } }
//! ```
//!
//! Numbers that the check uses are decimal strings with at most 12 fractional digits,
//! exact; scores are the score file's numbers read as IEEE doubles.

use bnsl_formulations::family::certificate::{
    ClusterDual, DualCertificate, Fixed, LeafDual, PackingDual, TreeItem, TOLERANCE,
};
use bnsl_formulations::{Dag, ScoreTable, VarSet};
use bnsl_solvers::ilp::certification::{
    certify, Certified, CertifyError, CertifyOptions, CertifyProgress,
};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The `format` of a certificate file.
pub const FORMAT: &str = "bnsl-family-ilp-certificate/1";

/// Why a certificate file could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CertificateFileError {
    /// The file could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a certificate of this table.
    #[error("{path}: {why}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        why: String,
    },
}

/// The certificate as the JSON object of the file, for the scores at `scores`.
pub fn certificate_json(certificate: &DualCertificate, table: &ScoreTable, scores: &Path) -> Value {
    let names = table.names();
    let set = |s: &VarSet| -> Vec<&str> { s.iter().map(|v| names[v].as_str()).collect() };
    let mut dag = Map::new();
    for (v, name) in names.iter().enumerate() {
        dag.insert(name.clone(), json!(set(certificate.dag.parents(v))));
    }
    let score = certificate.dag.check(table).ok();
    let mut bound: Option<Fixed> = None;
    let tree: Vec<Value> = certificate
        .tree
        .iter()
        .map(|item| match item {
            TreeItem::Branch { node, parent } => {
                json!({ "branch": { "node": names[*node], "parent": names[*parent] } })
            }
            TreeItem::Leaf(leaf) => {
                bound = Some(bound.map_or(leaf.bound, |b| b.max(leaf.bound)));
                let clusters: Vec<Value> = leaf
                    .clusters
                    .iter()
                    .map(|c| json!({ "nodes": set(&c.cluster), "lambda": c.lambda.to_string() }))
                    .collect();
                let packings: Vec<Value> = leaf
                    .packings
                    .iter()
                    .map(|p| json!({ "nodes": set(&p.nodes), "mu": p.mu.to_string() }))
                    .collect();
                let u: Vec<String> = leaf.u.iter().map(Fixed::to_string).collect();
                json!({ "leaf": {
                    "bound": leaf.bound.to_string(), "u": u,
                    "clusters": clusters, "packings": packings,
                } })
            }
        })
        .collect();
    json!({
        "format": FORMAT,
        "scores": scores.display().to_string(),
        "variables": names,
        "dag": dag,
        "score": score,
        "bound": bound.map(|b| b.to_string()),
        "tolerance": TOLERANCE.to_string(),
        "tree": tree,
    })
}

/// Writes `certificate` to `path` (see the module documentation).
pub fn write_certificate(
    certificate: &DualCertificate,
    table: &ScoreTable,
    scores: &Path,
    path: &Path,
) -> Result<(), CertificateFileError> {
    let text = format!("{:#}\n", certificate_json(certificate, table, scores));
    std::fs::write(path, text).map_err(|source| CertificateFileError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads the certificate at `path` for `table`: the variables must be the table's, in
/// its order; every name, set and number must be well formed. The check itself is
/// [`DualCertificate::check`].
pub fn read_certificate(
    path: &Path,
    table: &ScoreTable,
) -> Result<DualCertificate, CertificateFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| CertificateFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_certificate(&text, path, table)
}

/// [`read_certificate`] on the text of the file; `path` names it in errors.
#[doc(hidden)]
pub fn parse_certificate(
    text: &str,
    path: &Path,
    table: &ScoreTable,
) -> Result<DualCertificate, CertificateFileError> {
    let malformed = |why: String| CertificateFileError::Malformed {
        path: path.to_path_buf(),
        why,
    };
    let value: Value =
        serde_json::from_str(text).map_err(|e| malformed(format!("not JSON: {e}")))?;
    Reader { table }.certificate(&value).map_err(malformed)
}

/// Reads the parts of a certificate's JSON against a table; errors say where.
struct Reader<'t> {
    table: &'t ScoreTable,
}

impl Reader<'_> {
    fn certificate(&self, value: &Value) -> Result<DualCertificate, String> {
        let format = value.get("format").and_then(Value::as_str);
        if format != Some(FORMAT) {
            return Err(format!(
                "`format` is {}, not \"{FORMAT}\"",
                format.map_or("missing".into(), |f| format!("\"{f}\""))
            ));
        }
        let variables: Vec<&str> = field(value, "variables")?
            .as_array()
            .ok_or("`variables` is not a list")?
            .iter()
            .map(|v| v.as_str().ok_or("`variables` holds a non-string"))
            .collect::<Result<_, _>>()?;
        if variables != self.table.names() {
            return Err(
                "`variables` are not the score table's variables in its order: the certificate is about another table"
                    .into(),
            );
        }
        let dag = self.dag(field(value, "dag")?)?;
        let tree = field(value, "tree")?
            .as_array()
            .ok_or("`tree` is not a list")?
            .iter()
            .enumerate()
            .map(|(k, item)| {
                self.item(item)
                    .map_err(|why| format!("tree item {k}: {why}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(DualCertificate { dag, tree })
    }

    fn dag(&self, value: &Value) -> Result<Dag, String> {
        let object = value.as_object().ok_or("`dag` is not an object")?;
        let n = self.table.n();
        let mut dag = Dag::empty(n);
        for (name, parents) in object {
            let v = self.node(name).map_err(|why| format!("`dag`: {why}"))?;
            let parents = self
                .set(parents)
                .map_err(|why| format!("`dag`, parents of {name}: {why}"))?;
            dag.set_parents(v, parents);
        }
        if object.len() != n {
            return Err(format!("`dag` lists {} of the {n} variables", object.len()));
        }
        Ok(dag)
    }

    fn item(&self, value: &Value) -> Result<TreeItem, String> {
        if let Some(branch) = value.get("branch") {
            let node = field(branch, "node")?
                .as_str()
                .ok_or("`node` is not a name")?;
            let parent = field(branch, "parent")?
                .as_str()
                .ok_or("`parent` is not a name")?;
            return Ok(TreeItem::Branch {
                node: self.node(node)?,
                parent: self.node(parent)?,
            });
        }
        let leaf = value.get("leaf").ok_or("neither a `branch` nor a `leaf`")?;
        let u = field(leaf, "u")?
            .as_array()
            .ok_or("`u` is not a list")?
            .iter()
            .map(number)
            .collect::<Result<_, _>>()
            .map_err(|why| format!("`u`: {why}"))?;
        let clusters = self.set_duals(leaf, "clusters", "lambda", |cluster, lambda| {
            ClusterDual { cluster, lambda }
        })?;
        let packings = self.set_duals(leaf, "packings", "mu", |nodes, mu| PackingDual {
            nodes,
            mu,
        })?;
        Ok(TreeItem::Leaf(LeafDual {
            u,
            clusters,
            packings,
            bound: number(field(leaf, "bound")?)?,
        }))
    }

    /// The list `list` of a leaf: objects with `nodes` and the dual value `value`.
    fn set_duals<T>(
        &self,
        leaf: &Value,
        list: &str,
        value: &str,
        make: impl Fn(VarSet, Fixed) -> T,
    ) -> Result<Vec<T>, String> {
        field(leaf, list)?
            .as_array()
            .ok_or_else(|| format!("`{list}` is not a list"))?
            .iter()
            .map(|entry| {
                Ok(make(
                    self.set(field(entry, "nodes")?)?,
                    number(field(entry, value)?)?,
                ))
            })
            .collect::<Result<_, String>>()
            .map_err(|why| format!("`{list}`: {why}"))
    }

    fn node(&self, name: &str) -> Result<usize, String> {
        self.table
            .index_of(name)
            .ok_or_else(|| format!("`{name}` is not a variable of the score table"))
    }

    fn set(&self, value: &Value) -> Result<VarSet, String> {
        let mut set = VarSet::empty(self.table.n());
        for member in value.as_array().ok_or("a set is not a list of names")? {
            let name = member.as_str().ok_or("a set holds a non-string")?;
            let v = self.node(name)?;
            if set.contains(v) {
                return Err(format!("`{name}` is listed twice"));
            }
            set.insert(v);
        }
        Ok(set)
    }
}

fn field<'v>(value: &'v Value, name: &str) -> Result<&'v Value, String> {
    value.get(name).ok_or_else(|| format!("missing `{name}`"))
}

/// An exact number: a decimal string.
fn number(value: &Value) -> Result<Fixed, String> {
    let text = value
        .as_str()
        .ok_or_else(|| format!("{value} is not a decimal string"))?;
    Fixed::parse(text).map_err(|e| e.to_string())
}

/// Why [`certify_optimum`] made no certificate.
#[derive(Debug, thiserror::Error)]
pub enum CertifyRunError {
    /// No compiled-in back-end reports LP duals.
    #[error(
        "certificates need a back-end that reports LP duals (HiGHS); build with --features highs"
    )]
    NoLpBackend,
    /// The pass failed or was stopped.
    #[error(transparent)]
    Certify(#[from] CertifyError),
}

/// Certifies that `dag` is optimal for `table` with the first compiled-in back-end
/// that reports LP duals (HiGHS), which also solves the separation sub-IPs.
pub fn certify_optimum(
    table: &ScoreTable,
    dag: &Dag,
    options: &CertifyOptions,
    progress: &dyn Fn(&CertifyProgress),
) -> Result<Certified, CertifyRunError> {
    let backends = bnsl_solvers::milp::backends();
    let (backend, lp) = backends
        .iter()
        .find_map(|b| Some((b, b.lp_duals()?)))
        .ok_or(CertifyRunError::NoLpBackend)?;
    let sub_ip = backend.for_sub_ips();
    Ok(certify(
        table,
        dag,
        lp,
        Some(sub_ip.as_ref()),
        options,
        progress,
    )?)
}
