//! Finds the line and column of a JSON element from its path of array
//! indices, so a problem found after parsing (an unknown operation deep in a
//! case) can still point at its place in the file. serde_json's `Value`
//! keeps no spans; re-scanning the text only on error costs nothing on the
//! happy path.

/// The 1-based line and column of the element at `path` (indices into nested
/// arrays) in the JSON `text`, or `None` if the path is not there.
pub fn position_of(text: &str, path: &[usize]) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, 0);
    for &index in path {
        if bytes.get(at) != Some(&b'[') {
            return None;
        }
        at = skip_ws(bytes, at + 1);
        for _ in 0..index {
            at = skip_value(bytes, at)?;
            at = skip_ws(bytes, at);
            if bytes.get(at) != Some(&b',') {
                return None;
            }
            at = skip_ws(bytes, at + 1);
        }
        if bytes.get(at) == Some(&b']') {
            return None;
        }
    }
    Some(line_column(text, at))
}

/// The 1-based line and column (in characters) of byte offset `at`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// One step into a TOML document: a key of a table, or an index into an
/// array (of values or of tables).
#[derive(Debug, Clone, Copy)]
pub enum TomlStep<'a> {
    Key(&'a str),
    Index(usize),
}

/// The 1-based line and column in the TOML `text` of the value at `path`,
/// or of the deepest part of it that is there (a missing key points at its
/// table); the file's start when nothing of it is, or the text does not
/// parse.
pub fn toml_position(text: &str, path: &[TomlStep<'_>]) -> (usize, usize) {
    toml_find(text, path, false)
}

/// As [`toml_position`], but a path ending in a key points at the key
/// itself (`bogus` in `bogus = 1`): where an unknown key is blamed.
pub fn toml_key_position(text: &str, path: &[TomlStep<'_>]) -> (usize, usize) {
    toml_find(text, path, true)
}

fn toml_find(text: &str, path: &[TomlStep<'_>], key: bool) -> (usize, usize) {
    let Ok(root) = toml::de::DeTable::parse(text) else {
        return (1, 1);
    };
    let mut at = None;
    let mut table = Some(root.get_ref());
    let mut value: Option<&toml::Spanned<toml::de::DeValue<'_>>> = None;
    for step in path {
        let next = match (step, table, value) {
            (TomlStep::Key(name), Some(t), _) => t
                .iter()
                .find(|(k, _)| k.get_ref().as_ref() == *name)
                .map(|(k, v)| (Some(k.span().start), v)),
            (TomlStep::Key(name), None, Some(v)) => match v.get_ref() {
                toml::de::DeValue::Table(t) => t
                    .iter()
                    .find(|(k, _)| k.get_ref().as_ref() == *name)
                    .map(|(k, v)| (Some(k.span().start), v)),
                _ => None,
            },
            (TomlStep::Index(i), _, Some(v)) => v.get_ref().get(*i).map(|v| (None, v)),
            _ => None,
        };
        let Some((key_at, next)) = next else { break };
        at = Some(match key_at {
            Some(k) if key => k,
            _ => next.span().start,
        });
        value = Some(next);
        table = None;
    }
    at.map_or((1, 1), |at| line_column(text, at))
}

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The offset just past the value starting at `at`.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => {
            let mut i = at + 1;
            loop {
                match *bytes.get(i)? {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
        }
        open @ (b'[' | b'{') => {
            let close = if open == b'[' { b']' } else { b'}' };
            let mut i = skip_ws(bytes, at + 1);
            if bytes.get(i) == Some(&close) {
                return Some(i + 1);
            }
            loop {
                i = skip_value(bytes, i)?;
                i = skip_ws(bytes, i);
                if open == b'{' && bytes.get(i) == Some(&b':') {
                    i = skip_value(bytes, skip_ws(bytes, i + 1))?;
                    i = skip_ws(bytes, i);
                }
                match *bytes.get(i)? {
                    b',' => i = skip_ws(bytes, i + 1),
                    c if c == close => return Some(i + 1),
                    _ => return None,
                }
            }
        }
        _ => {
            let mut i = at;
            while bytes
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
            {
                i += 1;
            }
            (i > at).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_elements_across_lines() {
        let text = "[[[\"a\", \"b\"]],\n [[\"route\", \"x\"],\n  [\"rout\", \"y\"]]]";
        assert_eq!(position_of(text, &[]), Some((1, 1)));
        assert_eq!(position_of(text, &[0, 0, 1]), Some((1, 9)));
        assert_eq!(position_of(text, &[1]), Some((2, 2)));
        assert_eq!(position_of(text, &[1, 1]), Some((3, 3)));
        assert_eq!(position_of(text, &[1, 1, 0]), Some((3, 4)));
        assert_eq!(position_of(text, &[1, 2]), None);
    }

    #[test]
    fn skips_strings_with_escapes_and_objects() {
        let text = r#"[{"k": [1, "]"]}, "q\"]", 3.5e2, null]"#;
        assert_eq!(position_of(text, &[3]), Some((1, 34)));
        assert_eq!(position_of(text, &[2]), Some((1, 27)));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "[\"日本\", 1]"; // [ " 日 本 " , space: the 1 is the 8th character
        assert_eq!(position_of(text, &[1]), Some((1, 8)));
    }
}
