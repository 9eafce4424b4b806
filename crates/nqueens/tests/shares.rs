//! Split counts through the built binary: GNU parallel runs the K shares of every method, `kill -9` at random moments never changes a checkpointed count, SIGTERM saves, a checkpoint of another count is refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use nqueens::checkpoint::Checkpoint;

const BIN: &str = env!("CARGO_BIN_EXE_nqueens");

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nqueens-shares-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// (status, stdout, stderr)
fn run(args: &[&str]) -> (i32, String, String) {
    let out: Output = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

// -------------------------------------------------------------- GNU parallel

/// The recipe of docs/cluster.md, run on this machine: K = 16 shares through
/// GNU parallel, then `nqueens merge`.
#[cfg(unix)]
#[test]
fn gnu_parallel_runs_sixteen_shares_of_every_method() {
    if Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_err()
    {
        eprintln!(
            "skipped: GNU parallel is not installed (apt-get install parallel); CI installs it"
        );
        return;
    }
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/parallel/nqueens-shares.sh");
    let cases: [(&str, &[&str], &str); 3] = [
        ("14", &[], "365596\n"),
        (
            "14",
            &["--method", "symmetry"],
            "365596 solutions, 45752 unique up to rotation and reflection\n",
        ),
        ("10", &["--method", "engine"], "724\n"),
    ];
    for (i, (n, options, expected)) in cases.into_iter().enumerate() {
        let dir = temp_dir(&format!("parallel-{i}"));
        let _cleanup = TempDir(dir.clone());
        let out = Command::new("bash")
            .arg(&script)
            .args([n, "16"])
            .args(options)
            .env("NQUEENS", BIN)
            .env("OUT", &dir)
            .env("JOBS", "2")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{n} {options:?}: {stderr}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{options:?}"
        );
        for part in 1..=16 {
            let line = std::fs::read_to_string(dir.join(format!("share-{part}.txt"))).unwrap();
            assert!(
                line.starts_with(&format!("nqueens-partial n={n} part={part}/16 method=")),
                "{line}"
            );
        }
        // Rerunning skips the finished shares and merges again.
        let again = Command::new("bash")
            .arg(&script)
            .args([n, "16"])
            .args(options)
            .env("NQUEENS", BIN)
            .env("OUT", &dir)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(again.stdout).unwrap(), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

// ------------------------------------------------------------ random kill -9

/// A small deterministic generator for the kill times (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % bound
    }
}

/// Runs `count` with a checkpoint and kills it with SIGKILL after a random
/// 20-400 ms, up to three times per seed, then lets it finish: the result must
/// be `expected` whatever moment the kills hit. Returns how many of the runs
/// resumed from a checkpoint with some but not all subproblems done.
fn kill_and_resume(name: &str, args: &[&str], expected: &str) -> usize {
    let mut resumed_mid_way = 0;
    for seed in [0x9e37_79b9_7f4a_7c15, 42, 2026] {
        let dir = temp_dir(&format!("kill-{name}-{seed}"));
        let _cleanup = TempDir(dir.clone());
        let file = dir.join("count.ckpt");
        let file_arg = file.to_str().unwrap();
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--checkpoint", file_arg, "--checkpoint-interval", "20ms"]);
        let mut rng = Rng(seed);
        let mut last_finished = 0;
        for _ in 0..3 {
            let mut child = Command::new(BIN)
                .args(&all)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let deadline = Instant::now() + Duration::from_millis(20 + rng.below(380));
            let mut exited = false;
            while Instant::now() < deadline {
                if child.try_wait().unwrap().is_some() {
                    exited = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            if !exited {
                child.kill().unwrap(); // SIGKILL
            }
            child.wait().unwrap();
            // Whatever the moment, the file is a whole checkpoint (or none yet).
            if let Ok(text) = std::fs::read_to_string(&file) {
                let c: Checkpoint = text.parse().unwrap();
                assert!(c.finished() >= last_finished, "progress went back");
                last_finished = c.finished();
                if c.finished() > 0 && !c.is_complete() {
                    resumed_mid_way += 1;
                }
            }
            if exited {
                break;
            }
        }
        let (status, stdout, stderr) = run(&all);
        assert_eq!(
            (status, stdout.as_str()),
            (0, expected),
            "seed {seed}: {stderr}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    resumed_mid_way
}

#[test]
fn killed_bitboard_counts_resume_to_the_exact_total() {
    // A000170(15); about half a second on one thread.
    let mid_way = kill_and_resume("bitboard", &["count", "15", "--threads", "1"], "2279184\n");
    assert!(
        mid_way > 0,
        "no kill landed mid-count: make the count longer"
    );
}

#[test]
fn killed_symmetry_counts_resume_to_the_exact_totals() {
    let mid_way = kill_and_resume(
        "symmetry",
        &["count", "16", "--method", "symmetry", "--threads", "2"],
        "14772512 solutions, 1846955 unique up to rotation and reflection\n",
    );
    assert!(
        mid_way > 0,
        "no kill landed mid-count: make the count longer"
    );
}

#[test]
fn killed_engine_counts_and_shares_resume_to_the_exact_total() {
    // A000170(13) = 73712, with forward checking: about half a second.
    let whole = ["count", "13", "--pruning", "fc"];
    let mid_way = kill_and_resume("engine", &whole, "73712\n");
    // A share resumes to the line an uninterrupted share prints.
    let share = |part: &str| {
        let (status, stdout, stderr) = run(&[&whole[..], &["--part", part]].concat());
        assert_eq!(status, 0, "{stderr}");
        stdout
    };
    let (first, second) = (share("1/2"), share("2/2"));
    let args = [&whole[..], &["--part", "1/2"]].concat();
    let share_mid_way = kill_and_resume("engine-share", &args, &first);
    let dir = temp_dir("engine-merge");
    let _cleanup = TempDir(dir.clone());
    let file = dir.join("shares.txt");
    std::fs::write(&file, format!("{first}{second}")).unwrap();
    assert_eq!(run(&["merge", file.to_str().unwrap()]).1, "73712\n");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        mid_way + share_mid_way > 0,
        "no kill landed mid-count: make the count longer"
    );
}

// ------------------------------------------------------------------ SIGTERM

/// A scheduler's SIGTERM saves the checkpoint at once (the interval here is
/// an hour), reports the partial count with status 1, and the rerun finishes.
#[cfg(unix)]
#[test]
fn sigterm_saves_the_checkpoint_and_the_rerun_finishes() {
    let dir = temp_dir("sigterm");
    let _cleanup = TempDir(dir.clone());
    let file = dir.join("c.ckpt");
    let f = file.to_str().unwrap();
    let args = [
        "count",
        "15",
        "--threads",
        "1",
        "--checkpoint",
        f,
        "--checkpoint-interval",
        "1h",
    ];
    let child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first save (the empty checkpoint), then some work.
    let started = Instant::now();
    while !file.exists() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(150));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let c: Checkpoint = std::fs::read_to_string(&file).unwrap().parse().unwrap();
    if out.status.code() == Some(0) {
        // The machine was fast enough to finish first: nothing to check.
        assert_eq!(stdout, "2279184\n");
    } else {
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        let expected = format!(
            "at least {} (incomplete: interrupted by a signal; {} of {} subproblems done, saved in {f})\n",
            c.sums()[0],
            c.finished(),
            c.subproblems()
        );
        assert_eq!(stdout, expected);
        assert!(c.finished() > 0, "the signal's save recorded nothing");
    }
    assert_eq!(run(&args), (0, "2279184\n".into(), String::new()));
    std::fs::remove_dir_all(&dir).unwrap();
}

// ------------------------------------------------------- mismatched checkpoints

/// Bad input: exactly one line on standard error, nothing on standard output, status 2.
fn refused(args: &[&str], message: &str) {
    let (status, stdout, stderr) = run(args);
    assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}");
}

#[test]
fn a_checkpoint_of_another_count_or_version_is_refused() {
    let dir = temp_dir("mismatch");
    let _cleanup = TempDir(dir.clone());
    let file = dir.join("c.ckpt");
    let f = file.to_str().unwrap();
    assert_eq!(run(&["count", "10", "--checkpoint", f]).1, "724\n");
    // The same command again reads the finished checkpoint.
    assert_eq!(run(&["count", "10", "--checkpoint", f]).1, "724\n");
    let job = "n=10 part=1/1 method=bitboard";
    let other = |what: &str| {
        format!(
            "checkpoint '{f}' is for {job}, not {what} (use another file, or delete it to start over)"
        )
    };
    refused(
        &["count", "11", "--checkpoint", f],
        &other("n=11 part=1/1 method=bitboard"),
    );
    refused(
        &["count", "10", "--method", "symmetry", "--checkpoint", f],
        &other("n=10 part=1/1 method=symmetry"),
    );
    refused(
        &["count", "10", "--part", "1/2", "--checkpoint", f],
        &other("n=10 part=1/2 method=bitboard"),
    );
    refused(
        &["count", "10", "--pruning", "fc", "--checkpoint", f],
        &other("n=10 part=1/1 method=engine model=global strategy=fc"),
    );
    // Another program version: the subproblems might differ.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c: Checkpoint = text.parse().unwrap();
    c.version = "0.0.1".into();
    std::fs::write(&file, c.to_string()).unwrap();
    refused(
        &["count", "10", "--checkpoint", f],
        &format!(
            "checkpoint '{f}' was written by nqueens 0.0.1, this is {} (finish the count with that version, or delete the file to start over)",
            nqueens::checkpoint::PROGRAM_VERSION
        ),
    );
    std::fs::write(&file, "nqueens-checkpoint format=7 program=9.9.9\n").unwrap();
    refused(
        &["count", "10", "--checkpoint", f],
        &format!("checkpoint '{f}' has format 7; this program reads format 1"),
    );
    std::fs::write(&file, text.replace("sums 724", "sums 725")).unwrap();
    refused(
        &["count", "10", "--checkpoint", f],
        &format!(
            "checkpoint '{f}' is not a valid checkpoint: the checksum does not match (the file was damaged or edited)"
        ),
    );
    std::fs::write(&file, "92\n").unwrap();
    refused(
        &["count", "10", "--checkpoint", f],
        &format!(
            "checkpoint '{f}' is not a valid checkpoint: the first line is not `nqueens-checkpoint ...`"
        ),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_checkpoint_fails_before_counting() {
    let (status, stdout, stderr) = run(&["count", "10", "--checkpoint", "/nonexistent/dir/c.ckpt"]);
    assert_eq!((status, stdout.as_str()), (1, ""));
    assert!(
        stderr.starts_with("error: cannot write checkpoint '/nonexistent/dir/c.ckpt': "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

#[test]
fn shares_of_every_method_print_their_method_and_merge() {
    for (method, expected) in [
        ("bitboard", "724\n"),
        (
            "symmetry",
            "724 solutions, 92 unique up to rotation and reflection\n",
        ),
        ("engine", "724\n"),
    ] {
        let lines: String = (1..=3)
            .map(|i| {
                let (status, stdout, stderr) = run(&[
                    "count",
                    "10",
                    "--method",
                    method,
                    "--part",
                    &format!("{i}/3"),
                ]);
                assert_eq!(status, 0, "{stderr}");
                assert!(stdout.contains(&format!(" method={method} ")), "{stdout}");
                stdout
            })
            .collect();
        let dir = temp_dir(&format!("merge-{method}"));
        let _cleanup = TempDir(dir.clone());
        let file = dir.join("shares.txt");
        std::fs::write(&file, &lines).unwrap();
        assert_eq!(
            run(&["merge", file.to_str().unwrap()]).1,
            expected,
            "{method}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // The engine's line names the model and strategy, which must agree.
    let a = run(&["count", "8", "--pruning", "fc", "--part", "1/2"]).1;
    let b = run(&["count", "8", "--pruning", "check", "--part", "2/2"]).1;
    assert_eq!(a.split(' ').nth(4), Some("model=global"));
    let dir = temp_dir("merge-strategies");
    let _cleanup = TempDir(dir.clone());
    let file = dir.join("shares.txt");
    std::fs::write(&file, format!("{a}{b}")).unwrap();
    refused(
        &["merge", file.to_str().unwrap()],
        "partial counts from different methods: method=engine model=global strategy=fc and method=engine model=global strategy=check",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Boards from the empty one up: shares of every method merge to A000170
/// (and A002562), including shares with nothing to count.
#[test]
fn small_boards_split_and_merge_exactly() {
    const TOTAL: [u64; 8] = [1, 1, 0, 0, 2, 10, 4, 40];
    const UNIQUE: [u64; 8] = [1, 1, 0, 0, 1, 2, 1, 6];
    let dir = temp_dir("small");
    let _cleanup = TempDir(dir.clone());
    let file = dir.join("shares.txt");
    for method in ["bitboard", "symmetry", "engine"] {
        for n in 0..TOTAL.len() {
            for parts in [1, 2, 5] {
                let lines: String = (1..=parts)
                    .map(|i| {
                        let share = format!("{i}/{parts}");
                        let args = [
                            "count",
                            &n.to_string(),
                            "--method",
                            method,
                            "--part",
                            &share,
                        ];
                        let (status, stdout, stderr) = run(&args);
                        assert_eq!(status, 0, "{args:?}: {stderr}");
                        stdout
                    })
                    .collect();
                std::fs::write(&file, lines).unwrap();
                let expected = if method == "symmetry" {
                    format!(
                        "{} solutions, {} unique up to rotation and reflection\n",
                        TOTAL[n], UNIQUE[n]
                    )
                } else {
                    format!("{}\n", TOTAL[n])
                };
                let merged = run(&["merge", file.to_str().unwrap()]);
                assert_eq!(merged.1, expected, "{method} n={n} K={parts}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
