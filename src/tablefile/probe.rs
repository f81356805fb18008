//! Typed probes: Game of Euler and Flip answers for boards of a table's
//! shape, given as `u64` in the layout of [`Shape`] (cell (`row`, `col`) at
//! bit `cols * row + col`).

use boardbase_tables::classes::Classes;
use boardbase_tables::euler::MoveList;
use boardbase_tables::flip::press_masks;
use boardbase_tables::flip::search::precedes;
use boardbase_tables::shape::Shape;

use super::{ColumnRef, Kernel, Layout, NO_MOVE, Puzzle, Table, TableError, UNREACHABLE};
use crate::euler::Outcome;
use crate::flip::Colour;

/// Entry `i` of `column` (called `name`). The column has an entry for
/// every board of the shape, so only a damaged block of a version-3 file
/// ([`TableError::DamagedBlock`]) can refuse it in a checked table.
#[inline]
fn read(column: ColumnRef<'_>, name: &'static str, i: u64) -> Result<u64, TableError> {
    column.get(i).map_err(|fault| fault.probe_error(name, i))
}

/// The probes of a Game of Euler [`Table`] ([`Table::as_euler`]).
///
/// A position is the set of covered squares; a move is the set of squares
/// one pin covers (one of [`EulerTable::moves`]).
#[derive(Clone, Copy, Debug)]
pub struct EulerTable<'a> {
    shape: Shape,
    winning: ColumnRef<'a>,
    /// `plies` and `best_move` (none by class: found from `plies`).
    full: Option<(ColumnRef<'a>, Option<ColumnRef<'a>>)>,
    moves: &'a MoveList,
    /// Version 5: the index whose entries `winning` has (one a class of
    /// positions); else `winning` has one entry a board.
    classes: Option<&'a Classes>,
}

/// What an Euler table says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EulerEntry {
    /// Who wins, for the player to move (the full board counts as won: the
    /// opponent covered the last square).
    pub outcome: Outcome,
    /// Moves (plies, both players') left with perfect play: the winner
    /// hurries, the loser resists; 0 for the full board. `None` in a
    /// WDL-only table: unknown, never guessed.
    pub moves_left: Option<u8>,
    /// The squares one best move covers (the fastest win, or the longest
    /// resistance; the first in the moves' order on ties). `None` for the
    /// full board, and in a WDL-only table.
    pub best_move: Option<u64>,
}

/// A legal move and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveValue {
    /// The squares the move covers.
    pub mask: u64,
    /// The outcome for the player who makes it: [`Outcome::Win`] when the
    /// position it leaves is lost for the opponent.
    pub outcome: Outcome,
    /// Moves left from the current position if this move is played and
    /// both play perfectly after it (one more than the position after it);
    /// `None` in a WDL-only table.
    pub moves_left: Option<u8>,
}

impl<'a> EulerTable<'a> {
    pub(super) fn new(table: &'a Table) -> Result<EulerTable<'a>, TableError> {
        let missing = || TableError::NoColumn("winning");
        match &table.layout {
            Layout::Euler {
                winning,
                full,
                moves,
                classes,
            } => Ok(EulerTable {
                shape: table.shape,
                winning: table.column_ref(*winning).ok_or_else(missing)?,
                full: match *full {
                    Some((plies, best)) => Some((
                        table.column_ref(plies).ok_or_else(missing)?,
                        match best {
                            Some(best) => Some(table.column_ref(best).ok_or_else(missing)?),
                            None => None,
                        },
                    )),
                    None => None,
                },
                moves,
                classes: classes.as_deref(),
            }),
            _ => Err(TableError::WrongPuzzle {
                expected: Puzzle::Euler,
                found: table.id,
            }),
        }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether the table holds win/loss only (no moves left, no best move).
    pub fn is_wdl_only(&self) -> bool {
        self.full.is_none()
    }

    /// Every move of the shape, in the order of the `moves` column.
    pub fn moves(&self) -> &'a [u64] {
        self.moves.as_slice()
    }

    /// An error unless `covered` lies within the shape.
    #[inline]
    fn check(&self, covered: u64) -> Result<(), TableError> {
        let shape = self.shape;
        if covered & !shape.full() == 0 {
            Ok(())
        } else {
            Err(TableError::OutOfRange {
                board: covered,
                shape,
            })
        }
    }

    /// Who wins from `covered`, for the player to move: one bit read.
    ///
    /// ```
    /// use boardbase::euler::Outcome;
    /// use boardbase::tablefile::{Puzzle, Table};
    ///
    /// let table = Table::embedded(Puzzle::Euler);
    /// let euler = table.as_euler()?;
    /// assert_eq!(euler.outcome(0)?, Outcome::Loss); // the empty 4×4 board
    /// assert_eq!(euler.outcome(0xFFFF)?, Outcome::Win); // the opponent covered the last square
    /// # Ok::<(), boardbase::tablefile::TableError>(())
    /// ```
    #[inline]
    pub fn outcome(&self, covered: u64) -> Result<Outcome, TableError> {
        self.check(covered)?;
        Ok(
            if read(self.winning, "winning", self.entry(covered))? != 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            },
        )
    }

    /// The entry of `covered` (within the shape) in the per-position
    /// columns: the position itself, or its class's entry (version 5).
    #[inline]
    fn entry(&self, covered: u64) -> u64 {
        match self.classes {
            Some(classes) => classes.index(covered),
            None => covered,
        }
    }

    /// The moves left from `covered` (within the shape) in a full table.
    #[inline]
    fn plies(&self, plies: ColumnRef<'a>, covered: u64) -> Result<u8, TableError> {
        Ok(read(plies, "plies", self.entry(covered))? as u8)
    }

    /// The moves left from `covered` with perfect play, `None` in a
    /// WDL-only table: one entry read (no best move sought).
    pub fn moves_left(&self, covered: u64) -> Result<Option<u8>, TableError> {
        self.check(covered)?;
        match self.full {
            Some((plies, _)) => Ok(Some(self.plies(plies, covered)?)),
            None => Ok(None),
        }
    }

    /// The outcome, moves left and best move from `covered` (the last two
    /// `None` in a WDL-only table). A table by class stores no best moves:
    /// the best move is the first in the moves' order to a position of one
    /// ply fewer, found by probing them, the move a table by position
    /// stores.
    pub fn probe(&self, covered: u64) -> Result<EulerEntry, TableError> {
        let outcome = self.outcome(covered)?;
        let Some((plies, best)) = self.full else {
            return Ok(EulerEntry {
                outcome,
                moves_left: None,
                best_move: None,
            });
        };
        let moves_left = self.plies(plies, covered)?;
        let Some(best) = best else {
            // Wins are an even number of moves away, losses odd; only the
            // full board has none left.
            let open = covered != self.shape.full();
            if (moves_left % 2 == 0) != outcome.is_win() || (moves_left == 0) == open {
                return Err(TableError::BadEntry {
                    column: "plies",
                    index: self.entry(covered),
                    value: u64::from(moves_left),
                });
            }
            let mut best_move = None;
            if open {
                for mask in self.legal_moves(covered)? {
                    if self.plies(plies, covered | mask)? == moves_left - 1 {
                        best_move = Some(mask);
                        break;
                    }
                }
                if best_move.is_none() {
                    return Err(TableError::BadEntry {
                        column: "plies",
                        index: self.entry(covered),
                        value: u64::from(moves_left),
                    });
                }
            }
            return Ok(EulerEntry {
                outcome,
                moves_left: Some(moves_left),
                best_move,
            });
        };
        let index = read(best, "best_move", covered)?;
        let bad = || TableError::BadEntry {
            column: "best_move",
            index: covered,
            value: index,
        };
        let best_move = if covered == self.shape.full() {
            if index != u64::from(NO_MOVE) {
                return Err(bad());
            }
            None
        } else {
            let mask = *self.moves().get(index as usize).ok_or_else(bad)?;
            if mask & covered != 0 {
                return Err(bad());
            }
            Some(mask)
        };
        Ok(EulerEntry {
            outcome,
            moves_left: Some(moves_left),
            best_move,
        })
    }

    /// The legal moves from `covered` (those covering open squares only),
    /// in the moves' order. None for the full board.
    pub fn legal_moves(&self, covered: u64) -> Result<impl Iterator<Item = u64> + 'a, TableError> {
        self.check(covered)?;
        Ok(self
            .moves()
            .iter()
            .copied()
            .filter(move |m| m & covered == 0))
    }

    /// Every legal move from `covered` with its value, in the moves' order:
    /// each position after a move is probed (in a WDL-only table too, as
    /// Syzygy tables are probed for their winning moves).
    pub fn move_values(&self, covered: u64) -> Result<Vec<MoveValue>, TableError> {
        let mut values = Vec::new();
        for mask in self.legal_moves(covered)? {
            let after = covered | mask;
            let outcome = match self.outcome(after)? {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
            };
            let moves_left = match self.full {
                Some((plies, _)) => Some(self.plies(plies, after)?.saturating_add(1)),
                None => None,
            };
            values.push(MoveValue {
                mask,
                outcome,
                moves_left,
            });
        }
        Ok(values)
    }

    /// The winning moves from `covered`, in the moves' order: the legal
    /// moves that leave the opponent a lost position. Empty when the
    /// position is lost or full.
    pub fn winning_moves(&self, covered: u64) -> Result<Vec<u64>, TableError> {
        let mut wins = Vec::new();
        for mask in self.legal_moves(covered)? {
            if self.outcome(covered | mask)? == Outcome::Loss {
                wins.push(mask);
            }
        }
        Ok(wins)
    }
}

/// The probes of a Flip [`Table`] ([`Table::as_flip`]).
///
/// A board has a bit set for each black piece; a press set has a bit set
/// for each cell to press once.
#[derive(Clone, Copy, Debug)]
pub struct FlipTable<'a> {
    shape: Shape,
    rounds: ColumnRef<'a>,
    /// Version 2: per colour (white, black), rounds, presses, optimal sets.
    colours: Option<[[ColumnRef<'a>; 3]; 2]>,
    /// Version 1: presses (to the closer colour) and optimal sets.
    v1: Option<[ColumnRef<'a>; 2]>,
    /// Version 5: the index whose entries the columns have (one a class of
    /// boards), and the press sets that change nothing.
    classes: Option<(&'a Classes, &'a Kernel)>,
}

/// The optimal way from a board to one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableRoute {
    /// The colour reached.
    pub colour: Colour,
    /// Fewest rounds.
    pub rounds: u8,
    /// One optimal set of cells to press (`rounds` cells).
    pub presses: u64,
    /// How many distinct press sets reach `colour` in `rounds` rounds.
    pub optimal_sets: u8,
}

/// The answer for a board that can be made one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlipSolution {
    /// The colour reached in fewest rounds (white when both tie).
    pub colour: Colour,
    /// Fewest rounds to a board of one colour.
    pub rounds: u8,
    /// One optimal set of cells to press, reaching `colour`.
    pub presses: u64,
    /// How many distinct press sets make the board one colour in `rounds`
    /// rounds, counting both colours when they tie.
    pub optimal_sets: u16,
}

impl<'a> FlipTable<'a> {
    pub(super) fn new(table: &'a Table) -> Result<FlipTable<'a>, TableError> {
        let column = |c: usize| table.column_ref(c).ok_or(TableError::NoColumn("rounds"));
        match table.layout {
            Layout::Flip {
                rounds,
                colours,
                ref classes,
                ref kernel,
            } => {
                let [w, b] = colours;
                // A table's layout gets its kernel with its classes.
                debug_assert_eq!(classes.is_some(), kernel.is_some());
                let classes = classes.as_deref().zip(kernel.as_deref());
                Ok(FlipTable {
                    shape: table.shape,
                    rounds: column(rounds)?,
                    colours: Some([
                        [column(w.0)?, column(w.1)?, column(w.2)?],
                        [column(b.0)?, column(b.1)?, column(b.2)?],
                    ]),
                    v1: None,
                    classes,
                })
            }
            Layout::FlipV1 {
                rounds,
                presses,
                optimal_sets,
            } => Ok(FlipTable {
                shape: table.shape,
                rounds: column(rounds)?,
                colours: None,
                v1: Some([column(presses)?, column(optimal_sets)?]),
                classes: None,
            }),
            _ => Err(TableError::WrongPuzzle {
                expected: Puzzle::Flip,
                found: table.id,
            }),
        }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// An error unless `board` lies within the shape.
    #[inline]
    fn check(&self, board: u64) -> Result<(), TableError> {
        let shape = self.shape;
        if board & !shape.full() == 0 {
            Ok(())
        } else {
            Err(TableError::OutOfRange { board, shape })
        }
    }

    /// A press set read from `name` at entry `index`, checked to lie
    /// within the shape.
    fn presses(
        &self,
        column: ColumnRef<'_>,
        name: &'static str,
        index: u64,
    ) -> Result<u64, TableError> {
        let presses = read(column, name, index)?;
        if presses & !self.shape.full() != 0 {
            return Err(TableError::BadEntry {
                column: name,
                index,
                value: presses,
            });
        }
        Ok(presses)
    }

    /// The entry of `board` (within the shape) in the columns, and the
    /// symmetry taking `board` to the board that entry holds: the board
    /// itself and the identity, or its class's entry (version 5).
    #[inline]
    fn entry(&self, board: u64) -> (u64, usize) {
        match self.classes {
            Some((classes, _)) => classes.index_with_symmetry(board),
            None => (board, 0),
        }
    }

    /// The press set `board` takes, from `stored`, the one the entry's
    /// board takes (the least of its optimal sets of `rounds` cells), `g`
    /// the symmetry taking `board` to that board. Pressing commutes with
    /// the symmetries, so the cells `g` takes into `stored` are an optimal
    /// set of `board`; the optimal sets are those of `rounds` cells among
    /// it plus any press set that changes nothing, and the least of them
    /// is the one a table by position stores.
    fn press_set_of(&self, stored: u64, g: usize, rounds: u8) -> u64 {
        let Some((classes, kernel)) = self.classes else {
            return stored;
        };
        if g == 0 {
            return stored;
        }
        let image = &classes.symmetries()[g];
        let mut set = 0u64;
        for (c, &to) in image.iter().enumerate().take(self.shape.cells()) {
            set |= (stored >> to & 1) << c;
        }
        let mut least = set;
        for combination in 1u64..1 << kernel.nullity {
            let other = kernel.basis[..kernel.nullity]
                .iter()
                .enumerate()
                .filter(|(i, _)| combination >> i & 1 == 1)
                .fold(set, |acc, (_, &k)| acc ^ k);
            if other.count_ones() == u32::from(rounds) && precedes(other, least) {
                least = other;
            }
        }
        least
    }

    /// Fewest rounds to a board of one colour, or `None` when neither
    /// colour can be reached: the judge's answer, one byte read.
    ///
    /// ```
    /// use boardbase::tablefile::{Puzzle, Table};
    ///
    /// let table = Table::embedded(Puzzle::Flip);
    /// let flip = table.as_flip()?;
    /// //   b w w b
    /// //   b b w b     the judge's sample: 4 rounds
    /// //   b w w b
    /// //   b w w w
    /// assert_eq!(flip.rounds(0x19B9)?, Some(4));
    /// assert_eq!(flip.rounds(1)?, None); // a single black piece: impossible
    /// # Ok::<(), boardbase::tablefile::TableError>(())
    /// ```
    #[inline]
    pub fn rounds(&self, board: u64) -> Result<Option<u8>, TableError> {
        self.check(board)?;
        let r = read(self.rounds, "rounds", self.entry(board).0)? as u8;
        Ok((r != UNREACHABLE).then_some(r))
    }

    /// The optimal way from `board` to `colour`, or `None` when that colour
    /// cannot be reached. A version-1 file has no per-colour columns:
    /// [`TableError::NoColumn`].
    ///
    /// ```
    /// use boardbase::flip::Colour;
    /// use boardbase::tablefile::{Puzzle, Table};
    ///
    /// let table = Table::embedded(Puzzle::Flip);
    /// let flip = table.as_flip()?;
    /// //   w w w w        x . . .
    /// //   w w w w        . . . .   press the corner: it flips with its
    /// //   w w w w        . . . .   two neighbours, leaving 3 black
    /// //   w w w w        . . . .
    /// let route = flip.route(0b0000_0000_0001_0011, Colour::White)?.expect("reachable");
    /// assert_eq!((route.rounds, route.presses, route.optimal_sets), (1, 0b1, 1));
    /// # Ok::<(), boardbase::tablefile::TableError>(())
    /// ```
    pub fn route(&self, board: u64, colour: Colour) -> Result<Option<TableRoute>, TableError> {
        self.check(board)?;
        self.route_at(self.entry(board), colour)
    }

    /// [`route`](Self::route) from the board's entry and the symmetry
    /// taking the board to the entry's board ([`entry`](Self::entry)).
    fn route_at(
        &self,
        (entry, g): (u64, usize),
        colour: Colour,
    ) -> Result<Option<TableRoute>, TableError> {
        let Some(colours) = self.colours else {
            return Err(TableError::NoColumn(match colour {
                Colour::White => "rounds_white",
                Colour::Black => "rounds_black",
            }));
        };
        let names = match colour {
            Colour::White => ["rounds_white", "presses_white", "optimal_sets_white"],
            Colour::Black => ["rounds_black", "presses_black", "optimal_sets_black"],
        };
        let [r, p, s] = colours[colour.index()];
        let rounds = read(r, names[0], entry)? as u8;
        if rounds == UNREACHABLE {
            return Ok(None);
        }
        let stored = self.presses(p, names[1], entry)?;
        Ok(Some(TableRoute {
            colour,
            rounds,
            presses: self.press_set_of(stored, g, rounds),
            optimal_sets: read(s, names[2], entry)? as u8,
        }))
    }

    /// Solves `board`: the colour reached in fewest rounds (white on ties),
    /// one optimal press set and the number of optimal sets (both colours'
    /// when they tie), as [`flip::solve`](crate::flip::solve) for 4×4.
    /// `None` when neither colour can be reached.
    pub fn solve(&self, board: u64) -> Result<Option<FlipSolution>, TableError> {
        self.check(board)?;
        if let Some([presses, optimal_sets]) = self.v1 {
            return self.solve_v1(board, presses, optimal_sets);
        }
        // Both colours' entries are the board's class's, found once.
        let entry = self.entry(board);
        let white = self.route_at(entry, Colour::White)?;
        let black = self.route_at(entry, Colour::Black)?;
        let (best, sets) = match (white, black) {
            (None, None) => return Ok(None),
            (Some(w), None) => (w, u16::from(w.optimal_sets)),
            (None, Some(b)) => (b, u16::from(b.optimal_sets)),
            (Some(w), Some(b)) if b.rounds < w.rounds => (b, u16::from(b.optimal_sets)),
            (Some(w), Some(b)) if b.rounds == w.rounds => {
                (w, u16::from(w.optimal_sets) + u16::from(b.optimal_sets))
            }
            (Some(w), Some(_)) => (w, u16::from(w.optimal_sets)),
        };
        Ok(Some(FlipSolution {
            colour: best.colour,
            rounds: best.rounds,
            presses: best.presses,
            optimal_sets: sets,
        }))
    }

    /// [`FlipTable::solve`] from a version-1 file's columns: the colour is
    /// the one the stored press set reaches.
    fn solve_v1(
        &self,
        board: u64,
        presses: ColumnRef<'_>,
        optimal_sets: ColumnRef<'_>,
    ) -> Result<Option<FlipSolution>, TableError> {
        let r = read(self.rounds, "rounds", board)? as u8;
        if r == UNREACHABLE {
            return Ok(None);
        }
        let p = self.presses(presses, "presses", board)?;
        let shape = self.shape;
        let masks = press_masks(shape);
        let after = board
            ^ shape
                .cells_of(p)
                .fold(0, |acc, (row, col)| acc ^ masks[shape.index(row, col)]);
        let colour = match after {
            0 => Colour::White,
            a if a == shape.full() => Colour::Black,
            _ => {
                return Err(TableError::BadEntry {
                    column: "presses",
                    index: board,
                    value: p,
                });
            }
        };
        Ok(Some(FlipSolution {
            colour,
            rounds: r,
            presses: p,
            optimal_sets: read(optimal_sets, "optimal_sets", board)? as u16,
        }))
    }
}
