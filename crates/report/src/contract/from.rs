//! Grading's records into the contract, field by field. Every source is
//! destructured whole and every enum matched without a wildcard, so that
//! a field or variant added inside grading does not build until the
//! report decides what, if anything, the JSON says of it.

use super::*;
use grading::{challenge, diagnose, explain, protocol};
use reference::explanation;

impl From<grading::grade::Audience> for Audience {
    fn from(audience: grading::grade::Audience) -> Audience {
        match audience {
            grading::grade::Audience::Instructor => Audience::Instructor,
            grading::grade::Audience::Learner => Audience::Learner,
        }
    }
}

impl From<&challenge::Source> for Source {
    fn from(source: &challenge::Source) -> Source {
        match source {
            challenge::Source::Embedded {
                version,
                digest,
                path,
            } => Source::Embedded {
                version: version.clone(),
                digest: digest.clone(),
                path: path.clone(),
            },
            challenge::Source::Folder { path, given_by } => Source::Folder {
                path: path.clone(),
                given_by: (*given_by).into(),
            },
        }
    }
}

/// The way back, for the words grading gives a source ([`Source::label`]).
impl From<&Source> for challenge::Source {
    fn from(source: &Source) -> challenge::Source {
        match source {
            Source::Embedded {
                version,
                digest,
                path,
            } => challenge::Source::Embedded {
                version: version.clone(),
                digest: digest.clone(),
                path: path.clone(),
            },
            Source::Folder { path, given_by } => challenge::Source::Folder {
                path: path.clone(),
                given_by: match given_by {
                    GivenBy::Flag => challenge::GivenBy::Flag,
                    GivenBy::Environment => challenge::GivenBy::Environment,
                    GivenBy::WorkingFolder => challenge::GivenBy::WorkingFolder,
                },
            },
        }
    }
}

impl From<challenge::GivenBy> for GivenBy {
    fn from(given_by: challenge::GivenBy) -> GivenBy {
        match given_by {
            challenge::GivenBy::Flag => GivenBy::Flag,
            challenge::GivenBy::Environment => GivenBy::Environment,
            challenge::GivenBy::WorkingFolder => GivenBy::WorkingFolder,
        }
    }
}

impl From<&sandbox::Layers> for Layers {
    fn from(layers: &sandbox::Layers) -> Layers {
        let sandbox::Layers {
            enabled,
            pid_namespace,
            network_namespace,
            mount_namespace,
            ipc_namespace,
            user_namespace,
            landlock,
            seccomp,
            runs_as,
            accounting,
            missing,
        } = layers;
        Layers {
            enabled: *enabled,
            pid_namespace: *pid_namespace,
            network_namespace: *network_namespace,
            mount_namespace: *mount_namespace,
            ipc_namespace: *ipc_namespace,
            user_namespace: *user_namespace,
            landlock: landlock.clone(),
            seccomp: seccomp.clone(),
            runs_as: *runs_as,
            accounting: accounting.clone(),
            missing: missing.clone(),
        }
    }
}

/// The way back, for the words the sandbox gives its layers
/// ([`Layers::describe`]).
impl From<&Layers> for sandbox::Layers {
    fn from(layers: &Layers) -> sandbox::Layers {
        let Layers {
            enabled,
            pid_namespace,
            network_namespace,
            mount_namespace,
            ipc_namespace,
            user_namespace,
            landlock,
            seccomp,
            runs_as,
            accounting,
            missing,
        } = layers;
        sandbox::Layers {
            enabled: *enabled,
            pid_namespace: *pid_namespace,
            network_namespace: *network_namespace,
            mount_namespace: *mount_namespace,
            ipc_namespace: *ipc_namespace,
            user_namespace: *user_namespace,
            landlock: landlock.clone(),
            seccomp: seccomp.clone(),
            runs_as: *runs_as,
            accounting: accounting.clone(),
            missing: missing.clone(),
        }
    }
}

impl From<grading::lang::Language> for Language {
    fn from(language: grading::lang::Language) -> Language {
        use grading::lang::Language as L;
        match language {
            L::Python => Language::Python,
            L::JavaScript => Language::JavaScript,
            L::TypeScript => Language::TypeScript,
            L::Rust => Language::Rust,
            L::Executable => Language::Executable,
            L::Unknown => Language::Unknown,
        }
    }
}

impl From<&sandbox::Build> for Build {
    fn from(build: &sandbox::Build) -> Build {
        let sandbox::Build { cached, time_ms } = build;
        Build {
            cached: *cached,
            time_ms: *time_ms,
        }
    }
}

impl From<grading::judge::Verdict> for Verdict {
    fn from(verdict: grading::judge::Verdict) -> Verdict {
        use grading::judge::Verdict as V;
        match verdict {
            V::Accepted => Verdict::Accepted,
            V::WrongAnswer => Verdict::WrongAnswer,
            V::RuntimeError => Verdict::RuntimeError,
            V::TimeLimit => Verdict::TimeLimit,
            V::MemoryLimit => Verdict::MemoryLimit,
            V::OutputLimit => Verdict::OutputLimit,
            V::ProtocolError => Verdict::ProtocolError,
            V::CompileError => Verdict::CompileError,
            V::GraderFault => Verdict::GraderFault,
        }
    }
}

impl From<challenge::Scoring> for Scoring {
    fn from(scoring: challenge::Scoring) -> Scoring {
        match scoring {
            challenge::Scoring::PerTest => Scoring::PerTest,
            challenge::Scoring::AllOrNothing => Scoring::AllOrNothing,
        }
    }
}

impl From<challenge::Visibility> for Visibility {
    fn from(visibility: challenge::Visibility) -> Visibility {
        match visibility {
            challenge::Visibility::Visible => Visibility::Visible,
            challenge::Visibility::Hidden => Visibility::Hidden,
        }
    }
}

impl From<challenge::ExpectedFrom> for ExpectedFrom {
    fn from(expected_from: challenge::ExpectedFrom) -> ExpectedFrom {
        match expected_from {
            challenge::ExpectedFrom::File => ExpectedFrom::File,
            challenge::ExpectedFrom::Reference => ExpectedFrom::Reference,
        }
    }
}

impl From<&grading::judge::Divergence> for Divergence {
    fn from(divergence: &grading::judge::Divergence) -> Divergence {
        let grading::judge::Divergence {
            op_index,
            op,
            expected,
            actual,
            missing,
            differing_ops,
            replayed_ops,
        } = divergence;
        Divergence {
            op_index: *op_index,
            op: op.clone(),
            expected: expected.clone(),
            actual: actual.clone(),
            missing: *missing,
            differing_ops: *differing_ops,
            replayed_ops: *replayed_ops,
        }
    }
}

impl From<&protocol::LearnerError> for LearnerError {
    fn from(error: &protocol::LearnerError) -> LearnerError {
        let protocol::LearnerError {
            kind,
            // The tool's text and the grader's reason, worded together.
            message: _,
            traceback: _,
            unbuilt: _,
            line,
            op_index,
            errno,
        } = error;
        let (message, traceback) = crate::unbuilt::worded(error);
        LearnerError {
            kind: kind.into(),
            message,
            traceback,
            line: *line,
            op_index: op_index.map(At::from),
            errno: *errno,
        }
    }
}

impl From<&protocol::ErrorKind> for ErrorKind {
    fn from(kind: &protocol::ErrorKind) -> ErrorKind {
        match kind {
            protocol::ErrorKind::CompileError => ErrorKind::CompileError,
            protocol::ErrorKind::ExecError => ErrorKind::ExecError,
            protocol::ErrorKind::MemoryError => ErrorKind::MemoryError,
            protocol::ErrorKind::MissingMethod => ErrorKind::MissingMethod,
            protocol::ErrorKind::SyntaxError => ErrorKind::SyntaxError,
            protocol::ErrorKind::Other(name) => ErrorKind::Other(name.clone()),
        }
    }
}

impl From<protocol::At> for At {
    fn from(at: protocol::At) -> At {
        match at {
            protocol::At::Constructor => At::Constructor,
            protocol::At::Op(i) => At::Op(i),
        }
    }
}

impl From<&grading::run::Captured> for Captured {
    fn from(captured: &grading::run::Captured) -> Captured {
        let grading::run::Captured {
            stdout,
            stderr,
            dropped_bytes,
        } = captured;
        Captured {
            stdout: stdout.clone(),
            stderr: stderr.clone(),
            dropped_bytes: *dropped_bytes,
        }
    }
}

impl From<&explain::HashCheck> for HashCheck {
    fn from(check: &explain::HashCheck) -> HashCheck {
        let explain::HashCheck {
            checked,
            first_mismatch,
            step,
            own: _,
        } = check;
        HashCheck {
            checked: *checked,
            first_mismatch: first_mismatch.as_ref().map(HashMismatch::from),
            step: step.as_ref().map(HashStep::from),
        }
    }
}

impl From<&explain::HashStep> for HashStep {
    fn from(step: &explain::HashStep) -> HashStep {
        let explain::HashStep {
            mistake,
            form,
            step,
            also,
            text,
            pinned,
            yours,
        } = step;
        HashStep {
            mistake: mistake.clone(),
            form: form.clone(),
            step: step.clone(),
            also: also
                .iter()
                .map(|w| WrongStep {
                    mistake: w.mistake.clone(),
                    form: w.form.clone(),
                    step: w.step.clone(),
                })
                .collect(),
            text: text.clone(),
            pinned: *pinned,
            yours: *yours,
        }
    }
}

impl From<&explain::HashMismatch> for HashMismatch {
    fn from(mismatch: &explain::HashMismatch) -> HashMismatch {
        let explain::HashMismatch {
            text,
            pinned,
            yours,
        } = mismatch;
        HashMismatch {
            text: text.clone(),
            pinned: *pinned,
            yours: yours.clone(),
        }
    }
}

impl HashHint {
    /// `hint` in words, for a submission in `language`: how to give the
    /// grader its own h32 is told in its language's terms.
    pub(crate) fn of(hint: &diagnose::HashHint, language: grading::lang::Language) -> HashHint {
        use grading::lang::Language;
        let diagnose::HashHint { against, asked } = hint;
        let expose = match language {
            Language::Python => "define `h32(text)` beside your Router (the starter does)",
            Language::JavaScript | Language::TypeScript => {
                "export `h32(text)` beside your Router (the starter does)"
            }
            Language::Rust => {
                "make `pub fn h32(text: &str) -> u32` beside your Router (the starter does)"
            }
            Language::Executable | Language::Unknown => {
                "say `\"h32\": true` in your hello and answer the grader's h32 requests (docs/protocol.md)"
            }
        };
        HashHint {
            against: *against,
            asked: *asked,
            message: format!(
                "{against} of the {asked} routes between two nodes chose the node with the lower pinned score; with two nodes only the hash decides, so your scores do not follow h32 as pinned: {expose}, and the grader will show the first text where your hash parts from it"
            ),
        }
    }
}

impl From<&diagnose::MistakeReport> for MistakeReport {
    fn from(mistake: &diagnose::MistakeReport) -> MistakeReport {
        let diagnose::MistakeReport {
            id,
            title,
            explanation,
            hint,
            form,
            with,
            candidates,
            exact,
            reproduced,
            compared,
        } = mistake;
        MistakeReport {
            id: id.clone(),
            title: title.clone(),
            explanation: explanation.clone(),
            hint: hint.clone(),
            form: form.clone(),
            with: with.first().map(NamedMistake::from),
            third: with.get(1).map(NamedMistake::from),
            candidates: candidates.iter().map(NamedMistake::from).collect(),
            exact: *exact,
            reproduced: *reproduced,
            compared: *compared,
        }
    }
}

impl From<&diagnose::NamedMistake> for NamedMistake {
    fn from(mistake: &diagnose::NamedMistake) -> NamedMistake {
        let diagnose::NamedMistake {
            id,
            title,
            explanation,
            hint,
            form,
        } = mistake;
        NamedMistake {
            id: id.clone(),
            title: title.clone(),
            explanation: explanation.clone(),
            hint: hint.clone(),
            form: form.clone(),
        }
    }
}

impl From<&diagnose::Nondeterminism> for Nondeterminism {
    fn from(nondeterminism: &diagnose::Nondeterminism) -> Nondeterminism {
        let diagnose::Nondeterminism {
            tests,
            example,
            language,
        } = nondeterminism;
        Nondeterminism {
            tests: tests.clone(),
            example: example.as_ref().map(Change::from),
            explanation: nondeterminism_causes(*language).to_owned(),
        }
    }
}

impl From<&diagnose::Change> for Change {
    fn from(change: &diagnose::Change) -> Change {
        let diagnose::Change {
            test,
            op_index,
            op,
            first,
            second,
        } = change;
        Change {
            test: test.clone(),
            op_index: *op_index,
            op: op.clone(),
            first: first.clone(),
            second: second.clone(),
        }
    }
}

impl From<&diagnose::PropertyHint> for PropertyHint {
    fn from(hint: &diagnose::PropertyHint) -> PropertyHint {
        let diagnose::PropertyHint {
            property,
            case,
            first_op,
            second_op,
            evidence,
        } = hint;
        PropertyHint {
            property: property.id().to_owned(),
            case: case.clone(),
            first_op: *first_op,
            second_op: *second_op,
            message: property_message(*property, evidence),
        }
    }
}

impl From<&grading::explore::Exploration> for ExploreReport {
    fn from(explored: &grading::explore::Exploration) -> ExploreReport {
        let grading::explore::Exploration {
            seed,
            cases,
            budget,
            counterexample,
        } = explored;
        ExploreReport {
            cases: *cases,
            seed: *seed,
            budget_ms: budget.as_millis() as u64,
            counterexample: counterexample.as_ref().map(|c| Counterexample {
                index: c.index,
                case: c.case.clone(),
                expected: c.expected.clone(),
                actual: c.actual.clone(),
                raised: c.raised.as_ref().map(Into::into),
                snippet: c.snippet.clone(),
            }),
        }
    }
}

impl From<&grading::shrink::Reproducer> for Reproducer {
    fn from(reproducer: &grading::shrink::Reproducer) -> Reproducer {
        let grading::shrink::Reproducer {
            case,
            expected,
            actual,
            snippet,
            cut_short,
        } = reproducer;
        Reproducer {
            case: case.clone(),
            expected: expected.clone(),
            actual: actual.clone(),
            snippet: snippet.clone(),
            cut_short: cut_short.map(|budget| {
                format!(
                    "shrinking stopped after its {:.1} s budget for extra runs: this is the smallest failing case found so far",
                    budget.as_secs_f64()
                )
            }),
        }
    }
}

impl From<&explain::ExplanationReport> for ExplanationReport {
    fn from(explanation: &explain::ExplanationReport) -> ExplanationReport {
        match explanation {
            explain::ExplanationReport::Scores(report) => ExplanationReport::Scores(report.into()),
            explain::ExplanationReport::Top(report) => ExplanationReport::Top(report.into()),
            explain::ExplanationReport::Ring(report) => ExplanationReport::Ring(report.into()),
            explain::ExplanationReport::Points(view) => ExplanationReport::Points(view.into()),
        }
    }
}

impl From<&explain::ScoreReport> for ScoreReport {
    fn from(report: &explain::ScoreReport) -> ScoreReport {
        let explain::ScoreReport {
            key,
            formula,
            winner,
            rule,
            rows,
            total_nodes,
            answer,
        } = report;
        ScoreReport {
            key: key.clone(),
            formula: formula.clone(),
            winner: winner.clone(),
            rule: (*rule).into(),
            rows: rows.iter().map(RankedRow::from).collect(),
            total_nodes: *total_nodes,
            answer: answer.as_ref().map(RankedRow::from),
        }
    }
}

impl From<&explain::RankedRow> for RankedRow {
    fn from(row: &explain::RankedRow) -> RankedRow {
        let explain::RankedRow {
            rank,
            node,
            hashed,
            h32,
            weighted,
            yours,
        } = row;
        RankedRow {
            rank: *rank,
            node: node.clone(),
            hashed: hashed.clone(),
            h32: *h32,
            weighted: weighted.as_ref().map(WeightedScore::from),
            yours: yours.clone(),
        }
    }
}

impl From<&explain::TopReport> for TopReport {
    fn from(report: &explain::TopReport) -> TopReport {
        let explain::TopReport {
            key,
            formula,
            n,
            total_nodes,
            first_difference,
            lines,
        } = report;
        TopReport {
            key: key.clone(),
            formula: formula.clone(),
            n: *n,
            total_nodes: *total_nodes,
            first_difference: *first_difference,
            lines: lines.iter().map(TopLine::from).collect(),
        }
    }
}

impl From<&explain::TopLine> for TopLine {
    fn from(line: &explain::TopLine) -> TopLine {
        let explain::TopLine {
            position,
            expected,
            yours,
            yours_row,
        } = line;
        TopLine {
            position: *position,
            expected: expected.as_ref().map(RankedRow::from),
            yours: yours.clone(),
            yours_row: yours_row.as_ref().map(RankedRow::from),
        }
    }
}

impl From<&explain::RingReport> for RingReport {
    fn from(report: &explain::RingReport) -> RingReport {
        let explain::RingReport {
            key,
            position,
            position_yours,
            points,
            wrapped,
            before,
            after,
        } = report;
        RingReport {
            key: key.clone(),
            position: *position,
            position_yours: position_yours.clone(),
            points: *points,
            wrapped: *wrapped,
            before: before.iter().map(ShownPoint::from).collect(),
            after: after.iter().map(ShownPoint::from).collect(),
        }
    }
}

impl From<&explain::ShownPoint> for ShownPoint {
    fn from(point: &explain::ShownPoint) -> ShownPoint {
        let explain::ShownPoint {
            index,
            node,
            hashed,
            position,
            yours,
        } = point;
        ShownPoint {
            index: *index,
            node: node.clone(),
            hashed: hashed.clone(),
            position: *position,
            yours: yours.clone(),
        }
    }
}

impl From<&explanation::PointsView> for PointsView {
    fn from(view: &explanation::PointsView) -> PointsView {
        let explanation::PointsView { k, nodes, points } = view;
        PointsView {
            k: *k,
            nodes: nodes.clone(),
            points: *points,
        }
    }
}

impl From<&explanation::WeightedScore> for WeightedScore {
    fn from(score: &explanation::WeightedScore) -> WeightedScore {
        let explanation::WeightedScore {
            weight,
            u,
            neg_ln_u,
            score,
        } = score;
        WeightedScore {
            weight: *weight,
            u: *u,
            neg_ln_u: *neg_ln_u,
            score: *score,
        }
    }
}

impl From<explanation::WinRule> for WinRule {
    fn from(rule: explanation::WinRule) -> WinRule {
        match rule {
            explanation::WinRule::NoNodes => WinRule::NoNodes,
            explanation::WinRule::HighestScore => WinRule::HighestScore,
            explanation::WinRule::TieSmallerName => WinRule::TieSmallerName,
        }
    }
}

/// A property hint in words: the two answers, what changed between them,
/// and the rule they break.
fn property_message(property: diagnose::Property, evidence: &diagnose::Evidence) -> String {
    use diagnose::{Evidence, Property};
    match evidence {
        Evidence::StillThere {
            key,
            ghost,
            before,
            after,
            changes,
            ranking: true,
        } => {
            let (ghost, before, after) = (json(ghost), json(before), json(after));
            format!(
                "top({}, ...) still holds {ghost} after {}: it was {before} and became {after}, and a node that left is in no ranking",
                quoted(key),
                changed(changes)
            )
        }
        Evidence::StillThere {
            key,
            ghost,
            changes,
            ranking: false,
            ..
        } => format!(
            "key {} still goes to {} after {}: a node that left gets no keys",
            quoted(key),
            json(ghost),
            changed(changes)
        ),
        Evidence::Reranked {
            key,
            before,
            after,
            changes,
            swapped: (x, y),
            tie,
        } => {
            let (before, after, x, y) = (json(before), json(after), json(x), json(y));
            let was = format!(
                "top({}, ...) was {before} and became {after} when only {}",
                quoted(key),
                changed(changes)
            );
            match (tie, property) {
                (Some(tie), _) => format!(
                    "{was}; {x} and {y} tie for the key ({}) and swapped places: tied nodes keep one order, the smaller name first, whatever else joins or leaves",
                    tied(tie)
                ),
                (None, Property::RemoveKeepsTheRanking) => format!(
                    "{was}; a removal takes the removed nodes out of a ranking and the others keep their order"
                ),
                (None, _) => format!(
                    "{was}; an addition puts the new nodes into a ranking and the others keep their order"
                ),
            }
        }
        Evidence::Moved {
            key,
            before,
            after,
            changes,
            tie,
        } => {
            // A null answer is no node: said so, never named as one.
            let key = quoted(key);
            let (nothing_before, nothing_after) = (before.is_null(), after.is_null());
            let (before, after) = (json(before), json(after));
            let moved = match (nothing_before, nothing_after) {
                (true, false) => format!("key {key} had no node, then {after}"),
                (false, true) => format!("key {key} was on {before}, then had no node"),
                _ => format!("key {key} moved from {before} to {after}"),
            };
            let changes = changed(changes);
            match (tie, property) {
                (Some(tie), _) => format!(
                    "{moved} when only {changes}; {before} and {after} tie for it ({}), so the tie's winner changed: a tie goes to the same node, the smaller name, whatever else joins or leaves",
                    tied(tie)
                ),
                (None, Property::RemoveMovesOnlyItsKeys) if nothing_before => format!(
                    "{moved} when only {changes}; a removal may only move the keys of the removed node, and gives none to a key that had no node"
                ),
                (None, Property::RemoveMovesOnlyItsKeys) => format!(
                    "{moved} when only {changes}; {before} stayed, and a removal may only move the keys of the removed node"
                ),
                (None, _) => format!(
                    "{moved}, a node that was there before, when only {changes}; an addition may only move keys to the new node"
                ),
            }
        }
        Evidence::OrderDependent {
            op,
            given,
            reversed,
        } => format!(
            "{} answers {} with the initial nodes in the given order and {} with them reversed; the answer must not depend on the order nodes were added",
            json(op),
            json(given),
            json(reversed)
        ),
    }
}

/// What joined or left: `"c" left (operation 1 ["remove","c"])`.
fn changed(changes: &diagnose::Changes) -> String {
    let diagnose::Changes {
        nodes,
        left,
        shown,
        more,
    } = changes;
    let nodes: Vec<String> = nodes.iter().map(json).collect();
    let verb = if *left { "left" } else { "joined" };
    let mut operations: Vec<String> = shown
        .iter()
        .map(|(at, op)| format!("operation {at} {}", json(op)))
        .collect();
    if *more > 0 {
        operations.push(format!("{more} more"));
    }
    format!("{} {verb} ({})", nodes.join(", "), operations.join(", "))
}

/// How two nodes tie, in the pinned values.
fn tied(tie: &diagnose::Tie) -> String {
    match tie {
        diagnose::Tie::Weighted { score } => format!("one weighted score, {score}"),
        diagnose::Tie::Hash { a, b, h32 } => {
            format!("h32({}) = h32({}) = {h32}", quoted(a), quoted(b))
        }
        diagnose::Tie::Ring { a, b, position } => {
            format!(
                "points {} and {} both at position {position}",
                quoted(a),
                quoted(b)
            )
        }
    }
}

/// `text` as a JSON string, in the notation of every answer in a report
/// (what cannot be seen escaped as JSON escapes it).
fn quoted(text: &str) -> String {
    crate::notation::visible_str(text)
}

/// `value` as JSON, in the notation of every answer in a report.
fn json(value: &Value) -> String {
    crate::notation::visible_json(value)
}

/// What makes answers change between processes, in `language`.
fn nondeterminism_causes(language: grading::lang::Language) -> &'static str {
    use grading::lang::Language;
    match language {
        Language::Python => {
            "Python's hash() of a str is salted per process, and a set's order (or a dict's \
             built from one) follows it, not the insertion order: break ties by name, and do \
             not let a set's order decide an answer"
        }
        Language::Rust => {
            "a HashMap's or HashSet's iteration order is chosen at random in every process: \
             break ties by name, or keep the nodes in a Vec or a BTreeSet"
        }
        Language::JavaScript | Language::TypeScript => {
            "Math.random() or the clock changes between runs: an answer must follow from the \
             nodes and the key alone"
        }
        _ => {
            "something the program reads changes between processes (a hash function salted \
             per process, a hash set's order, a random number or the clock): an answer must \
             follow from the nodes and the key alone"
        }
    }
}

#[cfg(test)]
mod tests;
