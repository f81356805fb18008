//! Small programs for the `check` tests: C sources compiled with the
//! system's `cc`, and shell scripts, in a scratch directory under the
//! target directory.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The scratch directory of the test programs (reused between runs: each
/// file is written under a temporary name and renamed into place).
pub fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("check-programs");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A name for a file being written, unique to this call (tests run on
/// several threads, and two may write the same program).
fn temporary(path: &Path) -> PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}-{call}", std::process::id()));
    path.with_file_name(name)
}

/// Compiles `source` (C) to an executable named `name`.
pub fn c_program(name: &str, source: &str) -> PathBuf {
    let dir = scratch();
    let src = temporary(&dir.join(format!("{name}.c")));
    let exe = dir.join(name);
    let built = temporary(&exe);
    std::fs::write(&src, source).expect("source written");
    let out = Command::new("cc")
        .args(["-O2", "-x", "c", "-o"])
        .arg(&built)
        .arg(&src)
        .output()
        .expect("the tests need a C compiler as `cc` on PATH (e.g. apt-get install gcc)");
    assert!(
        out.status.success(),
        "cc failed on {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(&src);
    std::fs::rename(&built, &exe).expect("program renamed into place");
    exe
}

/// Writes an executable shell script named `name`.
pub fn script(name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = scratch().join(name);
    let temp = temporary(&path);
    std::fs::write(&temp, format!("#!/bin/sh\n{body}\n")).expect("script written");
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::rename(&temp, &path).expect("script renamed into place");
    path
}

/// A Flip (POJ 1753) solution in C: tries all 65,536 press sets.
/// `MODE` changes it: 0 right; 1 prints `0` for impossible boards; 2 aborts
/// on boards whose first piece is black; 3 prints `Impossible.` for
/// impossible boards; 4 prints two spaces before each answer; 5 a blank
/// line before it. With an argument, it appends `BOARD ANSWER` to that
/// file (the board as 16 letters), so a test knows what it was asked.
pub fn flip_solution(mode: u32) -> PathBuf {
    flip_solution_burning(mode, 0)
}

/// [`flip_solution`] that first spins until it has used `burn_ms`
/// milliseconds of CPU time (as `clock()` counts it): a right program
/// close to its limit, whatever the machine's load.
pub fn flip_solution_burning(mode: u32, burn_ms: u32) -> PathBuf {
    let source = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char **argv) {
    volatile unsigned long spins = 0;
    while (BURN_MS > 0 && clock() < (clock_t)BURN_MS * (CLOCKS_PER_SEC / 1000)) spins++;
    char rows[4][8], text[17] = {0};
    int board = 0;
    for (int r = 0; r < 4; r++) {
        if (scanf("%7s", rows[r]) != 1) return 1;
        for (int c = 0; c < 4; c++) {
            text[4 * r + c] = rows[r][c];
            if (rows[r][c] == 'b') board |= 1 << (4 * r + c);
        }
    }
    if (MODE == 2 && text[0] == 'b') abort();
    int best = 99;
    for (int p = 0; p < 65536; p++) {
        int n = __builtin_popcount(p);
        if (n >= best) continue;
        int b = board;
        for (int i = 0; i < 16; i++) if (p >> i & 1) {
            int r = i / 4, c = i % 4;
            b ^= 1 << i;
            if (r > 0) b ^= 1 << (i - 4);
            if (r < 3) b ^= 1 << (i + 4);
            if (c > 0) b ^= 1 << (i - 1);
            if (c < 3) b ^= 1 << (i + 1);
        }
        if (b == 0 || b == 0xFFFF) best = n;
    }
    char answer[16];
    if (best < 99) sprintf(answer, "%d", best);
    else strcpy(answer, MODE == 1 ? "0" : MODE == 3 ? "Impossible." : "Impossible");
    printf(MODE == 4 ? "  %s\n" : MODE == 5 ? "\n%s\n" : "%s\n", answer);
    if (argc > 1) {
        FILE *log = fopen(argv[1], "a");
        if (!log) return 2;
        fprintf(log, "%s %s\n", text, answer);
        fclose(log);
    }
    return 0;
}
"#;
    let name = match burn_ms {
        0 => format!("flip-{mode}"),
        ms => format!("flip-{mode}-burn-{ms}"),
    };
    c_program(
        &name,
        &format!("#define MODE {mode}\n#define BURN_MS {burn_ms}\n{source}"),
    )
}

/// A Game of Euler (UVA 10536) solution in C: memoized search over the
/// covered masks. `LONGEST` is the longest pin it knows (3 is right; 2
/// forgets the 3-long pins). `STOP`: after that many answers it flushes
/// and aborts (0: never). `LOWER`: that answer is printed in lower case
/// (0: none). `EXTRA`: prints one more line at the end.
pub fn euler_solution(name: &str, longest: u32, stop: u32, lower: u32, extra: bool) -> PathBuf {
    let source = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int moves[64], nmoves;
static signed char memo[65536];
static void add(int m) {
    for (int i = 0; i < nmoves; i++) if (moves[i] == m) return;
    moves[nmoves++] = m;
}
static int win(int p) {
    if (p == 0xFFFF) return 1;
    if (memo[p] >= 0) return memo[p];
    int w = 0;
    for (int i = 0; i < nmoves && !w; i++)
        if (!(p & moves[i]) && !win(p | moves[i])) w = 1;
    return memo[p] = w;
}
int main(void) {
    for (int i = 0; i < 16; i++) add(1 << i);
    for (int k = 0; k < 4; k++)
        for (int len = 2; len <= LONGEST; len++) {
            int a = 0, b = 0, c = 0, d = 0;
            for (int j = 0; j < len; j++) {
                a |= 1 << (4 * k + j); b |= 1 << (4 * k + 3 - j);
                c |= 1 << (4 * j + k); d |= 1 << (4 * (3 - j) + k);
            }
            add(a); add(b); add(c); add(d);
        }
    memset(memo, -1, sizeof memo);
    int n, k = 0;
    if (scanf("%d", &n) != 1) return 1;
    char row[8];
    while (n--) {
        int p = 0;
        for (int r = 0; r < 4; r++) {
            if (scanf("%7s", row) != 1) return 1;
            for (int c = 0; c < 4; c++) if (row[c] == 'X') p |= 1 << (4 * r + c);
        }
        k++;
        if (k == LOWER) puts(win(p) ? "Winning" : "Losing");
        else puts(win(p) ? "WINNING" : "LOSING");
        if (k == STOP) { fflush(stdout); abort(); }
    }
    if (EXTRA) puts("WINNING");
    return 0;
}
"#;
    c_program(
        name,
        &format!(
            "#define LONGEST {longest}\n#define STOP {stop}\n#define LOWER {lower}\n#define EXTRA {}\n{source}",
            u32::from(extra)
        ),
    )
}

/// A Carcassonne (HDU 4064) "solution" in C that reads every case and
/// answers `LABEL k: 0` (LABEL `Case` or e.g. `Case #`).
pub fn carcassonne_zero(name: &str, label: &str) -> PathBuf {
    let source = r#"
#include <stdio.h>
int main(void) {
    int t, n, m;
    char tile[8];
    if (scanf("%d", &t) != 1) return 1;
    for (int k = 1; k <= t; k++) {
        if (scanf("%d %d", &n, &m) != 2) return 1;
        for (int i = 0; i < n * m; i++) if (scanf("%7s", tile) != 1) return 1;
        printf(LABEL "%d: 0\n", k);
    }
    return 0;
}
"#;
    c_program(name, &format!("#define LABEL \"{label}\"\n{source}"))
}

/// A Fliptile (POJ 3279) solution in C, the classical one: every first row
/// in increasing order (column 0 the most significant bit, so the order is
/// the judge's reading order), the lights chased row by row, the first set
/// with the fewest flips kept. `MODE` changes it: 0 right; 1 keeps the
/// *last* set with the fewest flips (`<=`: wrong wherever several tie);
/// 2 prints `Impossible`; 3 prints the rows' cells run together; 4 prints
/// the first flip set that works, not the fewest. With an argument, it
/// appends `M N CELLS` (the cells as one string of 0/1) to that file.
pub fn fliptile_solution(mode: u32) -> PathBuf {
    let source = r#"
#include <stdio.h>
#include <string.h>
static int m, n, board[17][17], flip[17][17], best[17][17];
int main(int argc, char **argv) {
    if (scanf("%d %d", &m, &n) != 2 || m < 1 || n < 1 || m > 15 || n > 15) return 1;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            if (scanf("%d", &board[i][j]) != 1) return 1;
    int fewest = -1;
    for (int s = 0; s < 1 << n; s++) {
        memset(flip, 0, sizeof flip);
        for (int j = 0; j < n; j++) flip[0][j] = s >> (n - 1 - j) & 1;
        for (int i = 1; i < m; i++)
            for (int j = 0; j < n; j++) {
                int c = board[i - 1][j] ^ flip[i - 1][j] ^ flip[i][j];
                if (i > 1) c ^= flip[i - 2][j];
                if (j > 0) c ^= flip[i - 1][j - 1];
                if (j + 1 < n) c ^= flip[i - 1][j + 1];
                flip[i][j] = c;
            }
        int ok = 1, count = 0;
        for (int j = 0; j < n; j++) {
            int c = board[m - 1][j] ^ flip[m - 1][j];
            if (m > 1) c ^= flip[m - 2][j];
            if (j > 0) c ^= flip[m - 1][j - 1];
            if (j + 1 < n) c ^= flip[m - 1][j + 1];
            if (c) ok = 0;
        }
        if (!ok) continue;
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) count += flip[i][j];
        int better = fewest < 0 || (MODE == 1 ? count <= fewest : count < fewest);
        if (MODE == 4 && fewest >= 0) better = 0;
        if (better) { fewest = count; memcpy(best, flip, sizeof flip); }
    }
    if (fewest < 0) puts(MODE == 2 ? "Impossible" : "IMPOSSIBLE");
    else
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                printf("%d%s", best[i][j], j + 1 < n ? (MODE == 3 ? "" : " ") : "\n");
    if (argc > 1) {
        FILE *log = fopen(argv[1], "a");
        if (!log) return 2;
        fprintf(log, "%d %d ", m, n);
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) fputc('0' + board[i][j], log);
        fputc('\n', log);
        fclose(log);
    }
    return 0;
}
"#;
    c_program(
        &format!("fliptile-{mode}"),
        &format!("#define MODE {mode}\n{source}"),
    )
}

/// An Extended Lights Out (POJ 1222) solution in C: every first row of
/// presses, the lights chased, the one that turns the last row off.
/// `LABEL` is printed before the puzzle number (`PUZZLE #` is right).
/// `SKIP_EMPTY`: the first rows are tried from 1, not 0, and the last one
/// tried is printed when none works (wrong exactly on the puzzles whose
/// presses leave the first row alone). `STOP`: after that many answers it
/// flushes and aborts (0: never).
pub fn lightsout_solution(name: &str, label: &str, skip_empty: bool, stop: u32) -> PathBuf {
    lightsout_program(name, label, skip_empty, stop, 0)
}

/// The right [`lightsout_solution`], its answers laid out otherwise:
/// `LAYOUT` 1 prints each puzzle's 30 presses on one line (its label on the
/// line before), 2 a blank line before the first answer, 3 two spaces
/// before each label.
pub fn lightsout_laid_out(name: &str, layout: u32) -> PathBuf {
    lightsout_program(name, "PUZZLE #", false, 0, layout)
}

fn lightsout_program(name: &str, label: &str, skip_empty: bool, stop: u32, layout: u32) -> PathBuf {
    let source = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int lit[5][6], on[5][6], press[5][6];
static void toggle(int r, int c) {
    press[r][c] ^= 1;
    on[r][c] ^= 1;
    if (r > 0) on[r - 1][c] ^= 1;
    if (r < 4) on[r + 1][c] ^= 1;
    if (c > 0) on[r][c - 1] ^= 1;
    if (c < 5) on[r][c + 1] ^= 1;
}
int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int k = 1; k <= t; k++) {
        for (int r = 0; r < 5; r++)
            for (int c = 0; c < 6; c++)
                if (scanf("%d", &lit[r][c]) != 1) return 1;
        int found = 0;
        for (int s = SKIP_EMPTY; s < 64 && !found; s++) {
            memcpy(on, lit, sizeof on);
            memset(press, 0, sizeof press);
            for (int c = 0; c < 6; c++) if (s >> c & 1) toggle(0, c);
            for (int r = 1; r < 5; r++)
                for (int c = 0; c < 6; c++) if (on[r - 1][c]) toggle(r, c);
            found = 1;
            for (int c = 0; c < 6; c++) if (on[4][c]) found = 0;
        }
        if (LAYOUT == 2 && k == 1) printf("\n");
        printf("%s%s%d\n", LAYOUT == 3 ? "  " : "", LABEL, k);
        for (int r = 0; r < 5; r++)
            for (int c = 0; c < 6; c++)
                printf("%d%c", press[r][c], c < 5 || (LAYOUT == 1 && r < 4) ? ' ' : '\n');
        if (k == STOP) { fflush(stdout); abort(); }
    }
    return 0;
}
"#;
    c_program(
        name,
        &format!(
            "#define LABEL \"{label}\"\n#define SKIP_EMPTY {}\n#define STOP {stop}\n#define LAYOUT {layout}\n{source}",
            u32::from(skip_empty)
        ),
    )
}
