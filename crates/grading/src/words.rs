//! How the grader writes things for people and files: counts (the one
//! place English plurals are made) and digests in hex.

/// `bytes` in lower-case hex, two digits each: how digests and random
/// tokens are written.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `n` and `word`, plural unless `n` is one: "1 case", "3 cases".
pub fn counted(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::counted(1, "case"), "1 case");
        assert_eq!(super::counted(0, "case"), "0 cases");
        assert_eq!(super::counted(2, "known mistake"), "2 known mistakes");
    }
}
