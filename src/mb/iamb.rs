//! IAMB, the Incremental Association Markov Blanket algorithm (Tsamardinos, Aliferis and
//! Statnikov 2003), the baseline of Ling et al. 2019, §5.
//!
//! Growing phase: repeatedly add the variable most dependent on the target given the
//! current blanket (strength of [`CiTester::strength`]), as long as that dependence is
//! significant. Shrinking phase: remove, one at a time in the order of addition, every
//! member independent of the target given the rest of the current blanket.

use super::{Blanket, CiTester};

/// The Markov blanket of `t` by IAMB (no split into PC and spouses).
pub fn iamb(ci: &mut CiTester, t: usize) -> Blanket {
    let n = ci.data().n_vars();
    let mut mb: Vec<usize> = Vec::new();
    loop {
        let mut best: Option<(usize, (f64, f64))> = None;
        for x in (0..n).filter(|&x| x != t && !mb.contains(&x)) {
            if ci.dependent(t, x, &mb) {
                let s = ci.strength(t, x, &mb);
                if best.is_none_or(|(_, b)| s > b) {
                    best = Some((x, s));
                }
            }
        }
        match best {
            Some((x, _)) => mb.push(x),
            None => break,
        }
    }
    for x in mb.clone() {
        let rest: Vec<usize> = mb.iter().copied().filter(|&v| v != x).collect();
        if ci.independent(t, x, &rest) {
            mb = rest;
        }
    }
    mb.sort_unstable();
    Blanket {
        mb,
        pc: None,
        spouses: None,
    }
}
