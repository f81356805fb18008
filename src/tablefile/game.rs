//! Table files of the games of the model: any two-player game of the
//! catalogue ([`catalogue::MODELS`](crate::catalogue::MODELS)) solved by
//! retrograde analysis, stored in the layout of Flip's and Euler's files
//! (header, columns, a CRC a 4 KiB block), version 6, and mapped the same
//! way.
//!
//! A [`GameTable`] holds, besides the header's game name (`puzzle` field)
//! and board:
//!
//! | column | width | entries | value |
//! | --- | ---: | --- | --- |
//! | `canonical` | 1 | the game's position indices | 1 where the index is a legal canonical position: it has an entry |
//! | `canonical_rank` | 64 | one a span of 512 indices | the entries before the span |
//! | `outcome` | 16 | the legal canonical positions | the value in the top two bits (1 won, 2 lost, 3 drawn for the player to move), the remoteness in the other 14 ([`retrograde::encode`]) |
//! | `option_NAME` | 64 | 1 | the value of the game's option `NAME` (`option_k`), one column an option |
//!
//! Files of earlier releases (version 3, and 4 compressed) have no
//! `canonical` column and an `outcome` entry at every index, 0 where an
//! index is no legal canonical position; they are still read.
//!
//! Positions are the game's own indices, in the order its rules number
//! them; a position of a class of symmetric ones is answered through its
//! canonical position, the only one of the class with an entry. The file is
//! named after the game, the board and the options: `mnk-4x4-k4.bin`.
//!
//! ```
//! use boardbase::catalogue;
//! use boardbase::tables::game::Outcome;
//! use boardbase::tablefile::GameTable;
//!
//! let mnk = catalogue::model("mnk").expect("in the catalogue");
//! let setup = mnk.setup(None, &[])?; // tic-tac-toe: 3×3, k = 3
//! let game = mnk.make(&setup)?;
//! let table = GameTable::from_solved(mnk, &setup, game.solve()?)?;
//!
//! let dir = std::env::temp_dir().join(format!("boardbase-doc-game-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join(table.file_name());
//! assert!(path.ends_with("mnk-3x3-k3.bin"));
//! table.write(&path, &mut |_| {})?;
//!
//! let table = GameTable::open_game(&path)?; // mapped: nothing is read but the header
//! assert_eq!((table.game(), table.options()), ("mnk", vec![("k".to_owned(), 3)]));
//! // The empty board is a draw.
//! assert_eq!(table.outcome(&*game, game.start())?, Some(Outcome::Draw));
//! //   X X .
//! //   O O .     X to move wins at once
//! //   . . .
//! let p = game.read_position("XX./OO./...")?;
//! assert_eq!(table.outcome(&*game, p)?, Some(Outcome::Win(1)));
//! table.verify_game(&*game, &mut |_| {})?; // every CRC, every entry by the rules
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io;
use std::path::Path;

use boardbase_tables::game::Outcome;
use boardbase_tables::game::retrograde::{self, Solved};
use boardbase_tables::shape::Shape;

use super::format::BLOCK_LEN;
use super::format::VERSION_6;
use super::ranked::{self, CANONICAL, CANONICAL_RANK, RANK_SPAN, RankFault};
use super::{
    ColumnData, ColumnInfo, Layout, Phase, Progress, Storage, Subject, Table, TableError, format,
};
use crate::catalogue::{AnyGame, Model, Setup};

/// A game of the model's table: see the [module docs](self).
pub type GameTable = Table<GameId>;

/// What a [`GameTable`] is for: the game's name, as the catalogue has it.
/// Its options are columns of the table ([`GameTable::options`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameId {
    /// The game's name: `mnk`, `connect4`.
    pub game: String,
}

/// The prefix of the columns that hold the game's options.
const OPTION: &str = "option_";

/// The column of values and remoteness.
const OUTCOME: &str = "outcome";

impl Subject for GameId {
    fn header_name(&self) -> String {
        self.game.clone()
    }

    fn identify(name: &str, rows: u8, cols: u8) -> Result<(GameId, Shape), TableError> {
        let plain = !name.is_empty()
            && name.len() <= 32
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !plain || super::Puzzle::from_name(name).is_some() {
            return Err(TableError::UnknownPuzzle(name.to_owned()));
        }
        let shape = Shape::new(usize::from(rows), usize::from(cols)).ok_or_else(|| {
            TableError::BadGameShape {
                game: name.to_owned(),
                rows,
                cols,
            }
        })?;
        Ok((
            GameId {
                game: name.to_owned(),
            },
            shape,
        ))
    }

    fn check(
        &self,
        _shape: Shape,
        columns: &[ColumnInfo],
        classes: Option<&std::sync::Arc<boardbase_tables::classes::Classes>>,
    ) -> Result<Layout, TableError> {
        if classes.is_some() {
            return Err(TableError::Index(
                "only Euler and Flip tables have one, not a game's table".into(),
            ));
        }
        super::check_widths(columns)?;
        let find = |name: &str| columns.iter().position(|c| c.name == name);
        let outcome = find(OUTCOME).ok_or_else(|| TableError::MissingColumn(OUTCOME.into()))?;
        let ranked = match (find(CANONICAL), find(CANONICAL_RANK)) {
            (Some(canonical), Some(ranks)) => Some((canonical, ranks)),
            (None, None) => None,
            (None, Some(_)) => return Err(TableError::MissingColumn(CANONICAL.into())),
            (Some(_), None) => return Err(TableError::MissingColumn(CANONICAL_RANK.into())),
        };
        let positions = match ranked {
            Some((canonical, _)) => columns[canonical].entries,
            None => columns[outcome].entries,
        };
        for c in columns {
            let (width, entries) = match c.name.as_str() {
                // Version 6's entries are those of the legal canonical
                // positions, counted when the table is verified.
                OUTCOME if ranked.is_some() => (16, c.entries.min(positions)),
                OUTCOME => (16, positions),
                CANONICAL => (1, positions),
                CANONICAL_RANK => (64, ranked::rank_entries(positions)),
                name if name.starts_with(OPTION) => (64, 1),
                // Columns a later release adds: skipped, as readers do.
                _ => continue,
            };
            if c.width != width {
                return Err(TableError::ColumnWidth {
                    column: c.name.clone(),
                    width: c.width,
                    expected: width,
                });
            }
            if c.entries != entries {
                return Err(TableError::ColumnEntries {
                    column: c.name.clone(),
                    entries: c.entries,
                    expected: entries,
                });
            }
        }
        Ok(Layout::Game { outcome, ranked })
    }
}

/// Bytes of entries [`GameTable::write_outcomes`] reads at a time: whole
/// spans of the index.
const WRITE_CHUNK: usize = 1 << 20;

const _: () = assert!(WRITE_CHUNK.is_multiple_of(2 * RANK_SPAN as usize));

/// Bytes of a column [`GameTable::write_outcomes`] gathers before it puts
/// them (whole blocks): 64 KiB, so that the tables of small games, those
/// of the tests, take the same path as the largest.
const PUT_CHUNK: usize = 64 << 10;

/// The columns of a game's table of `positions` indices, `entries` of
/// them legal canonical positions, in the file's order: the index of the
/// entries, the outcomes, then one a option of `model`.
fn game_infos(model: &Model, positions: u64, entries: u64) -> Vec<ColumnInfo> {
    let mut infos = vec![
        ColumnInfo::in_memory(CANONICAL, 1, positions),
        ColumnInfo::in_memory(CANONICAL_RANK, 64, ranked::rank_entries(positions)),
        ColumnInfo::in_memory(OUTCOME, 16, entries),
    ];
    for option in model.options {
        infos.push(ColumnInfo::in_memory(
            format!("{OPTION}{}", option.name),
            64,
            1,
        ));
    }
    infos
}

/// `GAME-RxC` and `-NAMEvalue` for each option, then `.bin`.
fn file_name<'a>(
    game: &str,
    shape: Shape,
    options: impl Iterator<Item = (&'a str, u64)>,
) -> String {
    let mut name = format!("{game}-{shape}");
    for (option, value) in options {
        name.push_str(&format!("-{option}{value}"));
    }
    name.push_str(".bin");
    name
}

impl Table<GameId> {
    /// Opens a game's table file (version 6, 3, 4 or 2, mapped) and checks its
    /// structure as [`Table::open`] does; the time does not depend on the
    /// file's size. Whether it is the table of a given setup is
    /// [`GameTable::is_of`]'s question.
    pub fn open_game(path: impl AsRef<Path>) -> Result<GameTable, TableError> {
        let file = File::open(path.as_ref())?;
        let mut head = [0u8; 12];
        let len = file.metadata()?.len();
        let n = usize::try_from(len).unwrap_or(usize::MAX).min(head.len());
        std::io::Read::read_exact(&mut &file, &mut head[..n])?;
        let version = format::version(&head[..n])?;
        // Version 5 is read so that its header says what the file is for:
        // a game's table has no index, and `check` refuses one.
        if !format::is_mapped_version(version) {
            return Err(TableError::Version(version));
        }
        // SAFETY: as in `Table::open`: read-only, every read bounds-checked.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        Table::from_storage(Storage::Mapped(map))
    }

    /// The table of `model` set up as `setup` from its solved positions, in
    /// memory (write it with [`Table::write`]): one entry a legal canonical
    /// position (version 6).
    pub fn from_solved(
        model: &Model,
        setup: &Setup,
        solved: Solved,
    ) -> Result<GameTable, TableError> {
        let cells = solved.into_cells();
        let positions = cells.len() as u64;
        let mut split = ranked::Split::default();
        split.take_cells(&cells);
        drop(cells);
        let words = super::compress::words_of;
        let mut columns = vec![
            (
                CANONICAL.to_owned(),
                ColumnData::Bits {
                    words: words(&split.canonical),
                    entries: positions,
                },
            ),
            (
                CANONICAL_RANK.to_owned(),
                ColumnData::U64(words(&split.ranks)),
            ),
            (
                OUTCOME.to_owned(),
                ColumnData::U16(
                    split
                        .outcome
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .collect(),
                ),
            ),
        ];
        for (option, &value) in model.options.iter().zip(&setup.options) {
            columns.push((
                format!("{OPTION}{}", option.name),
                ColumnData::U64(vec![value]),
            ));
        }
        Table::from_owned(
            GameId {
                game: model.game.to_owned(),
            },
            setup.shape,
            columns,
            None,
        )
    }

    /// The length of the file of `model`'s table set up as `setup`, with
    /// `positions` position indices, `entries` of them legal canonical
    /// positions; with `entries` = `positions`, the most it can be, known
    /// before the game is solved.
    pub fn expected_file_len(model: &Model, setup: &Setup, positions: u64, entries: u64) -> u64 {
        let infos = game_infos(model, positions, entries);
        let crcs = vec![0; infos.len()];
        format::encode_header(model.game, setup.shape, VERSION_6, &infos, &crcs, None).2
    }

    /// Writes the table of `model` set up as `setup` from its entries,
    /// `outcome`, as a solve's entries file holds them (two bytes a
    /// position index, little-endian, 0 where an index is no legal
    /// canonical position), `entries` of them not 0, as the file `path`:
    /// the same bytes [`from_solved`](GameTable::from_solved) and
    /// [`Table::write`] give of the same entries, with the same two passes
    /// ([`Phase::Checksum`], [`Phase::Write`]) and the same temporary file
    /// renamed once complete. Memory: three buffers of at most 1 MiB.
    /// `stop` is asked between chunks of 1 MiB of entries: `Some` stops the
    /// write (its temporary file removed) with that error; the table's
    /// errors are `error`'s.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn write_outcomes<E: crate::ranks::OtherRank>(
        path: &Path,
        model: &Model,
        setup: &Setup,
        outcome: &[u8],
        entries: u64,
        progress: &mut dyn FnMut(Progress),
        stop: &dyn Fn() -> Option<E>,
        error: impl Fn(TableError) -> E,
    ) -> Result<u64, E> {
        let positions = outcome.len() as u64 / 2;
        let infos = game_infos(model, positions, entries);
        let total: u64 = infos.iter().map(|c| c.byte_len).sum();
        let options: Vec<[u8; 8]> = setup.options.iter().map(|v| v.to_le_bytes()).collect();
        let fill = |parts: &mut super::parts::Parts<'_>| -> Result<(), E> {
            for phase in [Phase::Checksum, Phase::Write] {
                let mut done = 0u64;
                progress(Progress { phase, done, total });
                let mut put = |column: usize, at: u64, bytes: &[u8]| -> Result<(), E> {
                    if let Some(stopped) = stop() {
                        return Err(stopped);
                    }
                    let put = match phase {
                        Phase::Checksum => parts.put_crcs(column, at, bytes),
                        _ => parts.put_bytes(column, at, bytes),
                    };
                    put.map_err(|e| error(TableError::Io(e)))?;
                    done += bytes.len() as u64;
                    progress(Progress { phase, done, total });
                    Ok(())
                };
                // Each column's bytes as they come, put once there are
                // 1 MiB of them (whole blocks), the rest at the end.
                let mut split = ranked::Split::default();
                let mut at = [0u64; 3];
                let mut flush = |split: &mut ranked::Split, last: bool| -> Result<(), E> {
                    let pending = [&mut split.canonical, &mut split.ranks, &mut split.outcome];
                    for (column, bytes) in pending.into_iter().enumerate() {
                        if !last && bytes.len() < PUT_CHUNK {
                            continue;
                        }
                        let whole = if last {
                            bytes.len()
                        } else {
                            bytes.len() / BLOCK_LEN as usize * BLOCK_LEN as usize
                        };
                        put(column, at[column], &bytes[..whole])?;
                        at[column] += whole as u64;
                        bytes.drain(..whole);
                    }
                    Ok(())
                };
                for chunk in outcome.chunks(WRITE_CHUNK) {
                    if let Some(stopped) = stop() {
                        return Err(stopped);
                    }
                    split.take(chunk);
                    flush(&mut split, false)?;
                }
                if split.ones != entries {
                    return Err(error(TableError::Io(io::Error::other(format!(
                        "the entries hold {} legal canonical positions, not the {entries} counted",
                        split.ones
                    )))));
                }
                flush(&mut split, true)?;
                for (i, value) in options.iter().enumerate() {
                    put(3 + i, 0, value)?;
                }
            }
            stop().map_or(Ok(()), Err)
        };
        let header = super::parts::FileHeader {
            name: model.game,
            shape: setup.shape,
            version: VERSION_6,
            columns: &infos,
            index: None,
        };
        super::parts::write_columns(path, header, &crate::ranks::Solo, fill, &error)
    }

    /// The game's name.
    pub fn game(&self) -> &str {
        &self.id.game
    }

    /// The options the table was made with, by name, in the file's order.
    pub fn options(&self) -> Vec<(String, u64)> {
        self.columns
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let name = c.info.name.strip_prefix(OPTION)?;
                Some((name.to_owned(), self.entry(i, 0)?))
            })
            .collect()
    }

    /// Whether this is the table of `model` set up as `setup`: the game,
    /// the board, every option, and the game's position indices.
    pub fn is_of(&self, model: &Model, setup: &Setup, game: &dyn AnyGame) -> bool {
        // The file's options set up as the game takes them: Quixo's k = 0
        // in a file written before it was settled is the board's side.
        let found = self.options();
        let given: Vec<(&str, u64)> = found.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let settled = model.setup(Some(self.shape), &given);
        self.id.game == model.game
            && self.shape == setup.shape
            && found.len() == model.options.len()
            && settled.is_ok_and(|s| s.options == setup.options)
            && self.positions() == game.positions()
    }

    /// The number of position indices the table holds.
    pub fn positions(&self) -> u64 {
        match self.layout {
            Layout::Game {
                ranked: Some((canonical, _)),
                ..
            } => self.columns[canonical].info.entries,
            Layout::Game { outcome, .. } => self.columns[outcome].info.entries,
            _ => 0,
        }
    }

    /// The usual file name of the table of `model` set up as `setup`:
    /// `mnk-4x4-k4.bin` (the game, the board, each option's name and
    /// value).
    pub fn file_name_of(model: &Model, setup: &Setup) -> String {
        let options = model
            .options
            .iter()
            .map(|o| o.name)
            .zip(setup.options.iter().copied());
        file_name(model.game, setup.shape, options)
    }

    /// This table's usual file name (see [`GameTable::file_name_of`]).
    pub fn file_name(&self) -> String {
        let options = self.options();
        file_name(
            &self.id.game,
            self.shape,
            options.iter().map(|(name, value)| (name.as_str(), *value)),
        )
    }

    /// The outcome of `position` of `game` (the table's game), through its
    /// canonical position: `None` for an index that is not a position.
    ///
    /// # Errors
    ///
    /// [`TableError::OutOfRange`] past the table's positions,
    /// [`TableError::DamagedBlock`] when the entry's block does not match
    /// its CRC (the entry is never answered).
    pub fn outcome(
        &self,
        game: &dyn AnyGame,
        position: u64,
    ) -> Result<Option<Outcome>, TableError> {
        self.canonical_outcome(game.canonical(position))
    }

    /// The outcome the table holds for the canonical `position`.
    pub fn canonical_outcome(&self, position: u64) -> Result<Option<Outcome>, TableError> {
        self.probe()?.outcome(position)
    }

    /// The table's columns resolved for probes: what many probes share.
    fn probe(&self) -> Result<GameProbe<'_>, TableError> {
        let Layout::Game { outcome, ranked } = self.layout else {
            return Err(TableError::NoColumn(OUTCOME));
        };
        let column = |i| self.column_ref(i).ok_or(TableError::NoColumn(OUTCOME));
        Ok(GameProbe {
            positions: self.positions(),
            outcome: column(outcome)?,
            ranked: match ranked {
                Some((canonical, ranks)) => Some((column(canonical)?, column(ranks)?)),
                None => None,
            },
        })
    }

    /// Checks a version-6 table's index: each `canonical_rank` entry counts
    /// the `canonical` bits before its span, and `outcome` has an entry for
    /// each bit. The entries themselves are checked by the rules.
    fn verify_ranks(&self) -> Result<(), TableError> {
        let Layout::Game {
            outcome,
            ranked: Some((canonical, ranks)),
        } = self.layout
        else {
            return Ok(());
        };
        let column = |i| self.column_ref(i).ok_or(TableError::NoColumn(OUTCOME));
        let (bits, counts) = (column(canonical)?, column(ranks)?);
        let words = self.positions().div_ceil(64);
        let mut ones = 0u64;
        for w in 0..words {
            if (w * 64).is_multiple_of(RANK_SPAN) {
                let span = w * 64 / RANK_SPAN;
                let count = counts
                    .get(span)
                    .map_err(|fault| fault.probe_error(CANONICAL_RANK, span))?;
                if count != ones {
                    return Err(TableError::Inconsistent {
                        column: CANONICAL_RANK.into(),
                        index: span,
                        detail: format!(
                            "holds {count}, but canonical has {ones} positions before it"
                        ),
                    });
                }
            }
            let word = bits
                .word(w)
                .map_err(|fault| fault.probe_error(CANONICAL, w * 64))?;
            ones += u64::from(word.count_ones());
        }
        let entries = self.columns[outcome].info.entries;
        if entries != ones {
            return Err(TableError::ColumnEntries {
                column: OUTCOME.into(),
                entries,
                expected: ones,
            });
        }
        Ok(())
    }

    /// Verifies the table as the table of `model` with the board and
    /// options its header and columns say (see
    /// [`GameTable::verify_game`]).
    ///
    /// # Errors
    ///
    /// Those of [`GameTable::verify_game`], and [`TableError::Setup`]
    /// when the game cannot be set up as the table says.
    pub fn verify_as(
        &self,
        model: &Model,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(usize, u64), TableError> {
        let options = self.options();
        let given: Vec<(&str, u64)> = options.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let game = model
            .setup(Some(self.shape), &given)
            .and_then(|setup| model.make(&setup))
            .map_err(TableError::Setup)?;
        self.verify_game(&*game, progress)
    }

    /// Verifies the table as `game`'s: every CRC and the padding (as
    /// [`Table::verify_crcs`]), then every entry by the rules
    /// ([`retrograde::check`]: each agrees with its moves' outcomes, every
    /// finished position with the game's value), which proves the table
    /// right. Returns the CRCs (blocks) and the bytes checked.
    pub fn verify_game(
        &self,
        game: &dyn AnyGame,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(usize, u64), TableError> {
        if self.positions() != game.positions() {
            return Err(TableError::ColumnEntries {
                column: OUTCOME.into(),
                entries: self.positions(),
                expected: game.positions(),
            });
        }
        let crcs = self.verify_crcs(progress)?;
        // Compressed columns are checked in memory: the rules read each
        // entry from its children's, scattered over the table.
        let unpacked = self.unpacked()?;
        let table = unpacked.as_ref().unwrap_or(self);
        table.verify_ranks()?;
        let probe = table.probe()?;
        let mut damaged = None;
        let consistent = game
            .check(
                &mut |p| match probe.outcome(p) {
                    Ok(outcome) => outcome,
                    Err(e) => {
                        damaged.get_or_insert(e);
                        None
                    }
                },
                &mut |step| {
                    progress(Progress {
                        phase: Phase::Contents,
                        done: step.done,
                        total: step.total,
                    });
                    true
                },
            )
            // The callback never stops the check; were it stopped, an
            // interrupted read says so.
            .map_err(|e| {
                TableError::Io(io::Error::new(io::ErrorKind::Interrupted, e.to_string()))
            })?;
        if let Some(e) = damaged {
            return Err(e);
        }
        if let Err(wrong) = consistent {
            let show =
                |o: Option<Outcome>| o.map_or_else(|| "no position".to_owned(), |o| o.to_string());
            return Err(TableError::Inconsistent {
                column: OUTCOME.into(),
                index: wrong.position,
                detail: format!(
                    "holds {}, but the rules give {}",
                    show(wrong.found),
                    show(wrong.expected)
                ),
            });
        }
        Ok(crcs)
    }
}

/// A game's table's columns, resolved once for many probes.
struct GameProbe<'a> {
    /// The position indices.
    positions: u64,
    /// The entries.
    outcome: super::ColumnRef<'a>,
    /// Version 6: `canonical` and `canonical_rank`.
    ranked: Option<(super::ColumnRef<'a>, super::ColumnRef<'a>)>,
}

impl GameProbe<'_> {
    /// The outcome the table holds for the canonical `position`.
    #[inline]
    fn outcome(&self, position: u64) -> Result<Option<Outcome>, TableError> {
        if position >= self.positions {
            return Err(TableError::NoSuchPosition {
                position,
                positions: self.positions,
            });
        }
        let entry = match &self.ranked {
            None => position,
            Some((canonical, ranks)) => match ranked::rank_of(canonical, ranks, position) {
                Ok(Some(entry)) => entry,
                Ok(None) => return Ok(None),
                Err(RankFault::Canonical(fault)) => {
                    return Err(fault.probe_error(CANONICAL, position));
                }
                Err(RankFault::Ranks(fault)) => {
                    return Err(fault.probe_error(CANONICAL_RANK, position / RANK_SPAN));
                }
            },
        };
        let cell = self
            .outcome
            .get(entry)
            .map_err(|fault| fault.probe_error(OUTCOME, entry))?;
        // A 16-bit column's entries fit.
        match retrograde::decode(cell as u16) {
            // Version 6 keeps entries of positions alone.
            None if self.ranked.is_some() => Err(TableError::BadEntry {
                column: OUTCOME,
                index: entry,
                value: 0,
            }),
            found => Ok(found),
        }
    }
}
