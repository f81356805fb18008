//! The embedded table against two oracles written here with other methods:
//! the Sprague–Grundy theory of Kayles (a position is lost exactly when the
//! Grundy numbers of its runs of standing pins XOR to zero) for every
//! position's value, and a memoised game search for every remoteness.

use boardbase_tables::game::Outcome;

const PINS: usize = kayles::rules::PINS;

/// Grundy numbers of a run of `n` pins: the mex of the XORs of the two runs
/// a move leaves.
fn grundy() -> Vec<u32> {
    let mut g = vec![0u32; PINS + 1];
    for n in 1..=PINS {
        let mut seen = [false; 64];
        for taken in 1..=2.min(n) {
            for left in 0..=n - taken {
                seen[(g[left] ^ g[n - taken - left]) as usize] = true;
            }
        }
        g[n] = (0..).find(|&v| !seen[v as usize]).unwrap();
    }
    g
}

/// The runs of standing pins of `p`.
fn runs(p: u64) -> Vec<usize> {
    let mut out = Vec::new();
    let mut run = 0;
    for i in 0..=PINS {
        if i < PINS && p >> i & 1 == 1 {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

/// (won, plies) by memoised search: a move to a lost position wins, the
/// fastest such; else the longest move loses.
fn search(p: u64, memo: &mut Vec<Option<(bool, u16)>>) -> (bool, u16) {
    if let Some(v) = memo[p as usize] {
        return v;
    }
    let mut fastest: Option<u16> = None;
    let mut longest: Option<u16> = None;
    for i in 0..PINS {
        for mask in [1u64 << i, 3u64 << i] {
            if mask >> PINS == 0 && p & mask == mask {
                let (won, plies) = search(p & !mask, memo);
                if !won {
                    fastest = Some(fastest.map_or(plies + 1, |f| f.min(plies + 1)));
                }
                longest = Some(longest.map_or(plies + 1, |l| l.max(plies + 1)));
            }
        }
    }
    let v = match (fastest, longest) {
        (Some(f), _) => (true, f),
        (None, Some(l)) => (false, l),
        (None, None) => (false, 0),
    };
    memo[p as usize] = Some(v);
    v
}

#[test]
fn every_position_against_sprague_grundy_and_game_search() {
    let g = grundy();
    // The known start of Kayles' Grundy sequence.
    assert_eq!(&g[..13], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
    let mut memo = vec![None; 1 << PINS];
    for p in 0..1u64 << PINS {
        let xor = runs(p).iter().fold(0, |x, &n| x ^ g[n]);
        let (won, plies) = search(p, &mut memo);
        assert_eq!(won, xor != 0, "{p:b}");
        let want = if won {
            Outcome::Win(plies)
        } else {
            Outcome::Lose(plies)
        };
        assert_eq!(kayles::outcome(p), want, "{p:b}");
        if let Some((_, best)) = kayles::best_move(p) {
            assert_eq!(best, want, "{p:b}");
        }
    }
    // Sixteen pins: the first player wins (g(16) = 1), by a move in the middle.
    assert!(matches!(kayles::outcome(kayles::start()), Outcome::Win(_)));
}
