//! Gradescope as it runs an autograder: the zip that
//! tools/gradescope/make-autograder builds, unpacked into `source/` of
//! Gradescope's layout under a scratch root (AUTOGRADER_ROOT), its
//! setup.sh run as the image is built (a stand-in installs the wheel: it
//! links this build's grader), then run_autograder copied to the root and
//! run on an upload in `submission/`; and the results.json it writes
//! carries the learner's whole report, within its limit. The real wheel
//! goes through the same steps in packaging/check-gradescope.sh.

use crate::support::{copy_tree, grader, output, root, tempdir, text, trimmed_challenges};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The name of the stand-in wheel: what maturin names a wheel.
const WHEEL: &str = "rendezvous_grader-0.0.0-py3-none-manylinux_2_17_x86_64.whl";

/// Runs python3 on `script` with `args`.
fn python(script: &str, args: &[&Path]) -> std::process::Output {
    output(Command::new("python3").arg("-c").arg(script).args(args))
}

/// A stand-in wheel in `dir`: a zip holding a `grader` script where
/// maturin puts the binary.
fn stand_in_wheel(dir: &Path) -> PathBuf {
    let wheel = dir.join(WHEEL);
    let out = python(
        "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    z.writestr('rendezvous_grader-0.0.0.data/scripts/grader', 'stand-in')\n",
        &[&wheel],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    wheel
}

/// A wheel pip installs in `dir`: its `grader` script runs this build's
/// grader.
pub(crate) fn shim_wheel(dir: &Path) -> PathBuf {
    let wheel = dir.join(WHEEL);
    let script = format!(
        "#!/bin/sh\nexec '{}' \"$@\"\n",
        env!("CARGO_BIN_EXE_grader")
    );
    let out = python(
        r#"import base64, hashlib, sys, zipfile
files = {
    "rendezvous_grader-0.0.0.data/scripts/grader": sys.argv[2].encode(),
    "rendezvous_grader-0.0.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: rendezvous-grader\nVersion: 0.0.0\n",
    "rendezvous_grader-0.0.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: py3-none-manylinux_2_17_x86_64\n",
}
record = ""
for name, data in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record += f"{name},sha256={digest},{len(data)}\n"
files["rendezvous_grader-0.0.0.dist-info/RECORD"] = (record + "rendezvous_grader-0.0.0.dist-info/RECORD,,\n").encode()
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for name, data in files.items():
        info = zipfile.ZipInfo(name)
        info.external_attr = (0o100755 if name.endswith("/grader") else 0o100644) << 16
        z.writestr(info, data)
"#,
        &[&wheel, Path::new(&script)],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    wheel
}

/// The names in the zip at `zip`, and the modes of its files.
fn listing(zip: &Path) -> Vec<(String, u32)> {
    let out = python(
        "import sys, zipfile\nfor i in zipfile.ZipFile(sys.argv[1]).infolist():\n    print(oct(i.external_attr >> 16 & 0o777), i.filename)\n",
        &[zip],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|line| {
            let (mode, name) = line.split_once(' ').unwrap();
            (
                name.to_owned(),
                u32::from_str_radix(mode.trim_start_matches("0o"), 8).unwrap(),
            )
        })
        .collect()
}

/// Unpacks `zip` into `to` as unzip does, modes kept.
fn unpack(zip: &Path, to: &Path) {
    let out = python(
        "import os, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nfor i in z.infolist():\n    p = z.extract(i, sys.argv[2])\n    os.chmod(p, i.external_attr >> 16 & 0o777)\n",
        &[zip, to],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// The files under `dir`, relative to it.
fn files(dir: &Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap();
            rel.to_str().unwrap().to_owned()
        })
        .collect()
}

/// A course's challenges: rendezvous-router (its large case cut short, as
/// in [`trimmed_challenges`]), and a challenge with a hidden group.
fn course(dir: &Path) -> PathBuf {
    let challenges = dir.join("course/challenges");
    copy_tree(
        &trimmed_challenges().join("rendezvous-router"),
        &challenges.join("rendezvous-router"),
        |_| true,
    );
    copy_tree(
        &root().join("tests/fixtures/hidden-mistakes/hidden-mistake"),
        &challenges.join("hidden-mistake"),
        |_| true,
    );
    challenges
}

/// `tools/gradescope/make-autograder` with `args`.
fn make_autograder(args: &[&Path]) -> std::process::Output {
    output(
        Command::new("python3")
            .arg(root().join("tools/gradescope/make-autograder"))
            .args(args),
    )
}

/// A PATH of `first`, then the system's.
fn path_with(first: &Path) -> std::ffi::OsString {
    let mut path = first.as_os_str().to_owned();
    path.push(":/usr/local/bin:/usr/bin:/bin");
    path
}

#[test]
fn the_autograder_zip_sets_up_and_grades_in_gradescopes_layout() {
    let dir = tempdir();
    let challenges = course(dir.path());
    let wheel = stand_in_wheel(dir.path());
    let zip = dir.path().join("autograder.zip");
    let out = make_autograder(&[&wheel, &challenges, &zip]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // At the zip's root, the scripts (executable), the wheel and the
    // challenge's name; then every file of the challenges, hidden groups
    // included.
    let listed = listing(&zip);
    for script in ["setup.sh", "run_autograder", "install-node.sh"] {
        assert!(
            listed.contains(&(script.to_owned(), 0o755)),
            "{script}: {listed:?}"
        );
    }
    let names: BTreeSet<String> = listed.iter().map(|(n, _)| n.clone()).collect();
    assert!(
        names.contains(WHEEL) && names.contains("challenge"),
        "{names:?}"
    );
    let shipped: BTreeSet<String> = names
        .iter()
        .filter_map(|n| n.strip_prefix("challenges/").map(str::to_owned))
        .collect();
    assert_eq!(shipped, files(&challenges));
    assert!(
        shipped
            .iter()
            .any(|f| f.starts_with("hidden-mistake/tests/secret/")),
        "{shipped:?}"
    );

    // Gradescope's image build: the zip in source/, setup.sh run once.
    let autograder = dir.path().join("autograder");
    unpack(&zip, &autograder.join("source"));
    let bin = dir.path().join("bin");
    let installed = dir.path().join("installed");
    let stand_in = dir.path().join("stand-in-pip");
    std::fs::write(
        &stand_in,
        format!(
            "#!/bin/sh\nset -e\nfor wheel; do :; done\necho \"$wheel\" >'{}'\nmkdir -p '{}'\nln -s '{}' '{}/grader'\n",
            installed.display(),
            bin.display(),
            env!("CARGO_BIN_EXE_grader"),
            bin.display(),
        ),
    )
    .unwrap();
    make_executable(&stand_in);
    let prefix = dir.path().join("node-prefix");
    let setup = output(
        Command::new("bash")
            .arg(autograder.join("source/setup.sh"))
            .env("AUTOGRADER_ROOT", &autograder)
            .env("PIP", &stand_in)
            .env("PATH", path_with(&bin))
            .env("NODE_PREFIX", &prefix)
            // Fetching a Node.js would fail: this machine's is adequate.
            .env("NODE_DIST", "file:///nonexistent")
            .current_dir(&autograder),
    );
    assert_eq!(
        setup.status.code(),
        Some(0),
        "{}{}",
        text(&setup.stdout),
        text(&setup.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&installed).unwrap().trim(),
        autograder.join("source").join(WHEEL).to_str().unwrap(),
        "the wheel in source/ is installed"
    );
    assert!(!prefix.exists(), "an adequate Node.js is left alone");

    // A submission: run_autograder copied to the root, run from there.
    std::fs::copy(
        autograder.join("source/run_autograder"),
        autograder.join("run_autograder"),
    )
    .unwrap();
    let submission = autograder.join("submission");
    std::fs::create_dir_all(&submission).unwrap();
    let lowest = root().join("submissions/python/lowest_score.py");
    std::fs::copy(&lowest, submission.join("router.py")).unwrap();
    let run = output(
        Command::new(autograder.join("run_autograder"))
            .env("AUTOGRADER_ROOT", &autograder)
            .env("PATH", path_with(&bin))
            .current_dir(&autograder),
    );
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let results: Value =
        serde_json::from_slice(&std::fs::read(autograder.join("results/results.json")).unwrap())
            .unwrap();

    // What the learner's own report holds reaches the student: graded on
    // the course's challenges, as the zip did.
    let report: Value = serde_json::from_slice(
        &output(
            grader()
                .arg("--challenges")
                .arg(&challenges)
                .args(["grade", "--audience", "learner", "--format", "json"])
                .arg(submission.join("router.py")),
        )
        .stdout,
    )
    .unwrap();
    let s = &report["submissions"][0];
    assert_eq!(s["mistake"]["id"], "lowest-score", "{s}");
    let shown = results["output"].as_str().unwrap();
    for said in [&s["mistake"]["title"], &s["mistake"]["hint"]] {
        assert!(shown.contains(said.as_str().unwrap()), "{said} in {shown}");
    }
    for line in s["reproducer"]["snippet"].as_str().unwrap().lines() {
        assert!(shown.contains(line), "the reproducer's {line:?} in {shown}");
    }
    let checked = s["h32"]["checked"].as_u64().unwrap();
    assert!(
        shown.contains(&format!("{checked} strings")),
        "the h32 check in {shown}"
    );
    assert_eq!(results["score"], s["score"], "{results}");
    assert_eq!(
        results["tests"].as_array().unwrap().len() as u64,
        s["total"].as_u64().unwrap()
    );
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A Node.js tarball that does not have the pinned SHA-256 is refused:
/// nothing is unpacked into the prefix, nothing is left behind.
#[test]
fn a_node_tarball_that_does_not_match_its_checksum_is_refused() {
    let dir = tempdir();
    // Ubuntu 22.04's own node is too old, so the installer fetches one.
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("node"), "#!/bin/sh\necho v12.22.9\n").unwrap();
    make_executable(&bin.join("node"));
    // A tampered tarball where nodejs.org's would be.
    let arch = match std::env::consts::ARCH {
        "aarch64" => "arm64",
        _ => "x64",
    };
    let script = std::fs::read_to_string(root().join("tools/install-node.sh")).unwrap();
    let version = script
        .lines()
        .find_map(|l| l.strip_prefix("version="))
        .unwrap();
    let name = format!("node-v{version}-linux-{arch}");
    let tree = dir.path().join("tree").join(&name).join("bin");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("node"), "#!/bin/sh\necho CANARY-node\n").unwrap();
    make_executable(&tree.join("node"));
    let dist = dir.path().join("dist").join(format!("v{version}"));
    std::fs::create_dir_all(&dist).unwrap();
    let packed = output(
        Command::new("tar")
            .arg("-cJf")
            .arg(dist.join(format!("{name}.tar.xz")))
            .arg("-C")
            .arg(dir.path().join("tree"))
            .arg(&name),
    );
    assert!(packed.status.success(), "{}", text(&packed.stderr));
    let prefix = dir.path().join("prefix");
    let scratch = dir.path().join("tmp");
    std::fs::create_dir_all(&scratch).unwrap();
    let out = output(
        Command::new("bash")
            .arg(root().join("tools/install-node.sh"))
            .env("PATH", path_with(&bin))
            .env("NODE_PREFIX", &prefix)
            .env(
                "NODE_DIST",
                format!("file://{}", dir.path().join("dist").display()),
            )
            .env("TMPDIR", &scratch),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let said = text(&out.stderr);
    assert!(
        said.contains("SHA-256") && said.contains("refused"),
        "{said}"
    );
    assert!(!prefix.exists(), "nothing installed");
    assert_eq!(
        std::fs::read_dir(&scratch).unwrap().count(),
        0,
        "nothing left behind"
    );
    assert!(!said.contains("CANARY") && !text(&out.stdout).contains("CANARY"));

    // --check says an old node is not adequate, and installs nothing.
    let check = output(
        Command::new("bash")
            .arg(root().join("tools/install-node.sh"))
            .arg("--check")
            .env("PATH", path_with(&bin))
            .env("NODE_PREFIX", &prefix)
            .env("NODE_DIST", "file:///nonexistent"),
    );
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stderr));
    assert!(!prefix.exists());
}

/// What make-autograder and setup.sh refuse, each with a message naming
/// the file and what to do, and no zip written.
#[test]
fn a_bad_course_folder_or_wheel_is_refused_by_name() {
    let dir = tempdir();
    let challenges = course(dir.path());
    let wheel = stand_in_wheel(dir.path());
    let zip = dir.path().join("autograder.zip");

    // A link out of the course's folder would ship what it points to.
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "CANARY-secret").unwrap();
    let link = challenges.join("rendezvous-router/tests/notes.txt");
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    let out = make_autograder(&[&wheel, &challenges, &zip]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains(link.to_str().unwrap()) && said.contains("symbolic link"),
        "{said}"
    );
    assert!(!zip.exists() && !dir.path().join("autograder.zip.partial").exists());
    std::fs::remove_file(&link).unwrap();

    // A wheel for another platform than Gradescope's.
    let mac = dir
        .path()
        .join("rendezvous_grader-0.0.0-py3-none-macosx_11_0_arm64.whl");
    std::fs::copy(&wheel, &mac).unwrap();
    let out = make_autograder(&[&mac, &challenges, &zip]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("built for macosx_11_0_arm64"),
        "{}",
        text(&out.stderr)
    );

    // Not a wheel, and a challenge that is not there.
    let not_wheel = dir
        .path()
        .join("rendezvous_grader-0.0.0-py3-none-linux_x86_64.whl");
    std::fs::write(&not_wheel, "not a zip").unwrap();
    let out = make_autograder(&[&not_wheel, &challenges, &zip]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is not a wheel"),
        "{}",
        text(&out.stderr)
    );
    let out = output(
        Command::new("python3")
            .arg(root().join("tools/gradescope/make-autograder"))
            .args([&wheel, &challenges, &zip])
            .args(["--challenge", "vnode-ring"]),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("vnode-ring/challenge.toml does not exist"),
        "{}",
        text(&out.stderr)
    );
    assert!(!zip.exists());

    // A hidden group declared whose cases are kept outside the challenge
    // (hidden-tests/, for --add-tests): the zip would grade without it.
    let declared = challenges.join("rendezvous-router/challenge.toml");
    let mut toml = std::fs::read_to_string(&declared).unwrap();
    toml.push_str("\n[[groups]]\nname = \"extra\"\nweight = 40\nvisibility = \"hidden\"\n");
    std::fs::write(&declared, toml).unwrap();
    let out = make_autograder(&[&wheel, &challenges, &zip]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("hidden group `extra`") && said.contains("hidden-tests/extra"),
        "{said}"
    );
    assert!(!zip.exists());
    // The same on a Python without tomllib (before 3.11).
    let script = root().join("tools/gradescope/make-autograder");
    let out = output(Command::new("python3").args([
        "-c",
        "import sys; sys.modules['tomllib'] = None; sys.argv = sys.argv[1:]; \
         exec(compile(open(sys.argv[0]).read(), sys.argv[0], 'exec'), {'__name__': '__main__', '__file__': sys.argv[0]})",
        script.to_str().unwrap(),
        wheel.to_str().unwrap(),
        challenges.to_str().unwrap(),
        zip.to_str().unwrap(),
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(said.contains("hidden group `extra` (weight 40)"), "{said}");
    assert!(!zip.exists());

    // setup.sh in a source/ without the wheel.
    let autograder = dir.path().join("autograder");
    std::fs::create_dir_all(autograder.join("source")).unwrap();
    let out = output(
        Command::new("bash")
            .arg(root().join("tools/gradescope/setup.sh"))
            .env("AUTOGRADER_ROOT", &autograder),
    );
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(
        said.contains(autograder.join("source").to_str().unwrap())
            && said.contains("make-autograder"),
        "{said}"
    );
}

/// Gradescope's results, however many tests print however much, stay
/// within 1 MB measured on the bytes written: every test is listed, and
/// what was cut says so.
#[test]
fn gradescope_results_stay_within_one_megabyte_however_many_tests_print() {
    for cases in [99, 200] {
        let dir = tempdir();
        let challenges = dir.path().join("challenges");
        crate::prairielearn::many_cases(&challenges, cases);
        let student = dir.path().join("student");
        std::fs::create_dir_all(&student).unwrap();
        std::fs::write(student.join("router.py"), crate::prairielearn::CHATTY_WRONG).unwrap();
        let results = dir.path().join("results.json");
        let out = output(
            grader()
                .arg("--challenges")
                .arg(&challenges)
                .args(["grade", "--challenge", "rendezvous-router"])
                .args(["--format", "gradescope", "--exit-zero", "--output"])
                .arg(&results)
                .arg(&student),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let bytes = std::fs::read(&results).unwrap();
        assert!(
            bytes.len() < 1_000_000,
            "{cases} failing tests that print: results.json is {} bytes",
            bytes.len()
        );
        let results: Value = serde_json::from_slice(&bytes).unwrap();
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests.len(), cases, "every test is listed");
        let cut = |s: &Value| s.as_str().unwrap().contains("(cut at ");
        assert!(
            cut(&results["output"]) || tests.iter().any(|t| cut(&t["output"])),
            "what was cut says so"
        );
        for t in tests {
            assert!(
                !t["output"].as_str().unwrap().is_empty(),
                "each test keeps some of its output"
            );
        }
    }
}

/// An image whose Python refuses pip outside a virtual environment
/// (PEP 668, as Ubuntu 24.04's does) gets the wheel installed all the
/// same; one that does not is not told to break anything.
#[test]
fn setup_installs_the_wheel_into_an_externally_managed_python() {
    for managed in ["True", "False"] {
        let dir = tempdir();
        let source = dir.path().join("autograder/source");
        std::fs::create_dir_all(&source).unwrap();
        std::fs::write(source.join(WHEEL), "stand-in").unwrap();
        std::fs::copy(
            root().join("tools/install-node.sh"),
            source.join("install-node.sh"),
        )
        .unwrap();
        // The image's python3: answers pip's and the marker's questions,
        // and records the install.
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let log = dir.path().join("pip.log");
        std::fs::write(
            bin.join("python3"),
            format!(
                "#!/bin/sh\ncase \"$*\" in\n  '-m pip --version') exit 0 ;;\n  -c*) echo {managed}; exit 0 ;;\n  '-m pip install '*) echo \"$*\" >'{}'; ln -sf '{}' '{}/grader'; exit 0 ;;\nesac\nexit 1\n",
                log.display(),
                env!("CARGO_BIN_EXE_grader"),
                bin.display(),
            ),
        )
        .unwrap();
        make_executable(&bin.join("python3"));
        let out = output(
            Command::new("bash")
                .arg(root().join("tools/gradescope/setup.sh"))
                .env("AUTOGRADER_ROOT", dir.path().join("autograder"))
                .env("PATH", path_with(&bin))
                .env("NODE_DIST", "file:///nonexistent"),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{managed}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let installed = std::fs::read_to_string(&log).unwrap();
        assert!(
            installed.ends_with(&format!("{}\n", source.join(WHEEL).display())),
            "{installed}"
        );
        assert_eq!(
            installed.contains("--break-system-packages"),
            managed == "True",
            "{managed}: {installed}"
        );
    }
}

/// Gradescope shows `output` at once and a hidden group's tests
/// (`after_published`) once grades are published, and hides the total
/// score until then: `output` holds nothing of the hidden tests, for the
/// learner's audience (their names, verdicts, scores, the totals that count
/// them) and for the instructor's (their cases, and the mistake worked out
/// from them). The fixture's hidden keys hold CANARY.
#[test]
fn gradescope_output_keeps_the_hidden_tests_until_grades_are_published() {
    let dir = tempdir();
    let student = dir.path().join("student");
    std::fs::create_dir_all(&student).unwrap();
    let hostile = root().join("submissions/hostile");
    std::fs::copy(hostile.join("_router.py"), student.join("_router.py")).unwrap();
    std::fs::copy(
        hostile.join("errs_and_sleeps_on_hidden.py"),
        student.join("router.py"),
    )
    .unwrap();
    for audience in ["learner", "instructor"] {
        let out = output(
            grader()
                .args(["--challenges", "tests/fixtures/hidden-mistakes", "grade"])
                .args(["--challenge", "hidden-mistake", "--audience", audience])
                .args(["--format", "gradescope"])
                .arg(&student),
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let shown = results["output"].as_str().unwrap();
        for secret in ["secret", "CANARY", "50 of 100", "wrong-answer", "lowest"] {
            assert!(!shown.contains(secret), "{audience}: {secret:?} in {shown}");
        }
        assert!(
            shown.contains("2 of 2 visible tests passed")
                && shown.contains("3 hidden tests: their results, and your total score, are shown once grades are published"),
            "{audience}: {shown}"
        );
        // The hidden tests wait in the list, with the score.
        let tests = results["tests"].as_array().unwrap();
        let hidden: Vec<_> = tests
            .iter()
            .filter(|t| t["visibility"] == "after_published")
            .collect();
        assert_eq!(hidden.len(), 3, "{results}");
        assert!(hidden.iter().all(|t| t["status"] == "failed"), "{results}");
        assert_eq!(results["score"], 50.0);
        assert_eq!(
            hidden
                .iter()
                .any(|t| t["output"].as_str().unwrap().contains("CANARY")),
            audience == "instructor",
            "{results}"
        );
    }
}

#[test]
fn a_zip_made_to_require_the_sandbox_grades_only_with_it() {
    let dir = tempdir();
    let challenges = course(dir.path());
    let wheel = stand_in_wheel(dir.path());
    // The grader on PATH tells what it was run with.
    let bin = dir.path().join("bin");
    let (_, said) = crate::support::grader_telling_its_args(&bin);
    for require in [false, true] {
        let zip = dir.path().join(format!("autograder-{require}.zip"));
        let mut args = vec![wheel.as_path(), challenges.as_path(), zip.as_path()];
        if require {
            args.push(Path::new("--require-sandbox"));
        }
        let out = make_autograder(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let listed: BTreeSet<String> = listing(&zip).into_iter().map(|(n, _)| n).collect();
        assert_eq!(listed.contains("require-sandbox"), require, "{listed:?}");
        let autograder = dir.path().join(format!("autograder-{require}"));
        unpack(&zip, &autograder.join("source"));
        let submission = autograder.join("submission");
        std::fs::create_dir_all(&submission).unwrap();
        std::fs::copy(
            root().join("submissions/python/correct_class.py"),
            submission.join("router.py"),
        )
        .unwrap();
        let run = output(
            Command::new(autograder.join("source/run_autograder"))
                .env("AUTOGRADER_ROOT", &autograder)
                .env("PATH", path_with(&bin))
                .env_remove("REQUIRE_SANDBOX"),
        );
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let args = std::fs::read_to_string(&said).unwrap();
        assert_eq!(args.contains("--require-sandbox"), require, "{args}");
        // This machine has every layer: graded either way.
        let results: Value = serde_json::from_slice(
            &std::fs::read(autograder.join("results/results.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(results["score"], results["max_score"], "{results}");
    }
}
