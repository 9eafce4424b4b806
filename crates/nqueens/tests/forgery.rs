//! Checkpoints and share lines that were edited, forged, or are not files at
//! all: each is refused with one line and status 2, never trusted, never a
//! hang or an abort (docs/reliability.md, rows 120 onwards; docs/cluster.md).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nqueens::checkpoint::Checkpoint;
use nqueens::split;

const BIN: &str = env!("CARGO_BIN_EXE_nqueens");

/// The version fields every share line ends with.
const VERSION: &str = concat!("format=2 program=", env!("CARGO_PKG_VERSION"));

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nqueens-forgery-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary with `args`, `stdin` and extra environment variables;
/// returns (status, stdout, stderr). Gives up (panics) after 20 s: a hang.
fn run_env(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin.as_bytes());
    }
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("nqueens {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_env(args, stdin, &[])
}

fn refused(args: &[&str], stdin: &str, message: &str) {
    let (status, stdout, stderr) = run(args, stdin);
    assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}");
}

/// FNV-1a of the checkpoint body, as `nqueens::checkpoint` computes it: a
/// forger can recompute it, which is the point of these tests.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Replaces `from` by `to` in a checkpoint's text and recomputes its checksum.
fn forge(text: &str, from: &str, to: &str) -> String {
    let body_end = text.rfind("checksum ").unwrap();
    let body = text[..body_end].replace(from, to);
    format!("{body}checksum {:016x}\n", fnv(&body))
}

/// The job and subproblem count of `nqueens count 12 --checkpoint` (bitboard).
fn job12() -> (&'static str, usize) {
    let subs = split::subproblems(12, split::SHARE_DEPTH).unwrap().len();
    ("n=12 part=1/1 method=bitboard", subs)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_checkpoint_with_impossible_sums_is_refused() {
    let dir = temp_dir("sums");
    let _cleanup = TempDir(dir.clone());
    let path = dir.join("q.ckpt");
    let (job, subs) = job12();
    let mut forged = Checkpoint::new(job, subs, 1);
    forged.record(0, &[99_999]).unwrap();
    forged.save(&path).unwrap();
    refused(
        &["count", "12", "--checkpoint", s(&path)],
        "",
        &format!(
            "checkpoint '{}' cannot be right: 99999 solutions is more than the 14200 that 12 queens have (delete it to start over)",
            path.display()
        ),
    );
    // A complete checkpoint whose sum is plausible but wrong.
    let mut forged = Checkpoint::new(job, subs, 1);
    for i in 0..subs {
        forged.record(i, &[u64::from(i == 0) * 14_000]).unwrap();
    }
    forged.save(&path).unwrap();
    refused(
        &["count", "12", "--checkpoint", s(&path)],
        "",
        &format!(
            "checkpoint '{}' cannot be right: 14000 solutions in all, but 12 queens have 14200 (OEIS A000170) (delete it to start over)",
            path.display()
        ),
    );
    // Sums with nothing finished.
    let text = Checkpoint::new(job, subs, 1).to_string();
    std::fs::write(&path, forge(&text, "sums 0", "sums 5")).unwrap();
    refused(
        &["count", "12", "--checkpoint", s(&path)],
        "",
        &format!(
            "checkpoint '{}' is not a valid checkpoint: sums without any finished subproblem",
            path.display()
        ),
    );
    // Symmetry: more unique solutions than solutions.
    let subtrees = nqueens::symmetry::subtrees(12).unwrap().len();
    let mut forged = Checkpoint::new("n=12 part=1/1 method=symmetry", subtrees, 2);
    forged.record(0, &[10, 20]).unwrap();
    forged.save(&path).unwrap();
    refused(
        &[
            "count",
            "12",
            "--method",
            "symmetry",
            "--checkpoint",
            s(&path),
        ],
        "",
        &format!(
            "checkpoint '{}' cannot be right: 20 unique solutions is more than the 10 solutions (delete it to start over)",
            path.display()
        ),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_forged_size_is_compared_before_anything_is_allocated() {
    let dir = temp_dir("size");
    let _cleanup = TempDir(dir.clone());
    let path = dir.join("q.ckpt");
    let (job, subs) = job12();
    let text = Checkpoint::new(job, subs, 1).to_string();
    for (huge, shown) in [
        ("100000000000000", "100000000000000"),
        ("99999999999999999999999", "99999999999999999999999"),
    ] {
        let forged = forge(
            &text,
            &format!("subproblems {subs}\n"),
            &format!("subproblems {huge}\n"),
        );
        std::fs::write(&path, forged).unwrap();
        refused(
            &["count", "12", "--checkpoint", s(&path)],
            "",
            &format!(
                "checkpoint '{}' lists {shown} subproblems, this count has {subs}",
                path.display()
            ),
        );
    }
    // The same number of subproblems but two sums each (was "lists 378
    // subproblems, this count has 378").
    std::fs::write(&path, forge(&text, "sums 0", "sums 0 0")).unwrap();
    refused(
        &["count", "12", "--checkpoint", s(&path)],
        "",
        &format!(
            "checkpoint '{}' keeps 2 sums per subproblem, this count keeps 1 (the file was edited)",
            path.display()
        ),
    );
    // Without a job to compare with, the library refuses a huge list too.
    let huge = forge(
        &text,
        &format!("subproblems {subs}\n"),
        "subproblems 100000000000000\n",
    );
    assert_eq!(
        huge.parse::<Checkpoint>().unwrap_err().to_string(),
        "not a valid checkpoint: \"100000000000000\" is not a number of subproblems (at most 268435456)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_folders_are_refused_without_blocking() {
    let dir = temp_dir("fifo");
    let _cleanup = TempDir(dir.clone());
    let fifo = dir.join("f");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    refused(
        &["count", "8", "--checkpoint", s(&fifo)],
        "",
        &format!(
            "checkpoint '{}' is a FIFO, not a regular file: a checkpoint must be a file",
            fifo.display()
        ),
    );
    refused(
        &["count", "8", "--checkpoint", s(&dir)],
        "",
        &format!(
            "checkpoint '{}' is a directory, not a regular file: a checkpoint must be a file",
            dir.display()
        ),
    );
    refused(
        &["merge", s(&fifo)],
        "",
        &format!(
            "'{}' is a FIFO, not a regular file: merge reads files of partial-count lines (use - for a pipe)",
            fifo.display()
        ),
    );
    refused(
        &["count", "8", "--checkpoint", "/dev/null"],
        "",
        "checkpoint '/dev/null' is a device, not a regular file: a checkpoint must be a file",
    );
    // `-` is refused for --checkpoint (it wrote a file named -), and still
    // means standard input for merge.
    refused(
        &["count", "8", "--checkpoint", "-"],
        "",
        "--checkpoint - is refused: a checkpoint must be a file that can be replaced (for a file named -, write ./-)",
    );
    let line = format!("nqueens-partial n=8 part=1/1 method=bitboard count=92 {VERSION}\n");
    assert_eq!(
        run(&["merge", "-"], &line),
        (0, "92\n".into(), String::new())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_linked_checkpoint_replaces_its_target_and_stale_temporary_files_go() {
    let dir = temp_dir("link");
    let _cleanup = TempDir(dir.clone());
    let store = dir.join("store");
    std::fs::create_dir_all(&store).unwrap();
    let target = store.join("real.ckpt");
    let link = dir.join("q.ckpt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    // A save killed by SIGKILL left this (no process has number 4194305).
    let stale = store.join(".real.ckpt.tmp-4194305");
    std::fs::write(&stale, "half a checkpoint").unwrap();
    let (status, stdout, stderr) = run(&["count", "8", "--checkpoint", s(&link)], "");
    assert_eq!((status, stdout.as_str(), stderr.as_str()), (0, "92\n", ""));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .starts_with("nqueens-checkpoint ")
    );
    if Path::new("/proc/self").exists() {
        assert!(!stale.exists());
        assert_eq!(std::fs::read_dir(&store).unwrap().count(), 1);
    }
    // Resuming through the link reads the target.
    let (status, stdout, _) = run(&["count", "8", "--checkpoint", s(&link)], "");
    assert_eq!((status, stdout.as_str()), (0, "92\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn impossible_unversioned_or_mixed_share_lines_are_refused() {
    let share =
        |part: usize, rest: &str| format!("nqueens-partial n=12 part={part}/2 {rest} {VERSION}");
    refused(
        &["merge", "-"],
        &format!("{}\n", share(1, "count=14201")),
        &format!(
            "standard input line 1: not a partial count line (14201 solutions is more than the 14200 that 12 queens have): \"{}\"",
            share(1, "count=14201")
        ),
    );
    refused(
        &["merge", "-"],
        &format!("{}\n", share(1, "method=symmetry count=5 unique=99999")),
        &format!(
            "standard input line 1: not a partial count line (99999 unique solutions is more than the 5 solutions): \"{}\"",
            share(1, "method=symmetry count=5 unique=99999")
        ),
    );
    refused(
        &["merge", "-"],
        &format!("{}\n{}\n", share(1, "count=7000"), share(2, "count=7001")),
        "the shares cannot be right: 14001 solutions in all, but 12 queens have 14200 (OEIS A000170)",
    );
    refused(
        &["merge", "-"],
        "nqueens-partial n=12 part=1/1 method=bitboard count=14200\n",
        &format!(
            "standard input line 1: not a partial count line (no format=: a line written before share format 2, whose split cannot be checked; count the share again with nqueens {}): \"nqueens-partial n=12 part=1/1 method=bitboard count=14200\"",
            env!("CARGO_PKG_VERSION")
        ),
    );
    let older = share(2, "count=7100").replace(env!("CARGO_PKG_VERSION"), "0.0.9");
    refused(
        &["merge", "-"],
        &format!("{}\n{older}\n", share(1, "count=7100")),
        &format!(
            "partial counts from different versions of nqueens: {} and 0.0.9",
            env!("CARGO_PKG_VERSION")
        ),
    );
}

#[test]
fn share_key_signs_lines_and_merge_checks_them() {
    let dir = temp_dir("key");
    let _cleanup = TempDir(dir.clone());
    let key_file = dir.join("key");
    std::fs::write(&key_file, "correct horse battery staple\n").unwrap();
    let env = [("NQ_TEST_KEY", "correct horse battery staple")];
    let mut lines = String::new();
    for part in 1..=2 {
        let part = format!("{part}/2");
        let (status, stdout, stderr) = run_env(
            &[
                "count",
                "10",
                "--part",
                &part,
                "--share-key",
                "env:NQ_TEST_KEY",
            ],
            "",
            &env,
        );
        assert_eq!((status, stderr.as_str()), (0, ""));
        assert!(stdout.contains(&format!(" {VERSION} mac=")), "{stdout}");
        lines.push_str(&stdout);
    }
    // The same key from a file (its trailing newline is not part of it).
    let (status, stdout, stderr) = run(&["merge", "-", "--share-key", s(&key_file)], &lines);
    assert_eq!((status, stdout.as_str(), stderr.as_str()), (0, "724\n", ""));
    // An edited count, a line signed with nothing, a signed line merged without the key.
    let edited = lines.replacen("count=", "count=1", 1);
    let (status, _, stderr) = run(&["merge", "-", "--share-key", s(&key_file)], &edited);
    assert_eq!(
        (status, stderr.as_str()),
        (
            2,
            "error: standard input line 1: mac= does not match (the line was changed, or signed with another key)\n"
        )
    );
    let plain = format!("nqueens-partial n=10 part=1/1 count=724 {VERSION}\n");
    let (status, _, stderr) = run(&["merge", "-", "--share-key", s(&key_file)], &plain);
    assert_eq!(
        (status, stderr.as_str()),
        (
            2,
            "error: standard input line 1: no mac= (the line is not signed with a share key)\n"
        )
    );
    refused(
        &["merge", "-"],
        &lines,
        "standard input line 1: the line is signed (mac=); give --share-key to check it",
    );
    refused(
        &[
            "count",
            "10",
            "--part",
            "1/2",
            "--share-key",
            "env:NQ_TEST_NO_SUCH_KEY",
        ],
        "",
        "the share key variable NQ_TEST_NO_SUCH_KEY is not set",
    );
    std::fs::write(&key_file, "short\n").unwrap();
    refused(
        &["merge", "-", "--share-key", s(&key_file)],
        &lines,
        "the share key has 5 bytes; use at least 16 (for example `head -c 32 /dev/urandom | base64`)",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn share_key_signs_the_checkpoint_too() {
    let dir = temp_dir("keyed-ckpt");
    let _cleanup = TempDir(dir.clone());
    let path = dir.join("q.ckpt");
    let env = [("NQ_TEST_KEY", "correct horse battery staple")];
    let args = [
        "count",
        "12",
        "--part",
        "1/2",
        "--checkpoint",
        s(&path),
        "--share-key",
        "env:NQ_TEST_KEY",
    ];
    let (status, first, stderr) = run_env(&args, "", &env);
    assert_eq!((status, stderr.as_str()), (0, ""));
    let text = std::fs::read_to_string(&path).unwrap();
    let mac_at = text.rfind("mac ").unwrap();
    assert!(text[..mac_at].ends_with('\n') && text[mac_at..].len() == "mac \n".len() + 64);
    // Resumed with the key, the same line.
    assert_eq!(run_env(&args, "", &env), (0, first, String::new()));
    let message = |reason: &str| {
        format!(
            "error: checkpoint '{}' is not a valid checkpoint: {reason}\n",
            path.display()
        )
    };
    // Edited, checksum recomputed, the mac kept: refused.
    let body = &text[..mac_at];
    let sums_line = body.lines().find(|l| l.starts_with("sums ")).unwrap();
    let forged = format!("{}{}", forge(body, sums_line, "sums 1"), &text[mac_at..]);
    std::fs::write(&path, forged).unwrap();
    let (status, _, stderr) = run_env(&args, "", &env);
    assert_eq!(
        (status, stderr),
        (
            2,
            message(
                "the mac line does not match (the file was changed, or saved with another share key)"
            )
        )
    );
    // Signed, resumed without the key; unsigned, resumed with it.
    std::fs::write(&path, &text).unwrap();
    let (status, _, stderr) = run(&args[..6], "");
    assert_eq!(
        (status, stderr),
        (
            2,
            message("it ends in a mac line (saved with a share key): give that key to resume")
        )
    );
    std::fs::write(&path, body).unwrap();
    let (status, _, stderr) = run_env(&args, "", &env);
    assert_eq!(
        (status, stderr),
        (2, message("no mac line (it was saved without a share key)"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
