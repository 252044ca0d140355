//! What the command modules share and no command owns: turning
//! `SESSION…|--all` into targets, asking before a write, and the report
//! table of the commands that clear sessions. Command modules import this,
//! never each other.

pub mod clear;
pub mod targets;
pub mod windows;
