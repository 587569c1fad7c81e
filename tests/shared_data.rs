//! Every shared network and data set reads: the 24 bnlearn BIF networks (gzipped ones
//! too), the CSVs of `data/ebnsl_csv` and `data/minobs_anc_csv`, the GOBNILP `.dat`
//! files, and the other `.dat` layouts and CSV-with-arities files of the shared data.
#![cfg(feature = "shared-tests")]

mod common;

use bnsl::data::{load_data, read_bif, BayesNet, DataSet, LoadOptions};
use std::path::{Path, PathBuf};

/// The files of `dir` (under the shared instances) whose names end in `suffix`, sorted.
fn files(dir: &str, suffix: &str) -> Vec<PathBuf> {
    let dir = common::shared().join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(suffix)))
        .collect();
    out.sort();
    out
}

fn load(path: &Path) -> DataSet {
    load_data(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn network(name: &str) -> BayesNet {
    let dir = common::shared().join("bif/bnlearn_pgmpy");
    let plain = dir.join(format!("{name}.bif"));
    let path = if plain.exists() {
        plain
    } else {
        dir.join(format!("{name}.bif.gz"))
    };
    read_bif(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Number of non-blank lines of a text file.
fn non_blank_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .expect("readable")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

#[test]
fn all_bnlearn_networks_read_and_check() {
    let expected = [
        ("alarm", 37),
        ("andes", 223),
        ("asia", 8),
        ("barley", 48),
        ("cancer", 5),
        ("child", 20),
        ("diabetes", 413),
        ("earthquake", 5),
        ("hailfinder", 56),
        ("hepar2", 70),
        ("insurance", 27),
        ("link", 724),
        ("mildew", 35),
        ("munin", 1041),
        ("munin1", 186),
        ("munin2", 1003),
        ("munin3", 1041),
        ("munin4", 1038),
        ("pathfinder", 109),
        ("pigs", 441),
        ("sachs", 11),
        ("survey", 6),
        ("water", 32),
        ("win95pts", 76),
    ];
    assert_eq!(
        files("bif/bnlearn_pgmpy", "").len(),
        expected.len(),
        "the shared directory holds 24 networks"
    );
    for (name, n) in expected {
        let net = network(name);
        assert_eq!(net.n_vars(), n, "{name}");
        net.check().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let child = network("child");
    let chest = child.index_of("ChestXray").expect("ChestXray");
    assert!(child.variables[chest]
        .states
        .iter()
        .any(|s| s == "Asy/Patch"));
}

#[test]
fn ebnsl_csvs_read_with_observed_arities() {
    let paths = files("data/ebnsl_csv", ".csv");
    assert_eq!(paths.len(), 36);
    for path in &paths {
        if path.ends_with("shuttle.csv") {
            // Raw, undiscretized: column 5 takes 299 values, beyond one byte per value.
            let e = load_data(path, &LoadOptions::default())
                .expect_err("too many states")
                .to_string();
            assert!(
                e.contains("shuttle.csv:42094: column `5` has more than 256 distinct values"),
                "{e}"
            );
            continue;
        }
        let d = load(path);
        if path.ends_with("costs.csv") {
            // Not a data set but a table of published scores, with a header.
            assert_eq!(d.names()[..2], ["benchmark", "CPBayes"]);
            continue;
        }
        assert_eq!(
            d.n_rows(),
            non_blank_lines(path),
            "{}: no header, every line a row",
            path.display()
        );
        assert_eq!(
            d.names()[0],
            "0",
            "{}: columns are named by index",
            path.display()
        );
    }
    // water1000: column 0 only ever holds 1, column 23 holds 0, 1 and 3.
    let water = load(&common::shared().join("data/ebnsl_csv/water1000.csv"));
    assert_eq!(water.arities()[0], 1);
    assert_eq!(water.variables()[23].states, ["0", "1", "3"]);
}

#[test]
fn minobs_csvs_read_alone_and_with_their_networks() {
    let paths = files("data/minobs_anc_csv", ".csv");
    assert_eq!(paths.len(), 20);
    for path in &paths {
        let file = path.file_name().and_then(|f| f.to_str()).expect("name");
        let net = network(file.split('_').next().expect("network name"));
        let observed = load(path);
        assert_eq!(
            observed.n_rows() + 1,
            non_blank_lines(path),
            "{file}: header + rows"
        );
        let declared = load_data(path, &LoadOptions::with_network(&net));
        if file.starts_with("mildew") {
            // The sample writes the states of meldug_1 as `0_00___0_01_%`, the BIF as
            // `0_00___0_01__`: the declared states must reject it, naming the value.
            let e = declared.expect_err("mismatched state names").to_string();
            assert!(
                e.contains("mildew_8000_1.csv:2: `") && e.contains("is not a state of `meldug_1`"),
                "{e}"
            );
            continue;
        }
        let declared = declared.unwrap_or_else(|e| panic!("{e}"));
        for (v, var) in declared.variables().iter().enumerate() {
            let i = net
                .index_of(&var.name)
                .unwrap_or_else(|| panic!("{file}: `{}` not in the network", var.name));
            assert_eq!(var.states, net.variables[i].states, "{file}: {}", var.name);
            assert!(observed.arities()[v] <= var.arity());
        }
    }
}

#[test]
fn gobnilp_dats_read_with_declared_arities() {
    let paths = files("data/gobnilp_dat", ".dat");
    assert_eq!(paths.len(), 5);
    for path in &paths {
        let d = load(path);
        assert_eq!(d.n_rows() + 2, non_blank_lines(path), "{}", path.display());
    }
    let discrete = load(&common::shared().join("data/gobnilp_dat/discrete.dat"));
    assert_eq!(discrete.arities(), [3, 3, 3, 3, 3, 2]);
    assert_eq!(discrete.variables()[0].states, ["a", "b", "c"]);
}

#[test]
fn other_layouts_are_detected() {
    let shared = common::shared();
    let old = load(&shared.join("data/blip/child-5000.old.dat"));
    let new = load(&shared.join("data/blip/child-5000.dat"));
    assert_eq!((old.n_vars(), old.n_rows()), (20, 5000));
    assert_eq!(old.names(), new.names());
    for path in files("data/twilp_format", ".data") {
        let d = load(&path);
        assert_eq!(d.n_rows() + 3, non_blank_lines(&path), "{}", path.display());
    }
    let czech = load(&shared.join("data/benchpress/czech_autoworkers.csv"));
    assert_eq!(
        (czech.n_vars(), czech.n_rows(), czech.arities()),
        (6, 1841, vec![2; 6])
    );
    let p15 = load(&shared.join("data/benchpress/2019_olsson_pavlenko_rios_p15_n1000.csv"));
    assert_eq!((p15.n_rows(), p15.names()[14].as_str()), (1000, "14"));
}
