//! `grader audit --submissions`: each submission explored once it passes
//! the suite, and the generated cases that tell a wrong one from the
//! reference, proposed for `grader add`, so that a suite grows from a
//! class's real bugs. The command grades and writes; this module groups
//! the cases and says it.

use crate::contract::tools::{Exploration, ExploredSubmission, ProposedCase};
use crate::contract::{SubmissionReport, Verdict};
use crate::notation::{visible, visible_json};
use grading::counted;
use serde_json::Value;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

/// A case the suite lacks: a shrunk counterexample, once however many
/// submissions it was found for.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// A case name for `grader add`: `explored-` and the first student's.
    pub name: String,
    /// `[args, ops]`.
    pub case: Value,
    /// The students whose submissions it fails, by name.
    pub students: Vec<String>,
    /// Where it was written (`--write-cases`), when it was.
    pub written: Option<PathBuf>,
}

/// The cases to propose from `submissions`: each distinct counterexample
/// once, in the order of the first submission it fails, named after that
/// submission's student (distinct names, each a valid case name).
pub fn proposals(submissions: &[SubmissionReport]) -> Vec<Proposal> {
    let mut found: Vec<Proposal> = Vec::new();
    for s in submissions {
        let Some(c) = s.explore.as_ref().and_then(|e| e.counterexample.as_ref()) else {
            continue;
        };
        match found.iter_mut().find(|p| p.case == c.case) {
            Some(p) => p.students.push(s.name.clone()),
            None => {
                let stem = case_name(&s.name);
                let name = (1..)
                    .map(|n| match n {
                        1 => stem.clone(),
                        n => format!("{stem}-{n}"),
                    })
                    .find(|n| found.iter().all(|p| &p.name != n))
                    .unwrap_or(stem);
                found.push(Proposal {
                    name,
                    case: c.case.clone(),
                    students: vec![s.name.clone()],
                    written: None,
                });
            }
        }
    }
    found
}

/// `explored-` and a student's name without its extension, every
/// character a case name cannot hold as `-`, at most 48 characters.
fn case_name(student: &str) -> String {
    let stem = student
        .rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty())
        .map_or(student, |(stem, _)| stem);
    let tidy: String = stem
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                true => c,
                false => '-',
            },
        )
        .take(48 - "explored-".len())
        .collect();
    format!("explored-{tidy}")
}

/// What `audit --submissions` shows.
pub struct Explored<'a> {
    pub challenge: &'a str,
    /// The time each submission was explored for, and the seed.
    pub time: Duration,
    pub seed: u64,
    pub submissions: &'a [SubmissionReport],
    pub proposals: &'a [Proposal],
    /// Where the cases were asked to be written (`--write-cases`).
    pub write_to: Option<&'a std::path::Path>,
    /// `grader add` with the options that name the suite audited, for the
    /// line that adds a written case.
    pub add: &'a str,
}

/// `grader audit --submissions`: a line per submission explored (and its
/// counterexample's first wrong answer), those the suite already fails,
/// then each case proposed with how to add it.
pub fn render_explored(view: &Explored<'_>, out: &mut dyn Write) -> io::Result<()> {
    let (passing, failing): (Vec<&SubmissionReport>, Vec<&SubmissionReport>) = view
        .submissions
        .iter()
        .partition(|s| s.verdict == Verdict::Accepted);
    writeln!(
        out,
        "{}: {} of {} {} the suite, each explored with generated cases for {:.1} s (seed {})",
        view.challenge,
        passing.len(),
        counted(view.submissions.len(), "submission"),
        match passing.len() {
            1 => "passes",
            _ => "pass",
        },
        view.time.as_secs_f64(),
        view.seed
    )?;
    for s in &passing {
        let name = visible(&s.name);
        match &s.explore {
            None => writeln!(out, "  {name}: not explored")?,
            Some(e) => match &e.counterexample {
                None => writeln!(
                    out,
                    "  {name}: {}, every one answered as the reference does",
                    counted(e.cases, "generated case")
                )?,
                Some(c) => writeln!(
                    out,
                    "  {name}: {}: {}",
                    crate::text::FAILS_A_GENERATED_CASE,
                    crate::text::explore_difference(c)
                )?,
            },
        }
    }
    if !failing.is_empty() {
        let names: Vec<String> = failing
            .iter()
            .map(|s| format!("{} ({})", visible(&s.name), s.verdict))
            .collect();
        writeln!(
            out,
            "not explored, the suite already fails them: {}",
            names.join(", ")
        )?;
    }
    if view.proposals.is_empty() {
        return writeln!(
            out,
            "no case to propose: every submission that passes the suite answered every generated case as the reference does"
        );
    }
    writeln!(
        out,
        "\n{} the suite lacks, shrunk, each failing a submission that passes it:",
        counted(view.proposals.len(), "case")
    )?;
    for p in view.proposals {
        let students: Vec<String> = p.students.iter().map(|s| visible(s)).collect();
        writeln!(out, "  {}: {}", p.name, visible_json(&p.case))?;
        writeln!(out, "    fails {}", students.join(", "))?;
        if let Some(file) = &p.written {
            writeln!(
                out,
                "    add it: {} --group GROUP {} {}",
                view.add,
                p.name,
                file.display()
            )?;
        }
    }
    match view.write_to {
        Some(dir) => writeln!(out, "written to {}", dir.display()),
        None => writeln!(
            out,
            "run again with --write-cases DIR to write them there for `grader add`"
        ),
    }
}

/// `grader audit --submissions --format json`.
pub fn render_explored_json(view: &Explored<'_>, out: &mut dyn Write) -> io::Result<()> {
    let view = Exploration {
        challenge: view.challenge.to_owned(),
        seed: view.seed,
        budget_ms: view.time.as_millis() as u64,
        submissions: view
            .submissions
            .iter()
            .map(|s| ExploredSubmission {
                name: s.name.clone(),
                path: s.path.clone(),
                verdict: s.verdict,
                explore: s.explore.clone(),
            })
            .collect(),
        proposed: view
            .proposals
            .iter()
            .map(|p| ProposedCase {
                name: p.name.clone(),
                case: p.case.clone(),
                students: p.students.clone(),
                file: p.written.as_ref().map(|f| f.display().to_string()),
            })
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &view).map_err(io::Error::other)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::case_name;

    /// Any student's name makes a case name `grader add` takes.
    #[test]
    fn case_names_are_valid_whatever_the_student_name() {
        for student in [
            "strip_key.py",
            "alice",
            "Zoë's router.ts",
            ".hidden",
            "a.b.c.rs",
            "🖥 lab 3",
            &"x".repeat(200),
        ] {
            let name = case_name(student);
            assert_eq!(grading::case_name_problem(&name), None, "{student}: {name}");
            assert!(name.len() <= 48, "{name}");
        }
        assert_eq!(case_name("strip_key.py"), "explored-strip_key");
    }
}
