use super::*;

fn reasons(sql: &str) -> Vec<(Verdict, String)> {
    classify_sql(sql)
        .into_iter()
        .map(|v| (v.verdict, v.reason))
        .collect()
}

fn only(sql: &str) -> (Verdict, String) {
    let all = reasons(sql);
    assert_eq!(all.len(), 1, "{all:?}");
    all.into_iter().next().unwrap()
}

use Verdict::{Contract, Expand};

#[test]
fn additive_statements_are_expand() {
    for sql in [
        r#"CREATE TABLE "notes" ("id" text PRIMARY KEY NOT NULL, "body" text, "created_at" timestamp DEFAULT now() NOT NULL)"#,
        "CREATE UNIQUE INDEX IF NOT EXISTS notes_by_mission ON notes (mission_id, created_at)",
        "CREATE TYPE mode AS ENUM ('auto', 'manual')",
        "ALTER TYPE mode ADD VALUE IF NOT EXISTS 'paused'",
        "CREATE EXTENSION IF NOT EXISTS pgcrypto",
        "ALTER TABLE missions ALTER COLUMN status SET DEFAULT 'active'",
        "ALTER TABLE missions ALTER COLUMN status DROP DEFAULT",
        "ALTER TABLE missions ALTER COLUMN status DROP NOT NULL",
        "ALTER TABLE missions ADD COLUMN IF NOT EXISTS note text",
        r#"ALTER TABLE "missions" ADD COLUMN "enabled" boolean DEFAULT false NOT NULL"#,
        "ALTER TABLE tasks ADD CONSTRAINT tasks_mission_fk FOREIGN KEY (mission_id) REFERENCES missions(id)",
    ] {
        assert_eq!(only(sql).0, Expand, "{sql}: {:?}", only(sql));
    }
}

#[test]
fn destructive_statements_are_contract_and_named() {
    for (sql, reason) in [
        (
            r#"DROP TABLE IF EXISTS "secret_refs""#,
            "drops table secret_refs",
        ),
        (
            "DROP INDEX IF EXISTS notes_by_mission",
            "drops index notes_by_mission",
        ),
        (r#"DROP TYPE "public"."mode""#, "drops type public.mode"),
        (
            r#"ALTER TABLE "missions" DROP COLUMN "legacy_mode""#,
            "drops column missions.legacy_mode",
        ),
        (
            "ALTER TABLE tasks DROP CONSTRAINT tasks_source_uniq",
            "drops constraint tasks.tasks_source_uniq",
        ),
        (
            r#"ALTER TABLE "missions" RENAME COLUMN "old_name" TO "new_name""#,
            "renames column missions.old_name to new_name",
        ),
        (
            "ALTER TABLE missions RENAME TO objectives",
            "renames table missions to objectives",
        ),
        (
            r#"ALTER TABLE "missions" ALTER COLUMN "status" SET DATA TYPE varchar(40)"#,
            "changes type of missions.status",
        ),
        (
            "ALTER TABLE missions ALTER COLUMN status TYPE varchar(40)",
            "changes type of missions.status",
        ),
        (
            r#"ALTER TABLE "missions" ALTER COLUMN "enabled" SET NOT NULL"#,
            "adds NOT NULL constraint to existing column missions.enabled",
        ),
        (
            r#"ALTER TABLE "missions" ADD COLUMN "enabled" boolean NOT NULL"#,
            "adds NOT NULL column without default missions.enabled",
        ),
        (
            r#"UPDATE "workspace_skills" SET enabled = true WHERE enabled IS NULL"#,
            "runs data migration UPDATE on workspace_skills",
        ),
        (
            "DELETE FROM sessions WHERE expired",
            "runs data migration DELETE on sessions",
        ),
        (
            "INSERT INTO roles(name) VALUES ('admin')",
            "runs data migration INSERT on roles",
        ),
    ] {
        assert_eq!(only(sql), (Contract, reason.to_string()), "{sql}");
    }
}

#[test]
fn unparseable_and_procedural_sql_is_contract() {
    let (v, reason) = only("ALTER TABLE missions FROB the widget");
    assert_eq!(v, Contract);
    assert!(
        reason.starts_with("ambiguous migration statement: ALTER TABLE missions FROB"),
        "{reason}"
    );
    let function = "CREATE OR REPLACE FUNCTION touch() RETURNS trigger AS $$ BEGIN NEW.updated_at = now(); RETURN NEW; END; $$ LANGUAGE plpgsql;";
    let all = reasons(function);
    assert_eq!(
        all.len(),
        1,
        "a dollar-quoted body is one statement: {all:?}"
    );
    assert_eq!(all[0].0, Contract);
    assert_eq!(
        reasons(""),
        vec![(Contract, "migration contains no SQL statements".to_string())]
    );
}

#[test]
fn drizzle_files_split_on_breakpoints_and_unwrap_the_duplicate_guard() {
    let file = r#"
-- a leading comment
CREATE TABLE "a" ("id" text PRIMARY KEY);--> statement-breakpoint
/* block comment; with a semicolon */
DO $$ BEGIN
 ALTER TABLE "b" ADD CONSTRAINT "b_a_fk" FOREIGN KEY ("a_id") REFERENCES "a"("id");
EXCEPTION
 WHEN duplicate_object THEN null;
END $$;
--> statement-breakpoint
CREATE INDEX "b_by_a" ON "b" ("a_id");
"#;
    let all = reasons(file);
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(all.iter().all(|(v, _)| *v == Expand), "{all:?}");
    let other_do = "DO $$ DECLARE n int; BEGIN SELECT 1 INTO n; END $$;";
    assert_eq!(only(other_do).0, Contract);
    let wrapped_drop = r#"DO $$ BEGIN ALTER TABLE "tasks" DROP COLUMN "legacy"; EXCEPTION WHEN duplicate_object THEN null; END $$;"#;
    assert_eq!(
        only(wrapped_drop),
        (Contract, "drops column tasks.legacy".into())
    );
}

fn added(path: &str, sql: &str) -> PrFile {
    PrFile {
        path: path.into(),
        status: "added".into(),
        additions: sql.lines().count() as i64,
        deletions: 0,
        patch: Some(
            std::iter::once("@@ -0,0 +1 @@".to_string())
                .chain(sql.lines().map(|l| format!("+{l}")))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    }
}

#[test]
fn pull_request_rules() {
    let layout = MigrationLayout::default();
    let safe = added(
        "db/migrations/0094_notes.sql",
        "CREATE TABLE notes (id text);",
    );
    let drop = added(
        "db/migrations/0095_drop.sql",
        "ALTER TABLE missions DROP COLUMN legacy;",
    );
    let report = classify_pr_migrations(std::slice::from_ref(&safe), &layout, &[], Some(7));
    assert_eq!((report.verdict, report.reasons.len()), (Expand, 0));
    assert_eq!(report.files[0].statements[0].reason, "creates table notes");

    let mixed = classify_pr_migrations(&[safe.clone(), drop.clone()], &layout, &[], Some(7));
    assert_eq!(mixed.verdict, Contract);
    assert!(mixed.reasons[0].starts_with("PR mixes EXPAND and CONTRACT migrations"));
    assert!(mixed.reasons[0].ends_with("db/migrations/0095_drop.sql: drops column missions.legacy"));

    let edited = PrFile {
        status: "modified".into(),
        ..safe.clone()
    };
    let removed = PrFile {
        status: "removed".into(),
        patch: None,
        ..drop.clone()
    };
    let unreadable = PrFile {
        patch: None,
        ..added("migrations/0096_x.sql", "")
    };
    let schema_only = PrFile {
        path: "schema.sql".into(),
        status: "modified".into(),
        additions: 1,
        deletions: 0,
        patch: Some("+x".into()),
    };
    let r = classify_pr_migrations(&[edited, removed], &layout, &[], None);
    assert_eq!(
        r.reasons,
        [
            "modifies existing migration db/migrations/0094_notes.sql",
            "deletes migration db/migrations/0095_drop.sql"
        ]
    );
    let r = classify_pr_migrations(&[unreadable], &layout, &[], None);
    assert_eq!(
        r.reasons,
        ["could not inspect migration migrations/0096_x.sql"]
    );
    let r = classify_pr_migrations(&[schema_only], &layout, &[], None);
    assert_eq!(
        r.reasons,
        ["schema file schema.sql changed without a migration"]
    );

    let open = [OpenMigration {
        pr_number: 40,
        path: "db/migrations/0094_other.sql".into(),
    }];
    let r = classify_pr_migrations(std::slice::from_ref(&safe), &layout, &open, Some(42));
    assert_eq!(
        r.reasons,
        ["migration number collision: 0094_notes.sql conflicts with open PR #40 migration 0094_other.sql"]
    );
    let lower = classify_pr_migrations(std::slice::from_ref(&safe), &layout, &open, Some(39));
    assert_eq!(lower.verdict, Expand, "the other PR owns the collision");
    assert!(!layout.is_migration("db/migrations/meta/0094_snapshot.json"));
    assert_eq!(
        migration_number("db/migrations/0094_notes.sql").as_deref(),
        Some("0094")
    );
}
