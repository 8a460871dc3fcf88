//! Each mission's task list as last read, tagged with the mission's `task_generation`. Any
//! write anywhere moves the global generation and rebuilds a mission page; its 2,000 tasks
//! need reading again only when they (or their workers) moved.

use buildd_core::MissionTask;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// At most this many missions' task lists are kept.
const CAPACITY: usize = 64;

/// A mission's tasks as read at its `task_generation`.
type Kept = (i64, Arc<Vec<MissionTask>>);

#[derive(Clone, Default)]
pub struct TaskMemo {
    entries: Arc<Mutex<HashMap<String, Kept>>>,
}

impl TaskMemo {
    /// The tasks of `mission` at `generation`, when they were kept.
    pub fn get(&self, mission: &str, generation: i64) -> Option<Arc<Vec<MissionTask>>> {
        self.entries
            .lock()
            .expect("task memo lock")
            .get(mission)
            .filter(|(g, _)| *g == generation)
            .map(|(_, tasks)| tasks.clone())
    }

    /// Keeps `tasks` read at `generation`, unless a newer read is already kept.
    pub fn keep(&self, mission: &str, generation: i64, tasks: Arc<Vec<MissionTask>>) {
        let mut entries = self.entries.lock().expect("task memo lock");
        if entries.get(mission).is_some_and(|(g, _)| *g > generation) {
            return;
        }
        if entries.len() >= CAPACITY && !entries.contains_key(mission) {
            entries.clear();
        }
        entries.insert(mission.to_string(), (generation, tasks));
    }
}
