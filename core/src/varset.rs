//! Sets of variables as fixed-width bitsets, for any number of variables.
//!
//! A [`VarSet`] is the representation of a parent set everywhere in bnsl: candidate
//! lists, DAGs, formulations. Variables are numbered `0..n`; the set stores one bit per
//! variable in 64-bit words, so subset tests and unions cost one operation per word.

use std::fmt;

/// Number of words stored inline, without a heap allocation (up to 128 variables).
const INLINE_WORDS: usize = 2;

/// The words of a set: inline for small `n` (so cloning is a copy), boxed beyond.
/// Unused inline words are always zero, so the derived comparisons are exact.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Words {
    Inline { len: u8, words: [u64; INLINE_WORDS] },
    Heap(Box<[u64]>),
}

impl Words {
    fn zeros(len: usize) -> Self {
        if len <= INLINE_WORDS {
            Words::Inline {
                len: len as u8,
                words: [0; INLINE_WORDS],
            }
        } else {
            Words::Heap(vec![0; len].into_boxed_slice())
        }
    }

    fn as_slice(&self) -> &[u64] {
        match self {
            Words::Inline { len, words } => &words[..*len as usize],
            Words::Heap(b) => b,
        }
    }

    fn as_mut_slice(&mut self) -> &mut [u64] {
        match self {
            Words::Inline { len, words } => &mut words[..*len as usize],
            Words::Heap(b) => b,
        }
    }
}

/// A set of variable indices, stored as a bitset of `ceil(n / 64)` words (inline, without
/// allocation, up to 128 variables).
///
/// Two sets are only comparable when they were created for the same `n`
/// (same number of words); every operation asserts this in debug builds.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarSet {
    words: Words,
}

impl VarSet {
    /// The empty set over `n` variables.
    pub fn empty(n: usize) -> Self {
        VarSet {
            words: Words::zeros(n.div_ceil(64).max(1)),
        }
    }

    /// The set of the given members over `n` variables. Panics if a member is `>= n`
    /// rounded up to the word size; callers validate indices first.
    pub fn from_members<I: IntoIterator<Item = usize>>(n: usize, members: I) -> Self {
        let mut s = Self::empty(n);
        for m in members {
            s.insert(m);
        }
        s
    }

    /// A set over at most 64 variables from a bit mask (bit `i` = variable `i`).
    pub fn from_mask(n: usize, mask: u64) -> Self {
        let mut s = Self::empty(n);
        s.words.as_mut_slice()[0] = mask;
        s
    }

    /// The low 64 bits as a mask; exact when all members are below 64.
    pub fn low_mask(&self) -> u64 {
        self.words.as_slice()[0]
    }

    /// Adds variable `v`.
    pub fn insert(&mut self, v: usize) {
        self.words.as_mut_slice()[v / 64] |= 1u64 << (v % 64);
    }

    /// Removes variable `v`.
    pub fn remove(&mut self, v: usize) {
        self.words.as_mut_slice()[v / 64] &= !(1u64 << (v % 64));
    }

    /// Whether `v` is a member.
    pub fn contains(&self, v: usize) -> bool {
        self.words
            .as_slice()
            .get(v / 64)
            .is_some_and(|w| w & (1u64 << (v % 64)) != 0)
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.words
            .as_slice()
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// Whether the set has no member.
    pub fn is_empty(&self) -> bool {
        self.words.as_slice().iter().all(|&w| w == 0)
    }

    /// Whether every member of `self` is a member of `other`.
    pub fn is_subset(&self, other: &VarSet) -> bool {
        let (a, b) = (self.words.as_slice(), other.words.as_slice());
        debug_assert_eq!(a.len(), b.len());
        a.iter().zip(b).all(|(a, b)| a & !b == 0)
    }

    /// Whether the two sets share a member.
    pub fn intersects(&self, other: &VarSet) -> bool {
        let (a, b) = (self.words.as_slice(), other.words.as_slice());
        debug_assert_eq!(a.len(), b.len());
        a.iter().zip(b).any(|(a, b)| a & b != 0)
    }

    /// The union of the two sets.
    pub fn union(&self, other: &VarSet) -> VarSet {
        self.combine(other, |a, b| a | b)
    }

    /// The members common to both sets.
    pub fn intersection(&self, other: &VarSet) -> VarSet {
        self.combine(other, |a, b| a & b)
    }

    /// The members of `self` that are not members of `other`.
    pub fn difference(&self, other: &VarSet) -> VarSet {
        self.combine(other, |a, b| a & !b)
    }

    /// The set whose words are `op` of the two sets' words.
    fn combine(&self, other: &VarSet, op: impl Fn(u64, u64) -> u64) -> VarSet {
        debug_assert_eq!(self.words.as_slice().len(), other.words.as_slice().len());
        let mut out = self.clone();
        for (o, &b) in out
            .words
            .as_mut_slice()
            .iter_mut()
            .zip(other.words.as_slice())
        {
            *o = op(*o, b);
        }
        out
    }

    /// A copy with `v` added.
    pub fn with(&self, v: usize) -> VarSet {
        let mut s = self.clone();
        s.insert(v);
        s
    }

    /// A copy with `v` removed.
    pub fn without(&self, v: usize) -> VarSet {
        let mut s = self.clone();
        s.remove(v);
        s
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .as_slice()
            .iter()
            .enumerate()
            .flat_map(|(wi, &w)| {
                let mut rest = w;
                std::iter::from_fn(move || {
                    if rest == 0 {
                        return None;
                    }
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    Some(wi * 64 + b)
                })
            })
    }

    /// Members in increasing order, collected.
    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }
}

impl fmt::Debug for VarSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_beyond_one_word() {
        let s = VarSet::from_members(200, [0, 63, 64, 130, 199]);
        assert_eq!(s.to_vec(), vec![0, 63, 64, 130, 199]);
        assert_eq!(s.len(), 5);
        assert!(s.contains(130) && !s.contains(131));
        let t = s.without(64);
        assert!(t.is_subset(&s) && !s.is_subset(&t));
        assert!(t.intersects(&s));
        assert!(VarSet::empty(200).is_empty());
    }

    #[test]
    fn union_and_with() {
        let a = VarSet::from_members(70, [1, 69]);
        let b = VarSet::from_members(70, [2]);
        assert_eq!(a.union(&b).to_vec(), vec![1, 2, 69]);
        assert_eq!(b.with(5).to_vec(), vec![2, 5]);
    }

    #[test]
    fn difference_beyond_one_word() {
        let a = VarSet::from_members(130, [1, 64, 129]);
        let b = VarSet::from_members(130, [1, 2, 129]);
        assert_eq!(a.difference(&b).to_vec(), vec![64]);
        assert_eq!(b.difference(&a).to_vec(), vec![2]);
    }
}
