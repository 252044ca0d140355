//! The word lists of the offline summarizer (lexicon.txt), parsed once.
//! Data, not code: the markers of each language live in one readable file.

use std::collections::HashMap;
use std::sync::LazyLock;

static LEXICON: LazyLock<HashMap<&'static str, Vec<&'static str>>> =
    LazyLock::new(|| parse(include_str!("lexicon.txt")));

fn parse(text: &'static str) -> HashMap<&'static str, Vec<&'static str>> {
    let mut out: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut section = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            assert!(!out.contains_key(name), "lexicon.txt: [{name}] twice");
            out.insert(name, Vec::new());
            section = Some(name);
            continue;
        }
        let name = section.expect("lexicon.txt: entries before the first [section]");
        let list = out.get_mut(name).expect("section was inserted");
        list.extend(line.split(" | ").map(str::trim).filter(|w| !w.is_empty()));
    }
    out
}

/// The entries of section `name` (a missing section is a bug: the tests of
/// every user exercise it).
pub fn words(name: &str) -> &'static [&'static str] {
    LEXICON
        .get(name)
        .unwrap_or_else(|| panic!("lexicon.txt has no [{name}]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_parses_and_ascii_entries_are_lower_case() {
        for (name, list) in LEXICON.iter() {
            assert!(!list.is_empty(), "[{name}] is empty");
            for w in list {
                assert_eq!(
                    *w,
                    w.to_lowercase(),
                    "[{name}] {w}: matching is on lower-cased text"
                );
            }
        }
        assert!(words("pending").contains(&"待定"));
    }
}
