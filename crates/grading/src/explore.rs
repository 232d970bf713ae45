//! Exploring: generated cases where bugs hide, to be replayed against the
//! reference once a submission passes every test it may see. Every suite
//! is finite; these find what it misses.

pub mod draw;
