//! The structural-constraint file of `bnsl learn --constraints FILE`.
//!
//! One statement per line; `#` starts a comment; blank lines are ignored:
//!
//! ```text
//! require A -> B        # every network has the arc A -> B (A is a parent of B)
//! forbid  A -> B        # no network has the arc A -> B
//! max-parents 2         # no node has more than 2 parents
//! max-parents B 1       # node B has at most 1 parent
//! ```
//!
//! Variable names are those of the score file (or data set). An unknown name, a self
//! loop, a malformed line, or an arc both required and forbidden is an error naming
//! the file and line.

use crate::input::{nonblank_lines, read_text, InputError};
use crate::StructuralConstraints;
use std::collections::HashMap;
use std::path::Path;

/// Reads a constraint file against the variables `names`.
pub fn read_constraints(
    path: &Path,
    names: &[String],
) -> Result<StructuralConstraints, InputError> {
    parse_constraints(&read_text(path)?, path, names)
}

/// Parses the text of a constraint file (`path` is used in error messages).
pub fn parse_constraints(
    text: &str,
    path: &Path,
    names: &[String],
) -> Result<StructuralConstraints, InputError> {
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut cons = StructuralConstraints::default();
    // Line of every arc statement, to point at contradictions.
    let mut arc_lines: HashMap<(usize, usize), (bool, usize)> = HashMap::new();
    for (line, raw) in nonblank_lines(text) {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let err = |cause: String| InputError::at(path, line, cause);
        let var = |name: &str| {
            index
                .get(name)
                .copied()
                .ok_or_else(|| err(format!("unknown variable `{name}`")))
        };
        let words: Vec<&str> = content.split_whitespace().collect();
        match words.as_slice() {
            [kw @ ("require" | "forbid"), from, "->", to] => {
                let (p, c) = (var(from)?, var(to)?);
                if p == c {
                    return Err(err(format!("`{from} -> {to}` is a self loop")));
                }
                let required = *kw == "require";
                match arc_lines.get(&(p, c)) {
                    Some(&(was_required, other)) if was_required != required => {
                        return Err(err(format!(
                            "`{from} -> {to}` is both required and forbidden (see line {other})"
                        )));
                    }
                    Some(_) => continue,
                    None => {
                        arc_lines.insert((p, c), (required, line));
                    }
                }
                if required {
                    cons.required.push((p, c));
                } else {
                    cons.forbidden.push((p, c));
                }
            }
            ["max-parents", k] => cons.max_parents = Some(limit(k).map_err(err)?),
            ["max-parents", node, k] => {
                let v = var(node)?;
                cons.max_parents_of.push((v, limit(k).map_err(err)?));
            }
            _ => {
                return Err(err(format!(
                    "cannot read `{content}`: expected `require A -> B`, `forbid A -> B`, \
                     `max-parents K` or `max-parents NODE K`"
                )))
            }
        }
    }
    Ok(cons)
}

fn limit(word: &str) -> Result<usize, String> {
    word.parse()
        .map_err(|_| format!("parent limit `{word}` is not a non-negative integer"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["A", "B", "C"].iter().map(|s| s.to_string()).collect()
    }

    fn parse(text: &str) -> Result<StructuralConstraints, String> {
        parse_constraints(text, Path::new("c.txt"), &names()).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_every_statement() {
        let c = parse(
            "# header\nrequire A -> B\nforbid C -> A  # no\n\nmax-parents 2\nmax-parents B 1\n",
        )
        .unwrap();
        assert_eq!(c.required, vec![(0, 1)]);
        assert_eq!(c.forbidden, vec![(2, 0)]);
        assert_eq!(c.max_parents, Some(2));
        assert_eq!(c.max_parents_of, vec![(1, 1)]);
    }

    #[test]
    fn errors_name_the_line_and_cause() {
        assert_eq!(
            parse("require A -> B\nrequire A -> D").unwrap_err(),
            "c.txt:2: unknown variable `D`"
        );
        assert_eq!(
            parse("require A -> B\n\nforbid A -> B").unwrap_err(),
            "c.txt:3: `A -> B` is both required and forbidden (see line 1)"
        );
        assert!(parse("require A -> A")
            .unwrap_err()
            .starts_with("c.txt:1: `A -> A` is a self loop"));
        assert!(parse("max-parents -1")
            .unwrap_err()
            .starts_with("c.txt:1: parent limit `-1`"));
        assert!(parse("A -> B")
            .unwrap_err()
            .starts_with("c.txt:1: cannot read"));
    }
}
