//! `history.json`: the session's recent user and final-assistant records.

use std::borrow::Cow;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::store::atomic;
use crate::store::layout::DataRoot;

/// One record as Agenvoy writes it. Unknown fields are kept so a rewrite
/// never drops data a newer Agenvoy added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub role: String,
    /// A string, or an array of parts (`{"type":"text","text":…}`, images).
    pub content: Value,
    /// Unix nanoseconds; Agenvoy omits it when 0.
    #[serde(rename = "sendAt", default, skip_serializing_if = "is_zero")]
    pub send_at: i64,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sender: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl Record {
    /// The record's local time as Agenvoy's summary cursor compares it;
    /// none without a sendAt.
    pub fn cursor_time(&self) -> Option<String> {
        (self.send_at != 0).then(|| crate::timefmt::local(crate::timefmt::from_nanos(self.send_at)))
    }

    pub fn is_user(&self) -> bool {
        self.role == "user"
    }
    pub fn is_assistant(&self) -> bool {
        self.role == "assistant"
    }

    /// The record's text as Agenvoy archives it: string content exactly as
    /// stored, a part array's text parts joined by newlines.
    ///
    /// Nothing is ever stripped. Legacy `sendAt: …, sender: …` prefix lines
    /// lived *outside* the JSON content in old plain-text history files; a
    /// content that starts with `sender:` is the user's own text, and
    /// cutting it would archive (and so lose) something else than what
    /// history.json held.
    pub fn text(&self) -> Cow<'_, str> {
        match &self.content {
            Value::String(s) => Cow::Borrowed(s),
            Value::Array(parts) => Cow::Owned(
                parts
                    .iter()
                    .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Value::Null => Cow::Borrowed(""),
            other => Cow::Owned(other.to_string()),
        }
    }
}

/// Parse history.json bytes. Anything but a JSON array of records is bad
/// data naming the file.
///
/// The derived `Record` parse goes through serde's buffering for the
/// flattened `extra` map: every field of every record is first copied
/// into a generic tree, then parsed from it. `Direct` reads the same
/// fields straight from the bytes; it accepts only records it reads
/// exactly as the derived parse does, and anything it refuses (a bad
/// file, a duplicate field) is parsed again the derived way, which gives
/// the result and its error message as they always were.
pub fn parse(bytes: &[u8], path: &Path) -> Result<Vec<Record>> {
    if let Ok(records) = serde_json::from_slice::<Vec<Direct>>(bytes) {
        return Ok(records.into_iter().map(|d| d.0).collect());
    }
    serde_json::from_slice::<Vec<Record>>(bytes).map_err(|e| {
        Error::data(path, format!("not a valid history file: {e}"))
            .with_hint("fix or move the file away; nothing was changed")
    })
}

/// Read history.json from `reader` one record at a time, handing each to
/// `each`: the records `parse` gives (the derived parse, which `Direct`
/// only speeds up) and the same error naming the file, but never more
/// than one record in memory — for a reader that looks at each once
/// (`check` of a million-record history).
pub fn for_each(reader: impl std::io::Read, path: &Path, each: impl FnMut(Record)) -> Result<()> {
    struct Each<F>(F);
    impl<'de, F: FnMut(Record)> serde::de::Visitor<'de> for Each<F> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            mut self,
            mut seq: A,
        ) -> std::result::Result<(), A::Error> {
            while let Some(r) = seq.next_element::<Record>()? {
                (self.0)(r);
            }
            Ok(())
        }
    }
    let bad = |e: serde_json::Error| {
        Error::data(path, format!("not a valid history file: {e}"))
            .with_hint("fix or move the file away; nothing was changed")
    };
    let reader = std::io::BufReader::with_capacity(1 << 16, reader);
    let mut de = serde_json::Deserializer::from_reader(reader);
    serde::Deserializer::deserialize_seq(&mut de, Each(each)).map_err(bad)?;
    de.end().map_err(bad)
}

/// A record read without serde's flatten buffering (see `parse`).
struct Direct(Record);

impl<'de> Deserialize<'de> for Direct {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_map(DirectVisitor)
    }
}

struct DirectVisitor;

impl<'de> serde::de::Visitor<'de> for DirectVisitor {
    type Value = Direct;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a history record")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Direct, A::Error> {
        use serde::de::Error as _;
        let (mut role, mut content, mut send_at, mut sender) = (None, None, None, None);
        let mut extra = Map::new();
        // Any field twice: refused, for the derived parse to decide.
        let twice = || A::Error::custom("a field appears twice");
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            match &*key {
                "role" if role.is_none() => role = Some(map.next_value::<String>()?),
                "content" if content.is_none() => content = Some(map.next_value::<Value>()?),
                "sendAt" if send_at.is_none() => send_at = Some(map.next_value::<i64>()?),
                "sender" if sender.is_none() => sender = Some(map.next_value::<String>()?),
                "role" | "content" | "sendAt" | "sender" => return Err(twice()),
                _ if extra.contains_key(&*key) => return Err(twice()),
                _ => {
                    let value = map.next_value::<Value>()?;
                    extra.insert(key.into_owned(), value);
                }
            }
        }
        Ok(Direct(Record {
            role: role.ok_or_else(|| A::Error::missing_field("role"))?,
            content: content.ok_or_else(|| A::Error::missing_field("content"))?,
            send_at: send_at.unwrap_or(0),
            sender: sender.unwrap_or_default(),
            extra,
        }))
    }
}

/// A field name, borrowed from the bytes when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a field name")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Serialise the way Agenvoy does (two-space indented array).
pub fn to_bytes(records: &[Record]) -> Vec<u8> {
    serde_json::to_vec_pretty(records).expect("records always serialise")
}

pub fn write(root: &DataRoot, path: &Path, records: &[Record]) -> Result<()> {
    atomic::write_atomic(root, path, &to_bytes(records))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_string_and_part_content_and_keeps_unknown_fields() {
        let raw = br#"[
          {"role":"user","content":"sendAt: 2025-01-01 00:00:00, sender: a\nhello","sendAt":5,"sender":"a","channelId":"c1"},
          {"role":"assistant","content":[{"type":"text","text":"one"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"two"}]}
        ]"#;
        let recs = parse(raw, Path::new("h.json")).unwrap();
        assert_eq!(
            recs[0].text(),
            "sendAt: 2025-01-01 00:00:00, sender: a\nhello",
            "content is never cut"
        );
        assert_eq!(recs[0].send_at, 5);
        assert_eq!(recs[1].text(), "one\ntwo");
        assert_eq!(recs[1].send_at, 0);
        let back = String::from_utf8(to_bytes(&recs)).unwrap();
        assert!(back.contains("\"channelId\": \"c1\""));
        assert!(
            !back.contains("\"sendAt\": 0"),
            "zero sendAt must be omitted"
        );
        assert!(
            !back.contains("\"sender\": \"\""),
            "empty sender must be omitted"
        );
        assert_eq!(parse(back.as_bytes(), Path::new("h.json")).unwrap(), recs);
    }

    proptest::proptest! {
        /// Whatever the file, the direct parse accepts only what the
        /// derived one reads, and reads it the same.
        #[test]
        fn the_direct_parse_agrees_with_the_derived_one(
            fields in proptest::collection::vec(proptest::collection::vec((
                proptest::prop_oneof![
                    proptest::strategy::Just("role"), proptest::strategy::Just("content"),
                    proptest::strategy::Just("sendAt"), proptest::strategy::Just("sender"),
                    proptest::strategy::Just("channelId"), proptest::strategy::Just("x\\u0041"),
                    proptest::strategy::Just("Role"),
                ],
                proptest::prop_oneof![
                    proptest::strategy::Just("\"user\""), proptest::strategy::Just("\"a\\n\\u00e9\""),
                    proptest::strategy::Just("5"), proptest::strategy::Just("-1.5"),
                    proptest::strategy::Just("null"), proptest::strategy::Just("[{\"type\":\"text\",\"text\":\"t\"}]"),
                    proptest::strategy::Just("{\"a\":1,\"a\":2}"), proptest::strategy::Just("18446744073709551615"),
                ],
            ), 0..6), 0..4),
        ) {
            let records: Vec<String> = fields
                .iter()
                .map(|r| {
                    let body: Vec<String> = r.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                    format!("{{{}}}", body.join(","))
                })
                .collect();
            let text = format!("[{}]", records.join(","));
            let derived = serde_json::from_slice::<Vec<Record>>(text.as_bytes());
            if let Ok(direct) = serde_json::from_slice::<Vec<Direct>>(text.as_bytes()) {
                let direct: Vec<Record> = direct.into_iter().map(|d| d.0).collect();
                // and in the same field order (a map's == ignores it)
                proptest::prop_assert_eq!(
                    Some(to_bytes(&direct)),
                    derived.as_ref().ok().map(|d| to_bytes(d)),
                    "{}", text
                );
                proptest::prop_assert_eq!(Some(direct), derived.ok(), "{}", text);
            }
        }
    }

    #[test]
    fn corrupt_or_wrongly_shaped_files_are_data_errors() {
        for bad in [
            &b"[{\"role\":"[..],
            b"{}",
            b"\xff\xfe",
            b"[{\"content\":\"x\"}]",
        ] {
            let err = parse(bad, Path::new("/r/sessions/s/history.json")).unwrap_err();
            assert_eq!(err.exit_code(), crate::error::exit::DATA);
            assert!(err.to_string().contains("history.json"));
        }
    }

    #[test]
    fn fixture_history_round_trips_byte_for_byte() {
        let path = crate::fixture_root().join("sessions/tui-alice/history.json");
        let bytes = std::fs::read(&path).unwrap();
        let recs = parse(&bytes, &path).unwrap();
        assert_eq!(recs.len(), 4);
        assert_eq!(to_bytes(&recs), bytes.strip_suffix(b"\n").unwrap_or(&bytes));
    }

    #[test]
    fn streaming_gives_what_parse_gives_and_the_same_errors() {
        let path = Path::new("history.json");
        let streamed = |bytes: &[u8]| {
            let mut out = Vec::new();
            for_each(bytes, path, |r| out.push(r)).map(|()| out)
        };
        for good in [
            &br#"[]"#[..],
            br#" [ {"role":"user","content":"hi","sendAt":5,"sender":"a","x":[1]} ,
                 {"role":"assistant","content":[{"type":"text","text":"yo"}],"role2":null} ] "#,
            br#"[{"role":"user","content":"\u00e9\n","sendAt":0}]"#,
        ] {
            assert_eq!(streamed(good).unwrap(), parse(good, path).unwrap());
        }
        for bad in [
            &br#"{"role":"user"}"#[..],
            br#"[{"role":"user"}]"#,
            br#"[{"role":"user","content":"a"},]"#,
            br#"[{"role":"user","content":"a","role":"x"}]"#,
            br#"[] x"#,
            br#"[{"role":"user","content":"a"}"#,
            b"",
        ] {
            let (a, b) = (streamed(bad).unwrap_err(), parse(bad, path).unwrap_err());
            assert_eq!(a.exit_code(), crate::error::exit::DATA);
            // the same message; serde_json's reader counts a column more
            // than its slice parser at times
            let what = |e: crate::Error| e.to_string().split(" column ").next().unwrap().to_owned();
            assert_eq!(what(a), what(b), "{}", String::from_utf8_lossy(bad));
        }
    }
}
