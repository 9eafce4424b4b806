//! Every `nqueens` command in the `sh` blocks of README.md and docs/*.md runs:
//! the quick ones to a successful exit, with `-o FILE` written to a temporary
//! folder. Lines that need a shell (pipes, redirections, variables, line
//! continuations), a key file, or a cluster are left out, and a command still
//! running after 10 s (the full comparisons, the large counts) is stopped and
//! listed as not checked, never passed off as checked.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_nqueens");

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `nqueens` command lines of the `sh` blocks of `files`, as argument lists.
fn commands(files: &[PathBuf]) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut in_sh = false;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with("```") {
                in_sh = !in_sh && (t == "```sh" || t == "```bash");
                continue;
            }
            if !in_sh {
                continue;
            }
            let t = t.split(" #").next().unwrap_or("").trim();
            let rest = t
                .strip_prefix("cargo run --release -p nqueens -- ")
                .or_else(|| t.strip_prefix("cargo run -p nqueens -- "))
                .or_else(|| t.strip_prefix("nqueens "));
            let Some(rest) = rest else { continue };
            if rest.contains(['|', '>', '<', '$', '\\', '~']) || rest.contains("--share-key") {
                continue;
            }
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            out.push((
                format!("{name}: nqueens {rest}"),
                rest.split_whitespace().map(str::to_string).collect(),
            ));
        }
    }
    out
}

#[test]
fn the_documented_nqueens_commands_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let cmds = commands(&files);
    assert!(cmds.len() >= 10, "found only {} commands", cmds.len());
    let dir = std::env::temp_dir().join(format!("nq-doc-commands-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).unwrap();
    let mut slow = Vec::new();
    for (what, mut args) in cmds {
        // Files go to the temporary folder.
        for i in 1..args.len() {
            if args[i - 1] == "-o" || args[i - 1] == "--output" {
                let name = Path::new(&args[i]).file_name().unwrap().to_owned();
                args[i] = dir.join(name).to_string_lossy().into_owned();
            }
        }
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if started.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        match status {
            Some(status) => {
                let err = child.wait_with_output().unwrap().stderr;
                assert!(
                    status.success(),
                    "{what}: {status}\n{}",
                    String::from_utf8_lossy(&err)
                );
            }
            None => slow.push(what),
        }
    }
    eprintln!("not checked (still running after 10 s): {slow:?}");
    let _ = std::fs::remove_dir_all(dir);
}
