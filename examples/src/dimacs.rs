//! The DIMACS `.col` graph format: reading with line and column errors, and writing.

use crate::InputError;
use crate::graph::{Graph, GraphError};

/// The most vertices a file may declare (the colouring model has one variable each).
pub const MAX_VERTICES: usize = 1 << 20;

/// Reads a graph in the DIMACS colouring format:
///
/// ```text
/// c a comment
/// p edge 3 2        (vertices, edge lines)
/// e 1 2             (an edge; vertices are numbered from 1)
/// e 2 3
/// ```
///
/// `p col` is accepted for `p edge`; `n` lines (vertex weights) are skipped; an
/// edge may be listed in both directions, as in the DIMACS benchmark files, but
/// the number of `e` lines must be the one the `p` line declares. Vertices are
/// numbered from 0 in the result.
///
/// ```
/// use csp_examples::dimacs;
/// let g = dimacs::parse("c triangle\np edge 3 3\ne 1 2\ne 2 3\ne 3 1\n")?;
/// assert_eq!((g.num_vertices(), g.num_edges()), (3, 3));
/// let err = dimacs::parse("p edge 3 1\ne 1 x\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 2, column 5: expected a vertex number, found 'x'");
/// # Ok::<(), csp_examples::InputError>(())
/// ```
pub fn parse(text: &str) -> Result<Graph, InputError> {
    let mut header: Option<(usize, usize, usize)> = None; // (line, n, m)
    let mut edges = Vec::new();
    for (li, line) in text.lines().enumerate() {
        let line_no = li + 1;
        let tokens = tokens(line);
        let Some(&(col, kind)) = tokens.first() else {
            continue;
        };
        let at = |col: usize, msg: String| InputError::at(line_no, col, msg);
        match kind {
            "c" => {}
            "p" => {
                if let Some((first, ..)) = header {
                    return Err(at(
                        col,
                        format!("second problem line (the first is on line {first})"),
                    ));
                }
                let [format, n, m] =
                    exact::<3>(&tokens[1..], line_no, line, "p edge VERTICES EDGES")?;
                if !matches!(format.1, "edge" | "col" | "edges") {
                    return Err(at(
                        format.0,
                        format!("unknown problem format '{}' (expected 'edge')", format.1),
                    ));
                }
                let n = number(n, line_no, "a vertex count")?;
                if n > MAX_VERTICES {
                    return Err(at(
                        tokens[2].0,
                        format!("{n} vertices is more than the limit of {MAX_VERTICES}"),
                    ));
                }
                let m = number(m, line_no, "an edge count")?;
                header = Some((line_no, n, m));
            }
            "e" => {
                let Some((_, n, _)) = header else {
                    return Err(at(
                        col,
                        "edge before the problem line 'p edge VERTICES EDGES'".into(),
                    ));
                };
                let [a, b] = exact::<2>(&tokens[1..], line_no, line, "e VERTEX VERTEX")?;
                let u = vertex(a, n, line_no)?;
                let v = vertex(b, n, line_no)?;
                if u == v {
                    return Err(at(a.0, format!("edge joins vertex {} to itself", u + 1)));
                }
                edges.push((u, v));
            }
            "n" => {
                if header.is_none() {
                    return Err(at(
                        col,
                        "vertex line before the problem line 'p edge VERTICES EDGES'".into(),
                    ));
                }
            }
            other => {
                return Err(at(
                    col,
                    format!("unknown line type '{other}' (expected c, p, e or n)"),
                ));
            }
        }
    }
    let Some((p_line, n, m)) = header else {
        return Err(InputError::new("no problem line 'p edge VERTICES EDGES'"));
    };
    if edges.len() != m {
        return Err(InputError::on_line(
            p_line,
            format!(
                "the problem line declares {m} edges but the file has {} edge lines",
                edges.len()
            ),
        ));
    }
    Graph::new(n, edges).map_err(|e: GraphError| InputError::new(e.to_string()))
}

/// The whitespace-separated tokens of a line with their columns (from 1).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    let mut column = 0;
    for (byte, ch) in line.char_indices() {
        column += 1;
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((byte, column)),
            (true, Some((b, c))) => {
                out.push((c, &line[b..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((b, c)) = start {
        out.push((c, &line[b..]));
    }
    out
}

/// Exactly `N` tokens, or an error naming what is missing or extra.
fn exact<'a, const N: usize>(
    tokens: &[(usize, &'a str)],
    line_no: usize,
    line: &str,
    shape: &str,
) -> Result<[(usize, &'a str); N], InputError> {
    if let Some(&(col, extra)) = tokens.get(N) {
        return Err(InputError::at(
            line_no,
            col,
            format!("unexpected '{extra}' (expected '{shape}')"),
        ));
    }
    <[(usize, &str); N]>::try_from(tokens).map_err(|_| {
        InputError::at(
            line_no,
            line.chars().count() + 1,
            format!("line ends early (expected '{shape}')"),
        )
    })
}

fn number((col, text): (usize, &str), line_no: usize, what: &str) -> Result<usize, InputError> {
    text.parse::<usize>()
        .map_err(|_| InputError::at(line_no, col, format!("expected {what}, found '{text}'")))
}

fn vertex(token: (usize, &str), n: usize, line_no: usize) -> Result<usize, InputError> {
    let v = number(token, line_no, "a vertex number")?;
    if v == 0 || v > n {
        return Err(InputError::at(
            line_no,
            token.0,
            format!("vertex {v} is out of range 1..={n}"),
        ));
    }
    Ok(v - 1)
}

/// Writes `graph` in DIMACS format: `comments` as `c` lines, the `p edge` line,
/// then each edge once, vertices numbered from 1.
///
/// ```
/// use csp_examples::{dimacs, graph::Graph};
/// let g = Graph::new(3, [(0, 1), (1, 2)])?;
/// let text = dimacs::write(&g, &["a path"]);
/// assert_eq!(text, "c a path\np edge 3 2\ne 1 2\ne 2 3\n");
/// assert_eq!(dimacs::parse(&text).unwrap(), g);
/// # Ok::<(), csp_examples::graph::GraphError>(())
/// ```
pub fn write(graph: &Graph, comments: &[&str]) -> String {
    let mut out = String::new();
    for c in comments {
        out.push_str(&format!("c {c}\n"));
    }
    out.push_str(&format!(
        "p edge {} {}\n",
        graph.num_vertices(),
        graph.num_edges()
    ));
    for &(u, v) in graph.edges() {
        out.push_str(&format!("e {} {}\n", u + 1, v + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (Option<usize>, Option<usize>, String) {
        let e = parse(text).unwrap_err();
        (e.line, e.column, e.message)
    }

    #[test]
    fn edges_listed_both_ways_count_once() {
        let g = parse("p edge 2 2\ne 1 2\ne 2 1\n").unwrap();
        assert_eq!(g.num_edges(), 1);
    }

    #[test]
    fn vertex_out_of_range_gives_line_and_column() {
        let (l, c, m) = err("p edge 3 1\n\ne   2 4\n");
        assert_eq!((l, c), (Some(3), Some(7)));
        assert_eq!(m, "vertex 4 is out of range 1..=3");
        assert_eq!(err("p edge 3 1\ne 0 1\n").1, Some(3));
    }

    #[test]
    fn edge_before_problem_line_is_an_error() {
        assert_eq!(err("c x\ne 1 2\np edge 2 1\n").0, Some(2));
    }

    #[test]
    fn missing_and_extra_tokens_are_reported() {
        let (l, c, m) = err("p edge 3 1\ne 1\n");
        assert_eq!((l, c), (Some(2), Some(4)));
        assert!(m.starts_with("line ends early"), "{m}");
        let (_, c, m) = err("p edge 3 1\ne 1 2 3\n");
        assert_eq!(c, Some(7));
        assert!(m.starts_with("unexpected '3'"), "{m}");
        assert_eq!(
            parse("p edge 3 1\ne 1\n").unwrap_err().to_string(),
            "line 2, column 4: line ends early (expected 'e VERTEX VERTEX')"
        );
        assert_eq!(
            parse("p edge 3 1\ne 1 2 3\n").unwrap_err().to_string(),
            "line 2, column 7: unexpected '3' (expected 'e VERTEX VERTEX')"
        );
    }

    #[test]
    fn wrong_edge_count_names_the_problem_line() {
        let (l, _, m) = err("c\np edge 3 2\ne 1 2\n");
        assert_eq!(l, Some(2));
        assert_eq!(
            m,
            "the problem line declares 2 edges but the file has 1 edge lines"
        );
        assert_eq!(
            parse("c\np edge 3 2\ne 1 2\n").unwrap_err().to_string(),
            "line 2: the problem line declares 2 edges but the file has 1 edge lines"
        );
    }

    #[test]
    fn unknown_line_type_self_loop_and_second_header_are_errors() {
        assert_eq!(
            err("p edge 2 0\nx 1 2\n").2,
            "unknown line type 'x' (expected c, p, e or n)"
        );
        assert_eq!(
            err("p edge 2 1\ne 2 2\n").2,
            "edge joins vertex 2 to itself"
        );
        assert_eq!(err("p edge 2 0\np edge 2 0\n").0, Some(2));
        assert_eq!(err("p graph 2 0\n").1, Some(3));
        assert_eq!(err("c only comments\n").0, None);
        let message = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(
            message("p edge 2 0\nx 1 2\n"),
            "line 2, column 1: unknown line type 'x' (expected c, p, e or n)"
        );
        assert_eq!(
            message("p edge 2 1\ne 2 2\n"),
            "line 2, column 3: edge joins vertex 2 to itself"
        );
        assert_eq!(
            message("p edge 2 0\np edge 2 0\n"),
            "line 2, column 1: second problem line (the first is on line 1)"
        );
        assert_eq!(
            message("p graph 2 0\n"),
            "line 1, column 3: unknown problem format 'graph' (expected 'edge')"
        );
        assert_eq!(
            message("c only comments\n"),
            "no problem line 'p edge VERTICES EDGES'"
        );
        assert_eq!(
            message("c x\ne 1 2\np edge 2 1\n"),
            "line 2, column 1: edge before the problem line 'p edge VERTICES EDGES'"
        );
    }

    #[test]
    fn more_vertices_than_the_limit_is_an_error() {
        let e = parse(&format!("p edge {} 0\n", MAX_VERTICES + 1)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 8: 1048577 vertices is more than the limit of 1048576"
        );
        let g = parse(&format!("p edge {MAX_VERTICES} 0\n")).unwrap();
        assert_eq!(g.num_vertices(), MAX_VERTICES);
    }

    #[test]
    fn a_count_that_is_not_a_number_is_an_error() {
        assert_eq!(
            parse("p edge -3 0\n").unwrap_err().to_string(),
            "line 1, column 8: expected a vertex count, found '-3'"
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(tokens("é  ab c"), vec![(1, "é"), (4, "ab"), (7, "c")]);
    }
}
