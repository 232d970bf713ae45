//! A grader that stands alone: the binary copied into an empty folder,
//! with no checkout, no `$GRADER_CHALLENGES` and a cache of its own, starts
//! and grades a submission from the challenges built into it; a folder on
//! disk still overrides them, in the documented order; and the errors say
//! what there is.

use crate::support::{copy_tree, json, output, root, tempdir, text};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The grader binary alone in a folder of its own, made once for every
/// test here: a hard link to the test build's (large) binary in cargo's
/// temporary folder for tests (a copy where a link cannot be made),
/// replaced by every run and renamed into place whole, so that two runs
/// at once each find a whole one.
fn lone_binary() -> &'static Path {
    static BINARY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BINARY.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("standalone");
        std::fs::create_dir_all(&dir).unwrap();
        let built = Path::new(env!("CARGO_BIN_EXE_grader"));
        let fresh = dir.join(format!(".grader.{}", std::process::id()));
        let _ = std::fs::remove_file(&fresh);
        if std::fs::hard_link(built, &fresh).is_err() {
            std::fs::copy(built, &fresh).unwrap();
        }
        let binary = dir.join("grader");
        std::fs::rename(&fresh, &binary).unwrap();
        // Renaming a link onto another link to the same file leaves both.
        let _ = std::fs::remove_file(&fresh);
        binary
    })
}

/// The lone grader binary, a home of its own (so its cache is there) and
/// an empty working folder.
struct Alone {
    dir: tempfile::TempDir,
    binary: &'static Path,
}

impl Alone {
    fn new() -> Alone {
        let dir = tempdir();
        for folder in ["home", "work"] {
            std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        }
        Alone {
            dir,
            binary: lone_binary(),
        }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    /// Where the grader's cache is: in this home, as no XDG_CACHE_HOME is set.
    fn cache(&self) -> PathBuf {
        self.home().join(".cache/rendezvous-grader")
    }

    /// The copied grader with `args`, run in the empty working folder with
    /// nothing pointing at any challenge folder.
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(self.binary);
        command
            .current_dir(self.work())
            .env("HOME", self.home())
            .env_remove("XDG_CACHE_HOME")
            .env_remove("GRADER_CHALLENGES")
            .args(args);
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        output(&mut self.command(args))
    }
}

/// The embedded copy of `file` of the shipped challenge `id`, as the
/// checkout has it.
fn shipped(id: &str, file: &str) -> Vec<u8> {
    std::fs::read(root().join("challenges").join(id).join(file)).unwrap()
}

#[test]
fn a_copied_binary_alone_starts_and_grades_from_its_own_challenges() {
    let alone = Alone::new();
    let init = alone.run(&["init", "--lang", "python"]);
    assert_eq!(init.status.code(), Some(0), "{}", text(&init.stderr));
    assert_eq!(
        std::fs::read(alone.work().join("router.py")).unwrap(),
        shipped("rendezvous-router", "starters/router.py")
    );

    // The starter as delivered: it loads, its h32 is the pinned one, and
    // it fails every test (see starters.rs).
    let graded = alone.run(&["grade", "--format", "json", "router.py"]);
    assert_eq!(graded.status.code(), Some(1), "{}", text(&graded.stderr));
    let report: Value = json(&graded);
    let submission = &report["submissions"][0];
    assert_eq!(submission["verdict"], "wrong-answer", "{submission}");
    assert_eq!(submission["passed"], 0);
    assert!(
        submission["total"].as_u64().unwrap() >= 10,
        "the whole suite"
    );
    assert!(submission["h32"]["first_mismatch"].is_null());

    // Read from the embedded set, unpacked in this home's cache: not from
    // the checkout the binary was built in.
    let challenges = &report["challenges"];
    assert_eq!(challenges["source"], "embedded", "{challenges}");
    assert_eq!(challenges["version"], env!("CARGO_PKG_VERSION"));
    let unpacked = PathBuf::from(challenges["path"].as_str().unwrap());
    assert!(unpacked.starts_with(alone.cache()), "{challenges}");
    let tests = report["tests_dir"].as_str().unwrap();
    assert_eq!(
        Path::new(tests),
        unpacked.join("rendezvous-router/tests"),
        "{tests}"
    );
    assert!(!tests.contains(root().to_str().unwrap()));

    // A correct example, copied beside it, passes: exit 0.
    std::fs::copy(
        root().join("submissions/python/correct_class.py"),
        alone.work().join("correct.py"),
    )
    .unwrap();
    let correct = alone.run(&["grade", "correct.py"]);
    assert_eq!(correct.status.code(), Some(0), "{}", text(&correct.stderr));
    // People see it too: the human report names the source.
    let human = text(&correct.stdout);
    let line = format!(
        "challenges: built into rendezvous-grader {}",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(human.lines().nth(1), Some(line.as_str()), "{human}");

    // The statement, and the list, from the same set.
    let show = alone.run(&["show"]);
    assert_eq!(show.status.code(), Some(0), "{}", text(&show.stderr));
    assert_eq!(show.stdout, shipped("rendezvous-router", "README.md"));
    let show = alone.run(&["show", "vnode-ring"]);
    assert_eq!(show.stdout, shipped("vnode-ring", "README.md"));
    let list = alone.run(&["list"]);
    assert_eq!(list.status.code(), Some(0), "{}", text(&list.stderr));
    let listed = text(&list.stdout);
    assert_eq!(listed.lines().next(), Some(line.as_str()), "{listed}");
    for id in ["hrw-top", "rendezvous-router", "vnode-ring", "weighted-hrw"] {
        assert!(
            listed.lines().any(|l| l.starts_with(&format!("{id} "))),
            "{listed}"
        );
    }
}

#[test]
fn a_tampered_cache_is_restored_before_it_is_used() {
    let alone = Alone::new();
    let show = alone.run(&["show"]);
    assert_eq!(show.status.code(), Some(0), "{}", text(&show.stderr));
    let sets: Vec<PathBuf> = std::fs::read_dir(alone.cache().join("challenges"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(sets.len(), 1, "one folder, no leftovers: {sets:?}");
    let set = &sets[0];
    // A learner's edit of the statement and an expected answer of theirs.
    use std::os::unix::fs::PermissionsExt;
    let readme = set.join("rendezvous-router/README.md");
    assert_eq!(
        std::fs::metadata(&readme).unwrap().permissions().mode() & 0o777,
        0o400,
        "read-only"
    );
    std::fs::set_permissions(&readme, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::write(&readme, "edited").unwrap();
    let expected = set
        .join("rendezvous-router/tests/sample/sample-1-keys-spread-over-three-nodes.expected.json");
    std::fs::set_permissions(&expected, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::write(&expected, "[null, null, null]").unwrap();
    let show = alone.run(&["show"]);
    assert_eq!(show.stdout, shipped("rendezvous-router", "README.md"));
    assert_eq!(
        std::fs::read(&expected).unwrap(),
        shipped(
            "rendezvous-router",
            "tests/sample/sample-1-keys-spread-over-three-nodes.expected.json"
        )
    );
}

#[test]
fn a_folder_on_disk_overrides_the_embedded_challenges_in_order() {
    let alone = Alone::new();
    // Three copies of the shipped challenges, each with its own statement.
    let copy = |name: &str| {
        let dir = alone.dir.path().join(name).join("challenges");
        copy_tree(&root().join("challenges"), &dir, |_| true);
        std::fs::write(
            dir.join("rendezvous-router/README.md"),
            format!("# from {name}\n"),
        )
        .unwrap();
        dir
    };
    let flag = copy("flag");
    let variable = copy("variable");
    let here = alone.work().join("challenges");
    copy_tree(&root().join("challenges"), &here, |_| true);
    std::fs::write(here.join("rendezvous-router/README.md"), "# from here\n").unwrap();

    let show = |command: &mut Command| text(&output(command).stdout);
    assert_eq!(show(&mut alone.command(&["show"])), "# from here\n");
    assert_eq!(
        show(alone.command(&["show"]).env("GRADER_CHALLENGES", &variable)),
        "# from variable\n"
    );
    let flagged = ["--challenges", flag.to_str().unwrap(), "show"];
    assert_eq!(
        show(alone.command(&flagged).env("GRADER_CHALLENGES", &variable)),
        "# from flag\n"
    );
    // Each report says which, and where.
    let graded = output(
        alone
            .command(&[
                "--challenges",
                flag.to_str().unwrap(),
                "grade",
                "--format",
                "json",
                "--tests",
                here.join("rendezvous-router/tests/sample")
                    .to_str()
                    .unwrap(),
            ])
            .arg(root().join("submissions/python/correct_class.py")),
    );
    assert_eq!(graded.status.code(), Some(0), "{}", text(&graded.stderr));
    let report: Value = json(&graded);
    assert_eq!(
        report["challenges"],
        serde_json::json!({
            "source": "folder",
            "path": flag.to_str().unwrap(),
            "given_by": "--challenges",
        })
    );
    let listed = text(&output(alone.command(&["list"]).env("GRADER_CHALLENGES", &variable)).stdout);
    assert_eq!(
        listed.lines().next().unwrap(),
        format!("challenges: {} ($GRADER_CHALLENGES)", variable.display())
    );
    let listed = text(&alone.run(&["list"]).stdout);
    assert_eq!(
        listed.lines().next().unwrap(),
        format!(
            "challenges: {} (./challenges in the working folder)",
            here.display()
        )
    );

    // A `challenges` folder that holds no challenge is someone else's:
    // the embedded ones are used.
    std::fs::remove_dir_all(&here).unwrap();
    std::fs::create_dir_all(here.join("notes")).unwrap();
    let show = alone.run(&["show"]);
    assert_eq!(show.stdout, shipped("rendezvous-router", "README.md"));
}

#[test]
fn a_challenge_folder_that_is_not_there_or_a_challenge_not_in_it_is_named() {
    let alone = Alone::new();
    let missing = alone.dir.path().join("no-such-folder");
    let missing = missing.to_str().unwrap();
    let flag = alone.run(&["--challenges", missing, "init", "--lang", "python"]);
    assert_eq!(flag.status.code(), Some(2));
    let said = text(&flag.stderr);
    assert!(
        said.contains(&format!("--challenges {missing}: no such folder")),
        "{said}"
    );
    let variable = output(alone.command(&["show"]).env("GRADER_CHALLENGES", missing));
    assert_eq!(variable.status.code(), Some(2));
    let said = text(&variable.stderr);
    assert!(
        said.contains(&format!("GRADER_CHALLENGES={missing}: no such folder")),
        "{said}"
    );
    assert!(
        !alone.work().join("router.py").exists(),
        "nothing is written from another source"
    );

    for args in [
        &["show", "nope"][..],
        &["init", "--lang", "python", "--challenge", "nope"],
        &["grade", "--challenge", "nope", "router.py"],
    ] {
        let out = alone.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let said = text(&out.stderr);
        assert!(
            said.contains(&format!(
                "no challenge `nope` in the challenges built into rendezvous-grader {} (known: hrw-top, rendezvous-router, vnode-ring, weighted-hrw)",
                env!("CARGO_PKG_VERSION")
            )),
            "{args:?}: {said}"
        );
        assert!(said.contains("--challenges DIR"), "{said}");
    }
    // A folder given: its own challenges are the known ones.
    let out = alone.run(&[
        "--challenges",
        root().join("tests/fixtures/challenges").to_str().unwrap(),
        "show",
        "nope",
    ]);
    let said = text(&out.stderr);
    assert!(said.contains("(known: hidden-router)"), "{said}");
    assert!(said.contains("(--challenges)"), "{said}");
}

#[test]
fn the_embedded_challenges_are_not_changed_by_authoring_commands() {
    let alone = Alone::new();
    for args in [
        &["add", "--group", "edge", "mine"][..],
        &[
            "gen",
            "--profile",
            "churn",
            "--seed",
            "1",
            "--group",
            "churn",
            "mine",
        ],
        &["bless"],
    ] {
        let out = output(alone.command(args).stdin(std::process::Stdio::null()));
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let said = text(&out.stderr);
        assert!(said.contains("cannot be changed"), "{args:?}: {said}");
        assert!(said.contains("--tests DIR"), "{said}");
    }
    // What only reads them works.
    let check = alone.run(&["bless", "--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    let valid = alone.run(&["validate", "--challenge", "hrw-top"]);
    assert_eq!(valid.status.code(), Some(0), "{}", text(&valid.stderr));
    // And a folder of cases of one's own is written where asked.
    let mine = alone.work().join("mine");
    let generated = alone.run(&[
        "gen",
        "--tests",
        mine.to_str().unwrap(),
        "--profile",
        "churn",
        "--seed",
        "1",
        "--group",
        "churn",
        "one",
    ]);
    assert_eq!(
        generated.status.code(),
        Some(0),
        "{}",
        text(&generated.stderr)
    );
    assert!(mine.join("churn/one.json").is_file());
}

#[test]
fn no_source_file_reads_the_build_folder_outside_its_tests() {
    // The build folder is where the binary was made, not where it runs:
    // a copied grader must never look there for challenges.
    // (A build script runs in the build folder, and reads it by design.)
    let mut files = Vec::new();
    let crates = [
        "crates/sys",
        "crates/sandbox",
        "crates/grading",
        "crates/report",
        "reference",
    ];
    let sources = crates.iter().map(|c| root().join(c).join("src"));
    for dir in sources.chain([root().join("src")]) {
        for entry in walkdir::WalkDir::new(dir) {
            let entry = entry.unwrap();
            if entry.path().extension().is_some_and(|e| e == "rs") {
                files.push(entry.into_path());
            }
        }
    }
    assert!(files.len() > 100, "{} source files", files.len());
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        // Unit tests are at the end of a file, or a file of their own.
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = source.split("#[cfg(test)]").next().unwrap();
        assert!(
            !code.contains("CARGO_MANIFEST_DIR"),
            "{} names the build folder outside its tests",
            file.display()
        );
    }
}
