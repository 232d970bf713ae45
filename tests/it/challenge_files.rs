//! The shipped rendezvous-router suite: the samples are the challenge
//! page's verbatim, and each group holds what its name promises
//! (tests/it/course_challenges.rs checks every challenge's expected files
//! against the reference).

use crate::support::{root, vectors};
use grading::{Challenge, Suite};
use reference::explanation::{DecidedBy, Explanation};
use serde_json::Value;

fn suite() -> (Challenge, Suite) {
    let challenge = Challenge::load(&root().join("challenges"), "rendezvous-router")
        .expect("the challenge loads");
    let suite = challenge
        .load_suite(&challenge.tests_dir(), true)
        .expect("the suite loads");
    (challenge, suite)
}

#[test]
fn the_samples_are_the_challenge_pages_verbatim() {
    let (_, suite) = suite();
    let vectors = vectors();
    let samples = vectors["rendezvous-router"].as_object().unwrap();
    let group = suite.groups.iter().find(|g| g.name == "sample").unwrap();
    assert_eq!(group.cases.len(), samples.len());
    for case in &group.cases {
        let sample = &samples[&case.name];
        // Byte for byte: the file is the page's compact JSON and a newline.
        let text = std::fs::read_to_string(&case.path).unwrap();
        assert_eq!(text, format!("{}\n", sample["input"]));
        let expected = std::fs::read_to_string(
            case.path
                .with_file_name(format!("{}.expected.json", case.name)),
        )
        .unwrap();
        assert_eq!(expected, format!("{}\n", sample["output"]));
    }
}

#[test]
fn every_ties_case_has_a_route_decided_by_the_name_rule() {
    let (challenge, suite) = suite();
    let group = suite.groups.iter().find(|g| g.name == "ties").unwrap();
    assert!(group.cases.len() >= 3);
    for case in &group.cases {
        let decided_by_name = (0..case.ops.len()).any(|i| {
            matches!(
                challenge.model.explain_at(&case.args, &case.ops, i),
                Some(Explanation::Scores(t)) if t.rule == DecidedBy::TieSmallerName
            )
        });
        assert!(decided_by_name, "{}: no route is a tie", case.name);
    }
}

#[test]
fn the_edge_group_covers_its_edges() {
    let (_, suite) = suite();
    let group = suite.groups.iter().find(|g| g.name == "edge").unwrap();
    let inputs: Vec<&Value> = group.cases.iter().map(|c| &c.input).collect();
    let nodes = |v: &Value| v[0][0].as_array().unwrap().clone();
    assert!(
        inputs.iter().any(|v| nodes(v).is_empty()),
        "no empty node set"
    );
    assert!(
        inputs.iter().any(|v| {
            let n = nodes(v);
            (1..n.len()).any(|i| n[..i].contains(&n[i]))
        }),
        "no duplicate initial node"
    );
    let ops = |v: &Value| v[1].as_array().unwrap().clone();
    assert!(
        inputs.iter().any(|v| ops(v)
            .iter()
            .any(|op| op[0] == "route" && !op[1].as_str().unwrap().is_ascii())),
        "no non-ASCII key"
    );
    assert!(
        inputs.iter().any(|v| {
            let n = nodes(v);
            ops(v).iter().any(|op| op[0] == "add" && n.contains(&op[1]))
        }),
        "no add of a present node"
    );
    assert!(
        inputs.iter().any(|v| {
            let n = nodes(v);
            ops(v)
                .iter()
                .any(|op| op[0] == "remove" && !n.contains(&op[1]))
        }),
        "no removal of an absent node"
    );
}

#[test]
fn the_large_case_is_large() {
    let (_, suite) = suite();
    let group = suite.groups.iter().find(|g| g.name == "large").unwrap();
    assert!(
        group
            .cases
            .iter()
            .any(|c| { c.input[0][0].as_array().unwrap().len() >= 1000 && c.ops.len() >= 10_000 })
    );
}

#[test]
fn challenges_are_discovered() {
    let cache = crate::support::tempdir();
    let root = grading::Root::find(Some(&root().join("challenges")), cache.path()).unwrap();
    let ids: Vec<String> = root.list().unwrap().into_iter().map(|c| c.id).collect();
    assert!(
        ids.contains(&grading::DEFAULT_CHALLENGE.to_owned()),
        "{ids:?}"
    );
}
