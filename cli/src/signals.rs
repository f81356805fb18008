//! Signals of a long job: SIGINT, SIGTERM or SIGHUP cancel it (it stops
//! within a moment, cleaning up), a second one exits at once; the exit
//! status is 128 + the signal.

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

use boardbase::progress::Cancel;

/// On SIGINT, SIGTERM or SIGHUP: cancels `cancel` and keeps the signal for
/// the exit status, 128 + the signal. A second signal exits at once with
/// that status, printing what `second` (which cleans up) says, if anything.
#[cfg(unix)]
pub(crate) fn on_signals(
    cancel: &Cancel,
    second: impl FnOnce() -> Option<String> + Send + 'static,
) -> Arc<AtomicI32> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let caught = Arc::new(AtomicI32::new(0));
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return caught;
    };
    let (cancel, first) = (cancel.clone(), Arc::clone(&caught));
    std::thread::spawn(move || {
        let mut signals = signals.forever();
        if let Some(signal) = signals.next() {
            first.store(signal, Ordering::Relaxed);
            cancel.cancel();
        }
        if let Some(signal) = signals.next() {
            if let Some(message) = second() {
                eprintln!("\n{message}");
            }
            std::process::exit(128 + signal);
        }
    });
    caught
}

#[cfg(not(unix))]
pub(crate) fn on_signals(
    _cancel: &Cancel,
    _second: impl FnOnce() -> Option<String> + Send + 'static,
) -> Arc<AtomicI32> {
    Arc::new(AtomicI32::new(0))
}

/// The signal a run stopped by a cancel caught, or SIGINT's number (2)
/// when the cancel came from elsewhere: the exit status is 128 + it.
pub(crate) fn caught(signal: &AtomicI32) -> i32 {
    match signal.load(Ordering::Relaxed) {
        0 => 2,
        s => s,
    }
}
