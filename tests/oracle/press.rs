//! The press rule of the Flip Game (POJ 1753), Fliptile (POJ 3279) and
//! Lights Out, written once for every test: pressing cell (r, c) of an
//! R×C board flips that cell and its orthogonal neighbours (up, down, left,
//! right) that lie on the board. Nothing here calls the library.
//!
//! The rule itself is [`flips`], on coordinates, so that it holds for any
//! board (Lights Out goes to 64×64). Everything else is that rule in the
//! representation a test needs:
//!
//! - masks, cell (r, c) at bit C·r + c of a `u64` (boards of at most 64
//!   cells): [`mask`], [`masks`], [`effect`], [`pressed`], [`apply`];
//! - the 4×4 Flip Game board as a `u16`: [`pressed_4x4`], [`apply_4x4`];
//! - one byte a cell, row-major: [`press_cells`], [`pressed_cells`].

/// The offsets a press reaches: the cell, then up, down, left and right.
const REACH: [(isize, isize); 5] = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)];

/// The cells a press at (`r`, `c`) of a `rows`×`cols` board flips: the cell
/// itself and its orthogonal neighbours on the board, in that order (the
/// cell, up, down, left, right), each once.
pub fn flips(rows: usize, cols: usize, r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
    assert!(
        r < rows && c < cols,
        "({r}, {c}) is not on a {rows}x{cols} board"
    );
    REACH.into_iter().filter_map(move |(dr, dc)| {
        let (rr, cc) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
        (rr < rows && cc < cols).then_some((rr, cc))
    })
}

/// The cells a press at (`r`, `c`) flips, as a mask (bit C·r + c).
pub fn mask(rows: usize, cols: usize, r: usize, c: usize) -> u64 {
    assert!(rows * cols <= 64, "a {rows}x{cols} board is no u64 mask");
    flips(rows, cols, r, c).fold(0, |m, (rr, cc)| m | 1 << (rr * cols + cc))
}

/// Every cell's press mask, in reading order (index C·r + c).
pub fn masks(rows: usize, cols: usize) -> Vec<u64> {
    (0..rows * cols)
        .map(|i| mask(rows, cols, i / cols, i % cols))
        .collect()
}

/// The cells the press set `presses` flips (bit C·r + c set: (r, c)
/// pressed): every press's cells, those flipped twice unflipped.
pub fn effect(rows: usize, cols: usize, presses: u64) -> u64 {
    let cells = rows * cols;
    assert!(
        cells >= 64 || presses >> cells == 0,
        "presses {presses:#x} off a {rows}x{cols} board"
    );
    let mut left = presses;
    let mut flipped = 0;
    while left != 0 {
        let i = left.trailing_zeros() as usize;
        flipped ^= mask(rows, cols, i / cols, i % cols);
        left &= left - 1;
    }
    flipped
}

/// `board` after a press at (`r`, `c`).
pub fn pressed(rows: usize, cols: usize, board: u64, r: usize, c: usize) -> u64 {
    board ^ mask(rows, cols, r, c)
}

/// `board` after pressing every cell of `presses` (in any order: presses
/// commute).
pub fn apply(rows: usize, cols: usize, board: u64, presses: u64) -> u64 {
    board ^ effect(rows, cols, presses)
}

/// [`pressed`] on the 4×4 board (bit 4r + c).
pub fn pressed_4x4(board: u16, r: usize, c: usize) -> u16 {
    pressed(4, 4, u64::from(board), r, c) as u16
}

/// [`apply`] on the 4×4 board (bit 4r + c).
pub fn apply_4x4(board: u16, presses: u16) -> u16 {
    apply(4, 4, u64::from(board), u64::from(presses)) as u16
}

/// Presses (`r`, `c`) on a board of one byte a cell, row-major: each cell
/// flipped has its lowest bit toggled (`0` and `1` swap).
pub fn press_cells(rows: usize, cols: usize, cells: &mut [u8], r: usize, c: usize) {
    assert_eq!(cells.len(), rows * cols, "one byte a cell");
    for (rr, cc) in flips(rows, cols, r, c) {
        cells[rr * cols + cc] ^= 1;
    }
}

/// [`press_cells`] on a copy: the board after the press.
pub fn pressed_cells(rows: usize, cols: usize, cells: &[u8], r: usize, c: usize) -> Vec<u8> {
    let mut out = cells.to_vec();
    press_cells(rows, cols, &mut out, r, c);
    out
}
