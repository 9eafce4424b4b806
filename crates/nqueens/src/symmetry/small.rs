//! Boards too small for the symmetry counter's families (`n < 4`): every solution compared with its 8 images.

use super::SymmetryCount;

/// Small boards, where the corner and edge families degenerate: every solution is
/// compared with its 8 images, and kept if it is the smallest.
pub(super) fn count_small(n: u32) -> SymmetryCount {
    let mut count = SymmetryCount::default();
    for board in solutions(n as usize) {
        let mut images = images(&board);
        images.sort_unstable();
        if images[0] != board {
            continue;
        }
        let mut distinct = images.to_vec();
        distinct.dedup();
        count.unique += 1;
        count.total += distinct.len() as u64;
        match distinct.len() {
            2 => count.classes_of_2 += 1,
            4 => count.classes_of_4 += 1,
            8 => count.classes_of_8 += 1,
            _ => {} // the empty board and the single queen: a class of 1
        }
    }
    count
}

/// All solutions as column lists, by plain backtracking.
fn solutions(n: usize) -> Vec<Vec<usize>> {
    fn extend(n: usize, board: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if board.len() == n {
            out.push(board.clone());
            return;
        }
        let row = board.len();
        for column in 0..n {
            if board
                .iter()
                .enumerate()
                .all(|(r, &c)| c != column && row - r != c.abs_diff(column))
            {
                board.push(column);
                extend(n, board, out);
                board.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::with_capacity(n), &mut out);
    out
}

/// The 8 images of a board under the symmetries of the square.
pub(super) fn images(board: &[usize]) -> [Vec<usize>; 8] {
    let n = board.len();
    let rotate = |b: &[usize]| {
        let mut out = vec![0; n];
        for (r, &c) in b.iter().enumerate() {
            out[c] = n - 1 - r;
        }
        out
    };
    let mirror = |b: &[usize]| b.iter().map(|&c| n - 1 - c).collect::<Vec<_>>();
    let r0 = board.to_vec();
    let r1 = rotate(&r0);
    let r2 = rotate(&r1);
    let r3 = rotate(&r2);
    let (m0, m1, m2, m3) = (mirror(&r0), mirror(&r1), mirror(&r2), mirror(&r3));
    [r0, r1, r2, r3, m0, m1, m2, m3]
}
