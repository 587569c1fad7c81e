//! The LP and MPS writers of `bnsl_formulations::milp` (SPEC C11), checked through
//! HiGHS's own file readers ([`solve_model_file`]): random small MILPs are written to files, read and solved
//! by HiGHS from the file, and must give the optimum the in-memory HiGHS back-end finds,
//! with the model's column order and column names, and a solution feasible for the
//! model.

use super::highs::HighsBackend;
use super::highs_file::solve_model_file;
use super::{Limits, MilpBackend, Status};
use bnsl_formulations::milp::lp_format::write_lp;
use bnsl_formulations::milp::mps_format::{write_mps, write_mps_with, MaxObjective};
use bnsl_formulations::milp::tokens::column_names;
use bnsl_formulations::milp::{MilpModel, Sense};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

const TOL: f64 = 1e-5;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * (1.0 + b.abs())
}

/// Coefficients, awkward decimals included so that full precision matters.
const COEFFICIENTS: [f64; 9] = [-3.0, -2.5, -1.0, -0.1, 0.0, 1.0 / 3.0, 0.5, 1.0, 2.0];
/// Slacks of inequality sides around the activity of the known feasible point.
const SLACKS: [f64; 4] = [0.0, 0.5, 1.25, 3.0];
/// Variable names: repeats and characters the writers must replace.
const VAR_NAMES: [&str; 8] = ["x", "x", "y z", "1a", "infeasible", "e1", "Bounds", ""];
const ROW_NAMES: [&str; 5] = ["r", "r", "obj", "c[1,2]", "r_lo"];
/// Half-width of the rows that box variables with an infinite bound.
const BOX: f64 = 20.0;

/// One variable: bound kind, base value, width, objective index, offset of the
/// known feasible point.
type VarSpec = (u8, i8, u8, usize, u8);
/// One row: (variable, coefficient index) terms, side kind, two slack indices.
type RowSpec = (Vec<(usize, usize)>, u8, usize, usize);

/// Bounds, integrality and a feasible value of a variable from its spec: binary,
/// integer box, integer [0, +inf), integer free, continuous box, continuous free,
/// continuous (-inf, u], continuous [l, +inf), fixed.
fn variable(spec: &VarSpec) -> (f64, f64, bool, f64) {
    let &(kind, base, width, _, offset) = spec;
    let (a, w, o) = (f64::from(base), f64::from(width), f64::from(offset));
    let inf = f64::INFINITY;
    match kind {
        0 => (0.0, 1.0, true, o % 2.0),
        1 => (a, a + w, true, a + o % (w + 1.0)),
        2 => (0.0, inf, true, o % 5.0),
        3 => (-inf, inf, true, a + o % 5.0 - 2.0),
        4 => (a - 0.5, a + w + 0.25, false, a + o % (w + 1.0)),
        5 => (-inf, inf, false, a - o % 5.0),
        6 => (-inf, a + 0.1, false, a + 0.1 - o % 5.0),
        7 => (a - 0.3, inf, false, a - 0.3 + o % 5.0),
        _ => (a + 0.5, a + 0.5, false, a + 0.5),
    }
}

/// A feasible, bounded MILP from specs: every row's sides are set around its activity
/// at the known point, and every variable with an infinite bound is boxed by a ranged
/// row, so the optimum exists.
fn build(maximise: bool, vars: &[VarSpec], rows: &[RowSpec]) -> MilpModel {
    let sense = if maximise {
        Sense::Maximize
    } else {
        Sense::Minimize
    };
    let mut m = MilpModel::new(sense);
    let mut point = Vec::new();
    let mut ids = Vec::new();
    for (j, spec) in vars.iter().enumerate() {
        let (lower, upper, integer, value) = variable(spec);
        let name = VAR_NAMES[j % VAR_NAMES.len()];
        let objective = COEFFICIENTS[spec.3];
        let id = if integer {
            m.add_integer(name, lower, upper, objective)
        } else {
            m.add_continuous(name, lower, upper, objective)
        };
        ids.push(id.unwrap());
        point.push(value);
        if !(lower.is_finite() && upper.is_finite()) {
            m.add_row("box", [(ids[j], 1.0)], -BOX, BOX).unwrap();
        }
    }
    for (i, (terms, kind, s1, s2)) in rows.iter().enumerate() {
        let terms: BTreeMap<usize, f64> = terms
            .iter()
            .map(|&(j, c)| (j % vars.len(), COEFFICIENTS[c]))
            .collect();
        let activity: f64 = terms.iter().map(|(&j, c)| c * point[j]).sum();
        let (s1, s2) = (SLACKS[*s1], SLACKS[*s2]);
        let (lower, upper) = match kind {
            0 => (f64::NEG_INFINITY, activity + s1),
            1 => (activity - s1, f64::INFINITY),
            2 => (activity, activity),
            3 => (activity - s1, activity + s2),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        };
        let coefficients = terms.into_iter().map(|(j, c)| (ids[j], c));
        m.add_row(ROW_NAMES[i % ROW_NAMES.len()], coefficients, lower, upper)
            .unwrap();
    }
    assert!(
        m.max_violation(&point) < 1e-9,
        "the known point is feasible"
    );
    m
}

fn var_spec() -> impl Strategy<Value = VarSpec> {
    (
        0u8..9,
        -4i8..=4,
        0u8..=6,
        0..COEFFICIENTS.len(),
        any::<u8>(),
    )
}

fn row_spec(num_vars: usize) -> impl Strategy<Value = RowSpec> {
    (
        prop::collection::vec((0..num_vars, 0..COEFFICIENTS.len()), 0..5),
        0u8..5,
        0..SLACKS.len(),
        0..SLACKS.len(),
    )
}

fn model_strategy() -> impl Strategy<Value = MilpModel> {
    (1usize..8)
        .prop_flat_map(|n| {
            (
                any::<bool>(),
                prop::collection::vec(var_spec(), n),
                prop::collection::vec(row_spec(n), 0..7),
            )
        })
        .prop_map(|(maximise, vars, rows)| build(maximise, &vars, &rows))
}

/// Writes `model` to `path` with `write`.
fn write_file(
    path: &Path,
    model: &MilpModel,
    write: impl Fn(&MilpModel, &mut BufWriter<File>) -> std::io::Result<()>,
) {
    let mut out = BufWriter::new(File::create(path).unwrap());
    write(model, &mut out).unwrap();
    out.flush().unwrap();
}

/// Checks that HiGHS solving `path` agrees with the in-memory optimum `optimum`
/// (`sign` = −1 for a negated objective) on the model's columns.
fn check_file(model: &MilpModel, path: &Path, optimum: f64, sign: f64) {
    let text = std::fs::read_to_string(path).unwrap();
    let solve = solve_model_file(path).unwrap();
    assert!(solve.optimal, "{solve:?}\n{text}");
    assert!(
        close(sign * solve.objective, optimum),
        "file optimum {} vs in-memory {optimum}\n{text}",
        solve.objective
    );
    assert_eq!(solve.names, column_names(model), "{text}");
    assert!(
        model.max_violation(&solve.values) <= TOL,
        "{:?} infeasible for the model\n{text}",
        solve.values
    );
    assert!(close(model.objective_value(&solve.values), optimum));
}

fn round_trip(model: &MilpModel) {
    let memory = HighsBackend::default()
        .solve(model, &Limits::default())
        .unwrap();
    assert_eq!(memory.status, Status::Optimal, "{memory:?}");
    let optimum = memory.objective.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lp = dir.path().join("model.lp");
    write_file(&lp, model, write_lp);
    check_file(model, &lp, optimum, 1.0);
    let mps = dir.path().join("model.mps");
    write_file(&mps, model, write_mps);
    check_file(model, &mps, optimum, 1.0);
    let negated = dir.path().join("negated.mps");
    write_file(&negated, model, |m, out| {
        write_mps_with(m, MaxObjective::Negated, out)
    });
    let sign = match model.sense() {
        Sense::Maximize => -1.0,
        Sense::Minimize => 1.0,
    };
    check_file(model, &negated, optimum, sign);
}

/// The testkit's mixed minimisation (negative bounds, a ranged row, an equality row,
/// optimum 0.2) and the knapsack (optimum 21) survive the round trip.
#[test]
fn known_models_round_trip() {
    let mut m = MilpModel::new(Sense::Minimize);
    let x = m.add_integer("x", -5.0, 5.0, 1.0).unwrap();
    let y = m.add_integer("y", -5.0, 5.0, -2.0).unwrap();
    let z = m.add_continuous("z", 0.0, 2.5, 1.0).unwrap();
    m.add_row("sum", [(x, 1.0), (y, 1.0)], 1.0, 3.0).unwrap();
    m.add_le("diff", [(y, 1.0), (x, -1.0)], 0.5).unwrap();
    m.add_eq("link", [(x, 1.0), (z, 1.0)], 2.2).unwrap();
    round_trip(&m);
    let mut k = MilpModel::new(Sense::Maximize);
    let items = [(8.0, 5.0), (11.0, 7.0), (6.0, 4.0), (4.0, 3.0)];
    let row: Vec<_> = items
        .iter()
        .map(|&(value, weight)| (k.add_binary("item", value).unwrap(), weight))
        .collect();
    k.add_le("capacity", row, 14.0).unwrap();
    round_trip(&k);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_models_round_trip(model in model_strategy()) {
        round_trip(&model);
    }
}
