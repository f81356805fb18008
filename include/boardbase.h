/*
 * boardbase.h: the C interface of boardbase (libboardbase.a, libboardbase.so).
 *
 * Build the libraries with `cargo build --release -p boardbase-capi`; they are
 * written to target/release/. Link the static library with
 * `-lpthread -ldl -lm`.
 *
 * Bit layout: a 4x4 board is a uint16_t with cell (row, col), both 0-based,
 * at bit 4*row + col, row 0 being the top row:
 *
 *     bit  0  1  2  3     row 0
 *     bit  4  5  6  7     row 1
 *     bit  8  9 10 11     row 2
 *     bit 12 13 14 15     row 3
 *
 * Flip Game: a set bit is a black piece. Game of Euler: a set bit is a
 * covered square. Press sets and moves use the same layout.
 *
 * The Flip and Euler functions accept any 16-bit value and only read tables.
 * boardbase_carcassonne_count accepts NULL and any rows and cols, reads at most
 * rows*cols*4 + 1 bytes of tiles (never past its NUL), and returns -1 for bad
 * input. No function panics or unwinds into the caller.
 *
 * Table files of any board shape (written by `boardbase export` or
 * `boardbase generate`): boardbase_table_open maps a file and checks its
 * structure (NULL on failure); the probes take a board of the table's R x C
 * shape as a uint64_t with cell (row, col) at bit C*row + col, and return -1
 * for a NULL table, a table of the other puzzle, or a board with bits outside
 * the shape. After any failure (NULL or -1), boardbase_last_error() says why:
 * a message kept per thread, left unchanged by calls that succeed, valid until
 * the next failing call on the same thread (never free it). A table can be
 * probed from several threads at once; close it once, when no thread uses it.
 * As with any memory-mapped file, a file cut short by another process while it
 * is open can make a probe fault.
 */
#ifndef BOARDBASE_H
#define BOARDBASE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BOARDBASE_FLIP_IMPOSSIBLE 255

uint8_t  boardbase_flip_rounds(uint16_t board);       /* bit 4*row+col set = black; 0..16, or 255 */
uint16_t boardbase_flip_presses(uint16_t board);      /* an optimal set of cells to press; 0 if impossible or uniform */
int      boardbase_euler_winning(uint16_t covered);   /* 1: the player to move wins; 0: loses (full board: 1) */
uint8_t  boardbase_euler_plies(uint16_t covered);     /* moves left with perfect play (full board: 0) */
uint16_t boardbase_euler_best_move(uint16_t covered); /* squares covered by the best move (full board: 0) */
int64_t  boardbase_carcassonne_count(uint32_t rows, uint32_t cols, const char *tiles);
         /* tiles: rows*cols four-letter codes, row-major, no separators, NUL-terminated;
            the count mod 1,000,000,007, or -1 on bad input */

typedef struct boardbase_table boardbase_table;

boardbase_table *boardbase_table_open(const char *path);     /* NULL on failure: see boardbase_last_error */
void        boardbase_table_close(boardbase_table *table);   /* NULL is ignored */
const char *boardbase_last_error(void);                      /* why this thread's last failed call failed; "" if none */
int         boardbase_table_rows(const boardbase_table *table); /* -1 for NULL */
int         boardbase_table_cols(const boardbase_table *table); /* -1 for NULL */
const char *boardbase_table_puzzle(const boardbase_table *table); /* "flip" or "euler"; NULL for NULL */
int         boardbase_table_euler_winning(const boardbase_table *table, uint64_t covered);
            /* 1: the player to move wins; 0: loses (full board: 1); -1 on error */
int         boardbase_table_flip_rounds(const boardbase_table *table, uint64_t board);
            /* fewest rounds, BOARDBASE_FLIP_IMPOSSIBLE (255) if impossible, -1 on error */

#ifdef __cplusplus
}
#endif

#endif /* BOARDBASE_H */
