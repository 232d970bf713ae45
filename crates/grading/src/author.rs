//! Authoring: add a case from a challenge page, bless expected files from
//! the reference, and validate a suite (gen's cases are generate.rs's).

use crate::challenge::{
    Case, Challenge, ExpectedFrom, Operations, Suite, locate, parse_input, rules,
};
use crate::error::{Error, Problem};
use crate::fsutil::write_atomically;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub mod limits;

/// The canonical text of a case or expected file: compact JSON and a
/// newline, as a challenge page shows it.
pub fn canonical(value: &Value) -> String {
    format!("{value}\n")
}

/// Where a case's expected file disagrees with the reference's `output`,
/// if it does: the first differing result, pointed at in the file.
fn disagreement(case: &Case, output: &[Value]) -> Option<Problem> {
    if case.expected_from != ExpectedFrom::File {
        return None;
    }
    let i = (0..output.len()).find(|&i| !crate::judge::same(&output[i], &case.expected[i]))?;
    let path = case.expected_path();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    Some(Problem {
        position: locate::position_of(&text, &[i]),
        path,
        message: format!(
            "result {i} is {}, the reference answers {} to {}; fix the case, or run `grader bless` if the reference is right",
            case.expected[i],
            output[i],
            case.op_json(i)
        ),
    })
}

/// Every expected file of `suite` checked against the reference before a
/// grading run uses it: an expected file is the author's word on what is
/// right, and a wrong one would fail correct students (and explain it
/// with the reference's answer beside the file's). Cheap next to running
/// any submission.
pub fn check_expected_files(challenge: &Challenge, suite: &Suite) -> Result<(), Error> {
    let problems: Vec<Problem> = suite
        .groups
        .iter()
        .flat_map(|g| &g.cases)
        .filter(|case| case.expected_from == ExpectedFrom::File)
        .filter_map(|case| disagreement(case, &challenge.model.run(&case.args, &case.ops)))
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::invalid(problems))
    }
}

/// A finding of `validate`.
#[derive(Debug, Clone)]
pub struct SuiteFinding {
    pub error: bool,
    pub problem: Problem,
}

/// Everything a grading run depends on, checked: the challenge and its
/// cases load (the loader's own checks), every expected file agrees with
/// the reference, case names are unique across groups, initial node lists
/// have no duplicates (a warning), no answer hangs on a floating-point gap
/// too small to trust across languages, and the reference runs each case
/// well within its time limit.
pub fn validate_suite(challenge: &Challenge, suite: &Suite) -> Vec<SuiteFinding> {
    let mut findings = Vec::new();
    let mut names: Vec<(&str, &Case)> = Vec::new();
    for group in &suite.groups {
        // Names are held to the rules when the suite is loaded.
        for case in &group.cases {
            if let Some((_, other)) = names.iter().find(|(n, _)| *n == case.name) {
                findings.push(SuiteFinding {
                    error: true,
                    problem: Problem {
                        path: case.path.clone(),
                        position: None,
                        message: format!(
                            "the case name `{}` is also used in group `{}`; reports would not tell them apart: rename one",
                            case.name, other.group
                        ),
                    },
                });
            }
            names.push((&case.name, case));
            // One replay: the answers, the fragile decisions, the time.
            let checked = challenge.model.run_checked(&case.args, &case.ops);
            let (output, took) = (&checked.output, checked.took);
            if took > group.time_limit {
                findings.push(SuiteFinding {
                    error: true,
                    problem: Problem {
                        path: case.path.clone(),
                        position: None,
                        message: format!(
                            "the reference alone takes {} ms, past the group's {} ms limit: make the case smaller or raise time_ms",
                            took.as_millis(),
                            group.time_limit.as_millis()
                        ),
                    },
                });
            } else if took * 10 > group.time_limit {
                findings.push(SuiteFinding {
                    error: false,
                    problem: Problem {
                        path: case.path.clone(),
                        position: None,
                        message: format!(
                            "the reference takes {} ms of the {} ms limit; a learner's solution in Python may be 10-100 times slower",
                            took.as_millis(),
                            group.time_limit.as_millis()
                        ),
                    },
                });
            }
            if let Some(problem) = disagreement(case, output) {
                findings.push(SuiteFinding {
                    error: true,
                    problem,
                });
            }
            // A decision on a hair is a flaky test: ln may differ in the
            // last bit between the learner's language and ours.
            for (i, why) in &checked.fragile {
                let i = *i;
                let text = std::fs::read_to_string(&case.path).unwrap_or_default();
                findings.push(SuiteFinding {
                    error: true,
                    problem: Problem {
                        path: case.path.clone(),
                        position: locate::position_of(&text, &[1, i]),
                        message: format!(
                            "operation {i} {} is fragile: {why}; change the key, a name or a weight",
                            case.op_json(i)
                        ),
                    },
                });
            }
            let nodes = challenge
                .model
                .nodes_arg()
                .and_then(|i| case.input.get(0).and_then(|a| a.get(i)));
            if let Some(Value::Array(nodes)) = nodes {
                // A node is a name, or the name of a [name, weight] pair.
                let name = |v: &Value| v.get(0).cloned().unwrap_or_else(|| v.clone());
                let names: Vec<Value> = nodes.iter().map(name).collect();
                for (i, n) in names.iter().enumerate() {
                    if names[..i].contains(n) {
                        let text = std::fs::read_to_string(&case.path).unwrap_or_default();
                        findings.push(SuiteFinding {
                            error: false,
                            problem: Problem {
                                path: case.path.clone(),
                                position: locate::position_of(&text, &[0, 0, i]),
                                message: format!(
                                    "node {n} is listed twice (fine if the case tests duplicates)"
                                ),
                            },
                        });
                    }
                }
            }
        }
    }
    findings
}

/// One expected file `bless` would change.
#[derive(Debug, Clone)]
pub struct Blessing {
    pub path: PathBuf,
    /// The file's entries before (`None`: missing or unreadable).
    pub old: Option<Vec<Value>>,
    pub new: Vec<Value>,
}

/// The expected files that differ from the reference's output, in a suite
/// loaded without its expected files.
pub fn blessings(challenge: &Challenge, suite: &Suite) -> Vec<Blessing> {
    let mut changes = Vec::new();
    for case in suite.cases() {
        let new = challenge.model.run(&case.args, &case.ops);
        let path = case.expected_path();
        let text = std::fs::read_to_string(&path).ok();
        if text.as_deref() == Some(canonical(&Value::from(new.clone())).as_str()) {
            continue;
        }
        let old = text
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v.as_array().cloned());
        changes.push(Blessing { path, old, new });
    }
    changes
}

/// Writes the blessed expected files.
pub fn bless(changes: &[Blessing]) -> Result<(), Error> {
    for c in changes {
        write_atomically(&c.path, canonical(&Value::from(c.new.clone())).as_bytes())?;
    }
    Ok(())
}

/// A case pasted from a challenge page: `[args, ops]`, or the page's
/// `Input: ...` / `Output: ...` pair.
#[derive(Debug, Clone)]
pub struct Pasted {
    pub input: Value,
    pub output: Option<Value>,
}

/// Reads what an author pasted.
pub fn parse_pasted(text: &str) -> Result<Pasted, String> {
    let trimmed = text.trim();
    if let Some(rest) = trimmed.strip_prefix("Input:") {
        let (input, output) = match rest.find("Output:") {
            Some(at) => (&rest[..at], Some(&rest[at + "Output:".len()..])),
            None => (rest, None),
        };
        let input = serde_json::from_str(input.trim())
            .map_err(|e| format!("the Input is not JSON: {e}"))?;
        let output = output
            .map(|o| {
                serde_json::from_str(o.trim()).map_err(|e| format!("the Output is not JSON: {e}"))
            })
            .transpose()?;
        Ok(Pasted { input, output })
    } else {
        let input = serde_json::from_str(trimmed).map_err(|e| {
            format!("not a case: expected [args, ops] or a challenge page's `Input: ...` and `Output: ...` ({e})")
        })?;
        Ok(Pasted {
            input,
            output: None,
        })
    }
}

/// Writes `NAME.json` and `NAME.expected.json` for a pasted case into
/// `dir`, refusing to overwrite, refusing a case whose answers hang on a
/// fragile floating-point gap, and refusing when a pasted output disagrees
/// with the reference (the diff is in the error).
pub fn add_case(
    challenge: &Challenge,
    dir: &Path,
    name: &str,
    pasted: &Pasted,
) -> Result<(PathBuf, PathBuf), Error> {
    if let Some(why) = rules::case_name_problem(name) {
        return Err(Error::Usage(why));
    }
    let ops = Operations {
        model: challenge.model,
        allowed: &challenge.operations,
    };
    let (args, parsed) = parse_input(&ops, &pasted.input)
        .map_err(|(at, message)| Error::Usage(format!("the pasted case, at {at:?}: {message}")))?;
    let checked = challenge.model.run_checked(&args, &parsed);
    if let Some((i, why)) = checked.fragile.first() {
        return Err(Error::Usage(format!(
            "operation {i} of the pasted case is fragile: {why}; change the key, a name or a weight (nothing was written)"
        )));
    }
    let output = checked.output;
    if let Some(given) = &pasted.output {
        let given_list = given.as_array().cloned().unwrap_or_default();
        let agrees = given_list.len() == output.len()
            && given_list
                .iter()
                .zip(&output)
                .all(|(a, b)| crate::judge::same(a, b));
        if !agrees {
            return Err(Error::Usage(format!(
                "the pasted Output disagrees with the reference (- pasted, + reference); nothing was written:\n{}",
                crate::diff::answers_diff(&given_list, &output)
            )));
        }
    }
    std::fs::create_dir_all(dir).map_err(Error::io(format!("cannot create {}", dir.display())))?;
    let case_path = dir.join(format!("{name}.json"));
    let expected_path = crate::challenge::expected_path(dir, name);
    for p in [&case_path, &expected_path] {
        if p.exists() {
            return Err(Error::Usage(format!(
                "{} already exists; nothing was written",
                p.display()
            )));
        }
    }
    write_atomically(&case_path, canonical(&pasted.input).as_bytes())?;
    write_atomically(&expected_path, canonical(&Value::from(output)).as_bytes())?;
    Ok((case_path, expected_path))
}
