//! `POST /api/workspaces` and `PATCH /api/workspaces/{id}`.

use super::missions::policy_refusal;
use super::{FieldError, Patch, Request};
use crate::enums::{AccessMode, DataClass};
use crate::merge_policy::check_merge_policy;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `POST /api/workspaces`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewWorkspace {
    #[serde(default)]
    pub name: Option<String>,
    /// `owner/name`, or a GitHub address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
}

impl Request for NewWorkspace {
    fn validate(&self) -> Result<(), FieldError> {
        self.name()?;
        self.repo()?;
        Ok(())
    }
}

impl NewWorkspace {
    pub fn name(&self) -> Result<String, FieldError> {
        match self.name.as_deref().map(str::trim) {
            Some(n) if !n.is_empty() => Ok(n.to_string()),
            _ => Err(FieldError::new("name", "name is required")),
        }
    }

    pub fn repo(&self) -> Result<Option<String>, FieldError> {
        match self.repo.as_deref() {
            Some(r) if !r.trim().is_empty() => normalize_repo("repo", r).map(Some),
            _ => Ok(None),
        }
    }
}

/// `PATCH /api/workspaces/{id}`: `gitConfig` merges key by key over what is stored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspacePatch {
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub name: Patch<String>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub repo: Patch<String>,
    /// Buildd's other name for `repo`.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub repo_url: Patch<String>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub default_branch: Patch<String>,
    /// Buildd's older name for `defaultBranch`.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub local_path: Patch<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_mode: Option<AccessMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_class: Option<DataClass>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub max_concurrent_tasks: Patch<i64>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub git_config: Patch<Map<String, Value>>,
}

impl Request for WorkspacePatch {
    fn validate(&self) -> Result<(), FieldError> {
        match &self.name {
            Patch::Absent => {}
            Patch::Value(n) if !n.trim().is_empty() => {}
            _ => return Err(FieldError::of("name", "must be a non-empty string")),
        }
        self.repo()?;
        if let Some(AccessMode::Other(_)) = &self.access_mode {
            return Err(FieldError::new(
                "accessMode",
                "accessMode must be \"open\" or \"restricted\"",
            ));
        }
        if let Some(DataClass::Other(_)) = &self.data_class {
            return Err(FieldError::new(
                "dataClass",
                "dataClass must be \"standard\" or \"sensitive\"",
            ));
        }
        match self.max_concurrent_tasks {
            Patch::Absent => {}
            Patch::Value(n) if n >= 1 => {}
            _ => {
                return Err(FieldError::of(
                    "maxConcurrentTasks",
                    "must be an integer >= 1",
                ))
            }
        }
        match &self.git_config {
            Patch::Null => Err(FieldError::of("gitConfig", "must be an object")),
            Patch::Value(config) => check_git_config(config),
            Patch::Absent => Ok(()),
        }
    }
}

impl WorkspacePatch {
    /// The repository change, from `repo` or `repoUrl`.
    pub fn repo(&self) -> Result<Patch<String>, FieldError> {
        Ok(match (&self.repo, &self.repo_url) {
            (Patch::Value(r), _) => Patch::Value(normalize_repo("repo", r)?),
            (_, Patch::Value(r)) => Patch::Value(normalize_repo("repoUrl", r)?),
            (Patch::Null, _) | (_, Patch::Null) => Patch::Null,
            _ => Patch::Absent,
        })
    }

    /// The default branch change, from `defaultBranch` or `localPath`.
    pub fn default_branch(&self) -> Patch<String> {
        match (&self.default_branch, &self.local_path) {
            (Patch::Absent, f) | (f, _) => f.clone(),
        }
    }
}

/// `owner/name`, also accepted as a GitHub address.
pub fn normalize_repo(key: &str, value: &str) -> Result<String, FieldError> {
    let trimmed = value
        .trim()
        .trim_start_matches("https://github.com/")
        .trim_end_matches(".git")
        .trim_end_matches('/');
    let mut parts = trimmed.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(owner), Some(name), None) if !owner.is_empty() && !name.is_empty() => {
            Ok(format!("{owner}/{name}"))
        }
        _ => Err(FieldError::new(
            key,
            format!("{key} must look like \"owner/name\" (got \"{value}\")"),
        )),
    }
}

/// A `gitConfig` patch: its switches are booleans, its paths strings, its `mergePolicy` a
/// valid policy; each named when it is not.
fn check_git_config(config: &Map<String, Value>) -> Result<(), FieldError> {
    let flag = |v: Option<&Value>, name: &str| match v {
        None | Some(Value::Bool(_)) => Ok(()),
        Some(_) => Err(FieldError::new(
            "gitConfig",
            format!("gitConfig.{name} must be true or false"),
        )),
    };
    flag(config.get("autoMergeOnGreenCI"), "autoMergeOnGreenCI")?;
    match config.get("policyConfig") {
        None => {}
        Some(Value::Object(p)) => flag(
            p.get("reviewerPatchEvidence"),
            "policyConfig.reviewerPatchEvidence",
        )?,
        Some(_) => {
            return Err(FieldError::new(
                "gitConfig",
                "gitConfig.policyConfig must be an object",
            ))
        }
    }
    for name in [
        "migrationsPath",
        "schemaFile",
        "targetBranch",
        "defaultBranch",
        "prodBranch",
    ] {
        if config
            .get(name)
            .is_some_and(|v| !v.is_string() && !v.is_null())
        {
            return Err(FieldError::new(
                "gitConfig",
                format!("gitConfig.{name} must be a string or null"),
            ));
        }
    }
    match config.get("mergePolicy") {
        None | Some(Value::Null) => Ok(()),
        Some(policy) => check_merge_policy(policy)
            .map(|_| ())
            .map_err(|errors| policy_refusal("gitConfig.mergePolicy", &errors)),
    }
}
