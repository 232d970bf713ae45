//! Progress while submissions are graded, on standard error: on a
//! terminal, a bar of the tests run that moves with every test and a
//! clock that ticks; elsewhere (CI logs), a line per submission. And the
//! events `grader watch` reads from the grading it runs: every test as it
//! ends, the first failure in full.

use super::{Audience, SubmissionReport, TestReport};
use grading::Tested;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// Whether progress and notes on standard error are kept quiet (`-q`).
static QUIET: AtomicBool = AtomicBool::new(false);

/// Keeps progress (the bar, the line per submission, "resuming") and the
/// notes of files written off standard error from now on: `--quiet`.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// How often the bar's clock is redrawn while nothing else changes.
const TICK: Duration = Duration::from_millis(250);

/// Progress on standard error: a bar on a terminal, plain lines elsewhere.
pub struct Progress {
    /// The bar, once grading has started, on a terminal only.
    bar: OnceLock<Option<indicatif::ProgressBar>>,
    /// Submissions to grade in all.
    total: u64,
    /// Cases a submission runs.
    cases: u64,
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    /// Submissions graded to the end.
    graded: u64,
    /// Per submission being graded, by name: its tests run so far.
    running: HashMap<String, u64>,
}

impl Progress {
    /// Progress over `total` submissions of `cases` tests each; nothing is
    /// shown before [`Progress::start`].
    pub fn new(total: u64, cases: u64) -> Progress {
        Progress {
            bar: OnceLock::new(),
            total,
            cases,
            counts: Mutex::new(Counts::default()),
        }
    }

    /// Shows the progress, with `already` submissions graded (by an
    /// earlier run that is resumed).
    pub fn start(&self, already: u64) {
        self.counts.lock().unwrap().graded = already;
        let bar = self.bar.get_or_init(|| {
            (std::io::stderr().is_terminal() && !quiet()).then(|| {
                let bar = indicatif::ProgressBar::with_draw_target(
                    Some(self.total * self.cases),
                    indicatif::ProgressDrawTarget::term_like(Box::new(BarTerm(
                        console::Term::stderr(),
                    ))),
                );
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{bar:30} {pos}/{len} tests, {msg}, {elapsed} ({eta} left)",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
                bar.set_position(already * self.cases);
                bar.set_message(format!("{already}/{} graded", self.total));
                // The clock moves while a long test runs.
                bar.enable_steady_tick(TICK);
                bar
            })
        });
        if already > 0 && bar.is_none() && !quiet() {
            eprintln!("resuming: {already} of {} already graded", self.total);
        }
    }

    fn bar(&self) -> Option<&indicatif::ProgressBar> {
        self.bar.get().and_then(Option::as_ref)
    }

    /// A test of the submission named `name` has run.
    pub fn ran(&self, name: &str) {
        *self
            .counts
            .lock()
            .unwrap()
            .running
            .entry(name.to_owned())
            .or_default() += 1;
        if let Some(bar) = self.bar() {
            bar.inc(1);
        }
    }

    /// `report`'s submission is graded to the end.
    pub fn done(&self, report: &SubmissionReport) {
        let mut counts = self.counts.lock().unwrap();
        counts.graded += 1;
        // The tests it did not run (a module that never built runs none)
        // count as done now.
        let ran = counts.running.remove(&report.name).unwrap_or(0);
        match self.bar() {
            Some(bar) => {
                bar.inc(self.cases.saturating_sub(ran));
                bar.set_message(format!(
                    "{}/{} graded, {}: {}",
                    counts.graded,
                    self.total,
                    super::text::visible(&report.name),
                    report.verdict
                ));
            }
            None if quiet() => {}
            None => {
                let _ = writeln!(
                    std::io::stderr(),
                    "[{}/{}] {} ({}): {} ({} of {})",
                    counts.graded,
                    self.total,
                    super::text::visible(&report.name),
                    super::text::visible(&report.path),
                    report.verdict,
                    super::text::earned(&report.points),
                    super::text::possible(&report.points)
                );
            }
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = self.bar() {
            bar.finish_and_clear();
        }
    }
}

/// Standard error as the bar draws on it, but with the rest of the bar's
/// line cleared rather than filled with spaces to the terminal's edge, so
/// that the cursor stays just after the bar: a `^C` the terminal echoes
/// then lands on the bar's own line and goes when the bar is cleared,
/// instead of wrapping onto the next line and pushing the bar up, left
/// on the screen.
#[derive(Debug)]
struct BarTerm(console::Term);

impl indicatif::TermLike for BarTerm {
    fn width(&self) -> u16 {
        self.0.size().1
    }

    fn height(&self) -> u16 {
        self.0.size().0
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_up(n)
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_down(n)
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_right(n)
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_left(n)
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.write_line(s)
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        // The filler after a line is written alone, all spaces.
        if !s.is_empty() && s.bytes().all(|b| b == b' ') {
            self.0.write_str("\x1b[K")
        } else {
            self.0.write_str(s)
        }
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.0.clear_line()
    }

    fn flush(&self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// What a grading tells `grader watch` as it goes, a line of JSON each on
/// standard error after [`EVENT_PREFIX`] (`grade --events`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// Tests run so far.
    pub ran: u64,
    /// Tests in all.
    pub of: u64,
    /// The first test that failed, when this one did and its reader may
    /// see its inside: the report's entry for it as its first run left it
    /// (the mistake named across tests comes with the whole report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<Box<TestReport>>,
}

/// What starts an event's line on standard error.
pub const EVENT_PREFIX: &str = "event: ";

/// The report's entry for `tested` as soon as its first run ends, when it
/// failed and `audience` may see its inside (`denominator` as the suite's).
pub fn failed_early(
    tested: &Tested<'_>,
    audience: Audience,
    denominator: u64,
) -> Option<TestReport> {
    let accepted = tested.judgement.verdict == vocabulary::Verdict::Accepted;
    (!accepted && audience.sees(tested.group.visibility)).then(|| {
        super::entry::test_report(
            tested,
            super::score::test_points(tested.group, denominator, false),
            audience,
            None,
        )
    })
}
