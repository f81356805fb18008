//! The one progress-bar style of the command line: the long table jobs
//! (`generate`, `verify`, tables made on the spot), `check`'s runs and
//! `cases`' cases. Every bar is drawn on stderr, and only when stderr is a
//! terminal: `PHASE [=====>    ]  42% done/total, ETA left (note)`.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

/// The templates of bars counted in bytes and in other units: the phase
/// (right-aligned in 10 columns), the bar, the percentage, the count, the
/// time left and an optional note.
const TEMPLATES: [&str; 2] = [
    "{prefix:>10} [{bar:40}] {percent:>3}% {bytes}/{total_bytes}{left}{msg}",
    "{prefix:>10} [{bar:40}] {percent:>3}% {human_pos}/{human_len}{left}{msg}",
];

/// How long a phase runs before its time left is said, and how much of it
/// must be done: a phase's first reports (the moves-left pass's first
/// layers are its shortest) would say years.
const SETTLE: std::time::Duration = std::time::Duration::from_secs(3);
const SETTLE_FRACTION: f32 = 0.01;

/// `, 1m 20s left` once the phase has run [`SETTLE`] and done
/// [`SETTLE_FRACTION`] of its work, from its average rate since it began
/// (not the last seconds' rate, which swings with each layer); nothing
/// before.
fn left_text(elapsed: std::time::Duration, fraction: f32) -> String {
    if elapsed < SETTLE || !(SETTLE_FRACTION..1.0).contains(&fraction) {
        return String::new();
    }
    let rest = elapsed.mul_f64(f64::from((1.0 - fraction) / fraction));
    format!(", {} left", indicatif::HumanDuration(rest))
}

/// The characters of the bar: done, the tip, to do.
const PROGRESS_CHARS: &str = "=> ";

/// The style of every bar, counted in bytes or in other units.
fn style(bytes: bool) -> Option<ProgressStyle> {
    ProgressStyle::with_template(TEMPLATES[usize::from(!bytes)])
        .ok()
        .map(|s| {
            s.progress_chars(PROGRESS_CHARS).with_key(
                "left",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&left_text(state.elapsed(), state.fraction()));
                },
            )
        })
}

/// Whether bars are shown: stderr is a terminal.
pub fn shown() -> bool {
    std::io::stderr().is_terminal()
}

/// A bar of `total` units of one `phase` (`runs`, `cases`) in the common
/// style, hidden unless stderr is a terminal. A note after the time left
/// is set with [`note`].
pub fn counter(phase: &'static str, total: u64) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total).with_prefix(phase);
    if let Some(style) = style(false) {
        bar.set_style(style);
    }
    bar
}

/// Sets the note shown after the time left: ` (text)`.
pub fn note(bar: &ProgressBar, text: &str) {
    bar.set_message(format!(" ({text})"));
}

/// A progress bar on stderr, one phase at a time, that any thread may
/// update (the generator reports from its workers); nothing when stderr is
/// not a terminal.
pub struct PhaseBar {
    enabled: bool,
    state: Mutex<Option<(&'static str, ProgressBar)>>,
}

impl PhaseBar {
    /// A bar, shown only when stderr is a terminal.
    pub fn new() -> PhaseBar {
        PhaseBar {
            enabled: shown(),
            state: Mutex::new(None),
        }
    }

    /// `done` of `total` units of `phase` (`bytes` or positions).
    pub fn update(&self, phase: &'static str, done: u64, total: u64, bytes: bool) {
        if !self.enabled {
            return;
        }
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        if state.as_ref().is_none_or(|(p, _)| *p != phase) {
            if let Some((_, bar)) = state.take() {
                bar.finish_and_clear();
            }
            let bar = ProgressBar::new(total).with_prefix(phase);
            if let Some(style) = style(bytes) {
                bar.set_style(style);
            }
            *state = Some((phase, bar));
        }
        if let Some((_, bar)) = state.as_ref() {
            bar.set_position(done);
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Ok(mut state) = self.state.lock()
            && let Some((_, bar)) = state.take()
        {
            bar.finish_and_clear();
        }
    }
}

/// Progress as a line on stderr every [`Lines::EVERY`] when stderr is not
/// a terminal (a log, a CI job), where a bar would be hidden: the same
/// counts, so a long job piped somewhere is never silent.
pub struct Lines {
    started: std::time::Instant,
    last: std::time::Instant,
    enabled: bool,
}

impl Lines {
    /// How often a line is written.
    pub const EVERY: std::time::Duration = std::time::Duration::from_secs(5);

    /// Lines from now on, when stderr is not a terminal.
    pub fn new() -> Lines {
        let now = std::time::Instant::now();
        Lines {
            started: now,
            last: now,
            enabled: !shown(),
        }
    }

    /// `done` of `total` `units`, and `note`, when the last line is
    /// [`Lines::EVERY`] old: `check: 1,234 of 65,536 runs (2 failed), 40 s,
    /// about 1m 20s left`.
    pub fn update(&mut self, what: &str, done: u64, total: u64, units: &str, note: &str) {
        if !self.enabled || self.last.elapsed() < Self::EVERY {
            return;
        }
        self.last = std::time::Instant::now();
        let elapsed = self.started.elapsed();
        let left = match done {
            0 => String::new(),
            done => {
                let rest = elapsed.mul_f64(total.saturating_sub(done) as f64 / done as f64);
                format!(", about {} left", indicatif::HumanDuration(rest))
            }
        };
        eprintln!(
            "{what}: {} of {} {units} ({note}), {}{left}",
            crate::thousands(done as usize),
            crate::thousands(total as usize),
            indicatif::HumanDuration(elapsed)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_time_left_waits_for_the_phase_to_settle_and_follows_its_average_rate() {
        // The moves-left pass's first report: no "39y left".
        assert_eq!(left_text(Duration::from_millis(200), 0.000_01), "");
        assert_eq!(left_text(Duration::from_secs(10), 0.005), "");
        assert_eq!(left_text(Duration::from_secs(2), 0.5), "");
        // A quarter done in 10 s: 30 s to go.
        assert_eq!(
            left_text(Duration::from_secs(10), 0.25),
            ", 30 seconds left"
        );
        assert_eq!(left_text(Duration::from_secs(10), 1.0), "");
    }
}
