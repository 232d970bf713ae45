//! Grades one submission and returns what it found as typed records: no
//! wording for learners, no redaction, no report.
//!
//! A module per stage, in the order of the pipeline: `challenge`
//! (discover, load), `lang` (detect and prepare a submission), `run`
//! (sessions, over the `sandbox` crate and `protocol`), `judge`,
//! `explain`, `diagnose`, `shrink`, and `tested` (each case's
//! record, which those stages add to), with `explore` after a verdict.
//! `grade` drives them for one
//! submission and returns its records; the `report` crate turns them into
//! the public report. `author` and `generate` serve test authors.
//!
//! The modules are private: what the next crates use (the report, the
//! binary and its tests) is the list below, and the dead-code lint sees
//! every other item.

mod author;
mod challenge;
mod diagnose;
mod diff;
mod error;
mod explain;
mod explore;
mod extra;
mod fsutil;
mod generate;
mod grade;
mod judge;
mod lang;
mod protocol;
mod run;
mod shrink;
mod tested;
mod unbuilt;
mod words;

// Loading: a challenge, its suite and cases, and where they come from.
pub use challenge::limits::Limit;
pub use challenge::rules::case_name_problem;
pub use challenge::{
    Case, Challenge, DEFAULT_CHALLENGE, Group, Operations, Root, Suite, TestId, default_cache_dir,
    parse_input,
};

// The submission: recognised once, prepared per language.
pub use lang::{Submission, entry_names, runtime_of, starter_name, transpiler_if_asked};

// Running it: sessions and how they ended.
pub use run::{CapturedOutput, CaseOutcome, Clock, STARTUP_LIMIT, backstop};

// The wire between the grader and a driver or program.
pub use protocol::{Answering, LearnerException, Message, PROTOCOL, Violation};

// Judging a case.
pub use judge::{Cause, DivergentOp, Judgement, judge};

// Why the expected answer is right, in pinned hash values.
pub use explain::{
    H32Check, H32Mismatch, H32OtherStep, H32WrongSteps, MAX_ROWS_SHOWN, RankedNode,
    RankingPosition, RingLookup, RingNeighbour, RouteScores, TopRanking, WhyExpected,
};

// The mistake, the audit, the hash and property hints.
pub use diagnose::{
    AuditRow, ChangedAnswer, H32Finding, MistakeFinding, MistakeMatch, NodeChanges, Property,
    PropertyEvidence, PropertyFinding, RerunDifferences, Tie, audit, order_hint, property_hint,
};

// The extra runs after a verdict: the shrunk reproducer, exploring.
pub use explore::{DEFAULT_EXPLORE_SEED, Explore, ExploreOutcome, FailingCase};
pub use shrink::ShrunkCase;

// A case's record, and one submission graded.
pub use grade::{
    ApiEvidence, ApiGap, Graded, Grading, Hidden, Observer, PREFIX_REPLAYS, Pending,
    SubmissionOutcome, TimeShare, now_ms,
};
pub use tested::Tested;
pub use unbuilt::{DriverItem, DriverItemName, Halt, TsconfigProblem, Unbuilt};

// Authoring: validate, bless, add, propose limits, generate.
pub use author::limits::{
    CaseTiming, GroupLimit, LIMIT_FLOOR, LIMIT_MULTIPLE, proposed_limits, rewrite_limits,
    shown_duration, unchanged_limits,
};
pub use author::{
    Blessing, SuiteFinding, add_case, bless, blessings, check_expected_files, parse_pasted,
    validate_suite,
};
pub use generate::{GenProfile, GenRequest, generate};

// Errors, and helpers the binary and the report share.
pub use diff::{DiffLine, answers_diff, line_diff};
pub use error::{Error, NothingToGrade, Problem, Starved};
pub use fsutil::{
    check_appendable, check_writable, read_regular, write_atomically, write_atomically_with_mode,
};
pub use words::{counted, hex};
