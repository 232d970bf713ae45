//! The class overview: the verdicts, the scores' histogram and mean, the
//! named mistakes by how many students made them and the tests most
//! students fail, each student linked to their section. Every number is
//! the page's text, and the element showing it carries it in a `data-`
//! attribute; the `summary` JSON block holds them all.

use super::{esc, student_id, svg};
use crate::class::{
    class_mistakes, failing_tests, histogram, mean_points, other_students, share, verdict_counts,
};
use crate::contract::Verdict;
use crate::text::{earned, possible};
use crate::{Report, text::abbreviate};
use std::fmt::{Result, Write};

/// How many tests the overview lists at most (the rest are counted).
const MAX_TESTS: usize = 20;

pub(super) fn write_overview(report: &Report, page: &mut String) -> Result {
    let n = report.submissions.len();
    let verdicts = verdict_counts(report);
    let bins = histogram(report);
    let mean = mean_points(report);
    let mistakes = class_mistakes(report);
    let failing = failing_tests(report);
    let names = |students: &[usize]| -> Vec<String> {
        students
            .iter()
            .map(|&i| report.submissions[i].name.clone())
            .collect()
    };
    let links = |students: &[usize]| -> String {
        students
            .iter()
            .map(|&i| {
                format!(
                    "<a href=\"#{}\">{}</a>",
                    student_id(i),
                    esc(&report.submissions[i].name)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };

    writeln!(
        page,
        "<section class=\"overview\" id=\"overview\" aria-labelledby=\"overview-title\">"
    )?;
    writeln!(
        page,
        "<h2 id=\"overview-title\">The class: <span data-submissions=\"{n}\">{n}</span> submissions</h2>"
    )?;
    summary_json(report, page)?;

    writeln!(page, "<h3>Verdicts</h3>")?;
    writeln!(page, "<ul class=\"cards\" id=\"verdicts\">")?;
    for (verdict, count) in verdicts.iter().filter(|(_, c)| *c > 0) {
        writeln!(
            page,
            "<li data-verdict=\"{verdict}\" data-count=\"{count}\"><span class=\"count\">{count}</span>{verdict}</li>"
        )?;
    }
    writeln!(page, "</ul>")?;
    let faults = verdicts
        .iter()
        .find(|(v, _)| *v == Verdict::GraderFault)
        .map_or(0, |(_, c)| *c);
    if faults > 0 {
        writeln!(
            page,
            "<p class=\"warn\">{} the grader could not judge (grader-fault) {} no score and {} left out of the mean and the histogram; grading again with --resume judges {}.</p>",
            grading::counted(faults, "submission"),
            if faults == 1 { "has" } else { "have" },
            if faults == 1 { "is" } else { "are" },
            if faults == 1 { "it" } else { "them" },
        )?;
    }

    writeln!(page, "<h3>Scores</h3>")?;
    let scored: usize = bins.iter().map(|b| b.students.len()).sum();
    match mean {
        Some(m) => writeln!(
            page,
            "<p id=\"mean\" data-mean=\"{}\" data-max=\"{}\" data-scored=\"{scored}\">mean score <strong class=\"mean\">{}</strong> of {} over {}</p>",
            m.score().unwrap_or_default(),
            m.max_score(),
            earned(&m),
            possible(&m),
            grading::counted(scored, "scored submission")
        )?,
        None => writeln!(page, "<p id=\"mean\">no submission was scored</p>")?,
    }
    page.push_str(&svg::histogram(&bins, scored));
    writeln!(
        page,
        "<details><summary>the histogram's numbers, with the students</summary><table id=\"histogram\"><thead><tr><th>share of the points</th><th class=\"n\">students</th><th>who</th></tr></thead><tbody>"
    )?;
    for b in &bins {
        writeln!(
            page,
            "<tr data-bin=\"{}\" data-count=\"{}\"><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            b.from,
            b.students.len(),
            b.label(),
            b.students.len(),
            links(&b.students)
        )?;
    }
    writeln!(page, "</tbody></table></details>")?;

    writeln!(page, "<h3>Named mistakes</h3>")?;
    if mistakes.mistakes.is_empty() {
        writeln!(
            page,
            "<p id=\"mistakes\">no known mistake explains any student's failures</p>"
        )?;
    } else {
        writeln!(
            page,
            "<table id=\"mistakes\"><thead><tr><th>mistake</th><th class=\"n\">students</th><th class=\"n\">share</th><th>who</th></tr></thead><tbody>"
        )?;
        for m in &mistakes.mistakes {
            let together = if m.together > 0 {
                format!(
                    " <span class=\"dim\">({} of them with another)</span>",
                    m.together
                )
            } else {
                String::new()
            };
            writeln!(
                page,
                "<tr data-mistake=\"{}\" data-count=\"{}\"><td>{} <span class=\"dim mono\">{}</span>{together}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                esc(&m.id),
                m.students.len(),
                esc(&m.title),
                esc(&m.id),
                m.students.len(),
                share(m.students.len(), mistakes.judged),
                links(&m.students)
            )?;
        }
        for p in &mistakes.pairs {
            writeln!(
                page,
                "<tr data-pair=\"{}\" data-count=\"{}\"><td>made together: {}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                esc(&p.ids.join(" ")),
                p.students.len(),
                p.ids
                    .iter()
                    .map(|id| format!("<span class=\"mono\">{}</span>", esc(id)))
                    .collect::<Vec<_>>()
                    .join(" + "),
                p.students.len(),
                share(p.students.len(), mistakes.judged),
                links(&p.students)
            )?;
        }
        writeln!(page, "</tbody></table>")?;
        writeln!(
            page,
            "<p class=\"dim\">A mistake is named for a student when it reproduces every one of their failures, alone or as one of two (or three) made together; a student counts once for each mistake named, and those made together also once for their combination. Shares are of the {} judged.</p>",
            grading::counted(mistakes.judged, "student")
        )?;
    }
    for line in other_students(&mistakes) {
        writeln!(page, "<p>{}</p>", esc(&line))?;
    }

    writeln!(page, "<h3>Tests failed most</h3>")?;
    if failing.is_empty() {
        writeln!(
            page,
            "<p id=\"failing-tests\">every scored student passes every test</p>"
        )?;
    } else {
        writeln!(
            page,
            "<table id=\"failing-tests\"><thead><tr><th>test</th><th class=\"n\">students failing</th><th>who</th></tr></thead><tbody>"
        )?;
        for t in failing.iter().take(MAX_TESTS) {
            let id = t.id().to_string();
            let who = if t.students.len() > 8 {
                esc(&abbreviate(&names(&t.students), 8))
            } else {
                links(&t.students)
            };
            writeln!(
                page,
                "<tr data-test=\"{}\" data-count=\"{}\" data-of=\"{}\"><td class=\"mono\">{}</td><td class=\"n\">{} of {}</td><td>{who}</td></tr>",
                esc(&id),
                t.students.len(),
                t.graded,
                esc(&id),
                t.students.len(),
                t.graded
            )?;
        }
        writeln!(page, "</tbody></table>")?;
        if failing.len() > MAX_TESTS {
            writeln!(
                page,
                "<p class=\"dim\">and {} more failed by fewer students</p>",
                grading::counted(failing.len() - MAX_TESTS, "test")
            )?;
        }
    }

    writeln!(page, "<h3>Students</h3>")?;
    // Exploring changes no verdict: the students it still finds wrong are
    // named here, and in a column of their own below.
    let explored = crate::text::any_explored(report);
    let still_wrong = still_wrong(report);
    if !still_wrong.is_empty() {
        writeln!(
            page,
            "<p id=\"still-wrong\" data-count=\"{}\"><strong class=\"bad\">{}</strong>: {}</p>",
            still_wrong.len(),
            esc(crate::text::FAILS_A_GENERATED_CASE),
            links(&still_wrong)
        )?;
    }
    writeln!(
        page,
        "<table id=\"students\"><thead><tr><th>student</th><th>verdict</th><th class=\"n\">score</th><th class=\"n\">tests passed</th><th>mistake</th>{}</tr></thead><tbody>",
        if explored {
            "<th>generated cases</th>"
        } else {
            ""
        }
    )?;
    for (i, s) in report.submissions.iter().enumerate() {
        let mistake = s
            .mistake
            .as_ref()
            .filter(|m| m.exact)
            .map(|m| {
                m.named()
                    .iter()
                    .map(|n| esc(&n.id))
                    .collect::<Vec<_>>()
                    .join(" + ")
            })
            .unwrap_or_default();
        let explore = if !explored {
            String::new()
        } else if s
            .explore
            .as_ref()
            .is_some_and(|e| e.counterexample.is_some())
        {
            format!(
                "<td class=\"bad\" data-counterexample=\"true\">{}</td>",
                esc(&crate::text::explore_cell(s))
            )
        } else {
            format!("<td>{}</td>", esc(&crate::text::explore_cell(s)))
        };
        writeln!(
            page,
            "<tr><td><a href=\"#{}\">{}</a></td><td>{}</td><td class=\"n\">{} of {}</td><td class=\"n\">{} of {}</td><td class=\"mono\">{mistake}</td>{explore}</tr>",
            student_id(i),
            esc(&s.name),
            super::student::verdict_badge(s.verdict),
            earned(&s.points),
            possible(&s.points),
            s.passed,
            s.total
        )?;
    }
    writeln!(page, "</tbody></table>")?;
    writeln!(page, "</section>")
}

/// The overview's numbers as JSON, for scripts that read the page: the
/// same numbers the page shows, from the same functions.
fn summary_json(report: &Report, page: &mut String) -> Result {
    let names = |students: &[usize]| -> Vec<&str> {
        students
            .iter()
            .map(|&i| report.submissions[i].name.as_str())
            .collect()
    };
    let mean = mean_points(report);
    let mistakes = class_mistakes(report);
    let mut summary = serde_json::json!({
        "submissions": report.submissions.len(),
        "verdicts": verdict_counts(report)
            .iter()
            .map(|(v, c)| (v.as_str().to_owned(), serde_json::Value::from(*c)))
            .collect::<serde_json::Map<_, _>>(),
        "scored": histogram(report).iter().map(|b| b.students.len()).sum::<usize>(),
        "mean_score": mean.and_then(|m| m.score()),
        "max_score": mean.map(|m| m.max_score()),
        "histogram": histogram(report)
            .iter()
            .map(|b| serde_json::json!({"from": b.from, "label": b.label(), "count": b.students.len()}))
            .collect::<Vec<_>>(),
        "judged": mistakes.judged,
        "mistakes": mistakes
            .mistakes
            .iter()
            .map(|m| serde_json::json!({"id": m.id, "title": m.title, "count": m.students.len(), "together": m.together, "students": names(&m.students)}))
            .collect::<Vec<_>>(),
        "pairs": mistakes
            .pairs
            .iter()
            .map(|p| serde_json::json!({"ids": p.ids, "count": p.students.len(), "students": names(&p.students)}))
            .collect::<Vec<_>>(),
        "failing_tests": failing_tests(report)
            .iter()
            .map(|t| serde_json::json!({"test": t.id().to_string(), "count": t.students.len(), "of": t.graded}))
            .collect::<Vec<_>>(),
    });
    // Only an explored class has it, so that the numbers of one that was
    // not read as they always did.
    if crate::text::any_explored(report) {
        summary["explored"] = serde_json::json!({
            "students": report.submissions.iter().filter(|s| s.explore.is_some()).count(),
            "fail_a_generated_case": names(&still_wrong(report)),
        });
    }
    // In a script element only `</` (and `<!--`) could end it early: every
    // `<`, `>` and `&` is written as a JSON escape, which reads the same.
    let json = serde_json::to_string(&summary)
        .map_err(|_| std::fmt::Error)?
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    writeln!(
        page,
        "<script type=\"application/json\" id=\"summary\">{json}</script>"
    )
}

/// The students a generated case fails though the suite passes them, by
/// their place in the report.
fn still_wrong(report: &Report) -> Vec<usize> {
    report
        .submissions
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.explore
                .as_ref()
                .is_some_and(|e| e.counterexample.is_some())
        })
        .map(|(i, _)| i)
        .collect()
}
