//! Every `grader` command the README and docs/ show is one the grader
//! accepts: whole command lines parse as they are written, and a
//! synopsis (`grader add [--challenge ID] ...`) names only options its
//! command has.

use super::Cli;
use clap::{CommandFactory, Parser};
use std::path::{Path, PathBuf};

fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The `grader ...` lines inside fenced code blocks of `text`, with
/// continuations joined, and comments and output redirections dropped.
fn commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    // Inside a fence, and whether it holds commands (not JSON or TOML).
    let mut fenced: Option<bool> = None;
    let mut pending: Option<String> = None;
    for line in text.lines() {
        if let Some(tag) = line.trim_start().strip_prefix("```") {
            fenced = match fenced {
                Some(_) => None,
                None => Some(!matches!(tag.trim(), "json" | "toml" | "text")),
            };
            continue;
        }
        if fenced != Some(true) {
            continue;
        }
        let line = line.trim();
        let line = line.strip_prefix("- run: ").unwrap_or(line);
        let line = line.strip_prefix("$ ").unwrap_or(line);
        let joined = match pending.take() {
            Some(start) => format!("{start} {line}"),
            None if line.starts_with("grader ") => line.to_owned(),
            None => continue,
        };
        match joined.strip_suffix('\\') {
            Some(start) => pending = Some(start.trim_end().to_owned()),
            None => {
                // A comment, or the shell's redirection of the output, ends
                // the grader's own words.
                let end = [" #", " > ", " >> "]
                    .iter()
                    .filter_map(|cut| joined.find(cut))
                    .min()
                    .unwrap_or(joined.len());
                found.push(joined[..end].trim_end().to_owned())
            }
        }
    }
    found
}

#[test]
fn every_documented_command_is_one_the_grader_accepts() {
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for command in commands(&text) {
            let words: Vec<String> = command
                .split_whitespace()
                .map(|w| {
                    // CI variables stand for a shard number.
                    if w.contains("${{") || w.contains("$CI_") {
                        "1/2".to_owned()
                    } else {
                        w.to_owned()
                    }
                })
                .collect();
            let synopsis = command.contains('[') || command.contains('|');
            if synopsis {
                let cli = Cli::command();
                let sub = cli
                    .find_subcommand(&words[1])
                    .unwrap_or_else(|| panic!("{}: no command {}", page.display(), words[1]));
                for flag in words.iter().filter_map(|w| {
                    w.trim_start_matches('[')
                        .strip_prefix("--")
                        .map(|f| f.trim_end_matches(']').to_owned())
                }) {
                    assert!(
                        sub.get_arguments()
                            .chain(cli.get_arguments())
                            .any(|a| a.get_long() == Some(flag.as_str())),
                        "{}: `{command}`: grader {} has no --{flag}",
                        page.display(),
                        words[1]
                    );
                }
            } else if let Err(e) = Cli::try_parse_from(&words) {
                panic!("{}: `{command}` does not parse:\n{e}", page.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} commands found");
}

#[test]
fn grading_options_are_passed_on_as_they_were_given() {
    use super::{Command, GradingArgs};
    let grading = |words: &[&str]| -> GradingArgs {
        match Cli::try_parse_from(words).unwrap().command {
            Command::Grade(args) => args.grading,
            Command::Watch(args) => args.grading,
            other => panic!("{other:?}"),
        }
    };
    let every: &[&str] = &[
        "grader",
        "watch",
        "--challenge",
        "hrw-top",
        "--tests",
        "t d",
        "--add-tests",
        "hidden",
        "--add-tests",
        "more hidden",
        "--only",
        "edge/*",
        "--time-limit",
        "1000",
        "--memory-limit",
        "600",
        "--output-limit",
        "9",
        "--extra-run-limit",
        "300",
        "--extras-budget",
        "7000",
        "--no-sandbox",
        "--cache-dir",
        "c",
        "f.py",
    ];
    for words in [
        every,
        &["grader", "watch", "f.py"],
        &["grader", "watch", "--require-sandbox", "f.py"],
    ] {
        let given = grading(words);
        let mut again: Vec<std::ffi::OsString> = vec!["grader".into(), "grade".into()];
        again.extend(given.to_args());
        again.push("f.py".into());
        let passed = match Cli::try_parse_from(&again).unwrap().command {
            Command::Grade(args) => args.grading,
            other => panic!("{other:?}"),
        };
        assert_eq!(passed, given, "{words:?}");
    }
    // Every option was set in the first: none is left at its default.
    let full = grading(every);
    assert!(full.tests.is_some() && full.cache_dir.is_some() && full.no_sandbox);
    assert_eq!(full.add_tests.len(), 2);
    assert_eq!(full.only, ["edge/*"]);
    assert!(
        [full.time_limit, full.memory_limit, full.output_limit]
            .iter()
            .all(Option::is_some)
    );
    assert!(full.extra_run_limit.is_some() && full.extras_budget.is_some());
}

#[test]
fn the_readmes_set_up_commands_are_the_ones_ci_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(readme.contains("cargo test --workspace"));
    assert!(ci.lines().any(|l| l.trim() == "cargo test --workspace"));
    // The example it grades is one the examples test expects accepted.
    let example = "submissions/python/correct_class.py";
    assert!(readme.contains(&format!("cargo run --release -- grade {example}")));
    let manifest = std::fs::read_to_string(root.join("submissions/expected.toml")).unwrap();
    assert!(manifest.contains("path = \"python/correct_class.py\"\nverdict = \"accepted\""));
}

/// An environment of just `vars`, as [`super::ColorWhen`] reads one.
fn env_of<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn colour_is_decided_by_the_flag_then_no_color_then_force_color() {
    use super::ColorWhen::{self, Always, Auto, Never};
    let with = |vars: &[(&str, &str)], when: ColorWhen| when.forced(env_of(vars));
    assert_eq!(with(&[], Auto), None);
    assert_eq!(
        with(&[("NO_COLOR", "1"), ("FORCE_COLOR", "1")], Auto),
        Some(false)
    );
    assert_eq!(with(&[("NO_COLOR", "1")], Always), Some(true));
    assert_eq!(with(&[("FORCE_COLOR", "1")], Never), Some(false));
    assert_eq!(with(&[("FORCE_COLOR", "1")], Auto), Some(true));
    assert_eq!(with(&[("CLICOLOR_FORCE", "1")], Auto), Some(true));
    // Set but empty is not set; CLICOLOR_FORCE=0 forces nothing.
    assert_eq!(
        with(&[("NO_COLOR", ""), ("FORCE_COLOR", "1")], Auto),
        Some(true)
    );
    assert_eq!(with(&[("FORCE_COLOR", "")], Auto), None);
    assert_eq!(with(&[("CLICOLOR_FORCE", "0")], Auto), None);
}

#[test]
fn clicolor_force_0_leaves_colour_to_the_terminal_not_to_anstream() {
    use super::ColorWhen::{self, Always, Auto};
    use anstream::ColorChoice;
    let choice =
        |vars: &[(&str, &str)], when: ColorWhen, terminal| when.choice(env_of(vars), terminal);
    // anstream would colour on CLICOLOR_FORCE=0 whatever the output is.
    assert_eq!(
        choice(&[("CLICOLOR_FORCE", "0")], Auto, false),
        ColorChoice::Never
    );
    assert_eq!(
        choice(&[("CLICOLOR_FORCE", "0")], Auto, true),
        ColorChoice::Always
    );
    assert_eq!(
        choice(&[("CLICOLOR_FORCE", "0"), ("TERM", "dumb")], Auto, true),
        ColorChoice::Never
    );
    // Nothing set: anstream's own rule (the stream's terminal).
    assert_eq!(choice(&[], Auto, true), ColorChoice::Auto);
    // A force, and the flag, win over the terminal.
    assert_eq!(
        choice(&[("CLICOLOR_FORCE", "1")], Auto, false),
        ColorChoice::Always
    );
    assert_eq!(
        choice(&[("NO_COLOR", "1")], Always, false),
        ColorChoice::Always
    );
}
