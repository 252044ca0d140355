//! The integration tests, in one binary (as ripgrep's tests/tests.rs and
//! jj's cli/tests/runner.rs): each file links the whole crate once instead
//! of once per file. The allocation-counting tests, which need their own
//! global allocator, are the other binary, tests/memory/.

mod common;
mod terminal;
mod undo_support;

mod audit;
mod bad_input;
mod batch;
mod bundle;
mod check;
mod check_repair;
mod compact;
mod compact_parallel;
mod compact_preimage;
mod compact_props;
mod completions;
mod config;
mod context_windows;
mod crash;
mod cron;
mod daemon;
mod docs;
mod errors;
mod for_model;
mod fuzz;
mod generated;
mod hints;
mod input;
mod json_doc;
mod layers;
mod leftovers;
mod limits;
mod offline;
mod paths;
mod plan_apply;
mod read_commands;
mod readonly;
mod reset_remove;
mod restore_guard;
mod restore_io;
mod restore_paths;
mod row_cache;
mod running;
mod search;
mod show_summary;
mod store_reuse;
mod summarize;
mod summarize_batch;
mod summarize_cursor;
mod summarize_runtime;
mod summary_eval;
mod tables;
mod tokens;
mod tokens_bpe;
mod torii_index;
mod torii_safety;
mod trash_prune;
mod undo;
mod undo_audit;
mod undo_props;
mod undo_redo;
mod undo_review;
mod view;
