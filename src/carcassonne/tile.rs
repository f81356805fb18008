//! The tiles: [`Tile`], parsed from its 4-letter code by one lookup in the
//! generated [`TILE_CODES`], which also holds each code's distinct
//! rotations for the DP.

use std::fmt;
use std::str::FromStr;

use boardbase_tables::carcassonne::{self as packed, Colour, Side};

use super::Error;

/// A square tile: four edge colours clockwise from the top.
///
/// Parsed from and printed as its 4-letter code (`"CRFF"`: top City, right
/// Road, bottom and left Field).
///
/// ```
/// use boardbase::carcassonne::Tile;
/// let tile: Tile = "CRFF".parse().unwrap();
/// assert_eq!(tile.rotated(1).to_string(), "FCRF");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(packed::Tile);

impl Tile {
    /// The tile with the given edges.
    pub const fn new(top: Colour, right: Colour, bottom: Colour, left: Colour) -> Tile {
        Tile(packed::Tile::new(top, right, bottom, left))
    }

    /// The edges clockwise from the top: `[top, right, bottom, left]`.
    pub const fn edges(self) -> [Colour; 4] {
        [
            self.0.edge(Side::Top),
            self.0.edge(Side::Right),
            self.0.edge(Side::Bottom),
            self.0.edge(Side::Left),
        ]
    }

    /// The tile turned `turns` quarter turns clockwise (taken mod 4): each
    /// turn moves the top edge to the right, the right edge to the bottom,
    /// the bottom edge to the left and the left edge to the top.
    pub const fn rotated(self, turns: u32) -> Tile {
        Tile(self.0.rotated(turns))
    }

    /// The packed form shared with [`boardbase_tables::carcassonne`].
    pub const fn packed(self) -> packed::Tile {
        self.0
    }

    /// The tile of a packed tile.
    pub const fn from_packed(tile: packed::Tile) -> Tile {
        Tile(tile)
    }
}

/// A tile code's entry in [`TILE_CODES`]: the tile and its distinct
/// rotations.
#[derive(Clone, Copy, Debug)]
pub struct TileCode {
    /// The tile as written.
    pub tile: Tile,
    /// Its distinct rotations, each with the quarter turns that first give
    /// it and how many of the 4 turns give it (multiplicities add up to 4).
    pub rotations: &'static [packed::Rotation],
}

/// The packed tile of generated, known-valid bits.
const fn packed_tile(bits: u8) -> packed::Tile {
    match packed::Tile::from_bits(bits) {
        Some(tile) => tile,
        None => panic!("the generated tile codes hold valid tiles"),
    }
}

include!(concat!(env!("OUT_DIR"), "/carcassonne_tiles.rs"));

impl TileCode {
    /// Looks up a 4-letter code: one probe of the perfect-hash map.
    ///
    /// ```
    /// use boardbase::carcassonne::TileCode;
    /// let code = TileCode::lookup(b"CFCF").unwrap();
    /// // Two distinct rotations, each reached by 2 of the 4 turns.
    /// assert_eq!(code.rotations.iter().map(|r| r.multiplicity).collect::<Vec<_>>(), [2, 2]);
    /// assert!(TileCode::lookup(b"CFXF").is_none());
    /// ```
    #[inline]
    pub fn lookup(code: &[u8; 4]) -> Option<&'static TileCode> {
        TILE_CODES.get(code)
    }
}

impl TryFrom<&[u8]> for Tile {
    type Error = Error;

    fn try_from(code: &[u8]) -> Result<Tile, Error> {
        let Ok(letters) = <&[u8; 4]>::try_from(code) else {
            return Err(Error::TileLength { len: code.len() });
        };
        match TileCode::lookup(letters) {
            Some(entry) => Ok(entry.tile),
            None => {
                // Not one of the 81 codes: name the first bad letter.
                let (position, &byte) = letters
                    .iter()
                    .enumerate()
                    .find(|(_, b)| Colour::from_letter(**b).is_none())
                    .unwrap_or((0, &letters[0]));
                Err(Error::TileLetter { position, byte })
            }
        }
    }
}

impl FromStr for Tile {
    type Err = Error;

    fn from_str(s: &str) -> Result<Tile, Error> {
        Tile::try_from(s.as_bytes())
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = self.0.letters();
        // The letters are ASCII `C`, `R`, `F`.
        f.write_str(std::str::from_utf8(&letters).map_err(|_| fmt::Error)?)
    }
}
