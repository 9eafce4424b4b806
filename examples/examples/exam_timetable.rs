//! Exam timetabling with room capacity: eight exams, students who take several,
//! and at most `capacity` exams per slot (144 timetables with 4 slots of 2).
//!
//! ```text
//! cargo run --release --example exam_timetable
//! cargo run --release --example exam_timetable -- --slots 4 --capacity 2 --count --stats
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver};
use csp_examples::cli;
use csp_examples::exam_timetable::{Capacity, ExamTimetable, Exams};

/// Put each exam in a slot: no student sits two exams at once, and no slot
/// holds more than the room's capacity.
#[derive(Parser)]
#[command(name = "exam_timetable")]
struct Cli {
    /// The number of slots.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=1000))]
    slots: u16,
    /// The most exams one slot can hold.
    #[arg(long, default_value_t = 2)]
    capacity: usize,
    /// State the capacity with `count` and a load variable per slot instead of `at_most`.
    #[arg(long)]
    with_loads: bool,
    /// Count every timetable instead of stopping at the first.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let defaults = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let config = cli::config_from(&args.strategy, defaults);
    let exams = Exams::sample();
    let form = if args.with_loads {
        Capacity::Count
    } else {
        Capacity::AtMost
    };
    let t = ExamTimetable::new(&exams, usize::from(args.slots), args.capacity, form)
        .unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!(
        "{} exams, {} students, {} conflicting pairs, {} slots of {}; strategy {}",
        exams.names.len(),
        exams.students.len(),
        exams.conflicts().len(),
        args.slots,
        args.capacity,
        cli::strategy_name(&config)
    );
    let mut solver =
        Solver::new(&t.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    match solver.next_solution() {
        Some(s) => {
            for line in t.show(&exams, s.values()) {
                csp_cli::outln!("  {line}");
            }
        }
        None => csp_cli::outln!("{}", cli::none_found("timetable", solver.status())),
    }
    if args.count {
        let r = solver.count();
        csp_cli::outln!("{}", cli::count_phrase(r.solutions, r.status, "timetable"));
        cli::report_stats(&args.strategy, &config, &r.stats, r.status, &[]);
    } else {
        let stats = *solver.stats();
        cli::report_stats(&args.strategy, &config, &stats, solver.status(), &[]);
    }
}
