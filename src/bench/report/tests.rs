use super::*;

fn rec(instance: &str, method: &str, seed: u64, status: &str, score: f64, wall: f64) -> RunRecord {
    RunRecord {
        study: "s".into(),
        key: format!("{instance}/{method}/{seed}"),
        index: 0,
        instance: instance.into(),
        method: method.into(),
        seed,
        status: status.into(),
        score: Some(score),
        bound: (status == "optimal").then_some(score),
        gap: None,
        wall_s: wall,
        solver_s: None,
        time_limit_s: 10.0,
        peak_mib: 50.0,
        nodes: Some(3),
        known_optimum: Some(-1.0),
        exit_code: Some(0),
        error: None,
        host: "h".into(),
        command: Vec::new(),
        finished_at: 0,
    }
}

fn study() -> Vec<RunRecord> {
    vec![
        rec("a", "scip", 1, "optimal", -1.0, 1.0),
        rec("a", "highs", 1, "optimal", -1.0, 3.0),
        rec("b", "scip", 1, "optimal", -1.0, 2.0),
        rec("b", "highs", 1, "timeout", -2.0, 21.0),
    ]
}

#[test]
fn par2_and_the_shifted_geometric_mean() {
    let (par2, sgm) = par2_and_sgm(&[Some(1.0), None], 10.0);
    assert_eq!(par2, (1.0 + 20.0) / 2.0);
    assert!((sgm - ((2.0f64 * 11.0).sqrt() - 1.0)).abs() < 1e-12);
}

#[test]
fn a_consistent_study_reports_its_tables_and_figures() {
    let report = render(&study(), &[], None).expect("renders");
    let md = &report.markdown;
    assert!(
        report.inconsistencies.is_empty(),
        "{:?}",
        report.inconsistencies
    );
    assert!(
        md.contains("| scip | 2 | 2 | 0 | 0 | 0 | 0 | 1.50 |"),
        "{md}"
    );
    // highs: PAR-2 of 3 s and 2 × 10 s; SGM ratio to scip over both problems.
    assert!(
        md.contains("| highs | 2 | 1 | 1 | 0 | 0 | 0 | 11.50 |"),
        "{md}"
    );
    assert!(md.contains("| *virtual best* | 2 | 2 |"), "{md}");
    assert!(
        md.contains("| b | highs | 0/1 | 21.00 | timeout 1 |"),
        "{md}"
    );
    assert_eq!(report.overruns.len(), 1, "21 s for a limit of 10 s");
    let files: Vec<&str> = report.figures.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(files, ["profile.svg", "scatter-highs.svg"]);
    assert!(md.contains("![performance profile](profile.svg)"));
}

#[test]
fn the_baseline_must_be_a_method() {
    assert!(render(&study(), &[], Some("cbc")).is_err());
    let report = render(&study(), &[], Some("highs")).expect("renders");
    assert!(report.figures.iter().any(|(f, _)| f == "scatter-scip.svg"));
    assert!(render(&[], &[], None).is_err());
}

#[test]
fn contradictions_are_flagged() {
    let mut records = study();
    // Two proved optima that differ, one away from the known optimum.
    records.push(rec("a", "cbc", 1, "optimal", -0.5, 1.0));
    let found = consistency(&records);
    assert!(
        found.iter().any(|f| f.contains("proved optima differ")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|f| f.contains("known optimum")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|f| f.contains("above the bound")),
        "{found:?}"
    );
    // A score a hair above a bound, within the tolerance, is no contradiction.
    let mut close = study();
    close[1].score = Some(-1.0 + 5e-7);
    assert!(consistency(&close).is_empty());
}

#[test]
fn medians_and_status_counts() {
    assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
    assert_eq!(median(vec![4.0, 1.0]), Some(2.5));
    assert_eq!(median(Vec::new()), None);
    let records = study();
    let refs: Vec<&RunRecord> = records.iter().collect();
    assert_eq!(status_counts(&refs), "optimal 3, timeout 1");
}
