//! Times one N-Queens counter per process: `nqueens-runner COUNTER N [THREADS]`.
//!
//! COUNTER is `bitboard`, `bitboard-par`, `symmetry` or `symmetry-par`;
//! THREADS (parallel counters only) defaults to rayon's choice.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: nqueens-runner bitboard|bitboard-par|symmetry|symmetry-par N [THREADS]";
    let (Some(counter), Some(Ok(n))) = (args.first(), args.get(1).map(|a| a.parse::<u32>())) else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let threads = match args.get(2).map(|a| a.parse::<usize>()) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            eprintln!("bad THREADS: {e}\n{usage}");
            return ExitCode::FAILURE;
        }
    };
    let result = match counter.as_str() {
        "bitboard" => nqueens::bitboard::count(n).map(|c| c.to_string()),
        "bitboard-par" => nqueens::bitboard::count_parallel(n, threads).map(|c| c.to_string()),
        "symmetry" => {
            nqueens::symmetry::count(n).map(|c| format!("{} unique={}", c.total, c.unique))
        }
        "symmetry-par" => nqueens::symmetry::count_parallel(n, threads)
            .map(|c| format!("{} unique={}", c.total, c.unique)),
        _ => {
            eprintln!("{usage}");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
