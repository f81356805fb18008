/* Exercises the table functions of include/boardbase.h from C; run by
 * capi/tests/c_program.rs with the paths of six files:
 *   argv[1] flip-4x4.bin, argv[2] euler-4x4.bin (boardbase export),
 *   argv[3] flip-3x5.bin, argv[4] euler-3x5.bin (written by the test from its oracle),
 *   argv[5] a truncated table file,
 *   argv[6] euler-4x4.bin with a damaged block (block 1 of `winning`).
 *
 * Output, one line each:
 *   "open <label> <rows> <cols> <puzzle>" for each table;
 *   "4x4 <mismatches>": boards where the tables and the 4x4 functions differ;
 *   for every 3x5 board b in order: "<flip rounds> <euler winning>";
 *   "error <label> <result> <message>" for each failing call, and
 *   "damaged-other <winning>" for a position of an intact block of argv[6];
 *   "end".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "boardbase.h"

static void error_line(const char *label, long long result) {
    printf("error %s %lld %s\n", label, result, boardbase_last_error());
}

int main(int argc, char **argv) {
    if (argc != 7) return 2;
    const char *labels[4] = {"flip4", "euler4", "flip35", "euler35"};
    boardbase_table *t[4];
    for (int i = 0; i < 4; i++) {
        t[i] = boardbase_table_open(argv[i + 1]);
        if (t[i] == NULL) {
            printf("cannot open %s: %s\n", argv[i + 1], boardbase_last_error());
            return 1;
        }
        printf("open %s %d %d %s\n", labels[i], boardbase_table_rows(t[i]),
               boardbase_table_cols(t[i]), boardbase_table_puzzle(t[i]));
    }

    long mismatches = 0;
    for (uint32_t b = 0; b <= 0xFFFF; b++) {
        if (boardbase_table_flip_rounds(t[0], b) != boardbase_flip_rounds((uint16_t)b)) mismatches++;
        if (boardbase_table_euler_winning(t[1], b) != boardbase_euler_winning((uint16_t)b)) mismatches++;
    }
    printf("4x4 %ld\n", mismatches);

    for (uint64_t b = 0; b < (1u << 15); b++)
        printf("%d %d\n", boardbase_table_flip_rounds(t[2], b), boardbase_table_euler_winning(t[3], b));

    /* Errors: a value, never a crash, and a message. */
    error_line("euler-out-of-range", boardbase_table_euler_winning(t[1], 1u << 16));
    error_line("flip-out-of-range", boardbase_table_flip_rounds(t[2], UINT64_MAX));
    error_line("euler-on-flip", boardbase_table_euler_winning(t[0], 0));
    error_line("flip-on-euler", boardbase_table_flip_rounds(t[3], 0));
    /* A damaged block: refused with its name; the other blocks answer. */
    boardbase_table *damaged = boardbase_table_open(argv[6]);
    if (damaged == NULL) return 1;
    error_line("damaged-block", boardbase_table_euler_winning(damaged, 1u << 15));
    printf("damaged-other %d\n", boardbase_table_euler_winning(damaged, 5));
    boardbase_table_close(damaged);
    error_line("null-rows", boardbase_table_rows(NULL));
    error_line("null-cols", boardbase_table_cols(NULL));
    error_line("null-euler", boardbase_table_euler_winning(NULL, 0));
    error_line("null-flip", boardbase_table_flip_rounds(NULL, 0));
    error_line("null-puzzle", boardbase_table_puzzle(NULL) == NULL ? -1 : 0);
    error_line("open-null", boardbase_table_open(NULL) == NULL ? -1 : 0);
    error_line("open-missing", boardbase_table_open("/nonexistent/boardbase.bin") == NULL ? -1 : 0);
    error_line("open-truncated", boardbase_table_open(argv[5]) == NULL ? -1 : 0);
    /* Success leaves the last error as it was. */
    if (boardbase_table_flip_rounds(t[0], 0) != 0) return 1;
    error_line("after-success", 0);

    for (int i = 0; i < 4; i++) boardbase_table_close(t[i]);
    boardbase_table_close(NULL);
    printf("end\n");
    return 0;
}
