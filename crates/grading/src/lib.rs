//! Grades one submission and returns what it found as typed records: no
//! wording for learners, no redaction, no report.
//!
//! A module per stage, in the order of the pipeline: [`challenge`]
//! (discover, load), [`lang`] (detect and prepare a submission), [`run`]
//! (sessions, over the `sandbox` crate and [`protocol`]), [`judge`],
//! [`explain`], [`diagnose`], [`shrink`], and [`tested`] (each case's
//! record, which those stages add to). [`grade`] drives them for one
//! submission and returns its records; the `report` crate turns them into
//! the public report. [`author`] and [`generate`] serve test authors.

pub mod author;
pub mod challenge;
pub mod diagnose;
pub mod diff;
pub mod error;
pub mod explain;
pub mod explore;
pub mod extra;
pub mod fsutil;
pub mod generate;
pub mod grade;
pub mod judge;
pub mod lang;
pub mod protocol;
pub mod run;
pub mod shrink;
pub mod tested;
pub mod unbuilt;
pub mod words;

pub use error::{Error, Problem};
