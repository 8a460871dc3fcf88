//! A mission's timeline: a bar per task from queued to claimed to finished, coloured by
//! outcome, its PR's merge marked; grouped by the plan that filed it, then by wave (the
//! depth of its dependencies within the plan), each retry on the lane under the task it
//! retried. The order is stable: equal keys keep the tasks' ids in order.

use super::events::{row_of, rows, TaskEvents, Times};
use super::plural;
use crate::enums::{TaskClass, TaskMode, TaskStatus};
use std::collections::HashMap;

/// How a bar is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not claimed, or back in the queue.
    Waiting,
    Running,
    Done,
    Failed,
    Cancelled,
}

impl Outcome {
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Waiting => "waiting",
            Outcome::Running => "running",
            Outcome::Done => "done",
            Outcome::Failed => "failed",
            Outcome::Cancelled => "cancelled",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub task_id: String,
    pub title: String,
    pub class: TaskClass,
    /// Index into [`Timeline::groups`].
    pub group: usize,
    /// 0 for the planning run itself, 1 for the steps that wait on nothing, and so on.
    pub wave: u32,
    /// Its row, from the top, across all groups.
    pub lane: u32,
    /// For a retry, the task it retried.
    pub attempt_of: Option<String>,
    pub queued_ms: i64,
    pub claimed_ms: Option<i64>,
    /// `None` while it runs or waits: drawn to [`Timeline::end_ms`].
    pub finished_ms: Option<i64>,
    pub outcome: Outcome,
    pub pr_number: Option<i64>,
    pub merged_ms: Option<i64>,
}

impl Bar {
    /// What a hovered or focused bar says.
    pub fn figures(&self) -> String {
        let mut text = format!("{}: {}", self.title, self.outcome.label());
        let span = |from: i64, to: i64| crate::duration::span((to - from) / 1000);
        if let Some(claimed) = self.claimed_ms {
            text.push_str(&format!(", queued {}", span(self.queued_ms, claimed)));
            if let Some(finished) = self.finished_ms {
                text.push_str(&format!(", ran {}", span(claimed, finished)));
            }
        }
        match (self.pr_number, self.merged_ms, self.finished_ms) {
            (Some(n), Some(merged), Some(finished)) => text.push_str(&format!(
                ", PR #{n} merged {} after it finished",
                span(finished, merged)
            )),
            (Some(n), Some(_), None) => text.push_str(&format!(", PR #{n} merged")),
            (Some(n), None, _) => text.push_str(&format!(", PR #{n} open")),
            _ => {}
        }
        text
    }
}

/// The tasks one plan filed (or those filed directly), on consecutive lanes.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The planning task; `None` for tasks no plan filed.
    pub plan_id: Option<String>,
    pub title: String,
    /// When the plan was approved (its first step filed).
    pub approved_ms: Option<i64>,
    pub first_lane: u32,
    pub lanes: u32,
    /// The deepest wave in it.
    pub waves: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    pub groups: Vec<Group>,
    /// In lane order.
    pub bars: Vec<Bar>,
    pub start_ms: i64,
    pub end_ms: i64,
}

impl Timeline {
    /// The picture's text alternative.
    pub fn describe(&self) -> String {
        if self.bars.is_empty() {
            return "No tasks yet.".into();
        }
        let count = |o: Outcome| self.bars.iter().filter(|b| b.outcome == o).count();
        let merged = self.bars.iter().filter(|b| b.merged_ms.is_some()).count();
        format!(
            "{} in {} over {}: {} done, {} running, {} waiting, {} failed, {} cancelled; {} \
             merged.",
            plural(self.bars.len(), "task", "tasks"),
            plural(self.groups.len(), "group", "groups"),
            crate::duration::span((self.end_ms - self.start_ms) / 1000),
            count(Outcome::Done),
            count(Outcome::Running),
            count(Outcome::Waiting),
            count(Outcome::Failed),
            count(Outcome::Cancelled),
            plural(merged, "PR", "PRs"),
        )
    }
}

fn outcome(task: &TaskEvents) -> Outcome {
    if task.live {
        return Outcome::Running;
    }
    match task.status {
        TaskStatus::Completed => Outcome::Done,
        TaskStatus::Failed => Outcome::Failed,
        TaskStatus::Cancelled => Outcome::Cancelled,
        _ => Outcome::Waiting,
    }
}

/// The depth of each task's dependencies among the tasks of its own group (a dependency
/// elsewhere, or a cycle, adds nothing).
fn depths(tasks: &[TaskEvents], group_of: &[Option<usize>]) -> Vec<u32> {
    let by_id: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done(u32),
    }
    fn visit(
        i: usize,
        tasks: &[TaskEvents],
        group_of: &[Option<usize>],
        by_id: &HashMap<&str, usize>,
        marks: &mut [Mark],
    ) -> u32 {
        match marks[i] {
            Mark::Done(d) => return d,
            Mark::Open => return 0,
            Mark::New => {}
        }
        marks[i] = Mark::Open;
        let mut depth = 0;
        for dep in &tasks[i].depends_on {
            if let Some(&d) = by_id.get(dep.as_str()) {
                if group_of[d] == group_of[i] && marks[d] != Mark::Open {
                    depth = depth.max(visit(d, tasks, group_of, by_id, marks) + 1);
                }
            }
        }
        marks[i] = Mark::Done(depth);
        depth
    }
    let mut marks = vec![Mark::New; tasks.len()];
    (0..tasks.len())
        .map(|i| visit(i, tasks, group_of, &by_id, &mut marks))
        .collect()
}

/// The timeline of a mission's tasks as of `now_ms`.
pub fn timeline(tasks: &[TaskEvents], now_ms: i64) -> Timeline {
    if tasks.is_empty() {
        return Timeline {
            start_ms: now_ms,
            end_ms: now_ms,
            ..Timeline::default()
        };
    }
    let start = super::events::origin(tasks).unwrap_or(now_ms).min(now_ms);
    let times: Vec<Times> = tasks.iter().map(|t| Times::of(t, start)).collect();
    let rows = rows(tasks);
    let row_of = row_of(&rows, tasks.len());
    let root = |i: usize| rows[row_of[i]].root;
    let by_id: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let is_plan = |i: usize| tasks[i].mode == TaskMode::Planning;
    // A plan's first step filed is its approval.
    let mut approved: HashMap<&str, i64> = HashMap::new();
    for (t, times) in tasks.iter().zip(&times) {
        if let (Some(parent), false) = (t.parent_task_id.as_deref(), t.class == TaskClass::Attempt)
        {
            let at = approved.entry(parent).or_insert(times.created);
            *at = (*at).min(times.created);
        }
    }
    // The planning task heading each task's group: the plan that filed its root, or the
    // root itself when it is a plan that filed steps.
    let plans: Vec<Option<usize>> = (0..tasks.len())
        .map(|i| {
            let r = root(i);
            let parent = tasks[r]
                .parent_task_id
                .as_deref()
                .and_then(|p| by_id.get(p).copied())
                .filter(|&p| is_plan(p));
            parent.or((is_plan(r) && approved.contains_key(tasks[r].id.as_str())).then_some(r))
        })
        .collect();
    let depth = depths(tasks, &plans);
    let wave = |i: usize| {
        let r = root(i);
        if is_plan(r) {
            0
        } else {
            depth[r] + 1
        }
    };
    // Groups ordered by their first filing, then the plan's id (tasks filed directly first).
    let mut firsts: HashMap<Option<usize>, i64> = HashMap::new();
    for (plan, t) in plans.iter().zip(&times) {
        let first = firsts.entry(*plan).or_insert(t.created);
        *first = (*first).min(t.created);
    }
    let mut group_keys: Vec<(i64, Option<&str>, Option<usize>)> = firsts
        .into_iter()
        .map(|(plan, first)| (first, plan.map(|p| tasks[p].id.as_str()), plan))
        .collect();
    group_keys.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let group_of: HashMap<Option<usize>, usize> = group_keys
        .iter()
        .enumerate()
        .map(|(g, key)| (key.2, g))
        .collect();
    let group = |i: usize| group_of[&plans[i]];
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_cached_key(|&i| {
        let r = root(i);
        (
            group(i),
            wave(i),
            times[r].created,
            tasks[r].id.as_str(),
            i != r,
            times[i].created,
            tasks[i].id.as_str(),
        )
    });
    let mut groups: Vec<Group> = group_keys
        .iter()
        .map(|&(_, id, plan)| Group {
            plan_id: id.map(Into::into),
            title: plan.map_or("Filed directly".into(), |p| tasks[p].title.clone()),
            approved_ms: id.and_then(|id| approved.get(id).copied()),
            first_lane: 0,
            lanes: 0,
            waves: 0,
        })
        .collect();
    let mut bars = Vec::with_capacity(tasks.len());
    let mut end_ms = start;
    for (lane, &i) in order.iter().enumerate() {
        let (task, t) = (&tasks[i], &times[i]);
        let group = group(i);
        let g = &mut groups[group];
        if g.lanes == 0 {
            g.first_lane = lane as u32;
        }
        g.lanes += 1;
        g.waves = g.waves.max(wave(i));
        let outcome = outcome(task);
        let finished_ms = t.finished.filter(|_| outcome != Outcome::Running);
        end_ms = end_ms.max(t.each().max().unwrap_or(start));
        if finished_ms.is_none() {
            end_ms = end_ms.max(now_ms);
        }
        bars.push(Bar {
            task_id: task.id.clone(),
            title: task.title.clone(),
            class: task.class.clone(),
            group,
            wave: wave(i),
            lane: lane as u32,
            attempt_of: (root(i) != i).then(|| tasks[root(i)].id.clone()),
            queued_ms: t.created,
            claimed_ms: t.claimed,
            finished_ms,
            outcome,
            pr_number: task.pr.as_ref().and_then(|p| p.number),
            merged_ms: t.merged,
        });
    }
    Timeline {
        groups,
        bars,
        start_ms: start,
        end_ms,
    }
}

#[cfg(test)]
mod tests;
