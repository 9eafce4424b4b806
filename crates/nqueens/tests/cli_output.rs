//! Snapshots of what `nqueens solve` prints: `solve 4 --all` in each format, and the 8-queens board.

use std::process::Command;

fn stdout(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    assert!(out.stderr.is_empty(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn solve_4_all_list() {
    insta::assert_snapshot!(stdout(&["solve", "4", "--all", "--format", "list"]));
}

#[test]
fn solve_4_all_positions() {
    insta::assert_snapshot!(stdout(&["solve", "4", "--all", "--format", "positions"]));
}

#[test]
fn solve_4_all_board() {
    insta::assert_snapshot!(stdout(&["solve", "4", "--all", "--format", "board"]));
}

#[test]
fn solve_8_board() {
    insta::assert_snapshot!(stdout(&["solve", "8", "--format", "board"]));
}
