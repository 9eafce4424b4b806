//! A tidy top-down tree layout: children centred under their parent, subtrees packed.
//!
//! The algorithm is the contour method behind Reingold and Tilford's: every
//! subtree keeps, for each level below its root, the leftmost and rightmost
//! extent of its boxes. Children are placed left to right, each subtree pushed
//! right just far enough to clear the contours of its elder siblings at every
//! level they share; the parent is then centred over its first and last child.
//! Small subtrees between two large ones stay packed to the left (Walker's
//! spreading of them is left out), which keeps the code short and the result
//! free of overlaps.

/// A node's horizontal extent around its centre: `left` and `right` are both
/// non-negative distances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Extent {
    pub left: f64,
    pub right: f64,
}

/// The centres of the nodes of a tree: `parent[i] < i` for every node but the
/// root, which is node 0 (its own `parent` entry is ignored). Siblings keep their
/// index order from left to right; `gap` separates neighbouring boxes on a level.
/// The leftmost box starts at `x = 0`.
#[cfg(test)]
pub(crate) fn tidy(parent: &[usize], extent: &[Extent], gap: f64) -> Vec<f64> {
    tidy_until(parent, extent, gap, &|| false).unwrap_or_default()
}

/// [`tidy`], asking `stop` every 1,024 nodes: `None` once it says yes.
pub(crate) fn tidy_until(
    parent: &[usize],
    extent: &[Extent],
    gap: f64,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<f64>> {
    let n = parent.len();
    if n == 0 {
        return Some(Vec::new());
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, &p) in parent.iter().enumerate().skip(1) {
        children[p].push(i);
    }
    // Each subtree's contour, per level below its root, relative to its root's
    // centre: (leftmost edge, rightmost edge). Children have larger indices than
    // their parent, so a reverse sweep finishes every child before its parent.
    let mut contour: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
    let mut offset = vec![0.0; n];
    for v in (0..n).rev() {
        if v % 1024 == 0 && stop() {
            return None;
        }
        let mut acc: Vec<(f64, f64)> = Vec::new();
        let mut placed: Vec<f64> = Vec::with_capacity(children[v].len());
        for &c in &children[v] {
            let cc = std::mem::take(&mut contour[c]);
            let shift = if acc.is_empty() {
                0.0
            } else {
                acc.iter()
                    .zip(&cc)
                    .map(|(a, b)| a.1 - b.0 + gap)
                    .fold(f64::NEG_INFINITY, f64::max)
            };
            for (d, &(l, r)) in cc.iter().enumerate() {
                match acc.get_mut(d) {
                    Some(a) => *a = (a.0.min(l + shift), a.1.max(r + shift)),
                    None => acc.push((l + shift, r + shift)),
                }
            }
            placed.push(shift);
        }
        let centre = match (placed.first(), placed.last()) {
            (Some(first), Some(last)) => (first + last) / 2.0,
            _ => 0.0,
        };
        for (&c, &p) in children[v].iter().zip(&placed) {
            offset[c] = p - centre;
        }
        let mut own = Vec::with_capacity(acc.len() + 1);
        own.push((-extent[v].left, extent[v].right));
        own.extend(acc.iter().map(|&(l, r)| (l - centre, r - centre)));
        contour[v] = own;
    }
    let mut x = vec![0.0; n];
    for v in 1..n {
        x[v] = x[parent[v]] + offset[v];
    }
    let min_left = (0..n)
        .map(|v| x[v] - extent[v].left)
        .fold(f64::INFINITY, f64::min);
    x.iter_mut().for_each(|xi| *xi -= min_left);
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(n: usize) -> Vec<Extent> {
        vec![
            Extent {
                left: 5.0,
                right: 5.0
            };
            n
        ]
    }

    fn depths(parent: &[usize]) -> Vec<usize> {
        let mut d = vec![0; parent.len()];
        for i in 1..parent.len() {
            d[i] = d[parent[i]] + 1;
        }
        d
    }

    fn assert_no_overlap(parent: &[usize], ext: &[Extent], x: &[f64], gap: f64) {
        let d = depths(parent);
        for i in 0..x.len() {
            for j in i + 1..x.len() {
                if d[i] == d[j] {
                    let (a, b) = if x[i] <= x[j] { (i, j) } else { (j, i) };
                    assert!(
                        x[a] + ext[a].right + gap <= x[b] - ext[b].left + 1e-9,
                        "nodes {a} and {b} overlap: {x:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn parent_is_centred_over_its_children() {
        let parent = [0, 0, 0, 0];
        let x = tidy(&parent, &unit(4), 2.0);
        assert_eq!(x[0], x[2]);
        assert_eq!(x[1], 5.0);
        assert_eq!(x[3] - x[2], 12.0);
    }

    #[test]
    fn deep_subtrees_do_not_overlap_their_siblings() {
        // 0 -> 1, 2; 1 -> 3, 4; 2 -> 5, 6; 4 -> 7, 8; 5 -> 9, 10.
        let parent = [0, 0, 0, 1, 1, 2, 2, 4, 4, 5, 5];
        let ext = unit(parent.len());
        let x = tidy(&parent, &ext, 3.0);
        assert_no_overlap(&parent, &ext, &x, 3.0);
        assert!((x[1] - (x[3] + x[4]) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn variable_widths_are_respected() {
        let parent = [0, 0, 0, 1, 2];
        let ext = vec![
            Extent {
                left: 3.0,
                right: 3.0,
            },
            Extent {
                left: 1.0,
                right: 40.0,
            },
            Extent {
                left: 20.0,
                right: 2.0,
            },
            Extent {
                left: 2.0,
                right: 2.0,
            },
            Extent {
                left: 30.0,
                right: 1.0,
            },
        ];
        let x = tidy(&parent, &ext, 1.0);
        assert_no_overlap(&parent, &ext, &x, 1.0);
    }
}
