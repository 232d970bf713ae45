//! The packages' portability gates: the glibc floor that the wheel's and
//! the npm tarballs' binary is held to (packaging/check-glibc.sh, run by
//! build-wheel.sh, pack.sh and both package checks), and the dev container
//! template's JSON. The portable build itself is checked by
//! packaging/check-wheel.sh and check-npm.sh, which CI runs.

use crate::support::{root, tempdir, text};
use serde_json::Value;
use std::process::{Command, Output};

/// This machine's glibc, as `getconf GNU_LIBC_VERSION` says it ("2.36"),
/// or None off glibc.
fn host_glibc() -> Option<String> {
    let out = Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
        .ok()?;
    let said = text(&out.stdout);
    said.trim().strip_prefix("glibc ").map(str::to_owned)
}

/// Whether a binary linked here must import glibc 2.34's
/// `__libc_start_main` (every program linked against glibc 2.34 or newer
/// does).
fn links_against_2_34_or_newer() -> bool {
    let Some(version) = host_glibc() else {
        return false;
    };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (2, 34)
}

fn check_glibc(binary: &str, max: &str) -> Output {
    Command::new(root().join("packaging/check-glibc.sh"))
        .args([binary, max])
        .output()
        .expect("check-glibc.sh runs")
}

#[test]
fn the_glibc_floor_names_each_newer_version_a_native_build_needs() {
    if !links_against_2_34_or_newer() {
        eprintln!("skipped: this machine's glibc is older than 2.34");
        return;
    }
    let out = check_glibc(env!("CARGO_BIN_EXE_grader"), "2.17");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("newer than 2.17"), "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|line| line.trim_start().starts_with("GLIBC_2.34:")
                && line
                    .split_whitespace()
                    .any(|name| name == "__libc_start_main")),
        "{stderr}"
    );
    assert!(!stderr.contains("GLIBC_2.17:"), "{stderr}");
}

#[test]
fn the_glibc_floor_passes_a_binary_at_the_glibc_it_was_built_against() {
    let Some(version) = host_glibc() else {
        eprintln!("skipped: not a glibc machine");
        return;
    };
    let out = check_glibc(env!("CARGO_BIN_EXE_grader"), &version);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn the_glibc_floor_refuses_what_is_no_glibc_program() {
    let dir = tempdir();
    let script = dir.path().join("grader");
    std::fs::write(&script, "#!/bin/sh\necho 'grader 0.1.0'\n").unwrap();
    for (path, says) in [
        (script.to_str().unwrap(), "not an ELF file"),
        (dir.path().join("absent").to_str().unwrap(), "no file at"),
    ] {
        let out = check_glibc(path, "2.17");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{path}: {stderr}");
        assert!(stderr.contains(says) && stderr.contains(path), "{stderr}");
    }
}

#[test]
fn npm_packing_refuses_a_binary_that_needs_a_newer_glibc() {
    if !links_against_2_34_or_newer() {
        eprintln!("skipped: this machine's glibc is older than 2.34");
        return;
    }
    let out_dir = tempdir();
    let out = Command::new(root().join("packaging/npm/pack.sh"))
        .arg(env!("CARGO_BIN_EXE_grader"))
        .arg(out_dir.path())
        .output()
        .expect("pack.sh runs");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("__libc_start_main"), "{stderr}");
    assert!(stderr.contains("pack the wheel's binary"), "{stderr}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let left: Vec<_> = std::fs::read_dir(out_dir.path()).unwrap().collect();
    assert!(left.is_empty(), "pack.sh wrote {left:?}");
}

#[test]
fn the_dev_container_template_is_strict_json_with_the_grader_on_path() {
    let path = root().join("tools/devcontainer/.devcontainer/devcontainer.json");
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{} is not strict JSON: {e}", path.display()));
    let command = config["postCreateCommand"].as_str().expect("one command");
    let search = config["remoteEnv"]["PATH"].as_str().expect("a PATH");
    let user = config["remoteUser"].as_str().expect("a remote user");
    // The venv the command makes in the remote user's home is on PATH.
    assert!(
        command.contains("python3 -m venv \"$HOME/.grader\""),
        "{command}"
    );
    assert!(
        search.starts_with(&format!("/home/{user}/.grader/bin:")),
        "{search}"
    );
    assert!(search.ends_with(":${containerEnv:PATH}"), "{search}");
}
