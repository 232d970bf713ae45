//! The models that say directly whether a tie decides an answer (without
//! building the score table of every node) against the answer read from
//! their explanation, on every operation of every shipped case of every
//! challenge.

mod common;

use common::{parse_case, shipped_cases};

#[test]
fn every_shortcut_agrees_with_the_explanation_on_every_shipped_case() {
    for spec in reference::challenges() {
        let (mut questions, mut tied) = (0, 0);
        for (path, case) in shipped_cases(spec.id) {
            let (args, ops) = parse_case(spec, &case);
            let mut model = (spec.build)(&args);
            let mut any = false;
            for (i, op) in ops.iter().enumerate() {
                if let Some(explanation) = model.explain(op) {
                    questions += 1;
                    let expected = explanation.tie_decides();
                    assert_eq!(model.tie_decides(op), expected, "{} op {i}", path.display());
                    tied += usize::from(expected);
                    any |= expected;
                }
                model.apply(op);
            }
            assert_eq!(spec.tie_decides(&args, &ops), any, "{}", path.display());
        }
        // Every suite has a group of ties, and many questions beside it.
        assert!(
            tied > 0 && questions > 100,
            "{}: {tied} of {questions}",
            spec.id
        );
    }
}
