//! rendezvous-grader: grades implementations of the course's consistent
//! hashing challenges against a reference and explains every difference.
//!
//! This crate is the `grader` program over the workspace's pipeline:
//! `sandbox` (every program run contained and accounted for), `reference`
//! (the challenges' models and their known mistakes), `grading` (one
//! submission graded into typed records) and `report` (the public report
//! built once from them, and every renderer). Here: [`batch`] grades a
//! class, [`watch`] grades again on every save of one file, [`commands`]
//! runs each subcommand, and `main.rs` only parses arguments ([`cli`]) and
//! maps the outcome to an exit code.

pub mod batch;
pub mod cli;
pub mod commands;
pub mod watch;
