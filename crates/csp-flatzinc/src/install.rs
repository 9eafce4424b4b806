//! The MiniZinc solver configuration (`.msc`) and solver library (`mznlib`) that make `minizinc --solver csp` work.

use std::io;
use std::path::{Path, PathBuf};

/// The files of `mznlib/`, embedded so that the installed binary can write them.
pub const MZNLIB: &[(&str, &str)] = &[
    (
        "fzn_all_different_int.mzn",
        include_str!("../mznlib/fzn_all_different_int.mzn"),
    ),
    (
        "fzn_among_reif.mzn",
        include_str!("../mznlib/fzn_among_reif.mzn"),
    ),
    (
        "fzn_at_least_int.mzn",
        include_str!("../mznlib/fzn_at_least_int.mzn"),
    ),
    (
        "fzn_at_most_int.mzn",
        include_str!("../mznlib/fzn_at_most_int.mzn"),
    ),
    (
        "fzn_bin_packing_capa_reif.mzn",
        include_str!("../mznlib/fzn_bin_packing_capa_reif.mzn"),
    ),
    (
        "fzn_bin_packing_load_reif.mzn",
        include_str!("../mznlib/fzn_bin_packing_load_reif.mzn"),
    ),
    (
        "fzn_bin_packing_reif.mzn",
        include_str!("../mznlib/fzn_bin_packing_reif.mzn"),
    ),
    ("fzn_circuit.mzn", include_str!("../mznlib/fzn_circuit.mzn")),
    (
        "fzn_count_eq.mzn",
        include_str!("../mznlib/fzn_count_eq.mzn"),
    ),
    (
        "fzn_count_eq_reif.mzn",
        include_str!("../mznlib/fzn_count_eq_reif.mzn"),
    ),
    (
        "fzn_count_geq.mzn",
        include_str!("../mznlib/fzn_count_geq.mzn"),
    ),
    (
        "fzn_count_geq_reif.mzn",
        include_str!("../mznlib/fzn_count_geq_reif.mzn"),
    ),
    (
        "fzn_count_gt.mzn",
        include_str!("../mznlib/fzn_count_gt.mzn"),
    ),
    (
        "fzn_count_gt_reif.mzn",
        include_str!("../mznlib/fzn_count_gt_reif.mzn"),
    ),
    (
        "fzn_count_leq.mzn",
        include_str!("../mznlib/fzn_count_leq.mzn"),
    ),
    (
        "fzn_count_leq_reif.mzn",
        include_str!("../mznlib/fzn_count_leq_reif.mzn"),
    ),
    (
        "fzn_count_lt.mzn",
        include_str!("../mznlib/fzn_count_lt.mzn"),
    ),
    (
        "fzn_count_lt_reif.mzn",
        include_str!("../mznlib/fzn_count_lt_reif.mzn"),
    ),
    (
        "fzn_count_neq.mzn",
        include_str!("../mznlib/fzn_count_neq.mzn"),
    ),
    (
        "fzn_count_neq_reif.mzn",
        include_str!("../mznlib/fzn_count_neq_reif.mzn"),
    ),
    (
        "fzn_cumulative.mzn",
        include_str!("../mznlib/fzn_cumulative.mzn"),
    ),
    ("fzn_diffn.mzn", include_str!("../mznlib/fzn_diffn.mzn")),
    (
        "fzn_disjoint_reif.mzn",
        include_str!("../mznlib/fzn_disjoint_reif.mzn"),
    ),
    (
        "fzn_disjunctive.mzn",
        include_str!("../mznlib/fzn_disjunctive.mzn"),
    ),
    (
        "fzn_disjunctive_strict.mzn",
        include_str!("../mznlib/fzn_disjunctive_strict.mzn"),
    ),
    (
        "fzn_distribute_reif.mzn",
        include_str!("../mznlib/fzn_distribute_reif.mzn"),
    ),
    (
        "fzn_global_cardinality.mzn",
        include_str!("../mznlib/fzn_global_cardinality.mzn"),
    ),
    (
        "fzn_global_cardinality_closed.mzn",
        include_str!("../mznlib/fzn_global_cardinality_closed.mzn"),
    ),
    (
        "fzn_global_cardinality_low_up.mzn",
        include_str!("../mznlib/fzn_global_cardinality_low_up.mzn"),
    ),
    (
        "fzn_global_cardinality_low_up_closed.mzn",
        include_str!("../mznlib/fzn_global_cardinality_low_up_closed.mzn"),
    ),
    (
        "fzn_int_set_channel_reif.mzn",
        include_str!("../mznlib/fzn_int_set_channel_reif.mzn"),
    ),
    ("fzn_inverse.mzn", include_str!("../mznlib/fzn_inverse.mzn")),
    (
        "fzn_inverse_set_reif.mzn",
        include_str!("../mznlib/fzn_inverse_set_reif.mzn"),
    ),
    (
        "fzn_lex_lesseq_bool.mzn",
        include_str!("../mznlib/fzn_lex_lesseq_bool.mzn"),
    ),
    (
        "fzn_lex_lesseq_int.mzn",
        include_str!("../mznlib/fzn_lex_lesseq_int.mzn"),
    ),
    (
        "fzn_link_set_to_booleans_reif.mzn",
        include_str!("../mznlib/fzn_link_set_to_booleans_reif.mzn"),
    ),
    (
        "fzn_nvalue_reif.mzn",
        include_str!("../mznlib/fzn_nvalue_reif.mzn"),
    ),
    (
        "fzn_partition_set_reif.mzn",
        include_str!("../mznlib/fzn_partition_set_reif.mzn"),
    ),
    (
        "fzn_range_reif.mzn",
        include_str!("../mznlib/fzn_range_reif.mzn"),
    ),
    ("fzn_regular.mzn", include_str!("../mznlib/fzn_regular.mzn")),
    (
        "fzn_roots_reif.mzn",
        include_str!("../mznlib/fzn_roots_reif.mzn"),
    ),
    (
        "fzn_sum_pred_reif.mzn",
        include_str!("../mznlib/fzn_sum_pred_reif.mzn"),
    ),
    (
        "fzn_table_int.mzn",
        include_str!("../mznlib/fzn_table_int.mzn"),
    ),
    (
        "fzn_table_int_reif.mzn",
        include_str!("../mznlib/fzn_table_int_reif.mzn"),
    ),
    (
        "redefinitions-2.0.mzn",
        include_str!("../mznlib/redefinitions-2.0.mzn"),
    ),
    (
        "redefinitions.mzn",
        include_str!("../mznlib/redefinitions.mzn"),
    ),
];

/// The solver configuration for `executable` and the library directory `mznlib`
/// (each absolute, or relative to the directory of the `.msc` file).
///
/// ```
/// let msc = csp_flatzinc::solver_config("/usr/bin/fzn-csp", "/usr/share/csp/mznlib");
/// assert!(msc.contains("\"id\": \"org.csp.csp\""));
/// assert!(msc.contains("\"executable\": \"/usr/bin/fzn-csp\""));
/// ```
pub fn solver_config(executable: &str, mznlib: &str) -> String {
    format!(
        r#"{{
  "id": "org.csp.csp",
  "name": "csp",
  "description": "csp: a backtracking constraint solver in Rust (FlatZinc front end fzn-csp)",
  "version": "{version}",
  "mznlib": "{mznlib}",
  "executable": "{executable}",
  "tags": ["cp", "int", "set"],
  "stdFlags": ["-a", "-f", "-n", "-r", "-s", "-t"],
  "extraFlags": [
    ["--pruning", "Pruning after each decision", "opt:none:check:fc:mac:propagators", "propagators"],
    ["--var", "Variable order where no search annotation applies", "opt:auto:input:first-fail:mrv-degree:dom-wdeg:afc-size:random", "auto"],
    ["--val", "Value order where no search annotation applies", "opt:auto:asc:desc:middle:lcv:split:reverse-split:random", "auto"],
    ["--restart", "Restarts where no restart annotation applies", "opt:auto:none:constant:linear:luby:geometric", "auto"],
    ["--restart-scale", "Failures of the first restart run (the Luby unit)", "int", "250"],
    ["--restart-factor", "Growth factor of geometric restarts", "float", "1.5"],
    ["--backjump", "Look-back after a dead end (gbj, cbj: not with propagators)", "opt:none:gbj:cbj", "none"],
    ["--nogoods", "Record nogoods at restarts (needs restarts)", "bool", "false"],
    ["--all-different", "all_different filtering: domain (Regin) or value (as Gecode's default)", "opt:domain:value", "domain"]
  ],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true,
  "needsMznExecutable": false,
  "needsStdlibDir": false,
  "isGUIApplication": false
}}
"#,
        version = env!("CARGO_PKG_VERSION"),
        mznlib = json_escape(mznlib),
        executable = json_escape(executable),
    )
}

fn json_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Writes `csp.msc` and the library `csp-mznlib/` into `dir` (created if needed),
/// with `executable` as the solver. Returns the path of the `.msc` file.
///
/// Put `dir` on MiniZinc's solver search path (`~/.minizinc/solvers` is on it, or
/// set `MZN_SOLVER_PATH`), and `minizinc --solver csp` finds it.
pub fn install_solver_config(dir: &Path, executable: &Path) -> io::Result<PathBuf> {
    let lib = dir.join("csp-mznlib");
    std::fs::create_dir_all(&lib)?;
    for (name, text) in MZNLIB {
        std::fs::write(lib.join(name), text)?;
    }
    let msc = dir.join("csp.msc");
    let text = solver_config(&executable.to_string_lossy(), &lib.to_string_lossy());
    std::fs::write(&msc, text)?;
    Ok(msc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_msc_matches_the_generated_one() {
        let committed = include_str!("../share/csp.msc");
        assert_eq!(committed, solver_config("fzn-csp", "../mznlib"));
    }

    #[test]
    fn paths_are_escaped_for_json() {
        let msc = solver_config("C:\\bin\\fzn \"csp\"", "lib");
        assert!(msc.contains(r#""executable": "C:\\bin\\fzn \"csp\"""#));
    }

    #[test]
    fn embedded_library_lists_every_file_of_mznlib() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mznlib");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".mzn"))
            .collect();
        on_disk.sort();
        let embedded: Vec<&str> = MZNLIB.iter().map(|(n, _)| *n).collect();
        assert_eq!(on_disk, embedded);
    }
}
