//! rendezvous-grader
