//! Executables: any program that speaks the protocol itself (see
//! docs/protocol.md), run as it is.

use super::{Replay, Submission, bare};
use sandbox::Program;

pub(super) fn program(submission: &Submission) -> Program {
    let mut program = bare(submission, submission.absolute.clone());
    program.own_program = submission.language == super::Language::Executable;
    program
}

pub(super) fn snippet(r: &Replay<'_>) -> String {
    format!(
        "Send this case to your program: {}\nThe last operation should answer {}.\n",
        r.case, r.expected
    )
}
