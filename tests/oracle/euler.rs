//! The moves of the Game of Euler (UVA 10536), written once for every test
//! from the rules of UVA 10536, on any R×C board (every pin of length 1 to 3).
//! Nothing here calls the library.
//!
//! A move places a pin: pushed straight down onto any one square, or a pin
//! of length 1, 2 or 3 pushed in from one of the four sides along a row or
//! a column, covering that many squares from the border inwards (a pin
//! longer than its line cannot be placed). A move is legal when every
//! square it covers is uncovered. Moves are masks of the squares they
//! cover, square (r, c) at bit C·r + c of a `u64`; the 4×4 board's as `u16`
//! through [`moves_4x4`]. Every list here is ascending, each move once: no
//! test may rely on an order the rules do not give (the library's own move
//! order is the library's, read from it where a test needs it).

use std::collections::BTreeSet;

/// The longest pin of the rules.
pub const LONGEST_PIN: usize = 3;

/// Every move of a `rows`×`cols` board whose pins are at most `longest`
/// long, as a set of masks. `longest = 2` is the plausible bug of a program
/// that forgets the 3-long pins.
pub fn moves_up_to(rows: usize, cols: usize, longest: usize) -> BTreeSet<u64> {
    assert!(rows * cols <= 64, "a {rows}x{cols} board is no u64 mask");
    let square = |r: usize, c: usize| 1u64 << (r * cols + c);
    // A pin of `len` squares, the k-th from the border at `at(k)`.
    let pin = |len: usize, at: &dyn Fn(usize) -> (usize, usize)| {
        (0..len).map(at).fold(0, |m, (r, c)| m | square(r, c))
    };
    let mut moves = BTreeSet::new();
    // Pushed straight down: any one square.
    for r in 0..rows {
        for c in 0..cols {
            moves.insert(square(r, c));
        }
    }
    // Pushed in from a side: `len` squares from the border inwards.
    for len in 1..=longest {
        if len <= cols {
            for r in 0..rows {
                moves.insert(pin(len, &|k| (r, k))); // from the left
                moves.insert(pin(len, &|k| (r, cols - 1 - k))); // from the right
            }
        }
        if len <= rows {
            for c in 0..cols {
                moves.insert(pin(len, &|k| (k, c))); // from the top
                moves.insert(pin(len, &|k| (rows - 1 - k, c))); // from the bottom
            }
        }
    }
    moves
}

/// Every move of a `rows`×`cols` board.
pub fn moves(rows: usize, cols: usize) -> BTreeSet<u64> {
    moves_up_to(rows, cols, LONGEST_PIN)
}

/// [`moves_up_to`] on the 4×4 board (bit 4r + c), ascending.
pub fn moves_4x4_up_to(longest: usize) -> Vec<u16> {
    moves_up_to(4, 4, longest)
        .into_iter()
        .map(|m| u16::try_from(m).expect("16 squares"))
        .collect()
}

/// Every move of the 4×4 board (bit 4r + c), ascending: 48 of them.
pub fn moves_4x4() -> Vec<u16> {
    moves_4x4_up_to(LONGEST_PIN)
}
