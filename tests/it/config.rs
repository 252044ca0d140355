//! The config file: where it is, what it may hold, and that flags beat the
//! environment, which beats the file, which beats the defaults.

use crate::common::*;

use std::path::Path;

/// The binary with nothing but HOME (and XDG_CONFIG_HOME when given) set.
fn bare(home: &Path, xdg: Option<&Path>) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("sessionctl").unwrap();
    cmd.env_clear().env("HOME", home).env("TZ", "UTC");
    if let Some(x) = xdg {
        cmd.env("XDG_CONFIG_HOME", x);
    }
    cmd
}

fn write_config(dir: &Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("sessionctl/config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// `config show --json` as key → (value, source).
fn settings(cmd: &mut assert_cmd::Command) -> serde_json::Map<String, serde_json::Value> {
    let v = json_of(&cmd.args(["config", "show", "--json"]).output().unwrap());
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let key = s["key"].as_str().unwrap().to_owned();
            (key, serde_json::json!([s["value"], s["source"]]))
        })
        .collect()
}

#[test]
fn flags_beat_env_beat_file_beat_defaults() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let (file_root, env_root, flag_root) = (h.join("a"), h.join("b"), h.join("c"));
    let s = settings(&mut bare(h, None));
    assert_eq!(s["root"][1], "default");
    assert_eq!(
        s["root"][0],
        h.join(".config/agenvoy").display().to_string()
    );
    assert_eq!(s["keep_last"], serde_json::json!([2, "default"]));
    assert_eq!(s["offline"], serde_json::json!([false, "default"]));

    write_config(
        &h.join(".config"),
        &format!(
            "root = {:?}\noffline = true\nkeep_last = 5\nembed_model = \"m-file\"\n",
            file_root.display().to_string()
        ),
    );
    let s = settings(&mut bare(h, None));
    assert_eq!(
        s["root"],
        serde_json::json!([file_root.display().to_string(), "file"])
    );
    assert_eq!(s["offline"], serde_json::json!([true, "file"]));
    assert_eq!(s["keep_last"], serde_json::json!([5, "file"]));
    assert_eq!(s["embed_model"], serde_json::json!(["m-file", "file"]));

    let mut env = bare(h, None);
    env.env("AGENVOY_HOME", &env_root)
        .env("SESSIONCTL_OFFLINE", "0")
        .env("SESSIONCTL_EMBED_MODEL", "m-env");
    let s = settings(&mut env);
    assert_eq!(
        s["root"],
        serde_json::json!([env_root.display().to_string(), "env"])
    );
    assert_eq!(
        s["offline"],
        serde_json::json!([false, "env"]),
        "env 0 beats file true"
    );
    assert_eq!(s["embed_model"], serde_json::json!(["m-env", "env"]));

    let mut flag = bare(h, None);
    flag.env("AGENVOY_HOME", &env_root)
        .arg("--root")
        .arg(&flag_root)
        .arg("--offline");
    let s = settings(&mut flag);
    assert_eq!(
        s["root"],
        serde_json::json!([flag_root.display().to_string(), "flag"])
    );
    assert_eq!(s["offline"], serde_json::json!([true, "flag"]));
}

#[test]
fn the_files_root_is_used_and_xdg_config_home_is_honoured() {
    let home = tempfile::tempdir().unwrap();
    let data = fixture_copy();
    let xdg = home.path().join("xdg");
    // a decoy under ~/.config: XDG_CONFIG_HOME wins
    write_config(&home.path().join(".config"), "root = \"/nonexistent\"\n");
    write_config(
        &xdg,
        &format!("root = {:?}\n", data.path().display().to_string()),
    );
    let out = bare(home.path(), Some(&xdg))
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_of(&out)["results"].as_array().unwrap().len(), 3);
}

#[test]
fn unknown_keys_and_bad_toml_fail_naming_the_file_and_change_nothing() {
    let home = tempfile::tempdir().unwrap();
    let data = fixture_copy();
    let before = snapshot(data.path());
    let path = write_config(
        &home.path().join(".config"),
        &format!(
            "root = {:?}\nkeep_lats = 3\n",
            data.path().display().to_string()
        ),
    );
    let out = bare(home.path(), None)
        .args(["compact", "--all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&path.display().to_string()) && err.contains("keep_lats"),
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.contains("error")).count(),
        1,
        "{err}"
    );

    std::fs::write(&path, "root = [unclosed\n").unwrap();
    let out = bare(home.path(), None)
        .args(["sessions", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&path.display().to_string()));
    assert!(
        snapshot(data.path()) == before,
        "nothing under the root changed"
    );
}
