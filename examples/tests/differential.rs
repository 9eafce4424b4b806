//! Differential testing of the example models: the known answers in
//! `tests/data/known_answers.csv` counted under every pruning level with several
//! variable and value orders. Every configuration must find exactly the known
//! number of solutions with a complete search.

use csp_core::{Config, Model, Pruning, Solver, ValOrder, VarOrder};
use csp_examples::all_interval::AllInterval;
use csp_examples::exam_timetable::{Capacity, ExamTimetable, Exams};
use csp_examples::graph_coloring::ColoringModel;
use csp_examples::jobshop::{JobShop, JobShopModel};
use csp_examples::langford::Langford;
use csp_examples::latin_square::LatinSquare;
use csp_examples::magic_square::MagicSquare;
use csp_examples::map_coloring;
use csp_examples::send_more_money::{Cryptarithm, CryptarithmModel};
use csp_examples::tsp::{Tsp, TspModel};
use csp_examples::zebra::{NextTo, Zebra};

struct Known {
    example: String,
    instance: String,
    solutions: u64,
}

fn corpus() -> Vec<Known> {
    include_str!("data/known_answers.csv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.splitn(4, ',').collect();
            Known {
                example: f[0].to_string(),
                instance: f[1].to_string(),
                solutions: f[2].parse().unwrap(),
            }
        })
        .collect()
}

fn model(k: &Known) -> Model {
    let n = || k.instance.parse::<usize>().unwrap();
    match k.example.as_str() {
        "latin_square" => LatinSquare::new(n(), false).unwrap().model,
        "latin_square_reduced" => LatinSquare::new(n(), true).unwrap().model,
        "magic_square" => MagicSquare::new(n(), false).unwrap().model,
        "magic_square_frenicle" => MagicSquare::new(n(), true).unwrap().model,
        "langford" => Langford::new(n(), false).unwrap().model,
        "langford_mirror_free" => Langford::new(n(), true).unwrap().model,
        "cryptarithm" => {
            let puzzle: Cryptarithm = k.instance.parse().unwrap();
            CryptarithmModel::new(&puzzle).unwrap().model
        }
        "map_coloring" => {
            let (name, colors) = k.instance.split_once(' ').unwrap();
            let map = map_coloring::by_name(name).unwrap();
            ColoringModel::k_coloring(&map.graph, colors.parse().unwrap(), &[])
                .unwrap()
                .model
        }
        "zebra" => {
            let next_to = match k.instance.as_str() {
                "table" => NextTo::Table,
                _ => NextTo::Predicate,
            };
            Zebra::new(next_to).unwrap().model
        }
        "exam_timetable" | "exam_timetable_loads" => {
            // "4 slots of 2"
            let w: Vec<&str> = k.instance.split_whitespace().collect();
            let form = match k.example.as_str() {
                "exam_timetable" => Capacity::AtMost,
                _ => Capacity::Count,
            };
            let (slots, capacity) = (w[0].parse().unwrap(), w[3].parse().unwrap());
            ExamTimetable::new(&Exams::sample(), slots, capacity, form)
                .unwrap()
                .model
        }
        "all_interval" => AllInterval::new(n()).unwrap().model,
        "all_interval_x_first" => AllInterval::x_first(n()).unwrap().model,
        "jobshop" => {
            let (name, horizon) = k.instance.split_once(' ').unwrap();
            let shop = JobShop::by_name(name).unwrap();
            JobShopModel::new(&shop, horizon.parse().unwrap())
                .unwrap()
                .model
        }
        "tsp" => {
            let f: Vec<u64> = k.instance.split(' ').map(|x| x.parse().unwrap()).collect();
            let tsp = Tsp::random(f[0] as usize, f[1]);
            TspModel::new(&tsp, Some(f[2] as i64)).unwrap().model
        }
        other => panic!("unknown example {other} in the corpus"),
    }
}

/// Generate-and-test only where the whole tree is small.
fn small_enough_for_no_pruning(m: &Model) -> bool {
    let leaves: f64 = (0..m.num_vars())
        .map(|v| {
            let domain = m.domain(csp_core::VarId::new(v)).unwrap();
            domain.bounds().map_or(0.0, |(lo, hi)| (hi - lo + 1) as f64)
        })
        .product();
    leaves <= 1e5
}

#[test]
fn the_corpus_covers_every_counting_example() {
    let c = corpus();
    assert_eq!(c.len(), 26);
    for k in &c {
        let _ = model(k);
    }
}

#[test]
fn every_pruning_level_and_order_finds_the_known_answers() {
    let vars = [
        VarOrder::Input,
        VarOrder::FirstFail,
        VarOrder::DomOverWdeg,
        VarOrder::Random(11),
    ];
    let vals = [
        ValOrder::Ascending,
        ValOrder::Descending,
        ValOrder::Random(5),
    ];
    for k in corpus() {
        let m = model(&k);
        for pruning in Pruning::ALL {
            if pruning == Pruning::None && !small_enough_for_no_pruning(&m) {
                continue;
            }
            for var in vars {
                for val in vals {
                    let config = Config::textbook()
                        .with_pruning(pruning)
                        .with_var_order(var)
                        .with_val_order(val);
                    let r = Solver::new(&m, config).unwrap().count();
                    assert!(r.is_complete());
                    assert_eq!(
                        r.solutions, k.solutions,
                        "{} {}: {pruning} {var} {val}",
                        k.example, k.instance
                    );
                }
            }
        }
    }
}
