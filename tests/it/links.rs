//! Links in students' folders: an entry file that is a link out of its
//! folder is refused with a message naming it, and nothing it points at is
//! read, run or cached; a link that stays in the folder works.

use crate::support::{grader, json, output, root, tempdir, text};
use serde_json::Value;

#[test]
fn an_entry_file_linked_out_of_its_folder_is_refused_and_never_read() {
    let dir = tempdir();
    // Correct routers with a canary line: had the grader followed a link
    // to one, it would have transpiled (and cached) or run it.
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let canary = "CANARY-LINKED-ENTRY";
    for (file, example, comment) in [
        ("secret.ts", "submissions/typescript/correct.ts", "//"),
        ("secret.py", "submissions/python/correct_class.py", "#"),
    ] {
        let text = std::fs::read_to_string(root().join(example)).unwrap();
        std::fs::write(outside.join(file), format!("{comment} {canary}\n{text}")).unwrap();
    }
    let class = dir.path().join("class");
    for student in ["ts-link", "py-link", "inside-link"] {
        std::fs::create_dir_all(class.join(student)).unwrap();
    }
    let link = |target: &std::path::Path, at: &str| {
        std::os::unix::fs::symlink(target, class.join(at)).unwrap();
    };
    link(&outside.join("secret.ts"), "ts-link/router.ts");
    link(&outside.join("secret.py"), "py-link/router.py");
    // A link within the student's own folder keeps working.
    std::fs::create_dir_all(class.join("inside-link/src")).unwrap();
    std::fs::copy(
        root().join("submissions/python/correct_class.py"),
        class.join("inside-link/src/impl.py"),
    )
    .unwrap();
    link(std::path::Path::new("src/impl.py"), "inside-link/router.py");
    let cache = dir.path().join("cache");
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--cache-dir"])
        .arg(&cache)
        .args(["--tests", "challenges/rendezvous-router/tests/sample"])
        .arg(&class);
    let out = output(&mut command);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    for stream in [&out.stdout, &out.stderr] {
        assert!(!text(stream).contains(canary), "{}", text(stream));
    }
    let report: Value = json(&out);
    let by_name = |name: &str| {
        report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {report}"))
            .clone()
    };
    assert_eq!(by_name("inside-link")["verdict"], "accepted");
    for (student, file) in [("ts-link", "router.ts"), ("py-link", "router.py")] {
        let s = by_name(student);
        assert_eq!(s["verdict"], "compile-error", "{s}");
        let message = s["tests"][0]["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("{file} is a symbolic link out of its folder ")),
            "{message}"
        );
        assert!(message.contains("submit the file itself"), "{message}");
    }
    for entry in walkdir::WalkDir::new(&cache).into_iter().flatten() {
        if entry.file_type().is_file() {
            let bytes = std::fs::read(entry.path()).unwrap();
            assert!(
                !String::from_utf8_lossy(&bytes).contains(canary),
                "{} holds the canary",
                entry.path().display()
            );
        }
    }
}

/// A link within a folder that also holds another submission of the run
/// (so the folder is granted for listing only, and rebuilt where it lies
/// under the sandbox's private /tmp) still leads to its target.
#[test]
fn an_entry_linked_within_a_shared_folder_keeps_working() {
    let dir = tempdir();
    let folder = dir.path().join("loose");
    std::fs::create_dir_all(folder.join("src")).unwrap();
    std::fs::copy(
        root().join("submissions/python/correct_class.py"),
        folder.join("src/impl.py"),
    )
    .unwrap();
    std::os::unix::fs::symlink("src/impl.py", folder.join("router.py")).unwrap();
    std::fs::copy(
        root().join("submissions/python/lowest_score.py"),
        folder.join("other.py"),
    )
    .unwrap();
    let mut command = grader();
    command
        .args(["grade", "--format", "json"])
        .args(["--tests", "challenges/rendezvous-router/tests/sample"])
        .arg(folder.join("router.py"))
        .arg(folder.join("other.py"));
    let out = output(&mut command);
    let report: Value = json(&out);
    let verdicts: Vec<(&str, &str)> = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let path = s["path"].as_str().unwrap();
            (
                path.rsplit('/').next().unwrap(),
                s["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(
        verdicts.contains(&("router.py", "accepted")),
        "{verdicts:?}"
    );
    assert!(
        verdicts.contains(&("other.py", "wrong-answer")),
        "{verdicts:?}"
    );
}

/// A link out of the folder is refused alike whatever it leads to (a file
/// of the host's, one that does not exist, a folder, a loop) and the
/// report never names its target: it cannot tell whether a path of the
/// host exists, nor what it holds.
#[test]
fn links_out_of_a_folder_tell_nothing_of_where_they_lead() {
    let dir = tempdir();
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let canary = "CANARY-LINKED-CONFIG";
    // Not JSON from its second line: a grader that read it would say where.
    let secret = outside.join("secret-config.json");
    std::fs::write(&secret, format!("{{\n{canary}\n}}\n")).unwrap();
    let correct =
        std::fs::read_to_string(root().join("submissions/typescript/correct.ts")).unwrap();
    let class = dir.path().join("class");
    let targets = [
        ("exists", secret.clone()),
        ("missing", outside.join("no-such-file.json")),
        ("folder", outside.clone()),
        ("host", "/etc/shadow".into()),
        ("climbs", "../../outside/secret-config.json".into()),
    ];
    for (student, target) in &targets {
        let folder = class.join(format!("ts-{student}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("router.ts"), &correct).unwrap();
        std::os::unix::fs::symlink(target, folder.join("tsconfig.json")).unwrap();
        let folder = class.join(format!("py-{student}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::os::unix::fs::symlink(target, folder.join("router.py")).unwrap();
    }
    // Within the folder a link is followed: this one asks for the
    // experimentalDecorators form, which a parameter decorator needs.
    let inside = class.join("ts-inside");
    std::fs::create_dir_all(inside.join("config")).unwrap();
    std::fs::write(
        inside.join("config/base.json"),
        r#"{"compilerOptions": {"experimentalDecorators": true}}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink("config/base.json", inside.join("tsconfig.json")).unwrap();
    std::fs::write(
        inside.join("router.ts"),
        format!("function unused(_t: object, _k: string, _i: number) {{}}\nclass Probe {{ m(@unused x: number) {{ return x; }} }}\nvoid Probe;\n{correct}"),
    )
    .unwrap();
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--cache-dir"])
        .arg(dir.path().join("cache"))
        .args(["--tests", "challenges/rendezvous-router/tests/sample"])
        .arg(&class);
    let out = output(&mut command);
    for stream in [&out.stdout, &out.stderr] {
        let text = text(stream);
        assert!(!text.contains(canary), "{text}");
        assert!(!text.contains("secret-config"), "{text}");
        assert!(!text.contains("no-such-file"), "{text}");
        assert!(!text.contains("shadow"), "{text}");
    }
    let report: Value = json(&out);
    let by_name = |name: &str| {
        report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {report}"))
            .clone()
    };
    assert_eq!(
        by_name("ts-inside")["verdict"],
        "accepted",
        "{}",
        by_name("ts-inside")
    );
    for (language, file) in [("ts", "tsconfig.json"), ("py", "router.py")] {
        let mut messages = Vec::new();
        for (student, _) in &targets {
            let name = format!("{language}-{student}");
            let s = by_name(&name);
            assert_eq!(s["verdict"], "compile-error", "{s}");
            let message = s["tests"][0]["message"].as_str().unwrap().to_owned();
            assert!(
                message.contains(&format!("{file} is a symbolic link out of")),
                "{message}"
            );
            // The same words for every target, the student's folder aside.
            messages.push(message.replace(&name, "STUDENT"));
        }
        messages.dedup();
        assert_eq!(messages.len(), 1, "{messages:#?}");
    }
}
