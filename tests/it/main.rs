//! The integration tests, one binary: each module was once a test file of
//! its own, and `support` holds what they share.
//!
//! Where a new test goes: a renderer's snapshot, from a report fixture in
//! `tests/fixtures/reports/`, in `crates/report/tests/renderers.rs` (the
//! report crate's own, run by `cargo test -p report`); a unit test beside
//! its code in its crate (`#[cfg(test)] mod tests`); the CLI end to end
//! (the binary, the shipped suite, hostile programs) here, in
//! `tests/it/<topic>.rs`.

mod support;

mod authoring;
mod batch;
mod batch_inputs;
mod bounds;
mod builds;
mod challenge_files;
mod ci;
mod class_layouts;
mod class_mistakes;
mod classroom50;
mod cli;
mod codio;
mod course_challenges;
mod examples;
mod explore;
mod fair_time;
mod formats;
mod gradescope;
mod h32_values;
mod hidden_fields;
mod hidden_runs;
mod hostile;
mod html;
mod injection;
mod learner_values;
mod limits;
mod linked_layouts;
mod links;
mod markers;
mod mistakes;
mod names;
mod nondeterminism;
mod not_graded;
mod op_index;
mod packaging;
mod prairielearn;
mod prefix_replays;
mod python_start;
mod rejudge;
mod rejudge_apply;
mod report_words;
mod repository_layouts;
mod results_folder;
mod scores;
mod setup;
mod shapes;
mod shared_time;
mod shrink;
mod snapshots;
mod sources;
mod standalone;
mod starters;
mod strict;
mod suites;
mod syntax;
mod uids;
mod watch;
