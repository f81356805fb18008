//! The progress bar of the long table jobs (`generate`, `verify`, tables
//! made on the spot), on stderr when it is a terminal.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar on stderr, one phase at a time, that any thread may
/// update (the generator reports from its workers); nothing when disabled.
pub struct PhaseBar {
    enabled: bool,
    /// The templates of phases counted in bytes and in other units.
    templates: [&'static str; 2],
    state: Mutex<Option<(&'static str, ProgressBar)>>,
}

impl PhaseBar {
    /// A bar, shown only when `enabled` (stderr is a terminal).
    pub fn new(enabled: bool) -> PhaseBar {
        PhaseBar::with_templates(
            enabled,
            [
                "{msg:>10} [{bar:40}] {percent:>3}% {bytes}/{total_bytes}, {eta} left",
                "{msg:>10} [{bar:40}] {percent:>3}% {human_pos}/{human_len}, {eta} left",
            ],
        )
    }

    /// A bar drawn with indicatif `templates` for phases counted in bytes
    /// and in other units.
    pub fn with_templates(enabled: bool, templates: [&'static str; 2]) -> PhaseBar {
        PhaseBar {
            enabled,
            templates,
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
            let template = self.templates[usize::from(!bytes)];
            let bar = ProgressBar::new(total).with_message(phase);
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
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
