//! The propagation queue's first-in first-out lists of constraint ids.
//!
//! `VecDeque` spends about 19 instructions on a push and as many on a pop
//! (its wrap-around arithmetic and capacity checks); the engine pushes and pops
//! once per propagator call, tens of millions of times on a decomposed model.
//! A constraint is queued at most once at a time, so the ring below rarely
//! grows, and its size is a power of two: a push or a pop is a mask, a store
//! or a load, and an add.

/// A ring buffer of `u32` whose size is a power of two (or zero before the
/// first push). `head` and `tail` count pops and pushes since the start and
/// wrap around `usize`; their difference is the length.
#[derive(Clone, Debug, Default)]
pub(super) struct Fifo {
    buf: Vec<u32>,
    head: usize,
    tail: usize,
}

impl Fifo {
    /// Appends `c` at the back, doubling the ring if it is full.
    #[inline]
    pub(super) fn push_back(&mut self, c: u32) {
        if self.tail.wrapping_sub(self.head) == self.buf.len() {
            self.grow();
        }
        let mask = self.buf.len() - 1;
        self.buf[self.tail & mask] = c;
        self.tail = self.tail.wrapping_add(1);
    }

    /// Takes the oldest id, if any.
    #[inline]
    pub(super) fn pop_front(&mut self) -> Option<u32> {
        if self.head == self.tail {
            return None;
        }
        let c = self.buf[self.head & self.buf.len().wrapping_sub(1)];
        self.head = self.head.wrapping_add(1);
        Some(c)
    }

    /// Takes every id, oldest first.
    pub(super) fn drain(&mut self) -> impl Iterator<Item = u32> + '_ {
        std::iter::from_fn(|| self.pop_front())
    }

    /// Doubles the ring (16 ids at the first push), keeping the order.
    #[cold]
    fn grow(&mut self) {
        let len = self.tail.wrapping_sub(self.head);
        let size = (self.buf.len() * 2).max(16);
        let mut buf = Vec::with_capacity(size);
        buf.extend(self.drain());
        buf.resize(size, 0);
        self.buf = buf;
        self.head = 0;
        self.tail = len;
    }
}

#[cfg(test)]
mod tests {
    use super::Fifo;
    use std::collections::VecDeque;

    /// Pushes and pops interleaved in every proportion (the ring wrapping
    /// around and growing while wrapped) give what `VecDeque` gives.
    #[test]
    fn behaves_as_a_vec_deque() {
        let mut fifo = Fifo::default();
        let mut deque = VecDeque::new();
        let mut seed = 12345u64;
        for step in 0..200_000u32 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Phases that mostly push, then mostly pop, at several sizes.
            let push_bias = match (step / 5_000) % 4 {
                0 => 60,
                1 => 40,
                2 => 75,
                _ => 25,
            };
            if (seed >> 33) % 100 < push_bias {
                fifo.push_back(step);
                deque.push_back(step);
            } else {
                assert_eq!(fifo.pop_front(), deque.pop_front(), "step {step}");
            }
        }
        assert_eq!(fifo.drain().collect::<Vec<_>>(), Vec::from(deque));
        assert_eq!(fifo.pop_front(), None);
    }

    /// The counters wrap around `usize` without losing the order.
    #[test]
    fn counters_wrap_around() {
        let mut fifo = Fifo {
            buf: vec![0; 16],
            head: usize::MAX - 5,
            tail: usize::MAX - 5,
        };
        for c in 0..40 {
            fifo.push_back(c);
        }
        assert_eq!(
            fifo.drain().collect::<Vec<_>>(),
            (0..40).collect::<Vec<_>>()
        );
    }
}
