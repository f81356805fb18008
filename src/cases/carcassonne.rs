//! Carcassonne boards in four categories.
//!
//! Colours are drawn as `Colour::ALL[rng.below(3)]` (City, Road, Field);
//! quarter turns as `rng.below(4)`, applied with
//! [`Tile::rotated`](crate::carcassonne::Tile::rotated). Cells go row by
//! row. What each category draws, in order:
//!
//! - [`CarcassonneCategory::Random`]: per cell, its top, right, bottom and left colour.
//!   Most boards past a few tiles have no valid placement.
//! - [`CarcassonneCategory::Planted`]: a colour for every horizontal grid edge (the
//!   `(R+1)·C` edges above and below cells, row by row), then for every
//!   vertical one (the `R·(C+1)` edges left and right of cells, row by
//!   row), then per cell a turn: each tile is the four edges around its
//!   cell, shown turned, so the board has at least one valid placement.
//! - [`CarcassonneCategory::TwoPair`]: one draw picks the colour left out, the two
//!   others `a < b` (in City, Road, Field order) make the tile `a a b b`
//!   (top, right, bottom, left), and per cell a turn. A turn of such a tile
//!   is fixed by its top and left edges, so every two-colour frontier
//!   profile stays reachable: the DP's worst case at a given width.
//! - [`CarcassonneCategory::Uniform`]: one tile for the whole board (four colours), then
//!   per cell a turn. Counts are large (a board of `CCCC` has `4^(R·C)`
//!   placements), which exercises the reduction modulo 1,000,000,007.

use std::io::{self, Write};

use super::category::category_names;
use super::{CasesError, Rng};
use crate::carcassonne::{self, Board, Colour, MAX_NARROW_SIDE, MAX_TILES, Tile};

/// A category of boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CarcassonneCategory {
    /// Every edge of every tile uniform over C, R, F.
    #[default]
    Random,
    /// The tiles of a random valid placement, each turned at random.
    Planted,
    /// Turns of one two-pair tile (`RRFF`, `CCFF` or `CCRR`).
    TwoPair,
    /// One tile everywhere, each turned at random.
    Uniform,
}

category_names!(CarcassonneCategory, "Carcassonne", [
    "random" => Random,
    "planted" => Planted,
    "two-pair" => TwoPair,
    "uniform" => Uniform,
]);

impl CarcassonneCategory {
    /// A `rows × cols` board of this category. The sizes must be valid for
    /// [`Board::new`] (see [`Spec::validated`]).
    pub fn board(self, rng: &mut Rng, rows: usize, cols: usize) -> Result<Board, CasesError> {
        let cells = rows * cols;
        let colour = |rng: &mut Rng| Colour::ALL[rng.index(3)];
        let tiles: Vec<Tile> = match self {
            CarcassonneCategory::Random => (0..cells)
                .map(|_| {
                    let [t, r, b, l] = [(); 4].map(|_| colour(rng));
                    Tile::new(t, r, b, l)
                })
                .collect(),
            CarcassonneCategory::Planted => {
                let horizontal: Vec<Colour> = (0..(rows + 1) * cols).map(|_| colour(rng)).collect();
                let vertical: Vec<Colour> = (0..rows * (cols + 1)).map(|_| colour(rng)).collect();
                let mut tiles = Vec::with_capacity(cells);
                for r in 0..rows {
                    for c in 0..cols {
                        let tile = Tile::new(
                            horizontal[r * cols + c],
                            vertical[r * (cols + 1) + c + 1],
                            horizontal[(r + 1) * cols + c],
                            vertical[r * (cols + 1) + c],
                        );
                        tiles.push(tile.rotated(rng.below(4) as u32));
                    }
                }
                tiles
            }
            CarcassonneCategory::TwoPair => {
                let out = rng.index(3);
                let [a, b] = match out {
                    0 => [Colour::Road, Colour::Field],
                    1 => [Colour::City, Colour::Field],
                    _ => [Colour::City, Colour::Road],
                };
                let tile = Tile::new(a, a, b, b);
                (0..cells)
                    .map(|_| tile.rotated(rng.below(4) as u32))
                    .collect()
            }
            CarcassonneCategory::Uniform => {
                let [t, r, b, l] = [(); 4].map(|_| colour(rng));
                let tile = Tile::new(t, r, b, l);
                (0..cells)
                    .map(|_| tile.rotated(rng.below(4) as u32))
                    .collect()
            }
        };
        Board::new(rows, cols, tiles).map_err(|e| CasesError::Size(e.to_string()))
    }
}

/// Boards of one category and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The category.
    pub category: CarcassonneCategory,
    /// N, rows.
    pub rows: usize,
    /// M, columns.
    pub cols: usize,
}

impl Default for Spec {
    /// Random 12×12 boards, the judge's largest.
    fn default() -> Spec {
        Spec {
            category: CarcassonneCategory::Random,
            rows: 12,
            cols: 12,
        }
    }
}

impl Spec {
    /// The spec, if the library can count its boards: both sides at least
    /// 1, the narrower at most 16, at most 2^20 tiles. (The judge's limit is
    /// 12 a side.)
    pub fn validated(&self) -> Result<Spec, CasesError> {
        let (r, c) = (self.rows, self.cols);
        if r == 0 || c == 0 {
            return Err(CasesError::Size(format!(
                "a {r}x{c} board has no tiles: both sides must be at least 1"
            )));
        }
        if r.min(c) > MAX_NARROW_SIDE {
            return Err(CasesError::Size(format!(
                "a {r}x{c} board is too large: its narrower side must be at most {MAX_NARROW_SIDE}"
            )));
        }
        if r.checked_mul(c).is_none_or(|n| n as u64 > MAX_TILES) {
            return Err(CasesError::Size(format!(
                "a {r}x{c} board has more than {MAX_TILES} tiles"
            )));
        }
        Ok(*self)
    }
}

/// Writes one board in the judge's format: `N M`, then N lines of M codes.
pub fn write_board<W: Write + ?Sized>(out: &mut W, board: &Board) -> io::Result<()> {
    writeln!(out, "{} {}", board.rows(), board.cols())?;
    let mut line = Vec::with_capacity(board.cols() * 5);
    for row in board.tiles().chunks(board.cols()) {
        line.clear();
        for (i, tile) in row.iter().enumerate() {
            if i > 0 {
                line.push(b' ');
            }
            line.extend_from_slice(&tile.packed().letters());
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Boards generated, written and (when asked) counted together.
const BATCH: usize = 64;

/// The cases of [`CaseWriter::write`](super::CaseWriter::write) after the
/// count line: batches of 64 boards drawn in turn, written, then counted in
/// parallel when answers are asked for.
pub(super) fn write_cases<W: Write + ?Sized, A: Write + ?Sized>(
    spec: &Spec,
    cases: u64,
    rng: &mut Rng,
    input: &mut W,
    mut answers: Option<&mut A>,
    progress: &mut dyn FnMut(u64),
) -> Result<(), CasesError> {
    let mut done = 0u64;
    let mut batch = Vec::with_capacity(BATCH);
    while done < cases {
        batch.clear();
        let n = (cases - done).min(BATCH as u64);
        for _ in 0..n {
            batch.push(spec.category.board(rng, spec.rows, spec.cols)?);
        }
        for board in &batch {
            write_board(input, board)?;
        }
        if let Some(a) = answers.as_deref_mut() {
            for (i, count) in carcassonne::count_all(&batch).into_iter().enumerate() {
                let case = done + i as u64 + 1;
                let count = count.map_err(|error| CasesError::Count { case, error })?;
                writeln!(a, "Case {case}: {count}")?;
            }
        }
        done += n;
        progress(done);
    }
    if cases == 0 {
        progress(0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_boards_have_placements() {
        let mut rng = Rng::new(3);
        for (r, c) in [(1, 1), (2, 3), (5, 4), (12, 12)] {
            for _ in 0..5 {
                let board = CarcassonneCategory::Planted.board(&mut rng, r, c).unwrap();
                let witness = carcassonne::CountOptions {
                    witness: true,
                    ..Default::default()
                };
                let counted = carcassonne::count(&board, &witness, || false).unwrap();
                assert!(counted.witness.unwrap().is_some());
            }
        }
    }

    #[test]
    fn board_text_reads_back() {
        let mut rng = Rng::new(1);
        let board = CarcassonneCategory::Random.board(&mut rng, 3, 5).unwrap();
        let mut text = Vec::new();
        write_board(&mut text, &board).unwrap();
        let mut scanner = crate::input::Scanner::new(&text[..]);
        assert_eq!(carcassonne::read_case(&mut scanner).unwrap().board, board);
    }

    #[test]
    fn sizes_are_checked() {
        let spec = |rows, cols| {
            Spec {
                category: CarcassonneCategory::Random,
                rows,
                cols,
            }
            .validated()
        };
        assert!(spec(0, 3).is_err());
        assert!(spec(17, 17).is_err());
        assert!(spec(16, 100).is_ok());
        assert!(spec(16, 1 << 17).is_err());
    }
}
