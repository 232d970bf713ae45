//! The pinned hash and the reference implementations of the course's
//! consistent-hashing challenges.
//!
//! [`challenges`] lists every challenge's [`ModelSpec`]: the grader knows a
//! challenge only through it.
//!
//! The modules import one another one way only (`tests/layout.rs` holds
//! it): the [`hash`], the operations ([`operation`]) and the explanations
//! ([`explanation`]) at the bottom, then the [`Model`] trait, the ranking
//! two challenges share, the known mistakes ([`mistakes`]), a challenge's
//! [`spec`] that ties them together, and on top one module per challenge.

pub mod explanation;
pub mod hash;
pub mod hrw_top;
pub mod lanes;
pub mod mistakes;
pub mod model;
pub mod operation;
mod ranking;
pub mod rendezvous;
pub mod spec;
pub mod text;
pub mod vnode_ring;
pub mod weighted_hrw;

pub use explanation::Explanation;
pub use hash::h32;
pub use model::Model;
pub use operation::{Arg, Effect, Kind, Op, Returns, Signature};
pub use spec::ModelSpec;
pub use text::{Syntax, Text};

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
