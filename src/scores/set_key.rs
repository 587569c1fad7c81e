//! Variable sets as candidate generation handles them: hash-map keys, sort keys and
//! small set algebra. With at most 64 variables a set is one `u64` bit mask, so hashing,
//! comparing and adding or removing a member are single-word operations; beyond, it is a
//! [`VarSet`]. Both orders agree (a mask orders like the `VarSet` of the same members),
//! so the choice never changes a result.

use bnsl_formulations::VarSet;
use std::hash::Hash;

/// A set of variable indices usable as a generation key.
pub(crate) trait SetKey: Clone + Eq + Hash + Ord + Send + Sync {
    /// Whether sets over `n` variables fit this representation.
    fn fits(n: usize) -> bool;
    /// The empty set over `n` variables.
    fn empty(n: usize) -> Self;
    /// A copy with `v` added.
    fn with(&self, v: usize) -> Self;
    /// A copy with `v` removed.
    fn without(&self, v: usize) -> Self;
    /// The members of `self` that are not members of `other`.
    fn minus(&self, other: &Self) -> Self;
    /// The largest member, if any.
    fn last(&self) -> Option<usize>;
    /// Number of members.
    fn len(&self) -> usize;
    /// Members in increasing order.
    fn members(&self) -> impl Iterator<Item = usize> + '_;
    /// The same set as a [`VarSet`] over `n` variables.
    fn to_varset(&self, n: usize) -> VarSet;
}

impl SetKey for u64 {
    fn fits(n: usize) -> bool {
        n <= 64
    }

    fn empty(_: usize) -> Self {
        0
    }

    fn with(&self, v: usize) -> Self {
        self | (1 << v)
    }

    fn without(&self, v: usize) -> Self {
        self & !(1 << v)
    }

    fn minus(&self, other: &Self) -> Self {
        self & !other
    }

    fn last(&self) -> Option<usize> {
        self.checked_ilog2().map(|b| b as usize)
    }

    fn len(&self) -> usize {
        self.count_ones() as usize
    }

    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        let mut rest = *self;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                b
            })
        })
    }

    fn to_varset(&self, n: usize) -> VarSet {
        VarSet::from_mask(n, *self)
    }
}

impl SetKey for VarSet {
    fn fits(_: usize) -> bool {
        true
    }

    fn empty(n: usize) -> Self {
        VarSet::empty(n)
    }

    fn with(&self, v: usize) -> Self {
        VarSet::with(self, v)
    }

    fn without(&self, v: usize) -> Self {
        VarSet::without(self, v)
    }

    fn minus(&self, other: &Self) -> Self {
        self.difference(other)
    }

    fn last(&self) -> Option<usize> {
        self.iter().last()
    }

    fn len(&self) -> usize {
        VarSet::len(self)
    }

    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        self.iter()
    }

    fn to_varset(&self, _: usize) -> VarSet {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Masks and `VarSet`s agree on every operation and on order.
        #[test]
        fn mask_matches_varset(a in any::<u64>(), b in any::<u64>(), v in 0usize..64) {
            let (sa, sb) = (VarSet::from_mask(64, a), VarSet::from_mask(64, b));
            prop_assert_eq!(a.with(v).to_varset(64), SetKey::with(&sa, v));
            prop_assert_eq!(a.without(v).to_varset(64), SetKey::without(&sa, v));
            prop_assert_eq!(a.minus(&b).to_varset(64), sa.minus(&sb));
            prop_assert_eq!(SetKey::last(&a), SetKey::last(&sa));
            prop_assert_eq!(SetKey::len(&a), SetKey::len(&sa));
            prop_assert_eq!(a.members().collect::<Vec<_>>(), sa.to_vec());
            prop_assert_eq!(a.cmp(&b), sa.cmp(&sb));
        }
    }
}
