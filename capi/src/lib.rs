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
//! Table files of any shape (`boardbase_table_*`) take boards as `u64` in
//! the layout of the table's shape: cell (`row`, `col`) at bit
//! `cols * row + col`. They report failures through a negative value (or
//! NULL) and a message, [`boardbase_last_error`], kept per thread.
//!
//! The 4×4 and table-file functions are one O(1) probe of the embedded
//! tables or of the table handed in; the Carcassonne count asks the answer
//! layer (`boardbase::tablebase::Tablebase`), as every other front end does.
//!
//! This is its own package rather than a crate type of `boardbase` because a
//! `staticlib` or `cdylib` needs the standard library (a panic handler),
//! while `boardbase` also builds without it.

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use boardbase::carcassonne::{Board, Tile};
use boardbase::euler::{self, Position};
use boardbase::flip;
use boardbase::tablebase::{CountOptions, Tablebase};
use boardbase::tablefile::Table;

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

/// The answer layer, for the answers that are not one probe of a table
/// (the Carcassonne count); made on first use, shared by every thread.
fn tablebase() -> &'static Tablebase {
    static TABLEBASE: OnceLock<Tablebase> = OnceLock::new();
    TABLEBASE.get_or_init(Tablebase::new)
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
    match tablebase().carcassonne(&board, &CountOptions::default(), || false) {
        // The count is below the modulus, far below `i64::MAX`.
        Ok(counted) => i64::try_from(counted.count).unwrap_or(-1),
        Err(_) => -1,
    }
}

thread_local! {
    /// The message of the last failed call on this thread.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records why a call failed, for [`boardbase_last_error`].
fn fail(message: impl Into<String>) {
    // An interior NUL cannot come from our messages, but a path could hold
    // one in theory: keep what precedes it.
    let mut bytes = message.into().into_bytes();
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(nul);
    }
    let message = CString::new(bytes).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = message);
}

/// Why the last failed call of this thread failed, as a NUL-terminated
/// UTF-8 message; an empty string when no call has failed on this thread.
/// Successful calls leave it as it is (as `errno`). The pointer stays valid
/// until the next failing call on the same thread; never free it.
#[unsafe(no_mangle)]
pub extern "C" fn boardbase_last_error() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// Opens a table file (`boardbase export`, `boardbase generate`): checks
/// its structure and maps it, reading no column (see
/// [`boardbase::tablefile::Table::open`]). NULL on failure, with the reason in
/// [`boardbase_last_error`]. Close it with [`boardbase_table_close`]. A
/// table may be probed from several threads at once.
///
/// # Safety
///
/// `path` must be NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_table_open(path: *const c_char) -> *mut Table {
    if path.is_null() {
        fail("boardbase_table_open: path is NULL");
        return std::ptr::null_mut();
    }
    // SAFETY: the caller guarantees a NUL-terminated string.
    let bytes = unsafe { CStr::from_ptr(path) }.to_bytes();
    let Some(os_path) = os_path(bytes) else {
        fail(format!(
            "cannot open {}: not a valid path on this system",
            String::from_utf8_lossy(bytes)
        ));
        return std::ptr::null_mut();
    };
    match catch_unwind(|| Table::open(os_path)) {
        Ok(Ok(table)) => Box::into_raw(Box::new(table)),
        Ok(Err(error)) => {
            fail(format!(
                "cannot open {}: {error}",
                String::from_utf8_lossy(bytes)
            ));
            std::ptr::null_mut()
        }
        Err(_) => {
            fail(format!(
                "cannot open {}: internal error",
                String::from_utf8_lossy(bytes)
            ));
            std::ptr::null_mut()
        }
    }
}

/// A path from C bytes: any bytes on Unix, UTF-8 elsewhere.
fn os_path(bytes: &[u8]) -> Option<&std::path::Path> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(std::path::Path::new(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes).ok().map(std::path::Path::new)
    }
}

/// Closes a table (unmaps the file). NULL is ignored.
///
/// # Safety
///
/// `table` must be NULL or a handle from [`boardbase_table_open`] not
/// closed before, and no other thread may be using it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_table_close(table: *mut Table) {
    if !table.is_null() {
        // SAFETY: the caller hands back a pointer from `Box::into_raw`.
        drop(unsafe { Box::from_raw(table) });
    }
}

/// The table behind a handle, or a recorded error for NULL.
///
/// # Safety
///
/// `table` must be NULL or a live handle.
unsafe fn table_ref<'a>(table: *const Table, function: &str) -> Option<&'a Table> {
    // SAFETY: the caller guarantees a live handle or NULL.
    let table = unsafe { table.as_ref() };
    if table.is_none() {
        fail(format!("{function}: the table is NULL"));
    }
    table
}

/// The table's number of rows, or -1 for NULL.
///
/// # Safety
///
/// `table` must be NULL or a live handle from [`boardbase_table_open`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_table_rows(table: *const Table) -> i32 {
    // SAFETY: as the caller guarantees.
    unsafe { table_ref(table, "boardbase_table_rows") }.map_or(-1, |t| t.shape().rows() as i32)
}

/// The table's number of columns (of the board), or -1 for NULL.
///
/// # Safety
///
/// `table` must be NULL or a live handle from [`boardbase_table_open`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_table_cols(table: *const Table) -> i32 {
    // SAFETY: as the caller guarantees.
    unsafe { table_ref(table, "boardbase_table_cols") }.map_or(-1, |t| t.shape().cols() as i32)
}

/// The table's puzzle, `"flip"` or `"euler"` (a static string), or NULL
/// for a NULL table.
///
/// # Safety
///
/// `table` must be NULL or a live handle from [`boardbase_table_open`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_table_puzzle(table: *const Table) -> *const c_char {
    // SAFETY: as the caller guarantees.
    match unsafe { table_ref(table, "boardbase_table_puzzle") }.map(Table::puzzle) {
        Some(boardbase::tablefile::Puzzle::Flip) => c"flip".as_ptr(),
        Some(boardbase::tablefile::Puzzle::Euler) => c"euler".as_ptr(),
        None => std::ptr::null(),
    }
}

/// 1 when the player to move wins the Game of Euler from `covered` (bit
/// `cols * row + col` set = square covered), 0 when they lose (full board:
/// 1); -1 for a NULL table, a table that is not Euler's, a position with
/// bits outside the board, or a damaged table.
///
/// # Safety
///
/// `table` must be NULL or a live handle from [`boardbase_table_open`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_table_euler_winning(table: *const Table, covered: u64) -> i32 {
    // SAFETY: as the caller guarantees.
    let Some(table) = (unsafe { table_ref(table, "boardbase_table_euler_winning") }) else {
        return -1;
    };
    match catch_unwind(|| table.as_euler().and_then(|t| t.outcome(covered))) {
        Ok(Ok(outcome)) => i32::from(outcome.is_win()),
        Ok(Err(error)) => {
            fail(format!("boardbase_table_euler_winning: {error}"));
            -1
        }
        Err(_) => {
            fail("boardbase_table_euler_winning: internal error");
            -1
        }
    }
}

/// Fewest rounds to make a Flip board (bit `cols * row + col` set = black)
/// one colour, [`BOARDBASE_FLIP_IMPOSSIBLE`] (255) when neither colour can
/// be reached; -1 for a NULL table, a table that is not Flip's, a board
/// with bits outside the shape, or a damaged table.
///
/// # Safety
///
/// `table` must be NULL or a live handle from [`boardbase_table_open`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardbase_table_flip_rounds(table: *const Table, board: u64) -> i32 {
    // SAFETY: as the caller guarantees.
    let Some(table) = (unsafe { table_ref(table, "boardbase_table_flip_rounds") }) else {
        return -1;
    };
    match catch_unwind(|| table.as_flip().and_then(|t| t.rounds(board))) {
        Ok(Ok(rounds)) => i32::from(rounds.unwrap_or(BOARDBASE_FLIP_IMPOSSIBLE)),
        Ok(Err(error)) => {
            fail(format!("boardbase_table_flip_rounds: {error}"));
            -1
        }
        Err(_) => {
            fail("boardbase_table_flip_rounds: internal error");
            -1
        }
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
