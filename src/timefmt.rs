//! Times and durations as people read and type them.

use chrono::{DateTime, Local, TimeZone, Utc};

/// Seconds in each unit a duration may use. A month is 30 days and a year
/// 365 days, as `age()` prints them. A bare `m` is refused: it reads as
/// minutes to some and as months to others (restic), and `--idle-for 6m`
/// deleting nearly everything is not a mistake to allow.
const UNITS: [(&str, i64); 7] = [
    ("s", 1),
    ("min", 60),
    ("h", 3_600),
    ("d", 86_400),
    ("w", 604_800),
    ("mo", 2_592_000),
    ("y", 31_536_000),
];

const UNIT_HELP: &str = "units: s, min, h, d, w, mo, y (e.g. 45min, 7d, 1y6mo)";

/// Parse a duration such as `7d`, `12h`, `90min`, `2w`, `6mo`, `1y6mo` or
/// `2h30min` into seconds.
pub fn parse_duration(s: &str) -> Result<i64, String> {
    let text = s.trim();
    if text.is_empty() {
        return Err(format!("empty duration; {UNIT_HELP}"));
    }
    let mut rest = text;
    let mut total: i64 = 0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return Err(format!(
                "duration {text:?} must start with a number; {UNIT_HELP}"
            ));
        }
        let n: i64 = rest[..digits]
            .parse()
            .map_err(|_| format!("duration {text:?} is too large"))?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let mult = match UNITS.iter().find(|(u, _)| *u == unit) {
            Some((_, m)) => *m,
            None if unit.is_empty() => {
                return Err(format!("duration {text:?} needs a unit; {UNIT_HELP}"))
            }
            None if unit == "m" => {
                return Err(format!(
                    "{text:?}: `m` is ambiguous; write `min` for minutes or `mo` for months"
                ))
            }
            None => return Err(format!("unknown unit {unit:?} in {text:?}; {UNIT_HELP}")),
        };
        total = n
            .checked_mul(mult)
            .and_then(|x| total.checked_add(x))
            .ok_or_else(|| format!("duration {text:?} is too large"))?;
    }
    Ok(total)
}

/// Parse a date (`2025-10-01`, local midnight) or an RFC 3339 time.
pub fn parse_date(s: &str) -> Result<DateTime<Utc>, String> {
    let text = s.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t.with_timezone(&Utc));
    }
    let day = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| {
        format!("{text:?} is not a date: use YYYY-MM-DD or an RFC 3339 time (2025-10-01T12:00:00Z)")
    })?;
    let midnight = day.and_hms_opt(0, 0, 0).expect("midnight exists");
    Local
        .from_local_datetime(&midnight)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(|| format!("{text:?}: local midnight does not exist on that day"))
}

/// A point in time on the command line: an age counted back from now, or a
/// fixed date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeBound {
    Ago(i64),
    At(DateTime<Utc>),
}

impl TimeBound {
    pub fn cutoff(self, now: DateTime<Utc>) -> DateTime<Utc> {
        match self {
            // an age past chrono's range (`1000000000d`) is before any
            // time there is: saturate rather than panic
            TimeBound::Ago(secs) => chrono::Duration::try_seconds(secs)
                .and_then(|d| now.checked_sub_signed(d))
                .unwrap_or(DateTime::<Utc>::MIN_UTC),
            TimeBound::At(t) => t,
        }
    }
}

/// A duration (`30d`) or a date (`2025-10-01`).
pub fn parse_bound(s: &str) -> Result<TimeBound, String> {
    let text = s.trim();
    if text.len() >= 10 && text.as_bytes()[4] == b'-' {
        return parse_date(text).map(TimeBound::At);
    }
    parse_duration(text).map(TimeBound::Ago)
}

/// "Now" for the times and ages a command shows. Test builds (the `testing` feature) take
/// `SESSIONCTL_NOW` (RFC 3339) so snapshot tests of tables stay stable as
/// the fixture ages; what users build always uses the clock.
pub fn now() -> DateTime<Utc> {
    #[cfg(feature = "testing")]
    if let Some(t) = std::env::var("SESSIONCTL_NOW")
        .ok()
        .and_then(|v| DateTime::parse_from_rfc3339(&v).ok())
    {
        return t.with_timezone(&Utc);
    }
    Utc::now()
}

/// `now()` in Unix seconds (ToriiDB's expiry times are these).
pub fn now_unix() -> i64 {
    now().timestamp()
}

/// The wall clock in Unix nanoseconds as the kernel stamps files with it:
/// to tell whether a file changed in the last seconds (caches remember only
/// files that settled). Never the test clock, which has nothing to do with
/// the mtimes the kernel writes.
pub fn file_clock_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

pub fn from_nanos(ns: i64) -> DateTime<Utc> {
    Utc.timestamp_nanos(ns)
}

pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Local time, as Agenvoy writes its cursor: `YYYY-MM-DD HH:MM:SS`.
pub fn local(t: DateTime<Utc>) -> String {
    let mut out = String::with_capacity(19);
    write_local(&mut out, t);
    out
}

/// `local`, appended to `out`. Written field by field: chrono's `format`
/// parses its pattern on every call, and token counts write one of these
/// per record of a big history. Years outside 0–9999 (which `%Y` writes
/// with a sign) take chrono's own formatting.
pub fn write_local(out: &mut String, t: DateTime<Utc>) {
    use chrono::{Datelike, Timelike};
    use std::fmt::Write;
    let t = t.with_timezone(&Local);
    let _ = if (0..=9999).contains(&t.year()) {
        write!(
            out,
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            t.year(),
            t.month(),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        )
    } else {
        write!(out, "{}", t.format("%Y-%m-%d %H:%M:%S"))
    };
}

/// `3h ago`, `5d ago`, `just now`, `in 2d`.
pub fn age(t: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let secs = (now - t).num_seconds();
    let (abs, future) = (secs.unsigned_abs(), secs < 0);
    let text = match abs {
        0..=59 => return "just now".into(),
        60..=3599 => format!("{}m", abs / 60),
        3600..=86_399 => format!("{}h", abs / 3600),
        86_400..=5_183_999 => format!("{}d", abs / 86_400),
        5_184_000..=63_071_999 => format!("{}mo", abs / 2_592_000),
        _ => format!("{}y", abs / 31_536_000),
    };
    if future {
        format!("in {text}")
    } else {
        format!("{text} ago")
    }
}

/// Serde: an optional time as RFC 3339 (null when absent).
pub fn ser_time<S: serde::Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(&rfc3339(*t)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_writes_what_chronos_format_writes() {
        for secs in [
            0,
            -1,
            1_760_000_021,
            951_782_400,
            -62_135_596_800, // 0001-01-01
            253_402_300_799, // 9999-12-31 23:59:59
            253_402_300_800, // 10000-01-01: chrono writes a sign
            -62_198_755_200, // year -1
        ] {
            let t = Utc.timestamp_opt(secs, 0).unwrap();
            let chrono = t
                .with_timezone(&Local)
                .format("%Y-%m-%d %H:%M:%S")
                .to_string();
            assert_eq!(local(t), chrono, "{secs}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("7d"), Ok(604_800));
        assert_eq!(parse_duration("90min"), Ok(5400));
        assert_eq!(parse_duration("2w"), Ok(1_209_600));
        assert_eq!(parse_duration("6mo"), Ok(6 * 2_592_000));
        assert_eq!(parse_duration("1y6mo"), Ok(31_536_000 + 6 * 2_592_000));
        assert_eq!(parse_duration("2h30min"), Ok(9000));
        assert!(parse_duration("7").is_err());
        assert!(parse_duration("d").is_err());
        assert!(parse_duration("").is_err());
        assert!(parse_duration("3x").is_err());
        let m = parse_duration("6m").unwrap_err();
        assert!(m.contains("min") && m.contains("mo"), "{m}");
        assert!(parse_duration("99999999999999y").is_err());
    }

    #[test]
    fn dates_and_bounds() {
        let t = parse_date("2025-10-01T12:00:00Z").unwrap();
        assert_eq!(rfc3339(t), "2025-10-01T12:00:00Z");
        assert!(parse_date("2025-13-01").is_err());
        assert_eq!(parse_bound("30d"), Ok(TimeBound::Ago(30 * 86_400)));
        assert!(matches!(parse_bound("2025-10-01"), Ok(TimeBound::At(_))));
        let now = Utc.timestamp_opt(1_000_000, 0).unwrap();
        assert_eq!(TimeBound::Ago(10).cutoff(now).timestamp(), 999_990);
    }

    #[test]
    fn ages() {
        let now = Utc.timestamp_opt(1_000_000, 0).unwrap();
        let at = |s| Utc.timestamp_opt(s, 0).unwrap();
        assert_eq!(age(at(1_000_000 - 10), now), "just now");
        assert_eq!(age(at(1_000_000 - 3 * 3600), now), "3h ago");
        assert_eq!(age(at(1_000_000 - 5 * 86_400), now), "5d ago");
        assert_eq!(age(at(1_000_000 + 2 * 86_400), now), "in 2d");
    }
}
