//! Progress while a class is graded, on standard error: a bar on a
//! terminal, a line per submission elsewhere (CI logs).

use super::SubmissionReport;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// Progress on standard error: a bar on a terminal, plain lines elsewhere.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: u64,
    count: Mutex<u64>,
}

impl Progress {
    pub fn new(total: u64, already: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} graded, {elapsed} ({eta} left) {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar.set_position(already);
            bar
        });
        if already > 0 && bar.is_none() {
            eprintln!("resuming: {already} of {total} already graded");
        }
        Progress {
            bar,
            total,
            count: Mutex::new(already),
        }
    }

    pub fn done(&self, report: &SubmissionReport) {
        let mut count = self.count.lock().unwrap();
        *count += 1;
        match &self.bar {
            Some(bar) => {
                bar.set_position(*count);
                bar.set_message(format!(
                    "{}: {}",
                    super::text::visible(&report.name),
                    report.verdict
                ));
            }
            None => {
                let _ = writeln!(
                    std::io::stderr(),
                    "[{}/{}] {} ({}): {} ({} of {})",
                    *count,
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
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
