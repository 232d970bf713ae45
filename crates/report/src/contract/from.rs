//! Grading's records into the contract, field by field. Every source is
//! destructured whole and every enum matched without a wildcard, so that
//! a field or variant added inside grading does not build until the
//! report decides what, if anything, the JSON says of it.

use super::*;

use reference::explanation;

impl From<&sandbox::LayersInForce> for Layers {
    fn from(layers: &sandbox::LayersInForce) -> Layers {
        let sandbox::LayersInForce {
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

impl From<&sandbox::BuildCost> for Build {
    fn from(build: &sandbox::BuildCost) -> Build {
        let sandbox::BuildCost { cached, time_ms } = build;
        Build {
            cached: *cached,
            time_ms: *time_ms,
        }
    }
}

impl From<&grading::DivergentOp> for Divergence {
    fn from(divergence: &grading::DivergentOp) -> Divergence {
        let grading::DivergentOp {
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

impl From<&grading::LearnerException> for LearnerError {
    fn from(error: &grading::LearnerException) -> LearnerError {
        let grading::LearnerException {
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
            kind: kind.clone(),
            message,
            traceback,
            line: *line,
            op_index: *op_index,
            errno: *errno,
        }
    }
}

impl From<&grading::CapturedOutput> for Captured {
    fn from(captured: &grading::CapturedOutput) -> Captured {
        let grading::CapturedOutput {
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

impl From<&grading::H32Check> for HashCheck {
    fn from(check: &grading::H32Check) -> HashCheck {
        let grading::H32Check {
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

impl From<&grading::H32WrongSteps> for HashStep {
    fn from(step: &grading::H32WrongSteps) -> HashStep {
        let grading::H32WrongSteps {
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
            also: also.iter().map(WrongStep::from).collect(),
            text: text.clone(),
            pinned: *pinned,
            yours: *yours,
        }
    }
}

impl From<&grading::H32OtherStep> for WrongStep {
    fn from(step: &grading::H32OtherStep) -> WrongStep {
        let grading::H32OtherStep {
            mistake,
            form,
            step,
        } = step;
        WrongStep {
            mistake: mistake.clone(),
            form: form.clone(),
            step: step.clone(),
        }
    }
}

impl From<&grading::H32Mismatch> for HashMismatch {
    fn from(mismatch: &grading::H32Mismatch) -> HashMismatch {
        let grading::H32Mismatch {
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
    pub(crate) fn of(hint: &grading::H32Finding, language: vocabulary::Language) -> HashHint {
        use vocabulary::Language;
        let grading::H32Finding { against, asked } = hint;
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

impl From<&grading::MistakeFinding> for MistakeReport {
    fn from(mistake: &grading::MistakeFinding) -> MistakeReport {
        let grading::MistakeFinding {
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

impl From<&grading::MistakeMatch> for NamedMistake {
    fn from(mistake: &grading::MistakeMatch) -> NamedMistake {
        let grading::MistakeMatch {
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

impl From<&grading::RerunDifferences> for Nondeterminism {
    fn from(nondeterminism: &grading::RerunDifferences) -> Nondeterminism {
        let grading::RerunDifferences {
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

impl From<&grading::ChangedAnswer> for Change {
    fn from(change: &grading::ChangedAnswer) -> Change {
        let grading::ChangedAnswer {
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

impl From<&grading::PropertyFinding> for PropertyHint {
    fn from(hint: &grading::PropertyFinding) -> PropertyHint {
        let grading::PropertyFinding {
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

impl From<&grading::ExploreOutcome> for ExploreReport {
    fn from(explored: &grading::ExploreOutcome) -> ExploreReport {
        let grading::ExploreOutcome {
            seed,
            cases,
            budget,
            counterexample,
        } = explored;
        ExploreReport {
            cases: *cases,
            seed: *seed,
            budget_ms: budget.as_millis() as u64,
            counterexample: counterexample.as_ref().map(Counterexample::from),
        }
    }
}

impl From<&grading::FailingCase> for Counterexample {
    fn from(found: &grading::FailingCase) -> Counterexample {
        let grading::FailingCase {
            index,
            case,
            expected,
            actual,
            raised,
            snippet,
        } = found;
        Counterexample {
            index: *index,
            case: case.clone(),
            expected: expected.clone(),
            actual: actual.clone(),
            raised: raised.as_ref().map(Into::into),
            snippet: snippet.clone(),
        }
    }
}

impl From<&grading::ShrunkCase> for Reproducer {
    fn from(reproducer: &grading::ShrunkCase) -> Reproducer {
        let grading::ShrunkCase {
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

impl From<&grading::WhyExpected> for ExplanationReport {
    fn from(explanation: &grading::WhyExpected) -> ExplanationReport {
        match explanation {
            grading::WhyExpected::Scores(report) => ExplanationReport::Scores(report.into()),
            grading::WhyExpected::Top(report) => ExplanationReport::Top(report.into()),
            grading::WhyExpected::Ring(report) => ExplanationReport::Ring(report.into()),
            grading::WhyExpected::Points(view) => ExplanationReport::Points(view.into()),
        }
    }
}

impl From<&grading::RouteScores> for ScoreReport {
    fn from(report: &grading::RouteScores) -> ScoreReport {
        let grading::RouteScores {
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

impl From<&grading::RankedNode> for RankedRow {
    fn from(row: &grading::RankedNode) -> RankedRow {
        let grading::RankedNode {
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

impl From<&grading::TopRanking> for TopReport {
    fn from(report: &grading::TopRanking) -> TopReport {
        let grading::TopRanking {
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

impl From<&grading::RankingPosition> for TopLine {
    fn from(line: &grading::RankingPosition) -> TopLine {
        let grading::RankingPosition {
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

impl From<&grading::RingLookup> for RingReport {
    fn from(report: &grading::RingLookup) -> RingReport {
        let grading::RingLookup {
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

impl From<&grading::RingNeighbour> for ShownPoint {
    fn from(point: &grading::RingNeighbour) -> ShownPoint {
        let grading::RingNeighbour {
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

impl From<&explanation::RingSize> for PointsView {
    fn from(view: &explanation::RingSize) -> PointsView {
        let explanation::RingSize { k, nodes, points } = view;
        PointsView {
            k: *k,
            nodes: nodes.clone(),
            points: *points,
        }
    }
}

impl From<&explanation::WeightedTerms> for WeightedScore {
    fn from(score: &explanation::WeightedTerms) -> WeightedScore {
        let explanation::WeightedTerms {
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

impl From<explanation::DecidedBy> for WinRule {
    fn from(rule: explanation::DecidedBy) -> WinRule {
        match rule {
            explanation::DecidedBy::NoNodes => WinRule::NoNodes,
            explanation::DecidedBy::HighestScore => WinRule::HighestScore,
            explanation::DecidedBy::TieSmallerName => WinRule::TieSmallerName,
        }
    }
}

/// A property hint in words: the two answers, what changed between them,
/// and the rule they break.
fn property_message(property: grading::Property, evidence: &grading::PropertyEvidence) -> String {
    use grading::{Property, PropertyEvidence};
    match evidence {
        PropertyEvidence::StillThere {
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
        PropertyEvidence::StillThere {
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
        PropertyEvidence::Reranked {
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
        PropertyEvidence::Moved {
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
        PropertyEvidence::OrderDependent {
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
fn changed(changes: &grading::NodeChanges) -> String {
    let grading::NodeChanges {
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
fn tied(tie: &grading::Tie) -> String {
    match tie {
        grading::Tie::Weighted { score } => format!("one weighted score, {score}"),
        grading::Tie::Hash { a, b, h32 } => {
            format!("h32({}) = h32({}) = {h32}", quoted(a), quoted(b))
        }
        grading::Tie::Ring { a, b, position } => {
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
fn nondeterminism_causes(language: vocabulary::Language) -> &'static str {
    use vocabulary::Language;
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
