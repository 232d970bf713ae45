//! The property hints, found on answers written for each property, in
//! the words of the report.
use crate::contract::PropertyHint;
use grading::{Case, Operations};
use reference::ModelSpec;
use serde_json::{Value, json};

fn property_hint(model: &ModelSpec, case: &Case, actual: &[Value]) -> Option<PropertyHint> {
    grading::property_hint(model, case, actual)
        .as_ref()
        .map(Into::into)
}

fn order_hint(case: &Case, actual: &[Value], reversed: &[Value]) -> Option<PropertyHint> {
    grading::order_hint(case, actual, reversed)
        .as_ref()
        .map(Into::into)
}

fn case(input: Value) -> Case {
    case_of(&reference::rendezvous::SPEC, input)
}

fn case_of(model: &'static reference::ModelSpec, input: Value) -> Case {
    let allowed: Vec<_> = model.operations.iter().collect();
    let ops = Operations {
        model,
        allowed: &allowed,
    };
    Case::in_memory(&ops, "c", "g", input, None).unwrap()
}

#[test]
fn a_key_moving_off_a_node_that_stayed_breaks_removal() {
    let c = case(json!([
        [["a", "b", "c"]],
        [["route", "k"], ["remove", "c"], ["route", "k"]]
    ]));
    let hint = property_hint(
        &reference::rendezvous::SPEC,
        &c,
        &[json!("a"), Value::Null, json!("b")],
    )
    .unwrap();
    assert_eq!(hint.property, "remove-moves-only-its-keys");
    assert_eq!((hint.first_op, hint.second_op), (0, 2));
    // Moving off the removed node is fine.
    assert!(
        property_hint(
            &reference::rendezvous::SPEC,
            &c,
            &[json!("c"), Value::Null, json!("b")]
        )
        .is_none()
    );
}

#[test]
fn a_node_removed_twice_is_named_once() {
    let c = case(json!([
        [["a", "b", "c"]],
        [
            ["route", "k"],
            ["remove", "c"],
            ["remove", "c"],
            ["route", "k"]
        ]
    ]));
    let answers = [json!("a"), Value::Null, Value::Null, json!("b")];
    let hint = property_hint(&reference::rendezvous::SPEC, &c, &answers).unwrap();
    // Once as the node that left, then in each operation.
    let left = hint.message.split(" left (").next().unwrap();
    assert_eq!(left.matches("\"c\"").count(), 1, "{}", hint.message);
    assert!(
        hint.message
            .contains(r#"operation 1 ["remove","c"], operation 2 ["remove","c"]); "a" stayed"#),
        "{}",
        hint.message
    );
}

#[test]
fn answers_that_change_with_the_node_order_break_order_independence() {
    let c = case(json!([[["b", "a"]], [["add", "c"], ["route", "k"]]]));
    let hint = order_hint(&c, &[Value::Null, json!("b")], &[Value::Null, json!("a")]).unwrap();
    assert_eq!(
        (hint.property.as_str(), hint.first_op),
        ("order-independent", 1)
    );
    assert!(order_hint(&c, &[Value::Null, json!("b")], &[Value::Null, json!("b")]).is_none());
}

#[test]
fn a_ranking_that_reorders_the_nodes_that_stayed_breaks_removal_or_addition() {
    let c = case_of(
        &reference::hrw_top::SPEC,
        json!([
            [["a", "b", "c", "d"]],
            [
                ["top", "k", 3],
                ["remove", "b"],
                ["route", "k"],
                ["top", "k", 3],
                ["add", "e"],
                ["top", "k", 4]
            ]
        ]),
    );
    let answers = |second: Value, third: Value| {
        vec![
            json!(["a", "b", "c"]),
            Value::Null,
            json!("a"),
            second,
            Value::Null,
            third,
        ]
    };
    // b left: a, c keep their order, and d moves up.
    let fine = answers(json!(["a", "c", "d"]), json!(["a", "e", "c", "d"]));
    assert!(property_hint(&reference::hrw_top::SPEC, &c, &fine).is_none());
    let reordered = answers(json!(["c", "a", "d"]), json!(["c", "a", "d", "e"]));
    let hint = property_hint(&reference::hrw_top::SPEC, &c, &reordered).unwrap();
    assert_eq!(hint.property, "remove-keeps-the-ranking");
    assert_eq!((hint.first_op, hint.second_op), (0, 3));
    // e joined: without it the ranking must be the one before.
    let shuffled = answers(json!(["a", "c", "d"]), json!(["e", "d", "a", "c"]));
    let hint = property_hint(&reference::hrw_top::SPEC, &c, &shuffled).unwrap();
    assert_eq!(hint.property, "add-keeps-the-ranking");
    assert_eq!((hint.first_op, hint.second_op), (3, 5));
}

#[test]
fn re_weighing_a_node_proves_nothing() {
    let c = case_of(
        &reference::weighted_hrw::SPEC,
        json!([
            [[["a", 1], ["b", 1], ["c", 1]]],
            [["route", "k"], ["add", "a", 0.01], ["route", "k"]]
        ]),
    );
    // a lost weight: the key may go to any other node.
    assert!(
        property_hint(
            &reference::weighted_hrw::SPEC,
            &c,
            &[json!("a"), Value::Null, json!("c")]
        )
        .is_none()
    );
}

#[test]
fn a_key_moving_to_an_old_node_breaks_addition() {
    let c = case(json!([
        [["a", "b"]],
        [["route", "k"], ["add", "z"], ["route", "k"]]
    ]));
    let hint = property_hint(
        &reference::rendezvous::SPEC,
        &c,
        &[json!("a"), Value::Null, json!("b")],
    )
    .unwrap();
    assert_eq!(hint.property, "add-only-steals-keys");
    assert!(
        property_hint(
            &reference::rendezvous::SPEC,
            &c,
            &[json!("a"), Value::Null, json!("z")]
        )
        .is_none()
    );
    // Mixed changes between the routes prove nothing either way.
    let mixed = case(json!([
        [["a", "b"]],
        [
            ["route", "k"],
            ["add", "z"],
            ["remove", "a"],
            ["route", "k"]
        ]
    ]));
    assert!(
        property_hint(
            &reference::rendezvous::SPEC,
            &mixed,
            &[json!("a"), Value::Null, Value::Null, json!("b")]
        )
        .is_none()
    );
}

/// node-522789 and node-739192 tie for every key: their FNV-1a states
/// collide before the ":".
#[test]
fn a_tie_flipped_by_a_removal_is_named_as_a_tie() {
    let c = case(json!([
        [["x", "node-739192", "y", "node-522789"]],
        [["route", "k"], ["remove", "x"], ["route", "k"]]
    ]));
    let flipped = [json!("node-522789"), Value::Null, json!("node-739192")];
    let hint = property_hint(&reference::rendezvous::SPEC, &c, &flipped).unwrap();
    assert_eq!(hint.property, "ties-keep-their-order", "{}", hint.message);
    let tie = format!(
        "h32(\"node-522789:k\") = h32(\"node-739192:k\") = {}",
        reference::h32("node-522789:k")
    );
    assert_eq!(
        reference::h32("node-522789:k"),
        reference::h32("node-739192:k")
    );
    for part in [r#""x" left (operation 1 ["remove","x"])"#, tie.as_str()] {
        assert!(hint.message.contains(part), "{part} in {}", hint.message);
    }
    // Moving between two nodes that do not tie is the removal's fault.
    let moved = [json!("y"), Value::Null, json!("node-522789")];
    let hint = property_hint(&reference::rendezvous::SPEC, &c, &moved).unwrap();
    assert_eq!(hint.property, "remove-moves-only-its-keys");
}

#[test]
fn a_tie_flipped_by_an_addition_in_a_ranking_is_named_as_a_tie() {
    // n329599 and n532382 tie for "page1" (hrw-top's ties/tie-1).
    let c = case_of(
        &reference::hrw_top::SPEC,
        json!([
            [["n532382", "m", "n329599"]],
            [["top", "page1", 3], ["add", "z"], ["top", "page1", 4]]
        ]),
    );
    let answers = [
        json!(["m", "n329599", "n532382"]),
        Value::Null,
        json!(["m", "z", "n532382", "n329599"]),
    ];
    let hint = property_hint(&reference::hrw_top::SPEC, &c, &answers).unwrap();
    assert_eq!(hint.property, "ties-keep-their-order", "{}", hint.message);
    assert!(
        hint.message
            .contains(r#""n329599" and "n532382" tie for the key (h32("page1|n329599")"#),
        "{}",
        hint.message
    );
}

#[test]
fn ring_points_at_one_position_that_trade_places_are_a_tie() {
    // p52198#0 and p112592#3 share a position.
    let c = case_of(
        &reference::vnode_ring::SPEC,
        json!([
            [["p112592", "q", "p52198"], 4],
            [
                ["lookup", "p52198#0"],
                ["remove", "q"],
                ["lookup", "p52198#0"]
            ]
        ]),
    );
    let answers = [json!("p112592"), Value::Null, json!("p52198")];
    let hint = property_hint(&reference::vnode_ring::SPEC, &c, &answers).unwrap();
    assert_eq!(hint.property, "ties-keep-their-order", "{}", hint.message);
    let at = reference::h32("p52198#0");
    assert_eq!(at, reference::h32("p112592#3"));
    assert!(
        hint.message.contains(&format!(
            r#"points "p112592#3" and "p52198#0" both at position {at}"#
        )),
        "{}",
        hint.message
    );
}

/// A node, a key and an operation in a property's message are written as
/// the answers of a report are: JSON, what cannot be seen escaped as JSON
/// escapes it, so that the message shows one notation once it is made
/// visible for a terminal.
#[test]
fn a_property_message_quotes_in_json_notation_alone() {
    let (node, key) = ("c\u{202e}", "k\u{200b}");
    let c = case(json!([
        [["a", "b", node]],
        [["route", key], ["remove", node], ["route", key]]
    ]));
    let hint = property_hint(
        &reference::rendezvous::SPEC,
        &c,
        &[json!(node), Value::Null, json!(node)],
    )
    .unwrap();
    assert!(
        hint.message.contains(
            r#"key "k\u200b" still goes to "c\u202e" after "c\u202e" left (operation 1 ["remove","c\u202e"])"#
        ),
        "{}",
        hint.message
    );
    assert_eq!(crate::notation::visible(&hint.message), hint.message);
}

#[test]
fn an_answer_naming_a_node_that_left_says_so() {
    let c = case(json!([
        [["a", "b", "c"]],
        [["route", "k"], ["remove", "c"], ["route", "k"]]
    ]));
    let hint = property_hint(
        &reference::rendezvous::SPEC,
        &c,
        &[json!("c"), Value::Null, json!("c")],
    )
    .unwrap();
    assert_eq!(hint.property, "removed-nodes-are-gone");
    assert!(
        hint.message
            .contains(r#"still goes to "c" after "c" left (operation 1 ["remove","c"])"#),
        "{}",
        hint.message
    );
    let c = case_of(
        &reference::hrw_top::SPEC,
        json!([
            [["green", "red", "blue"]],
            [["top", "k", 3], ["remove", "green"], ["top", "k", 3]]
        ]),
    );
    let same = json!(["green", "red", "blue"]);
    let hint = property_hint(
        &reference::hrw_top::SPEC,
        &c,
        &[same.clone(), Value::Null, same],
    )
    .unwrap();
    assert_eq!(hint.property, "removed-nodes-are-gone");
    assert!(
        hint.message
            .contains(r#"still holds "green" after "green" left"#),
        "{}",
        hint.message
    );
}

#[test]
fn adding_a_node_already_there_joins_no_one() {
    // n1 is there already: its add changes nothing, so an unchanged
    // ranking breaks nothing, and a changed one is no "add" to blame.
    let c = case_of(
        &reference::hrw_top::SPEC,
        json!([
            [["n0", "n1", "n2"]],
            [["top", "k", 3], ["add", "n1"], ["top", "k", 3]]
        ]),
    );
    let same = vec![
        json!(["n1", "n2", "n0"]),
        Value::Null,
        json!(["n1", "n2", "n0"]),
    ];
    assert!(property_hint(&reference::hrw_top::SPEC, &c, &same).is_none());
    let changed = vec![
        json!(["n1", "n2", "n0"]),
        Value::Null,
        json!(["n2", "n1", "n0"]),
    ];
    assert!(property_hint(&reference::hrw_top::SPEC, &c, &changed).is_none());
    // A node that was not there joins: without it, the ranking must be
    // the one before.
    let c = case_of(
        &reference::hrw_top::SPEC,
        json!([
            [["n0", "n2"]],
            [["top", "k", 3], ["add", "n1"], ["top", "k", 3]]
        ]),
    );
    let shuffled = vec![json!(["n2", "n0"]), Value::Null, json!(["n1", "n0", "n2"])];
    let hint = property_hint(&reference::hrw_top::SPEC, &c, &shuffled).unwrap();
    assert_eq!(hint.property, "add-keeps-the-ranking");
}
