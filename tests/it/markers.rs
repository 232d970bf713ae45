//! The marker lists of `syntax_markers.txt`: what gives a language's code
//! (or its name) away. One reading of the file for every test that asks
//! whether a text shows another language's code: the reference's, of its
//! catalogue, and the reports' (`syntax.rs`).

/// The marker file's text.
pub const FILE: &str = include_str!("syntax_markers.txt");

/// The marker file's sections: `[name]`, then a marker a line (kept
/// whole, spaces included, up to a tab-started comment).
pub fn sections(file: &str) -> Vec<(&str, Vec<&str>)> {
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in file.lines() {
        let line = line.split('\t').next().unwrap_or("");
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            Some(name) => sections.push((name, Vec::new())),
            None => sections.last_mut().expect("a section first").1.push(line),
        }
    }
    sections
}

/// The markers of `markers` that `text` shows: one that starts (ends)
/// with a letter or digit only where no letter or digit (before it, nor
/// `_`) stands beside it.
pub fn shown<'m>(text: &str, markers: &[&'m str]) -> Vec<&'m str> {
    markers
        .iter()
        .copied()
        .filter(|m| {
            text.match_indices(m).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + m.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
                let starts = m.starts_with(char::is_alphanumeric);
                let ends = m.ends_with(char::is_alphanumeric);
                !(starts && (word(before) || before == Some('_')) || ends && word(after))
            })
        })
        .collect()
}

/// The markers of other sections than `section` that `text` shows: a
/// marker `section` has too is its own, and so is one inside one of its
/// own (`len(` in Rust's `.len()`); a section with no markers (`words`)
/// may show none at all.
pub fn foreign_in<'m>(
    sections: &[(&str, Vec<&'m str>)],
    text: &str,
    section: &str,
) -> Vec<&'m str> {
    let own: &[&str] = sections
        .iter()
        .find(|(name, _)| *name == section)
        .map_or(&[], |(_, m)| m.as_slice());
    let mut foreign: Vec<&str> = sections
        .iter()
        .filter(|(name, _)| *name != section)
        .flat_map(|(_, m)| m.iter().copied())
        .filter(|m| !own.contains(m))
        .collect();
    foreign.sort_unstable();
    foreign.dedup();
    let mut text = text.to_owned();
    for marker in shown(&text.clone(), own) {
        text = text.replace(marker, &" ".repeat(marker.len()));
    }
    shown(&text, &foreign)
}
