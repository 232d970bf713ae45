//! The `grader` binary: parse arguments, run, map the outcome to an exit code.

use clap::Parser;
use rendezvous_grader::cli::Cli;
use rendezvous_grader::commands::{self, Status, exit};
use report::visible_lines;
use std::process::ExitCode;

fn main() -> ExitCode {
    // The grader re-executes itself as the sandbox shim around each session.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = sandbox::shim_if_asked(&args) {
        return ExitCode::from(u8::try_from(code).unwrap_or(125));
    }
    // And as the transpiler of one TypeScript file, whose parser a
    // submission must not crash the grader with.
    if let Some(code) = grading::transpiler_if_asked(&args) {
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                exit::INVALID
            } else {
                exit::PASSED
            });
        }
    };
    // Decided once, before any stream is made: every stream asks it.
    let env = |name: &str| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
    anstream::ColorChoice::write_global(cli.color.choice(env, terminal));
    report::set_quiet(cli.quiet);
    let mut out = anstream::stdout().lock();
    match commands::run(&cli, &mut out) {
        Ok(status) => {
            if let Status::Faulted(fault) = &status {
                let _ = writeln_chain(&mut anstream::stderr().lock(), fault);
            }
            ExitCode::from(status.exit_code())
        }
        // A reader that closed the pipe early (`grader list | head -1`)
        // took what it wanted: nothing went wrong.
        Err(error) if broken_pipe(&error) => ExitCode::from(exit::PASSED),
        Err(error) => {
            let mut err = anstream::stderr().lock();
            let _ = writeln_chain(&mut err, &error);
            ExitCode::from(commands::exit_code(&error))
        }
    }
}

/// Whether `error` comes of writing to a pipe its reader has closed.
fn broken_pipe(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = cause {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        cause = e.source();
    }
    false
}

fn writeln_chain(
    out: &mut dyn std::io::Write,
    error: &dyn std::error::Error,
) -> std::io::Result<()> {
    let red = anstyle::AnsiColor::Red
        .on_default()
        .effects(anstyle::Effects::BOLD);
    // An error may name a learner's file or quote their text: each of
    // its lines is shown as every report shows learner text.
    let shown = |e: &dyn std::error::Error| {
        visible_lines(&e.to_string())
            .collect::<Vec<_>>()
            .join("\n  ")
    };
    writeln!(out, "{red}error{red:#}: {}", shown(error))?;
    let mut source = error.source();
    while let Some(cause) = source {
        writeln!(out, "  caused by: {}", shown(cause))?;
        source = cause.source();
    }
    Ok(())
}
