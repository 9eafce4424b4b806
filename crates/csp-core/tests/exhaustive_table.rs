//! The exhaustive harness on short and negative tables, and on random tables:
//! every propagate call at every level audited against brute force (see
//! `harness/mod.rs`).

mod harness;

use csp_core::{STAR, Table, Value, VarId};
use harness::*;

/// Whether `row` (entries `None` = `*`) matches `values`, written here
/// rather than taken from the engine.
fn matches(row: &[Option<Value>], values: &[Value]) -> bool {
    row.iter()
        .zip(values)
        .all(|(e, &v)| e.is_none_or(|e| e == v))
}

fn short_case(vars: &[VarId], rows: Vec<Vec<Option<Value>>>, doms: &[&[Value]]) -> Case {
    let name = format!("short table{vars:?} of {} rows", rows.len());
    let allowed = rows.clone();
    let c = Table::short(vars, rows).unwrap();
    case(name, c, doms, move |v| {
        allowed.iter().any(|r| matches(r, v))
    })
    .everywhere(Strength::Gac)
}

/// The generic algorithms at the textbook levels; Compact-Table's strength
/// at the `Propagators` level.
fn negative_case(
    vars: &[VarId],
    rows: Vec<Vec<Option<Value>>>,
    doms: &[&[Value]],
    propagators: Strength,
) -> Case {
    let name = format!("negative table{vars:?} of {} rows", rows.len());
    let forbidden = rows.clone();
    let c = Table::negative(vars, rows).unwrap();
    case(name, c, doms, move |v| {
        !forbidden.iter().any(|r| matches(r, v))
    })
    .strength(
        Strength::GacWhenOneOpen,
        Strength::GacWhenOneOpen,
        Strength::Gac,
        propagators,
    )
}

#[test]
fn short_table_is_sound_and_gac() {
    assert_trustworthy(short_case(
        &[x(0), x(1), x(2)],
        vec![
            vec![Some(0), STAR, Some(1)],
            vec![STAR, Some(2), Some(3)],
            vec![Some(-2), Some(-1), STAR],
            vec![Some(3), Some(0), Some(0)],
            vec![Some(9), STAR, STAR],
        ],
        &[&[-2, 0, 1, 3], &[-1, 0, 2], &[0, 1, 3]],
    ));
    // A row of stars only: every combination is allowed.
    assert_trustworthy(short_case(
        &[x(0), x(1)],
        vec![vec![STAR, STAR], vec![Some(0), Some(1)]],
        &[&[0, 1, 5], &[1, 2]],
    ));
}

#[test]
fn short_table_with_a_repeated_variable_is_sound_and_gac() {
    assert_trustworthy(short_case(
        &[x(0), x(1), x(0)],
        vec![
            vec![STAR, Some(1), Some(2)],
            vec![Some(0), STAR, STAR],
            vec![Some(1), Some(0), Some(2)],
            vec![STAR, Some(2), STAR],
        ],
        &[&[-1, 0, 1, 2], &[0, 1, 2]],
    ));
}

#[test]
fn negative_table_without_stars_is_sound_and_gac() {
    let doms: [&[Value]; 3] = [&[-1, 0, 2], &[0, 1], &[1, 3, 4]];
    // Forbid most of the combinations, so that counting decides often.
    let rows: Vec<Vec<Option<Value>>> = assignments(&doms.map(<[Value]>::to_vec))
        .filter(|t| (t[0] + 2 * t[1] + 3 * t[2]).rem_euclid(5) != 2)
        .map(|t| t.into_iter().map(Some).collect())
        .collect();
    assert_trustworthy(negative_case(
        &[x(0), x(1), x(2)],
        rows,
        &doms,
        Strength::Gac,
    ));
    assert_trustworthy(negative_case(
        &[x(0), x(1)],
        vec![
            vec![Some(0), Some(0)],
            vec![Some(0), Some(1)],
            vec![Some(0), Some(2)],
            vec![Some(1), Some(1)],
            vec![Some(7), Some(1)],
        ],
        &[&[0, 1, 2], &[0, 1, 2]],
        Strength::Gac,
    ));
}

#[test]
fn negative_table_with_a_repeated_variable_is_sound_and_gac() {
    assert_trustworthy(negative_case(
        &[x(0), x(1), x(0)],
        vec![
            vec![Some(0), Some(0), Some(0)],
            vec![Some(0), Some(1), Some(0)],
            vec![Some(1), Some(1), Some(2)],
            vec![Some(2), Some(0), Some(2)],
            vec![Some(2), Some(1), Some(2)],
        ],
        &[&[0, 1, 2], &[0, 1]],
        Strength::Gac,
    ));
}

#[test]
fn negative_short_table_is_sound_and_filters_the_last_open_variable() {
    assert_trustworthy(negative_case(
        &[x(0), x(1), x(2)],
        vec![
            vec![Some(0), STAR, Some(1)],
            vec![STAR, Some(2), Some(3)],
            vec![Some(1), Some(0), STAR],
            vec![Some(1), Some(2), Some(1)],
        ],
        &[&[0, 1, 2], &[0, 2], &[1, 3]],
        Strength::GacWhenOneOpen,
    ));
    // A row of stars forbids everything.
    assert_trustworthy(negative_case(
        &[x(0), x(1)],
        vec![vec![STAR, STAR]],
        &[&[0, 1], &[1, 2]],
        Strength::GacWhenOneOpen,
    ));
}

/// Random rows over random domains with holes, `*` in about one entry of
/// `star_one_in`, allowed or forbidden.
fn random_rows(
    rng: &mut Rng,
    doms: &[Vec<Value>],
    rows: usize,
    star_one_in: u64,
) -> Vec<Vec<Option<Value>>> {
    (0..rows)
        .map(|_| {
            doms.iter()
                .map(|d| {
                    if star_one_in > 0 && rng.next() % star_one_in == 0 {
                        STAR
                    } else {
                        // Now and then a value outside the domain.
                        Some(d[rng.next() as usize % d.len()] + (rng.next() % 7 == 0) as Value)
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn random_tables_are_sound_and_reach_their_strength() {
    let mut rng = Rng(0x7ab1e);
    for round in 0..12 {
        let arity = 2 + round % 3;
        let doms: Vec<Vec<Value>> = (0..arity).map(|_| rng.domain(-1, 3)).collect();
        let d: Vec<&[Value]> = doms.iter().map(Vec::as_slice).collect();
        let vars: Vec<VarId> = (0..arity).map(x).collect();
        let n_rows = 3 + rng.next() as usize % 12;
        let star = if round % 2 == 0 { 0 } else { 4 };
        let rows = random_rows(&mut rng, &doms, n_rows, star);
        let mut k = short_case(&vars, rows.clone(), &d);
        k.max_combos = 600;
        assert_trustworthy(k);
        let strength = if star == 0 {
            Strength::Gac
        } else {
            Strength::GacWhenOneOpen
        };
        let mut k = negative_case(&vars, rows, &d, strength);
        k.max_combos = 600;
        assert_trustworthy(k);
    }
}
