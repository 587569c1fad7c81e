use super::*;
use crate::family::tests::small_table;

/// The optimum of [`small_table`]: a ← {b}, b ← {}, c ← {a, b}, score −11.
fn optimum() -> Dag {
    let mut dag = Dag::empty(3);
    dag.set_parents(0, VarSet::from_members(3, [1]));
    dag.set_parents(2, VarSet::from_members(3, [0, 1]));
    dag
}

/// An optimal dual of the root relaxation of [`small_table`]: λ = 1 on {a, c} and 1/2
/// on {a, b, c}.
fn root_duals() -> Vec<(VarSet, f64)> {
    vec![
        (VarSet::from_members(3, [0, 2]), 1.0),
        (VarSet::from_members(3, [0, 1, 2]), 0.5),
        (VarSet::from_members(3, [0, 1]), 0.0),
    ]
}

fn root_leaf() -> LeafDual {
    LeafDual::from_duals(
        &GridTable::new(&small_table()),
        &Restriction::none(3),
        root_duals(),
        [],
    )
    .unwrap()
}

#[test]
fn the_root_dual_proves_the_optimum() {
    let leaf = root_leaf();
    assert_eq!(leaf.bound, Fixed::parse("-11").unwrap());
    assert_eq!(leaf.clusters.len(), 2, "the zero dual is dropped");
    let certificate = DualCertificate {
        dag: optimum(),
        tree: vec![TreeItem::Leaf(leaf)],
    };
    let check = certificate.check(&small_table()).unwrap();
    assert_eq!(check.score, Fixed::parse("-11").unwrap());
    assert_eq!(
        (check.leaves, check.branches, check.inequalities),
        (1, 0, 7)
    );
    assert_eq!(check.gap(), 0.0);
}

#[test]
fn a_worse_dag_is_not_shown_optimal() {
    let mut worse = optimum();
    worse.set_parents(2, VarSet::empty(3));
    let certificate = DualCertificate {
        dag: worse,
        tree: vec![TreeItem::Leaf(root_leaf())],
    };
    assert!(matches!(
        certificate.check(&small_table()),
        Err(CertificateError::AboveScore { leaf: 0, .. })
    ));
}

#[test]
fn changed_duals_and_dropped_clusters_are_rejected() {
    let table = small_table();
    let certify = |leaf: LeafDual| {
        DualCertificate {
            dag: optimum(),
            tree: vec![TreeItem::Leaf(leaf)],
        }
        .check(&table)
    };
    let mut changed = root_leaf();
    changed.clusters[0].lambda = Fixed::parse("1.5").unwrap();
    assert!(matches!(
        certify(changed.clone()),
        Err(CertificateError::WrongBound { .. })
    ));
    // With the bound restated, the larger λ breaks (D) for a ← {b}.
    changed.bound = Fixed::parse("-11.5").unwrap();
    assert!(matches!(
        certify(changed),
        Err(CertificateError::Violated { ref node, ref parents, .. }) if node == "a" && parents == "b"
    ));
    let mut dropped = root_leaf();
    let gone = dropped.clusters.remove(0);
    dropped.bound = dropped.bound.checked_add(gone.lambda).unwrap();
    assert!(matches!(
        certify(dropped),
        Err(CertificateError::AboveScore { .. })
    ));
    let mut negative = root_leaf();
    negative.clusters[1].lambda = Fixed::parse("-0.5").unwrap();
    assert!(matches!(
        certify(negative),
        Err(CertificateError::BadCluster { .. })
    ));
    let mut short = root_leaf();
    short.u.pop();
    assert!(matches!(
        certify(short),
        Err(CertificateError::WrongLength { got: 2, n: 3, .. })
    ));
    let mut huge = root_leaf();
    huge.u[0] = Fixed(i128::MAX);
    huge.u[1] = Fixed(i128::MAX);
    assert!(matches!(certify(huge), Err(CertificateError::Overflow(0))));
}

#[test]
fn a_raised_score_breaks_the_certificate() {
    let (names, mut candidates) = small_table().into_parts();
    // c ← {} at −1: the network a ← {b}, b ← {}, c ← {} now scores −10.
    candidates[2][1].score = -1.0;
    let raised = ScoreTable::new(names, candidates).unwrap();
    let certificate = DualCertificate {
        dag: optimum(),
        tree: vec![TreeItem::Leaf(root_leaf())],
    };
    assert!(matches!(
        certificate.check(&raised),
        Err(CertificateError::Violated { ref node, .. }) if node == "c"
    ));
}

#[test]
fn trees_must_be_complete_preorders() {
    let table = small_table();
    let branch = TreeItem::Branch { node: 2, parent: 0 };
    let leaf = TreeItem::Leaf(root_leaf());
    let check = |tree: Vec<TreeItem>| {
        DualCertificate {
            dag: optimum(),
            tree,
        }
        .check(&table)
    };
    let two_sides = check(vec![branch.clone(), leaf.clone(), leaf.clone()]).unwrap();
    assert_eq!((two_sides.leaves, two_sides.branches), (2, 1));
    for bad in [
        vec![],
        vec![branch.clone(), leaf.clone()],
        vec![leaf.clone(), leaf.clone()],
        vec![TreeItem::Branch { node: 3, parent: 0 }, leaf.clone(), leaf],
    ] {
        assert!(matches!(check(bad), Err(CertificateError::Shape(_))));
    }
}

#[test]
fn a_side_without_dags_gets_a_blocking_cluster() {
    let table = small_table();
    assert_eq!(blocking_cluster(&table, &Restriction::none(3)), None);
    // b → a and a → b: a 2-cycle.
    let side = Restriction::none(3).with_arc(1, 0).with_arc(0, 1);
    let cluster = blocking_cluster(&table, &side).unwrap();
    assert_eq!(cluster, VarSet::from_members(3, [0, 1]));
    let score = Fixed::parse("-11").unwrap();
    let leaf = LeafDual::for_empty_side(&GridTable::new(&table), &side, cluster, score).unwrap();
    assert_eq!(leaf.bound, Fixed::parse("-12").unwrap());
    // b → a? then a → b? (the empty side) or not (the root dual); no b → a: the root
    // dual.
    let tree = vec![
        TreeItem::Branch { node: 0, parent: 1 },
        TreeItem::Branch { node: 1, parent: 0 },
        TreeItem::Leaf(leaf),
        TreeItem::Leaf(root_leaf()),
        TreeItem::Leaf(root_leaf()),
    ];
    let check = DualCertificate {
        dag: optimum(),
        tree,
    }
    .check(&table)
    .unwrap();
    assert_eq!((check.leaves, check.branches), (3, 2));
    // Requiring and denying one arc leaves nothing for its head.
    let none = Restriction::none(3).with_arc(1, 0).without_arc(1, 0);
    assert_eq!(none.allowed(&table, 0).count(), 0);
    assert!(blocking_cluster(&table, &none).unwrap().contains(0));
}

#[test]
fn set_packing_duals_credit_all_in_families_only() {
    let table = small_table();
    let ab = VarSet::from_members(3, [0, 1]);
    let leaf = LeafDual::from_duals(
        &GridTable::new(&table),
        &Restriction::none(3),
        root_duals(),
        [(ab.clone(), 0.25)],
    )
    .unwrap();
    // a ← {b} is all-in for {a, b}: u_a drops by the credit where that family decides it.
    assert_eq!(leaf.packings.len(), 1);
    let certificate = |leaf: LeafDual| {
        DualCertificate {
            dag: optimum(),
            tree: vec![TreeItem::Leaf(leaf)],
        }
        .check(&table)
    };
    match certificate(leaf.clone()) {
        Ok(_) | Err(CertificateError::AboveScore { .. }) => {}
        other => panic!("from_duals and the check disagree: {other:?}"),
    }
    let mut negative = leaf;
    negative.packings[0].mu = Fixed::parse("-0.25").unwrap();
    assert!(matches!(
        certificate(negative),
        Err(CertificateError::BadCluster {
            kind: "packing",
            ..
        })
    ));
}
