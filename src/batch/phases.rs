//! The phases of a class's grading: the visible phase of every
//! submission, then, one at a time, the visible phases the machine
//! starved; then the hidden phase of every submission, then, one at a
//! time, the hidden phases the machine starved. No session of a hidden
//! case runs beside or before a session whose output a report shows (a
//! classmate's included), and a regrade runs with no other session at all.

use super::Entry;
use grading::Error;
use std::collections::VecDeque;
use std::sync::Mutex;

/// Where a submission stands after a phase.
pub(super) enum Step<P, R> {
    /// Graded to the end (boxed: a report is large).
    Graded(Box<R>),
    /// Waiting for the hidden phase.
    Pending(P),
    /// The machine starved it: that phase is graded again alone, with
    /// what the visible phase left for the hidden one (`None` when the
    /// visible phase itself was starved).
    Starved(Option<P>),
}

/// How one submission is graded, phase by phase.
pub(super) trait Phases: Sync {
    /// A submission between its phases: no session of it is running.
    type Pending: Send;
    /// A submission's record.
    type Report;
    /// The visible phase of `entry`.
    fn visible(&self, entry: &Entry) -> Step<Self::Pending, Self::Report>;
    /// The hidden phase of `entry` (never `Pending`).
    fn hidden(&self, entry: &Entry, pending: Self::Pending) -> Step<Self::Pending, Self::Report>;
    /// The visible phase of `entry` again, with nothing else running:
    /// final, whatever it is (a grader fault if the machine starved it
    /// again), so never `Starved`.
    fn visible_alone(&self, entry: &Entry) -> Step<Self::Pending, Self::Report>;
    /// The hidden phase of `entry` again, with nothing else running: final,
    /// whatever it is.
    fn hidden_alone(&self, entry: &Entry, pending: Self::Pending) -> Self::Report;
}

/// Grades `todo` with `jobs` threads, phase by phase, handing each record
/// to `finish` as it is final; stops at `finish`'s first error.
pub(super) fn schedule<'e, P: Phases>(
    phases: &P,
    jobs: usize,
    todo: Vec<&'e Entry>,
    finish: impl Fn(&Entry, P::Report) -> Result<(), Error> + Sync,
) -> Result<(), Error> {
    // Where each came in the class, the entry, and what its hidden phase
    // needs (none when its visible phase was starved).
    type Waiting<'e, P> = Mutex<Vec<(usize, &'e Entry, Option<P>)>>;
    let starved: Waiting<'e, P::Pending> = Mutex::new(Vec::new());
    let pending = Mutex::new(Vec::new());
    let place = |step: Step<P::Pending, P::Report>, at: usize, entry: &'e Entry| match step {
        Step::Graded(report) => finish(entry, *report),
        Step::Pending(p) => {
            pending.lock().unwrap().push((at, entry, p));
            Ok(())
        }
        Step::Starved(p) => {
            starved.lock().unwrap().push((at, entry, p));
            Ok(())
        }
    };
    let todo: Vec<(usize, &Entry)> = todo.into_iter().enumerate().collect();
    in_parallel(jobs, todo, |(at, entry)| {
        place(phases.visible(entry), at, entry)
    })?;
    // Before any hidden phase: what a visible session shows never follows
    // a hidden one.
    for (at, entry, _) in in_order(&starved) {
        place(phases.visible_alone(entry), at, entry)?;
    }
    in_parallel(jobs, in_order(&pending), |(at, entry, p)| {
        place(phases.hidden(entry, p), at, entry)
    })?;
    for (_, entry, p) in in_order(&starved) {
        let p = p.expect("a hidden phase hands back what it was given");
        finish(entry, phases.hidden_alone(entry, p))?;
    }
    Ok(())
}

/// What `list` holds, taken out in the order the submissions came.
fn in_order<E, T>(list: &Mutex<Vec<(usize, E, T)>>) -> Vec<(usize, E, T)> {
    let mut taken = std::mem::take(&mut *list.lock().unwrap());
    taken.sort_by_key(|item| item.0);
    taken
}

/// Runs `work` on every item with `jobs` threads, stopping at the first
/// error (the grader's own failure: saving a result), which it returns.
fn in_parallel<T: Send>(
    jobs: usize,
    items: Vec<T>,
    work: impl Fn(T) -> Result<(), Error> + Sync,
) -> Result<(), Error> {
    let queue = Mutex::new(VecDeque::from(items));
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    if failure.lock().unwrap().is_some() {
                        return;
                    }
                    let Some(item) = queue.lock().unwrap().pop_front() else {
                        return;
                    };
                    if let Err(e) = work(item) {
                        failure.lock().unwrap().get_or_insert(e);
                        return;
                    }
                }
            });
        }
    });
    match failure.into_inner().unwrap() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// A class whose submissions say how each phase ends: `b` is starved
    /// in its visible phase (then passes alone), `c` in its hidden phase
    /// and again alone, `x` has nothing to run; the others pass. It logs
    /// when each call starts and ends, and how many calls ran at once.
    #[derive(Default)]
    struct Fake {
        log: Mutex<Vec<String>>,
        running: AtomicUsize,
        alone_beside: Mutex<Vec<usize>>,
    }

    impl Fake {
        fn call<T>(&self, what: &str, entry: &Entry, then: impl FnOnce() -> T) -> T {
            self.running.fetch_add(1, Ordering::SeqCst);
            self.log
                .lock()
                .unwrap()
                .push(format!("start {what} {}", entry.name));
            std::thread::sleep(Duration::from_millis(20));
            let out = then();
            self.log
                .lock()
                .unwrap()
                .push(format!("end {what} {}", entry.name));
            self.running.fetch_sub(1, Ordering::SeqCst);
            out
        }

        fn alone<T>(&self, what: &str, entry: &Entry, then: impl FnOnce() -> T) -> T {
            let beside = self.running.load(Ordering::SeqCst);
            self.alone_beside.lock().unwrap().push(beside);
            self.call(what, entry, then)
        }
    }

    impl Phases for Fake {
        type Pending = String;
        type Report = String;

        fn visible(&self, entry: &Entry) -> Step<String, String> {
            self.call("visible", entry, || match entry.name.as_str() {
                "b" => Step::Starved(None),
                "x" => Step::Graded(Box::new("x: nothing to run".into())),
                name => Step::Pending(format!("{name}: visible")),
            })
        }

        fn hidden(&self, entry: &Entry, pending: String) -> Step<String, String> {
            self.call("hidden", entry, || match entry.name.as_str() {
                "c" => Step::Starved(Some(pending)),
                _ => Step::Graded(Box::new(format!("{pending}, hidden"))),
            })
        }

        fn visible_alone(&self, entry: &Entry) -> Step<String, String> {
            self.alone("regrade-visible", entry, || {
                Step::Pending(format!("{}: visible alone", entry.name))
            })
        }

        fn hidden_alone(&self, entry: &Entry, pending: String) -> String {
            self.alone("regrade-hidden", entry, || match entry.name.as_str() {
                "c" => format!("{pending}, starved again: a grader fault"),
                _ => format!("{pending}, hidden alone"),
            })
        }
    }

    #[test]
    fn hidden_phases_follow_every_visible_one_and_the_starved_are_regraded_alone_once() {
        let entries: Vec<Entry> = ["a", "b", "c", "d", "e", "x"]
            .iter()
            .map(|n| Entry {
                name: (*n).to_owned(),
                path: n.into(),
                submission: Ok(grading::Submission {
                    path: n.into(),
                    absolute: n.into(),
                    language: vocabulary::Language::Python,
                }),
                alone: false,
            })
            .collect();
        let fake = Fake::default();
        let finished: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
        let finish = |entry: &Entry, report: String| -> Result<(), Error> {
            finished.lock().unwrap().push((entry.name.clone(), report));
            Ok(())
        };
        schedule(&fake, 3, entries.iter().collect(), finish).unwrap();
        let log = fake.log.into_inner().unwrap();
        let last = |prefix: &str| log.iter().rposition(|l| l.starts_with(prefix)).unwrap();
        let first = |prefix: &str| log.iter().position(|l| l.starts_with(prefix)).unwrap();
        // Calls overlapped (the test shows something), yet no hidden
        // session began before every visible one (the regrades' included)
        // ended, and the hidden regrades came after every hidden phase.
        assert!(first("end visible") >= 2, "{log:#?}");
        assert!(
            first("start regrade-visible") > last("end visible"),
            "{log:#?}"
        );
        assert!(
            first("start hidden") > last("end regrade-visible"),
            "{log:#?}"
        );
        assert!(
            first("start regrade-hidden") > last("end hidden"),
            "{log:#?}"
        );
        // Each regrade ran with nothing else running, one at a time.
        assert_eq!(fake.alone_beside.into_inner().unwrap(), vec![0, 0]);
        let alone: Vec<&String> = log.iter().filter(|l| l.contains(" regrade-")).collect();
        assert_eq!(
            alone,
            [
                "start regrade-visible b",
                "end regrade-visible b",
                "start regrade-hidden c",
                "end regrade-hidden c"
            ]
        );
        // Every submission's record once, the regrade's final whatever it
        // is; a visible phase graded alone goes on to the hidden phase, and
        // a hidden phase graded alone keeps what its visible phase found.
        let mut finished = finished.into_inner().unwrap();
        finished.sort();
        assert_eq!(
            finished,
            [
                ("a", "a: visible, hidden"),
                ("b", "b: visible alone, hidden"),
                ("c", "c: visible, starved again: a grader fault"),
                ("d", "d: visible, hidden"),
                ("e", "e: visible, hidden"),
                ("x", "x: nothing to run"),
            ]
            .map(|(n, r)| (n.to_owned(), r.to_owned()))
        );
    }
}
