//! What Activity's pickers offer and its rows name: the team's missions (as the board
//! reads them) and workspaces.

use buildd_core::client::ClientMission;
use buildd_core::WorkspaceList;
use std::collections::HashMap;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choices {
    /// (id, title), by title.
    pub missions: Vec<(String, String)>,
    /// (id, name), by name.
    pub workspaces: Vec<(String, String)>,
    /// Each mission's workspace.
    mission_workspace: HashMap<String, String>,
}

impl Choices {
    /// From the lists once read; what is not read yet offers nothing.
    pub fn of(missions: Option<&[ClientMission]>, workspaces: Option<&WorkspaceList>) -> Self {
        let by_label = |list: &mut Vec<(String, String)>| {
            list.sort_by_key(|(_, label)| label.to_lowercase());
        };
        let mut choices = Self::default();
        for m in missions.unwrap_or_default() {
            choices.missions.push((m.id.clone(), m.title.clone()));
            if let Some(ws) = &m.workspace_id {
                choices.mission_workspace.insert(m.id.clone(), ws.clone());
            }
        }
        for w in workspaces
            .map(|l| l.workspaces.as_slice())
            .unwrap_or_default()
        {
            choices.workspaces.push((w.id.clone(), w.name.clone()));
        }
        by_label(&mut choices.missions);
        by_label(&mut choices.workspaces);
        choices
    }

    /// Where mission `id`'s tasks are filed.
    pub fn workspace_of(&self, mission: &str) -> Option<String> {
        self.mission_workspace.get(mission).cloned()
    }

    /// Workspace `id`'s name, else its id.
    pub fn workspace_name(&self, id: &str) -> String {
        label_of(&self.workspaces, id).unwrap_or_else(|| id.to_string())
    }

    /// Mission `id`'s title, once the list is read.
    pub fn mission_title(&self, id: &str) -> Option<String> {
        label_of(&self.missions, id)
    }
}

fn label_of(list: &[(String, String)], id: &str) -> Option<String> {
    list.iter().find(|(i, _)| i == id).map(|(_, l)| l.clone())
}
