//! Every score file of the shared benchmark data (`../shared/instances/jkl/`, all
//! subfolders) is read, checked against its known size, and round-tripped through the
//! writers. Run with `cargo test --release --features shared-tests --test shared_score_files`.
//!
//! Which files are score files is decided by name: the extensions `jkl`, `jaa`, `score`,
//! `scores` and `pss` (optionally followed by `.gz`). Every other file must be listed in
//! [`NOT_SCORE_FILES`], so a new file cannot be skipped silently.

#![cfg(feature = "shared-tests")]

use bnsl::fio::{read_scores, write_jkl, write_pss, NameStyle, ScoreFile};
use bnsl::formulations::ScoreTable;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Files under `jkl/` that are not score files, with what they are.
const NOT_SCORE_FILES: &[(&str, &str)] = &[(
    "minobs_anc_bdeu/gob-graphs.txt",
    "notes: lists of bnlearn model strings per data set",
)];

/// (path under `jkl/`, variables, candidate families, trailing constraint pairs), counted
/// independently of bnsl (first line, sum of the block counts, lines after the blocks).
const KNOWN: &[(&str, usize, usize, usize)] = &[
    ("blip/child-5000.BDeu1.seqsel.jkl", 20, 627, 0),
    ("blip/child-5000.bdeu.seqsel10s.old.jkl", 20, 979, 0),
    ("ebnsl/asia_10000.dat.3.jkl", 8, 512, 0),
    ("ebnsl/wine.BIC.3.jkl", 14, 592, 0),
    ("found_scores/alarm_100.jaa", 37, 224, 0),
    ("found_scores/alarm_10000.scores", 37, 6362, 0),
    ("found_scores/alarm_100_1_3.scores", 37, 907, 0),
    ("found_scores/sb_gobnilp_example.score", 37, 2081, 0),
    ("gobnilp_bdeu/alarm1000.BDeu1.palim3.jkl", 37, 1928, 0),
    ("gobnilp_bdeu/barley1000.BDeu1.palim3.jkl", 48, 363, 0),
    ("gobnilp_bdeu/carpo100.BDeu1.palim3.jkl", 60, 4052, 0),
    ("gobnilp_bdeu/carpo500.BDeu1.palim3.jkl", 60, 2477, 0),
    ("gobnilp_bdeu/hailfinder100.BDeu1.palim3.jkl", 56, 244, 0),
    ("gobnilp_bdeu/hailfinder500.BDeu1.palim3.jkl", 56, 514, 0),
    ("gobnilp_bdeu/insurance1000.BDeu1.palim3.jkl", 27, 786, 0),
    ("gobnilp_bdeu/mildew1000.BDeu1.palim3.jkl", 35, 166, 0),
    ("gobnilp_bdeu/water1000.BDeu1.palim3.jkl", 32, 259, 0),
    ("minobs_anc_bdeu/asia_1000_1.BDeu.jkl", 8, 512, 0),
    ("minobs_anc_bdeu/asia_250_1.BDeu.jkl", 8, 512, 0),
    ("minobs_anc_bdeu/cancer_1000_1.BDeu.jkl", 5, 75, 0),
    ("minobs_anc_bdeu/cancer_250_1.BDeu.jkl", 5, 75, 0),
    ("minobs_anc_bdeu/child_2000_1.BDeu.jkl", 20, 23200, 0),
    ("minobs_anc_bdeu/child_500_1.BDeu.jkl", 20, 23200, 0),
    ("minobs_anc_bdeu/earthquake_1000_1.BDeu.jkl", 5, 75, 0),
    ("minobs_anc_bdeu/earthquake_250_1.BDeu.jkl", 5, 75, 0),
    ("minobs_anc_bdeu/insurance_2000_1.BDeu.jkl", 27, 79704, 0),
    ("minobs_anc_bdeu/insurance_500_1.BDeu.jkl", 27, 79704, 0),
    ("minobs_anc_bdeu/sachs_1000_1.BDeu.jkl", 11, 1936, 0),
    ("minobs_anc_bdeu/sachs_250_1.BDeu.jkl", 11, 1936, 0),
    ("minobs_anc_bdeu/survey_1000_1.BDeu.jkl", 6, 156, 0),
    ("minobs_anc_bdeu/survey_250_1.BDeu.jkl", 6, 156, 0),
    ("minobs_anc_bdeu/water_1000_1.BDeu.jkl", 32, 159744, 0),
    ("minobs_anc_bdeu/water_4000_1.BDeu.jkl", 32, 159744, 0),
    ("minobs_anc_misc/abalone_BDe.jkl", 9, 324, 2),
    ("minobs_anc_misc/abalone_BIC.jkl", 9, 195, 3),
    ("minobs_anc_misc/alarm1000_BIC.jkl", 37, 1002, 1),
    ("minobs_anc_misc/alarm100_BIC.jkl", 37, 224, 3),
    ("minobs_anc_misc/alarm_10000_BIC.jkl", 37, 1644, 112),
    ("minobs_anc_misc/alarm_1000_BDeu.jkl", 37, 1775, 6),
    ("minobs_anc_misc/alarm_500_BDeu.jkl", 37, 1336, 1),
    ("minobs_anc_misc/barley1000_BDe.jkl", 48, 364, 1),
    ("pss_urlearning_format/btbn_example.BIC.pss", 16, 8185, 0),
];

/// The shared score-file folder; panics with instructions when it is missing.
fn jkl_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/instances/jkl");
    assert!(
        root.is_dir(),
        "the shared benchmark data is missing: expected the folder {} (the repository's sibling \
         `shared/instances`); run without `--features shared-tests` to skip these tests",
        root.display()
    );
    root
}

/// All files under `dir`, recursively, as paths relative to `root`, sorted.
fn files_under(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files_under(root, &path, out);
        } else {
            out.push(
                path.strip_prefix(root)
                    .expect("under root")
                    .to_string_lossy()
                    .replace('\\', "/"),
            );
        }
    }
}

/// Whether a file name has a score-file extension (see the module documentation).
fn is_score_file(name: &str) -> bool {
    let name = name.strip_suffix(".gz").unwrap_or(name);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(ext, "jkl" | "jaa" | "score" | "scores" | "pss")
}

/// The score files and the skipped files under the shared folder.
fn classify() -> (Vec<String>, Vec<String>) {
    let root = jkl_root();
    let mut all = Vec::new();
    files_under(&root, &root, &mut all);
    all.sort();
    all.into_iter().partition(|f| is_score_file(f))
}

/// Reads one shared file, panicking with the reader's message.
fn read(rel: &str) -> ScoreFile {
    read_scores(&jkl_root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `table` written by `write` into a temporary file named `name` and read back.
fn reread(table: &ScoreTable, name: &str, write: impl Fn(&ScoreTable, &mut Vec<u8>)) -> ScoreTable {
    let dir = tempfile::TempDir::new().expect("temp dir");
    let path = dir.path().join(name);
    let mut out = Vec::new();
    write(table, &mut out);
    std::fs::write(&path, out).expect("write temp file");
    read_scores(&path)
        .unwrap_or_else(|e| panic!("re-reading {name}: {e}"))
        .table
}

#[test]
fn every_file_is_either_a_known_score_file_or_listed_as_not_one() {
    let (scores, others) = classify();
    let listed: Vec<&str> = NOT_SCORE_FILES.iter().map(|(f, _)| *f).collect();
    assert_eq!(
        others, listed,
        "files without a score-file extension must be listed in NOT_SCORE_FILES"
    );
    let known: Vec<&str> = KNOWN.iter().map(|k| k.0).collect();
    assert_eq!(
        scores, known,
        "every shared score file needs its expected sizes in KNOWN"
    );
    for (f, _) in NOT_SCORE_FILES {
        assert!(
            read_scores(&jkl_root().join(f)).is_err(),
            "{f} is not a score file and must be rejected"
        );
    }
}

#[test]
fn every_score_file_has_its_known_size() {
    for &(rel, n, families, constraints) in KNOWN {
        let file = read(rel);
        assert_eq!(file.table.n(), n, "{rel}: number of variables");
        assert_eq!(
            file.table.total_candidates(),
            families,
            "{rel}: number of families"
        );
        assert_eq!(
            file.ancestral_constraints.len(),
            constraints,
            "{rel}: constraint pairs"
        );
    }
}

#[test]
fn every_score_file_round_trips_through_the_writers() {
    for &(rel, ..) in KNOWN {
        let table = read(rel).table;
        let names = reread(&table, "names.jkl", |t, w| {
            write_jkl(t, w, NameStyle::Names).expect("write")
        });
        assert_eq!(names, table, "{rel}: jkl with names");
        let indices = reread(&table, "indices.jkl", |t, w| {
            write_jkl(t, w, NameStyle::Indices).expect("write")
        });
        for v in 0..table.n() {
            assert_eq!(
                indices.candidates(v),
                table.candidates(v),
                "{rel}: jkl with indices, variable {v}"
            );
        }
        let pss = reread(&table, "scores.pss", |t, w| write_pss(t, w).expect("write"));
        assert_eq!(pss, table, "{rel}: pss");
    }
}

#[test]
fn named_files_keep_their_names_and_blip_comments() {
    assert_eq!(
        read("ebnsl/asia_10000.dat.3.jkl").table.names()[..3],
        ["One", "Two", "Three"]
    );
    let alarm = read("found_scores/alarm_100.jaa");
    assert_eq!(alarm.naming, NameStyle::Names);
    assert_eq!(alarm.table.names()[0], "Eight");
    assert_eq!(read("ebnsl/wine.BIC.3.jkl").naming, NameStyle::Indices);
    let blip = read("blip/child-5000.BDeu1.seqsel.jkl");
    assert!(
        blip.comments
            .iter()
            .any(|c| c.starts_with("Score function: BDeu")),
        "{:?}",
        blip.comments
    );
    let pss = read("pss_urlearning_format/btbn_example.BIC.pss");
    assert!(pss
        .meta
        .iter()
        .any(|m| m.variable.is_none() && m.key == "score_type" && m.value == "BIC"));
}

#[test]
fn the_largest_file_reads_quickly() {
    let path = jkl_root().join("minobs_anc_bdeu/water_1000_1.BDeu.jkl");
    let start = Instant::now();
    let file = read_scores(&path).expect("water_1000_1 reads");
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "water_1000_1.BDeu.jkl: {} families read in {seconds:.3} s",
        file.table.total_candidates()
    );
    if !cfg!(debug_assertions) {
        assert!(
            seconds < 0.5,
            "reading 159,744 families took {seconds:.3} s (release build)"
        );
    }
}
