//! The sandbox probe, run beside the first session's start, and the count
//! of live sessions that tells whether a core is idle.

use super::{Environment, FIRST_UID, UidLease};
use crate::Error;
use crate::contain::LayersInForce;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A session alive, counted by [`Environment::live`] until dropped.
#[derive(Debug)]
pub struct Live(std::sync::Arc<AtomicUsize>, Option<crate::PhaseTicket>);

impl Live {
    /// Holds `ticket` (a session's hold on its phase) as long as the
    /// session lives.
    pub fn holding(mut self, ticket: Option<crate::PhaseTicket>) -> Live {
        self.1 = ticket;
        self
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Environment {
    /// The sandbox layers in force, waiting for the probe if it has not
    /// answered yet. A probe that could not run is the grader's fault.
    pub fn layers(&self) -> Result<&LayersInForce, Error> {
        let answer = self.layers.get_or_init(|| {
            let probe = self
                .probing
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            match probe.map(std::thread::JoinHandle::join) {
                Some(Ok(answer)) => answer,
                Some(Err(_)) => Err("the sandbox probe's thread panicked".into()),
                None => Err("the sandbox was never probed".into()),
            }
        });
        answer.as_ref().map_err(|why| Error::Io {
            context: "cannot start the sandbox shim (the grader binary itself)".into(),
            source: std::io::Error::other(why.clone()),
        })
    }

    /// Counts a session as alive while the guard is held.
    pub fn live(&self) -> Live {
        self.live.fetch_add(1, Ordering::Relaxed);
        Live(self.live.clone(), None)
    }

    /// Starts the probe of the sandbox's layers on a thread of its own.
    pub(super) fn start_probe(
        &self,
    ) -> Result<std::thread::JoinHandle<Result<LayersInForce, String>>, Error> {
        let dir = self.scratch.path().join("probe");
        std::fs::create_dir_all(&dir)
            .map_err(Error::io("cannot create the sandbox probe's folder"))?;
        let lease = self.lease(0)?;
        let uid = lease.as_ref().map_or(FIRST_UID, UidLease::uid);
        let at = dir.with_extension("policy.json");
        let policy = self.policy(Vec::new(), dir, uid, self.session_limits(1));
        let accounting = self.cgroups.as_ref().ok().map(|c| c.describe());
        std::thread::Builder::new()
            .name("sandbox-probe".into())
            .spawn(move || {
                let _lease = lease;
                let mut layers = crate::contain::probe(&policy, &at).map_err(|e| e.to_string())?;
                // Each session leases a uid of its own from the pool: the
                // report names the pool by its first uid, the same in every
                // run, so that shards and an unsharded run of one class
                // report alike.
                layers.runs_as = layers.runs_as.map(|_| FIRST_UID);
                layers.accounting = accounting;
                Ok(layers)
            })
            .map_err(Error::io("cannot start a thread for the sandbox probe"))
    }
}
