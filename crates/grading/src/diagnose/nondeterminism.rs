//! Answers that change between runs of the same files: what is compared
//! (docs/diagnosis.md).

use super::Behaviour;
use crate::challenge::Case;
use crate::judge::same;
use serde_json::Value;

/// Answers that changed between two runs of the same cases in fresh
/// processes with different hash seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct RerunDifferences {
    /// The tests whose answers changed, as `group/name`.
    pub tests: Vec<String>,
    /// The first change in a test the reader may see.
    pub example: Option<ChangedAnswer>,
    /// The submission's language, whose ways of changing between
    /// processes the report names.
    pub language: crate::lang::Language,
}

/// One operation that answered differently in two runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedAnswer {
    /// `group/name`.
    pub test: String,
    pub op_index: usize,
    pub op: Value,
    /// The answer in each run; `null` when that run raised there instead.
    pub first: Option<Value>,
    pub second: Option<Value>,
}

impl ChangedAnswer {
    pub fn new(case: &Case, at: usize, first: &Behaviour, second: &Behaviour) -> ChangedAnswer {
        let answer = |b: &Behaviour| b.answers().get(at).cloned();
        ChangedAnswer {
            test: case.id().to_string(),
            op_index: at,
            op: case.input[1].get(at).cloned().unwrap_or(Value::Null),
            first: answer(first),
            second: answer(second),
        }
    }
}

impl Behaviour {
    /// The answers given, up to a raise.
    fn answers(&self) -> &[Value] {
        match self {
            Behaviour::Output(output) | Behaviour::Raised { output, .. } => output,
        }
    }

    /// Where it raised, if it did.
    pub fn raised_at(&self) -> Option<usize> {
        match self {
            Behaviour::Output(_) => None,
            Behaviour::Raised { at, .. } => Some(*at),
        }
    }

    /// What this run did at the operations `kept` (ascending indices into
    /// the case), as a run of those operations alone would have to do it
    /// to agree: their answers, up to a raise at one of them. `None` when
    /// it raised before one of them: that one never ran here.
    pub fn restricted(&self, kept: &[usize]) -> Option<Behaviour> {
        let answers = self.answers();
        let mut output = Vec::with_capacity(kept.len());
        for (j, &i) in kept.iter().enumerate() {
            match self.raised_at() {
                Some(at) if at == i => return Some(Behaviour::Raised { output, at: j }),
                Some(at) if at < i => return None,
                _ => output.push(answers.get(i)?.clone()),
            }
        }
        Some(Behaviour::Output(output))
    }
}

/// The first operation at which two runs of one case behaved differently
/// (a different answer, or a raise in one only), if any.
pub fn first_difference(a: &Behaviour, b: &Behaviour) -> Option<usize> {
    let (x, y) = (a.answers(), b.answers());
    if let Some(i) = (0..x.len().min(y.len())).find(|&i| !same(&x[i], &y[i])) {
        return Some(i);
    }
    (x.len() != y.len() || a.raised_at() != b.raised_at()).then(|| x.len().min(y.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_run_restricted_to_some_operations_keeps_their_answers_and_a_raise_among_them() {
        let answers = vec![json!(null), json!("a"), json!("b"), json!(null)];
        let whole = Behaviour::Output(answers.clone());
        assert_eq!(
            whole.restricted(&[0, 2, 3]),
            Some(Behaviour::Output(vec![
                json!(null),
                json!("b"),
                json!(null)
            ]))
        );
        let raised = Behaviour::Raised {
            output: answers[..2].to_vec(),
            at: 2,
        };
        assert_eq!(
            raised.restricted(&[0, 2, 3]),
            Some(Behaviour::Raised {
                output: vec![json!(null)],
                at: 1
            })
        );
        assert_eq!(
            raised.restricted(&[0, 1]),
            Some(Behaviour::Output(answers[..2].to_vec()))
        );
        assert_eq!(raised.restricted(&[0, 3]), None, "op 3 never ran");
    }

    #[test]
    fn the_first_difference_is_an_answer_or_a_raise_in_one_run_only() {
        let out = |v: Vec<Value>| Behaviour::Output(v);
        let raised = |v: Vec<Value>, at| Behaviour::Raised { output: v, at };
        assert_eq!(
            first_difference(
                &out(vec![json!("a"), json!("b")]),
                &out(vec![json!("a"), json!("b")])
            ),
            None
        );
        assert_eq!(
            first_difference(
                &out(vec![json!("a"), json!("b")]),
                &out(vec![json!("a"), json!("c")])
            ),
            Some(1)
        );
        assert_eq!(
            first_difference(
                &out(vec![json!("a"), json!("b")]),
                &raised(vec![json!("a")], 1)
            ),
            Some(1)
        );
        assert_eq!(
            first_difference(&raised(vec![json!("a")], 1), &raised(vec![json!("a")], 1)),
            None
        );
    }
}
