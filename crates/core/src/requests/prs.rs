//! Pull requests: a worker opens one (`POST /api/github/pr`), CI reports a check run on it
//! (`POST /api/prs/{number}/checks`), a person or agent merges it
//! (`POST /api/prs/{number}/merge`).

use super::{FieldError, Request};
use crate::{CheckConclusion, CheckStatus};
use serde::{Deserialize, Serialize};

/// `POST /api/github/pr`: the PR a worker's branch opened.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenPr {
    #[serde(default)]
    pub worker_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<bool>,
    /// Where the PR already is, `…/pull/<number>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_url: Option<String>,
}

impl Request for OpenPr {
    fn validate(&self) -> Result<(), FieldError> {
        self.worker_id()?;
        self.title_and_head()?;
        self.number()?;
        Ok(())
    }
}

impl OpenPr {
    pub fn worker_id(&self) -> Result<String, FieldError> {
        non_blank(&self.worker_id).ok_or_else(|| FieldError::new("workerId", "workerId required"))
    }

    pub fn title_and_head(&self) -> Result<(String, String), FieldError> {
        match (non_blank(&self.title), non_blank(&self.head)) {
            (Some(t), Some(h)) => Ok((t, h)),
            (t, _) => Err(FieldError::new(
                if t.is_none() { "title" } else { "head" },
                "title and head branch required",
            )),
        }
    }

    pub fn base(&self) -> Option<String> {
        non_blank(&self.base)
    }

    pub fn url(&self) -> Option<String> {
        non_blank(&self.pr_url)
    }

    /// The number in `prUrl`, when given.
    pub fn number(&self) -> Result<Option<i64>, FieldError> {
        match self.url() {
            Some(url) => pr_number_in(&url).map(Some).ok_or_else(|| {
                FieldError::new(
                    "prUrl",
                    "prUrl must be a pull request's address, ending in /pull/<number>",
                )
            }),
            None => Ok(None),
        }
    }
}

/// The number in a PR address `…/pull/<n>`.
pub fn pr_number_in(url: &str) -> Option<i64> {
    let (_, rest) = url.rsplit_once("/pull/")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|n| *n > 0)
}

/// `POST /api/prs/{number}/checks`: a CI check run (GitHub's check_run fields).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckRunReport {
    #[serde(default)]
    pub workspace_id: Option<String>,
    #[serde(default)]
    pub head_sha: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// `queued`, `in_progress` or `completed`.
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<CheckConclusion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details_url: Option<String>,
}

impl Request for CheckRunReport {
    fn validate(&self) -> Result<(), FieldError> {
        let status = required(&self.head_sha, "headSha")
            .and_then(|_| required(&self.name, "name"))
            .and_then(|_| required(&self.status, "status"))?;
        let Some(status) = CheckStatus::known(&status) else {
            return Err(FieldError::new(
                "status",
                format!("status must be one of: {}", CheckStatus::list()),
            ));
        };
        match (&self.conclusion, status) {
            (Some(c), _) if !CheckConclusion::REPORTABLE.contains(c) => {
                let names: Vec<&str> = CheckConclusion::REPORTABLE
                    .iter()
                    .map(CheckConclusion::as_str)
                    .collect();
                Err(FieldError::new(
                    "conclusion",
                    format!("conclusion must be one of: {}", names.join(", ")),
                ))
            }
            (None, CheckStatus::Completed) => Err(FieldError::new(
                "conclusion",
                "conclusion is required when status is completed",
            )),
            (Some(_), s) if s != CheckStatus::Completed => Err(FieldError::new(
                "conclusion",
                "conclusion is given only when status is completed",
            )),
            _ => Ok(()),
        }?;
        if self
            .details_url
            .as_deref()
            .is_some_and(|u| !crate::markdown::is_web_address(u))
        {
            return Err(FieldError::new(
                "detailsUrl",
                "detailsUrl must be an http:// or https:// address",
            ));
        }
        Ok(())
    }
}

/// `POST /api/prs/{number}/merge`: the workspace names which repository's PR it is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MergePr {
    #[serde(default)]
    pub workspace_id: Option<String>,
}

impl Request for MergePr {}

impl MergePr {
    pub fn new(workspace_id: &str) -> Self {
        Self {
            workspace_id: Some(workspace_id.into()),
        }
    }
}

/// A PR's workspace, required where a PR is named by its number.
pub fn workspace_of(workspace_id: &Option<String>) -> Result<String, FieldError> {
    required(workspace_id, "workspaceId")
}

fn non_blank(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

fn required(value: &Option<String>, field: &str) -> Result<String, FieldError> {
    non_blank(value).ok_or_else(|| FieldError::new(field, format!("{field} is required")))
}

/// `PUT /api/github/pr`: Buildd's merge for an API key (its MCP `merge_pr`), the PR named by
/// number within the workspace. Buildd applies no merge policy there: the dashboard judges
/// the merge first (`hosted_merge`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MergeOnBuildd {
    pub pr_number: i64,
    pub workspace_id: String,
}

impl Request for MergeOnBuildd {}

/// Buildd's answer to a merge: merged or not, in its words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuilddMerged {
    #[serde(default)]
    pub ok: bool,
    #[serde(default)]
    pub merged: bool,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict_retry_dispatched: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict_exhausted: Option<bool>,
}
