//! A grading stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP: the progress
//! line cleared, what was saved and how to go on said, and the exit code
//! a shell gives a program its signal ended (128 + the signal).
//!
//! Leaving at once is safe: each result is written whole or not at all
//! (atomically), the results folder's lock is released by the system, and
//! every session dies with the grader (its parent-death signal), in a
//! process group of its own that the terminal's Ctrl-C does not reach.

use grading::Error;
use report::Progress;
use report::contract::exit;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// How often the grading looks for a stop signal: soon enough to seem
/// immediate to a person at the keyboard.
const LOOK: Duration = Duration::from_millis(50);

/// What a stopped grading says: where its results were saved, as the
/// command line gave the folder, if it saved any.
pub struct OnStop<'a> {
    pub results: Option<&'a Path>,
}

/// Runs `grade` with the stop signals caught and watched: one arriving
/// ends the process, saying what was saved. `saved` counts the results saved so
/// far, and is held while one is saved.
pub fn stoppable<R>(
    on_stop: &OnStop<'_>,
    progress: &Progress,
    saved: &Mutex<usize>,
    grade: impl FnOnce() -> R,
) -> Result<R, Error> {
    sys::catch_stop_signals().map_err(Error::io("cannot catch Ctrl-C and SIGTERM"))?;
    let done = AtomicBool::new(false);
    let graded = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                if let Some(signal) = sys::stop_signal() {
                    stop(signal, on_stop, progress, saved);
                }
                std::thread::sleep(LOOK);
            }
        });
        let graded = grade();
        done.store(true, Ordering::SeqCst);
        graded
    });
    sys::default_stop_signals().map_err(Error::io("cannot restore Ctrl-C and SIGTERM"))?;
    // Caught after the watcher's last look: stopped all the same.
    if let Some(signal) = sys::stop_signal() {
        stop(signal, on_stop, progress, saved);
    }
    Ok(graded)
}

/// Ends the process on `signal`. Taking `saved` waits for a result being
/// written and keeps any other from being counted after: the count said
/// is what the folder holds.
fn stop(signal: i32, on_stop: &OnStop<'_>, progress: &Progress, saved: &Mutex<usize>) -> ! {
    let count = *saved.lock().unwrap_or_else(PoisonError::into_inner);
    progress.finish();
    let mut err = std::io::stderr().lock();
    if std::io::stderr().is_terminal() {
        // The terminal echoed `^C` where the progress line was.
        let _ = write!(err, "\r\x1b[2K");
    }
    let _ = writeln!(err, "{}", said(signal, on_stop.results, count));
    let _ = err.flush();
    // Not a return through the callers: the grading's threads are still
    // at work, and nothing of theirs is to be kept (see the module's doc).
    std::process::exit(i32::from(exit::SIGNALLED) + signal)
}

/// What a grading stopped by `signal` says, having saved `count` results
/// in `results` (the folder as given), if it was given one.
fn said(signal: i32, results: Option<&Path>, count: usize) -> String {
    let stopped = match signal {
        libc::SIGINT => "interrupted".to_owned(),
        libc::SIGTERM => "stopped by SIGTERM".to_owned(),
        libc::SIGHUP => "stopped by SIGHUP".to_owned(),
        other => format!("stopped by signal {other}"),
    };
    match results {
        Some(dir) => format!(
            "{stopped}: {} saved in {}; run the same command again with --resume to grade the rest",
            grading::counted(count, "result"),
            report::visible(&dir.display().to_string())
        ),
        None => format!(
            "{stopped}: nothing was saved (with --results DIR each result is saved as it finishes, and --resume grades the rest)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_says_what_was_saved_and_how_to_go_on() {
        assert_eq!(
            said(libc::SIGINT, Some(Path::new("out/res")), 4),
            "interrupted: 4 results saved in out/res; run the same command again with --resume to grade the rest"
        );
        assert_eq!(
            said(libc::SIGTERM, Some(Path::new("r")), 1),
            "stopped by SIGTERM: 1 result saved in r; run the same command again with --resume to grade the rest"
        );
        assert!(
            said(libc::SIGINT, None, 0)
                .starts_with("interrupted: nothing was saved (with --results DIR")
        );
    }
}
