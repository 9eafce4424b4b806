//! The hash maps and sets of the translation, keyed by the model's names and
//! variables: `foldhash`'s fast hasher with a fixed seed.
//!
//! A large FlatZinc file makes hundreds of thousands of lookups by name:
//! replacing the standard library's SipHash by this hasher cut the
//! instructions of reading and translating a 7 MB file by 18 %
//! (docs/performance.md, session 19).
//! The fixed seed makes a translation the same at every run, even where a
//! choice follows a map's order. It is not resistant to inputs built to
//! collide, which a FlatZinc model made by MiniZinc is not.

/// A hash map with the fast, fixed-seed hasher.
pub(crate) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// A hash set with the fast, fixed-seed hasher.
pub(crate) type HashSet<K> = std::collections::HashSet<K, foldhash::fast::FixedState>;
