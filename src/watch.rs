//! `grader watch FILE`: grades one file on start and again on every save,
//! and shows only what to fix next (the verdict, the first failing test
//! explained, the mistake or hint, a line of progress), as rustlings does.
//!
//! Each grading is `grader grade --format json` run as a child process:
//! a save during a grading stops it (the newest version wins and no older
//! verdict is shown as current), and a grading that fails cannot take
//! `watch` down. `watch` adopts whatever its gradings leave behind (it is
//! a subreaper) and kills it, so that when it ends, on `q`, Ctrl-C,
//! SIGTERM or a hang-up, nothing it started is still running and the
//! terminal is as it was.

mod files;
mod regrading;
mod screen;

use grading::Error;
use regrading::{Ended, Regrading};
use report::contract::Verdict;
use report::{self, SubmissionReport, WatchScreen, WatchState};
use screen::{Key, Screen};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long the file must stay unchanged after a save before it is
/// graded: an editor's save is several events (write, rename, chmod).
const DEBOUNCE: Duration = Duration::from_millis(150);
/// How often keys, signals and the grading are looked at.
const TICK: Duration = Duration::from_millis(25);

/// What to watch and how to grade it.
#[derive(Debug, Clone)]
pub struct Watch {
    /// The submission file, absolute.
    pub file: PathBuf,
    /// The file as the learner named it, for the screen.
    pub shown: String,
    /// The command that grades the file once and shows the whole
    /// report, as words, for the screen to give.
    pub again: Vec<String>,
    pub challenge: String,
    /// How long a grading explores once every test passes, if it does.
    pub explore: Option<Duration>,
    /// The grader, and the arguments of `grade` that grade the file once
    /// (ending with the file) and write a JSON report.
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

/// The state of the newest save, as the screen shows it.
enum Shown {
    Grading {
        saved_at: String,
        /// Tests run so far, of all, as the grading tells them.
        ran: Option<(u64, u64)>,
        /// The first failure it told, in full.
        failed: Option<Box<report::TestReport>>,
    },
    Graded {
        at: String,
        report: Box<report::Report>,
    },
    Failed {
        at: String,
        error: String,
    },
    Missing,
}

/// Watches until asked to stop; answers the verdict of the file as it is
/// now, from the last grading of it that finished, if there is one.
pub fn run(watch: &Watch) -> Result<Option<Verdict>, Error> {
    sys::catch_stop_signals().map_err(Error::io("cannot catch Ctrl-C and SIGTERM"))?;
    // Orphans of a stopped grading come here, to be killed.
    let _ = sys::become_subreaper();
    let mut files = files::FileWatch::new(&watch.file).map_err(|e| Error::Io {
        context: format!("cannot watch the folder of {}", watch.shown),
        source: std::io::Error::other(e),
    })?;
    let mut screen = Screen::open();
    let mut running: Option<Regrading> = None;
    let mut shown = Shown::Missing;
    let mut notes: Vec<String> = Vec::new();
    // The verdict of the last version graded, shown dimmed while a newer
    // one is graded.
    let mut last: Option<SubmissionReport> = None;
    // The verdict of the file as it is now, from the last grading of it
    // that finished: none when the grader could not grade it, or when it
    // was saved since. Quitting while `r` grades it again exits as it says.
    let mut finished: Option<Verdict> = None;
    // The terminal's size the screen was last drawn for.
    let mut drawn_for = screen.size();
    // Grade on start.
    let mut due: Option<Instant> = Some(Instant::now());
    let mut result = Ok(());
    loop {
        if sys::stop_signal().is_some() {
            break;
        }
        let mut redraw = false;
        match screen.pressed() {
            Some(Key::Quit) => break,
            Some(Key::Regrade) => due = Some(Instant::now()),
            None => {}
        }
        if files.wait(TICK) {
            // A newer version: the grading of the older one is stale, and
            // so is the verdict of the last one to finish.
            if let Some(old) = running.take() {
                old.cancel();
            }
            finished = None;
            due = Some(Instant::now() + DEBOUNCE);
        }
        if due.is_some_and(|d| Instant::now() >= d) {
            due = None;
            if let Some(old) = running.take() {
                old.cancel();
            }
            shown = if watch.file.is_file() {
                match Regrading::start(&watch.program, &watch.args) {
                    Ok(grading) => {
                        running = Some(grading);
                        Shown::Grading {
                            saved_at: sys::time_of_day(),
                            ran: None,
                            failed: None,
                        }
                    }
                    Err(e) => Shown::Failed {
                        at: sys::time_of_day(),
                        error: format!("cannot start {}: {e}", watch.program.display()),
                    },
                }
            } else {
                Shown::Missing
            };
            redraw = true;
        }
        // The first failure goes up as soon as it is known, the count of
        // tests with it.
        if let (Some(grading), Shown::Grading { ran, failed, .. }) = (&running, &mut shown) {
            for event in grading.events() {
                *ran = Some((event.ran, event.of));
                if failed.is_none() {
                    *failed = event.failed;
                }
                redraw = true;
            }
        }
        if let Some(outcome) = running.as_mut().and_then(Regrading::poll) {
            running = None;
            let at = sys::time_of_day();
            shown = match outcome {
                Ended::Graded(report, warnings) => {
                    notes = warnings;
                    finished = report.submissions.first().map(|s| s.verdict);
                    Shown::Graded { at, report }
                }
                Ended::Failed(error) => {
                    finished = None;
                    Shown::Failed { at, error }
                }
            };
            redraw = true;
        }
        if screen.size() != drawn_for {
            drawn_for = screen.size();
            redraw = true;
        }
        if redraw {
            if let Shown::Graded { report, .. } = &shown {
                last = report.submissions.first().cloned();
            }
            result = draw(watch, &mut screen, &shown, last.as_ref(), &notes);
            if result.is_err() {
                break;
            }
        }
    }
    if let Some(grading) = running.take() {
        grading.cancel();
    }
    sweep();
    drop(files);
    screen.restore();
    result.map_err(Error::io("cannot write to the terminal"))?;
    eprintln!("stopped watching {}", report::visible(&watch.shown));
    Ok(finished)
}

fn draw(
    watch: &Watch,
    screen: &mut Screen,
    shown: &Shown,
    last: Option<&SubmissionReport>,
    notes: &[String],
) -> std::io::Result<()> {
    let state = match shown {
        Shown::Grading {
            saved_at,
            ran,
            failed,
        } => WatchState::Grading {
            saved_at,
            previous: last,
            ran: *ran,
            failed: failed.as_deref(),
        },
        Shown::Graded { at, report } => match report.submissions.first() {
            Some(submission) => WatchState::Graded { at, submission },
            None => WatchState::Failed {
                at,
                error: "the report holds no submission",
            },
        },
        Shown::Failed { at, error } => WatchState::Failed { at, error },
        Shown::Missing => WatchState::Missing,
    };
    let mut styled = Vec::new();
    report::render_watch(
        &WatchScreen {
            file: &watch.shown,
            again: &watch.again,
            challenge: &watch.challenge,
            explore: watch.explore,
            keys: screen.keys(),
            state,
            notes: if matches!(shown, Shown::Graded { .. }) {
                notes
            } else {
                &[]
            },
            size: screen.size(),
        },
        &mut styled,
    )?;
    screen.show(&styled)
}

/// Kills and reaps every process below this one: called only when no
/// grading runs, everything left is a stopped grading's.
fn sweep() {
    loop {
        let left: Vec<u32> = sys::process_tree(std::process::id(), None)
            .map(|tree| tree.pids.into_iter().skip(1).collect())
            .unwrap_or_default();
        if left.is_empty() {
            return;
        }
        for pid in &left {
            sys::kill(*pid as i32, libc::SIGKILL);
        }
        while sys::wait(-1).is_ok() {}
    }
}
