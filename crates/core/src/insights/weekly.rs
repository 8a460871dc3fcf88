//! The team's weeks: per ISO week (UTC) and per workspace, the deliverables merged, tasks
//! failed and retried, the median time from claim to merge and from PR to merge (the review
//! wait), what a merged deliverable cost and the spend by mission. Weeks run without gaps
//! from the first to the last with any activity, and every week lists every workspace, so
//! the series line up.
//!
//! A merged deliverable's cost is the week's whole spend over its merged deliverables:
//! failures, retries and housekeeping are what merging it took.

use super::spend_series::{timed, SpendPoint};
use crate::enums::{TaskClass, TaskStatus};
use crate::money::Usd;
use crate::pull_request::PullRequest;
use chrono::{Datelike, Duration, NaiveDate, Weekday};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A merged PR.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MergedPr {
    pub workspace_id: String,
    #[serde(default)]
    pub mission_id: Option<String>,
    pub number: i64,
    /// Its task counts as a deliverable (progress's rule; a retry's PR is its task's).
    pub deliverable: bool,
    /// When its task was claimed.
    #[serde(default)]
    pub claimed_at: Option<String>,
    #[serde(default)]
    pub opened_at: Option<String>,
    pub merged_at: String,
}

impl MergedPr {
    /// A merged PR of `GET /api/prs`; `None` when it has not merged.
    pub fn of(pr: &PullRequest, deliverable: bool, claimed_at: Option<&str>) -> Option<MergedPr> {
        Some(MergedPr {
            workspace_id: pr.workspace_id.clone(),
            mission_id: pr.mission_id.clone(),
            number: pr.number,
            deliverable,
            claimed_at: claimed_at.map(Into::into),
            opened_at: pr.created_at.clone(),
            merged_at: pr.merged_at.clone()?,
        })
    }
}

/// A task, for the failures (the week it failed) and retries (the week it was filed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskTally {
    pub workspace_id: String,
    pub class: TaskClass,
    pub status: TaskStatus,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub finished_at: Option<String>,
}

/// What the team did, as the weekly figures read it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamActivity {
    #[serde(default)]
    pub merged: Vec<MergedPr>,
    #[serde(default)]
    pub tasks: Vec<TaskTally>,
    #[serde(default)]
    pub spend: Vec<SpendPoint>,
}

/// What one mission spent in a week.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissionSpend {
    pub mission_id: Option<String>,
    pub spend: Usd,
}

/// A week's figures, of the team or of one workspace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    pub merged: u32,
    pub failed: u32,
    pub retried: u32,
    pub median_claim_to_merge_secs: Option<i64>,
    pub median_review_wait_secs: Option<i64>,
    pub spend: Usd,
    pub cost_per_merged: Option<Usd>,
    /// Most spent first.
    pub spend_by_mission: Vec<MissionSpend>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceFigures {
    pub workspace_id: String,
    pub figures: Figures,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Week {
    /// "2026-W48".
    pub label: String,
    /// Its Monday, 00:00 UTC.
    pub starts_ms: i64,
    pub team: Figures,
    /// Every workspace seen in any week, by id.
    pub workspaces: Vec<WorkspaceFigures>,
}

impl Week {
    /// The picture's text alternative for this week.
    pub fn describe(&self) -> String {
        let f = &self.team;
        let mut text = format!(
            "{}: {} merged, {} failed, {} retried, {} spent",
            self.label,
            super::plural(f.merged as usize, "deliverable", "deliverables"),
            f.failed,
            f.retried,
            f.spend
        );
        if let Some(cost) = f.cost_per_merged {
            text.push_str(&format!(", {cost} per merged deliverable"));
        }
        if let Some(wait) = f.median_review_wait_secs {
            text.push_str(&format!(
                ", median review wait {}",
                crate::duration::span(wait)
            ));
        }
        text.push('.');
        text
    }
}

#[derive(Default)]
struct Tally {
    merged: u32,
    failed: u32,
    retried: u32,
    to_merge: Vec<i64>,
    review_wait: Vec<i64>,
    spend: Usd,
    by_mission: HashMap<Option<String>, Usd>,
}

impl Tally {
    fn figures(mut self) -> Figures {
        let cost_per_merged = (self.merged > 0).then(|| {
            let (micros, n) = (i128::from(self.spend.micros()), i128::from(self.merged));
            Usd::from_micros(((2 * micros + n) / (2 * n)) as i64)
        });
        let mut spend_by_mission: Vec<MissionSpend> = self
            .by_mission
            .into_iter()
            .map(|(mission_id, spend)| MissionSpend { mission_id, spend })
            .collect();
        spend_by_mission.sort_by(|a, b| {
            b.spend
                .cmp(&a.spend)
                .then_with(|| a.mission_id.cmp(&b.mission_id))
        });
        Figures {
            merged: self.merged,
            failed: self.failed,
            retried: self.retried,
            median_claim_to_merge_secs: super::median_i64(&mut self.to_merge),
            median_review_wait_secs: super::median_i64(&mut self.review_wait),
            spend: self.spend,
            cost_per_merged,
            spend_by_mission,
        }
    }
}

/// The Monday of `ms`'s ISO week (UTC).
fn monday(ms: i64) -> NaiveDate {
    let day = super::utc(ms).date_naive();
    let week = day.iso_week();
    NaiveDate::from_isoywd_opt(week.year(), week.week(), Weekday::Mon).unwrap_or(day)
}

fn monday_ms(day: NaiveDate) -> i64 {
    day.and_hms_opt(0, 0, 0)
        .map_or(0, |t| t.and_utc().timestamp_millis())
}

/// The tallies by (week, workspace), `None` being the team, and the workspaces seen.
#[derive(Default)]
struct Tallies<'a> {
    by_week: BTreeMap<(NaiveDate, Option<&'a str>), Tally>,
    workspaces: BTreeSet<&'a str>,
}

impl<'a> Tallies<'a> {
    /// Counts something at `ms` for the team and for `workspace`.
    fn add(&mut self, ms: i64, workspace: Option<&'a str>, add: impl Fn(&mut Tally)) {
        let week = monday(ms);
        add(self.by_week.entry((week, None)).or_default());
        if let Some(ws) = workspace {
            self.workspaces.insert(ws);
            add(self.by_week.entry((week, Some(ws))).or_default());
        }
    }
}

/// The team's weeks from `activity`.
pub fn weekly(activity: &TeamActivity) -> Vec<Week> {
    let mut tallies = Tallies::default();
    for pr in activity.merged.iter().filter(|p| p.deliverable) {
        let Some(merged) = super::ms_of(&pr.merged_at) else {
            continue;
        };
        let since = |at: Option<&str>| {
            super::ms(at)
                .filter(|&at| at <= merged)
                .map(|at| (merged - at) / 1000)
        };
        let (to_merge, wait) = (
            since(pr.claimed_at.as_deref()),
            since(pr.opened_at.as_deref()),
        );
        tallies.add(merged, Some(&pr.workspace_id), |t| {
            t.merged += 1;
            t.to_merge.extend(to_merge);
            t.review_wait.extend(wait);
        });
    }
    for task in &activity.tasks {
        let ws = Some(task.workspace_id.as_str());
        if task.status == TaskStatus::Failed {
            if let Some(at) = super::ms(task.finished_at.as_deref()) {
                tallies.add(at, ws, |t| t.failed += 1);
            }
        }
        if task.class == TaskClass::Attempt {
            if let Some(at) = super::ms(task.created_at.as_deref()) {
                tallies.add(at, ws, |t| t.retried += 1);
            }
        }
    }
    for (at, cost, point) in timed(&activity.spend) {
        let mission = point.mission_id.clone();
        tallies.add(at, point.workspace_id.as_deref(), |t| {
            t.spend += cost;
            *t.by_mission.entry(mission.clone()).or_default() += cost;
        });
    }
    let Tallies {
        by_week: mut tallies,
        workspaces,
    } = tallies;
    let (Some(first), Some(last)) = (
        tallies.keys().next().map(|k| k.0),
        tallies.keys().next_back().map(|k| k.0),
    ) else {
        return vec![];
    };
    let mut weeks = Vec::new();
    let mut day = first;
    while day <= last {
        let team = tallies.remove(&(day, None)).unwrap_or_default().figures();
        let workspaces = workspaces
            .iter()
            .map(|&ws| WorkspaceFigures {
                workspace_id: ws.into(),
                figures: tallies
                    .remove(&(day, Some(ws)))
                    .unwrap_or_default()
                    .figures(),
            })
            .collect();
        let iso = day.iso_week();
        weeks.push(Week {
            label: format!("{}-W{:02}", iso.year(), iso.week()),
            starts_ms: monday_ms(day),
            team,
            workspaces,
        });
        day += Duration::days(7);
    }
    weeks
}

#[cfg(test)]
mod tests;
