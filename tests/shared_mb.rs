//! Markov blankets on the shared benchmark networks: the true blankets read from the BIF
//! files equal the published ground truth for all 24 networks, and a reduced seed 000 §5.1
//! protocol on Child (3 samples of 5,000 rows, every variable a target) keeps BAMB's
//! accuracy and test count near the paper's Table 5 (F1 0.95, 376 CI tests per target).
#![cfg(feature = "shared-tests")]

mod common;

use bnsl::data::{read_bif, sample};
use bnsl::mb::{discover, true_blanket, Algorithm, CiOptions, CiTester, TruthMap};
use serde_json::Value;

fn names(net: &bnsl::data::BayesNet, vs: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = vs.iter().map(|&v| net.variables[v].name.clone()).collect();
    out.sort();
    out
}

fn sorted(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn true_blankets_match_the_published_ground_truth() {
    let shared = common::shared();
    let path = shared.join("ground_truth/markov_blankets/bnlearn_markov_blankets.json");
    let truth: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dir = shared.join("bif/bnlearn_pgmpy");
    let mut checked = 0;
    for (name, entry) in truth.as_object().unwrap() {
        let file = [format!("{name}.bif"), format!("{name}.bif.gz")]
            .into_iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("no BIF file for {name}"));
        let net = read_bif(&file).unwrap();
        for (node, want) in entry["nodes"].as_object().unwrap() {
            let b = true_blanket(&net, net.index_of(node).unwrap());
            assert_eq!(
                names(&net, &b.parents),
                sorted(&want["parents"]),
                "{name}/{node}"
            );
            assert_eq!(
                names(&net, &b.children),
                sorted(&want["children"]),
                "{name}/{node}"
            );
            // The ground truth lists a child that is also another child's parent among
            // the spouses too; bnsl's spouses are MB \ PC.
            let pc = names(&net, &b.pc());
            let spouses: Vec<String> = sorted(&want["spouses"])
                .into_iter()
                .filter(|s| !pc.contains(s))
                .collect();
            assert_eq!(names(&net, &b.spouses), spouses, "{name}/{node}");
            assert_eq!(
                names(&net, &b.mb()),
                sorted(&want["markov_blanket"]),
                "{name}/{node}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} nodes checked");
}

/// Mean F1 and CI tests per target over every variable of 3 samples of Child.
fn child_protocol(algorithm: Algorithm) -> (f64, f64) {
    let net = read_bif(&common::shared().join("bif/bnlearn_pgmpy/child.bif")).unwrap();
    let (mut f1, mut tests, mut k) = (0.0, 0.0, 0.0);
    for seed in 1..=3 {
        let data = sample(&net, 5000, seed);
        let truth = TruthMap::new(&net, &data).unwrap();
        let mut ci = CiTester::new(&data, CiOptions::default()).unwrap();
        for t in 0..data.n_vars() {
            let run = discover(&mut ci, t, algorithm);
            f1 += bnsl::mb::accuracy(&run.blanket.mb, &truth.blanket(t).mb()).f1;
            tests += run.ci_tests as f64;
            k += 1.0;
        }
    }
    (f1 / k, tests / k)
}

#[test]
fn child_5000_reduced_protocol() {
    let (bamb_f1, bamb_tests) = child_protocol(Algorithm::Bamb);
    let (iamb_f1, iamb_tests) = child_protocol(Algorithm::Iamb);
    eprintln!("Child 5000: BAMB F1 {bamb_f1:.3}, {bamb_tests:.0} tests/target; IAMB F1 {iamb_f1:.3}, {iamb_tests:.0}");
    assert!(bamb_f1 >= 0.92, "BAMB F1 {bamb_f1} (paper 0.95)");
    assert!(
        bamb_tests <= 450.0,
        "BAMB {bamb_tests} tests per target (paper 376)"
    );
    assert!(iamb_f1 >= 0.85, "IAMB F1 {iamb_f1} (paper 0.90)");
    assert!(
        bamb_f1 > iamb_f1,
        "BAMB ({bamb_f1}) should beat IAMB ({iamb_f1})"
    );
}
