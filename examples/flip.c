#include <stdio.h>
#include <string.h>
/* A plausible light-chasing solution: choose the first row's presses, then
   press under every black piece row by row, and count. Its bug: it only
   chases to all white, never to all black. */
int g[4][4], t[4][4];
static void press(int r, int c) {
    t[r][c] ^= 1;
    if (r > 0) t[r-1][c] ^= 1;
    if (r < 3) t[r+1][c] ^= 1;
    if (c > 0) t[r][c-1] ^= 1;
    if (c < 3) t[r][c+1] ^= 1;
}
int main(void) {
    char row[8];
    for (int r = 0; r < 4; r++) {
        if (scanf("%7s", row) != 1) return 1;
        for (int c = 0; c < 4; c++) g[r][c] = row[c] == 'b';
    }
    int best = 99;
    for (int first = 0; first < 16; first++) {
        memcpy(t, g, sizeof t);
        int n = 0;
        for (int c = 0; c < 4; c++) if (first >> c & 1) { press(0, c); n++; }
        for (int r = 1; r < 4; r++)
            for (int c = 0; c < 4; c++)
                if (t[r-1][c]) { press(r, c); n++; }
        int ok = 1;
        for (int c = 0; c < 4; c++) if (t[3][c]) ok = 0;
        if (ok && n < best) best = n;
    }
    if (best == 99) printf("Impossible\n"); else printf("%d\n", best);
    return 0;
}
