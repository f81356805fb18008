/* Exercises include/boardbase.h from C; run by capi/tests/c_program.rs.
 *
 * Output, one line each:
 *   for every 16-bit value i, in order:
 *     "<flip rounds> <flip presses> <euler winning> <euler plies> <euler best move>"
 *   then for every Carcassonne case: "carcassonne <label> <result>"
 *   then "end".
 */
#include <stdint.h>
#include <stdio.h>

#include "boardbase.h"

/* The 8x8 sample of HDU 4064, row-major, no separators. */
static const char SAMPLE_8X8[] =
    "FCFFRRFCFRCRFRFRRCCRFFCCRRFFCRFR"
    "FRRCFRFRCCCRFCFCCRRCCRRRFRCRFRFR"
    "RRCRFRRRCCCRFFFCRRFFRFCRCCFFFCCC"
    "CFCFRRFFCRFRFFRRFRRFCCRRFFFCCRRF"
    "CFRRFFFFFFFFRRFFRRRRRCRRFFCCRFRF"
    "RRCFFRFRFRRRFRFRRCCRRCCCCFFCRFRF"
    "CFCFFRFFRRFFFFFFCFFFCFFFFRFFRFRR"
    "CCRRFCFCFCCCFCCCFFCCFCCFFFCCRFRF";

struct carcassonne_case {
    const char *label;
    uint32_t rows, cols;
    const char *tiles;
};

static const struct carcassonne_case CASES[] = {
    {"sample-1x1", 1, 1, "RRRR"},
    {"sample-1x2", 1, 2, "RRRFFCCC"},
    {"sample-8x8", 8, 8, SAMPLE_8X8},
    {"null", 1, 1, NULL},
    {"too-short", 1, 2, "RRRF"},
    {"too-long", 1, 1, "RRRRF"},
    {"separators", 1, 2, "RRRF FCCC"},
    {"bad-letter", 1, 1, "RRRX"},
    {"lowercase", 1, 1, "rrrr"},
    {"non-utf8", 1, 1, "RR\xc3\xa9"},
    {"zero-rows", 0, 1, ""},
    {"zero-cols", 3, 0, ""},
    {"overflow", 0xFFFFFFFFu, 0xFFFFFFFFu, "RRRR"},
    {"huge", 65536, 65536, "RRRR"},
    {"too-wide", 17, 17, NULL}, /* filled in by main: 17*17 valid tiles */
};

int main(void) {
    static char wide[17 * 17 * 4 + 1];
    for (int i = 0; i < 17 * 17 * 4; i++) wide[i] = 'R';
    wide[17 * 17 * 4] = '\0';

    for (uint32_t i = 0; i <= 0xFFFF; i++) {
        uint16_t b = (uint16_t)i;
        printf("%u %u %d %u %u\n", (unsigned)boardbase_flip_rounds(b),
               (unsigned)boardbase_flip_presses(b), boardbase_euler_winning(b),
               (unsigned)boardbase_euler_plies(b), (unsigned)boardbase_euler_best_move(b));
    }
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        const struct carcassonne_case *c = &CASES[k];
        const char *tiles = c->tiles;
        if (c->rows == 17) tiles = wide;
        printf("carcassonne %s %lld\n", c->label,
               (long long)boardbase_carcassonne_count(c->rows, c->cols, tiles));
    }
    if (BOARDBASE_FLIP_IMPOSSIBLE != 255) return 1;
    printf("end\n");
    return 0;
}
