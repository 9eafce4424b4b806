//! `nqueens explore` in a real browser: headless Chromium driven over WebDriver
//! (chromedriver on a free localhost port; nothing else is reached).
//!
//! The page for 6-queens is opened from disk; Forward is pressed k times for
//! several k, and the counters and every square's `data-state` are checked
//! against csp-core's `GridState::at` on the same trace (read back from the
//! page); Back restores earlier steps; side by side, both boards follow
//! `trace::stops`; a link with `#step=K` opens at that step; the page fits a
//! 390 × 844 phone screen; the browser log has no error. The screenshot it
//! takes is `docs/img/explorer.png` when `CSP_UPDATE_SCREENSHOT=1` (see
//! `scripts/explorer-screenshot.sh`).
//!
//! Skipped, with the reason printed, where no Chromium and chromedriver are
//! installed (`.ci/run` installs them).

mod webdriver;

use std::path::{Path, PathBuf};
use std::process::Command;

use csp_trace::{Advance, GridState, Trace, stops};
use nqueens::{Queens, Variant};
use serde_json::{Value, json};
use webdriver::{Browser, find_browser};

const N: usize = 6;

/// The traces and run names stored in the page.
fn traces_in(html: &str) -> Vec<(String, Trace)> {
    let mut out = Vec::new();
    for i in 0.. {
        let Some(head) = block(html, &format!("csp-run-{i}")) else {
            break;
        };
        let head: Value = serde_json::from_str(head).unwrap();
        let lines = block(html, &format!("csp-trace-{i}")).unwrap();
        let trace = Trace::from_json_lines(lines).unwrap();
        out.push((head["name"].as_str().unwrap().to_string(), trace));
    }
    out
}

fn block<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    let open = html.find(&format!("id=\"{id}\">"))?;
    let start = open + id.len() + 6;
    let end = start + html[start..].find("</script>")?;
    Some(&html[start..end])
}

/// What one panel shows: counters and `(row, col, state)` for every square.
#[derive(Debug, PartialEq)]
struct Shown {
    counters: Vec<u64>,
    squares: Vec<(usize, usize, String)>,
}

const READ_PANEL: &str = r#"
const panel = document.querySelector('[data-panel="' + arguments[0] + '"]');
if (!panel) return null;
const names = ["tried", "accepted", "rejected", "pruned", "backtracks", "solutions"];
return {
  counters: names.map(n => Number(panel.querySelector('[data-testid="' + n + '"]').textContent)),
  squares: Array.from(panel.querySelectorAll('[data-testid="board"] [data-testid="square"]'))
    .map(s => [Number(s.dataset.row), Number(s.dataset.col), s.dataset.state]),
  step: document.querySelector('[data-testid="step"]').textContent,
  hash: location.hash,
};"#;

fn read_panel(b: &Browser, tag: &str) -> (Shown, String, String) {
    let v = b.execute(READ_PANEL, json!([tag]));
    assert!(!v.is_null(), "no panel {tag}");
    let counters = v["counters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    let squares = v["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s[0].as_u64().unwrap() as usize,
                s[1].as_u64().unwrap() as usize,
                s[2].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (
        Shown { counters, squares },
        v["step"].as_str().unwrap().to_string(),
        v["hash"].as_str().unwrap().to_string(),
    )
}

/// What the page must show after `k` steps of `trace`, computed in Rust.
fn expected(trace: &Trace, rows: &[usize], k: usize) -> Shown {
    let s = GridState::at(trace, k);
    let sum = s.summary;
    let mut squares = Vec::new();
    for (row, &var) in rows.iter().enumerate() {
        for col in 0..N {
            let state = match s.cell(var, col as csp_core::Value) {
                csp_trace::CellState::Assigned => "queen",
                other => other.as_str(),
            };
            squares.push((row, col, state.to_string()));
        }
    }
    Shown {
        counters: vec![
            sum.tried,
            sum.accepted,
            sum.rejected,
            sum.pruned,
            sum.backtracks,
            sum.solutions,
        ],
        squares,
    }
}

fn page(dir: &Path) -> (PathBuf, String) {
    let path = dir.join("q6.html");
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["explore", "6", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&path).unwrap();
    (path, html)
}

#[test]
fn the_page_is_one_file_with_no_network_reference() {
    let dir = tempdir("file");
    let (_, html) = page(&dir);
    for banned in [
        "http://",
        "https://",
        "<script src",
        "<link rel=\"stylesheet\"",
        "@import",
        "url(",
    ] {
        assert!(!html.contains(banned), "the page contains {banned}");
    }
    let runs = traces_in(&html);
    let names: Vec<&str> = runs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["check", "fc", "mac"]);
    // The traces are the searches themselves: check tries more than fc, fc more than mac.
    let tried: Vec<u64> = runs.iter().map(|(_, t)| t.summary().tried).collect();
    assert!(tried[0] > tried[1] && tried[1] >= tried[2], "{tried:?}");
    // The three strategies share one model description.
    assert_eq!(html.matches("id=\"csp-model-").count(), 1);
    // With the default --limit-events, even a large board stays under 5 MB.
    let big = dir.join("q100.html");
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["explore", "100", "--all", "-o"])
        .arg(&big)
        .output()
        .unwrap();
    assert!(out.status.success());
    let size = std::fs::metadata(&big).unwrap().len();
    assert!(size < 5_000_000, "{size} bytes");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn explore_refuses_the_dedicated_method() {
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["explore", "6", "--strategies", "check,dedicated"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: 'dedicated' is the dedicated method"),
        "{err}"
    );
}

#[test]
fn the_page_replays_the_trace_in_a_real_browser() {
    let Some(found) = find_browser() else {
        eprintln!(
            "skipped: no Chromium with chromedriver found (install the chromium and \
             chromium-driver packages, or set CHROME and CHROMEDRIVER)"
        );
        return;
    };
    let dir = tempdir("browser");
    let (path, html) = page(&dir);
    let runs = traces_in(&html);
    let queens = Queens::new(N, Variant::Pairwise).unwrap();
    let rows: Vec<usize> = queens.rows().iter().map(|v| v.index()).collect();
    let b =
        Browser::start(&found, &dir).unwrap_or_else(|e| panic!("cannot start the browser: {e}"));
    let url = format!("file://{}", path.display());
    b.set_viewport(1200, 1000);
    b.open(&url);

    // A 6 x 6 board and the counters; the page opens on the first decision
    // (step 1), with forward checking as strategy B beside it.
    let (shown, step, _) = read_panel(&b, "a");
    assert_eq!(shown.squares.len(), N * N);
    let (name_a, trace_a) = &runs[0];
    assert_eq!(name_a, "check");
    let total = csp_trace::steps(trace_a).len();
    assert_eq!(step, format!("1 / {total}"));
    assert_eq!(shown, expected(trace_a, &rows, 1));
    let (shown_b, _, _) = read_panel(&b, "b");
    assert_eq!(runs[1].0, "fc");
    assert_eq!(shown_b, expected(&runs[1].1, &rows, 1));
    b.open(&format!("{url}#step=0&a=0&b=-1"));

    // Forward k times, for several k; then Back.
    let mut at = 0;
    for k in [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144] {
        b.click_n("step-forward", k - at);
        at = k;
        let (shown, step, hash) = read_panel(&b, "a");
        assert_eq!(shown, expected(trace_a, &rows, k), "check at step {k}");
        assert_eq!(step, format!("{k} / {total}"));
        assert!(hash.contains(&format!("step={k}")), "{hash}");
    }
    let seen: std::collections::BTreeSet<&str> = (0..=at)
        .flat_map(|k| expected(trace_a, &rows, k).squares)
        .map(|s| match s.2.as_str() {
            "queen" => "queen",
            "tried" => "tried",
            _ => "other",
        })
        .collect();
    assert!(seen.contains("queen") && seen.contains("tried"));
    // The walk went through dead ends and backtracks.
    let walked = GridState::at(trace_a, at).summary;
    assert!(walked.rejected > 0 && walked.backtracks > 0, "{walked:?}");
    for back in [1, 4, 20] {
        b.click_n("step-back", back);
        at -= back;
        let (shown, _, _) = read_panel(&b, "a");
        assert_eq!(
            shown,
            expected(trace_a, &rows, at),
            "check back at step {at}"
        );
    }

    // The keyboard: → forward, ← back.
    b.keys("\u{E014}\u{E014}\u{E014}\u{E012}");
    at += 2;
    let (shown, step, _) = read_panel(&b, "a");
    assert_eq!(shown, expected(trace_a, &rows, at), "after the arrow keys");
    assert!(step.starts_with(&format!("{at} / ")));

    // Play advances on its own; pressing it again pauses.
    b.click_n("play", 1);
    std::thread::sleep(std::time::Duration::from_millis(1300));
    b.click_n("play", 1);
    let (_, step, _) = read_panel(&b, "a");
    let played: usize = step.split(' ').next().unwrap().parse().unwrap();
    assert!(played >= at + 2, "play moved from {at} to {played}");
    std::thread::sleep(std::time::Duration::from_millis(600));
    let (shown, step, hash) = read_panel(&b, "a");
    assert!(
        step.starts_with(&format!("{played} / ")),
        "paused at {played}: {step}"
    );
    assert!(hash.starts_with(&format!("#step={played}&")), "{hash}");
    assert_eq!(shown, expected(trace_a, &rows, played));

    // Clicking a node of the tree jumps to the step that tried it.
    let third = b.execute(
        r#"const p = CspExplore.app.panels[0], n = p.run.nodes[2], c = p.canvas;
           return [p.X(n.x) - c.clientWidth / 2, p.Y(n.depth) - c.clientHeight / 2];"#,
        json!([]),
    );
    b.click_at(
        "tree",
        third[0].as_f64().unwrap(),
        third[1].as_f64().unwrap(),
    );
    let third_try = trace_a
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, csp_trace::TraceEvent::Try { .. }))
        .nth(2)
        .unwrap()
        .0;
    let k = csp_trace::steps(trace_a)
        .iter()
        .position(|r| r.contains(&third_try))
        .unwrap()
        + 1;
    let (shown, step, _) = read_panel(&b, "a");
    assert!(
        step.starts_with(&format!("{k} / ")),
        "tree click: {step}, expected {k}"
    );
    assert_eq!(shown, expected(trace_a, &rows, k));

    // Next dead end lands on a step where the rejected counter has just grown.
    b.click_n("next-dead-end", 1);
    let (shown, step, _) = read_panel(&b, "a");
    let k: usize = step.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(shown, expected(trace_a, &rows, k));
    assert!(GridState::at(trace_a, k).rejected);

    // Side by side: B = fc, together by node; both follow `stops`.
    b.select("strategy-b", "1");
    b.select("sync", "node");
    b.open(&format!("{url}#step=0&a=0&b=1&by=node"));
    let (name_b, trace_b) = &runs[1];
    assert_eq!(name_b, "fc");
    let stops_a = stops(trace_a, Advance::Node);
    let stops_b = stops(trace_b, Advance::Node);
    let mut at = 0;
    for t in [1, 2, 4, 7, 12] {
        b.click_n("step-forward", t - at);
        at = t;
        let (a, _, _) = read_panel(&b, "a");
        let (bb, _, _) = read_panel(&b, "b");
        let ka = stops_a[t.min(stops_a.len() - 1)];
        let kb = stops_b[t.min(stops_b.len() - 1)];
        assert_eq!(
            a,
            expected(trace_a, &rows, ka),
            "check, side by side, t = {t}"
        );
        assert_eq!(
            bb,
            expected(trace_b, &rows, kb),
            "fc, side by side, t = {t}"
        );
        // In step by node: each board has tried as many nodes as presses (until it ends).
        assert_eq!(a.counters[0], GridState::at(trace_a, ka).summary.tried);
    }
    b.click_n("step-back", 3);
    let (a, _, _) = read_panel(&b, "a");
    let (bb, _, _) = read_panel(&b, "b");
    assert_eq!(a, expected(trace_a, &rows, stops_a[9]));
    assert_eq!(
        bb,
        expected(trace_b, &rows, stops_b[9.min(stops_b.len() - 1)])
    );

    // A link opens at its step, with its strategies.
    b.open(&format!("{url}#step=5&a=2"));
    let (name_c, trace_c) = &runs[2];
    assert_eq!(name_c, "mac");
    let (c, step, _) = read_panel(&b, "a");
    assert!(step.starts_with("5 / "));
    assert_eq!(c, expected(trace_c, &rows, 5));

    // The screenshot: side by side, at a step with a dead end on the left.
    // At 1200 x 900 the attacking line of check's dead end (q[2] = 2 on the
    // ↘ diagonal of row 0, the pairwise model) is drawn and on screen.
    b.set_viewport(1200, 900);
    b.open(&format!("{url}#step=14&a=0&b=1"));
    let line = b.execute(
        r#"const l = document.querySelector('[data-panel="a"] .qline');
           const r = l.getBoundingClientRect();
           return {hidden: l.hidden, width: r.width, bottom: r.bottom, right: r.right,
                   title: l.title, inner: window.innerHeight};"#,
        json!([]),
    );
    assert_eq!(line["hidden"], false, "{line}");
    assert!(line["width"].as_f64().unwrap() > 20.0, "{line}");
    assert!(
        line["bottom"].as_f64().unwrap() <= line["inner"].as_f64().unwrap(),
        "the line is below the screen: {line}"
    );
    assert!(
        line["title"]
            .as_str()
            .unwrap()
            .starts_with("same ↘ diagonal as row 0"),
        "{line}"
    );
    let png = b.screenshot();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(shots.join("explorer.png"), &png).unwrap();
    if std::env::var_os("CSP_UPDATE_SCREENSHOT").is_some_and(|v| v == "1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/img/explorer.png");
        std::fs::write(docs, &png).unwrap();
    }

    // A phone: 390 x 844, nothing wider than the screen, the board fully usable.
    b.set_viewport(390, 844);
    b.open(&format!("{url}#step=8"));
    let v = b.execute(
        r#"const board = document.querySelector('[data-testid="board"]').getBoundingClientRect();
           const fwd = document.querySelector('[data-testid="step-forward"]').getBoundingClientRect();
           const sq = document.querySelector('[data-testid="square"]').getBoundingClientRect();
           return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth,
                   left: board.left, right: board.right, sq: sq.width, fwd: fwd.width, fwdRight: fwd.right};"#,
        json!([]),
    );
    assert_eq!(v["inner"], 390, "{v}");
    assert!(
        v["scroll"].as_f64().unwrap() <= 390.0,
        "the page scrolls sideways: {v}"
    );
    assert!(
        v["left"].as_f64().unwrap() >= 0.0 && v["right"].as_f64().unwrap() <= 390.0,
        "{v}"
    );
    assert!(
        v["sq"].as_f64().unwrap() >= 40.0,
        "squares too small to tap: {v}"
    );
    assert!(
        v["fwd"].as_f64().unwrap() > 0.0 && v["fwdRight"].as_f64().unwrap() <= 390.0,
        "{v}"
    );
    b.click_n("step-forward", 1);
    let (shown, _, _) = read_panel(&b, "a");
    assert_eq!(shown, expected(trace_a, &rows, 9));
    std::fs::write(shots.join("explorer-phone.png"), b.screenshot()).unwrap();

    // A recording cut by --limit-events says where it stopped, and the last
    // step is the last one recorded.
    let cut = dir.join("cut.html");
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args([
            "explore",
            "6",
            "--strategies",
            "check",
            "--limit-events",
            "50",
            "-o",
        ])
        .arg(&cut)
        .output()
        .unwrap();
    assert!(out.status.success());
    let cut_html = std::fs::read_to_string(&cut).unwrap();
    let (_, cut_trace) = &traces_in(&cut_html)[0];
    assert!(cut_trace.is_truncated());
    b.set_viewport(1200, 1000);
    b.open(&format!("file://{}", cut.display()));
    b.click_n("next-solution", 1);
    let note = b.execute(
        r#"return document.querySelector('[data-panel="a"] .note').textContent;"#,
        json!([]),
    );
    assert!(
        note.as_str().unwrap().contains("stopped after 50 events"),
        "{note}"
    );
    let last = csp_trace::steps(cut_trace).len();
    let (shown, step, _) = read_panel(&b, "a");
    assert_eq!(step, format!("{last} / {last}"));
    assert_eq!(shown, expected(cut_trace, &rows, last));

    // The generic grid (no painter): variables x values, same states.
    let grid = dir.join("grid.html");
    let queens = Queens::new(N, Variant::Global).unwrap();
    let config = csp_core::Config::textbook().with_pruning(csp_core::Pruning::ArcConsistency);
    let (trace, _) = nqueens::tree::record(&queens, config, false, 10_000).unwrap();
    let run = csp_trace::ExploreRun::new("mac", queens.model(), &trace);
    let html = csp_trace::explore_html(&[run], &Default::default()).unwrap();
    std::fs::write(&grid, html).unwrap();
    // The page opens on step 1.
    b.open(&format!("file://{}", grid.display()));
    b.click_n("step-forward", 5);
    let cells = b.execute(
        r#"return Array.from(document.querySelectorAll('[data-testid="square"]'))
             .map(s => [Number(s.dataset.var), Number(s.dataset.value), s.dataset.state]);"#,
        json!([]),
    );
    let cells = cells.as_array().unwrap();
    assert_eq!(cells.len(), N * N);
    let state = GridState::at(&trace, 6);
    for c in cells {
        let (var, value) = (c[0].as_u64().unwrap() as usize, c[1].as_i64().unwrap());
        assert_eq!(
            c[2].as_str().unwrap(),
            state.cell(var, value).as_str(),
            "grid {var}, {value}"
        );
    }
    std::fs::write(shots.join("explorer-grid.png"), b.screenshot()).unwrap();

    // No error in the browser's console at any point.
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    drop(b);
    let _ = std::fs::remove_dir_all(dir);
}

fn tempdir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir =
        std::env::temp_dir().join(format!("csp-explore-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Conflict-directed backjumping in the page: at every step that ends with a
/// backjump the board shows the path the jump returned to (as `GridState`
/// says), the story names the conflict set, the backjump counter counts, and
/// the tree draws one arc per jump so far.
#[test]
fn the_page_shows_backjumps() {
    let Some(found) = find_browser() else {
        eprintln!("skipped: no Chromium with chromedriver found");
        return;
    };
    let dir = tempdir("backjump");
    let path = dir.join("q6-cbj.html");
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["explore", "6", "--all", "--strategies", "check-cbj", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&path).unwrap();
    let runs = traces_in(&html);
    let (name, trace) = &runs[0];
    assert_eq!(name, "check-cbj");
    let queens = Queens::new(N, Variant::Pairwise).unwrap();
    let rows: Vec<usize> = queens.rows().iter().map(|v| v.index()).collect();
    let steps = csp_trace::steps(trace);
    // The steps (1-based) whose last event is a backjump.
    let jump_steps: Vec<usize> = steps
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            matches!(
                trace.events[r.end - 1],
                csp_trace::TraceEvent::Backjump { .. }
            )
        })
        .map(|(k, _)| k + 1)
        .collect();
    assert!(jump_steps.len() >= 3, "{jump_steps:?}");

    let b =
        Browser::start(&found, &dir).unwrap_or_else(|e| panic!("cannot start the browser: {e}"));
    b.set_viewport(1200, 1000);
    b.open(&format!("file://{}", path.display()));
    for (seen, &k) in jump_steps.iter().enumerate() {
        for at in [k - 1, k] {
            let v = b.execute(
                r#"CspExplore.app.jumpTo(0, arguments[0]);
                   const p = CspExplore.app.panels[0];
                   return [p.whyBox.textContent, p.canvas.getAttribute("data-jumps"),
                           Number(document.querySelector('[data-testid="backjumps"]').textContent)];"#,
                json!([at]),
            );
            let (shown, step, _) = read_panel(&b, "a");
            assert!(step.starts_with(&format!("{at} / ")), "{step}");
            assert_eq!(shown, expected(trace, &rows, at), "at step {at}");
            let jumps_so_far = if at == k { seen + 1 } else { seen };
            assert_eq!(v[1].as_str(), Some(jumps_so_far.to_string().as_str()));
            assert_eq!(
                v[2].as_u64(),
                Some(GridState::at(trace, at).summary.backjumps)
            );
            let story = v[0].as_str().unwrap();
            assert_eq!(
                story.contains("backjump:") && story.contains("conflict set is {"),
                at == k,
                "{story}"
            );
        }
    }
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    drop(b);
    let _ = std::fs::remove_dir_all(dir);
}
