//! `MergeSwitches`: a workspace's merge settings as the form types them, read from and
//! written to its `gitConfig`, and the summary they read as.

use buildd_core::Workspace;
use serde_json::{json, Map, Value};

fn git(ws: &Workspace) -> Map<String, Value> {
    ws.git_config
        .as_ref()
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The merge switches as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeSwitches {
    pub auto_merge: bool,
    pub patch_evidence: bool,
    pub migrations_path: String,
    pub schema_file: String,
}

impl MergeSwitches {
    pub fn from(ws: &Workspace) -> Self {
        let git = git(ws);
        let text = |k: &str| {
            git.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        Self {
            auto_merge: git.get("autoMergeOnGreenCI").and_then(Value::as_bool) != Some(false),
            patch_evidence: git
                .get("policyConfig")
                .and_then(|p| p.get("reviewerPatchEvidence"))
                .and_then(Value::as_bool)
                == Some(true),
            migrations_path: text("migrationsPath"),
            schema_file: text("schemaFile"),
        }
    }

    /// The `gitConfig` keys this form owns; other `policyConfig` keys are kept.
    pub fn to_json(&self, ws: &Workspace) -> Value {
        let mut policy_config = git(ws)
            .get("policyConfig")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        policy_config.insert("reviewerPatchEvidence".into(), json!(self.patch_evidence));
        let path = |s: &str| {
            let s = s.trim();
            if s.is_empty() {
                Value::Null
            } else {
                json!(s)
            }
        };
        json!({
            "autoMergeOnGreenCI": self.auto_merge,
            "policyConfig": policy_config,
            "migrationsPath": path(&self.migrations_path),
            "schemaFile": path(&self.schema_file),
        })
    }
}

/// The summary's lines.
pub fn summary(now: &MergeSwitches) -> [String; 3] {
    let on_off = |b: bool| if b { "on" } else { "off" };
    [
        format!("Auto-merge on green CI: {}", on_off(now.auto_merge)),
        format!(
            "The reviewer sees {}",
            if now.patch_evidence {
                "the patch, with added lines numbered"
            } else {
                "the changed files' names"
            }
        ),
        format!(
            "Migrations in {} · schema file {}",
            if now.migrations_path.is_empty() {
                "migrations/"
            } else {
                &now.migrations_path
            },
            if now.schema_file.is_empty() {
                "schema.sql"
            } else {
                &now.schema_file
            },
        ),
    ]
}
