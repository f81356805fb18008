//! Carcassonne: edge colours, packed tiles, rotations and the
//! packed frontier profiles of the cell-by-cell counting DP.
//!
//! # Colours
//!
//! Every tile edge is a City, Road or Field segment, packed in 2 bits:
//!
//! | colour     | letter | code |
//! |------------|--------|------|
//! | (none)     |        | `0`  |
//! | [`Colour::City`]  | `C` | `1` |
//! | [`Colour::Road`]  | `R` | `2` |
//! | [`Colour::Field`] | `F` | `3` |
//!
//! Code `0` ([`NONE`]) is never a tile edge: in a frontier profile it marks a
//! slot that is not constrained (the board border).
//!
//! # Tiles
//!
//! A [`Tile`] is one byte, 2 bits per edge, clockwise from the top:
//!
//! ```text
//! bits 0-1: top    bits 2-3: right    bits 4-5: bottom    bits 6-7: left
//! ```
//!
//! which is exactly the order of the 4-letter input code (`"CRFF"` is top C,
//! right R, bottom F, left F). Turning a tile a quarter turn *clockwise*
//! moves its top edge to the right, its right edge to the bottom and so on,
//! and is a 2-bit left rotation of the byte ([`Tile::rotate_cw`]).
//!
//! # Profiles
//!
//! A profile is the colour of every open edge of the frontier between placed
//! and unplaced cells: the bottom edge of the lowest placed tile of each of
//! the `width` columns, plus the right edge of the last placed tile, so
//! `width + 1` slots of 2 bits in a `u64` (slot `i` at bits `2i..2i+2`).
//! [`slot`], [`with_slot`] and [`rotate_slots`] are the packing helpers.
//!
//! The counting DP keeps the frontier *cyclic*. Its `width + 1` edges, read
//! left to right, are the bottom edges of the cells already placed in the
//! current row, the left edge of the cell about to be placed, then the
//! bottom edges of the rest of the row above. Slot 0 is that left edge, slot
//! 1 the top edge of the cell, and slots `2..=width` follow the frontier to
//! the right and wrap round to its left end. Placing a tile reads and
//! rewrites only slots 0 and 1 (left and top in, bottom and right out, see
//! [`placement_nibbles`]); [`rotate_slots`] by one slot then brings the next
//! cell's left and top edges to slots 0 and 1, across row ends too (the
//! right edge of a row's last cell becomes the left edge of the next row's
//! first cell: the border, [`NONE`]).

/// The maximum narrower board side the profile layout supports.
pub const MAX_WIDTH: usize = 16;

/// The maximum number of frontier slots (`MAX_WIDTH + 1`), 34 bits.
pub const MAX_SLOTS: usize = MAX_WIDTH + 1;

/// Bits per colour.
pub const SLOT_BITS: u32 = 2;

/// The 2-bit code of an unconstrained frontier slot (the board border).
pub const NONE: u8 = 0;

/// An edge colour (segment type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// City, letter `C`, code 1.
    City = 1,
    /// Road, letter `R`, code 2.
    Road = 2,
    /// Field, letter `F`, code 3.
    Field = 3,
}

impl Colour {
    /// The three colours in code order.
    pub const ALL: [Colour; 3] = [Colour::City, Colour::Road, Colour::Field];

    /// The 2-bit code (1, 2 or 3).
    #[inline]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The colour of a 2-bit code, `None` for [`NONE`] and codes above 3.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Colour> {
        match code {
            1 => Some(Colour::City),
            2 => Some(Colour::Road),
            3 => Some(Colour::Field),
            _ => None,
        }
    }

    /// The input letter (`C`, `R` or `F`).
    #[inline]
    pub const fn letter(self) -> u8 {
        match self {
            Colour::City => b'C',
            Colour::Road => b'R',
            Colour::Field => b'F',
        }
    }

    /// The colour of an input letter (upper case only).
    #[inline]
    pub const fn from_letter(letter: u8) -> Option<Colour> {
        match letter {
            b'C' => Some(Colour::City),
            b'R' => Some(Colour::Road),
            b'F' => Some(Colour::Field),
            _ => None,
        }
    }
}

/// One of the four sides of a tile, in clockwise order from the top; the
/// discriminant is the edge index (bits `2 * side..2 * side + 2` of a tile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Side {
    /// Edge 0.
    Top = 0,
    /// Edge 1.
    Right = 1,
    /// Edge 2.
    Bottom = 2,
    /// Edge 3.
    Left = 3,
}

/// A tile packed in one byte: 2-bit colour codes clockwise from the top
/// (top at bits 0-1, right 2-3, bottom 4-5, left 6-7). Every edge code is
/// 1, 2 or 3, never [`NONE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// The tile with edges `top`, `right`, `bottom`, `left`.
    #[inline]
    pub const fn new(top: Colour, right: Colour, bottom: Colour, left: Colour) -> Tile {
        Tile(top.code() | right.code() << 2 | bottom.code() << 4 | left.code() << 6)
    }

    /// The tile of a packed byte, `None` if an edge code is [`NONE`].
    #[inline]
    pub const fn from_bits(bits: u8) -> Option<Tile> {
        let mut i = 0;
        while i < 4 {
            if (bits >> (2 * i)) & 3 == NONE {
                return None;
            }
            i += 1;
        }
        Some(Tile(bits))
    }

    /// The tile of a 4-letter code such as `b"CRFF"` (top, right, bottom,
    /// left), `None` unless it is exactly four of `C`, `R`, `F`.
    pub const fn from_letters(code: &[u8]) -> Option<Tile> {
        if code.len() != 4 {
            return None;
        }
        let mut bits = 0u8;
        let mut i = 0;
        while i < 4 {
            match Colour::from_letter(code[i]) {
                Some(c) => bits |= c.code() << (2 * i),
                None => return None,
            }
            i += 1;
        }
        Some(Tile(bits))
    }

    /// The 4-letter code, top first.
    pub const fn letters(self) -> [u8; 4] {
        [
            self.edge(Side::Top).letter(),
            self.edge(Side::Right).letter(),
            self.edge(Side::Bottom).letter(),
            self.edge(Side::Left).letter(),
        ]
    }

    /// The packed byte.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The 2-bit colour code of one side (1, 2 or 3).
    #[inline]
    pub const fn code(self, side: Side) -> u8 {
        (self.0 >> (2 * side as u8)) & 3
    }

    /// The colour of one side.
    #[inline]
    pub const fn edge(self, side: Side) -> Colour {
        match Colour::from_code(self.code(side)) {
            Some(c) => c,
            None => panic!("a Tile edge is never NONE"),
        }
    }

    /// The tile turned a quarter turn clockwise: the top edge moves to the
    /// right, right to bottom, bottom to left and left to top.
    ///
    /// ```
    /// use boardbase_tables::carcassonne::Tile;
    /// let t = Tile::from_letters(b"CRFF").unwrap();
    /// assert_eq!(t.rotate_cw(), Tile::from_letters(b"FCRF").unwrap());
    /// ```
    #[inline]
    pub const fn rotate_cw(self) -> Tile {
        Tile(self.0.rotate_left(2))
    }

    /// The tile turned `turns` quarter turns clockwise (taken mod 4).
    #[inline]
    pub const fn rotated(self, turns: u32) -> Tile {
        Tile(self.0.rotate_left(2 * (turns % 4)))
    }

    /// The tile as it sits on the transposed board (mirrored in the main
    /// diagonal, cell (r, c) moving to (c, r)): top and left swap, right and
    /// bottom swap, so the result is again listed clockwise from the top.
    ///
    /// A mirror reverses the sense of rotation: transposing the tile turned
    /// `k` quarter turns clockwise gives this transposed tile turned `k`
    /// quarter turns *counter-clockwise* (`(4 - k) % 4` clockwise).
    ///
    /// ```
    /// use boardbase_tables::carcassonne::Tile;
    /// let t = Tile::from_letters(b"CRFF").unwrap();
    /// assert_eq!(t.reflect_transpose(), Tile::from_letters(b"FFRC").unwrap());
    /// ```
    #[inline]
    pub const fn reflect_transpose(self) -> Tile {
        let t = self.code(Side::Top);
        let r = self.code(Side::Right);
        let b = self.code(Side::Bottom);
        let l = self.code(Side::Left);
        Tile(l | b << 2 | r << 4 | t << 6)
    }

    /// The distinct rotations of the tile with their multiplicities.
    ///
    /// ```
    /// use boardbase_tables::carcassonne::Tile;
    /// let r = Tile::from_letters(b"CFCF").unwrap().rotations();
    /// assert_eq!(r.len(), 2);
    /// assert_eq!(r.as_slice()[0].multiplicity, 2);
    /// ```
    pub const fn rotations(self) -> Rotations {
        // The rotation orbit has period 1, 2 or 4; each distinct rotation is
        // hit 4 / period times among the 4 turns.
        let period = if self.rotated(1).0 == self.0 {
            1
        } else if self.rotated(2).0 == self.0 {
            2
        } else {
            4
        };
        let empty = Rotation {
            tile: self,
            turns: 0,
            multiplicity: 0,
        };
        let mut items = [empty; 4];
        let mut k = 0;
        while k < period {
            items[k] = Rotation {
                tile: self.rotated(k as u32),
                turns: k as u8,
                multiplicity: (4 / period) as u8,
            };
            k += 1;
        }
        Rotations {
            items,
            len: period as u8,
        }
    }
}

/// One distinct rotation of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rotation {
    /// The rotated tile.
    pub tile: Tile,
    /// The fewest clockwise quarter turns giving it (0..=3).
    pub turns: u8,
    /// How many of the 4 turns give this same tile (1, 2 or 4).
    pub multiplicity: u8,
}

/// The distinct rotations of a tile (1, 2 or 4 of them), multiplicities
/// summing to 4, in increasing number of turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rotations {
    items: [Rotation; 4],
    len: u8,
}

impl Rotations {
    /// The distinct rotations.
    #[inline]
    pub fn as_slice(&self) -> &[Rotation] {
        &self.items[..self.len as usize]
    }

    /// The number of distinct rotations.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Always `false`: a tile has at least one rotation.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The 2-bit colour code in slot `i` of a profile.
#[inline]
pub const fn slot(profile: u64, i: usize) -> u8 {
    ((profile >> (SLOT_BITS as usize * i)) & 3) as u8
}

/// The profile with slot `i` set to `code` (only its low 2 bits are used).
#[inline]
pub const fn with_slot(profile: u64, i: usize, code: u8) -> u64 {
    let shift = SLOT_BITS as usize * i;
    (profile & !(3 << shift)) | ((code as u64 & 3) << shift)
}

/// The mask of a profile of `slots` slots.
#[inline]
pub const fn profile_mask(slots: usize) -> u64 {
    if slots >= 32 {
        u64::MAX
    } else {
        (1u64 << (SLOT_BITS as usize * slots)) - 1
    }
}

/// Rotates a `slots`-slot profile by one slot towards the low end: slot
/// `i + 1` moves to slot `i` and slot 0 wraps round to the highest slot
/// (`slots - 1`). After a placement this advances the cyclic frontier to
/// the next cell (see the module documentation).
#[inline]
pub const fn rotate_slots(profile: u64, slots: usize) -> u64 {
    let top = SLOT_BITS as usize * (slots - 1);
    ((profile >> SLOT_BITS) | ((profile & 3) << top)) & profile_mask(slots)
}

/// The low nibbles a placement reads and writes in a cyclic profile (see
/// the module documentation), as `(input, output)`: the input is `left` in
/// slot 0 and `top` in slot 1; the output is `bottom` in slot 0 and `right`
/// in slot 1, which [`rotate_slots`] then moves to the top slot and slot 0.
/// The caller passes [`NONE`] for a `top` or `left` on the board border (not
/// checked) and for a `right` on the right border (not kept).
#[inline]
pub const fn placement_nibbles(top: u8, right: u8, bottom: u8, left: u8) -> (u8, u8) {
    (left | top << 2, bottom | right << 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(code: &[u8; 4]) -> Tile {
        Tile::from_letters(code).unwrap()
    }

    #[test]
    fn colour_codes_round_trip() {
        for c in Colour::ALL {
            assert_eq!(Colour::from_code(c.code()), Some(c));
            assert_eq!(Colour::from_letter(c.letter()), Some(c));
            assert_ne!(c.code(), NONE);
        }
        assert_eq!(Colour::from_code(0), None);
        assert_eq!(Colour::from_letter(b'c'), None);
        assert_eq!(
            [
                Colour::City.code(),
                Colour::Road.code(),
                Colour::Field.code()
            ],
            [1, 2, 3]
        );
    }

    #[test]
    fn tiles_parse_and_print() {
        let tile = t(b"CRFF");
        assert_eq!(tile.edge(Side::Top), Colour::City);
        assert_eq!(tile.edge(Side::Right), Colour::Road);
        assert_eq!(tile.edge(Side::Bottom), Colour::Field);
        assert_eq!(tile.edge(Side::Left), Colour::Field);
        assert_eq!(&tile.letters(), b"CRFF");
        assert_eq!(tile.bits(), 0b11_11_10_01);
        assert_eq!(Tile::from_bits(tile.bits()), Some(tile));
        assert_eq!(Tile::from_bits(0b11_11_00_01), None);
        assert_eq!(Tile::from_letters(b"CRF"), None);
        assert_eq!(Tile::from_letters(b"CRFX"), None);
        assert_eq!(Tile::from_letters(b"CRFFC"), None);
    }

    #[test]
    fn clockwise_turn_moves_top_to_right() {
        let tile = t(b"CRFF");
        let turned = tile.rotate_cw();
        assert_eq!(turned.edge(Side::Right), tile.edge(Side::Top));
        assert_eq!(turned.edge(Side::Bottom), tile.edge(Side::Right));
        assert_eq!(turned.edge(Side::Left), tile.edge(Side::Bottom));
        assert_eq!(turned.edge(Side::Top), tile.edge(Side::Left));
        assert_eq!(tile.rotated(1), turned);
        assert_eq!(tile.rotated(2), t(b"FFCR"));
        assert_eq!(tile.rotated(3), t(b"RFFC"));
        assert_eq!(tile.rotated(4), tile);
        assert_eq!(tile.rotated(7), tile.rotated(3));
    }

    #[test]
    fn transpose_swaps_top_left_and_right_bottom() {
        for bits in 0..=255u8 {
            let Some(tile) = Tile::from_bits(bits) else {
                continue;
            };
            let m = tile.reflect_transpose();
            assert_eq!(m.edge(Side::Top), tile.edge(Side::Left));
            assert_eq!(m.edge(Side::Left), tile.edge(Side::Top));
            assert_eq!(m.edge(Side::Right), tile.edge(Side::Bottom));
            assert_eq!(m.edge(Side::Bottom), tile.edge(Side::Right));
            assert_eq!(m.reflect_transpose(), tile);
            for k in 0..4 {
                assert_eq!(tile.rotated(k).reflect_transpose(), m.rotated((4 - k) % 4));
            }
        }
    }

    #[test]
    fn rotations_collapse_with_multiplicities() {
        let all = t(b"CCCC").rotations();
        assert_eq!(all.len(), 1);
        assert_eq!(all.as_slice()[0].multiplicity, 4);

        let two = t(b"CFCF").rotations();
        assert_eq!(two.len(), 2);
        assert_eq!(two.as_slice()[0].tile, t(b"CFCF"));
        assert_eq!(two.as_slice()[1].tile, t(b"FCFC"));
        assert!(two.as_slice().iter().all(|r| r.multiplicity == 2));

        let four = t(b"RRFF").rotations();
        assert_eq!(four.len(), 4);
        for (k, r) in four.as_slice().iter().enumerate() {
            assert_eq!(r.turns as usize, k);
            assert_eq!(r.multiplicity, 1);
            assert_eq!(r.tile, t(b"RRFF").rotated(k as u32));
        }

        for bits in 0..=255u8 {
            let Some(tile) = Tile::from_bits(bits) else {
                continue;
            };
            let rs = tile.rotations();
            assert!(!rs.is_empty());
            let total: u32 = rs
                .as_slice()
                .iter()
                .map(|r| u32::from(r.multiplicity))
                .sum();
            assert_eq!(total, 4);
            for k in 0..4 {
                let turned = tile.rotated(k);
                let hits = rs.as_slice().iter().filter(|r| r.tile == turned).count();
                assert_eq!(hits, 1, "each turn is one distinct rotation");
                let same = (0..4).filter(|&j| tile.rotated(j) == turned).count();
                let r = rs.as_slice().iter().find(|r| r.tile == turned).unwrap();
                assert_eq!(usize::from(r.multiplicity), same);
            }
        }
    }

    #[test]
    fn profile_slots() {
        let mut p = 0u64;
        for i in 0..MAX_SLOTS {
            p = with_slot(p, i, (i % 4) as u8);
        }
        for i in 0..MAX_SLOTS {
            assert_eq!(slot(p, i), (i % 4) as u8);
        }
        assert_eq!(p & !profile_mask(MAX_SLOTS), 0);
        let q = with_slot(p, 16, 3);
        assert_eq!(slot(q, 16), 3);
        assert_eq!(q & !(3 << 32), p & !(3 << 32));
        assert_eq!(profile_mask(2), 0xF);
    }

    #[test]
    fn rotating_slots_is_cyclic() {
        for slots in 2..=MAX_SLOTS {
            let mut p = 0u64;
            for i in 0..slots {
                p = with_slot(p, i, (i * 7 % 4) as u8);
            }
            let r = rotate_slots(p, slots);
            for i in 0..slots {
                assert_eq!(slot(r, i), slot(p, (i + 1) % slots));
            }
            let mut q = p;
            for _ in 0..slots {
                q = rotate_slots(q, slots);
            }
            assert_eq!(q, p);
        }
    }

    #[test]
    fn placement_nibbles_layout() {
        // top C, right R, bottom F, left R.
        let (i, o) = placement_nibbles(1, 2, 3, 2);
        assert_eq!((slot(i as u64, 0), slot(i as u64, 1)), (2, 1));
        assert_eq!((slot(o as u64, 0), slot(o as u64, 1)), (3, 2));
    }
}
