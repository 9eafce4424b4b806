//! Regular's layered graph, kept between calls in the trailed state.
//!
//! Pesant's graph has a layer per position `0..=n` of the word; the graph is
//! stored as the states of each layer that lie on a path from the start
//! (layer 0) to an accepting state (layer `n`) and, per position, the
//! *supported* symbols: those on an edge between two such states. An edge
//! `(q, s, q')` from layer `i` to layer `i + 1` is live while `q` and `q'` are
//! in their layers and `s` is supported at `i`.
//!
//! The first call builds the graph from the domains (forward reachability,
//! then backward). Later calls only take things out: the symbols that left a
//! domain kill their edges; a state left without a live edge out (or in) goes,
//! which kills its other edges, and so on, backward and forward, as far as the
//! loss spreads; a symbol whose edges all died is no longer supported. Every
//! state whose edges changed is looked at again, so the result is the largest
//! set of states with an edge in and out, which in a layered graph is exactly
//! the set of states on a full path: the graph a rebuild would find.
//!
//! Which symbols left: a position's domain never holds a value outside its
//! supported symbols once a call has filtered it, so a domain smaller than the
//! symbol set has lost some (only these are scanned). A variable that occurs
//! at several positions (or shares its base with a view elsewhere in the scope)
//! may be narrowed by another position after that, so its positions are
//! scanned at every call.
//!
//! The graph lives in trailed bit sets: the layers (`(n + 1) * W` words, `W`
//! words a state set), the supported symbols (`n * A` words, `A` words a
//! symbol set, numbered in the sorted alphabet), their number per position
//! (one word each), and the positions whose variable occurs twice; an integer
//! says whether they are built. A call works on a copy and writes back the
//! words that changed, and filters only the positions whose symbols lost
//! their support in the call (and the shared ones): elsewhere the domain is
//! already the symbol set.

use std::cell::RefCell;

use super::Automaton;
use crate::constraint::Conflict;
use crate::{Domains, PropagationContext, StateLayout, Value, VarId};

/// Bit set: the layers' states.
const LAYERS: usize = 0;
/// Bit set: each position's supported symbols.
const SYMBOLS: usize = 1;
/// Bit set used as words: each position's number of supported symbols.
const SIZES: usize = 2;
/// Bit set: the positions whose variable occurs elsewhere in the scope.
const SHARED: usize = 3;
/// Integer: 1 once the graph is built on this path.
const READY: usize = 0;

/// Buffers reused from call to call (one set per thread).
#[derive(Default)]
pub(super) struct Scratch {
    /// The layers, `W` words each.
    pub(super) layers: Vec<u64>,
    /// The supported symbols, `A` words a position.
    symbols: Vec<u64>,
    /// The number of supported symbols, a word a position.
    sizes: Vec<u64>,
    /// The positions whose variable occurs twice.
    shared: Vec<u64>,
    /// The positions to filter (a symbol lost its support).
    touched: Vec<u64>,
    /// The positions whose symbols changed.
    dirty: Vec<u64>,
    /// The words of `layers` that changed (maybe listed twice).
    dirty_layers: Vec<u32>,
    /// States to look at again: `(layer, state, whether for its edges out)`.
    stack: Vec<(u32, u32, bool)>,
    /// Symbols to look at again, as `(position, symbol index)`, and the same
    /// as a bit set (`A` words a position) so each is listed once.
    checks: Vec<(u32, u32)>,
    pending: Vec<u64>,
    /// One position's symbols as values, for `retain_sorted`.
    values: Vec<Value>,
    /// `(base variable, position)`, to find the shared positions.
    bases: Vec<(VarId, usize)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's scratch buffers (fresh ones if re-entered).
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        Err(_) => f(&mut Scratch::default()),
    })
}

#[inline(always)]
fn has(words: &[u64], b: usize) -> bool {
    words[b / 64] >> (b % 64) & 1 == 1
}

#[inline(always)]
fn set(words: &mut [u64], b: usize) {
    words[b / 64] |= 1 << (b % 64);
}

#[inline(always)]
fn clear(words: &mut [u64], b: usize) {
    words[b / 64] &= !(1 << (b % 64));
}

/// Calls `f` with each set position of `words`, in increasing order.
#[inline(always)]
fn each(words: &[u64], mut f: impl FnMut(usize)) {
    for (j, &word) in words.iter().enumerate() {
        let mut on = word;
        while on != 0 {
            f(j * 64 + on.trailing_zeros() as usize);
            on &= on - 1;
        }
    }
}

/// Words of a symbol set.
fn symbol_words(a: &Automaton) -> usize {
    a.symbols.len().div_ceil(64)
}

/// The bit-set lengths of the layout, or `None` if one would not fit a `u32`.
fn lengths(a: &Automaton, n: usize) -> Option<(usize, usize, usize)> {
    let layers = (n + 1).checked_mul(a.words())?.checked_mul(64)?;
    let symbols = n.checked_mul(symbol_words(a))?.checked_mul(64)?;
    let sizes = n.checked_mul(64)?;
    let limit = u32::MAX as usize;
    (layers <= limit && symbols <= limit && sizes <= limit).then_some((layers, symbols, sizes))
}

/// The trailed state of a regular over `n` positions (none if it would be too
/// large for the trailed state: each call then builds the graph afresh).
pub(super) fn layout(a: &Automaton, n: usize) -> StateLayout {
    match lengths(a, n) {
        Some((layers, symbols, sizes)) => StateLayout::new()
            .bits(layers, false)
            .bits(symbols, false)
            .bits(sizes, false)
            .bits(n, false)
            .int(0),
        None => StateLayout::new(),
    }
}

/// Brings the graph up to date with the domains and keeps each position's
/// supported symbols; whether a domain changed, or the conflict.
pub(super) fn propagate(
    a: &Automaton,
    vars: &[VarId],
    ctx: &mut PropagationContext<'_>,
) -> Result<bool, Conflict> {
    let n = vars.len();
    let aw = symbol_words(a);
    with_scratch(|s| {
        let kept = lengths(a, n).is_some();
        s.touched.clear();
        s.touched.resize(n.div_ceil(64), 0);
        let ok = if kept && ctx.state_int(READY) == 1 {
            load(ctx, s);
            s.dirty.clear();
            s.dirty.resize(n.div_ceil(64), 0);
            s.dirty_layers.clear();
            let ok = update(a, vars, ctx.domains(), s);
            if ok {
                for &j in &s.dirty_layers {
                    ctx.set_state_word(LAYERS, j as usize, s.layers[j as usize]);
                }
                each(&s.dirty, |i| {
                    for j in i * aw..(i + 1) * aw {
                        ctx.set_state_word(SYMBOLS, j, s.symbols[j]);
                    }
                    ctx.set_state_word(SIZES, i, s.sizes[i]);
                });
            }
            // Shared positions may hold values out of their symbols.
            for (t, &sh) in s.touched.iter_mut().zip(&s.shared) {
                *t |= sh;
            }
            ok
        } else {
            let ok = build(a, vars, ctx.domains(), s);
            if ok && kept {
                mark_shared(vars, ctx.domains(), s);
                for (k, words) in [
                    (LAYERS, &s.layers),
                    (SYMBOLS, &s.symbols),
                    (SIZES, &s.sizes),
                    (SHARED, &s.shared),
                ] {
                    for (j, &word) in words.iter().enumerate() {
                        ctx.set_state_word(k, j, word);
                    }
                }
                ctx.set_state_int(READY, 1);
            }
            for i in 0..n {
                set(&mut s.touched, i);
            }
            ok
        };
        if !ok {
            return Err(Conflict::infeasible());
        }
        // The touched positions keep their supported symbols, in scope order.
        let mut changed = false;
        let mut result = Ok(());
        each(&s.touched, |i| {
            let x = vars[i];
            // Every supported symbol is in the domain: equal sizes, nothing to remove.
            if result.is_err() || s.sizes[i] as usize >= ctx.len(x) {
                return;
            }
            ctx.note_revision();
            s.values.clear();
            each(&s.symbols[i * aw..(i + 1) * aw], |k| {
                s.values.push(a.symbols[k]);
            });
            match ctx.retain_sorted(x, &s.values) {
                Ok(c) => changed |= c,
                Err(e) => result = Err(e),
            }
        });
        result.map(|()| changed)
    })
}

/// Copies the stored graph into `s`.
fn load(ctx: &PropagationContext<'_>, s: &mut Scratch) {
    for (k, words) in [
        (LAYERS, &mut s.layers),
        (SYMBOLS, &mut s.symbols),
        (SIZES, &mut s.sizes),
        (SHARED, &mut s.shared),
    ] {
        words.clear();
        words.extend_from_slice(ctx.state_bits(k));
    }
}

/// Marks in `s.shared` the positions whose variable (or its base, for a view)
/// occurs at another position too.
fn mark_shared(vars: &[VarId], d: &Domains, s: &mut Scratch) {
    s.bases.clear();
    s.bases
        .extend(vars.iter().enumerate().map(|(i, &x)| (d.base_of(x), i)));
    s.bases.sort_unstable();
    s.shared.clear();
    s.shared.resize(vars.len().div_ceil(64), 0);
    for w in s.bases.windows(2) {
        if w[0].0 == w[1].0 {
            set(&mut s.shared, w[0].1);
            set(&mut s.shared, w[1].1);
        }
    }
}

/// Builds the graph from the domains into `s.layers`, `s.symbols` and
/// `s.sizes`; whether the start is on a path to acceptance.
fn build(a: &Automaton, vars: &[VarId], d: &Domains, s: &mut Scratch) -> bool {
    let n = vars.len();
    let w = a.words();
    let aw = symbol_words(a);
    a.forward(vars, d, &mut s.layers);
    for (l, &acc) in s.layers[n * w..].iter_mut().zip(&a.accepting_bits) {
        *l &= acc;
    }
    s.symbols.clear();
    s.symbols.resize(n * aw, 0);
    // Backward: layer i keeps its states with a live edge to layer i + 1.
    for i in (0..n).rev() {
        let x = vars[i];
        let (now, next) = s.layers[i * w..(i + 2) * w].split_at_mut(w);
        let symbols = &mut s.symbols[i * aw..(i + 1) * aw];
        for (k, word) in now.iter_mut().enumerate() {
            let mut on = *word;
            let mut keep = 0;
            while on != 0 {
                let q = k * 64 + on.trailing_zeros() as usize;
                on &= on - 1;
                for (&(sym, to), &(sk, _)) in a.out[q].iter().zip(&a.out_k[q]) {
                    let sk = sk as usize;
                    if has(next, to) && (has(symbols, sk) || d.contains(x, sym)) {
                        keep |= 1 << (q % 64);
                        set(symbols, sk);
                    }
                }
            }
            *word = keep;
        }
    }
    s.sizes.clear();
    s.sizes.extend(
        s.symbols
            .chunks(aw.max(1))
            .take(n)
            .map(|c| c.iter().map(|w| u64::from(w.count_ones())).sum::<u64>()),
    );
    s.sizes.resize(n, 0);
    has(&s.layers[..w], a.start)
}

/// Takes out of the graph in `s` what the domains lost since it was stored;
/// whether the start is still on a path to acceptance. Marks the positions
/// whose symbols changed in `s.dirty`, the layer words in `s.dirty_layers`,
/// and the positions where a symbol lost its support in `s.touched`.
///
/// Bits are addressed from the start of their set: state `q` of layer `i` is
/// bit `i * W * 64 + q` of the layers, symbol `k` of position `i` bit
/// `i * A * 64 + k` of the symbols (and of `pending`).
fn update(a: &Automaton, vars: &[VarId], d: &Domains, s: &mut Scratch) -> bool {
    let n = vars.len();
    let lw = a.words() * 64;
    let sw = symbol_words(a) * 64;
    s.stack.clear();
    s.checks.clear();
    // Kept all clear between calls (each bit set below is cleared again).
    if s.pending.len() < n * sw / 64 {
        s.pending.resize(n * sw / 64, 0);
    }
    let Scratch {
        layers,
        symbols,
        sizes,
        shared,
        touched,
        dirty,
        dirty_layers,
        stack,
        checks,
        pending,
        ..
    } = s;
    // The symbols that left a domain, and the edges they kill.
    for (i, &x) in vars.iter().enumerate() {
        if d.len(x) >= sizes[i] as usize && !has(shared, i) {
            continue;
        }
        let words = &mut symbols[i * sw / 64..(i + 1) * sw / 64];
        for (j, word) in words.iter_mut().enumerate() {
            let mut on = *word;
            while on != 0 {
                let b = on.trailing_zeros() as usize;
                on &= on - 1;
                let k = j * 64 + b;
                if d.contains(x, a.symbols[k]) {
                    continue;
                }
                *word &= !(1 << b);
                sizes[i] -= 1;
                set(dirty, i);
                for &(q, to) in &a.by_symbol[k] {
                    if has(layers, i * lw + q as usize) && has(layers, (i + 1) * lw + to as usize) {
                        stack.push((i as u32, q, true));
                        stack.push((i as u32 + 1, to, false));
                    }
                }
            }
        }
    }
    // States that may have lost their last edge out (`true`) or in.
    while let Some((i, q, out)) = stack.pop() {
        let (i, q) = (i as usize, q as usize);
        if !has(layers, i * lw + q) {
            continue;
        }
        let supported = if out {
            a.out_k[q].iter().any(|&(k, to)| {
                has(symbols, i * sw + k as usize) && has(layers, (i + 1) * lw + to as usize)
            })
        } else {
            a.into[q].iter().any(|&(k, from)| {
                has(symbols, (i - 1) * sw + k as usize) && has(layers, (i - 1) * lw + from as usize)
            })
        };
        if supported {
            continue;
        }
        clear(layers, i * lw + q);
        dirty_layers.push(((i * lw + q) / 64) as u32);
        // Its live edges die: their other ends and symbols are looked at again.
        if i < n {
            for &(k, to) in &a.out_k[q] {
                let bit = i * sw + k as usize;
                if has(symbols, bit) && has(layers, (i + 1) * lw + to as usize) {
                    stack.push((i as u32 + 1, to, false));
                    if !has(pending, bit) {
                        set(pending, bit);
                        checks.push((i as u32, k));
                    }
                }
            }
        }
        if i > 0 {
            for &(k, from) in &a.into[q] {
                let bit = (i - 1) * sw + k as usize;
                if has(symbols, bit) && has(layers, (i - 1) * lw + from as usize) {
                    stack.push((i as u32 - 1, from, true));
                    if !has(pending, bit) {
                        set(pending, bit);
                        checks.push((i as u32 - 1, k));
                    }
                }
            }
        }
    }
    // Symbols that lost an edge: supported while one of their edges lives.
    for &(i, k) in checks.iter() {
        let (i, k) = (i as usize, k as usize);
        clear(pending, i * sw + k);
        let live = a.by_symbol[k].iter().any(|&(q, to)| {
            has(layers, i * lw + q as usize) && has(layers, (i + 1) * lw + to as usize)
        });
        if !live {
            clear(symbols, i * sw + k);
            sizes[i] -= 1;
            set(dirty, i);
            set(touched, i);
        }
    }
    has(layers, a.start)
}
