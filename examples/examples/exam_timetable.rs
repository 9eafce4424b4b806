//! Exam timetabling with room capacity: eight exams, students who take several,
//! and at most `capacity` exams per slot (144 timetables with 4 slots of 2).
//!
//! ```text
//! cargo run --release --example exam_timetable
//! cargo run --release --example exam_timetable -- --slots 4 --capacity 2 --count --stats
//! cargo run --release --example exam_timetable -- --slots 2 --capacity 4 --explain
//! cargo run --release --example exam_timetable -- --random 120 --students 200 --slots 5 --capacity 30 --busiest 6 --explain
//! ```
//!
//! `--explain` answers "why is there no timetable?": a minimal set of the
//! rules (exams sharing a student, rooms of limited capacity) that cannot
//! all hold ([`csp_core::explain`]).

use clap::Parser;
use csp_core::explain::{Explainer, Verdict};
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
    #[arg(long, conflicts_with = "explain")]
    count: bool,
    /// If there is no timetable, say why: a minimal set of rules that cannot
    /// all hold (--time-limit bounds the whole explanation, --node-limit
    /// each of its checks; default search: the default strategy).
    #[arg(long)]
    explain: bool,
    /// Instead of the sample, this many random exams (E001, E002, ...).
    #[arg(long, value_name = "EXAMS")]
    random: Option<usize>,
    /// With --random: the number of students.
    #[arg(long, default_value_t = 100, requires = "random")]
    students: usize,
    /// With --random: the exams each student takes.
    #[arg(long, default_value_t = 3, requires = "random")]
    per_student: usize,
    /// With --random: the first student takes the first this many exams.
    #[arg(long, default_value_t = 0, requires = "random")]
    busiest: usize,
    /// With --random: the seed.
    #[arg(long, default_value_t = 1, requires = "random")]
    seed: u64,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let defaults = match args.explain {
        true => Config::default(),
        false => Config::textbook().with_pruning(Pruning::ForwardChecking),
    };
    let config = cli::config_from(&args.strategy, defaults);
    let exams = match args.random {
        Some(n) => Exams::random(n, args.students, args.per_student, args.busiest, args.seed)
            .unwrap_or_else(|e| csp_cli::exit_usage(e)),
        None => Exams::sample(),
    };
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
    if args.explain {
        return explain(&t, &exams, config);
    }
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

/// `--explain`: the timetable if there is one, else the rules that clash.
fn explain(t: &ExamTimetable, exams: &Exams, config: Config) {
    let mut explainer = Explainer::new(&t.model, config.clone());
    if let Some(time) = config.limits.time {
        explainer = explainer.with_time_budget(time);
    }
    let why = explainer.run().unwrap_or_else(|e| csp_cli::exit_usage(e));
    let e = why.effort;
    match &why.verdict {
        Verdict::Satisfiable(s) => {
            csp_cli::outln!("a timetable exists, nothing to explain:");
            for line in t.show(exams, s.values()) {
                csp_cli::outln!("  {line}");
            }
        }
        Verdict::Unknown(reason) => csp_cli::outln!(
            "unknown: the search stopped ({}) before it knew whether a timetable exists",
            cli::reason_words(*reason)
        ),
        Verdict::Minimal | Verdict::NotProvenMinimal(_) => {
            let proof = match &why.verdict {
                Verdict::NotProvenMinimal(reason) => format!(
                    "not proved minimal: a check stopped ({})",
                    cli::reason_words(*reason)
                ),
                _ => "minimal: without any one of them, a timetable exists".into(),
            };
            csp_cli::outln!(
                "no timetable: these {} rules cannot all hold ({proof}):",
                why.conflict.len()
            );
            for name in why.names(&t.model) {
                csp_cli::outln!("  {name}");
            }
        }
    }
    csp_cli::outln!(
        "explained with {} checks ({} undecided), {} nodes, {} failures, {:.3} s",
        e.checks,
        e.undecided,
        e.nodes,
        e.failures,
        e.time.as_secs_f64()
    );
}
