//! The fields of an error record that listings show, decoded from the
//! stored value by borrowing: a string without escapes is a slice of the
//! value, not a copy, and every other field is checked and dropped as it
//! is read. A record is accepted or skipped exactly as a whole
//! `serde_json::Value` parse would accept or skip it: every value, listed
//! or not, goes through `deserialize_any` (so a number serde_json rejects,
//! nested anywhere, still rejects the record), and the last duplicate wins.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

#[derive(Debug, Default)]
pub(super) struct Fields<'a> {
    pub id: Cow<'a, str>,
    pub tool_name: Cow<'a, str>,
    pub keywords: Vec<Cow<'a, str>>,
    pub symptom: Cow<'a, str>,
    pub cause: Cow<'a, str>,
    pub action: Cow<'a, str>,
    pub outcome: Cow<'a, str>,
    /// `Value::as_i64` of the field: None when absent or not an integer
    /// that fits.
    pub timestamp: Option<i64>,
}

impl<'a> Fields<'a> {
    /// None when `value` is not a JSON object serde_json accepts.
    pub fn decode(value: &'a str) -> Option<Fields<'a>> {
        serde_json::from_str(value).ok()
    }
}

/// Any JSON value, kept only as far as a listed field needs it.
enum Any<'a> {
    Str(Cow<'a, str>),
    Int(Option<i64>),
    /// The strings of an array, in order (other elements are None).
    Seq(Vec<Option<Cow<'a, str>>>),
    Other,
}

impl<'a> Any<'a> {
    fn text(self) -> Cow<'a, str> {
        match self {
            Any::Str(s) => s,
            _ => Cow::Borrowed(""),
        }
    }

    fn strings(self) -> Vec<Cow<'a, str>> {
        match self {
            Any::Seq(v) => v.into_iter().flatten().collect(),
            _ => Vec::new(),
        }
    }

    fn int(self) -> Option<i64> {
        match self {
            Any::Int(i) => i,
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Any<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyVisitor)
    }
}

struct AnyVisitor;

impl<'de> Visitor<'de> for AnyVisitor {
    type Value = Any<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Any<'de>, E> {
        Ok(Any::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Any<'de>, E> {
        Ok(Any::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Any<'de>, E> {
        Ok(Any::Str(Cow::Owned(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Any<'de>, E> {
        Ok(Any::Int(Some(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Any<'de>, E> {
        Ok(Any::Int(i64::try_from(v).ok()))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Any<'de>, E> {
        Ok(Any::Other)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Any<'de>, E> {
        Ok(Any::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Any<'de>, E> {
        Ok(Any::Other)
    }
    fn visit_none<E: de::Error>(self) -> Result<Any<'de>, E> {
        Ok(Any::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Any<'de>, A::Error> {
        let mut out = Vec::new();
        while let Some(x) = seq.next_element::<Any<'de>>()? {
            out.push(match x {
                Any::Str(s) => Some(s),
                _ => None,
            });
        }
        Ok(Any::Seq(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Any<'de>, A::Error> {
        while map.next_entry::<Any<'de>, Any<'de>>()?.is_some() {}
        Ok(Any::Other)
    }
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an error record object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
                let mut l = Fields::default();
                while let Some(name) = map.next_key::<Cow<'de, str>>()? {
                    let v: Any<'de> = map.next_value()?;
                    match &*name {
                        "id" => l.id = v.text(),
                        "tool_name" => l.tool_name = v.text(),
                        "keywords" => l.keywords = v.strings(),
                        "symptom" => l.symptom = v.text(),
                        "cause" => l.cause = v.text(),
                        "action" => l.action = v.text(),
                        "outcome" => l.outcome = v.text(),
                        "timestamp" => l.timestamp = v.int(),
                        _ => {}
                    }
                }
                Ok(l)
            }
        }
        d.deserialize_map(V)
    }
}
