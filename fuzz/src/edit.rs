//! Byte edits on a file, shared by the table-file targets.

/// Applies byte edits to `bytes`, 5 input bytes each: `[op, a, b, c, v]`.
///
/// Where: bit 7 of `op` set, anywhere (`a | b << 8 | c << 16`, modulo the
/// length + 1); else near the start of a field (`offsets[b % len] + a %
/// 16`). What (`op & 7`): 0 set the byte to `v`, 1 flip bits of it, 2
/// insert `v`, 3 remove 1 to 8 bytes, 4 truncate, 5 write `wide(v, c)` as
/// 8 little-endian bytes, 6 as 4, 7 repeat 64·v bytes in place. Files do
/// not grow past `max_len`.
pub fn edit_bytes(
    bytes: &mut Vec<u8>,
    script: &[u8],
    offsets: &[usize],
    max_len: usize,
    wide: fn(u8, u8) -> u64,
) {
    for op in script.chunks_exact(5) {
        let &[kind, a, b, c, v] = op else {
            unreachable!()
        };
        let len = bytes.len();
        // Anywhere, or near the start of a field.
        let at = if kind & 0x80 != 0 {
            (usize::from(a) | usize::from(b) << 8 | usize::from(c) << 16) % (len + 1)
        } else {
            (offsets[usize::from(b) % offsets.len()] + usize::from(a % 16)).min(len)
        };
        match kind & 7 {
            0 if at < len => bytes[at] = v,
            1 if at < len => bytes[at] ^= v.max(1),
            2 if len < max_len => bytes.insert(at, v),
            3 => {
                bytes.drain(at..(at + usize::from(v % 8) + 1).min(len));
            }
            4 => bytes.truncate(at),
            5 => {
                let le = wide(v, c).to_le_bytes();
                let n = le.len().min(len - at);
                bytes[at..at + n].copy_from_slice(&le[..n]);
            }
            6 => {
                let le = (wide(v, c) as u32).to_le_bytes();
                let n = le.len().min(len - at);
                bytes[at..at + n].copy_from_slice(&le[..n]);
            }
            7 if len < max_len => {
                let end = (at + 64 * usize::from(v)).min(len);
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => {}
        }
    }
}
