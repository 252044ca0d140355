//! Times and durations as people read and type them.

use chrono::{DateTime, Local, TimeZone, Utc};

/// Parse `30d`, `12h`, `90m`, `45s`, `2w` into seconds.
pub fn parse_duration(s: &str) -> Result<i64, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("duration {s:?} needs a unit: s, m, h, d or w (e.g. 7d)"))?;
    let (num, unit) = s.split_at(split);
    let n: i64 = num
        .parse()
        .map_err(|_| format!("duration {s:?} must start with a number (e.g. 7d)"))?;
    let mult = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 604_800,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {s:?}: use s, m, h, d or w"
            ))
        }
    };
    n.checked_mul(mult)
        .ok_or_else(|| format!("duration {s:?} is too large"))
}

pub fn from_nanos(ns: i64) -> DateTime<Utc> {
    Utc.timestamp_nanos(ns)
}

pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Local time, as Agenvoy writes its cursor: `YYYY-MM-DD HH:MM:SS`.
pub fn local(t: DateTime<Utc>) -> String {
    t.with_timezone(&Local)
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("7d"), Ok(604_800));
        assert_eq!(parse_duration("90m"), Ok(5400));
        assert_eq!(parse_duration("2w"), Ok(1_209_600));
        assert!(parse_duration("7").is_err());
        assert!(parse_duration("d").is_err());
        assert!(parse_duration("3y").is_err());
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
