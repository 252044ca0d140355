//! Tests that measure heap use exactly, with a counting global allocator:
//! apart from tests/it/ because the allocator is the whole binary's.

mod counting_alloc;

#[global_allocator]
static ALLOC: counting_alloc::Counting = counting_alloc::Counting;

mod check_memory;
mod errors_memory;
mod reset_memory;
mod torii_memory;
