//! A mission's tasks sorted for its sections: each section's ids, and what holds each
//! blocked task back.

use buildd_core::dependencies::{waiting_on, Blocker};
use buildd_core::task_groups::{group_tasks, TaskGroup};
use buildd_core::MissionTask;
use std::collections::{BTreeMap, HashMap};

/// What holds each blocked task back, in words.
pub fn blockers(tasks: &[MissionTask]) -> HashMap<String, Vec<String>> {
    let by_id: HashMap<&str, &MissionTask> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    tasks
        .iter()
        .filter_map(|t| {
            let blockers = waiting_on(t, |id| by_id.get(id).copied());
            (!blockers.is_empty())
                .then(|| (t.id.clone(), blockers.iter().map(Blocker::label).collect()))
        })
        .collect()
}

/// The ids of each section's tasks, sections in order.
pub fn sections(tasks: &[MissionTask]) -> Vec<(TaskGroup, Vec<String>)> {
    let mut groups: BTreeMap<TaskGroup, Vec<String>> = BTreeMap::new();
    for (group, task) in group_tasks(tasks) {
        groups.entry(group).or_default().push(task.id.clone());
    }
    groups.into_iter().collect()
}
