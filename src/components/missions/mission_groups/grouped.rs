//! The list's missions by group: the groups buildd-core's `mission_group` puts them in, each
//! sorted as the list view says.

use crate::components::missions::list_view::{ListView, Sort};
use buildd_core::client::{ClientMission, ClientMissionList};
use buildd_core::compute_progress;
use buildd_core::grouping::{mission_group, MissionGroup};
use std::collections::BTreeMap;

/// The group a mission is in, by where it stands.
pub fn group_of(item: &ClientMission) -> MissionGroup {
    let progress = compute_progress(&item.status, &item.tasks);
    mission_group(item, &item.tasks, &progress, item.next_run_at.as_deref())
}

/// The ids of the missions `shown` takes, sorted as it says, by group.
pub fn grouped(list: &ClientMissionList, shown: &ListView) -> Vec<(MissionGroup, Vec<String>)> {
    let mut missions: Vec<(&ClientMission, u32)> = list
        .missions
        .iter()
        .filter(|m| shown.shows(m))
        .map(|m| (m, compute_progress(&m.status, &m.tasks).progress))
        .collect();
    match shown.sort {
        Sort::Activity => {
            missions.sort_by(|(a, _), (b, _)| b.last_activity_at.cmp(&a.last_activity_at))
        }
        Sort::Progress => missions.sort_by(|(a, pa), (b, pb)| {
            pb.cmp(pa).then(b.last_activity_at.cmp(&a.last_activity_at))
        }),
        Sort::Title => missions.sort_by_key(|(m, _)| m.title.to_lowercase()),
    }
    let mut groups: BTreeMap<MissionGroup, Vec<String>> = BTreeMap::new();
    for (item, _) in missions {
        groups
            .entry(group_of(item))
            .or_default()
            .push(item.id.clone());
    }
    groups.into_iter().collect()
}
