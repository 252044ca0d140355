use super::*;
use proptest::strategy::Strategy;

fn fixture_store() -> PathBuf {
    crate::fixture_root().join(".store")
}

fn db_from(lines: &[u8]) -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("db_1")).unwrap();
    fs::write(dir.path().join("db_1/record.aof"), lines).unwrap();
    let db = Db::load(dir.path(), 1).unwrap();
    (dir, db)
}

#[test]
fn replays_the_fixture_as_toriidb_wrote_it() {
    let store = fixture_store();
    let now = 1_796_220_500;
    let db1 = Db::load(&store, 1).unwrap();
    assert_eq!(db1.report.malformed + db1.report.unknown_format, 0);
    assert!(!db1.report.torn_tail);
    assert_eq!(
        db1.session_keys("tui-alice", now),
        [
            "tui-alice:1764547200000000000",
            "tui-alice:1764547205000000000",
            "tui-alice:1764547300000000000",
            "tui-alice:1764547310000000000"
        ]
    );
    let counts = db1.counts_by_session(now);
    assert_eq!(counts["tui-alice-2"], 1);
    assert_eq!(counts["discord-9001"], 2);
    let v = db1.get("tui-alice:1764547200000000000").unwrap();
    assert_eq!(v.vector_f32().unwrap(), vec![0.6, 0.8, 0.0, 0.0]);
    assert_eq!(v.created_at, 1764547200);
    // mirror files are md5(key) as ToriiDB names them
    assert!(db1.mirror_path("tui-alice:1764547310000000000").exists());

    let db2 = Db::load(&store, 2).unwrap();
    let keys = db2.keys("*", now);
    assert_eq!(keys.len(), 2);
    assert_eq!(db2.get(&keys[0]).unwrap().expire_at, Some(4102444800));
}

#[test]
fn replay_applies_commands_in_order() {
    // a log ToriiDB itself wrote (docs/agenvoy-format.md#toriidb-log-lines)
    let (_d, db) = db_from(
        br#"{"ts":1796220044,"cmd":"SET","key":"cli-abc:1700000000000000001","value":"{\"role\":\"user\"}"}
{"ts":1796220044,"cmd":"SET","key":"cli-abc:1700000000000000002","value":"hello world"}
{"ts":1796220044,"cmd":"SET","key":"cli-abc/x:1","value":"slash"}
{"ts":1796220044,"cmd":"SET","key":"other:1","value":"42"}
{"ts":1796220044,"cmd":"DEL","key":"cli-abc:1700000000000000001"}
{"ts":1796220044,"cmd":"EXPIRE","key":"cli-abc:1700000000000000002","value":"3600","expire_at":1796223644}
{"ts":1796220044,"cmd":"EXPIREAT","key":"other:1","value":"1796227244","expire_at":1796227244}
{"ts":1796220044,"cmd":"PERSIST","key":"other:1"}
{"ts":1796220050,"cmd":"SET","key":"other:1","value":"43.5"}
"#,
    );
    let now = 1796220100;
    assert_eq!(
        db.keys("*", now),
        ["cli-abc:1700000000000000002", "other:1"]
    );
    assert_eq!(
        db.get("cli-abc:1700000000000000002").unwrap().expire_at,
        Some(1796223644)
    );
    let other = db.get("other:1").unwrap();
    assert_eq!((other.value.as_str(), other.expire_at), ("43.5", None));
    assert_eq!(
        (other.created_at, other.updated_at),
        (1796220044, Some(1796220050))
    );
    // expiry is expire_at <= now
    assert!(db.keys("cli-abc:*", 1796223644).is_empty());
    assert_eq!(db.keys("cli-abc:*", 1796223643).len(), 1);
}

#[test]
fn bad_vectors_skip_the_whole_set() {
    let (_d, db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"1\"}\n\
          {\"ts\":2,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"2\",\"vector\":\"AAA=\"}\n\
          {\"ts\":3,\"cmd\":\"SET\",\"key\":\"b\",\"value\":\"3\",\"vector\":\"!!\"}\n",
    );
    assert_eq!(db.get("a").unwrap().value, "1");
    assert!(db.get("b").is_none());
}

#[test]
fn torn_tail_is_isolated_by_the_next_append() {
    let (dir, mut db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"b\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"m:4\",\"value\":\"to",
    );
    assert!(db.report.torn_tail);
    assert_eq!(db.report.malformed, 1);
    assert_eq!(db.delete(&["s:1".to_string()], 10).unwrap(), 1);
    let again = Db::load(dir.path(), 1).unwrap();
    assert!(!again.report.torn_tail);
    assert_eq!(
        again.keys("*", 10),
        ["s:2"],
        "our DEL must survive the torn line"
    );
}

#[test]
fn a_complete_last_line_without_newline_is_applied_and_kept() {
    // Go's bufio.Scanner returns the unterminated last line: ToriiDB applies it
    let (dir, mut db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"b\"}",
    );
    assert_eq!(db.keys("*", 5), ["s:1", "s:2"]);
    assert!(!db.report.torn_tail, "a complete record is not a torn tail");
    assert!(db.report.unterminated_record);
    assert_eq!(db.report.malformed, 0);
    assert_eq!(db.end_last_line().unwrap(), TailRepair::Terminated);
    let path = dir.path().join("db_1/record.aof");
    assert!(fs::read(&path).unwrap().ends_with(b"\"b\"}\n"));
    assert_eq!(
        Db::load(dir.path(), 1).unwrap().keys("*", 5),
        ["s:1", "s:2"]
    );
    assert_eq!(db.end_last_line().unwrap(), TailRepair::None);
}

#[test]
fn a_cut_off_last_line_is_set_aside() {
    let (dir, mut db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n{\"ts\":1,\"cmd\":\"SE",
    );
    assert!(db.report.torn_tail && !db.report.unterminated_record);
    assert_eq!(db.end_last_line().unwrap(), TailRepair::Cut);
    let log = fs::read(dir.path().join("db_1/record.aof")).unwrap();
    assert!(log.ends_with(b"\"a\"}\n"));
    let torn = fs::read_dir(dir.path().join("db_1"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".torn"))
        .unwrap();
    assert_eq!(fs::read(torn).unwrap(), b"{\"ts\":1,\"cmd\":\"SE");
}

#[test]
fn expire_at_zero_is_an_expiry_that_survives_every_rewrite() {
    let (dir, mut db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"1\",\"expire_at\":0}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"b\",\"value\":\"1\",\"expire_at\":9}\n\
          {\"ts\":1,\"cmd\":\"EXPIREAT\",\"key\":\"b\",\"value\":\"0\",\"expire_at\":0}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"c\",\"value\":\"1\",\"expire_at\":9}\n\
          {\"ts\":1,\"cmd\":\"EXPIRE\",\"key\":\"c\",\"value\":\"5\"}\n",
    );
    // ToriiDB: a present 0 is expired at the epoch...
    assert_eq!(db.get("a").unwrap().expire_at, Some(0));
    assert_eq!(db.get("b").unwrap().expire_at, Some(0));
    // ...and an EXPIRE without expire_at sets it to nil: persistent
    assert_eq!(db.get("c").unwrap().expire_at, None);
    assert_eq!(db.keys("*", 5), ["c"]);
    assert!(db
        .get("a")
        .unwrap()
        .compacted_line("a")
        .ends_with(b",\"expire_at\":0}\n"));
    db.rewrite_readable().unwrap();
    let again = Db::load(dir.path(), 1).unwrap();
    assert_eq!(again.get("a").unwrap().expire_at, Some(0));
    assert_eq!(again.keys("*", 5), ["c"]);
}

#[test]
fn vectors_decode_as_go_and_are_stored_canonically() {
    let (_d, db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"pad\",\"value\":\"v\",\"vector\":\"AAAAAB==\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"crlf\",\"value\":\"v\",\"vector\":\"AACA\\r\\nPw==\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"nl\",\"value\":\"v\",\"vector\":\"\\n\"}\n",
    );
    // Go's StdEncoding ignores non-zero padding bits: [0,0,0,0] = 0.0
    assert_eq!(db.get("pad").unwrap().vector.as_deref(), Some("AAAAAA=="));
    // ...and skips '\r' and '\n': 00 00 80 3F = 1.0
    let crlf = db.get("crlf").unwrap();
    assert_eq!(crlf.vector.as_deref(), Some("AACAPw=="));
    assert_eq!(crlf.vector_f32().unwrap(), vec![1.0]);
    // a vector decoding to no bytes is no vector, the SET still applies
    assert_eq!(db.get("nl").unwrap().vector, None);
}

#[test]
fn delete_counts_like_toriidb_and_removes_mirrors() {
    let (dir, mut db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a\",\"value\":\"1\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"e\",\"value\":\"1\",\"expire_at\":5}\n",
    );
    let mirror = db.mirror_path("a");
    fs::create_dir_all(mirror.parent().unwrap()).unwrap();
    fs::write(&mirror, b"{}").unwrap();
    // expired-but-present counts; missing does not (Del(a, missing, e) = 2)
    let n = db
        .delete(&["a".into(), "missing".into(), "e".into()], 10)
        .unwrap();
    assert_eq!(n, 2);
    assert!(!mirror.exists());
    let text = fs::read_to_string(dir.path().join("db_1/record.aof")).unwrap();
    assert!(text.ends_with(
        "{\"ts\":10,\"cmd\":\"DEL\",\"key\":\"a\"}\n{\"ts\":10,\"cmd\":\"DEL\",\"key\":\"e\"}\n"
    ));
    assert!(Db::load(dir.path(), 1).unwrap().all().next().is_none());
}

#[test]
fn oversize_lines_are_reported_and_writes_leave_a_readable_log() {
    let big = "x".repeat(70_000);
    let mut log = Vec::new();
    log.extend_from_slice(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"a\"}\n");
    log.extend_from_slice(
        format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"big:1\",\"value\":\"{big}\"}}\n").as_bytes(),
    );
    log.extend_from_slice(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"b\"}\n");
    let (dir, mut db) = db_from(&log);
    assert_eq!(db.report.oversize.len(), 1);
    assert_eq!(db.report.oversize[0].0, 2);
    assert_eq!(db.keys("*", 5).len(), 3, "we load what ToriiDB cannot");
    db.delete(&["s:1".into()], 5).unwrap();
    let after = fs::read(dir.path().join("db_1/record.aof")).unwrap();
    assert!(after
        .split(|b| *b == b'\n')
        .all(|l| l.len() <= aof::MAX_LINE));
    let reloaded = Db::load(dir.path(), 1).unwrap();
    assert!(reloaded.report.oversize.is_empty());
    assert_eq!(reloaded.keys("*", 5), ["s:2"]);
    // the over-long entry and the original log are kept beside it
    let names: Vec<String> = fs::read_dir(dir.path().join("db_1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n.ends_with(".bak")), "{names:?}");
    let kept = names.iter().find(|n| n.ends_with(".oversize")).unwrap();
    assert!(fs::read_to_string(dir.path().join("db_1").join(kept))
        .unwrap()
        .contains(&big));
}

#[test]
fn unknown_format_blocks_writes_unless_forced() {
    let (_d, db) = db_from(b"{\"ts\":1,\"cmd\":\"HSET\",\"key\":\"a\"}\n{\"ts\":\"x\"}\n");
    assert_eq!(db.report.unknown_format, 2);
    assert_eq!(db.check_writable(false).unwrap_err().exit_code(), 65);
    db.check_writable(true).unwrap();
}

type State = std::collections::BTreeMap<String, Entry>;

fn state(db: &Db) -> State {
    db.all().map(|(k, e)| (k.to_owned(), e.clone())).collect()
}

fn replayed(log: &[u8], chunk: usize) -> Db {
    Db::replayed_from(log, chunk)
}

/// A random log line of the kinds the index must get right.
fn any_line() -> impl Strategy<Value = Vec<u8>> {
    let key = (0u8..12).prop_map(|k| format!("s:{k}"));
    let expire = proptest::option::of(proptest::prop_oneof![Just(0i64), 1i64..20]);
    proptest::prop_oneof![
        4 => (key.clone(), "[a-z\\\\\"\u{e9}\u{2028}]{0,20}", expire.clone(), 0u8..4)
            .prop_map(|(k, v, x, vec)| {
                let mut l = serde_json::json!({"ts": 7, "cmd": "SET", "key": k, "value": v});
                if let Some(x) = x { l["expire_at"] = x.into(); }
                // none, a good vector, a bad one (skips the SET), a Go-only one
                let vector = ["", "AACAPw==", "AAA=", "AAAAAB=="][vec as usize];
                if !vector.is_empty() { l["vector"] = vector.into(); }
                l.to_string().into_bytes()
            }),
        1 => key.clone().prop_map(|k| format!("{{\"ts\":8,\"cmd\":\"DEL\",\"key\":\"{k}\"}}").into_bytes()),
        1 => (key.clone(), expire).prop_map(|(k, x)| match x {
            Some(x) => format!("{{\"ts\":9,\"cmd\":\"EXPIREAT\",\"key\":\"{k}\",\"expire_at\":{x}}}"),
            None => format!("{{\"ts\":9,\"cmd\":\"EXPIRE\",\"key\":\"{k}\"}}"),
        }.into_bytes()),
        1 => key.clone().prop_map(|k| format!("{{\"ts\":9,\"cmd\":\"PERSIST\",\"key\":\"{k}\"}}").into_bytes()),
        // the same keys written with an escape or invalid UTF-8: a key the
        // parser had to decode (not borrow) must hash and compare as the
        // plain spelling of the same text does
        2 => (0u8..12, 0u8..4).prop_map(|(k, how)| match how {
            0 => format!("{{\"ts\":6,\"cmd\":\"SET\",\"key\":\"s\\u003a{k}\",\"value\":\"esc\"}}").into_bytes(),
            1 => format!("{{\"ts\":8,\"cmd\":\"DEL\",\"key\":\"s\\u003a{k}\"}}").into_bytes(),
            2 => [format!("{{\"ts\":6,\"cmd\":\"SET\",\"key\":\"s:{k}").as_bytes(), b"\xff", b"\",\"value\":\"bad\"}"].concat(),
            _ => format!("{{\"ts\":8,\"cmd\":\"DEL\",\"key\":\"s:{k}\u{fffd}\"}}").into_bytes(),
        }),
        // invalid UTF-8 in a value, decoded the Go way
        1 => key.clone().prop_map(|k| [format!("{{\"ts\":3,\"cmd\":\"SET\",\"key\":\"{k}\",\"value\":\"a").as_bytes(), b"\xff\xe2\x82", b"\"}"].concat()),
        // duplicate fields: the last wins, null leaves the value alone
        1 => key.clone().prop_map(|k| format!("{{\"cmd\":\"SET\",\"key\":\"{k}\",\"value\":\"first\",\"VALUE\":null,\"ts\":4}}").into_bytes()),
        // over 64 KiB: loaded by us, reported
        1 => key.clone().prop_map(|k| format!("{{\"ts\":5,\"cmd\":\"SET\",\"key\":\"{k}\",\"value\":\"{}\"}}", "x".repeat(70_000)).into_bytes()),
        1 => "[^\\n]{0,30}".prop_map(String::into_bytes),
        1 => Just(b"{\"ts\":1,\"cmd\":\"SET\",\"value\":42,\"key\":\"s:1\"}".to_vec()),
        1 => Just(Vec::new()),
    ]
}

use proptest::strategy::Just;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// The indexed reader replays to exactly the state the old
    /// decode-everything replay did: values, times, TTLs, vectors.
    #[test]
    fn index_replays_as_the_reference(
        lines in proptest::collection::vec(any_line(), 0..40),
        torn in proptest::option::of(0usize..30),
        crlf in proptest::bool::ANY,
        chunk in 1usize..300,
    ) {
        let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        let mut log = lines.join(eol);
        log.extend_from_slice(eol);
        if let Some(cut) = torn {
            // a torn last line: a prefix of a record, no newline
            log.extend_from_slice(&br#"{"ts":1,"cmd":"SET","key":"s:3","value":"torn"}"#[..cut]);
        }
        let want: State = reference::replay(&log).into_iter().collect();
        let db = replayed(&log, chunk);
        proptest::prop_assert_eq!(state(&db), want);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Keyword search's filtered replay (only keys whose last SET passes a
    /// test are indexed) finds exactly the live entries, values, TTLs and
    /// vectors a full replay's `live_where_raw` does, with the same report.
    #[test]
    fn filtered_replay_finds_what_the_full_replay_does(
        lines in proptest::collection::vec(any_line(), 0..40),
        chunk in 1usize..300,
        now in 0i64..25,
        needle in "[a-z1-9]",
    ) {
        let mut log = lines.join(&b"\n"[..]);
        log.push(b'\n');
        let keep = |line: &[u8]| line.windows(needle.len()).any(|w| w == needle.as_bytes());
        let found = |db: &Db, keep: &dyn Fn(&[u8]) -> bool| -> Vec<(String, String, Option<i64>, Option<String>)> {
            let mut v: Vec<_> = db
                .live_where_raw(now, keep)
                .unwrap()
                .into_iter()
                .map(|(k, e)| (k.to_owned(), e.value.clone(), e.expire_at, e.vector.clone()))
                .collect();
            v.sort();
            v
        };
        let full = replayed(&log, chunk);
        let filtered = Db::replayed_with(&log, chunk, Some(&keep));
        proptest::prop_assert_eq!(found(&filtered, &|_| true), found(&full, &keep));
        proptest::prop_assert_eq!(&filtered.report, &full.report);
    }
}

proptest::proptest! {
    /// Parsing in parallel chunks must not change what replay sees.
    #[test]
    fn chunked_replay_equals_one_pass(
        lines in proptest::collection::vec(
            proptest::prop_oneof![
                (0u8..20, "[a-z]{0,30}").prop_map(|(k, v)| format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:{k}\",\"value\":\"{v}\"}}")),
                (0u8..20).prop_map(|k| format!("{{\"ts\":2,\"cmd\":\"DEL\",\"key\":\"s:{k}\"}}")),
                "[^\\n]{0,40}",
                proptest::strategy::Just(String::new()),
            ],
            0..60,
        ),
        torn in proptest::bool::ANY,
        chunk in 1usize..200,
    ) {
        use proptest::prop_assert_eq;
        let mut log = lines.join("\n");
        if !torn {
            log.push('\n');
        }
        let one = replayed(log.as_bytes(), usize::MAX / 2);
        let many = replayed(log.as_bytes(), chunk);
        prop_assert_eq!(state(&one), state(&many));
        prop_assert_eq!(&one.report, &many.report);
    }
}

#[test]
fn session_keys_never_take_a_prefix_sibling() {
    let (_d, db) = db_from(
        b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"a:1\",\"value\":\"x\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"a-2:1\",\"value\":\"x\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"a:b:1\",\"value\":\"x\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"a:x/y\",\"value\":\"x\"}\n\
          {\"ts\":1,\"cmd\":\"SET\",\"key\":\"__torii:embed:a\",\"value\":\"x\"}\n",
    );
    assert_eq!(db.session_keys("a", 5), ["a:1"]);
    assert_eq!(db.session_keys("a:b", 5), ["a:b:1"]);
    // Agenvoy's glob would also take a:b:1; ours is the stricter subset
    let glob: Vec<String> = db.keys("a:*", 5);
    assert!(db.session_keys("a", 5).iter().all(|k| glob.contains(k)));
}

/// Test-only constructors: a Db replayed from bytes through a real file.
impl Db {
    /// Replay `log` (bytes) through a real file with chunks of
    /// `chunk_bytes`, as `load` does.
    pub(super) fn replayed_from(log: &[u8], chunk_bytes: usize) -> Db {
        Db::replayed_with(log, chunk_bytes, None)
    }

    /// `replayed_from`, replaying with `keep` as `scan_matching` does.
    pub(super) fn replayed_with(
        log: &[u8],
        chunk_bytes: usize,
        keep: Option<&replay::Keep<'_>>,
    ) -> Db {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.aof");
        fs::write(&path, log).unwrap();
        // the open file outlives its folder, as it outlives a rename
        let file = fs::File::open(&path).unwrap();
        let log = LogFile::new(Some(file), &path);
        let mut db = Db {
            index: 1,
            root: DataRoot::at(Path::new("/nonexistent")).unwrap(),
            dir: PathBuf::new(),
            log: LogFile::default(),
            entries: Slots::default(),
            report: ReplayReport::default(),
            resumed_at: 0,
            overlay: None,
        };
        db.replay(&log, chunk_bytes, keep).unwrap();
        db.log = log;
        db
    }
}

/// A data root with db1's log, loaded the way read commands load it but
/// keeping a snapshot of any log (no minimum size, no settling time).
struct Indexed {
    _dir: tempfile::TempDir,
    root: DataRoot,
}

impl Indexed {
    fn new() -> Indexed {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join(".store/db_1")).unwrap();
        let root = DataRoot::open(dir.path()).unwrap();
        Indexed { _dir: dir, root }
    }

    fn log(&self) -> PathBuf {
        self.root.store_dir().join("db_1/record.aof")
    }

    fn snapshot(&self) -> PathBuf {
        snapshot::path(&self.root, 1)
    }

    fn load(&self) -> Db {
        let policy = SnapshotPolicy {
            min_log: 0,
            settled_only: false,
            in_background: false,
        };
        Db::load_with(
            self.root.clone(),
            &self.root.store_dir(),
            1,
            None,
            Some(policy),
        )
        .unwrap()
    }

    fn full(&self) -> Db {
        Db::load_store(&self.root, 1).unwrap()
    }

    /// `Db::live_lines_resumed` of every key, at `now`.
    fn live_lines(&self, now: i64) -> Option<LiveLines> {
        let policy = SnapshotPolicy {
            min_log: 0,
            settled_only: false,
            in_background: false,
        };
        Db::live_lines_with(&self.root, 1, now, policy, |_| Some(0)).unwrap()
    }

    fn append(&self, bytes: &[u8]) {
        use std::io::Write;
        let mut f = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log())
            .unwrap();
        f.write_all(bytes).unwrap();
    }
}

/// What must be equal between an index resumed from a snapshot and a
/// full replay: every entry (decoded), the order keys are visited in,
/// and the report.
fn same_index(a: &Db, b: &Db) -> Result<(), String> {
    let order = |db: &Db| {
        db.entries
            .iter()
            .map(|(k, _)| k.to_owned())
            .collect::<Vec<_>>()
    };
    if state(a) != state(b) {
        return Err(format!("entries differ:\n{:?}\n{:?}", state(a), state(b)));
    }
    if order(a) != order(b) {
        return Err(format!("order differs:\n{:?}\n{:?}", order(a), order(b)));
    }
    if a.report != b.report {
        return Err(format!("reports differ:\n{:?}\n{:?}", a.report, b.report));
    }
    Ok(())
}

/// What happens to the log between two reads.
#[derive(Debug, Clone)]
enum LogChange {
    /// Lines appended; the last one possibly cut short (a torn write, or
    /// one still under way).
    Append(Vec<Vec<u8>>, Option<usize>),
    /// The rest of a line an `Append` cut short.
    Finish,
    /// ToriiDB's Close(): the live entries rewritten in some order into a
    /// new file renamed over the log, or the log deleted when none is
    /// left.
    Compact(u64),
    /// The same, written into the same file (same inode).
    CompactInPlace(u64),
    /// Cut short in place to this share (in 1/64ths) of its length.
    Truncate(u8),
    /// One byte changed in place.
    Flip(u16, u8),
    /// The snapshot damaged: one byte changed, or cut short.
    DamageSnapshot(u16, bool),
    /// Our own append: room reserved with newlines, a read in between,
    /// then the lines written over it in place (see `append`).
    ReserveFill(Vec<Vec<u8>>),
}

fn any_change() -> impl Strategy<Value = LogChange> {
    proptest::prop_oneof![
        8 => (proptest::collection::vec(any_line(), 0..8), proptest::option::of(0usize..60))
            .prop_map(|(l, cut)| LogChange::Append(l, cut)),
        2 => Just(LogChange::Finish),
        1 => (0u64..1000).prop_map(LogChange::Compact),
        1 => (0u64..1000).prop_map(LogChange::CompactInPlace),
        1 => (0u8..64).prop_map(LogChange::Truncate),
        1 => (0u16..u16::MAX, 1u8..=255).prop_map(|(at, x)| LogChange::Flip(at, x)),
        1 => (0u16..u16::MAX, proptest::bool::ANY).prop_map(|(at, cut)| LogChange::DamageSnapshot(at, cut)),
        2 => proptest::collection::vec(any_line(), 1..5).prop_map(LogChange::ReserveFill),
    ]
}

/// ToriiDB's compaction of `db`: one SET line per entry not expired at
/// `now`, in an order picked by `seed` (Go's map order is random).
fn compacted(db: &Db, now: i64, seed: u64) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = db
        .all()
        .filter(|(_, e)| !e.is_expired(now))
        .map(|(k, e)| e.compacted_line(k))
        .collect();
    let n = lines.len().max(1) as u64;
    for i in (1..lines.len()).rev() {
        let j =
            (seed.wrapping_mul(2654435761).wrapping_add(i as u64 * 40503) % n) as usize % (i + 1);
        lines.swap(i, j);
    }
    lines.concat()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// Whatever happens to the log between reads (appends, torn and
    /// finished lines, ToriiDB's rewrite, a cut, a byte changed in place,
    /// a damaged snapshot), the index a read resumes from its snapshot is
    /// the index a full replay builds.
    #[test]
    fn a_resumed_index_is_the_full_replay(
        changes in proptest::collection::vec(any_change(), 1..12),
    ) {
        let t = Indexed::new();
        let mut rest: Option<Vec<u8>> = None;
        for change in changes {
            match change {
                LogChange::Append(lines, cut) => {
                    let mut bytes: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
                    let torn = br#"{"ts":11,"cmd":"SET","key":"s:5","value":"late"}"#;
                    rest = None;
                    if let Some(cut) = cut.filter(|&c| c < torn.len()) {
                        bytes.extend_from_slice(&torn[..cut]);
                        let mut r = torn[cut..].to_vec();
                        r.push(b'\n');
                        rest = Some(r);
                    }
                    t.append(&bytes);
                }
                LogChange::Finish => {
                    if let Some(r) = rest.take() {
                        t.append(&r);
                    }
                }
                LogChange::Compact(seed) | LogChange::CompactInPlace(seed) => {
                    let bytes = compacted(&t.full(), 10, seed);
                    rest = None;
                    if bytes.is_empty() {
                        let _ = fs::remove_file(t.log());
                    } else if matches!(change, LogChange::Compact(_)) {
                        let tmp = t.log().with_extension("aof.tmp");
                        fs::write(&tmp, &bytes).unwrap();
                        fs::rename(&tmp, t.log()).unwrap();
                    } else {
                        fs::write(t.log(), &bytes).unwrap();
                    }
                }
                LogChange::Truncate(share) => {
                    if let Ok(f) = fs::OpenOptions::new().write(true).open(t.log()) {
                        let len = f.metadata().unwrap().len();
                        f.set_len(len * u64::from(share) / 64).unwrap();
                    }
                    rest = None;
                }
                LogChange::Flip(at, x) => {
                    if let Ok(mut bytes) = fs::read(t.log()) {
                        if !bytes.is_empty() {
                            let i = usize::from(at) % bytes.len();
                            bytes[i] ^= x;
                            use std::os::unix::fs::FileExt;
                            let f = fs::OpenOptions::new().write(true).open(t.log()).unwrap();
                            f.write_all_at(&bytes[i..=i], i as u64).unwrap();
                        }
                    }
                }
                LogChange::ReserveFill(lines) => {
                    let bytes: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
                    let lead = fs::read(t.log()).is_ok_and(|b| !b.is_empty() && !b.ends_with(b"\n"));
                    let start = fs::metadata(t.log()).map_or(0, |m| m.len()) + u64::from(lead);
                    let mut room = vec![b'\n'; bytes.len()];
                    if lead {
                        room.push(b'\n');
                    }
                    t.append(&room);
                    rest = None;
                    let between = t.load();
                    if let Err(why) = same_index(&between, &t.full()) {
                        return Err(proptest::test_runner::TestCaseError::fail(format!("reserved: {why}")));
                    }
                    use std::os::unix::fs::FileExt;
                    let f = fs::OpenOptions::new().write(true).open(t.log()).unwrap();
                    f.write_all_at(&bytes, start).unwrap();
                }
                LogChange::DamageSnapshot(at, cut) => {
                    if let Ok(mut bytes) = fs::read(t.snapshot()) {
                        let i = usize::from(at) % bytes.len();
                        if cut {
                            bytes.truncate(i);
                        } else {
                            bytes[i] ^= 0x40;
                        }
                        fs::write(t.snapshot(), &bytes).unwrap();
                    }
                }
            }
            let full = t.full();
            // a search's use of the snapshot written by the load before
            // this change: the lines appended since kept apart
            if let Some(found) = t.live_lines(15) {
                let mut got: Vec<(u64, u32)> = found.lines.iter().map(|l| (l.offset, l.len)).collect();
                got.sort();
                let mut want: Vec<(u64, u32)> = full
                    .live_keys(15)
                    .map(|(_, s)| s.at().unwrap())
                    .collect();
                want.sort();
                proptest::prop_assert_eq!(got, want, "live lines");
                proptest::prop_assert_eq!(&found.report, &full.report);
            }
            let indexed = t.load();
            if let Err(why) = same_index(&indexed, &full) {
                return Err(proptest::test_runner::TestCaseError::fail(why));
            }
            // and once more, from the snapshot this load wrote if the log
            // has a whole line that is not empty
            let again = t.load();
            if let Err(why) = same_index(&again, &full) {
                return Err(proptest::test_runner::TestCaseError::fail(format!("second load: {why}")));
            }
            let bytes = fs::read(t.log()).unwrap_or_default();
            let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(&bytes[..0], |i| &bytes[..i]);
            let content = whole.split(|&b| b == b'\n').any(|l| !l.is_empty() && l != b"\r");
            proptest::prop_assert_eq!(again.resumed_at() > 0, content);
        }
    }
}

#[test]
fn a_read_after_an_append_replays_only_the_appended_lines() {
    let t = Indexed::new();
    let line = |k: usize, v: &str| {
        format!("{{\"ts\":{k},\"cmd\":\"SET\",\"key\":\"s:{k}\",\"value\":\"{v}\"}}\n")
    };
    let first: String = (0..50).map(|k| line(k, "a")).collect();
    t.append(first.as_bytes());
    let db = t.load();
    assert_eq!(db.resumed_at(), 0);
    assert!(t.snapshot().exists(), "the first read writes the snapshot");
    // a torn line: never covered
    t.append(br#"{"ts":60,"cmd":"SET","key":"s:60","val"#);
    let db = t.load();
    assert_eq!(db.resumed_at(), first.len() as u64);
    assert!(db.report.torn_tail);
    // the write completes, and more follow
    t.append(b"ue\":\"b\"}\n");
    let more: String = (0..10).map(|k| line(k, "c")).collect();
    t.append(more.as_bytes());
    let db = t.load();
    assert_eq!(
        db.resumed_at(),
        first.len() as u64,
        "resumed where the whole lines ended"
    );
    assert_eq!(db.get("s:60").unwrap().value, "b");
    assert_eq!(db.get("s:3").unwrap().value, "c");
    assert!(same_index(&db, &t.full()).is_ok());
    // it rewrote the snapshot (what it replayed was over an eighth):
    // nothing is left to replay
    let total = fs::metadata(t.log()).unwrap().len();
    assert_eq!(t.load().resumed_at(), total);
}

#[test]
fn trailing_empty_lines_and_a_reserved_region_are_never_covered() {
    let t = Indexed::new();
    let line =
        |k: usize| format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:{k}\",\"value\":\"v\"}}\n");
    let head: String = (0..20).map(line).collect();
    t.append(head.as_bytes());
    // a writer reserved room for its lines with newlines, and fills them
    // in place after this read
    t.append(&[b'\n'; 64]);
    assert_eq!(t.load().resumed_at(), 0);
    let filled = "{\"ts\":2,\"cmd\":\"DEL\",\"key\":\"s:1\"}\n";
    use std::os::unix::fs::FileExt;
    let f = fs::OpenOptions::new().write(true).open(t.log()).unwrap();
    f.write_all_at(filled.as_bytes(), head.len() as u64)
        .unwrap();
    let db = t.load();
    assert_eq!(db.resumed_at(), head.len() as u64);
    assert!(!db.contains("s:1"));
    assert!(same_index(&db, &t.full()).is_ok());
}

#[test]
fn expiry_is_decided_when_read_not_when_snapshotted() {
    let t = Indexed::new();
    t.append(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:1\",\"value\":\"v\",\"expire_at\":100}\n{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:2\",\"value\":\"v\"}\n");
    t.load();
    t.append(b"{\"ts\":2,\"cmd\":\"SET\",\"key\":\"s:3\",\"value\":\"v\"}\n");
    let db = t.load();
    assert!(db.resumed_at() > 0);
    assert_eq!(db.keys("*", 99), ["s:1", "s:2", "s:3"]);
    assert_eq!(db.keys("*", 100), ["s:2", "s:3"]);
    assert_eq!(db.get("s:1").unwrap().expire_at, Some(100));
}

#[test]
fn a_big_log_is_checked_by_samples() {
    use std::os::unix::fs::FileExt;
    let t = Indexed::new();
    let line = |k: usize| {
        format!(
            "{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:{k}\",\"value\":\"{:0>80}\"}}\n",
            k
        )
    };
    let log: String = (0..60_000).map(line).collect();
    assert!(log.len() > 5 << 20);
    t.append(log.as_bytes());
    t.load();
    // a value's digit changed in place, inside a sampled block: noticed
    for at in [100, (1 << 20) + 100, log.len() - 1000] {
        let digit = log[at..].find(|c: char| c.is_ascii_digit()).unwrap() + at;
        let f = fs::OpenOptions::new().write(true).open(t.log()).unwrap();
        f.write_all_at(b"x", digit as u64).unwrap();
        let db = t.load();
        assert_eq!(db.resumed_at(), 0, "a change at {digit} went unnoticed");
        assert!(same_index(&db, &t.full()).is_ok());
        // put it back; the snapshot written meanwhile is for the changed
        // bytes, so that is noticed too
        f.write_all_at(&log.as_bytes()[digit..=digit], digit as u64)
            .unwrap();
        assert_eq!(t.load().resumed_at(), 0);
        assert!(t.load().resumed_at() > 0);
    }
    // The limit, stated: a change in place between samples, which neither
    // ToriiDB nor sessionctl ever makes, is not looked for.
    let between = (1 << 20) + (512 << 10);
    let f = fs::OpenOptions::new().write(true).open(t.log()).unwrap();
    let digit = log[between..].find(|c: char| c.is_ascii_digit()).unwrap() + between;
    f.write_all_at(b"x", digit as u64).unwrap();
    assert!(t.load().resumed_at() > 0);
}

/// A record on one of four keys, of every command (a SET with a bad vector
/// too), with expiries around the `now` the checks use (15).
fn any_record() -> impl Strategy<Value = Vec<u8>> {
    // two sessions, and a key of none
    let key = (0u8..5).prop_map(|k| match k {
        4 => "no-session".to_owned(),
        k => format!("s{}:{k}", k % 2),
    });
    let expire = proptest::option::of(10i64..20);
    proptest::prop_oneof![
        (key.clone(), expire.clone(), proptest::bool::ANY).prop_map(|(k, x, bad)| {
            let mut l = serde_json::json!({"ts": 7, "cmd": "SET", "key": k, "value": "v"});
            if let Some(x) = x {
                l["expire_at"] = x.into();
            }
            if bad {
                l["vector"] = "AAA=".into();
            }
            l.to_string().into_bytes()
        }),
        key.clone()
            .prop_map(|k| format!("{{\"ts\":8,\"cmd\":\"DEL\",\"key\":\"{k}\"}}").into_bytes()),
        (key.clone(), expire).prop_map(|(k, x)| match x {
            Some(x) =>
                format!("{{\"ts\":9,\"cmd\":\"EXPIREAT\",\"key\":\"{k}\",\"expire_at\":{x}}}"),
            None => format!("{{\"ts\":9,\"cmd\":\"EXPIRE\",\"key\":\"{k}\"}}"),
        }
        .into_bytes()),
        key.prop_map(|k| format!("{{\"ts\":9,\"cmd\":\"PERSIST\",\"key\":\"{k}\"}}").into_bytes()),
        Just(b"{\"ts\":9,\"cmd\":\"INCR\",\"key\":\"s:1\"}".to_vec()),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// What a search takes from a snapshot and the lines appended since
    /// (kept apart, the index not built) is what a full replay has live:
    /// every order of SET, DEL, EXPIRE, PERSIST on a few keys on either
    /// side of the snapshot.
    #[test]
    fn lines_kept_apart_resolve_as_the_replay_does(
        before in proptest::collection::vec(any_record(), 0..10),
        after in proptest::collection::vec(any_record(), 0..10),
        now in 9i64..21,
    ) {
        let t = Indexed::new();
        let lines = |l: &[Vec<u8>]| -> Vec<u8> { l.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect() };
        t.append(&lines(&before));
        t.append(b"{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:9\",\"value\":\"anchor\"}\n");
        t.load();
        t.append(&lines(&after));
        let full = t.full();
        let found = t.live_lines(now).expect("the snapshot matches");
        let mut got: Vec<(u64, u32)> = found.lines.iter().map(|l| (l.offset, l.len)).collect();
        got.sort();
        let mut want: Vec<(u64, u32)> = full.live_keys(now).map(|(_, s)| s.at().unwrap()).collect();
        want.sort();
        proptest::prop_assert_eq!(got, want);
        proptest::prop_assert_eq!(&found.report, &full.report);
        // and what sessions list takes from them
        let policy = SnapshotPolicy { min_log: 0, settled_only: false, in_background: false };
        let counted = Db::session_counts_with(&t.root, now, policy, false).unwrap().expect("the snapshot matches");
        let want: HashMap<String, u64> = full.counts_by_session(now).into_iter().map(|(k, n)| (k.to_owned(), n)).collect();
        proptest::prop_assert_eq!(counted.counts, want);
        proptest::prop_assert_eq!(counted.valid_until, full.counts_valid_until(now));
        proptest::prop_assert_eq!(&counted.report, &full.report);
    }
}

#[test]
fn counts_are_not_taken_from_a_snapshot_a_load_should_replace() {
    let t = Indexed::new();
    let policy = SnapshotPolicy {
        min_log: 0,
        settled_only: false,
        in_background: false,
    };
    let line =
        |k: usize| format!("{{\"ts\":1,\"cmd\":\"SET\",\"key\":\"s:{k}\",\"value\":\"v\"}}\n");
    let head: String = (0..80).map(line).collect();
    t.append(head.as_bytes());
    t.load();
    // a few lines since: counted from the snapshot
    t.append(line(80).as_bytes());
    let c = Db::session_counts_with(&t.root, 0, policy, true)
        .unwrap()
        .unwrap();
    assert_eq!(c.counts["s"], 81);
    // over an eighth of it since: a load replaces the snapshot instead
    let more: String = (81..100).map(line).collect();
    t.append(more.as_bytes());
    assert!(Db::session_counts_with(&t.root, 0, policy, true)
        .unwrap()
        .is_none());
    assert_eq!(t.load().resumed_at(), head.len() as u64);
    let c = Db::session_counts_with(&t.root, 0, policy, true)
        .unwrap()
        .unwrap();
    assert_eq!(c.counts["s"], 100);
}

#[test]
fn the_snapshot_keeps_extreme_times_and_keys_that_share_part_of_a_character() {
    let t = Indexed::new();
    let set = |key: &str, ts: i64, x: Option<i64>| {
        let mut l = serde_json::json!({"ts": ts, "cmd": "SET", "key": key, "value": "v"});
        if let Some(x) = x {
            l["expire_at"] = x.into();
        }
        format!("{l}\n")
    };
    let log = [
        set("s:\u{e9}t\u{e9}", i64::MAX, Some(i64::MIN)),
        // shares the first byte of "é" (0xc3 0xa9) with the key before
        set("s:\u{c0}", i64::MIN, Some(i64::MAX)),
        set("", 0, None),
        set("s:\u{e9}t\u{e9}", -5, None),
        set("\u{1f600}", i64::MAX, Some(0)),
        set("\u{1f600}x", i64::MIN + 1, None),
    ]
    .concat();
    t.append(log.as_bytes());
    t.load();
    let db = t.load();
    assert_eq!(db.resumed_at(), log.len() as u64);
    assert!(same_index(&db, &t.full()).is_ok());
    assert_eq!(db.get("s:\u{c0}").unwrap().created_at, i64::MIN);
}
