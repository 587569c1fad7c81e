//! BIF (Bayesian Interchange Format), as used by the bnlearn network repository.
//!
//! Read: `network NAME { … }` (its content is skipped), `variable NAME { type discrete
//! [ k ] { s1, s2, … }; property …; }` and `probability ( X | A, B ) { … }` blocks
//! whose entries are rows `(a, b) p1, p2, …;`, a whole `table p…;` (child slowest, then
//! the parents with the last one fastest, as JavaBayes and pgmpy read it), a
//! `default p…;` for the configurations not listed, and `property …;` (skipped).
//! Comments are `// …` and `/* … */` where a token may start; names are any run of
//! characters other than white space and `{ } ( ) [ ] ; , |` (so `Asy/Patch` and `12+`
//! are names), or a double-quoted string. `.gz` files are gunzipped.
//!
//! Every row of probabilities must be non-negative and sum to 1 within
//! [`SUM_TOLERANCE`]; accepted rows are renormalized. The layout of the CPTs read is
//! the one documented on [`BayesNet`].

use super::dataset::{Variable, MAX_ARITY};
use super::network::{BayesNet, SUM_TOLERANCE};
use crate::error::{read_text, InputError};
use std::io::Write;
use std::path::Path;

/// Largest CPT (entries) the reader accepts.
const MAX_CPT_ENTRIES: usize = 1 << 26;

/// Reads the BIF network at `path` (gunzipped when the name ends in `.gz`).
pub fn read_bif(path: &Path) -> Result<BayesNet, InputError> {
    parse_bif(&read_text(path)?, path)
}

/// Reads BIF `text`; `path` names it in errors.
pub fn parse_bif(text: &str, path: &Path) -> Result<BayesNet, InputError> {
    let tokens = tokenize(text, path)?;
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        path,
    };
    let (vars, cpts) = parser.file()?;
    resolve(&vars, &cpts, path)
}

/// Writes `net` as BIF (a `network unknown` header, the variables, then one
/// probability block per variable with one row per parent configuration). Fails with
/// `InvalidInput` when a name is not a valid BIF name or the network fails
/// [`BayesNet::check`].
pub fn write_bif<W: Write + ?Sized>(net: &BayesNet, w: &mut W) -> std::io::Result<()> {
    let invalid = |cause: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, cause);
    net.check().map_err(invalid)?;
    for var in &net.variables {
        for name in std::iter::once(&var.name).chain(&var.states) {
            if !is_bif_name(name) {
                return Err(invalid(format!("`{name}` cannot be written as a BIF name")));
            }
        }
    }
    writeln!(w, "network unknown {{\n}}")?;
    for var in &net.variables {
        writeln!(
            w,
            "variable {} {{\n  type discrete [ {} ] {{ {} }};\n}}",
            var.name,
            var.arity(),
            var.states.join(", ")
        )?;
    }
    for v in 0..net.n_vars() {
        write_cpt(net, v, w)?;
    }
    Ok(())
}

/// Writes the probability block of `v`.
fn write_cpt<W: Write + ?Sized>(net: &BayesNet, v: usize, w: &mut W) -> std::io::Result<()> {
    let name = |i: usize| net.variables[i].name.as_str();
    let parents: Vec<&str> = net.parents[v].iter().map(|&p| name(p)).collect();
    let numbers = |row: &[f64]| {
        row.iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if parents.is_empty() {
        writeln!(
            w,
            "probability ( {} ) {{\n  table {};\n}}",
            name(v),
            numbers(net.cpt_row(v, 0))
        )?;
        return Ok(());
    }
    writeln!(w, "probability ( {} | {} ) {{", name(v), parents.join(", "))?;
    for config in 0..net.n_configs(v) {
        let states: Vec<&str> = net
            .config_states(v, config)
            .iter()
            .zip(&net.parents[v])
            .map(|(&s, &p)| net.variables[p].states[s].as_str())
            .collect();
        writeln!(
            w,
            "  ({}) {};",
            states.join(", "),
            numbers(net.cpt_row(v, config))
        )?;
    }
    writeln!(w, "}}")
}

/// Whether `s` reads back as one BIF name token.
fn is_bif_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with("//")
        && !s.starts_with("/*")
        && !s
            .chars()
            .any(|c| c.is_whitespace() || is_punct(c) || c == '"')
}

/// The punctuation characters that end a name.
fn is_punct(c: char) -> bool {
    matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | ',' | '|')
}

/// A token: punctuation or a word (name, keyword or number), with its line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'a> {
    Punct(char),
    Word(&'a str),
}

#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    line: usize,
}

/// Splits `text` into tokens, dropping white space and comments.
fn tokenize<'a>(text: &'a str, path: &Path) -> Result<Vec<Token<'a>>, InputError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < bytes.len() {
        let c = bytes[i];
        let rest = &text[i..];
        let space = rest.chars().next().filter(|ch| ch.is_whitespace());
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if let Some(space) = space {
            // Any white space, as the end of a word is found below: a vertical tab or a
            // no-break space is not the start of an empty word.
            i += space.len_utf8();
        } else if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let end = rest
                .find("*/")
                .ok_or_else(|| InputError::at(path, line, "unterminated `/*` comment"))?;
            line += rest[..end].matches('\n').count();
            i += end + 2;
        } else if c == b'"' {
            let end = rest[1..]
                .find('"')
                .ok_or_else(|| InputError::at(path, line, "unterminated quoted name"))?;
            tokens.push(Token {
                tok: Tok::Word(&rest[1..end + 1]),
                line,
            });
            line += rest[1..end + 1].matches('\n').count();
            i += end + 2;
        } else if is_punct(c as char) {
            tokens.push(Token {
                tok: Tok::Punct(c as char),
                line,
            });
            i += 1;
        } else {
            let len = rest
                .find(|ch: char| ch.is_whitespace() || is_punct(ch) || ch == '"')
                .unwrap_or(rest.len());
            tokens.push(Token {
                tok: Tok::Word(&rest[..len]),
                line,
            });
            i += len;
        }
    }
    Ok(tokens)
}

/// A variable block as written.
struct RawVar<'a> {
    name: &'a str,
    line: usize,
    states: Vec<&'a str>,
}

/// What an entry of a probability block gives.
enum EntryKind<'a> {
    /// One row, for the parent states listed.
    Row(Vec<(&'a str, usize)>),
    /// The whole table.
    Table,
    /// The rows not listed otherwise.
    Default,
}

/// One entry of a probability block.
struct RawEntry<'a> {
    kind: EntryKind<'a>,
    values: Vec<f64>,
    line: usize,
}

/// A probability block as written.
struct RawCpt<'a> {
    line: usize,
    child: (&'a str, usize),
    parents: Vec<(&'a str, usize)>,
    entries: Vec<RawEntry<'a>>,
}

/// A recursive-descent parser over the tokens.
struct Parser<'t, 'a> {
    tokens: &'t [Token<'a>],
    at: usize,
    path: &'t Path,
}

impl<'a> Parser<'_, 'a> {
    /// The whole file: variable and probability blocks (network blocks skipped).
    fn file(&mut self) -> Result<(Vec<RawVar<'a>>, Vec<RawCpt<'a>>), InputError> {
        let (mut vars, mut cpts) = (Vec::new(), Vec::new());
        while self.at < self.tokens.len() {
            let (word, line) = self.word("`network`, `variable` or `probability`")?;
            match word {
                "network" => self.network()?,
                "variable" => vars.push(self.variable()?),
                "probability" => cpts.push(self.probability(line)?),
                other => {
                    return Err(self.error(
                        line,
                        format!("expected `network`, `variable` or `probability`, found `{other}`"),
                    ))
                }
            }
        }
        Ok((vars, cpts))
    }

    fn error(&self, line: usize, cause: impl Into<String>) -> InputError {
        InputError::at(self.path, line, cause)
    }

    /// The next token, or an error saying the file ends where `what` was expected.
    fn next(&mut self, what: &str) -> Result<Token<'a>, InputError> {
        match self.tokens.get(self.at) {
            Some(&t) => {
                self.at += 1;
                Ok(t)
            }
            None => {
                let last = self.tokens.last().map_or(1, |t| t.line);
                Err(self.error(last, format!("unexpected end of file, expected {what}")))
            }
        }
    }

    /// The next token if it is the punctuation `c`.
    fn eat(&mut self, c: char) -> bool {
        let hit = matches!(self.tokens.get(self.at), Some(t) if t.tok == Tok::Punct(c));
        self.at += usize::from(hit);
        hit
    }

    fn expect(&mut self, c: char) -> Result<usize, InputError> {
        let t = self.next(&format!("`{c}`"))?;
        match t.tok {
            Tok::Punct(p) if p == c => Ok(t.line),
            Tok::Punct(p) => Err(self.error(t.line, format!("expected `{c}`, found `{p}`"))),
            Tok::Word(w) => Err(self.error(t.line, format!("expected `{c}`, found `{w}`"))),
        }
    }

    fn word(&mut self, what: &str) -> Result<(&'a str, usize), InputError> {
        let t = self.next(what)?;
        match t.tok {
            Tok::Word(w) => Ok((w, t.line)),
            Tok::Punct(p) => Err(self.error(t.line, format!("expected {what}, found `{p}`"))),
        }
    }

    /// Skips tokens up to and including the next `;` (a `property` statement).
    fn skip_statement(&mut self) -> Result<(), InputError> {
        while !self.eat(';') {
            self.next("`;`")?;
        }
        Ok(())
    }

    /// `network NAME { … }`: the name and the block's content are skipped.
    fn network(&mut self) -> Result<(), InputError> {
        while !self.eat('{') {
            self.next("`{`")?;
        }
        let mut depth = 1;
        while depth > 0 {
            match self.next("`}`")?.tok {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    /// `variable NAME { type discrete [ k ] { states }; property …; }`.
    fn variable(&mut self) -> Result<RawVar<'a>, InputError> {
        let (name, line) = self.word("a variable name")?;
        self.expect('{')?;
        let mut states = None;
        while !self.eat('}') {
            match self.word("`type`, `property` or `}`")? {
                ("property", _) => self.skip_statement()?,
                ("type", l) if states.is_none() => states = Some(self.discrete_type(name, l)?),
                ("type", l) => {
                    return Err(self.error(l, format!("variable `{name}` has a second `type`")))
                }
                (other, l) => {
                    return Err(self.error(
                        l,
                        format!("expected `type`, `property` or `}}`, found `{other}`"),
                    ))
                }
            }
        }
        let states = states.ok_or_else(|| {
            self.error(
                line,
                format!("variable `{name}` has no `type discrete` statement"),
            )
        })?;
        Ok(RawVar { name, line, states })
    }

    /// `discrete [ k ] { s1, s2, … };` after `type`.
    fn discrete_type(&mut self, name: &str, line: usize) -> Result<Vec<&'a str>, InputError> {
        match self.word("`discrete`")? {
            ("discrete", _) => {}
            (other, l) => {
                return Err(self.error(
                    l,
                    format!("variable `{name}` has type `{other}`; only `discrete` is supported"),
                ))
            }
        }
        self.expect('[')?;
        let (count, count_line) = self.word("the number of states")?;
        self.expect(']')?;
        self.expect('{')?;
        let mut states = Vec::new();
        while !self.eat('}') {
            if !states.is_empty() && self.eat(',') {
                continue;
            }
            let (state, l) = self.word("a state name")?;
            if states.contains(&state) {
                return Err(self.error(
                    l,
                    format!("variable `{name}` lists the state `{state}` twice"),
                ));
            }
            states.push(state);
        }
        self.expect(';')?;
        match count.parse::<usize>() {
            Ok(k) if k == states.len() && (1..=MAX_ARITY).contains(&k) => Ok(states),
            Ok(k) if k == states.len() => Err(self.error(
                count_line,
                format!("variable `{name}` has {k} states; bnsl supports 1 to {MAX_ARITY}"),
            )),
            _ => Err(self.error(
                line,
                format!(
                    "variable `{name}` declares [{count}] states but lists {}",
                    states.len()
                ),
            )),
        }
    }

    /// `probability ( X | A, B ) { entries }` after `probability` at `line`.
    fn probability(&mut self, line: usize) -> Result<RawCpt<'a>, InputError> {
        self.expect('(')?;
        let child = self.word("a variable name")?;
        let mut parents = Vec::new();
        if self.eat('|') {
            while !self.eat(')') {
                if !parents.is_empty() && self.eat(',') {
                    continue;
                }
                parents.push(self.word("a parent name")?);
            }
        } else {
            self.expect(')')?;
        }
        self.expect('{')?;
        let mut entries = Vec::new();
        while !self.eat('}') {
            if let Some(entry) = self.entry()? {
                entries.push(entry);
            }
        }
        Ok(RawCpt {
            line,
            child,
            parents,
            entries,
        })
    }

    /// One entry of a probability block; `None` for a skipped `property`.
    fn entry(&mut self) -> Result<Option<RawEntry<'a>>, InputError> {
        let t = self.next("a probability entry or `}`")?;
        let kind = match t.tok {
            Tok::Punct('(') => {
                let mut states = Vec::new();
                while !self.eat(')') {
                    if !states.is_empty() && self.eat(',') {
                        continue;
                    }
                    states.push(self.word("a parent state")?);
                }
                EntryKind::Row(states)
            }
            Tok::Word("table") => EntryKind::Table,
            Tok::Word("default") => EntryKind::Default,
            Tok::Word("property") => return self.skip_statement().map(|_| None),
            Tok::Word(w) => {
                return Err(self.error(
                    t.line,
                    format!("expected `(`, `table`, `default` or `property`, found `{w}`"),
                ))
            }
            Tok::Punct(p) => {
                return Err(self.error(
                    t.line,
                    format!("expected `(`, `table`, `default` or `property`, found `{p}`"),
                ))
            }
        };
        let mut values = Vec::new();
        while !self.eat(';') {
            if !values.is_empty() && self.eat(',') {
                continue;
            }
            let (w, l) = self.word("a probability")?;
            let p = w
                .parse::<f64>()
                .map_err(|_| self.error(l, format!("`{w}` is not a number")))?;
            values.push(p);
        }
        Ok(Some(RawEntry {
            kind,
            values,
            line: t.line,
        }))
    }
}

/// Builds and checks the network from the parsed blocks.
fn resolve(
    raw_vars: &[RawVar<'_>],
    raw_cpts: &[RawCpt<'_>],
    path: &Path,
) -> Result<BayesNet, InputError> {
    let mut variables: Vec<Variable> = Vec::with_capacity(raw_vars.len());
    for (i, v) in raw_vars.iter().enumerate() {
        if let Some(first) = raw_vars[..i].iter().find(|u| u.name == v.name) {
            let cause = format!(
                "variable `{}` is declared twice (first at line {})",
                v.name, first.line
            );
            return Err(InputError::at(path, v.line, cause));
        }
        variables.push(Variable {
            name: v.name.to_string(),
            states: v.states.iter().map(|s| s.to_string()).collect(),
        });
    }
    if variables.is_empty() {
        return Err(InputError::file(path, "no variables (not a BIF network?)"));
    }
    let index = |name: &str| variables.iter().position(|v| v.name == name);
    let n = variables.len();
    let mut block: Vec<Option<&RawCpt<'_>>> = vec![None; n];
    let mut parents = vec![Vec::new(); n];
    for cpt in raw_cpts {
        let (name, line) = cpt.child;
        let v = index(name).ok_or_else(|| {
            InputError::at(
                path,
                line,
                format!("probability for unknown variable `{name}`"),
            )
        })?;
        if let Some(first) = block[v] {
            let cause = format!(
                "a second probability block for `{name}` (the first is at line {})",
                first.line
            );
            return Err(InputError::at(path, cpt.line, cause));
        }
        block[v] = Some(cpt);
        parents[v] = family_parents(cpt, v, &variables, path)?;
    }
    let mut cpts = Vec::with_capacity(n);
    for v in 0..n {
        let cpt = block[v].ok_or_else(|| {
            InputError::at(
                path,
                raw_vars[v].line,
                format!("variable `{}` has no probability block", variables[v].name),
            )
        })?;
        cpts.push(assemble(cpt, v, &parents[v], &variables, path)?);
    }
    let net = BayesNet {
        variables,
        parents,
        cpts,
    };
    if let Err(cycle) = net.dag().topological_order() {
        let names: Vec<&str> = cycle
            .iter()
            .map(|&v| net.variables[v].name.as_str())
            .collect();
        let line = block[cycle[0]].map_or(1, |c| c.line);
        return Err(InputError::at(
            path,
            line,
            format!(
                "the network has a directed cycle through {}",
                names.join(", ")
            ),
        ));
    }
    Ok(net)
}

/// The parent indices of a probability block: known, distinct, not the child.
fn family_parents(
    cpt: &RawCpt<'_>,
    v: usize,
    variables: &[Variable],
    path: &Path,
) -> Result<Vec<usize>, InputError> {
    let mut parents = Vec::with_capacity(cpt.parents.len());
    for &(name, line) in &cpt.parents {
        let p = variables
            .iter()
            .position(|u| u.name == name)
            .ok_or_else(|| {
                InputError::at(
                    path,
                    line,
                    format!("unknown parent `{name}` of `{}`", variables[v].name),
                )
            })?;
        if p == v || parents.contains(&p) {
            let cause = format!(
                "`{name}` is listed twice or as its own parent in the probability of `{}`",
                variables[v].name
            );
            return Err(InputError::at(path, line, cause));
        }
        parents.push(p);
    }
    Ok(parents)
}

/// The CPT of `v` from its block's entries, in [`BayesNet`]'s layout, checked and
/// renormalized.
fn assemble(
    cpt: &RawCpt<'_>,
    v: usize,
    parents: &[usize],
    variables: &[Variable],
    path: &Path,
) -> Result<Vec<f64>, InputError> {
    let name = &variables[v].name;
    let r = variables[v].arity();
    let q = parents
        .iter()
        .try_fold(1usize, |q, &p| q.checked_mul(variables[p].arity()))
        .filter(|&q| q.saturating_mul(r) <= MAX_CPT_ENTRIES)
        .ok_or_else(|| {
            InputError::at(
                path,
                cpt.line,
                format!("the CPT of `{name}` has more than {MAX_CPT_ENTRIES} entries"),
            )
        })?;
    let mut table = vec![0.0; q * r];
    let mut source: Vec<Option<usize>> = vec![None; q];
    let mut default = None;
    for entry in &cpt.entries {
        let line = entry.line;
        let expect_len = |len: usize, what: &str| {
            if entry.values.len() == len {
                Ok(())
            } else {
                Err(InputError::at(
                    path,
                    line,
                    format!(
                        "expected {len} probabilities {what}, found {}",
                        entry.values.len()
                    ),
                ))
            }
        };
        match &entry.kind {
            EntryKind::Table => {
                expect_len(q * r, &format!("in the table of `{name}`"))?;
                if source.iter().any(Option::is_some) {
                    return Err(InputError::at(
                        path,
                        line,
                        format!("the rows of `{name}` are given twice"),
                    ));
                }
                for (j, slot) in source.iter_mut().enumerate() {
                    *slot = Some(line);
                    for k in 0..r {
                        table[j * r + k] = entry.values[k * q + j];
                    }
                }
            }
            EntryKind::Row(states) => {
                expect_len(r, &format!("for `{name}`"))?;
                let j = config_index(states, parents, variables, path, line)?;
                if source[j].is_some() {
                    let cause = format!(
                        "the row of `{name}` for ({}) is given twice",
                        row_label(states)
                    );
                    return Err(InputError::at(path, line, cause));
                }
                source[j] = Some(line);
                table[j * r..(j + 1) * r].copy_from_slice(&entry.values);
            }
            EntryKind::Default => {
                expect_len(r, &format!("for `{name}`"))?;
                if default.replace(entry).is_some() {
                    return Err(InputError::at(
                        path,
                        line,
                        format!("a second `default` for `{name}`"),
                    ));
                }
            }
        }
    }
    for j in 0..q {
        match (source[j], default) {
            (Some(_), _) => {}
            (None, Some(d)) => {
                source[j] = Some(d.line);
                table[j * r..(j + 1) * r].copy_from_slice(&d.values);
            }
            (None, None) => {
                let cause = format!(
                    "no probabilities for `{name}`{}",
                    given(j, parents, variables)
                );
                return Err(InputError::at(path, cpt.line, cause));
            }
        }
    }
    for (j, row) in table.chunks_mut(r).enumerate() {
        normalize(row).map_err(|cause| {
            InputError::at(
                path,
                source[j].unwrap_or(cpt.line),
                format!(
                    "the probabilities of `{name}`{} {cause}",
                    given(j, parents, variables)
                ),
            )
        })?;
    }
    Ok(table)
}

/// The configuration index of the parent states listed in a row entry.
fn config_index(
    states: &[(&str, usize)],
    parents: &[usize],
    variables: &[Variable],
    path: &Path,
    line: usize,
) -> Result<usize, InputError> {
    if states.len() != parents.len() {
        let cause = format!(
            "expected {} parent states, found {}",
            parents.len(),
            states.len()
        );
        return Err(InputError::at(path, line, cause));
    }
    let mut j = 0;
    for (&(state, l), &p) in states.iter().zip(parents) {
        let var = &variables[p];
        let s = var.states.iter().position(|x| x == state).ok_or_else(|| {
            InputError::at(
                path,
                l,
                format!(
                    "`{state}` is not a state of `{}` (states: {})",
                    var.name,
                    var.states.join(", ")
                ),
            )
        })?;
        j = j * var.arity() + s;
    }
    Ok(j)
}

/// ` given (A = a, B = b)` for configuration `j` of `parents`, or nothing.
fn given(j: usize, parents: &[usize], variables: &[Variable]) -> String {
    if parents.is_empty() {
        return String::new();
    }
    let mut states = vec![0; parents.len()];
    let mut rest = j;
    for (slot, &p) in states.iter_mut().zip(parents).rev() {
        *slot = rest % variables[p].arity();
        rest /= variables[p].arity();
    }
    let parts: Vec<String> = parents
        .iter()
        .zip(&states)
        .map(|(&p, &s)| format!("{} = {}", variables[p].name, variables[p].states[s]))
        .collect();
    format!(" given ({})", parts.join(", "))
}

/// The parent states of a row entry, comma separated.
fn row_label(states: &[(&str, usize)]) -> String {
    states.iter().map(|s| s.0).collect::<Vec<_>>().join(", ")
}

/// Checks one row (finite, non-negative, summing to 1 within [`SUM_TOLERANCE`]) and
/// divides it by its sum; the error completes "the probabilities of X …".
fn normalize(row: &mut [f64]) -> Result<(), String> {
    if let Some(p) = row.iter().find(|p| !p.is_finite() || **p < 0.0) {
        return Err(format!("include {p}, which is not a probability"));
    }
    let sum: f64 = row.iter().sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(format!("sum to {sum}, not 1 (tolerance {SUM_TOLERANCE:e})"));
    }
    row.iter_mut().for_each(|p| *p /= sum);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::network::tests::small_net;

    fn parse(text: &str) -> Result<BayesNet, InputError> {
        parse_bif(text, Path::new("n.bif"))
    }

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    const TWO: &str = "network x { property a b; }\n\
        variable A { type discrete [ 2 ] { yes, no }; }\n\
        variable B { type discrete [ 3 ] { lo, Asy/Patch, 12+ }; property p = 1; }\n";

    #[test]
    fn reads_rows_tables_defaults_and_comments() {
        let text = format!(
            "{TWO}// comment\nprobability ( A ) {{ table 0.2, 0.8; }}\n\
             /* block\n comment */ probability ( B | A ) {{\n (no) 0.1, 0.2, 0.7;\n default 1, 0, 0; }}\n"
        );
        let net = parse(&text).unwrap();
        assert_eq!(net.variables[1].states, ["lo", "Asy/Patch", "12+"]);
        assert_eq!(net.parents, [vec![], vec![0]]);
        assert_eq!(net.cpts[1], [1.0, 0.0, 0.0, 0.1, 0.2, 0.7]);
        let text = format!(
            "{TWO}probability ( A ) {{ table 0.2 0.8; }}\nprobability ( B | A ) {{ table 0.1 0.2 0.3 0.4 0.6 0.4; }}\n"
        );
        assert_eq!(
            parse(&text).unwrap().cpts[1],
            [0.1, 0.3, 0.6, 0.2, 0.4, 0.4]
        );
    }

    #[test]
    fn errors_name_line_and_cause() {
        let a = "probability ( A ) { table 0.2, 0.8; }\n";
        assert_eq!(
            err(&format!("{TWO}{a}probability ( B | A ) {{\n (yes) 0.1, 0.2, 0.6;\n (no) 0.1, 0.2, 0.7;\n}}\n")),
            "n.bif:6: the probabilities of `B` given (A = yes) sum to 0.9, not 1 (tolerance 1e-4)"
        );
        assert_eq!(
            err(&format!(
                "{TWO}{a}probability ( B | C ) {{ default 1, 0, 0; }}\n"
            )),
            "n.bif:5: unknown parent `C` of `B`"
        );
        assert_eq!(
            err(&format!(
                "{TWO}variable A {{ type discrete [ 2 ] {{ a, b }}; }}\n"
            )),
            "n.bif:4: variable `A` is declared twice (first at line 2)"
        );
        assert_eq!(
            err(&format!("{TWO}{a}")),
            "n.bif:3: variable `B` has no probability block"
        );
        assert_eq!(
            err(&format!(
                "{TWO}{a}probability ( B | A ) {{\n (yes) 0.1, 0.9;\n}}\n"
            )),
            "n.bif:6: expected 3 probabilities for `B`, found 2"
        );
        assert_eq!(
            err(&format!(
                "{TWO}{a}probability ( B | A ) {{\n (yes) 1, 0, 0;\n}}\n"
            )),
            "n.bif:5: no probabilities for `B` given (A = no)"
        );
        assert_eq!(
            err(&format!(
                "{TWO}{a}probability ( B | A ) {{\n (maybe) 1, 0, 0;\n}}\n"
            )),
            "n.bif:6: `maybe` is not a state of `A` (states: yes, no)"
        );
        assert_eq!(
            err(&format!(
                "{TWO}probability ( A | B ) {{ default 1, 0; }}\nprobability ( B | A ) {{ default 1, 0, 0; }}\n"
            )),
            "n.bif:5: the network has a directed cycle through B, A"
        );
        assert_eq!(
            err(&format!("{TWO}probability ( A ) {{ table 0.2, 0.8;")),
            "n.bif:4: unexpected end of file, expected a probability entry or `}`"
        );
        assert_eq!(
            err("variable A { type discrete [ 3 ] { a, b }; }"),
            "n.bif:1: variable `A` declares [3] states but lists 2"
        );
        assert_eq!(
            err("variable A { type discrete [ 1 ] { a }; }\nprobability ( A ) { table x; }"),
            "n.bif:2: `x` is not a number"
        );
        assert_eq!(err("/* open"), "n.bif:1: unterminated `/*` comment");
        assert_eq!(
            err("nonsense"),
            "n.bif:1: expected `network`, `variable` or `probability`, found `nonsense`"
        );
    }

    #[test]
    fn write_then_read_round_trips() {
        let net = small_net();
        let mut out = Vec::new();
        write_bif(&net, &mut out).unwrap();
        let back = parse(std::str::from_utf8(&out).unwrap()).unwrap();
        assert_eq!(back.variables, net.variables);
        assert_eq!(back.parents, net.parents);
        for (a, b) in back.cpts.iter().flatten().zip(net.cpts.iter().flatten()) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
    }

    #[test]
    fn any_white_space_separates_tokens() {
        // Found by the `bif` fuzz target: a vertical tab (white space to
        // `char::is_whitespace`, not to `u8::is_ascii_whitespace`) was read as an empty
        // word, again and again, without moving on.
        assert_eq!(err("\u{b}"), "n.bif: no variables (not a BIF network?)");
        let net = parse(
            "variable A {\u{b}type discrete [ 2 ] { yes,\u{a0}no }; }\n\
             probability\u{2003}( A ) {\u{3000}table 0.2, 0.8; }\n",
        )
        .unwrap();
        assert_eq!(net.variables[0].states, ["yes", "no"]);
    }

    #[test]
    fn writer_rejects_unwritable_names() {
        let mut net = small_net();
        net.variables[0].states[0] = "a b".into();
        assert!(write_bif(&net, &mut Vec::new()).is_err());
    }
}
