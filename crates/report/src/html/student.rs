//! One student's section: what the human report says of a submission, in
//! the same order and from the same data, the first failure open and
//! everything after it folded.

use super::{esc, failing, learner, student_id};
use crate::contract::{NamedMistake, Scoring, Verdict, Visibility};
use crate::failing::failures_shown;
use crate::text::{abbreviate, earned, h32_value, millis, possible, visible_json, visible_str};
use crate::{Report, SubmissionReport};
use std::fmt::{Result, Write};

/// A verdict as a badge: its name, and a sign besides the colour.
pub(super) fn verdict_badge(v: Verdict) -> String {
    let kind = match v {
        Verdict::Accepted => "accepted",
        Verdict::GraderFault => "fault",
        _ => "failed",
    };
    format!("<span class=\"verdict {kind}\" data-verdict=\"{v}\">{v}</span>")
}

pub(super) fn write_student(
    report: &Report,
    i: usize,
    s: &SubmissionReport,
    page: &mut String,
) -> Result {
    let id = student_id(i);
    writeln!(
        page,
        "<section class=\"student\" id=\"{id}\" data-student=\"{}\" data-verdict=\"{}\" aria-labelledby=\"{id}-name\">",
        esc(&s.name),
        s.verdict
    )?;
    let about: Vec<String> = [
        s.runtime.as_deref().map(learner),
        s.api.as_ref().map(|a| format!("{} API", learner(a))),
    ]
    .into_iter()
    .flatten()
    .collect();
    writeln!(
        page,
        "<h2 id=\"{id}-name\">{} <span class=\"dim\">· {}{}</span></h2>",
        esc(&s.name),
        learner(&s.path),
        if about.is_empty() {
            String::new()
        } else {
            format!(" ({})", about.join(", "))
        }
    )?;
    writeln!(
        page,
        "<p>{} <span data-score=\"{}\" data-max=\"{}\">{}</span>, <span data-passed=\"{}\" data-total=\"{}\">{} of {} tests passed</span></p>",
        verdict_badge(s.verdict),
        s.points.score().map(|x| x.to_string()).unwrap_or_default(),
        s.points.max_score(),
        esc(&crate::text::score_of(&s.points)),
        s.passed,
        s.total,
        s.passed,
        s.total
    )?;
    if let Some(hint) = &s.api_hint {
        writeln!(
            page,
            "<p class=\"note bad\">note: {}</p>",
            learner(&hint.message)
        )?;
    }
    write_nondeterminism(s, page)?;
    if let Some(cause) = crate::text::unnamed_cause(s) {
        writeln!(page, "<p>{}</p>", esc(cause))?;
    }
    write_mistake(s, page)?;
    // A hash that is not h32 changes nearly every answer: it is the first
    // thing to fix, before any failure or broken property.
    write_wrong_hash(s, page)?;
    write_tests(report, i, s, page)?;

    for (n, (t, others)) in failures_shown(s).iter().enumerate() {
        // The first failure is open, every other one folded.
        writeln!(
            page,
            "<details class=\"failure\" id=\"{id}-failure-{}\"{}>",
            n + 1,
            if n == 0 { " open" } else { "" }
        )?;
        writeln!(
            page,
            "<summary>{}/{} <span class=\"verdict failed\">{}</span></summary>",
            learner(&t.group),
            learner(&t.name),
            t.verdict
        )?;
        failing::write_failure(report.audience, t, &format!("{id}-failure-{}", n + 1), page)?;
        if !others.is_empty() {
            writeln!(
                page,
                "<p class=\"dim\">the same failure in {}: {}</p>",
                grading::counted(others.len(), "more test"),
                learner(&abbreviate(others, 5))
            )?;
        }
        writeln!(page, "</details>")?;
    }

    if let Some(p) = &s.property {
        let place = if p.first_op == p.second_op {
            format!("operation {}", p.first_op)
        } else {
            format!("operations {} and {}", p.first_op, p.second_op)
        };
        writeln!(
            page,
            "<p><strong class=\"bad\">broken property</strong> in {} ({place}): {}</p>",
            learner(&p.case),
            learner(&p.message)
        )?;
    }
    if let Some(r) = &s.reproducer {
        writeln!(page, "<details class=\"reproducer\">")?;
        writeln!(
            page,
            "<summary>a smaller case that fails the same way: <code>{}</code></summary>",
            esc(&r.case.to_string())
        )?;
        writeln!(
            page,
            "<p>the last operation should answer <code>{}</code>, yours answers <code>{}</code></p>",
            esc(&visible_json(&r.expected)),
            esc(&visible_json(&r.actual))
        )?;
        if let Some(why) = &r.cut_short {
            writeln!(page, "<p class=\"dim\">({})</p>", learner(why))?;
        }
        let snippet: Vec<String> = r.snippet.lines().map(learner).collect();
        writeln!(
            page,
            "<p><button type=\"button\" class=\"copy\" data-copy=\"{id}-snippet\">copy the reproducer</button><span class=\"copy-status\" aria-live=\"polite\"></span></p>"
        )?;
        writeln!(
            page,
            "<pre id=\"{id}-snippet\">{}</pre>",
            snippet.join("\n")
        )?;
        writeln!(page, "</details>")?;
    }
    write_explore(&id, s, page)?;
    // An h32 that agrees is said at the end; one that does not, above.
    if let Some(check) = s.h32.as_ref().filter(|c| c.first_mismatch.is_none()) {
        writeln!(
            page,
            "<p>your h32 agrees with the pinned hash on all {} strings checked</p>",
            check.checked
        )?;
    }
    if s.groups.len() > 1 {
        writeln!(
            page,
            "<table class=\"groups\"><caption class=\"dim\">by group</caption><thead><tr><th>group</th><th class=\"n\">score</th><th class=\"n\">passed</th><th>scoring</th></tr></thead><tbody>"
        )?;
        for g in &s.groups {
            writeln!(
                page,
                "<tr><td>{}</td><td class=\"n\">{} of {}</td><td class=\"n\">{} of {}</td><td>{}</td></tr>",
                learner(&g.name),
                earned(&g.points),
                possible(&g.points),
                g.passed,
                g.total,
                if g.scoring == Scoring::AllOrNothing {
                    "all or nothing"
                } else {
                    "per test"
                }
            )?;
        }
        writeln!(page, "</tbody></table>")?;
    }
    writeln!(page, "</section>")
}

fn write_nondeterminism(s: &SubmissionReport, page: &mut String) -> Result {
    if let Some(why) = &s.second_opinion_cut_short {
        writeln!(page, "<p>{}</p>", esc(why))?;
    }
    let Some(n) = &s.nondeterministic else {
        return Ok(());
    };
    writeln!(
        page,
        "<p><strong class=\"bad\">your answers change between runs</strong>: {} of the same tests answered differently in another run (a fresh process with another hash seed)</p>",
        n.tests.len()
    )?;
    if let Some(c) = &n.example {
        let answer = |a: &Option<serde_json::Value>| {
            a.as_ref()
                .map_or_else(|| "raised".to_owned(), |v| esc(&visible_json(v)))
        };
        writeln!(
            page,
            "<p>{}: operation {} <code>{}</code> answered <code>{}</code> in one run and <code>{}</code> in the other</p>",
            learner(&c.test),
            c.op_index,
            esc(&c.op.to_string()),
            answer(&c.first),
            answer(&c.second)
        )?;
    }
    writeln!(
        page,
        "<p><strong>hint</strong>: {}</p>",
        esc(&n.explanation)
    )
}

fn write_mistake(s: &SubmissionReport, page: &mut String) -> Result {
    let Some(m) = &s.mistake else {
        return Ok(());
    };
    let titled = |n: &NamedMistake| {
        let form = n.form.as_ref().map(|f| format!(" ({})", esc(f)));
        format!(
            "{}{} <span class=\"dim mono\">{}</span>",
            esc(&n.title),
            form.unwrap_or_default(),
            esc(&n.id)
        )
    };
    let failing = if m.compared == 1 {
        "the one failing test compared".to_owned()
    } else {
        format!("all {} failing tests compared", m.compared)
    };
    writeln!(page, "<div class=\"mistake\">")?;
    if m.exact && m.with.is_some() {
        let (together, fewer) = crate::text::made_together(m.named().len());
        writeln!(
            page,
            "<p><strong class=\"bad\">likely mistakes, {together}</strong>:</p><ol>"
        )?;
        for n in m.named() {
            writeln!(
                page,
                "<li data-mistake=\"{}\">{}<br>{}<br><strong>hint</strong>: {}</li>",
                esc(&n.id),
                titled(&n),
                esc(&n.explanation),
                esc(&n.hint)
            )?;
        }
        writeln!(
            page,
            "</ol><p class=\"dim\">(together they reproduce {failing}, and pass every test your code passed; {fewer})</p>"
        )?;
    } else if m.exact {
        writeln!(
            page,
            "<p data-mistake=\"{}\"><strong class=\"bad\">likely mistake</strong>: {}</p>",
            esc(&m.id),
            titled(&m.named()[0])
        )?;
        writeln!(page, "<p>{}</p>", esc(&m.explanation))?;
        writeln!(page, "<p><strong>hint</strong>: {}</p>", esc(&m.hint))?;
        let who = crate::text::reproduced_by(m);
        writeln!(page, "<p class=\"dim\">({who} {failing})</p>")?;
    } else {
        writeln!(
            page,
            "<p>no known mistake reproduces every failure; the closest, “{}”, reproduces {} of the {} failing tests, more than any other</p>",
            esc(&m.title),
            m.reproduced,
            m.compared
        )?;
    }
    writeln!(page, "</div>")
}

/// What exploring found, where the human report says it and in its
/// words ([`crate::text::explore_headline`]): how many generated cases
/// agreed, or the case that fails, its first wrong operation and the
/// code that shows it, to copy. The verdict and score above stay the
/// suite's.
fn write_explore(id: &str, s: &SubmissionReport, page: &mut String) -> Result {
    let Some(e) = &s.explore else {
        return Ok(());
    };
    let (label, rest) = crate::text::explore_headline(e);
    let Some(c) = &e.counterexample else {
        return writeln!(
            page,
            "<p class=\"explore\" data-cases=\"{}\" data-seed=\"{}\" data-counterexample=\"false\"><strong class=\"good\">{}</strong>{}</p>",
            e.cases,
            e.seed,
            esc(label),
            esc(&rest)
        );
    };
    writeln!(
        page,
        "<div class=\"explore\" data-cases=\"{}\" data-seed=\"{}\" data-counterexample=\"true\" data-case-index=\"{}\">",
        e.cases, e.seed, c.index
    )?;
    writeln!(
        page,
        "<p><strong class=\"bad\">{}</strong>{}:</p>",
        esc(label),
        esc(&rest)
    )?;
    writeln!(
        page,
        "<p>case: <code>{}</code></p>",
        esc(&visible_json(&c.case))
    )?;
    writeln!(
        page,
        "<p class=\"mono\">{}</p>",
        esc(&crate::text::explore_difference(c))
    )?;
    let snippet: Vec<String> = c.snippet.lines().map(learner).collect();
    writeln!(
        page,
        "<p><button type=\"button\" class=\"copy\" data-copy=\"{id}-explore-snippet\">copy the code that fails</button><span class=\"copy-status\" aria-live=\"polite\"></span></p>"
    )?;
    writeln!(
        page,
        "<pre id=\"{id}-explore-snippet\">{}</pre>",
        snippet.join("\n")
    )?;
    writeln!(page, "</div>")
}

/// A line per test; open for one submission, folded in a class, where the
/// overview has the counts.
fn write_tests(report: &Report, i: usize, s: &SubmissionReport, page: &mut String) -> Result {
    writeln!(
        page,
        "<details class=\"tests\"{}><summary>tests: {} of {} passed</summary>",
        if report.submissions.len() == 1 {
            " open"
        } else {
            ""
        },
        s.passed,
        s.total
    )?;
    writeln!(
        page,
        "<table><thead><tr><th>test</th><th>verdict</th><th class=\"n\">score</th><th class=\"n\">time</th><th>what went wrong</th></tr></thead><tbody>"
    )?;
    for t in &s.tests {
        writeln!(
            page,
            "<tr id=\"{}-test-{}-{}\" data-verdict=\"{}\"><td class=\"mono\">{}/{}{}</td><td>{}</td><td class=\"n\">{} of {}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            student_id(i),
            anchor(&t.group),
            anchor(&t.name),
            t.verdict,
            learner(&t.group),
            learner(&t.name),
            if t.visibility == Visibility::Hidden {
                " <span class=\"dim\">(hidden)</span>"
            } else {
                ""
            },
            verdict_badge(t.verdict),
            earned(&t.points),
            possible(&t.points),
            millis(t.time_ms),
            learner(crate::text::first_line(&t.message))
        )?;
    }
    writeln!(page, "</tbody></table></details>")
}

/// A name as part of an element's id: letters, digits, `-`, `_` and `.`
/// kept (a case's name is made of them), anything else as `_`.
fn anchor(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// What says the submission's hash is not h32: its own h32 where it parts
/// from the pinned one, or, without one, the routes against the pinned
/// scores.
fn write_wrong_hash(s: &SubmissionReport, page: &mut dyn Write) -> Result {
    if let Some(check) = &s.h32
        && let Some(m) = &check.first_mismatch
    {
        writeln!(
            page,
            "<p><strong class=\"bad\">your h32 differs from the pinned hash</strong>: h32(<code>{}</code>) is {}, yours gave <code>{}</code>{}</p>",
            esc(&visible_str(&m.text)),
            m.pinned,
            esc(&h32_value(&m.yours)),
            if m.same_value_other_type() {
                esc(crate::text::SAME_VALUE_OTHER_TYPE)
            } else {
                String::new()
            }
        )?;
        if let Some(step) = &check.step {
            writeln!(
                page,
                "<p>{} (the smallest text that shows it: h32(<code>{}</code>) is {}, yours {})</p>",
                esc(&crate::text::hash_steps(step)),
                esc(&visible_str(&step.text)),
                step.pinned,
                step.yours
            )?;
        }
    }
    if let Some(hint) = &s.hash_hint {
        writeln!(
            page,
            "<p><strong class=\"bad\">your hash</strong>: {}</p>",
            learner(&hint.message)
        )?;
    }
    Ok(())
}
