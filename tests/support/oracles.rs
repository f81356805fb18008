//! Independent oracles for the `check` and `gen` tests, written here from
//! the puzzle statements with methods of their own (not the library's):
//! Flip by enumerating all 65,536 press sets, Euler by a backward sweep over
//! a move list built here, Carcassonne by trying every turn of every tile.
#![allow(dead_code)]

/// The cells one press at `i` (bit `4r + c`) flips.
fn flip_press(i: usize) -> u16 {
    let (r, c) = (i / 4, i % 4);
    let mut m = 1u16 << i;
    if r > 0 {
        m |= 1 << (i - 4);
    }
    if r < 3 {
        m |= 1 << (i + 4);
    }
    if c > 0 {
        m |= 1 << (i - 1);
    }
    if c < 3 {
        m |= 1 << (i + 1);
    }
    m
}

/// Fewest rounds of every board (bit `4r + c` set = black) to either
/// uniform colour, `None` when impossible: every press set is tried once,
/// its effect `e` solves board `e` (to white) and board `!e` (to black).
pub fn flip_rounds() -> Vec<Option<u8>> {
    let mut best = vec![None::<u8>; 1 << 16];
    for set in 0u32..1 << 16 {
        let effect = (0..16)
            .filter(|i| set >> i & 1 == 1)
            .fold(0u16, |e, i| e ^ flip_press(i));
        let n = set.count_ones() as u8;
        for board in [effect, !effect] {
            let slot = &mut best[board as usize];
            *slot = Some(slot.map_or(n, |b| b.min(n)));
        }
    }
    best
}

/// The judge's answer text for a Flip board.
pub fn flip_answer(rounds: Option<u8>) -> String {
    rounds.map_or_else(|| "Impossible".to_owned(), |r| r.to_string())
}

/// Every Euler move mask: 16 single squares, and per row and column a
/// 2-long and a 3-long pin from each end (48 distinct masks). With
/// `longest = 2` the 3-long pins are left out (a plausible bug).
pub fn euler_moves(longest: usize) -> Vec<u16> {
    let mut moves: Vec<u16> = (0..16).map(|i| 1u16 << i).collect();
    for k in 0..4 {
        for len in 2..=longest {
            let mut pins = [0u16; 4];
            for j in 0..len {
                pins[0] |= 1 << (4 * k + j); // row k from the left
                pins[1] |= 1 << (4 * k + 3 - j); // from the right
                pins[2] |= 1 << (4 * j + k); // column k from the top
                pins[3] |= 1 << (4 * (3 - j) + k); // from the bottom
            }
            for p in pins {
                if !moves.contains(&p) {
                    moves.push(p);
                }
            }
        }
    }
    moves
}

/// Per covered mask: whether the player to move wins (misère: covering the
/// last square loses; the full board is a win for the player to move) and
/// the moves left with perfect play (the winner hurries, the loser
/// resists). Swept from the full board down: a move only adds squares.
pub fn euler_table(moves: &[u16]) -> (Vec<bool>, Vec<u8>) {
    let mut win = vec![false; 1 << 16];
    let mut plies = vec![0u8; 1 << 16];
    for p in (0..=u16::MAX).rev() {
        if p == u16::MAX {
            win[p as usize] = true;
            continue;
        }
        let children: Vec<usize> = moves
            .iter()
            .filter(|&&m| p & m == 0)
            .map(|&m| (p | m) as usize)
            .collect();
        let losing: Vec<usize> = children.iter().copied().filter(|&c| !win[c]).collect();
        let i = p as usize;
        if losing.is_empty() {
            plies[i] = 1 + children.iter().map(|&c| plies[c]).max().unwrap_or(0);
        } else {
            win[i] = true;
            plies[i] = 1 + losing.iter().map(|&c| plies[c]).min().unwrap_or(0);
        }
    }
    (win, plies)
}

/// Edge letters of a tile code turned `k` quarter turns (any fixed
/// direction: every turn is counted, so the direction does not matter).
fn turned(code: [u8; 4], k: usize) -> [u8; 4] {
    [0, 1, 2, 3].map(|side| code[(side + k) % 4])
}

/// The number of ways to turn the tiles of a `rows × cols` board (codes
/// top, right, bottom, left) so every shared edge matches: all `4^tiles`
/// choices tried, as a base-4 counter over the tiles' turns.
pub fn carcassonne_count(rows: usize, cols: usize, tiles: &[[u8; 4]]) -> u64 {
    let n = rows * cols;
    assert!(n <= 10, "brute force only for small boards");
    let turns: Vec<[[u8; 4]; 4]> = tiles
        .iter()
        .map(|&t| [0, 1, 2, 3].map(|k| turned(t, k)))
        .collect();
    let mut t = [[0u8; 4]; 10];
    let mut count = 0;
    for choice in 0u64..1 << (2 * n) {
        for (i, slot) in t.iter_mut().enumerate().take(n) {
            *slot = turns[i][(choice >> (2 * i) & 3) as usize];
        }
        let mut ok = true;
        'cells: for r in 0..rows {
            for c in 0..cols {
                let here = t[r * cols + c];
                if (c + 1 < cols && here[1] != t[r * cols + c + 1][3])
                    || (r + 1 < rows && here[2] != t[(r + 1) * cols + c][0])
                {
                    ok = false;
                    break 'cells;
                }
            }
        }
        count += u64::from(ok);
    }
    count
}
