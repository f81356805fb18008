//! A program's output as the judges read it: tokens, with their lines, and
//! bytes shown in a report.

/// One whitespace-separated token of a program's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// Its bytes.
    pub text: &'a [u8],
    /// Its 1-based line.
    pub line: usize,
}

/// The judges' whitespace: space, `\t`, `\n`, `\v`, `\f`, `\r`.
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Splits `output` into tokens. When `truncated`, a last token that runs
/// into the end may be cut and is dropped.
pub fn tokens(output: &[u8], truncated: bool) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let (mut line, mut i) = (1, 0);
    while i < output.len() {
        let b = output[i];
        if is_space(b) {
            line += usize::from(b == b'\n');
            i += 1;
            continue;
        }
        let start = i;
        while i < output.len() && !is_space(output[i]) {
            i += 1;
        }
        if truncated && i == output.len() {
            break;
        }
        out.push(Token {
            text: &output[start..i],
            line,
        });
    }
    out
}

/// `bytes` for a report: UTF-8 (lossy), control characters escaped, at most
/// `max` characters (then `…`).
pub fn show(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text a program wrote (its stderr) for a report: UTF-8 (lossy), split
/// into lines first (a `\r` before a line break dropped), then control
/// characters escaped in each line, the lines joined with `\n`; at most
/// `max` characters (then `…`).
pub fn show_lines(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut left = max;
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            if left == 0 {
                out.push('…');
                return out;
            }
            out.push('\n');
            left -= 1;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let count = line.chars().count();
        out.push_str(&show(line.as_bytes(), left));
        if count > left {
            return out;
        }
        left -= count;
    }
    out
}

/// A label token with its runs of digits shown as `k` (`#12` as `#k`), so
/// that wrong labels group by their form.
pub(crate) fn label_form(token: &[u8]) -> String {
    let mut s = String::new();
    for ch in show(token, 20).chars() {
        if ch.is_ascii_digit() {
            if !s.ends_with('k') {
                s.push('k');
            }
        } else {
            s.push(ch);
        }
    }
    s
}

/// Parses a token as a decimal integer with an optional sign.
pub(crate) fn parse_int(text: &[u8]) -> Option<i64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// Tokens joined by single spaces, as a report shows an answer.
pub(super) fn joined(tokens: &[Token<'_>]) -> String {
    let words: Vec<String> = tokens.iter().map(|t| show(t.text, 40)).collect();
    words.join(" ")
}
