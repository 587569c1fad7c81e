//! HITON-MB (Aliferis, Tsamardinos and Statnikov 2003), one of the §5 baselines of Ling
//! et al. 2019 and the most accurate constraint-based one in its Tables 4–5.
//!
//! **HITON-PC** (semi-interleaved, Aliferis et al. 2010): the variables not independent of
//! T given ∅ are taken in order of decreasing dependence; each is admitted to the
//! candidate PC set unless a subset of the current candidates separates it from T. When
//! all have been seen, every candidate is checked again, newest first, against the subsets
//! of the others (backward elimination). Each separated variable keeps its separating set.
//!
//! **HITON-MB**: PC(T) by HITON-PC; then, for each Y in PC(T), PC(Y) by HITON-PC, and
//! every X in PC(Y) outside PC(T) ∪ {T} is a spouse when T and X are dependent given
//! Sep{X} ∪ {Y} (Y is their common child). The spouses need a PC search per member of
//! PC(T), which is why HITON-MB performs several times BAMB's tests (Ling et al. 2019, §4.4).

use super::subsets::find_separating_set;
use super::{Blanket, CiTester};
use rustc_hash::FxHashMap;

/// The parents and children of `t` by HITON-PC (sorted), and the separating set of each
/// variable shown independent of `t`.
pub fn hiton_pc(ci: &mut CiTester, t: usize) -> (Vec<usize>, FxHashMap<usize, Vec<usize>>) {
    let mut sep: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    let mut open: Vec<((f64, f64), usize)> = Vec::new();
    for x in (0..ci.data().n_vars()).filter(|&x| x != t) {
        if ci.independent(t, x, &[]) {
            sep.insert(x, Vec::new());
        } else {
            open.push((ci.strength(t, x, &[]), x));
        }
    }
    open.sort_by(|((pa, za), a), ((pb, zb), b)| {
        pb.total_cmp(pa).then(zb.total_cmp(za)).then(a.cmp(b))
    });
    let none = |_: &[usize]| Vec::new();
    let mut pc: Vec<usize> = Vec::new();
    for (_, x) in open {
        match find_separating_set(ci, t, x, &pc, &[], &none) {
            Some(z) => {
                sep.insert(x, z);
            }
            None => pc.push(x),
        }
    }
    for y in pc.clone().into_iter().rev() {
        let pool: Vec<usize> = pc.iter().copied().filter(|&v| v != y).collect();
        if let Some(z) = find_separating_set(ci, t, y, &pool, &[], &none) {
            pc.retain(|&v| v != y);
            sep.insert(y, z);
        }
    }
    pc.sort_unstable();
    (pc, sep)
}

/// The Markov blanket of `t` by HITON-MB, split into PC and spouses.
pub fn hiton_mb(ci: &mut CiTester, t: usize) -> Blanket {
    let (pc, sep) = hiton_pc(ci, t);
    let mut spouses: Vec<usize> = Vec::new();
    for &y in &pc {
        let (pc_y, _) = hiton_pc(ci, y);
        for x in pc_y {
            if x == t || pc.contains(&x) || spouses.contains(&x) {
                continue;
            }
            let mut z = sep.get(&x).cloned().unwrap_or_default();
            z.push(y);
            if ci.dependent(t, x, &z) {
                spouses.push(x);
            }
        }
    }
    spouses.sort_unstable();
    let mut mb: Vec<usize> = pc.iter().chain(&spouses).copied().collect();
    mb.sort_unstable();
    Blanket {
        mb,
        pc: Some(pc),
        spouses: Some(spouses),
    }
}
