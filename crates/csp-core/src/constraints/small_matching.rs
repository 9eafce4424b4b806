//! Régin's matching filter on one machine word: all-different over at most
//! 64 variables whose shifted values lie within a window of 64.
//!
//! The same removals as the general filter (the edges in no maximum
//! matching; [`matching`](super::matching)), computed on bit masks: each
//! domain is a word over the window, a maximum matching comes from a greedy
//! start and Kuhn's augmenting paths over masks, and instead of Tarjan's
//! components the filter keeps, for each value, the values it reaches in the
//! alternating graph. An unmatched edge `(x, v)` belongs to some maximum
//! matching exactly when `v` is reachable from a free value (an even
//! alternating path), or when `x`'s matched value reaches `v` (then `v`
//! reaches it back through `x`: an even alternating cycle). Nothing is
//! allocated: every buffer is a fixed array on the stack.

/// The most variables and the widest window of values this filter takes.
pub(crate) const WORD: usize = 64;

const NONE: u8 = u8::MAX;

/// For domains `dom` (bit `k` of `dom[i]`: the shifted value `lo + k` is in
/// position `i`'s domain), sets `out[i]` to the bits of position `i`'s values
/// in no maximum matching (see the module's documentation), or returns
/// `false` if no matching covers every position. `dom.len()` is at most
/// [`WORD`] and at most `out.len()`.
pub(crate) fn unsupported(dom: &[u64], out: &mut [u64]) -> bool {
    let n = dom.len();
    debug_assert!(n <= WORD && n <= out.len());
    let mut mate = [NONE; WORD];
    let mut owner = [NONE; WORD];
    let mut taken = 0u64;
    let mut present = 0u64;
    // Greedy start: each position takes its lowest value still free.
    for i in 0..n {
        present |= dom[i];
        let free = dom[i] & !taken;
        if free != 0 {
            let v = free.trailing_zeros() as usize;
            mate[i] = v as u8;
            owner[v] = i as u8;
            taken |= 1 << v;
        }
    }
    if (n as u32) > present.count_ones() {
        return false;
    }
    for i in 0..n {
        if mate[i] == NONE {
            let mut visited = 0u64;
            if !augment(dom, i, &mut visited, &mut mate, &mut owner) {
                return false;
            }
        }
    }
    let matched: u64 = (0..n).fold(0, |m, i| m | 1 << mate[i]);
    // The alternating graph on values: `w` leads to `mate[i]` through every
    // position `i` that has `w` without being matched to it.
    let mut succ = [0u64; WORD];
    for i in 0..n {
        let m = 1u64 << mate[i];
        let mut rest = dom[i] & !m;
        while rest != 0 {
            succ[rest.trailing_zeros() as usize] |= m;
            rest &= rest - 1;
        }
    }
    // The values reachable from a free value (free values included).
    let mut from_free = present & !matched;
    let mut frontier = from_free;
    while frontier != 0 {
        let mut next = 0u64;
        let mut f = frontier;
        while f != 0 {
            next |= succ[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        frontier = next & !from_free;
        from_free |= frontier;
    }
    // What each remaining value reaches, among the remaining values
    // (Warshall's closure on words): a path from one of them to another
    // never passes through a value reachable from a free one.
    let rest = present & !from_free;
    let mut reach = [0u64; WORD];
    let mut r = rest;
    while r != 0 {
        let w = r.trailing_zeros() as usize;
        reach[w] = (succ[w] & rest) | 1 << w;
        r &= r - 1;
    }
    let mut k_set = rest;
    while k_set != 0 {
        let k = k_set.trailing_zeros() as usize;
        let (bit, via) = (1u64 << k, reach[k]);
        let mut w_set = rest;
        while w_set != 0 {
            let w = w_set.trailing_zeros() as usize;
            if reach[w] & bit != 0 {
                reach[w] |= via;
            }
            w_set &= w_set - 1;
        }
        k_set &= k_set - 1;
    }
    for i in 0..n {
        let m = mate[i] as usize;
        let keep = 1u64 << m | from_free | reach[m];
        out[i] = dom[i] & !keep;
    }
    true
}

/// Kuhn's augmenting path from position `i` over values not yet `visited`.
fn augment(
    dom: &[u64],
    i: usize,
    visited: &mut u64,
    mate: &mut [u8; WORD],
    owner: &mut [u8; WORD],
) -> bool {
    let mut cand = dom[i] & !*visited;
    while cand != 0 {
        let v = cand.trailing_zeros() as usize;
        cand &= cand - 1;
        *visited |= 1 << v;
        if owner[v] == NONE || augment(dom, owner[v] as usize, visited, mate, owner) {
            owner[v] = i as u8;
            mate[i] = v as u8;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: `(i, v)` is kept exactly when some complete matching
    /// gives position `i` the value `v`.
    fn brute(dom: &[u64]) -> Option<Vec<u64>> {
        fn go(dom: &[u64], i: usize, used: u64, pick: &mut Vec<usize>, keep: &mut [u64]) -> bool {
            if i == dom.len() {
                for (j, &v) in pick.iter().enumerate() {
                    keep[j] |= 1 << v;
                }
                return true;
            }
            let mut any = false;
            let mut c = dom[i] & !used;
            while c != 0 {
                let v = c.trailing_zeros() as usize;
                c &= c - 1;
                pick.push(v);
                any |= go(dom, i + 1, used | 1 << v, pick, keep);
                pick.pop();
            }
            any
        }
        let mut keep = vec![0u64; dom.len()];
        go(dom, 0, 0, &mut Vec::new(), &mut keep)
            .then(|| dom.iter().zip(&keep).map(|(&d, &k)| d & !k).collect())
    }

    #[test]
    fn random_domains_lose_what_brute_force_says() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for case in 0..4000 {
            let n = 1 + (rng.next_u64() % 7) as usize;
            let span = 1 + (rng.next_u64() % 9) as u32;
            let window = if span == 64 {
                u64::MAX
            } else {
                (1u64 << span) - 1
            };
            // Sparse or dense domains; a few empty ones too.
            let dom: Vec<u64> = (0..n)
                .map(|_| {
                    let a = rng.next_u64() & window;
                    if case % 3 == 0 {
                        a | (rng.next_u64() & window)
                    } else {
                        a & rng.next_u64()
                    }
                })
                .collect();
            let mut out = [0u64; WORD];
            let got = unsupported(&dom, &mut out).then(|| out[..n].to_vec());
            assert_eq!(got, brute(&dom), "case {case}: {dom:?}");
        }
    }

    #[test]
    fn a_full_window_of_64_values_and_64_positions() {
        // 64 positions on 64 values: the first fixed to 0, the others free.
        let mut dom = vec![u64::MAX; 64];
        dom[0] = 1;
        let mut r = [0u64; WORD];
        assert!(unsupported(&dom, &mut r));
        assert_eq!(r[0], 0);
        assert!(r[1..].iter().all(|&m| m == 1));
        // 65 values would not fit; 64 positions on 63 values cannot match.
        let dom = vec![u64::MAX >> 1; 64];
        assert!(!unsupported(&dom, &mut r));
    }
}
