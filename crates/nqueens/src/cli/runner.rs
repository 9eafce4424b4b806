//! Counting a list of subproblems on a thread pool, with an optional checkpoint saved now and then and on Ctrl-C or SIGTERM.
//!
//! Used by `count --part` and `count --checkpoint` for every method. Workers
//! count the subproblems not yet finished (one stealable job each) and record
//! each result in a [`Checkpoint`]; a watcher thread saves it at most every
//! `interval` and at once when a signal sets the cancel flag. The dedicated
//! counters cannot be interrupted inside a subproblem, so on a signal the
//! watcher saves what is finished, prints the partial result and ends the
//! process (status 1) without waiting for the subproblems in flight.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use csp_core::CancelFlag;
use indicatif::{ProgressBar, ProgressStyle};
use nqueens::checkpoint::Checkpoint;
use rayon::prelude::*;

use super::{Failure, progress};

/// What counting one subproblem gave.
pub enum Unit {
    /// Its results (as many numbers as the job's width).
    Counted(Vec<u64>),
    /// A limit stopped it, for this reason (`stopped by time limit`).
    Stopped(String),
}

/// Where and how often to save progress.
pub struct Saving {
    /// The checkpoint file.
    pub path: PathBuf,
    /// At most one save per this much time (and one on a signal, one at the end).
    pub interval: Duration,
    /// `--share-key`: the checkpoint ends in a `mac` line under this key.
    pub key: Option<nqueens::share_key::ShareKey>,
}

/// A count split into subproblems.
pub struct Job<'a> {
    /// What is counted, as recorded in the checkpoint: `n=19 part=3/16 method=symmetry`.
    pub name: String,
    /// How many subproblems.
    pub subproblems: usize,
    /// Numbers per result: the solutions, and for the symmetry counter the
    /// unique solutions.
    pub width: usize,
    /// The board size, for the checks of a checkpoint's sums ([`nqueens::bounds`]).
    pub n: u32,
    /// Whether the subproblems make up the whole count (no `--part`, or `--part 1/1`).
    pub whole: bool,
    /// Worker threads.
    pub threads: usize,
    /// The checkpoint, if any.
    pub saving: Option<Saving>,
    /// Counts subproblem `i`; the first number of its result is its solutions.
    pub count: &'a (dyn Fn(usize) -> Result<Unit, Failure> + Sync),
}

/// How a run ended without an error.
pub enum Ended {
    /// Every subproblem is counted: the sums.
    Complete(Vec<u64>),
    /// Stopped early; the partial result is printed.
    Stopped,
}

struct State {
    checkpoint: Checkpoint,
    dirty: bool,
    /// Set by whichever thread reports the end, so that only one does.
    ended: bool,
    stopped: Option<String>,
    error: Option<Failure>,
}

/// Counts the subproblems of `job` that its checkpoint does not list as
/// finished; `cancel` (set by Ctrl-C or SIGTERM) stops it.
pub fn run(job: &Job<'_>, cancel: &CancelFlag) -> Result<Ended, Failure> {
    let checkpoint = match &job.saving {
        Some(s) => {
            let key = s.key.as_ref();
            let c = Checkpoint::resume_keyed(&s.path, &job.name, job.subproblems, job.width, key)
                .map_err(|e| match e {
                nqueens::checkpoint::CheckpointError::Io { .. } => Failure::Other(e.to_string()),
                e => Failure::Usage(e.to_string()),
            })?;
            check_sums(job, &c, &s.path)?;
            // A first save now: an unwritable path fails before any work.
            save(&c, s)?;
            c
        }
        None => Checkpoint::new(job.name.clone(), job.subproblems, job.width),
    };
    let pending = checkpoint.pending();
    let bar = bar(&checkpoint);
    let state = Mutex::new(State {
        checkpoint,
        dirty: false,
        ended: false,
        stopped: None,
        error: None,
    });
    let stop = AtomicBool::new(false);
    let finished = (Mutex::new(false), Condvar::new());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .build()
        .map_err(|e| Failure::Other(format!("could not build the thread pool: {e}")))?;
    std::thread::scope(|scope| {
        scope.spawn(|| watch(job, cancel, &state, &stop, &finished, bar.as_ref()));
        pool.install(|| {
            pending.par_iter().with_max_len(1).for_each(|&i| {
                if stop.load(Ordering::Relaxed) || cancel.is_cancelled() {
                    return;
                }
                let outcome = (job.count)(i);
                let mut s = lock(&state);
                match outcome {
                    Ok(Unit::Counted(values)) => match s.checkpoint.record(i, &values) {
                        Ok(()) => {
                            s.dirty = true;
                            if let Some(bar) = &bar {
                                bar.inc(1);
                            }
                        }
                        Err(e) => {
                            s.error.get_or_insert(Failure::Other(e.to_string()));
                            stop.store(true, Ordering::Relaxed);
                        }
                    },
                    Ok(Unit::Stopped(why)) => {
                        s.stopped.get_or_insert(why);
                        stop.store(true, Ordering::Relaxed);
                    }
                    Err(e) => {
                        s.error.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        });
        *lock(&finished.0) = true;
        finished.1.notify_all();
    });
    // The watcher has returned, so it is not reporting a stop: the end is ours.
    let mut s = lock(&state);
    s.ended = true;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(e) = s.error.take() {
        return Err(e);
    }
    if let Some(saving) = &job.saving {
        save(&s.checkpoint, saving)?;
        // A plausible forged checkpoint shows at the end, in the total.
        check_sums(job, &s.checkpoint, &saving.path)?;
    }
    if s.checkpoint.is_complete() {
        return Ok(Ended::Complete(s.checkpoint.sums().to_vec()));
    }
    let why = s
        .stopped
        .clone()
        .unwrap_or_else(|| "interrupted by a signal".to_string());
    csp_cli::try_outln!("{}", partial_line(job, &s.checkpoint, &why))?;
    Ok(Ended::Stopped)
}

/// Saves the checkpoint every `interval` while it changes, and on a signal
/// saves, prints the partial result and ends the process.
fn watch(
    job: &Job<'_>,
    cancel: &CancelFlag,
    state: &Mutex<State>,
    stop: &AtomicBool,
    finished: &(Mutex<bool>, Condvar),
    bar: Option<&ProgressBar>,
) {
    let mut last_save = Instant::now();
    let mut done = lock(&finished.0);
    loop {
        done = match finished.1.wait_timeout(done, Duration::from_millis(20)) {
            Ok((guard, _)) => guard,
            Err(poisoned) => poisoned.into_inner().0,
        };
        if *done {
            return;
        }
        if cancel.is_cancelled() {
            let mut s = lock(state);
            s.ended = true;
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            let saved = job
                .saving
                .as_ref()
                .map(|saving| save(&s.checkpoint, saving));
            if let Some(Err(Failure::Other(e) | Failure::Usage(e))) = saved {
                csp_cli::errln!("error: {e}");
            }
            csp_cli::outln!(
                "{}",
                partial_line(job, &s.checkpoint, "interrupted by a signal")
            );
            std::process::exit(1);
        }
        let Some(saving) = &job.saving else { continue };
        if last_save.elapsed() < saving.interval {
            continue;
        }
        // Save a copy, so that the workers need not wait for the disk.
        let copy = {
            let mut s = lock(state);
            if !s.dirty || s.ended {
                continue;
            }
            s.dirty = false;
            s.checkpoint.clone()
        };
        if let Err(e) = save(&copy, saving) {
            // Counting on without the checkpoint asked for would risk the
            // work it was meant to keep: stop and report (status 1).
            lock(state).error.get_or_insert(e);
            stop.store(true, Ordering::Relaxed);
        }
        last_save = Instant::now();
    }
}

/// `at least 1234 (incomplete: interrupted by a signal; 40 of 871 subproblems
/// done, saved in ckpt.txt)`.
fn partial_line(job: &Job<'_>, c: &Checkpoint, why: &str) -> String {
    let saved = match &job.saving {
        Some(s) => format!(", saved in {}", s.path.display()),
        None => String::new(),
    };
    format!(
        "at least {} (incomplete: {why}; {} of {} subproblems done{saved})",
        c.sums()[0],
        c.finished(),
        c.subproblems()
    )
}

/// Checks the sums of a checkpoint read back against what `n` queens can have
/// ([`nqueens::bounds::check_counts`]): a forged file is bad input (status 2).
fn check_sums(job: &Job<'_>, c: &Checkpoint, path: &std::path::Path) -> Result<(), Failure> {
    let sums = c.sums();
    let unique = (job.width == 2).then(|| sums[1]);
    let whole = job.whole && c.is_complete();
    nqueens::bounds::check_counts(job.n, sums[0], unique, whole).map_err(|reason| {
        Failure::Usage(
            nqueens::checkpoint::CheckpointError::Impossible {
                path: path.to_path_buf(),
                reason,
            }
            .to_string(),
        )
    })
}

fn save(c: &Checkpoint, saving: &Saving) -> Result<(), Failure> {
    c.save_keyed(&saving.path, saving.key.as_ref())
        .map_err(|e| {
            Failure::Other(format!(
                "cannot write checkpoint '{}': {e}",
                saving.path.display()
            ))
        })
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The progress line: finished subproblems, time spent, time left.
const BAR: &str = "{bar:30} {pos}/{len} subproblems, {elapsed} elapsed, about {eta} left";

/// A bar of finished subproblems with the time left, on a terminal only.
fn bar(c: &Checkpoint) -> Option<ProgressBar> {
    if !progress::wanted() {
        return None;
    }
    let bar = ProgressBar::new(c.subproblems() as u64);
    if let Ok(style) = ProgressStyle::with_template(BAR) {
        bar.set_style(style);
    }
    bar.set_position(c.finished() as u64);
    bar.reset_eta();
    bar.enable_steady_tick(Duration::from_millis(250));
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_template_is_valid() {
        assert!(ProgressStyle::with_template(BAR).is_ok());
    }

    #[test]
    fn a_partial_line_names_the_work_done_and_the_file() {
        let count = |_: usize| Ok(Unit::Counted(vec![1]));
        let job = Job {
            name: "n=8 part=1/1 method=bitboard".into(),
            subproblems: 5,
            width: 1,
            n: 8,
            whole: true,
            threads: 1,
            saving: Some(Saving {
                path: PathBuf::from("q.ckpt"),
                interval: Duration::from_secs(5),
                key: None,
            }),
            count: &count,
        };
        let mut c = Checkpoint::new(job.name.clone(), 5, 1);
        c.record(1, &[40]).unwrap();
        assert_eq!(
            partial_line(&job, &c, "interrupted by a signal"),
            "at least 40 (incomplete: interrupted by a signal; 1 of 5 subproblems done, saved in q.ckpt)"
        );
    }
}
