//! The `buildd-server` command line, run as a person or a CI job would.

use std::process::Command;

fn server() -> Command {
    Command::new(env!("CARGO_BIN_EXE_buildd-server"))
}

#[test]
fn classify_migrations_prints_each_verdict_and_fails_on_contract() {
    let dir = tempfile::tempdir().unwrap();
    let safe = dir.path().join("0001_notes.sql");
    std::fs::write(
        &safe,
        "CREATE TABLE notes (id text);\nCREATE INDEX notes_id ON notes (id);\n",
    )
    .unwrap();
    let out = server()
        .arg("classify-migrations")
        .arg(&safe)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("EXPAND    creates table notes"), "{text}");
    assert!(text.contains("EXPAND    creates index notes_id"), "{text}");

    let risky = dir.path().join("0002_drop.sql");
    std::fs::write(&risky, "ALTER TABLE notes DROP COLUMN body;").unwrap();
    let out = server()
        .arg("classify-migrations")
        .arg(&safe)
        .arg(&risky)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("CONTRACT  drops column notes.body"), "{text}");

    let out = server()
        .arg("classify-migrations")
        .arg(dir.path().join("missing.sql"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("missing.sql"));
}

#[tokio::test]
async fn key_create_prints_the_key_and_stores_only_its_hash() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("keys.db");
    let out = server()
        .args([
            "key", "create", "--level", "worker", "--team", "Ops", "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = String::from_utf8(out.stdout).unwrap();
    assert!(
        key.trim().starts_with("bld_") && key.trim().len() == 68,
        "{key}"
    );
}
