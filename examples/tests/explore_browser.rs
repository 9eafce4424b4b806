//! `sudoku --explore` in a real browser: headless Chromium over WebDriver (the
//! client is nqueens' test helper). The page of a Sudoku search opens from
//! disk; after k presses of Forward, every candidate of every cell shows the
//! state csp-core's `GridState::at` gives for the same trace, and the browser
//! log has no error. Skipped, with the reason printed, where no Chromium and
//! chromedriver are installed (`.ci/run` installs them).

#[path = "../../crates/nqueens/tests/webdriver/mod.rs"]
mod webdriver;

use std::process::Command;

use csp_trace::{GridState, Trace};
use serde_json::json;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn example(name: &str) -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    dir.join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn the_sudoku_page_replays_the_search_in_a_real_browser() {
    let Some(found) = webdriver::find_browser() else {
        eprintln!(
            "skipped: no Chromium with chromedriver found (install the chromium and \
             chromium-driver packages, or set CHROME and CHROMEDRIVER)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("csp-sudoku-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sudoku.html");
    let out = Command::new(example("sudoku"))
        .args([PUZZLE, "--pruning", "fc", "--explore"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&path).unwrap();
    let start = html.find("id=\"csp-trace-0\">").unwrap() + "id=\"csp-trace-0\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let trace = Trace::from_json_lines(&html[start..end]).unwrap();

    let b = webdriver::Browser::start(&found, &dir).unwrap_or_else(|e| panic!("{e}"));
    b.set_viewport(1000, 1100);
    b.open(&format!("file://{}", path.display()));
    let read = r#"return Array.from(document.querySelectorAll('[data-testid="candidate"]'))
        .map(c => [Number(c.dataset.var), Number(c.dataset.value), c.dataset.state]);"#;
    let squares = b.execute(
        r#"return document.querySelectorAll('[data-testid="board"] [data-testid="square"]').length;"#,
        json!([]),
    );
    assert_eq!(squares, 81);
    // The page opens on step 1: the first decision, not an empty board.
    let mut at = 1;
    for k in [1, 2, 5, 20, 60] {
        b.click_n("step-forward", k - at);
        at = k;
        let state = GridState::at(&trace, k);
        let shown = b.execute(read, json!([]));
        let shown = shown.as_array().unwrap();
        assert_eq!(shown.len(), 81 * 9);
        for c in shown {
            let (var, value) = (c[0].as_u64().unwrap() as usize, c[1].as_i64().unwrap());
            assert_eq!(
                c[2].as_str().unwrap(),
                state.cell(var, value).as_str(),
                "cell {var}, digit {value}, step {k}"
            );
        }
        let tried = b.execute(
            r#"return Number(document.querySelector('[data-testid="tried"]').textContent);"#,
            json!([]),
        );
        assert_eq!(tried, state.summary.tried);
    }
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    drop(b);
    let _ = std::fs::remove_dir_all(dir);
}
