//! The C interface of boardbase: `libboardbase.a` and `libboardbase.so`,
//! declared in `include/boardbase.h` at the repository root.
//!
//! Build with `cargo build --release -p boardbase-capi`; the libraries land
//! in `target/release/`. Every function is a plain lookup or a bounded
//! computation; none panics across the boundary: bad input gives the
//! documented error value.
//!
//! Boards and positions are 16-bit masks in boardbase's layout: cell (`row`,
//! `col`) at bit `4 * row + col`, row 0 first.
//!
//! This is its own package rather than a crate type of `boardbase` because a
//! `staticlib` or `cdylib` needs the standard library (a panic handler),
//! while `boardbase` also builds without it.

use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

use boardbase::carcassonne::{self, Board, Tile};
use boardbase::euler::{self, Position};
use boardbase::flip;

/// What [`boardbase_flip_rounds`] returns for a board that cannot be made
/// uniform (`BOARDBASE_FLIP_IMPOSSIBLE` in C).
pub const BOARDBASE_FLIP_IMPOSSIBLE: u8 = 255;

/// Fewest rounds to make a Flip Game board one colour (the closer colour),
/// or [`BOARDBASE_FLIP_IMPOSSIBLE`] (255) when neither colour can be
/// reached. Bit `4 * row + col` set means that piece is black.
#[unsafe(no_mangle)]
pub extern "C" fn boardbase_flip_rounds(board: u16) -> u8 {
    flip::rounds(flip::Board::from_bits(board)).unwrap_or(BOARDBASE_FLIP_IMPOSSIBLE)
}

/// One optimal set of cells to press (bit `4 * row + col`) that makes the
/// board one colour in [`boardbase_flip_rounds`] rounds; 0 when the board is
/// impossible or already uniform.
#[unsafe(no_mangle)]
pub extern "C" fn boardbase_flip_presses(board: u16) -> u16 {
    flip::solve(flip::Board::from_bits(board)).map_or(0, |s| s.presses.bits())
}

/// 1 when the player to move wins the Game of Euler from `covered` (bit
/// `4 * row + col` set = square covered), 0 when they lose. The full board
/// gives 1: the opponent covered the last square.
#[unsafe(no_mangle)]
pub extern "C" fn boardbase_euler_winning(covered: u16) -> i32 {
    i32::from(euler::outcome(Position::from_bits(covered)).is_win())
}

/// Moves (both players' together) left with perfect play until the board is
/// full; 0 for the full board.
#[unsafe(no_mangle)]
pub extern "C" fn boardbase_euler_plies(covered: u16) -> u8 {
    euler::probe(Position::from_bits(covered)).moves_left
}

/// The squares covered by one best move (for a win the fastest, for a loss
/// the longest resistance); 0 for the full board.
#[unsafe(no_mangle)]
pub extern "C" fn boardbase_euler_best_move(covered: u16) -> u16 {
    euler::probe(Position::from_bits(covered))
        .best_move
        .map_or(0, |m| m.bits())
}

/// The number of valid Carcassonne placements of a `rows × cols` board,
/// modulo 1,000,000,007, or -1 on bad input.
///
/// `tiles` holds `rows * cols` four-letter codes (`C`, `R`, `F`; top, right,
/// bottom, left), row-major, with no separators, and a terminating NUL.
/// Bad input: a null pointer, a string whose length is not exactly
/// `rows * cols * 4` bytes, another letter, a side of 0, both sides over 16,
/// or a board whose count would need more memory than the library's budget.
///
/// # Safety
///
/// `tiles` must be null or point to a NUL-terminated string. At most
/// `rows * cols * 4 + 1` bytes are read, and never past the NUL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_carcassonne_count(
    rows: u32,
    cols: u32,
    tiles: *const c_char,
) -> i64 {
    if tiles.is_null() {
        return -1;
    }
    let Some(expected) = (rows as usize)
        .checked_mul(cols as usize)
        .and_then(|cells| cells.checked_mul(4))
    else {
        return -1;
    };
    // The string's length, walking at most `expected + 1` bytes.
    let mut len = 0usize;
    // SAFETY: the caller guarantees a NUL-terminated string; the walk stops
    // at the first NUL, so every byte read is part of the string.
    while len <= expected && unsafe { *tiles.add(len) } != 0 {
        len += 1;
    }
    if len != expected {
        return -1;
    }
    // SAFETY: the `len` bytes before the NUL were just read one by one.
    let bytes = unsafe { std::slice::from_raw_parts(tiles.cast::<u8>(), len) };
    catch_unwind(AssertUnwindSafe(|| {
        count(rows as usize, cols as usize, bytes)
    }))
    .unwrap_or(-1)
}

/// The Carcassonne count of a validated-length board, or -1.
fn count(rows: usize, cols: usize, bytes: &[u8]) -> i64 {
    let tiles: Result<Vec<Tile>, _> = bytes.chunks_exact(4).map(Tile::try_from).collect();
    let Ok(tiles) = tiles else {
        return -1;
    };
    let Ok(board) = Board::new(rows, cols, tiles) else {
        return -1;
    };
    match carcassonne::count(&board) {
        // The count is below the modulus, far below `i64::MAX`.
        Ok(n) => i64::try_from(n).unwrap_or(-1),
        Err(_) => -1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_str(rows: u32, cols: u32, tiles: &[u8]) -> i64 {
        let c = std::ffi::CString::new(tiles).expect("no interior NUL");
        // SAFETY: a valid NUL-terminated string.
        unsafe { boardbase_carcassonne_count(rows, cols, c.as_ptr()) }
    }

    #[test]
    fn carcassonne_samples_and_bad_input() {
        assert_eq!(count_str(1, 1, b"RRRR"), 4);
        assert_eq!(count_str(1, 2, b"RRRFFCCC"), 1);
        // SAFETY: null is allowed.
        assert_eq!(
            unsafe { boardbase_carcassonne_count(1, 1, std::ptr::null()) },
            -1
        );
        assert_eq!(count_str(1, 1, b"RRR"), -1);
        assert_eq!(count_str(1, 1, b"RRRRR"), -1);
        assert_eq!(count_str(1, 1, b"RRRX"), -1);
        assert_eq!(count_str(1, 1, b"RR\xc3\xa9"), -1);
        assert_eq!(count_str(0, 1, b""), -1);
        assert_eq!(count_str(u32::MAX, u32::MAX, b"RRRR"), -1);
        assert_eq!(count_str(17, 17, &b"RRRR".repeat(17 * 17)), -1);
    }

    #[test]
    fn flip_and_euler_edges() {
        assert_eq!(boardbase_flip_rounds(0), 0);
        assert_eq!(boardbase_flip_rounds(1), BOARDBASE_FLIP_IMPOSSIBLE);
        assert_eq!(boardbase_flip_presses(u16::MAX), 0);
        assert_eq!(boardbase_euler_winning(u16::MAX), 1);
        assert_eq!(boardbase_euler_plies(u16::MAX), 0);
        assert_eq!(boardbase_euler_best_move(u16::MAX), 0);
        assert_eq!(boardbase_euler_winning(0), 0);
        assert_eq!(boardbase_euler_plies(0), 13);
    }
}
