//! Helpers shared by the fuzz targets (each target includes this file as a module).

#![allow(dead_code)]

/// The bytes as the readers see a file: exact UTF-8 (the readers refuse anything else
/// before parsing), with a leading byte-order mark dropped as `read_text` does.
pub fn text(data: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(data).ok()?;
    Some(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// The first line of `text` and the rest (empty when there is no line break).
pub fn first_line(text: &str) -> (&str, &str) {
    text.split_once('\n').unwrap_or((text, ""))
}

/// Distinct variable names, in order, from the tokens of `line`: the callers of the
/// readers that take a list of names pass the names of a table or data set, which are
/// distinct.
pub fn names(line: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for token in line.split_whitespace().take(1000) {
        if !names.iter().any(|n| n == token) {
            names.push(token.to_string());
        }
    }
    names
}

/// The first byte as a selector among `choices` options, and the rest of the input as
/// [`text`].
pub fn choose(data: &[u8], choices: u8) -> Option<(u8, &str)> {
    let (&first, rest) = data.split_first()?;
    Some((first % choices, text(rest)?))
}

/// Declared variables for the data readers' `declared` argument (as a network gives
/// them): names and states that the seeds and simple mutations can hit.
pub fn declared() -> Vec<bnsl::data::Variable> {
    let var = |name: &str, states: &[&str]| bnsl::data::Variable {
        name: name.to_string(),
        states: states.iter().map(|s| s.to_string()).collect(),
    };
    vec![
        var("a", &["yes", "no"]),
        var("b", &["lo", "mid", "hi"]),
        var("0", &["0", "1"]),
        var("1", &["x", "y", "z"]),
    ]
}

/// The invariants of any data set read: at least one row, every column as long as the
/// others, every code below its variable's arity, arities at most `MAX_ARITY`.
pub fn check_data(data: &bnsl::data::DataSet) {
    assert!(data.n_rows() > 0);
    for (v, var) in data.variables().iter().enumerate() {
        let arity = var.arity();
        assert!((1..=bnsl::data::MAX_ARITY).contains(&arity));
        let column = data.column(v);
        assert_eq!(column.len(), data.n_rows());
        assert!(column.iter().all(|&c| usize::from(c) < arity));
    }
}
