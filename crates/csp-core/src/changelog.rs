//! `ChangeLog`: which items (variables, constraints) changed since a reader
//! last looked, kept only while someone reads it (the incremental variable
//! selection, `search/select.rs`).

/// The indices that changed since the last [`drain`](ChangeLog::drain), each
/// once; off (one test per change) until [`start`](ChangeLog::start).
#[derive(Clone, Debug, Default)]
pub(crate) struct ChangeLog {
    on: bool,
    /// Everything may have changed (a restore from a snapshot).
    all: bool,
    list: Vec<u32>,
    mark: Vec<bool>,
}

impl ChangeLog {
    /// Starts logging over `n` indices; the first drain reports everything.
    pub(crate) fn start(&mut self, n: usize) {
        self.on = true;
        self.all = true;
        self.list.clear();
        self.mark = vec![false; n];
    }

    /// Index `i` changed.
    #[inline(always)]
    pub(crate) fn note(&mut self, i: usize) {
        if self.on {
            self.note_on(i);
        }
    }

    #[inline]
    fn note_on(&mut self, i: usize) {
        if let Some(m) = self.mark.get_mut(i)
            && !*m
        {
            *m = true;
            self.list.push(i as u32);
        }
    }

    /// Whether the log is kept.
    #[inline(always)]
    pub(crate) fn is_on(&self) -> bool {
        self.on
    }

    /// Everything changed.
    pub(crate) fn note_all(&mut self) {
        if self.on {
            self.all = true;
        }
    }

    /// Empties the log: `Err(())` if everything changed, else the indices
    /// noted since the last drain (each once), handed to `f`.
    pub(crate) fn drain(&mut self, mut f: impl FnMut(usize)) -> Result<(), ()> {
        let all = std::mem::take(&mut self.all);
        for i in self.list.drain(..) {
            self.mark[i as usize] = false;
            if !all {
                f(i as usize);
            }
        }
        if all { Err(()) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_each_index_once_and_only_when_on() {
        let mut log = ChangeLog::default();
        log.note(3);
        assert!(!log.is_on());
        log.start(5);
        assert!(log.drain(|_| ()).is_err(), "the first drain is everything");
        log.note(3);
        log.note(1);
        log.note(3);
        let mut seen = Vec::new();
        assert!(log.drain(|i| seen.push(i)).is_ok());
        assert_eq!(seen, [3, 1]);
        seen.clear();
        log.note(3);
        assert!(log.drain(|i| seen.push(i)).is_ok());
        assert_eq!(seen, [3]);
        log.note_all();
        log.note(2);
        assert!(log.drain(|_| panic!("everything changed")).is_err());
    }
}
