//! Finding an interpreter the drivers can run on: the real binary behind
//! `$GRADER_PYTHON` or `$GRADER_NODE` (else the default on PATH), and its
//! version checked against what the drivers need, so that an interpreter
//! too old for them is the grader's setup to fix, never every learner's
//! runtime error.

use crate::error::Error;
use sandbox::Environment;
use std::path::PathBuf;

mod known;

/// An interpreter a driver runs on, and how to ask it what it is.
pub(super) struct Interpreter {
    /// The tool's name among the environment's tools.
    pub name: &'static str,
    /// What people call it in messages ("Python").
    pub title: &'static str,
    /// Its place on contained programs' PATH.
    pub rank: u8,
    /// The variable that names another one.
    pub variable: &'static str,
    /// The program run when the variable is not set.
    pub default: &'static str,
    /// The flag and the code that print the real binary's path on one
    /// line and the version (`3.11`, `20.20.2`) on the next.
    pub probe: (&'static str, &'static str),
    /// The Debian package that installs it.
    pub package: &'static str,
    /// The oldest (major, minor) the driver runs on.
    pub minimum: (u32, u32),
}

impl Interpreter {
    /// The real binary, found once per run.
    pub fn find(&self, env: &Environment) -> Result<PathBuf, Error> {
        let chosen = std::env::var_os(self.variable).filter(|v| !v.is_empty());
        let program = chosen.clone().unwrap_or_else(|| self.default.into());
        let shown = program.to_string_lossy().into_owned();
        let found = env.tool(self.name, self.rank, || self.ask_once(env, &program));
        let (major, minor) = self.minimum;
        found.map_err(|detail| Error::Runtime {
            program: match &chosen {
                Some(_) => format!("the {} {} names ({shown})", self.title, self.variable),
                None => shown.clone(),
            },
            hint: match &chosen {
                Some(_) => format!(
                    "set {} to a {} {major}.{minor} or newer, or unset it to use {} from PATH",
                    self.variable, self.title, self.default
                ),
                None => format!(
                    "install {} {major}.{minor} or newer (e.g. apt-get install {}) or set {} to its path",
                    self.title, self.package, self.variable
                ),
            },
            source: std::io::Error::other(detail),
        })
    }

    /// What `program` answered the last time it was asked, from the cache
    /// folder, when nothing that chooses the interpreter has changed since;
    /// else asks it, and remembers the answer. Asking costs a process
    /// start, and through a version manager's shim (a chain of shell
    /// scripts) about 100 ms: more than grading the samples.
    fn ask_once(&self, env: &Environment, program: &std::ffi::OsStr) -> Result<PathBuf, String> {
        let Some(key) = known::key(self.probe, self.minimum, program) else {
            return self.ask(program);
        };
        if let Some(real) = known::recall(env, &key) {
            return Ok(real);
        }
        let real = self.ask(program)?;
        // A cache that cannot be written only costs the next run a probe.
        let _ = known::remember(env, &key, &real);
        Ok(real)
    }

    /// Asks `program` for its real binary and its version.
    fn ask(&self, program: &std::ffi::OsStr) -> Result<PathBuf, String> {
        let (flag, code) = self.probe;
        let shown = program.to_string_lossy();
        let out = std::process::Command::new(program)
            .args([flag, code])
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("`{shown}`: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "`{shown} {flag} ...` {}: {}",
                sandbox::describe_exit(out.status),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let mut lines = stdout.lines().map(str::trim);
        let path = lines.next().unwrap_or_default();
        let version = lines.next().unwrap_or_default();
        let (major, minor) = self.minimum;
        match parse_version(version) {
            Some(found) if found >= self.minimum => {}
            Some((m, n)) => {
                return Err(format!(
                    "`{shown}` is {} {m}.{n}, and the grader's driver needs {major}.{minor} or newer",
                    self.title
                ));
            }
            None => {
                return Err(format!(
                    "`{shown}` did not say its version when asked (`{shown} {flag} ...` printed {:?}); \
                     is it {}?",
                    stdout.trim(),
                    self.title
                ));
            }
        }
        Ok(if path.is_empty() {
            PathBuf::from(program)
        } else {
            PathBuf::from(path)
        })
    }
}

/// `3.11` or `20.20.2` (a leading `v` allowed) as (major, minor).
fn parse_version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.trim_start_matches('v').split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().map_or(Some(0), |m| {
        let digits: String = m.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })?;
    Some((major, minor))
}

#[cfg(test)]
mod tests {
    use super::parse_version;

    #[test]
    fn versions_read_as_major_and_minor() {
        assert_eq!(parse_version("3.11"), Some((3, 11)));
        assert_eq!(parse_version("2.7"), Some((2, 7)));
        assert_eq!(parse_version("v20.20.2"), Some((20, 20)));
        assert_eq!(parse_version("12"), Some((12, 0)));
        assert_eq!(parse_version(""), None);
        assert_eq!(parse_version("Python"), None);
        assert!(parse_version("3.6").unwrap() < (3, 7));
    }
}
