//! Sets of variables for any number of variables, in memory proportional to what they hold.
//!
//! A [`VarSet`] is the representation of a parent set everywhere in bnsl: candidate
//! lists, DAGs, formulations. Variables are numbered `0..n`. The storage depends only on
//! `n` and on the number of members, so equal sets are stored alike and the derived
//! comparisons are exact:
//! - up to 128 variables, a bitset of two inline words (one operation per word);
//! - beyond, a sorted list of members while there are at most [`SPARSE_MAX`] of them
//!   (inline up to four), so a parent set over 10⁵ variables costs a few bytes, not
//!   12.5 kB;
//! - beyond that, a boxed bitset of `ceil(n / 64)` words with its member count.
//!
//! So a candidate list costs memory linear in its parent sets, whatever `n` is, and a set
//! never costs more than `n` bits plus a constant.

use std::fmt;

/// Members kept as a sorted list (for more than 128 variables) before a set becomes a
/// bitset. Small enough that keeping the list sorted on insertion stays cheap, and never
/// more bytes than the bitset: sets over n ≤ 1,024 variables switch earlier, at 2·⌈n/64⌉.
pub const SPARSE_MAX: usize = 32;

/// Number of words of the inline bitset (up to 128 variables).
const INLINE_WORDS: usize = 2;

/// Members stored inline in the list form.
const FEW: usize = 4;

/// The most members a set over `words` words keeps as a list: [`SPARSE_MAX`], or fewer
/// when the bitset would be smaller.
fn sparse_limit(words: usize) -> usize {
    SPARSE_MAX.min(2 * words)
}

/// The storage of a set. Which variant holds a set is a function of its word count and
/// its size (see the module doc), never of how it was built.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    /// At most 128 variables: `len` words of a bitset; unused words are zero.
    Small { len: u8, words: [u64; INLINE_WORDS] },
    /// More than 128 variables, at most [`FEW`] members, sorted; unused slots are zero.
    Few {
        words: u32,
        len: u8,
        members: [u32; FEW],
    },
    /// More than 128 variables, more than [`FEW`] and at most [`sparse_limit`] members,
    /// sorted.
    List { words: u32, members: Box<[u32]> },
    /// More than 128 variables and more than [`sparse_limit`] members: a bitset and its
    /// member count.
    Bits { count: u32, words: Box<[u64]> },
}

/// A set of variable indices (see the module doc for its storage).
///
/// Two sets are only comparable when they were created for the same `n` (same number of
/// 64-bit words); every operation asserts this in debug builds.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarSet {
    repr: Repr,
}

impl Repr {
    /// The canonical storage of the sorted, distinct `members` over `words` (> 2) words.
    fn from_sorted(words: usize, members: &[u32]) -> Repr {
        debug_assert!(words > INLINE_WORDS && members.windows(2).all(|w| w[0] < w[1]));
        if members.len() <= FEW {
            let mut slots = [0; FEW];
            slots[..members.len()].copy_from_slice(members);
            Repr::Few {
                words: words as u32,
                len: members.len() as u8,
                members: slots,
            }
        } else if members.len() <= sparse_limit(words) {
            Repr::List {
                words: words as u32,
                members: members.into(),
            }
        } else {
            let mut bits = vec![0u64; words].into_boxed_slice();
            for &m in members {
                bits[m as usize / 64] |= 1u64 << (m % 64);
            }
            Repr::Bits {
                count: members.len() as u32,
                words: bits,
            }
        }
    }

    /// The canonical storage of the bitset `bits` (more than 2 words).
    fn from_bits(bits: Box<[u64]>) -> Repr {
        let count: usize = bits.iter().map(|w| w.count_ones() as usize).sum();
        if count <= sparse_limit(bits.len()) {
            let members: Vec<u32> = BitMembers::new(&bits).map(|m| m as u32).collect();
            Repr::from_sorted(bits.len(), &members)
        } else {
            Repr::Bits {
                count: count as u32,
                words: bits,
            }
        }
    }
}

impl VarSet {
    /// The empty set over `n` variables (`n` < 2³²).
    pub fn empty(n: usize) -> Self {
        assert!(
            n <= u32::MAX as usize,
            "a set holds at most 2^32 - 1 variables"
        );
        let words = n.div_ceil(64).max(1);
        let repr = if words <= INLINE_WORDS {
            Repr::Small {
                len: words as u8,
                words: [0; INLINE_WORDS],
            }
        } else {
            Repr::from_sorted(words, &[])
        };
        VarSet { repr }
    }

    /// The set of the given members over `n` variables. Panics if a member is `>= n`
    /// rounded up to the word size; callers validate indices first.
    #[inline]
    pub fn from_members<I: IntoIterator<Item = usize>>(n: usize, members: I) -> Self {
        let mut s = Self::empty(n);
        for m in members {
            s.insert(m);
        }
        s
    }

    /// The set over `n` variables whose members below 64 are the bits of `mask` (bit `i`
    /// = variable `i`).
    pub fn from_mask(n: usize, mask: u64) -> Self {
        Self::from_members(n, BitMembers::new(&[mask]))
    }

    /// The members below 64 as a bit mask; the whole set when all members are below 64.
    #[inline]
    pub fn low_mask(&self) -> u64 {
        match self.sorted_members() {
            Some(ms) => ms
                .iter()
                .take_while(|&&m| m < 64)
                .fold(0, |acc, &m| acc | 1u64 << m),
            None => self.bits().map_or(0, |b| b[0]),
        }
    }

    /// Number of 64-bit words of the `n` the set was created for.
    #[inline]
    fn word_count(&self) -> usize {
        match &self.repr {
            Repr::Small { len, .. } => *len as usize,
            Repr::Few { words, .. } | Repr::List { words, .. } => *words as usize,
            Repr::Bits { words, .. } => words.len(),
        }
    }

    /// The members, sorted, when the set is stored as a list.
    #[inline]
    fn sorted_members(&self) -> Option<&[u32]> {
        match &self.repr {
            Repr::Few { len, members, .. } => Some(&members[..*len as usize]),
            Repr::List { members, .. } => Some(members),
            Repr::Small { .. } | Repr::Bits { .. } => None,
        }
    }

    /// The words, when the set is stored as a bitset.
    #[inline]
    fn bits(&self) -> Option<&[u64]> {
        match &self.repr {
            Repr::Small { len, words } => Some(&words[..*len as usize]),
            Repr::Bits { words, .. } => Some(words),
            Repr::Few { .. } | Repr::List { .. } => None,
        }
    }

    /// Adds variable `v`.
    #[inline]
    pub fn insert(&mut self, v: usize) {
        let bit = 1u64 << (v % 64);
        match &mut self.repr {
            Repr::Small { len, words } => words[..*len as usize][v / 64] |= bit,
            Repr::Bits { count, words } => {
                let w = &mut words[v / 64];
                if *w & bit == 0 {
                    *w |= bit;
                    *count += 1;
                }
            }
            Repr::Few {
                words,
                len,
                members,
            } if (*len as usize) < FEW => {
                assert!(v < *words as usize * 64, "variable {v} out of range");
                let held = &members[..*len as usize];
                if let Err(i) = held.binary_search(&(v as u32)) {
                    members.copy_within(i..*len as usize, i + 1);
                    members[i] = v as u32;
                    *len += 1;
                }
            }
            Repr::Few { .. } | Repr::List { .. } => {
                let words = self.word_count();
                assert!(v < words * 64, "variable {v} out of range");
                let held = self.sorted_members().expect("a list");
                if let Err(i) = held.binary_search(&(v as u32)) {
                    let mut grown = Vec::with_capacity(held.len() + 1);
                    grown.extend_from_slice(&held[..i]);
                    grown.push(v as u32);
                    grown.extend_from_slice(&held[i..]);
                    self.repr = Repr::from_sorted(words, &grown);
                }
            }
        }
    }

    /// Removes variable `v`.
    #[inline]
    pub fn remove(&mut self, v: usize) {
        let bit = 1u64 << (v % 64);
        match &mut self.repr {
            Repr::Small { len, words } => words[..*len as usize][v / 64] &= !bit,
            Repr::Bits { words, .. } => {
                let w = &mut words[v / 64];
                if *w & bit != 0 {
                    *w &= !bit;
                    let bits = std::mem::take(words);
                    self.repr = Repr::from_bits(bits);
                }
            }
            Repr::Few { .. } | Repr::List { .. } => {
                let held = self.sorted_members().expect("a list");
                let found = u32::try_from(v).map(|v| held.binary_search(&v));
                if let Ok(Ok(i)) = found {
                    let kept: Vec<u32> = held[..i].iter().chain(&held[i + 1..]).copied().collect();
                    self.repr = Repr::from_sorted(self.word_count(), &kept);
                }
            }
        }
    }

    /// Whether `v` is a member.
    #[inline]
    pub fn contains(&self, v: usize) -> bool {
        let bit = 1u64 << (v % 64);
        match &self.repr {
            Repr::Small { words, .. } => words.get(v / 64).is_some_and(|w| w & bit != 0),
            Repr::Bits { words, .. } => words.get(v / 64).is_some_and(|w| w & bit != 0),
            Repr::Few { len, members, .. } => {
                members[..*len as usize].iter().any(|&m| m as usize == v)
            }
            Repr::List { members, .. } => {
                u32::try_from(v).is_ok_and(|v| members.binary_search(&v).is_ok())
            }
        }
    }

    /// Number of members.
    #[inline]
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Small { words, .. } => words.iter().map(|w| w.count_ones() as usize).sum(),
            Repr::Few { len, .. } => *len as usize,
            Repr::List { members, .. } => members.len(),
            Repr::Bits { count, .. } => *count as usize,
        }
    }

    /// Whether the set has no member.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every member of `self` is a member of `other`.
    #[inline]
    pub fn is_subset(&self, other: &VarSet) -> bool {
        debug_assert_eq!(self.word_count(), other.word_count());
        if let (Repr::Small { words: a, .. }, Repr::Small { words: b, .. }) =
            (&self.repr, &other.repr)
        {
            return a[0] & !b[0] == 0 && a[1] & !b[1] == 0;
        }
        match (self.sorted_members(), self.bits(), other.bits()) {
            (Some(ms), _, _) => ms.iter().all(|&m| other.contains(m as usize)),
            (None, Some(a), Some(b)) => a.iter().zip(b).all(|(a, b)| a & !b == 0),
            // A bitset beyond 128 variables has more members than any list.
            _ => false,
        }
    }

    /// Whether the two sets share a member.
    #[inline]
    pub fn intersects(&self, other: &VarSet) -> bool {
        debug_assert_eq!(self.word_count(), other.word_count());
        if let (Repr::Small { words: a, .. }, Repr::Small { words: b, .. }) =
            (&self.repr, &other.repr)
        {
            return a[0] & b[0] != 0 || a[1] & b[1] != 0;
        }
        match (self.sorted_members(), other.sorted_members()) {
            (Some(ms), _) => ms.iter().any(|&m| other.contains(m as usize)),
            (None, Some(ms)) => ms.iter().any(|&m| self.contains(m as usize)),
            (None, None) => {
                let (a, b) = (self.bits().expect("bits"), other.bits().expect("bits"));
                a.iter().zip(b).any(|(a, b)| a & b != 0)
            }
        }
    }

    /// The union of the two sets.
    #[inline]
    pub fn union(&self, other: &VarSet) -> VarSet {
        match (self.sorted_members(), other.sorted_members()) {
            (None, None) => self.combine_bits(other, |a, b| a | b),
            (Some(a), Some(b)) => self.sibling_of_sorted(&merge_sorted(a, b)),
            (Some(list), None) => other.with_all(list),
            (None, Some(list)) => self.with_all(list),
        }
    }

    /// The members common to both sets.
    #[inline]
    pub fn intersection(&self, other: &VarSet) -> VarSet {
        match (self.sorted_members(), other.sorted_members()) {
            (None, None) => self.combine_bits(other, |a, b| a & b),
            (Some(list), _) => self.filtered(list, |m| other.contains(m)),
            (None, Some(list)) => self.filtered(list, |m| self.contains(m)),
        }
    }

    /// The members of `self` that are not members of `other`.
    #[inline]
    pub fn difference(&self, other: &VarSet) -> VarSet {
        match (self.sorted_members(), other.sorted_members()) {
            (None, None) => self.combine_bits(other, |a, b| a & !b),
            (Some(list), _) => self.filtered(list, |m| !other.contains(m)),
            (None, Some(list)) => {
                let mut out = self.clone();
                for &m in list {
                    out.remove(m as usize);
                }
                out
            }
        }
    }

    /// A copy with the members of `list` added.
    fn with_all(&self, list: &[u32]) -> VarSet {
        let mut out = self.clone();
        for &m in list {
            out.insert(m as usize);
        }
        out
    }

    /// The members of `list` that pass `keep`, over the same `n` as `self`.
    fn filtered(&self, list: &[u32], keep: impl Fn(usize) -> bool) -> VarSet {
        let kept: Vec<u32> = list.iter().copied().filter(|&m| keep(m as usize)).collect();
        self.sibling_of_sorted(&kept)
    }

    /// The set of the sorted, distinct `members` over the same `n` as `self`, a set
    /// beyond 128 variables (only those are stored as lists).
    fn sibling_of_sorted(&self, members: &[u32]) -> VarSet {
        VarSet {
            repr: Repr::from_sorted(self.word_count(), members),
        }
    }

    /// The set whose words are `op` of the two bitsets' words.
    fn combine_bits(&self, other: &VarSet, op: impl Fn(u64, u64) -> u64) -> VarSet {
        if let (Repr::Small { len, words: a }, Repr::Small { words: b, .. }) =
            (&self.repr, &other.repr)
        {
            debug_assert_eq!(*len as usize, other.word_count());
            let mut words = [0; INLINE_WORDS];
            for (i, w) in words[..*len as usize].iter_mut().enumerate() {
                *w = op(a[i], b[i]);
            }
            return VarSet {
                repr: Repr::Small { len: *len, words },
            };
        }
        let (a, b) = (self.bits().expect("bits"), other.bits().expect("bits"));
        debug_assert_eq!(a.len(), b.len());
        let words: Box<[u64]> = a.iter().zip(b).map(|(&a, &b)| op(a, b)).collect();
        VarSet {
            repr: Repr::from_bits(words),
        }
    }

    /// A copy with `v` added.
    #[inline]
    pub fn with(&self, v: usize) -> VarSet {
        let mut s = self.clone();
        s.insert(v);
        s
    }

    /// A copy with `v` removed.
    #[inline]
    pub fn without(&self, v: usize) -> VarSet {
        let mut s = self.clone();
        s.remove(v);
        s
    }

    /// Members in increasing order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        match (self.sorted_members(), self.bits()) {
            (Some(list), _) => Members::List(list.iter()),
            (None, bits) => Members::Bits(BitMembers::new(bits.expect("bits"))),
        }
    }

    /// Members in increasing order, collected.
    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }
}

/// The union of two sorted, distinct lists.
fn merge_sorted(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The members of a set, from either storage.
enum Members<'a> {
    List(std::slice::Iter<'a, u32>),
    Bits(BitMembers<'a>),
}

impl Iterator for Members<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            Members::List(it) => it.next().map(|&m| m as usize),
            Members::Bits(it) => it.next(),
        }
    }
}

/// The set bits of a word slice, in increasing order.
struct BitMembers<'a> {
    words: &'a [u64],
    index: usize,
    rest: u64,
}

impl<'a> BitMembers<'a> {
    #[inline]
    fn new(words: &'a [u64]) -> Self {
        BitMembers {
            words,
            index: 0,
            rest: words.first().copied().unwrap_or(0),
        }
    }
}

impl Iterator for BitMembers<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.rest == 0 {
            self.index += 1;
            self.rest = *self.words.get(self.index)?;
        }
        let bit = self.rest.trailing_zeros() as usize;
        self.rest &= self.rest - 1;
        Some(self.index * 64 + bit)
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

    /// The storage of a set is fixed by `n` and its size: a small set over 10⁵ variables
    /// holds no bitset, a large one does, and the handle stays three words.
    #[test]
    fn storage_follows_size() {
        assert!(std::mem::size_of::<VarSet>() <= 24);
        let n = 100_000;
        let small = VarSet::from_members(n, [5, 99_999]);
        assert!(small.bits().is_none());
        let large = VarSet::from_members(n, 0..SPARSE_MAX + 1);
        assert!(large.bits().is_some());
        assert!(large.without(0).bits().is_none());
        assert_eq!(large.without(0), VarSet::from_members(n, 1..SPARSE_MAX + 1));
    }

    mod model {
        use super::super::*;
        use proptest::prelude::*;
        use std::collections::BTreeSet;

        /// A set of either storage over `n` variables, with members from `picks`.
        fn build(n: usize, picks: &[usize]) -> (VarSet, BTreeSet<usize>) {
            let model: BTreeSet<usize> = picks.iter().map(|p| p % n).collect();
            (VarSet::from_members(n, model.iter().copied()), model)
        }

        fn members() -> impl Strategy<Value = Vec<usize>> {
            prop_oneof![
                proptest::collection::vec(any::<usize>(), 0..8),
                proptest::collection::vec(any::<usize>(), 0..80),
            ]
        }

        proptest! {
            /// Every operation agrees with a `BTreeSet`, for `n` on both sides of 128 and
            /// sets on both sides of the list/bitset switch; equal sets compare and hash
            /// equal however they were built.
            #[test]
            fn agrees_with_btreeset(
                n in prop_oneof![Just(64usize), Just(100), Just(130), Just(200), Just(5000)],
                a in members(),
                b in members(),
                probe in any::<usize>(),
            ) {
                let (sa, ma) = build(n, &a);
                let (sb, mb) = build(n, &b);
                let v = probe % n;
                let vec = |m: &BTreeSet<usize>| m.iter().copied().collect::<Vec<_>>();
                prop_assert_eq!(sa.to_vec(), vec(&ma));
                prop_assert_eq!(sa.len(), ma.len());
                prop_assert_eq!(sa.is_empty(), ma.is_empty());
                prop_assert_eq!(sa.contains(v), ma.contains(&v));
                prop_assert_eq!(sa.is_subset(&sb), ma.is_subset(&mb));
                prop_assert_eq!(sa.intersects(&sb), !ma.is_disjoint(&mb));
                let union = sa.union(&sb);
                prop_assert_eq!(union.to_vec(), vec(&(&ma | &mb)));
                prop_assert_eq!(sa.intersection(&sb).to_vec(), vec(&(&ma & &mb)));
                prop_assert_eq!(sa.difference(&sb).to_vec(), vec(&(&ma - &mb)));
                prop_assert_eq!(sa.with(v).to_vec(), vec(&(&ma | &BTreeSet::from([v]))));
                prop_assert_eq!(sa.without(v).to_vec(), vec(&(&ma - &BTreeSet::from([v]))));
                let low = ma.iter().filter(|&&m| m < 64).fold(0u64, |acc, &m| acc | 1 << m);
                prop_assert_eq!(sa.low_mask(), low);
                // The union built by inserting, then removing b's extra members, is a again.
                let mut back = union.clone();
                for m in mb.difference(&ma) {
                    back.remove(*m);
                }
                prop_assert_eq!(&back, &sa);
                let state = std::hash::RandomState::new();
                use std::hash::BuildHasher;
                prop_assert_eq!(state.hash_one(&back), state.hash_one(&sa));
                prop_assert_eq!(back.cmp(&sa), std::cmp::Ordering::Equal);
            }
        }
    }
}
