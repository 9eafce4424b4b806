//! The `xcsp-csp` binary: the competition's lines, `--check`, and one-line
//! errors with their exit statuses.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xcsp-csp"))
}

fn set(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/xcsp3-benchmarks")
        .join(file)
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// A file `name` in a temporary folder of its own; both are removed when it is
/// dropped (also when a test fails).
struct TempFile {
    dir: PathBuf,
    path: PathBuf,
}

impl std::ops::Deref for TempFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn temp(name: &str, bytes: &[u8]) -> TempFile {
    // One folder per call: the tests run in parallel threads of one process.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("xcsp-csp-cli-{}-{k}", std::process::id()));
    let path = dir.join(name);
    let file = TempFile { dir, path };
    std::fs::create_dir_all(&file.dir).unwrap();
    std::fs::write(&file.path, bytes).unwrap();
    file
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn solves_and_the_printed_solution_checks() {
    let file = set("Queens/Queens-8.xml");
    let out = run(&[file.to_str().unwrap()]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\ns SATISFIABLE\n"), "{stdout}");
    assert!(
        stdout.contains("v <instantiation type=\"solution\">\nv   <list> q[] </list>\n"),
        "{stdout}"
    );
    let solution = temp("queens.sol", stdout.as_bytes());
    let check = run(&[
        file.to_str().unwrap(),
        "--check",
        solution.to_str().unwrap(),
    ]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    assert_eq!(
        text(&check.stdout),
        "c solution verified: 3 constraints hold\n"
    );
}

#[test]
fn a_wrong_solution_is_refused_in_one_line() {
    let file = set("Queens/Queens-8.xml");
    let bad = temp(
        "bad.sol",
        b"<instantiation><list> q[] </list><values> 0 0 0 0 0 0 0 0 </values></instantiation>",
    );
    let out = run(&[file.to_str().unwrap(), "--check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("constraint 1 of 3 is violated"), "{err}");
    let short = temp(
        "short.sol",
        b"<instantiation><list> q[0..6] </list><values> 0 0 0 0 0 0 0 </values></instantiation>",
    );
    let out = run(&[file.to_str().unwrap(), "--check", short.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no value for q[7]"));
}

#[test]
fn optimisation_prints_improvements_then_the_optimum() {
    let file = set("GolombRuler/GolombRuler-7.xml");
    let out = run(&[file.to_str().unwrap(), "--stats"]);
    let stdout = text(&out.stdout);
    let o: Vec<&str> = stdout.lines().filter(|l| l.starts_with("o ")).collect();
    assert_eq!(o.last(), Some(&"o 25"), "{stdout}");
    assert!(
        stdout.contains("\ns OPTIMUM FOUND\nv <instantiation type=\"solution\" cost=\"25\">\n"),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("c nodes = ")),
        "{stdout}"
    );
}

#[test]
fn the_time_limit_ends_in_unknown() {
    let file = set("RotatingWorkforce1/RotatingWorkforce1-0103.xml");
    let out = run(&[
        file.to_str().unwrap(),
        "--time-limit",
        "200ms",
        "--restart",
        "none",
    ]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("\ns UNKNOWN\n"));
}

#[test]
fn all_solutions_print_each() {
    let xml = br#"<instance format="XCSP3" type="CSP"><variables><array id="x" size="[2]"> 0..1 </array></variables>
        <constraints><intension> ne(x[0],x[1]) </intension></constraints></instance>"#;
    let file = temp("two.xml", xml);
    let out = run(&[file.to_str().unwrap(), "-a"]);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("v   <values>").count(), 2, "{stdout}");
    assert!(stdout.ends_with("s SATISFIABLE\n"), "{stdout}");
    let one = run(&[file.to_str().unwrap(), "-a", "-n", "1"]);
    assert_eq!(text(&one.stdout).matches("v   <values>").count(), 1);
}

#[test]
fn compressed_instances_are_read() {
    let xml = std::fs::read(set("Queens/Queens-8.xml")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&xml).unwrap();
    let file = temp("q.xml.gz", &gz.finish().unwrap());
    assert!(text(&run(&[file.to_str().unwrap()]).stdout).contains("s SATISFIABLE"));
    let mut lz = Vec::new();
    lzma_rs::lzma_compress(&mut &xml[..], &mut lz).unwrap();
    let file = temp("q.xml.lzma", &lz);
    assert!(text(&run(&[file.to_str().unwrap()]).stdout).contains("s SATISFIABLE"));
}

#[test]
fn bad_input_is_one_line_never_a_panic() {
    let cases: &[(&str, &[u8], i32)] = &[
        ("truncated.xml", b"<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"x\"> 0..", 2),
        ("binary.xml", &[0xff, 0xfe, 0, 1, 2], 2),
        ("empty.xml", b"", 2),
        ("badexpr.xml", b"<instance type=\"CSP\"><variables><var id=\"x\"> 0..2 </var></variables><constraints><intension> foo(x) </intension></constraints></instance>", 2),
        ("unknown.xml", b"<instance type=\"CSP\"><variables><var id=\"x\"> 0..2 </var></variables><constraints><intension> eq(y,1) </intension></constraints></instance>", 2),
        ("huge.xml", b"<instance type=\"CSP\"><variables><array id=\"x\" size=\"[100000][100000]\"> 0..1 </array></variables><constraints/></instance>", 2),
        ("range.xml", b"<instance type=\"CSP\"><variables><array id=\"x\" size=\"[3]\"> 0..1 </array></variables><constraints><allDifferent> x[0..999999999] </allDifferent></constraints></instance>", 2),
        ("precedence.xml", b"<instance type=\"CSP\"><variables><array id=\"x\" size=\"[3]\"> 0..2 </array></variables><constraints><precedence><list> x[] </list><values> 2 2 </values></precedence></constraints></instance>", 2),
        ("set.xml", b"<instance type=\"CSP\"><variables><var id=\"s\" type=\"set\"> </var></variables><constraints/></instance>", 1),
        ("wcsp.xml", b"<instance type=\"WCSP\"><variables/><constraints/></instance>", 1),
    ];
    for (name, bytes, code) in cases {
        let file = temp(name, bytes);
        let out = run(&[file.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(*code), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.starts_with("xcsp-csp: "), "{name}: {err}");
        if *code == 1 {
            assert_eq!(text(&out.stdout), "s UNSUPPORTED\n", "{name}");
            assert!(err.contains("not in XCSP3-core"), "{name}: {err}");
        }
    }
    let out = run(&["/nonexistent/file.xml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["x.xml", "--pruning", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr).lines().count(), 1);
}

#[test]
fn truncated_instances_never_panic() {
    // Every prefix of a few instances, at a stride: an error or an answer.
    for file in [
        "Blackhole/Blackhole-example.xml",
        "BIBD/BIBD-7-7-3-3-1.xml",
        "RCPSP/RCPSP-j030-01-01.xml",
    ] {
        let text = std::fs::read_to_string(set(file)).unwrap();
        for cut in (0..text.len()).step_by(53) {
            let Some(prefix) = text.get(..cut) else {
                continue;
            };
            if let Ok(instance) = csp_xcsp::parse_instance(prefix)
                && let Ok(problem) = csp_xcsp::Problem::new(&instance)
            {
                let _ = csp_xcsp::translate(&problem);
            }
        }
    }
}

#[test]
fn standard_input_solutions_are_checked() {
    let file = set("Sudoku/Sudoku-s13a.xml");
    let out = run(&[file.to_str().unwrap()]);
    let mut child = bin()
        .args([file.to_str().unwrap(), "--check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&out.stdout).unwrap();
    let checked = child.wait_with_output().unwrap();
    assert!(checked.status.success());
}

#[test]
fn ctrl_c_prints_the_best_solution_and_unknown() {
    // 40 all-different values maximising an alternating sum: improving
    // solutions come fast, the proof takes far longer than the test waits.
    let coeffs: Vec<&str> = (0..40)
        .map(|i| if i % 2 == 0 { "1" } else { "-1" })
        .collect();
    let xml = format!(
        "<instance format=\"XCSP3\" type=\"COP\"><variables><array id=\"x\" size=\"[40]\"> 0..40 </array></variables>\
         <constraints><allDifferent> x[] </allDifferent></constraints><objectives><maximize type=\"sum\">\
         <list> x[] </list><coeffs> {} </coeffs></maximize></objectives></instance>",
        coeffs.join(" ")
    );
    let file = temp("ctrlc.xml", xml.as_bytes());
    let child = bin()
        .args([
            file.to_str().unwrap(),
            "--restart",
            "none",
            "--var",
            "input",
            "--pruning",
            "fc",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\ns UNKNOWN\nv <instantiation type=\"solution\" cost=\""),
        "{stdout}"
    );
    let last_o = stdout
        .lines()
        .rfind(|l| l.starts_with("o "))
        .unwrap()
        .to_string();
    assert!(
        stdout.contains(&format!("cost=\"{}\"", &last_o[2..])),
        "{stdout}"
    );
    let solution = temp("ctrlc.sol", stdout.as_bytes());
    let check = run(&[
        file.to_str().unwrap(),
        "--check",
        solution.to_str().unwrap(),
    ]);
    assert!(check.status.success(), "{}", text(&check.stderr));
}
