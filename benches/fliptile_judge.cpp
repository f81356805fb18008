// The classical POJ 3279 ("Fliptile") solution, for benchmarking only:
// enumerate the 2^N presses of the first row, chase the lights row by row
// with bitmasks (press under every tile still black in the row above), keep
// the first row that leaves the last row white with the fewest flips.
//
// First rows are tried in lexicographic order of the output (column 0 is
// the most significant), and only a strictly smaller count replaces the
// best, so ties go to the least answer in reading order, as the judge asks:
// the first row decides the rest, so it decides the order.
//
// Reads cases back to back until the end of the input (the judge sends
// one), from standard input or the file named by the first argument (so
// that hyperfine can run it without a shell). Build:
// c++ -O2 -o fliptile_judge benches/fliptile_judge.cpp
#include <cstdio>

int main(int argc, char **argv) {
    if (argc > 1 && !std::freopen(argv[1], "r", stdin)) {
        std::perror(argv[1]);
        return 1;
    }
    int m, n;
    while (std::scanf("%d %d", &m, &n) == 2) {
        unsigned tiles[16] = {0};
        for (int r = 0; r < m; r++)
            for (int c = 0; c < n; c++) {
                int v;
                std::scanf("%d", &v);
                if (v) tiles[r] |= 1u << c;
            }
        const unsigned full = (1u << n) - 1;
        int best = -1;
        unsigned best_press[16];
        for (unsigned order = 0; order < (1u << n); order++) {
            // Bit c of the first row is bit n-1-c of `order`.
            unsigned first = 0;
            for (int c = 0; c < n; c++)
                if (order >> (n - 1 - c) & 1) first |= 1u << c;
            unsigned press[16], lit[16];
            for (int r = 0; r < m; r++) lit[r] = tiles[r];
            int flips = 0;
            for (int r = 0; r < m; r++) {
                press[r] = r == 0 ? first : lit[r - 1];
                unsigned p = press[r];
                flips += __builtin_popcount(p);
                lit[r] ^= (p ^ (p << 1) ^ (p >> 1)) & full;
                if (r > 0) lit[r - 1] ^= p;
                if (r + 1 < m) lit[r + 1] ^= p;
            }
            if (lit[m - 1] == 0 && (best < 0 || flips < best)) {
                best = flips;
                for (int r = 0; r < m; r++) best_press[r] = press[r];
            }
        }
        if (best < 0) {
            std::puts("IMPOSSIBLE");
            continue;
        }
        for (int r = 0; r < m; r++)
            for (int c = 0; c < n; c++)
                std::printf("%d%c", best_press[r] >> c & 1, c + 1 < n ? ' ' : '\n');
    }
    return 0;
}
