//! Runs the Python tests (pytest, `tests/*.py`) on the built extension, in a
//! fresh virtual environment: maturin builds the wheel once per run, pip
//! installs it with pytest and python-constraint2 (and nbclient and ipykernel
//! for the notebook, if they install), and pytest's output shows in
//! `cargo test`'s. Without `python3` or its `venv` module the test prints a
//! note and passes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Writes past libtest's capture, so that the note shows in `cargo test`'s output.
fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "note: {text}");
}

fn python() -> Option<&'static str> {
    ["python3", "python"].into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import sys; assert sys.version_info >= (3, 9)"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Runs `cmd` with its output passed through; panics with `what` if it fails.
fn run(cmd: &mut Command, what: &str) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(status.success(), "{what} failed ({status})");
}

#[test]
fn pytest_passes() {
    let Some(python) = python() else {
        note("python3 (3.9+) not found: the Python tests of csp-python are skipped");
        return;
    };
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let venv = tmp.join("csp-python-venv");
    let _ = std::fs::remove_dir_all(&venv);
    let made = Command::new(python)
        .args(["-m", "venv"])
        .arg(&venv)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        note(
            "`python3 -m venv` failed (on Debian: apt-get install python3-venv): the Python tests of csp-python are skipped",
        );
        return;
    }
    let vpy = venv.join("bin").join("python");
    run(
        Command::new(&vpy).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "maturin>=1.7,<2",
            "pytest",
            "python-constraint2",
        ]),
        "pip install maturin pytest python-constraint2",
    );
    // The notebook's test runs if these install (it skips otherwise).
    let notebook = Command::new(&vpy)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(["nbclient", "nbformat", "ipykernel"])
        .status()
        .is_ok_and(|s| s.success());
    if !notebook {
        note("nbclient/ipykernel did not install: the notebook's test is skipped");
    }
    // Its own target directory (the outer cargo may hold the workspace's
    // lock), kept between runs. The dev profile, optimised a little and without
    // debug information, builds quickly (the test profile would build a test
    // harness, not a library).
    let wheels = tmp.join("csp-python-wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    run(
        Command::new(&vpy)
            .args(["-m", "maturin", "build", "--quiet", "--manifest-path"])
            .arg(crate_dir.join("Cargo.toml"))
            .arg("--out")
            .arg(&wheels)
            .arg("--interpreter")
            .arg(&vpy)
            .env("CARGO_TARGET_DIR", tmp.join("csp-python-build"))
            .env("CARGO_PROFILE_DEV_OPT_LEVEL", "1")
            .env("CARGO_PROFILE_DEV_DEBUG", "0"),
        "maturin build",
    );
    let wheel = std::fs::read_dir(&wheels)
        .expect("maturin wrote no wheel directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin built no wheel");
    run(
        Command::new(&vpy)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
            ])
            .arg(&wheel),
        "pip install the wheel",
    );
    // pytest's output is inherited: its summary shows in cargo test's output.
    let status = Command::new(&vpy)
        .args(["-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir"])
        .arg(crate_dir)
        .arg(crate_dir.join("tests"))
        .current_dir(&tmp)
        .status()
        .expect("cannot start pytest");
    assert!(status.success(), "pytest failed ({status})");
}
