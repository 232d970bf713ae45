//! Grading in CI as the docs say to: hidden tests added to the visible
//! ones, annotations GitHub attaches to the repository's files, and every
//! documented workflow (docs/ci-and-instructors.md's GitHub Actions and
//! GitLab, the README's commands) run step by step in a scratch
//! workspace, with a class where students fail.

use crate::support::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Points of the hidden group the scratch course declares.
const HIDDEN_WEIGHT: f64 = 40.0;
/// Printed by a student's module when it loads: the log may show it to
/// the instructor, the gradebook never.
const CANARY: &str = "CANARY-ci-7f3a";

/// A course's repository in `dir`: its own copy of rendezvous-router (the
/// sample and edge groups, and a hidden group `extra`, 40 points, whose
/// cases are in `hidden-tests/`, out of the challenge's folder), and a
/// class in `submissions/`: ada correct, bob and cy failing.
fn course(dir: &Path) {
    // The course's wheel, which the workflows install (pip and pipx are
    // stand-ins that check it is there).
    std::fs::create_dir_all(dir.join("grader")).unwrap();
    std::fs::write(
        dir.join("grader/rendezvous_grader-0.1.0-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"),
        "",
    )
    .unwrap();
    let challenge = dir.join("challenges/rendezvous-router");
    copy_tree(
        &root().join("challenges/rendezvous-router"),
        &challenge,
        |p| {
            let s = p.to_string_lossy();
            !["tests/ties", "tests/churn", "tests/large"]
                .iter()
                .any(|g| s.contains(g))
        },
    );
    let toml = challenge.join("challenge.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str(&format!(
        "\n[[groups]]\nname = \"extra\"\nweight = {HIDDEN_WEIGHT}\nvisibility = \"hidden\"\n"
    ));
    std::fs::write(&toml, text).unwrap();
    let hidden = dir.join("hidden-tests/extra");
    std::fs::create_dir_all(&hidden).unwrap();
    for file in ["single-node.json", "single-node.expected.json"] {
        std::fs::copy(challenge.join("tests/edge").join(file), hidden.join(file)).unwrap();
    }
    for (student, source) in [
        ("ada", "python/correct_class.py"),
        ("bob", "python/double_colon.py"),
        ("cy", "python/double_colon.py"),
    ] {
        let folder = dir.join("submissions").join(student);
        std::fs::create_dir_all(&folder).unwrap();
        let code = std::fs::read_to_string(root().join("submissions").join(source)).unwrap();
        std::fs::write(
            folder.join("router.py"),
            format!("import sys\nprint({CANARY:?}, file=sys.stderr)\n{code}"),
        )
        .unwrap();
    }
}

fn grade_in(dir: &Path, args: &[&str]) -> std::process::Output {
    output(grader().current_dir(dir).arg("grade").args(args))
}

#[test]
fn added_tests_are_graded_besides_the_challenges_own() {
    let dir = tempdir();
    course(dir.path());
    let json = |args: &[&str]| -> Value {
        let mut all = vec!["--format", "json"];
        all.extend(args);
        all.push("submissions/ada");
        let out = grade_in(dir.path(), &all);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let groups = |r: &Value| -> Vec<String> {
        r["submissions"][0]["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let max = |r: &Value| r["submissions"][0]["max_score"].as_f64().unwrap();
    let visible = json(&[]);
    let added = json(&["--add-tests", "hidden-tests"]);
    let alone = json(&["--tests", "hidden-tests"]);
    assert_eq!(groups(&visible), ["sample", "edge"]);
    assert_eq!(groups(&added), ["sample", "edge", "extra"]);
    assert_eq!(groups(&alone), ["extra"]);
    assert_eq!(max(&added), max(&visible) + HIDDEN_WEIGHT);
    assert_eq!(max(&alone), HIDDEN_WEIGHT);
    let hidden = dir.path().join("hidden-tests").display().to_string();
    assert_eq!(added["added_tests"], serde_json::json!([hidden]));
    assert!(visible.get("added_tests").is_none());
    // The hidden group keeps its visibility wherever it was read from.
    let extra = &added["submissions"][0]["groups"][2];
    assert_eq!(extra["visibility"], "hidden", "{extra}");
}

#[test]
fn a_group_in_two_tests_folders_or_a_folder_given_twice_is_refused() {
    let dir = tempdir();
    course(dir.path());
    let edge = dir.path().join("more/edge");
    std::fs::create_dir_all(&edge).unwrap();
    std::fs::copy(
        dir.path().join("hidden-tests/extra/single-node.json"),
        edge.join("another.json"),
    )
    .unwrap();
    let out = grade_in(dir.path(), &["--add-tests", "more", "submissions/ada"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let own = dir.path().join("challenges/rendezvous-router/tests/edge");
    assert!(
        err.contains("group `edge` is in two tests folders"),
        "{err}"
    );
    assert!(err.contains(&own.display().to_string()), "{err}");
    assert!(err.contains(&edge.display().to_string()), "{err}");
    for twice in [
        &[
            "--add-tests",
            "hidden-tests",
            "--add-tests",
            "./hidden-tests/",
        ][..],
        &["--tests", "hidden-tests", "--add-tests", "hidden-tests"],
    ] {
        let mut args = twice.to_vec();
        args.push("submissions/ada");
        let out = grade_in(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{twice:?}");
        assert!(text(&out.stderr).contains("already graded"), "{twice:?}");
        assert!(out.stdout.is_empty(), "nothing was graded: {twice:?}");
    }
}

#[test]
fn annotations_name_files_relative_to_the_workspace() {
    let dir = tempdir();
    course(dir.path());
    let ws = dir.path();
    let class = ws.join("submissions");
    let elsewhere = tempdir();
    let outside = elsewhere.path().join("zed");
    copy_tree(&class.join("bob"), &outside, |_| true);
    for (cwd, path) in [
        (ws.to_path_buf(), class.display().to_string()),
        (class.clone(), ".".to_owned()),
    ] {
        let out = output(
            grader()
                .current_dir(&cwd)
                .env("GITHUB_WORKSPACE", ws)
                .env_remove("GITHUB_STEP_SUMMARY")
                .args(["--challenges", &ws.join("challenges").display().to_string()])
                .args(["grade", "--format", "github", &path])
                .arg(&outside),
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let files: Vec<String> = text(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("::error file="))
            .map(|l| l.split(',').next().unwrap().to_owned())
            .collect();
        // bob and cy under the workspace, relative to it; zed outside it,
        // as given.
        let expected = [
            "submissions/bob/router.py".to_owned(),
            "submissions/cy/router.py".to_owned(),
            outside.join("router.py").display().to_string(),
        ];
        assert_eq!(files, expected, "from {}", cwd.display());
    }
}

/// A YAML value of the small part of YAML the docs' workflows use:
/// mappings, sequences, plain and folded (`>`) scalars, flow sequences.
#[derive(Debug, Clone)]
enum Yaml {
    Map(Vec<(String, Yaml)>),
    Seq(Vec<Yaml>),
    Str(String),
}

impl Yaml {
    fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn str(&self) -> &str {
        match self {
            Yaml::Str(s) => s,
            other => panic!("not a scalar: {other:?}"),
        }
    }
    fn items(&self) -> Vec<Yaml> {
        match self {
            Yaml::Seq(items) => items.clone(),
            Yaml::Str(s) => vec![Yaml::Str(s.clone())],
            other => panic!("not a sequence: {other:?}"),
        }
    }
    fn entries(&self) -> &[(String, Yaml)] {
        match self {
            Yaml::Map(entries) => entries,
            other => panic!("not a mapping: {other:?}"),
        }
    }
}

fn parse_yaml(text: &str) -> Yaml {
    let lines: Vec<(usize, String)> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| (l.len() - l.trim_start().len(), l.trim_start().to_owned()))
        .collect();
    let mut at = 0;
    let value = block(&lines, &mut at, 0);
    assert_eq!(at, lines.len(), "YAML not read past {:?}", lines.get(at));
    value
}

fn key_value(line: &str) -> Option<(String, String)> {
    let (key, rest) = line.split_once(':')?;
    let plain = key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c));
    (plain && !key.is_empty() && (rest.is_empty() || rest.starts_with(' ')))
        .then(|| (key.to_owned(), rest.trim().to_owned()))
}

fn block(lines: &[(usize, String)], at: &mut usize, indent: usize) -> Yaml {
    let (first, text) = &lines[*at];
    assert_eq!(*first, indent, "unexpected indentation at {text:?}");
    if text.starts_with("- ") {
        let mut items = Vec::new();
        let mut lines = lines.to_vec();
        while *at < lines.len() && lines[*at].0 == indent && lines[*at].1.starts_with("- ") {
            // An item is a block two columns in, its first line after "- ".
            lines[*at] = (indent + 2, lines[*at].1[2..].to_owned());
            items.push(block(&lines, at, indent + 2));
        }
        return Yaml::Seq(items);
    }
    if key_value(text).is_none() {
        // A plain scalar, over as many lines as are this far in or more.
        let mut words = Vec::new();
        while *at < lines.len() && lines[*at].0 >= indent {
            words.push(lines[*at].1.clone());
            *at += 1;
        }
        return Yaml::Str(words.join(" "));
    }
    let mut entries = Vec::new();
    while *at < lines.len() && lines[*at].0 == indent {
        let Some((key, rest)) = key_value(&lines[*at].1) else {
            break;
        };
        *at += 1;
        let deeper = |at: &usize| *at < lines.len() && lines[*at].0 > indent;
        let value = if rest.is_empty() {
            block(lines, at, lines[*at].0)
        } else if rest == ">" {
            let mut words = Vec::new();
            while deeper(at) {
                words.push(lines[*at].1.clone());
                *at += 1;
            }
            Yaml::Str(words.join(" "))
        } else if let Some(flow) = rest.strip_prefix('[') {
            let inner = flow.strip_suffix(']').expect("a flow sequence on one line");
            Yaml::Seq(
                inner
                    .split(',')
                    .map(|s| Yaml::Str(s.trim().to_owned()))
                    .collect(),
            )
        } else {
            let mut words = vec![rest];
            while deeper(at) {
                words.push(lines[*at].1.clone());
                *at += 1;
            }
            Yaml::Str(words.join(" "))
        };
        entries.push((key, value));
    }
    Yaml::Map(entries)
}

/// The fenced blocks of `lang` in the section of `doc` under `heading`.
fn blocks(doc: &str, heading: &str, lang: &str) -> Vec<String> {
    let start = doc.find(&format!("\n{heading}\n")).expect(heading);
    let level = heading.split(' ').next().unwrap();
    let section = &doc[start + heading.len() + 2..];
    let end = section
        .match_indices(&format!("\n{level} "))
        .map(|(i, _)| i)
        .chain(section.match_indices("\n## ").map(|(i, _)| i))
        .min()
        .unwrap_or(section.len());
    let section = &section[..end];
    let fence = format!("```{lang}\n");
    section
        .split(&fence)
        .skip(1)
        .map(|b| b.split("\n```").next().unwrap().to_owned() + "\n")
        .collect()
}

/// Runs `script` with bash as a CI runner does (`-e -o pipefail`) in
/// `dir`, with `env`; answers whether it succeeded, and its output.
fn shell(script: &str, dir: &Path, env: &BTreeMap<String, String>) -> (bool, String) {
    let out = output(
        Command::new("bash")
            .args([
                "--noprofile",
                "--norc",
                "-e",
                "-o",
                "pipefail",
                "-c",
                script,
            ])
            .current_dir(dir)
            .envs(env),
    );
    let log = format!("{}{}", text(&out.stdout), text(&out.stderr));
    (out.status.success(), log)
}

/// A folder for PATH holding a `sudo` that runs its command as this user,
/// logging it, and `pip` and `pipx` whose `install` of a wheel that is
/// there puts `grader` (the binary under test) beside them; with
/// `installed`, `grader` is there from the start.
fn tools(dir: &Path, installed: bool) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    if installed {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_grader"), bin.join("grader")).unwrap();
    }
    for pip in ["pip", "pipx"] {
        let path = bin.join(pip);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh
[ \"$1\" = install ] || {{ echo \"{pip}: install only\" >&2; exit 2; }}
shift
wheels=0
for a; do
  case \"$a\" in
    -*) ;;
    *.whl) [ -f \"$a\" ] || {{ echo \"{pip}: no such wheel: $a\" >&2; exit 1; }}; wheels=$((wheels + 1)) ;;
    *) echo \"{pip}: not a wheel: $a\" >&2; exit 1 ;;
  esac
done
[ \"$wheels\" = 1 ] || {{ echo \"{pip}: $wheels wheels\" >&2; exit 1; }}
ln -sf '{}' '{}'
",
                env!("CARGO_BIN_EXE_grader"),
                bin.join("grader").display()
            ),
        )
        .unwrap();
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&path, perms).unwrap();
    }
    let sudo = bin.join("sudo");
    let log = dir.join("sudo.log");
    std::fs::write(
        &sudo,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\ncase \"$1\" in sysctl) exit 0;; esac\nexec \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&sudo).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&sudo, perms).unwrap();
    bin
}

/// The files of `dir` (not below it) whose names match `pattern`, with
/// at most one `*`.
fn glob(dir: &Path, pattern: &str) -> Vec<PathBuf> {
    let (head, tail) = pattern.split_once('*').unwrap_or((pattern, ""));
    let exact = !pattern.contains('*');
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            match exact {
                true => name == pattern,
                false => {
                    name.len() >= head.len() + tail.len()
                        && name.starts_with(head)
                        && name.ends_with(tail)
                }
            }
        })
        .collect();
    found.sort();
    found
}

/// The environment of a job in `job`, with `bin` first on `PATH`.
fn job_env(bin: &Path) -> BTreeMap<String, String> {
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let mut env = BTreeMap::from([
        ("PATH".to_owned(), path),
        ("CI".to_owned(), "true".to_owned()),
    ]);
    // The runner's own variables are the test's alone.
    for key in [
        "GITHUB_WORKSPACE",
        "GITHUB_STEP_SUMMARY",
        "NO_COLOR",
        "FORCE_COLOR",
    ] {
        env.insert(key.to_owned(), String::new());
    }
    env
}

/// Checks the gradebook the workflow kept: a row per student, bob and cy
/// failing, every score out of the visible and hidden points together.
fn check_gradebook(csv: &Path, repo: &Path) {
    let text = std::fs::read_to_string(csv).unwrap();
    assert!(!text.contains(CANARY), "{text}");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name| head.iter().position(|h| *h == name).unwrap();
    let rows: BTreeMap<String, Vec<String>> = lines
        .map(|l| {
            let cells: Vec<String> = l.split(',').map(str::to_owned).collect();
            (cells[col("student")].clone(), cells)
        })
        .collect();
    assert_eq!(
        rows.keys().collect::<Vec<_>>(),
        ["ada", "bob", "cy"],
        "{text}"
    );
    // The whole suite, as one run in the repository grades it.
    let whole = grade_in(
        repo,
        &[
            "--add-tests",
            "hidden-tests",
            "--format",
            "json",
            "submissions/ada",
        ],
    );
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    let max = whole["submissions"][0]["max_score"].as_f64().unwrap();
    for (student, verdict) in [
        ("ada", "accepted"),
        ("bob", "wrong-answer"),
        ("cy", "wrong-answer"),
    ] {
        let row = &rows[student];
        assert_eq!(row[col("verdict")], verdict, "{text}");
        assert_eq!(row[col("max_score")].parse::<f64>().unwrap(), max, "{text}");
    }
}

#[test]
fn the_documented_github_workflow_keeps_its_gradebook_when_students_fail() {
    let doc = std::fs::read_to_string(root().join("docs/ci-and-instructors.md")).unwrap();
    let yaml = blocks(&doc, "### GitHub Actions", "yaml");
    assert_eq!(yaml.len(), 1, "one workflow");
    let workflow = parse_yaml(&yaml[0]);
    let scratch = tempdir();
    let repo = scratch.path().join("repo");
    course(&repo);
    let artifacts = scratch.path().join("artifacts");
    let mut ran = 0;
    for (name, job) in workflow.get("jobs").unwrap().entries() {
        let matrix: Vec<String> = job
            .get("strategy")
            .and_then(|s| s.get("matrix"))
            .and_then(|m| m.get("shard"))
            .map_or(vec![String::new()], |s| {
                s.items().iter().map(|v| v.str().to_owned()).collect()
            });
        for shard in matrix {
            let runner = scratch.path().join(format!("{name}-{shard}"));
            // Every job checks out at the same path, on a fresh machine:
            // merge tells a run by the folder its tests came from.
            let ws = scratch.path().join("work");
            if ws.exists() {
                std::fs::remove_dir_all(&ws).unwrap();
            }
            std::fs::create_dir_all(&ws).unwrap();
            let tools = tools(&runner.join("tools"), false);
            let summary = runner.join("summary.md");
            let mut env = job_env(&tools);
            env.insert("GITHUB_WORKSPACE".into(), ws.display().to_string());
            env.insert("GITHUB_STEP_SUMMARY".into(), summary.display().to_string());
            env.insert("GITHUB_ACTIONS".into(), "true".into());
            let mut failed = false;
            for step in job.get("steps").unwrap().items() {
                let always = step.get("if").is_some_and(|c| c.str() == "always()");
                if failed && !always {
                    panic!("job {name} {shard}: a step is skipped after a failure: {step:?}");
                }
                let ok = if let Some(uses) = step.get("uses") {
                    let with = |k: &str| {
                        step.get("with")
                            .and_then(|w| w.get(k))
                            .map(|v| v.str().replace("${{ matrix.shard }}", &shard))
                    };
                    match uses.str().split('@').next().unwrap() {
                        "actions/checkout" => {
                            copy_tree(&repo, &ws, |_| true);
                            true
                        }
                        "actions/upload-artifact" => {
                            let into = artifacts.join(with("name").unwrap());
                            std::fs::create_dir_all(&into).unwrap();
                            let files = glob(&ws, &with("path").unwrap());
                            for f in &files {
                                std::fs::copy(f, into.join(f.file_name().unwrap())).unwrap();
                            }
                            !files.is_empty()
                        }
                        "actions/download-artifact" => {
                            assert_eq!(with("merge-multiple").as_deref(), Some("true"));
                            for artifact in std::fs::read_dir(&artifacts).unwrap() {
                                for f in std::fs::read_dir(artifact.unwrap().path()).unwrap() {
                                    let f = f.unwrap().path();
                                    std::fs::copy(&f, ws.join(f.file_name().unwrap())).unwrap();
                                }
                            }
                            true
                        }
                        other => panic!("a step the test cannot run: {other}"),
                    }
                } else {
                    let run = step.get("run").unwrap().str().to_owned();
                    let run = run.replace("${{ matrix.shard }}", &shard);
                    assert!(
                        !run.contains("${{"),
                        "an expression the test cannot fill: {run}"
                    );
                    let (ok, log) = shell(&run, &ws, &env);
                    assert!(ok, "job {name} {shard}: `{run}` failed:\n{log}");
                    ran += 1;
                    ok
                };
                failed |= !ok;
            }
            assert!(!failed, "job {name} {shard} failed");
            if name == "merge" {
                let summary = std::fs::read_to_string(&summary).unwrap();
                assert!(summary.contains("| student | path |"), "{summary}");
            }
        }
    }
    check_gradebook(&artifacts.join("gradebook/gradebook.csv"), &repo);
    assert!(ran >= 5, "every grade and merge step ran");
    let log = std::fs::read_to_string(scratch.path().join("grade-1/tools/sudo.log")).unwrap();
    assert_eq!(
        log,
        "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0\n"
    );
}

#[test]
fn the_documented_gitlab_pipeline_keeps_its_gradebook_when_students_fail() {
    let doc = std::fs::read_to_string(root().join("docs/ci-and-instructors.md")).unwrap();
    let yaml = blocks(&doc, "### GitLab", "yaml");
    assert_eq!(yaml.len(), 1, "one pipeline");
    let pipeline = parse_yaml(&yaml[0]);
    let scratch = tempdir();
    let repo = scratch.path().join("repo");
    course(&repo);
    // Each job's artifacts, by job name.
    let mut kept: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    // What every job runs first.
    let before: Vec<String> = pipeline
        .get("default")
        .and_then(|d| d.get("before_script"))
        .map(Yaml::items)
        .unwrap_or_default()
        .iter()
        .map(|l| l.str().to_owned())
        .collect();
    for (name, job) in pipeline.entries() {
        if name == "default" {
            continue;
        }
        let total: usize = job.get("parallel").map_or(1, |p| p.str().parse().unwrap());
        for index in 1..=total {
            // Every job clones into a folder of its own, as a runner that
            // runs several jobs at once does: merge tells a run by what its
            // tests hold, not where they were.
            let ws = scratch.path().join(format!("builds/{name}-{index}/course"));
            if ws.exists() {
                std::fs::remove_dir_all(&ws).unwrap();
            }
            copy_tree(&repo, &ws, |_| true);
            for need in job.get("needs").map(Yaml::items).unwrap_or_default() {
                for f in &kept[need.str()] {
                    std::fs::copy(f, ws.join(f.file_name().unwrap())).unwrap();
                }
            }
            let tools = tools(&scratch.path().join(format!("tools-{name}-{index}")), false);
            let mut env = job_env(&tools);
            env.insert("GITLAB_CI".into(), "true".into());
            if job.get("parallel").is_some() {
                env.insert("CI_NODE_INDEX".into(), index.to_string());
                env.insert("CI_NODE_TOTAL".into(), total.to_string());
            }
            let script: Vec<String> = before
                .iter()
                .cloned()
                .chain(
                    job.get("script")
                        .unwrap()
                        .items()
                        .iter()
                        .map(|l| l.str().to_owned()),
                )
                .collect();
            let (ok, log) = shell(&script.join("\n"), &ws, &env);
            assert!(ok, "job {name} {index} failed:\n{log}");
            let artifacts = job.get("artifacts").unwrap();
            let always = artifacts.get("when").is_some_and(|w| w.str() == "always");
            assert!(ok || always);
            let mut paths: Vec<String> = artifacts
                .get("paths")
                .map(Yaml::items)
                .unwrap_or_default()
                .iter()
                .map(|p| p.str().to_owned())
                .collect();
            if let Some(reports) = artifacts.get("reports") {
                paths.extend(reports.entries().iter().map(|(_, v)| v.str().to_owned()));
            }
            let store = scratch.path().join(format!("artifacts/{name}-{index}"));
            std::fs::create_dir_all(&store).unwrap();
            for pattern in paths {
                let files = glob(&ws, &pattern);
                assert!(
                    !files.is_empty(),
                    "job {name} {index}: nothing matches {pattern}"
                );
                for f in files {
                    let to = store.join(f.file_name().unwrap());
                    std::fs::copy(&f, &to).unwrap();
                    kept.entry(name.clone()).or_default().push(to);
                }
            }
        }
    }
    let report = kept["merge"]
        .iter()
        .find(|p| p.ends_with("report.xml"))
        .unwrap();
    assert_eq!(xmllint(report).status.code(), Some(0));
    let gradebook = kept["merge"]
        .iter()
        .find(|p| p.ends_with("gradebook.csv"))
        .unwrap();
    check_gradebook(gradebook, &repo);
}

#[test]
fn the_readmes_ci_commands_run_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let sh = blocks(&readme, "## For CI and instructors", "sh");
    assert_eq!(sh.len(), 1);
    // One command per line once continued lines are joined: the grading
    // runs in each shard's job, the merge once all are done.
    let commands: Vec<String> = sh[0]
        .replace("\\\n", " ")
        .lines()
        .map(str::to_owned)
        .collect();
    let [grade, merge] = commands.as_slice() else {
        panic!("a grade and a merge: {commands:?}");
    };
    assert!(grade.starts_with("grader grade ") && merge.starts_with("grader merge "));
    let scratch = tempdir();
    let repo = scratch.path().join("repo");
    course(&repo);
    let tools = tools(&scratch.path().join("tools"), true);
    let mut env = job_env(&tools);
    for index in 1..=2 {
        env.insert("CI_NODE_INDEX".into(), index.to_string());
        env.insert("CI_NODE_TOTAL".into(), "2".into());
        let (ok, log) = shell(grade, &repo, &env);
        assert!(ok, "{log}");
    }
    let (ok, log) = shell(merge, &repo, &env);
    assert!(ok, "{log}");
    check_gradebook(&repo.join("gradebook.csv"), &repo);
}

#[test]
fn a_rejudge_grades_the_added_tests_again() {
    let dir = tempdir();
    course(dir.path());
    let results = dir.path().join("results");
    let out = grade_in(
        dir.path(),
        &[
            "--add-tests",
            "hidden-tests",
            "--format",
            "json",
            "--results",
            results.to_str().unwrap(),
            "submissions/",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let graded: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(graded["added_tests"].as_array().unwrap().len(), 1);
    // Nothing changed, so no student changes: the hidden group is graded
    // again, not dropped.
    let out = output(
        grader()
            .current_dir(dir.path())
            .args(["rejudge", "--format", "json", "--results"])
            .arg(&results),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let changes: Value = crate::support::document(crate::support::Document::Changes, &out);
    assert_eq!(changes["students"], serde_json::json!([]), "{changes}");
    assert_eq!(changes["unchanged"], 3, "{changes}");
}
