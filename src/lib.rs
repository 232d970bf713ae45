//! rendezvous-grader: grades implementations of the course's consistent
//! hashing challenges against a reference and explains every difference.
//!
//! The pipeline, a module per stage: [`challenge`] (discover, load),
//! [`submission`] (prepare), [`run`], [`judge`], [`explain`], [`report`].
//! [`grade`] drives them; `main.rs` only parses arguments and maps the
//! outcome to an exit code.

pub mod author;
pub mod batch;
pub mod challenge;
pub mod diagnose;
pub mod error;

pub use error::{Error, Problem};
pub mod cli;
pub mod commands;
pub mod explain;
pub mod generate;
pub mod grade;
pub mod judge;
pub mod os;
pub mod prepare;
pub mod report;
pub mod run;
pub mod sandbox;
pub mod shrink;
