//! Data input, BIF networks and forward sampling on the files the repository ships
//! (`instances/`) and on small files written to a temporary directory: every bad input
//! is an error naming the file, the line and the cause; writers and readers round-trip;
//! samples reproduce their network's CPTs; the shipped samples are what `bnsl sample`
//! draws.

mod common;

use bnsl::data::{
    load_data, read_bif, sample, write_bif, write_csv, write_dat, BayesNet, DataFormat, DataSet,
    Header, LoadOptions,
};
use common::bnsl;
use std::io::Write;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

const NETWORKS: [&str; 8] = [
    "asia",
    "cancer",
    "earthquake",
    "sachs",
    "survey",
    "child",
    "insurance",
    "alarm",
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn network(name: &str) -> BayesNet {
    let path = repo()
        .join("instances/networks")
        .join(format!("{name}.bif"));
    read_bif(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Writes `text` to `dir/name` and returns the path.
fn put(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write test file");
    path
}

/// Asserts that loading `text` as `name` fails with `name:line: cause…`.
fn data_rejects(name: &str, text: &str, line: usize, cause: &str) {
    data_rejects_with(name, text, Header::Auto, line, cause);
}

/// [`data_rejects`] with an explicit CSV header option.
fn data_rejects_with(name: &str, text: &str, header: Header, line: usize, cause: &str) {
    let dir = TempDir::new().unwrap();
    let path = put(&dir, name, text);
    let msg = match load_data(
        &path,
        &LoadOptions {
            header,
            ..Default::default()
        },
    ) {
        Ok(d) => panic!("{name} should be rejected, read {} rows", d.n_rows()),
        Err(e) => e.to_string(),
    };
    let at = format!("{name}:{line}: ");
    assert!(
        msg.contains(&at) && msg.contains(cause),
        "expected `{at}` and `{cause}` in: {msg}"
    );
}

/// Asserts that reading BIF `text` fails at `line` with `cause`.
fn bif_rejects(text: &str, line: usize, cause: &str) {
    let dir = TempDir::new().unwrap();
    let path = put(&dir, "net.bif", text);
    let msg = match read_bif(&path) {
        Ok(_) => panic!("should be rejected:\n{text}"),
        Err(e) => e.to_string(),
    };
    let at = format!("net.bif:{line}: ");
    assert!(
        msg.contains(&at) && msg.contains(cause),
        "expected `{at}` and `{cause}` in: {msg}"
    );
}

#[test]
fn malformed_and_truncated_data_files() {
    data_rejects(
        "short.csv",
        "a,b,c\nx,y,z\nx,y\n",
        3,
        "expected 3 values, found 2",
    );
    data_rejects(
        "long.csv",
        "a,b\nx,y\n\nx,y,z\n",
        4,
        "expected 2 values, found 3",
    );
    data_rejects("gap.csv", "a,b\nx,y\nx,\n", 3, "empty value for `b`");
    data_rejects(
        "cut.dat",
        "A B C\n",
        1,
        "the file ends before the line of arities",
    );
    data_rejects("arity.dat", "A B\n2 two\n0 1\n", 2, "`two` is not an arity");
    data_rejects(
        "rows.dat",
        "A B\n2 2\n0 1\n1\n",
        4,
        "expected 2 values, found 1",
    );
    data_rejects(
        "count.data",
        "2\n2 2\n5\n0 1\n",
        3,
        "the file declares 5 rows but holds 1",
    );
    data_rejects_with(
        "dup.csv",
        "a,b,a\n0,1,0\n",
        Header::Present,
        1,
        "duplicate column name `a`",
    );
}

#[test]
fn values_beyond_their_arity() {
    data_rejects(
        "big.dat",
        "A B\n2 3\n0 2\n1 3\n",
        4,
        "value 3 of `B` is not below its declared arity 3",
    );
    let arities = "a,b\n2,2\n0,1\n1,0\n1,2\n";
    data_rejects_with(
        "big.csv",
        arities,
        Header::WithArities,
        5,
        "value 2 of `b` is not below its declared arity 2",
    );
    data_rejects(
        "names.dat",
        "A\n2\nx\ny\nz\n",
        5,
        "`A` has more distinct values than its declared arity 2",
    );
    let many: String = std::iter::once("a".to_string())
        .chain((0..300).map(|i| format!("v{i}")))
        .collect::<Vec<_>>()
        .join("\n");
    data_rejects("wide.csv", &many, 258, "more than 256 distinct values");
}

#[test]
fn empty_data_sets() {
    let dir = TempDir::new().unwrap();
    let path = put(&dir, "blank.csv", "\n  \n");
    let msg = load_data(&path, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("blank.csv") && msg.contains("the file is empty"),
        "{msg}"
    );
    data_rejects(
        "header.csv",
        "asia,tub\n",
        1,
        "the data set has no data rows",
    );
    data_rejects(
        "header.dat",
        "A B\n2 2\n\n",
        2,
        "the data set has no data rows",
    );
}

#[test]
fn bad_networks() {
    let vars = "variable A { type discrete [ 2 ] { a0, a1 }; }\nvariable B { type discrete [ 2 ] { b0, b1 }; }\n";
    let pa = "probability ( A ) { table 0.5, 0.5; }\n";
    bif_rejects(
        &format!("{vars}{pa}probability ( B | A ) {{\n  (a0) 0.5, 0.4;\n  (a1) 0.5, 0.5;\n}}\n"),
        5,
        "sum to 0.9",
    );
    bif_rejects(
        &format!("{vars}{pa}probability ( B | Z ) {{ default 0.5, 0.5; }}\n"),
        4,
        "unknown parent `Z` of `B`",
    );
    bif_rejects(
        &format!("{vars}variable A {{ type discrete [ 2 ] {{ x, y }}; }}\n"),
        3,
        "variable `A` is declared twice",
    );
    bif_rejects(
        &format!("{vars}{pa}"),
        2,
        "variable `B` has no probability block",
    );
    bif_rejects(
        &format!("{vars}{pa}probability ( C ) {{ table 1; }}\n"),
        4,
        "probability for unknown variable `C`",
    );
    bif_rejects(
        &format!("{vars}{pa}probability ( B ) {{ table 0.5, 0.5;\n"),
        4,
        "unexpected end of file",
    );
    bif_rejects(
        &format!("{vars}{pa}probability ( B | A ) {{ (a0) 1, 0; }}\n"),
        4,
        "no probabilities for `B` given (A = a1)",
    );
    bif_rejects(
        &format!(
            "{vars}probability ( A | B ) {{ default 0.5, 0.5; }}\nprobability ( B | A ) {{ default 0.5, 0.5; }}\n"
        ),
        4,
        "directed cycle",
    );
}

#[test]
fn cli_reports_bad_networks_with_file_and_line() {
    let dir = TempDir::new().unwrap();
    let path = put(
        &dir,
        "bad.bif",
        "variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A ) { table 0.2, 0.2; }\n",
    );
    let out = dir.path().join("out.csv");
    let run = bnsl(&[
        "sample",
        path.to_str().unwrap(),
        "-n",
        "10",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let msg = String::from_utf8_lossy(&run.stderr);
    assert!(
        msg.contains("bad.bif:2: the probabilities of `A` sum to 0.4"),
        "{msg}"
    );
}

/// P(v = k | configuration j), estimated from `data`, against the CPT within `z`
/// standard errors (plus 1/n_j for the rounding of small counts).
fn check_cpts_against_sample(net: &BayesNet, data: &DataSet, z: f64) {
    for v in 0..net.n_vars() {
        let r = net.arity(v);
        let mut counts = vec![0usize; net.cpts[v].len()];
        for row in 0..data.n_rows() {
            let j = net.parents[v]
                .iter()
                .fold(0, |j, &p| j * net.arity(p) + data.column(p)[row] as usize);
            counts[j * r + data.column(v)[row] as usize] += 1;
        }
        for (j, row) in counts.chunks(r).enumerate() {
            let n_j: usize = row.iter().sum();
            for (k, &c) in row.iter().enumerate() {
                let p = net.cpt_row(v, j)[k];
                if n_j == 0 {
                    continue;
                }
                let estimate = c as f64 / n_j as f64;
                let tolerance = z * (p * (1.0 - p) / n_j as f64).sqrt() + 1.0 / n_j as f64;
                assert!(
                    (estimate - p).abs() <= tolerance,
                    "{}: P(state {k} | configuration {j}) = {p}, estimated {estimate} from {n_j} rows",
                    net.variables[v].name
                );
                if p == 0.0 {
                    assert_eq!(
                        c, 0,
                        "{}: a state of probability 0 was drawn",
                        net.variables[v].name
                    );
                }
            }
        }
    }
}

#[test]
fn samples_reproduce_cpt_entries() {
    for name in ["asia", "survey", "sachs", "child"] {
        let net = network(name);
        let data = sample(&net, 50_000, 2024);
        assert_eq!(data.n_rows(), 50_000);
        check_cpts_against_sample(&net, &data, 4.5);
    }
}

#[test]
fn a_wrong_cpt_is_detected_by_the_sample_check() {
    let net = network("asia");
    let data = sample(&net, 50_000, 2024);
    let mut wrong = net.clone();
    let smoke = wrong.index_of("smoke").expect("smoke");
    wrong.cpts[smoke] = vec![0.48, 0.52];
    let caught = std::panic::catch_unwind(|| check_cpts_against_sample(&wrong, &data, 4.5));
    assert!(
        caught.is_err(),
        "a 2-point error in P(smoke) must be visible in 50,000 rows"
    );
}

#[test]
fn csv_round_trips() {
    let net = network("child");
    let data = sample(&net, 300, 5);
    let dir = TempDir::new().unwrap();
    let declared = LoadOptions::with_network(&net);
    for (header, names) in [(true, true), (true, false), (false, true), (false, false)] {
        let path = dir.path().join(format!("child_{header}_{names}.csv"));
        let mut file = std::fs::File::create(&path).unwrap();
        write_csv(&data, header, names, &mut file).unwrap();
        let opts = LoadOptions {
            header: if header {
                Header::Present
            } else {
                Header::Absent
            },
            ..declared.clone()
        };
        let back = load_data(&path, &opts).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, data, "header {header}, state names {names}");
    }
    let path = dir.path().join("auto.csv");
    write_csv(
        &data,
        true,
        true,
        &mut std::fs::File::create(&path).unwrap(),
    )
    .unwrap();
    let back = load_data(&path, &LoadOptions::default()).unwrap();
    assert_eq!(back.names(), data.names());
    for v in 0..data.n_vars() {
        let labels = |d: &DataSet| -> Vec<String> {
            d.column(v)
                .iter()
                .map(|&s| d.variables()[v].states[s as usize].clone())
                .collect()
        };
        assert_eq!(
            labels(&back),
            labels(&data),
            "observed states keep every value of `{}`",
            data.names()[v]
        );
    }
}

#[test]
fn dat_round_trips_plain_and_gzipped() {
    let net = network("insurance");
    let data = sample(&net, 300, 9);
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("insurance.dat");
    write_dat(&data, &mut std::fs::File::create(&path).unwrap()).unwrap();
    let back = load_data(&path, &LoadOptions::default()).unwrap();
    assert_eq!(back.arities(), data.arities());
    assert_eq!(
        (0..back.n_vars())
            .map(|v| back.column(v).to_vec())
            .collect::<Vec<_>>(),
        (0..data.n_vars())
            .map(|v| data.column(v).to_vec())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        load_data(&path, &LoadOptions::with_network(&net)).unwrap(),
        data
    );

    let gz = dir.path().join("insurance.dat.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    write_dat(&data, &mut enc).unwrap();
    enc.finish().unwrap().flush().unwrap();
    let opts = LoadOptions {
        format: DataFormat::Gobnilp,
        ..LoadOptions::with_network(&net)
    };
    assert_eq!(load_data(&gz, &opts).unwrap(), data);
}

#[test]
fn bif_round_trips_every_shipped_network() {
    for name in NETWORKS {
        let net = network(name);
        let mut text = Vec::new();
        write_bif(&net, &mut text).unwrap();
        let dir = TempDir::new().unwrap();
        let path = dir.path().join("net.bif");
        std::fs::write(&path, &text).unwrap();
        let back = read_bif(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.variables, net.variables, "{name}");
        assert_eq!(back.parents, net.parents, "{name}");
        for (v, (a, b)) in back.cpts.iter().zip(&net.cpts).enumerate() {
            assert!(
                a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12),
                "{name}: CPT of variable {v}"
            );
        }
    }
}

#[test]
fn shipped_samples_are_reproduced_by_bnsl_sample() {
    for name in NETWORKS {
        let rows = if name == "asia" { 10_000 } else { 1000 };
        let file = repo()
            .join("instances/data")
            .join(format!("{name}_{rows}.csv"));
        let shipped = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let dir = TempDir::new().unwrap();
        let out = dir.path().join("out.csv");
        let network = repo()
            .join("instances/networks")
            .join(format!("{name}.bif"));
        let run = bnsl(&[
            "sample",
            network.to_str().unwrap(),
            "-n",
            &rows.to_string(),
            "--seed",
            "1",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(
            std::fs::read(&out).unwrap() == shipped,
            "{} differs from `bnsl sample … --seed 1`",
            file.display()
        );
    }
}

#[test]
fn shipped_samples_read_alone_and_with_their_networks() {
    for name in NETWORKS {
        let rows = if name == "asia" { 10_000 } else { 1000 };
        let path = repo()
            .join("instances/data")
            .join(format!("{name}_{rows}.csv"));
        let net = network(name);
        let alone = load_data(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let declared =
            load_data(&path, &LoadOptions::with_network(&net)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((alone.n_rows(), alone.names()), (rows, declared.names()));
        assert_eq!(
            declared.arities(),
            (0..net.n_vars()).map(|v| net.arity(v)).collect::<Vec<_>>(),
            "{name}"
        );
        assert!(alone
            .arities()
            .iter()
            .zip(declared.arities())
            .all(|(a, d)| *a <= d));
    }
}

#[test]
fn dat_output_by_extension_and_states_as_codes() {
    let dir = TempDir::new().unwrap();
    let net_path = repo().join("instances/networks/survey.bif");
    let net = read_bif(&net_path).unwrap();
    let run = |output: &Path, states: Option<&str>| {
        let mut args = vec![
            "sample",
            net_path.to_str().unwrap(),
            "-n",
            "200",
            "--seed",
            "3",
            "-o",
            output.to_str().unwrap(),
        ];
        if let Some(style) = states {
            args.extend(["--states", style]);
        }
        let out = bnsl(&args);
        match out.status.success() {
            true => Ok(()),
            false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
        }
    };
    let dat = dir.path().join("s.dat");
    run(&dat, None).unwrap();
    let text = std::fs::read_to_string(&dat).unwrap();
    assert!(text.starts_with("A S E O R T\n3 2 2 2 2 3\n"), "{text}");
    assert_eq!(
        load_data(&dat, &LoadOptions::with_network(&net)).unwrap(),
        sample(&net, 200, 3)
    );
    let codes = dir.path().join("s.csv");
    run(&codes, Some("codes")).unwrap();
    assert_eq!(
        load_data(&codes, &LoadOptions::with_network(&net)).unwrap(),
        sample(&net, 200, 3)
    );
    assert!(
        run(&dat, Some("names")).is_err(),
        "--states is for CSV only"
    );
}
