//! The pinned hash and the reference implementations of the course's
//! consistent-hashing challenges.
//!
//! [`challenges`] lists every challenge's [`ModelSpec`]: the grader knows a
//! challenge only through it.

pub mod hash;
pub mod hrw_top;
pub mod lanes;
pub mod mistakes;
pub mod model;
pub mod ranking;
pub mod rendezvous;
pub mod vnode_ring;
pub mod weighted_hrw;

pub use hash::h32;
pub use model::{Arg, Effect, Explanation, Kind, Model, ModelSpec, Op, Returns, Signature};

/// Every challenge with a reference, by id.
pub fn challenges() -> &'static [&'static ModelSpec] {
    static ALL: [&ModelSpec; 4] = [
        &hrw_top::SPEC,
        &rendezvous::SPEC,
        &vnode_ring::SPEC,
        &weighted_hrw::SPEC,
    ];
    &ALL
}

/// The reference of challenge `id`.
pub fn challenge(id: &str) -> Option<&'static ModelSpec> {
    challenges().iter().copied().find(|s| s.id == id)
}
