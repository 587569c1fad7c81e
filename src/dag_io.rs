//! Reading and writing learned DAGs: parent lists (text), bnlearn model strings, DOT and
//! JSON.
//!
//! The text form, one line per node, is what `bnsl learn -o dag.txt` writes and what
//! `bnsl verify --dag` reads:
//! ```text
//! # comment lines and blank lines are ignored
//! asia <-
//! tub <- asia
//! either <- lung, tub
//! ```
//! A node missing from the file has no parents. A model string `[asia][tub|asia][either|lung:tub]`
//! and a JSON object with a `parents` map (name → list of names), as `--json` prints, are
//! read as well, and so is the graph of a BIF network (`.bif`, `.bif.gz`), so that the
//! true network of sampled data can be scored like a learned one.

use crate::data::bif::parse_bif;
use crate::data::BayesNet;
use crate::error::{read_text, InputError};
use bnsl_core::input::nonblank_lines;
use bnsl_formulations::{Dag, VarSet};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// Output formats for a DAG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum DagFormat {
    /// Parent lists, one line per node (`child <- p1, p2`).
    Txt,
    /// Graphviz DOT.
    Dot,
    /// JSON: `{"parents": {name: [names…]}}`.
    Json,
}

impl DagFormat {
    /// The format implied by a file name's extension (`.dot`, `.json`, else text).
    pub fn from_path(path: &Path) -> DagFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("dot" | "gv") => DagFormat::Dot,
            Some("json") => DagFormat::Json,
            _ => DagFormat::Txt,
        }
    }
}

/// Parent names of every node, in node order, as a JSON-ready map.
pub fn parents_map(dag: &Dag, names: &[String]) -> serde_json::Map<String, serde_json::Value> {
    (0..dag.n())
        .map(|v| {
            let ps = dag
                .parents(v)
                .iter()
                .map(|p| serde_json::Value::from(names[p].clone()))
                .collect();
            (names[v].clone(), serde_json::Value::Array(ps))
        })
        .collect()
}

/// Renders `dag` in `format`.
pub fn render_dag(dag: &Dag, names: &[String], format: DagFormat) -> String {
    let mut out = String::new();
    match format {
        DagFormat::Txt => {
            for v in 0..dag.n() {
                let ps: Vec<&str> = dag.parents(v).iter().map(|p| names[p].as_str()).collect();
                let line = format!("{} <- {}", names[v], ps.join(", "));
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        DagFormat::Dot => {
            out.push_str("digraph bn {\n");
            for name in names {
                let _ = writeln!(out, "  \"{}\";", dot_escape(name));
            }
            for v in 0..dag.n() {
                for p in dag.parents(v).iter() {
                    let _ = writeln!(
                        out,
                        "  \"{}\" -> \"{}\";",
                        dot_escape(&names[p]),
                        dot_escape(&names[v])
                    );
                }
            }
            out.push_str("}\n");
        }
        DagFormat::Json => {
            let obj = serde_json::json!({ "parents": parents_map(dag, names) });
            out = serde_json::to_string_pretty(&obj).expect("serialisable") + "\n";
        }
    }
    out
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Reads a DAG over the variables `names` from a text, model-string, JSON or BIF file;
/// a node the file does not list gets no parents ([`read_dag_file`] says which).
pub fn read_dag(path: &Path, names: &[String]) -> Result<Dag, InputError> {
    read_dag_file(path, names).map(|file| file.dag)
}

/// A DAG read from a file, and the nodes the file did not list.
#[derive(Clone, Debug, PartialEq)]
pub struct DagFile {
    /// The DAG; an unlisted node has no parents.
    pub dag: Dag,
    /// The nodes the file does not list, in variable order.
    pub unlisted: Vec<usize>,
}

/// [`read_dag`], saying which nodes the file leaves out. A file that lists no node at
/// all (an empty file, say) is an error: an empty DAG is written with every node
/// (`X <-`).
pub fn read_dag_file(path: &Path, names: &[String]) -> Result<DagFile, InputError> {
    parse_dag_file(&read_text(path)?, path, names)
}

/// [`read_dag_file`] on the text of the file: `path` names it in errors and, by its
/// extension, says whether it is a BIF network.
#[doc(hidden)]
pub fn parse_dag_file(text: &str, path: &Path, names: &[String]) -> Result<DagFile, InputError> {
    if is_bif(path) {
        let dag = bif_graph(&parse_bif(text, path)?, path, names)?;
        return Ok(DagFile {
            dag,
            unlisted: Vec::new(),
        });
    }
    let index = name_index(names);
    let mut parents: Vec<Option<VarSet>> = vec![None; names.len()];
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        read_json(path, text, &index, &mut parents)?;
    } else if trimmed.starts_with('[') {
        read_model_string(path, text, &index, &mut parents)?;
    } else {
        read_parent_lists(path, text, &index, &mut parents)?;
    }
    let n = names.len();
    let unlisted: Vec<usize> = (0..n).filter(|&v| parents[v].is_none()).collect();
    if n > 0 && unlisted.len() == n {
        return Err(InputError::file(
            path,
            "the file lists no node; a DAG lists every node, `X <-` for one without parents",
        ));
    }
    let dag = Dag::from_parents(
        parents
            .into_iter()
            .map(|p| p.unwrap_or_else(|| VarSet::empty(n)))
            .collect(),
    );
    Ok(DagFile { dag, unlisted })
}

/// A DAG file read on its own, its variables named by the file: a BIF network's
/// variables, or every name its parent lists, model string or JSON mentions, in order of
/// first mention.
pub fn read_dag_alone(path: &Path) -> Result<(Vec<String>, Dag), InputError> {
    parse_dag_alone(&read_text(path)?, path)
}

/// [`read_dag_alone`] on the text of the file (`path` as in [`parse_dag_file`]).
#[doc(hidden)]
pub fn parse_dag_alone(text: &str, path: &Path) -> Result<(Vec<String>, Dag), InputError> {
    let names = if is_bif(path) {
        parse_bif(text, path)?
            .variables
            .into_iter()
            .map(|v| v.name)
            .collect()
    } else {
        names_mentioned(path, text)?
    };
    let dag = parse_dag_file(text, path, &names)?.dag;
    Ok((names, dag))
}

/// The names a parent-list, model-string or JSON DAG file mentions, in order of first
/// mention (its syntax is checked when the DAG is read with them).
fn names_mentioned(path: &Path, text: &str) -> Result<Vec<String>, InputError> {
    let mut names: Vec<String> = Vec::new();
    let mut mention = |name: &str| {
        let name = name.trim();
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    };
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| InputError::at(path, e.line(), format!("invalid JSON: {e}")))?;
        if let Some(map) = value.get("parents").and_then(|p| p.as_object()) {
            for (child, parents) in map {
                mention(child);
                for p in parents.as_array().into_iter().flatten() {
                    mention(p.as_str().unwrap_or(""));
                }
            }
        }
    } else if trimmed.starts_with('[') {
        let compact: String = text.split_whitespace().collect();
        for token in compact.split(['[', ']', '|', ':']) {
            mention(token);
        }
    } else {
        for (_, raw) in nonblank_lines(text) {
            let content = raw.split('#').next().unwrap_or("");
            if let Some((child, parents)) = content.split_once("<-") {
                mention(child);
                parents.split(',').for_each(&mut mention);
            }
        }
    }
    Ok(names)
}

/// The position of each name in `names`.
fn name_index(names: &[String]) -> HashMap<&str, usize> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect()
}

/// Whether `path` names a BIF network (`.bif`, optionally gzipped).
fn is_bif(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    name.ends_with(".bif") || name.ends_with(".bif.gz")
}

/// The graph of the BIF network `net` (read from `path`), over `names`: the network must
/// have exactly these variables (in any order).
fn bif_graph(net: &BayesNet, path: &Path, names: &[String]) -> Result<Dag, InputError> {
    let index = name_index(names);
    let position = |name: &str| {
        index.get(name).copied().ok_or_else(|| {
            InputError::file(
                path,
                format!("network variable `{name}` is not in the data or score file"),
            )
        })
    };
    if net.n_vars() != names.len() {
        return Err(InputError::file(
            path,
            format!(
                "the network has {} variables, the data or score file {}",
                net.n_vars(),
                names.len()
            ),
        ));
    }
    let n = names.len();
    let mut parents = vec![VarSet::empty(n); n];
    for (v, ps) in net.parents.iter().enumerate() {
        let child = position(&net.variables[v].name)?;
        let members = ps
            .iter()
            .map(|&p| position(&net.variables[p].name))
            .collect::<Result<Vec<_>, _>>()?;
        parents[child] = VarSet::from_members(n, members);
    }
    Ok(Dag::from_parents(parents))
}

struct Line<'a> {
    path: &'a Path,
    line: usize,
}

impl Line<'_> {
    fn err(&self, cause: impl Into<String>) -> InputError {
        InputError::at(self.path, self.line, cause)
    }

    fn lookup(&self, index: &HashMap<&str, usize>, name: &str) -> Result<usize, InputError> {
        index
            .get(name)
            .copied()
            .ok_or_else(|| self.err(format!("unknown variable `{name}`")))
    }

    /// Records `child`'s parents, rejecting a node given twice, self-loops and duplicates.
    fn assign(
        &self,
        parents: &mut [Option<VarSet>],
        child: usize,
        ps: &[usize],
        names: &HashMap<&str, usize>,
    ) -> Result<(), InputError> {
        let name = |v: usize| {
            names
                .iter()
                .find(|(_, &i)| i == v)
                .map_or("?", |(n, _)| *n)
                .to_string()
        };
        if parents[child].is_some() {
            return Err(self.err(format!("the parents of `{}` are given twice", name(child))));
        }
        let mut set = VarSet::empty(parents.len());
        for &p in ps {
            if p == child {
                return Err(self.err(format!("`{}` is listed as its own parent", name(child))));
            }
            if set.contains(p) {
                return Err(self.err(format!(
                    "parent `{}` of `{}` is listed twice",
                    name(p),
                    name(child)
                )));
            }
            set.insert(p);
        }
        parents[child] = Some(set);
        Ok(())
    }
}

fn read_parent_lists(
    path: &Path,
    text: &str,
    index: &HashMap<&str, usize>,
    parents: &mut [Option<VarSet>],
) -> Result<(), InputError> {
    for (line, raw) in nonblank_lines(text) {
        let at = Line { path, line };
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (child, rest) = content
            .split_once("<-")
            .ok_or_else(|| at.err("expected `child <- parent, parent, …`"))?;
        let child = at.lookup(index, child.trim())?;
        let ps = rest
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|p| at.lookup(index, p))
            .collect::<Result<Vec<_>, _>>()?;
        at.assign(parents, child, &ps, index)?;
    }
    Ok(())
}

fn read_model_string(
    path: &Path,
    text: &str,
    index: &HashMap<&str, usize>,
    parents: &mut [Option<VarSet>],
) -> Result<(), InputError> {
    let at = Line { path, line: 1 };
    let s: String = text.split_whitespace().collect();
    let mut rest = s.as_str();
    while !rest.is_empty() {
        let inner = rest
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .ok_or_else(|| at.err("malformed model string: expected `[node|parent:parent]`"))?;
        let (node, tail) = inner;
        let (child, ps) = node.split_once('|').unwrap_or((node, ""));
        let child = at.lookup(index, child)?;
        let ps = ps
            .split(':')
            .filter(|p| !p.is_empty())
            .map(|p| at.lookup(index, p))
            .collect::<Result<Vec<_>, _>>()?;
        at.assign(parents, child, &ps, index)?;
        rest = tail;
    }
    Ok(())
}

fn read_json(
    path: &Path,
    text: &str,
    index: &HashMap<&str, usize>,
    parents: &mut [Option<VarSet>],
) -> Result<(), InputError> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| InputError::at(path, e.line(), format!("invalid JSON: {e}")))?;
    let map = value
        .get("parents")
        .and_then(|p| p.as_object())
        .ok_or_else(|| {
            InputError::file(
                path,
                "JSON has no `parents` object (name → list of parent names)",
            )
        })?;
    let at = Line { path, line: 1 };
    for (child, ps) in map {
        let child_i = at.lookup(index, child)?;
        let list = ps
            .as_array()
            .ok_or_else(|| at.err(format!("parents of `{child}` are not a list")))?;
        let ps = list
            .iter()
            .map(|p| {
                p.as_str()
                    .ok_or_else(|| at.err(format!("a parent of `{child}` is not a string")))
                    .and_then(|p| at.lookup(index, p))
            })
            .collect::<Result<Vec<_>, _>>()?;
        at.assign(parents, child_i, &ps, index)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::bif::read_bif;

    fn names() -> Vec<String> {
        ["a", "b", "c"].iter().map(|s| s.to_string()).collect()
    }

    fn roundtrip(format: DagFormat) {
        let mut d = Dag::empty(3);
        d.set_parents(2, VarSet::from_members(3, [0, 1]));
        let dir = tempfile::tempdir().unwrap();
        let ext = match format {
            DagFormat::Txt => "txt",
            DagFormat::Dot => return,
            DagFormat::Json => "json",
        };
        let p = dir.path().join(format!("d.{ext}"));
        std::fs::write(&p, render_dag(&d, &names(), format)).unwrap();
        assert_eq!(read_dag(&p, &names()).unwrap(), d);
    }

    #[test]
    fn text_and_json_round_trip() {
        roundtrip(DagFormat::Txt);
        roundtrip(DagFormat::Json);
    }

    #[test]
    fn model_string_and_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.txt");
        std::fs::write(&p, "[a][b|a][c|a:b]\n").unwrap();
        let d = read_dag(&p, &names()).unwrap();
        assert_eq!(d.parents(2).to_vec(), vec![0, 1]);
        std::fs::write(&p, "a <-\nb <- a, z\n").unwrap();
        let e = read_dag(&p, &names()).unwrap_err().to_string();
        assert!(
            e.contains("m.txt:2") && e.contains("unknown variable `z`"),
            "{e}"
        );
        std::fs::write(&p, "b <- a, a\n").unwrap();
        assert!(read_dag(&p, &names())
            .unwrap_err()
            .to_string()
            .contains("listed twice"));
        std::fs::write(&p, "b <- a\nb <- c\n").unwrap();
        assert!(read_dag(&p, &names())
            .unwrap_err()
            .to_string()
            .contains(":2: the parents of `b` are given twice"));
    }

    #[test]
    fn a_bif_network_gives_its_graph_matched_by_name() {
        let bif = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/networks/asia.bif");
        let net = read_bif(&bif).unwrap();
        let mut reversed: Vec<String> = net.variables.iter().map(|v| v.name.clone()).collect();
        reversed.reverse();
        let d = read_dag(&bif, &reversed).unwrap();
        let either = reversed.iter().position(|n| n == "either").unwrap();
        let mut parents: Vec<&str> = d
            .parents(either)
            .to_vec()
            .into_iter()
            .map(|p| reversed[p].as_str())
            .collect();
        parents.sort_unstable();
        assert_eq!(parents, ["lung", "tub"]);
        assert_eq!(d.arc_count(), 8);
        let e = read_dag(&bif, &names()).unwrap_err().to_string();
        assert!(e.contains("asia.bif") && e.contains("8 variables"), "{e}");
    }

    #[test]
    fn dot_lists_arcs() {
        let mut d = Dag::empty(3);
        d.set_parents(1, VarSet::from_members(3, [0]));
        let s = render_dag(&d, &names(), DagFormat::Dot);
        assert!(s.contains("\"a\" -> \"b\";"));
    }
}
