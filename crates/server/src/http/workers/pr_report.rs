//! The PR fields of a worker's report (`prNumber`, `prUrl`, `baseBranch`, `headBranch`,
//! `headSha`, `files`), checked into the report the PR rails record.

use crate::flows::prs::record::{PrFiles, PrReport};
use buildd_core::pull_request::PrFile;
use buildd_core::requests::workers::WorkerReport;
use buildd_core::FileStatus;
use serde_json::Value;

/// The statuses a worker reports a file with (of GitHub's, those a PR's own diff shows).
const FILE_STATUSES: [FileStatus; 4] = [
    FileStatus::Added,
    FileStatus::Modified,
    FileStatus::Removed,
    FileStatus::Renamed,
];

/// `files` as reported: the list, or `Err` naming what is wrong with it (the listing is then
/// "malformed"); `None` when it was not sent.
fn read_files(value: Option<&Value>) -> Option<Result<Vec<PrFile>, String>> {
    let value = value.filter(|v| !v.is_null())?;
    let Some(items) = value.as_array() else {
        return Some(Err("files must be an array".into()));
    };
    let mut files = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let field = |k: &str| item.get(k);
        let path = field("path")
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty());
        let status = field("status")
            .and_then(Value::as_str)
            .and_then(FileStatus::known)
            .filter(|s| FILE_STATUSES.contains(s));
        let count = |k: &str| match field(k) {
            None => Some(0),
            Some(v) => v.as_i64().filter(|n| *n >= 0),
        };
        let patch = match field("patch") {
            None | Some(Value::Null) => Some(None),
            Some(Value::String(p)) => Some(Some(p.clone())),
            Some(_) => None,
        };
        match (path, status, count("additions"), count("deletions"), patch) {
            (Some(path), Some(status), Some(additions), Some(deletions), Some(patch)) => files
                .push(PrFile {
                    path: path.into(),
                    status,
                    additions,
                    deletions,
                    patch,
                }),
            _ => return Some(Err(format!("files[{i}] is not a valid file entry"))),
        }
    }
    Some(Ok(files))
}

/// The PR a report names (`prNumber`), or the worker's own PR (`earlier`) when the report
/// moves its head: `headSha`, or the `lastCommitSha` Buildd's runner sends.
pub fn pr_report(report: &WorkerReport, earlier: Option<i64>) -> Option<PrReport> {
    let sha = report.head_sha().map(str::to_string);
    let number = match report.pr_number {
        Some(n) => n,
        None => earlier.filter(|_| sha.is_some())?,
    };
    Some(PrReport {
        number,
        url: report.pr_url.clone(),
        title: None,
        base: report.base_branch.clone(),
        head: report.head_branch.clone(),
        sha,
        files: match read_files(report.files.as_ref()) {
            None => PrFiles::Missing,
            Some(Ok(files)) => PrFiles::Listed(files),
            Some(Err(_)) => PrFiles::Malformed,
        },
    })
}
