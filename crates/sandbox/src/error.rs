//! Why a program could not be contained or started: the caller's request
//! was impossible, or the machine refused.

/// What stops the sandbox from doing what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request cannot be met on this machine as asked (a bad setting,
    /// a layer that was required but does not hold).
    #[error("{0}")]
    Usage(String),
    /// The machine refused: a folder, a process, a lock.
    #[error("{context}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Wraps an I/O error with what the sandbox was doing.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        move |source| Error::Io {
            context: context.into(),
            source,
        }
    }
}
