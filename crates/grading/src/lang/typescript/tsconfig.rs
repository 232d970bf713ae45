//! The one thing the grader reads from a learner's tsconfig.json: which
//! form their decorators are. TypeScript's two forms share one syntax with
//! different meanings, and it decides by `experimentalDecorators`.
//!
//! The file is found as editors and runners (tsx, ts-node) find it: the
//! nearest tsconfig.json in the submission's folder or above. `extends` is
//! not followed: the option must be in the file itself. The grader reads
//! it as its own user, perhaps root: one in the learner's folder that is
//! a link out of it is never followed.

use super::Decorators;
use crate::lang::cache::open_no_follow;
use crate::lang::within::{self, Unreached};
use crate::protocol::LearnerException;
use crate::unbuilt::{TsconfigProblem, Unbuilt};
use std::io::Read;
use std::path::Path;

/// Larger than any tsconfig.json a person writes.
const MAX_SIZE: u64 = 256 << 10;

impl Decorators {
    /// How the form is passed to the transpiling process.
    pub(super) fn arg(self) -> &'static str {
        match self {
            Decorators::Standard => "standard",
            Decorators::Experimental { metadata: false } => "experimental",
            Decorators::Experimental { metadata: true } => "metadata",
        }
    }

    pub(super) fn from_arg(arg: &str) -> Option<Decorators> {
        [
            Decorators::Standard,
            Decorators::Experimental { metadata: false },
            Decorators::Experimental { metadata: true },
        ]
        .into_iter()
        .find(|d| d.arg() == arg)
    }
}

/// The decorators of the TypeScript file `file`, from the nearest
/// tsconfig.json; a tsconfig.json that is not JSON (with comments and
/// trailing commas, as TypeScript allows) is a compile error, as it is
/// for `tsc`. The one in the file's own folder is the learner's: it is
/// reached through that folder alone, and a link out of it is refused
/// without a look at where it leads (see [`within`]).
pub fn decorators(file: &Path) -> Result<Decorators, LearnerException> {
    let folder = file.parent().unwrap_or(Path::new("/"));
    let own = folder.join("tsconfig.json");
    let error = |config: &Path, problem| {
        let unbuilt = Unbuilt::Tsconfig {
            file: config.display().to_string(),
            problem,
        };
        LearnerException::unbuilt(unbuilt, String::new())
    };
    let reached = std::fs::canonicalize(folder)
        .map_err(Unreached::Io)
        .and_then(|real| within::resolve(&real, Path::new("tsconfig.json")));
    let (shown, real) = match reached {
        Ok(real) if std::fs::symlink_metadata(&real).is_ok_and(|m| m.is_file()) => (own, real),
        Err(Unreached::LinkedOut) => return Err(error(&own, TsconfigProblem::LinkedOut)),
        // None of the learner's: the nearest above, the instructor's.
        _ => match folder
            .ancestors()
            .skip(1)
            .map(|dir| dir.join("tsconfig.json"))
            .find(|p| p.is_file())
        {
            Some(config) => (config.clone(), config),
            None => return Ok(Decorators::Standard),
        },
    };
    let mut bytes = Vec::new();
    open_no_follow(&real)
        .and_then(|f| f.take(MAX_SIZE + 1).read_to_end(&mut bytes))
        .map_err(|e| {
            let problem = TsconfigProblem::Unreadable {
                error: e.to_string(),
            };
            error(&shown, problem)
        })?;
    if bytes.len() as u64 > MAX_SIZE {
        return Err(error(
            &shown,
            TsconfigProblem::TooLarge {
                most_bytes: MAX_SIZE,
            },
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        error(
            &shown,
            TsconfigProblem::Unreadable {
                error: e.to_string(),
            },
        )
    })?;
    let value: serde_json::Value = serde_json::from_str(&plain_json(&text)).map_err(|e| {
        // Offsets are kept by plain_json, so the position is the file's.
        error(
            &shown,
            TsconfigProblem::NotJson {
                line: e.line(),
                column: e.column(),
                error: e.to_string(),
            },
        )
    })?;
    let options = value.get("compilerOptions");
    let flag = |name: &str| {
        options
            .and_then(|o| o.get(name))
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    };
    Ok(if flag("experimentalDecorators") {
        Decorators::Experimental {
            metadata: flag("emitDecoratorMetadata"),
        }
    } else {
        Decorators::Standard
    })
}

/// `text` (JSON with comments and trailing commas) as plain JSON with every
/// line and column where it was: comments and the trailing commas become
/// spaces.
fn plain_json(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    // The last comma seen outside strings, while only blanks followed it.
    let mut comma: Option<usize> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                comma = None;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
                blank(&mut out, i, end);
                i = end;
            }
            b',' => {
                comma = Some(i);
                i += 1;
            }
            b'}' | b']' => {
                if let Some(at) = comma.take() {
                    out[at] = b' ';
                }
                i += 1;
            }
            b if b.is_ascii_whitespace() => i += 1,
            _ => {
                comma = None;
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced, by ASCII spaces.
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_read_as_typescript_reads_them() {
        let text = "{\n  // options\n  \"compilerOptions\": {\n    /* the old form */ \"experimentalDecorators\": true,\n    \"url\": \"http://x//y\",\n  },\n}\n";
        let value: serde_json::Value = serde_json::from_str(&plain_json(text)).unwrap();
        assert_eq!(value["compilerOptions"]["experimentalDecorators"], true);
        assert_eq!(value["compilerOptions"]["url"], "http://x//y");
    }

    #[test]
    fn the_nearest_tsconfig_decides_and_a_broken_one_is_named_with_its_position() {
        let root = tempfile::tempdir().unwrap();
        let inner = root.path().join("src");
        std::fs::create_dir(&inner).unwrap();
        let file = inner.join("router.ts");
        std::fs::write(&file, "").unwrap();
        assert_eq!(decorators(&file).unwrap(), Decorators::Standard);
        std::fs::write(
            root.path().join("tsconfig.json"),
            r#"{"compilerOptions": {"experimentalDecorators": true, "emitDecoratorMetadata": true}}"#,
        )
        .unwrap();
        assert_eq!(
            decorators(&file).unwrap(),
            Decorators::Experimental { metadata: true }
        );
        std::fs::write(
            inner.join("tsconfig.json"),
            "{\n  \"compilerOptions\": {\n    x\n}\n",
        )
        .unwrap();
        let e = decorators(&file).unwrap_err();
        match e.unbuilt.as_deref() {
            Some(Unbuilt::Tsconfig {
                file,
                problem: TsconfigProblem::NotJson { line, column, .. },
            }) => {
                assert!(file.ends_with("src/tsconfig.json"), "{file}");
                assert_eq!((*line, *column), (3, 5));
            }
            other => panic!("not a tsconfig's JSON error: {other:?}"),
        }
    }
}
