//! The integration tests, one binary: each module was once a test file of
//! its own, and `support` holds what they share.

mod support;

mod authoring;
mod batch;
mod batch_inputs;
mod bounds;
mod builds;
mod challenge_files;
mod class_layouts;
mod class_mistakes;
mod cli;
mod course_challenges;
mod examples;
mod fair_time;
mod formats;
mod hidden_fields;
mod hidden_runs;
mod hostile;
mod html;
mod injection;
mod learner_values;
mod links;
mod mistakes;
mod names;
mod nondeterminism;
mod prairielearn;
mod python_start;
mod rejudge;
mod rejudge_apply;
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
mod uids;
mod watch;
