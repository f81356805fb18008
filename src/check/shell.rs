//! Words as a POSIX shell reads them back, for the replay command lines.

/// `word` as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes (a `'`
/// written `'\''`).
pub fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+=:,./@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Words as one command line a shell can run (each [`shell_quote`]d).
pub fn command_line(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
    quoted.join(" ")
}
