//! Which files of a challenge folder the grader carries in its binary:
//! `challenge.toml`, the statement (`README.md`), the starters and the
//! cases of every group that is not hidden. Shared by `build.rs`, which
//! embeds them, and the library's tests, so the rule that keeps hidden
//! cases out of a binary every learner holds is tested where it is made.
//! It uses nothing of the crate: the build script compiles it alone.

use std::path::Path;

/// What to carry of one challenge, and what was left out and why.
#[derive(Debug, Default)]
pub struct Selection {
    /// Paths relative to the challenge's folder, `/`-separated, sorted.
    pub files: Vec<String>,
    /// Problems that made files stay out (said by the build).
    pub warnings: Vec<String>,
}

/// The challenges under `root` (folders holding `challenge.toml`), by id,
/// each with what to carry of it, sorted by id.
pub fn challenges(root: &Path) -> std::io::Result<Vec<(String, Selection)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root)? {
        let entry = entry?;
        let dir = entry.path();
        let Some(id) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if id.starts_with('.') || !dir.join("challenge.toml").is_file() {
            continue;
        }
        found.push((id, select(&dir)?));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// What to carry of the challenge in `dir`.
pub fn select(dir: &Path) -> std::io::Result<Selection> {
    let mut selection = Selection::default();
    for name in ["challenge.toml", "README.md"] {
        if dir.join(name).is_file() {
            selection.files.push(name.to_owned());
        }
    }
    for starter in sorted_files(&dir.join("starters"))? {
        selection.files.push(format!("starters/{starter}"));
    }
    let hidden = match hidden_groups(&dir.join("challenge.toml")) {
        Ok(hidden) => Some(hidden),
        Err(why) => {
            // Without knowing which groups are hidden, no case is carried:
            // the grader then says what is wrong with challenge.toml.
            selection.warnings.push(format!(
                "{}: {why}; none of its cases is embedded",
                dir.join("challenge.toml").display()
            ));
            None
        }
    };
    if let Some(hidden) = hidden {
        let tests = dir.join("tests");
        for group in sorted_dirs(&tests)? {
            if hidden.contains(&group) {
                continue;
            }
            for file in sorted_files(&tests.join(&group))? {
                if file.ends_with(".json") {
                    selection.files.push(format!("tests/{group}/{file}"));
                }
            }
        }
    }
    selection.files.sort();
    Ok(selection)
}

/// The names of the groups `challenge.toml` declares hidden.
fn hidden_groups(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it ({e})"))?;
    let table: toml::Table = text.parse().map_err(|e| format!("not valid TOML ({e})"))?;
    let groups = match table.get("groups") {
        None => return Ok(Vec::new()),
        Some(toml::Value::Array(groups)) => groups,
        Some(_) => return Err("`groups` is not an array of tables".into()),
    };
    let mut hidden = Vec::new();
    for group in groups {
        let name = group.get("name").and_then(toml::Value::as_str);
        let visibility = group.get("visibility").and_then(toml::Value::as_str);
        match (name, visibility) {
            (_, None | Some("visible")) => {}
            (Some(name), Some(_)) => hidden.push(name.to_owned()),
            (None, Some(_)) => return Err("a group with a visibility has no name".into()),
        }
    }
    Ok(hidden)
}

/// The names of the regular files directly in `dir` (none if it is not
/// there), sorted, dotfiles left out.
fn sorted_files(dir: &Path) -> std::io::Result<Vec<String>> {
    entries(dir, |t| t.is_file())
}

/// The names of the folders directly in `dir`, sorted, dotfiles left out.
fn sorted_dirs(dir: &Path) -> std::io::Result<Vec<String>> {
    entries(dir, |t| t.is_dir())
}

fn entries(dir: &Path, keep: fn(&std::fs::FileType) -> bool) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(names),
        Err(e) => return Err(e),
    };
    for entry in read {
        let entry = entry?;
        // A link is not followed: what is embedded is what is in the folder.
        if !keep(&entry.file_type()?) {
            continue;
        }
        if let Some(name) = entry.file_name().to_str()
            && !name.starts_with('.')
        {
            names.push(name.to_owned());
        }
    }
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_groups_cases_stay_out() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("tests/fixtures/challenges");
        let found = challenges(&dir).unwrap();
        let (id, selection) = &found[0];
        assert_eq!(id, "hidden-router");
        assert_eq!(
            selection.files,
            ["challenge.toml", "tests/open/basic.json"],
            "the secret group is hidden"
        );
        assert!(selection.warnings.is_empty());
    }

    #[test]
    fn a_challenge_toml_that_does_not_parse_carries_no_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("challenge.toml"), "groups = [").unwrap();
        std::fs::create_dir_all(dir.path().join("tests/secret")).unwrap();
        std::fs::write(dir.path().join("tests/secret/s.json"), "[]").unwrap();
        std::fs::create_dir_all(dir.path().join("starters")).unwrap();
        std::fs::write(dir.path().join("starters/router.py"), "").unwrap();
        let selection = select(dir.path()).unwrap();
        assert_eq!(selection.files, ["challenge.toml", "starters/router.py"]);
        assert!(selection.warnings[0].contains("not valid TOML"));
    }

    #[test]
    fn a_visibility_named_explicitly_visible_is_carried() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("challenge.toml"),
            "[[groups]]\nname = \"a\"\nvisibility = \"visible\"\n[[groups]]\nname = \"b\"\nvisibility = \"hidden\"\n",
        )
        .unwrap();
        for group in ["a", "b", "c"] {
            std::fs::create_dir_all(dir.path().join("tests").join(group)).unwrap();
            std::fs::write(dir.path().join("tests").join(group).join("x.json"), "[]").unwrap();
        }
        // Notes beside the cases are not cases.
        std::fs::write(dir.path().join("tests/a/notes.txt"), "").unwrap();
        let selection = select(dir.path()).unwrap();
        assert_eq!(
            selection.files,
            ["challenge.toml", "tests/a/x.json", "tests/c/x.json"]
        );
    }
}
