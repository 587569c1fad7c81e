use super::*;

const PIGEONS: &str = "* two pigeons, one hole\n1 x1 >= 1 ;\n1 x2 >= 1 ;\n-1 x1 -1 x2 >= -1 ;\n";

#[test]
fn a_sum_that_contradicts_is_accepted() {
    let proof = "pseudo-Boolean proof version 1.2\nf 3\npol 1 2 + 3 +\nc 4\n";
    let summary = check_veripb(PIGEONS, proof).unwrap();
    assert_eq!((summary.formula, summary.rup, summary.pol), (3, 0, 1));
}

#[test]
fn reverse_unit_propagation_is_checked() {
    let good = "pseudo-Boolean proof version 1.2\nf 3\nrup >= 1 ;\nc 4\n";
    assert!(check_veripb(PIGEONS, good).is_ok());
    // Without the at-most-one row nothing conflicts.
    let formula = "1 x1 >= 1 ;\n1 x2 >= 1 ;\n";
    let bad = "pseudo-Boolean proof version 1.2\nf 2\nrup >= 1 ;\nc 3\n";
    assert!(matches!(
        check_veripb(formula, bad),
        Err(VeripbError::Step { line: 3, .. })
    ));
}

#[test]
fn a_constraint_that_is_not_contradictory_is_refused_at_c() {
    let proof = "pseudo-Boolean proof version 1.2\nf 3\npol 1 2 +\nc 4\n";
    assert!(matches!(
        check_veripb(PIGEONS, proof),
        Err(VeripbError::Step { line: 4, .. })
    ));
    let unfinished = "pseudo-Boolean proof version 1.2\nf 3\npol 1 2 +\n";
    assert_eq!(
        check_veripb(PIGEONS, unfinished),
        Err(VeripbError::NoContradiction)
    );
}

#[test]
fn division_rounds_up_and_saturation_caps() {
    let formula = "1 x1 1 x2 1 x3 >= 2 ;\n";
    let db_check =
        "pseudo-Boolean proof version 1.2\nf 1\npol 1 3 * 2 d\npol 1 5 * s\npol 1 x1 w\n";
    assert_eq!(
        check_veripb(formula, db_check),
        Err(VeripbError::NoContradiction)
    );
    let c = parse_constraint(&["3", "x1", "3", "x2", "3", "x3", ">=", "6", ";"]).unwrap();
    assert_eq!(c.divided(2).terms, vec![(1, 2), (2, 2), (3, 2)]);
    assert_eq!(c.divided(2).degree, 3);
    let s = parse_constraint(&["5", "x1", "1", "x2", ">=", "2", ";"])
        .unwrap()
        .saturated();
    assert_eq!(s.terms, vec![(1, 2), (2, 1)]);
    let w = parse_constraint(&["5", "x1", "1", "x2", ">=", "2", ";"])
        .unwrap()
        .weakened(1)
        .unwrap();
    assert_eq!((w.terms, w.degree), (vec![(2, 1)], -3));
}

#[test]
fn negative_coefficients_and_negated_literals_normalise_alike() {
    let a = parse_constraint(&["-2", "x1", "1", "x2", ">=", "-1", ";"]).unwrap();
    let b = parse_constraint(&["2", "~x1", "1", "x2", ">=", "1", ";"]).unwrap();
    assert_eq!(a, b);
    // x1 + ~x1 is the constant 1.
    let x = parse_constraint(&["1", "x1", "2", "x2", ">=", "0", ";"]).unwrap();
    let not_x = parse_constraint(&["1", "~x1", "3", "x3", ">=", "0", ";"]).unwrap();
    let c = x.plus(&not_x).unwrap();
    assert_eq!(c.terms, vec![(2, 2), (3, 3)]);
    assert_eq!(c.degree, -1);
    let d = parse_constraint(&["3", "x1", ">=", "1", ";"])
        .unwrap()
        .plus(&parse_constraint(&["1", "~x1", ">=", "0", ";"]).unwrap())
        .unwrap();
    assert_eq!((d.terms, d.degree), (vec![(1, 2)], 0));
    let c = parse_constraint(&["1", "x1", ">=", "0", ";"])
        .unwrap()
        .plus(&parse_constraint(&["1", "~x1", ">=", "0", ";"]).unwrap())
        .unwrap();
    assert!(c.terms.is_empty() && c.degree == -1);
}

#[test]
fn malformed_input_names_its_line() {
    assert!(matches!(
        check_veripb("1 y1 >= 1 ;\n", "pseudo-Boolean proof version 1.2\nf 1\n"),
        Err(VeripbError::Formula { line: 1, .. })
    ));
    assert!(matches!(
        check_veripb(PIGEONS, "pseudo-Boolean proof version 1.2\nf 2\n"),
        Err(VeripbError::Step { line: 2, .. })
    ));
    assert!(matches!(
        check_veripb(
            PIGEONS,
            "pseudo-Boolean proof version 1.2\nf 3\npol 9 1 +\n"
        ),
        Err(VeripbError::Step { line: 3, .. })
    ));
    assert!(matches!(
        check_veripb(PIGEONS, "DRAT\n"),
        Err(VeripbError::Step { line: 1, .. })
    ));
}
