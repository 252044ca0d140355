//! Whether a provider's error says the request did not fit the model's
//! context window: such an error is never retried as is.

/// Agenvoy's context-error matcher (docs/agenvoy-format.md#context-length-errors) plus the patterns it misses.
pub fn is_context_error(text: &str) -> bool {
    let t = text.to_lowercase();
    const NEEDLES: [&str; 16] = [
        "context_length_exceeded",
        "maximum context length",
        "prompt is too long",
        "exceeds the maximum number of tokens",
        "context window",
        "reduce the length of the messages",
        "too many tokens",
        "maximum context",
        "maximum prompt length",
        "max_tokens must be at least",
        "context length",
        "input size exceeds",
        "context limit",
        "maximum model length",
        "context size",
        "exceed_context_size_error",
    ];
    NEEDLES.iter().any(|n| t.contains(n)) || (t.contains("token count") && t.contains("exceeds"))
}
