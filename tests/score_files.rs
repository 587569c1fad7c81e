//! Score-file reading, writing and conversion on small files written to a temporary
//! directory: every rejected input names the file, the line and the cause, and every
//! accepted table survives a write/read round trip unchanged.

mod common;

use bnsl::fio::{read_jkl, read_pss, read_scores, write_jkl, write_pss, NameStyle, ScoreFormat};
use bnsl::formulations::ScoreTable;
use std::io::Write;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Writes `text` to `dir/name` and returns the path.
fn put(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write test file");
    path
}

/// Reads `text` as `name` with `read_scores` and returns the error message.
fn error_of(name: &str, text: &str) -> String {
    let dir = TempDir::new().unwrap();
    let path = put(&dir, name, text);
    match read_scores(&path) {
        Ok(_) => panic!("{name} should be rejected:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// Asserts that reading `text` fails at `line` with a message containing `cause`.
fn rejects(name: &str, text: &str, line: usize, cause: &str) {
    let msg = error_of(name, text);
    let at = format!("{name}:{line}: ");
    assert!(msg.contains(&at), "expected `{at}` in: {msg}");
    assert!(msg.contains(cause), "expected `{cause}` in: {msg}");
}

#[test]
fn rejects_missing_or_wrong_variable_count() {
    let msg = error_of("empty.jkl", "# only a comment\n\n");
    assert!(
        msg.contains("empty.jkl") && msg.contains("expected the number of variables"),
        "{msg}"
    );
    rejects(
        "word.jkl",
        "three\na 1\n-1 0\n",
        1,
        "expected the number of variables",
    );
    rejects("two.jkl", "2 3\na 1\n-1 0\n", 1, "found `2 3`");
    rejects("zero.jkl", "0\n", 1, "the number of variables is 0");
    rejects(
        "small.jkl",
        "1\na 1\n-1 0\nb 1\n-1 0\n",
        4,
        "unexpected `b 1` after the 1 variable blocks",
    );
}

#[test]
fn rejects_truncated_files() {
    rejects(
        "blocks.jkl",
        "3\na 1\n-1 0\nb 1\n-2 0\n",
        5,
        "ends after 2 of the 3 variable blocks",
    );
    rejects(
        "lines.jkl",
        "2\na 1\n-1 0\nb 3\n-2 0\n-3 1 a\n",
        6,
        "announces 3 parent sets, but the file ends after 2",
    );
}

#[test]
fn rejects_bad_parents() {
    rejects(
        "range.jkl",
        "2\n0 1\n-1 1 5\n1 1\n-1 0\n",
        3,
        "parent index 5 is out of range",
    );
    rejects(
        "unknown.jkl",
        "2\na 1\n-1 1 c\nb 1\n-1 0\n",
        3,
        "unknown parent `c`",
    );
    rejects(
        "self.jkl",
        "2\na 2\n-1 1 b\n-2 1 a\nb 1\n-1 0\n",
        4,
        "variable `a` lists itself as a parent",
    );
    rejects(
        "self_index.jkl",
        "2\n0 1\n-1 0\n1 1\n-1 1 1\n",
        5,
        "variable `1` lists itself as a parent",
    );
    rejects(
        "twice.jkl",
        "3\na 1\n-1 2 b b\nb 1\n-1 0\nc 1\n-1 0\n",
        3,
        "parent `b` appears twice on this line",
    );
    rejects(
        "count.jkl",
        "2\na 1\n-1 2 b\nb 1\n-1 0\n",
        3,
        "announces 2 parents but lists 1",
    );
    rejects(
        "count2.jkl",
        "2\na 1\n-1 0 b\nb 1\n-1 0\n",
        3,
        "announces 0 parents but lists 1",
    );
    rejects(
        "set.jkl",
        "2\na 2\n-1 1 b\n-2 1 b\nb 1\n-1 0\n",
        4,
        "already listed at line 3",
    );
}

#[test]
fn rejects_duplicate_blocks() {
    rejects(
        "dup.jkl",
        "2\na 1\n-1 0\na 1\n-2 0\n",
        4,
        "variable `a` has a second block (the first is at line 2)",
    );
}

#[test]
fn rejects_non_finite_and_non_numeric_tokens() {
    rejects(
        "nan.jkl",
        "1\na 1\nnan 0\n",
        3,
        "the score `nan` is not a finite number",
    );
    rejects(
        "inf.jkl",
        "1\na 1\n-inf 0\n",
        3,
        "the score `-inf` is not a finite number",
    );
    rejects(
        "word.jkl",
        "1\na 1\nabc 0\n",
        3,
        "the score `abc` is not a number",
    );
    rejects(
        "m.jkl",
        "1\na 1\n-1 one\n",
        3,
        "the number of parents `one`",
    );
    rejects(
        "k.jkl",
        "1\na many\n-1 0\n",
        2,
        "expected the header `NAME COUNT`",
    );
    rejects(
        "short.jkl",
        "2\na 1\n-1 0\n-2 1 a\nb 1\n-1 0\n",
        4,
        "too few parent sets",
    );
}

#[test]
fn rejects_garbage_after_the_blocks() {
    rejects(
        "tail.jkl",
        "1\na 1\n-1 0\nthe end\n",
        4,
        "unexpected `the end` after the 1 variable blocks",
    );
    rejects(
        "pairs.jkl",
        "2\n0 1\n-1 0\n1 1\n-1 0\n2\n0 1\n",
        7,
        "announces 2 pairs, but the file ends after 1",
    );
    rejects(
        "pair.jkl",
        "2\n0 1\n-1 0\n1 1\n-1 0\n1\n0 x\n",
        7,
        "constraint `0 x`",
    );
    rejects(
        "more.jkl",
        "2\n0 1\n-1 0\n1 1\n-1 0\n1\n0 1\n1 0\n",
        8,
        "after the 1 constraint pairs",
    );
}

#[test]
fn rejects_bad_pss_files() {
    rejects(
        "a.pss",
        "META num_variables=2\nVAR A\n-1\n",
        1,
        "num_variables is 2 but the file has 1",
    );
    rejects("b.pss", "VAR A\n-1 Z\n", 2, "unknown parent `Z`");
    rejects(
        "c.pss",
        "VAR A\nMETA arity=2\nVAR B\n-1\n",
        1,
        "variable `A` has no parent-set line",
    );
    rejects("d.pss", "VAR A\n-1 B B\nVAR B\n-1\n", 2, "appears twice");
    rejects("e.pss", "VAR A\nNaN\n", 2, "not a finite number");
}

#[test]
fn keeps_comments_and_constraints_beside_the_table() {
    let dir = TempDir::new().unwrap();
    let text = "# Score function: BDeu\n2\n0 2\n-1.5 1 1  \n-2.25 0\n1 1\n-3 0\n\n2\n0 1\n1 0\n";
    let file = read_jkl(&put(&dir, "minobs.jkl", text)).unwrap();
    assert_eq!(file.comments, ["Score function: BDeu"]);
    assert_eq!(file.ancestral_constraints, [(0, 1), (1, 0)]);
    assert_eq!(file.table.total_candidates(), 3);
}

/// Writes `table` in `style`, reads it back and returns the re-read table.
fn jkl_round_trip(dir: &TempDir, table: &ScoreTable, style: NameStyle, name: &str) -> ScoreTable {
    let mut out = Vec::new();
    write_jkl(table, &mut out, style).unwrap();
    read_jkl(&put(dir, name, std::str::from_utf8(&out).unwrap()))
        .unwrap()
        .table
}

#[test]
fn round_trips_names_and_indices_exactly() {
    let dir = TempDir::new().unwrap();
    let text = "3\nOne 3\n-6227.61575999 2 Two Three\n-0.1 1 Three\n-6869.80004059 0\n\
                Two 2\n-1e-300 1 One\n-123456789.123456789 0\nThree 1\n-0.30000000000000004 0\n";
    let table = read_jkl(&put(&dir, "names.jkl", text)).unwrap().table;
    assert_eq!(
        jkl_round_trip(&dir, &table, NameStyle::Names, "names2.jkl"),
        table
    );

    let by_index = jkl_round_trip(&dir, &table, NameStyle::Indices, "indices.jkl");
    assert_eq!(by_index.names(), ["0", "1", "2"]);
    for v in 0..3 {
        assert_eq!(by_index.candidates(v), table.candidates(v));
    }
    assert_eq!(
        jkl_round_trip(&dir, &by_index, NameStyle::Indices, "indices2.jkl"),
        by_index
    );
}

#[test]
fn writes_scores_with_their_shortest_digits() {
    let dir = TempDir::new().unwrap();
    let table = read_jkl(&put(
        &dir,
        "s.jkl",
        "2\na 2\n-1126.86515789 1 b\n-3627.0266 0\nb 1\n-5000.000000 0\n",
    ))
    .unwrap()
    .table;
    let mut out = Vec::new();
    write_jkl(&table, &mut out, NameStyle::Names).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "2\na 2\n-1126.86515789 1 b\n-3627.0266 0\nb 1\n-5000 0\n"
    );
}

#[test]
fn round_trips_pss_and_reads_gzip() {
    let dir = TempDir::new().unwrap();
    let pss = "META pss_version = 0.1\nMETA num_variables=2\n\nVAR A\nMETA arity=2\n-5.5 B \n-7.25 \n\nVAR B\n-3 \n";
    let file = read_pss(&put(&dir, "x.pss", pss)).unwrap();
    let mut out = Vec::new();
    write_pss(&file.table, &mut out).unwrap();
    assert_eq!(
        read_pss(&put(&dir, "y.pss", std::str::from_utf8(&out).unwrap()))
            .unwrap()
            .table,
        file.table
    );

    let gz_path = dir.path().join("z.pss.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz_path).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(pss.as_bytes()).unwrap();
    gz.finish().unwrap();
    let from_gz = read_scores(&gz_path).unwrap();
    assert_eq!(from_gz.format, ScoreFormat::Pss);
    assert_eq!(from_gz.table, file.table);
}

#[test]
fn read_scores_detects_pss_by_content() {
    let dir = TempDir::new().unwrap();
    let file = read_scores(&put(&dir, "scores.txt", "VAR A\n-1 B\n-2\nVAR B\n-1\n")).unwrap();
    assert_eq!(file.format, ScoreFormat::Pss);
    assert_eq!(file.table.names(), ["A", "B"]);
}

/// Runs `bnsl convert` on `input` to `output`; the error is its standard error.
fn convert(input: &Path, output: &Path, indices: bool) -> Result<(), String> {
    let mut args = vec![
        "convert",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ];
    if indices {
        args.push("--indices");
    }
    let out = common::bnsl(&args);
    match out.status.success() {
        true => Ok(()),
        false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
    }
}

#[test]
fn convert_writes_gobnilp_jkl_from_pss_and_minobs() {
    let dir = TempDir::new().unwrap();
    let pss = put(&dir, "in.pss", "VAR A\n-1 B\n-2\nVAR B\n-1.5\n");
    let out = dir.path().join("out.jkl");
    convert(&pss, &out, false).unwrap();
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "2\nA 2\n-1 1 B\n-2 0\nB 1\n-1.5 0\n"
    );
    convert(&pss, &out, true).unwrap();
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "2\n0 2\n-1 1 1\n-2 0\n1 1\n-1.5 0\n"
    );

    let minobs = put(&dir, "in.jkl", "2\n0 1\n-1 0\n1 1\n-1 0\n1\n0 1\n");
    let back = dir.path().join("back.pss");
    convert(&minobs, &back, false).unwrap();
    assert_eq!(
        read_scores(&back).unwrap().table,
        read_scores(&minobs).unwrap().table
    );
    assert!(
        convert(&minobs, &back, true).is_err(),
        "--indices with .pss output is refused"
    );

    let bad = put(&dir, "bad.jkl", "2\na 1\n-1 0\n");
    let msg = convert(&bad, &out, false).unwrap_err();
    assert!(msg.contains("bad.jkl:3:"), "{msg}");
}
