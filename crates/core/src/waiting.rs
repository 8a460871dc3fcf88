//! An agent waiting on a person: the question it asks (`waitingFor`, as Buildd's runner
//! reports it), and what an answer becomes when the agent is gone — a follow-up task that
//! carries the question, what the run had done, and the answer, as Buildd's respond makes.

use crate::AnswerRoute;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// What a waiting agent asks: a question, or a permission, with the choices it offers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitingFor {
    /// `question` or `permission`.
    #[serde(rename = "type", default)]
    pub kind: String,
    #[serde(default)]
    pub prompt: String,
    /// The choices' labels: Buildd's runner sends them as objects `{label, description?}`
    /// first and as plain labels on later reports.
    #[serde(default, deserialize_with = "labels")]
    pub options: Vec<String>,
}

fn labels<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let items = Option::<Vec<Value>>::deserialize(d)?.unwrap_or_default();
    Ok(items
        .iter()
        .filter_map(|o| match o {
            Value::String(s) => Some(s.clone()),
            o => o.get("label")?.as_str().map(str::to_string),
        })
        .collect())
}

impl WaitingFor {
    /// The question in `value`, if it reads as one.
    pub fn of(value: &Value) -> Option<Self> {
        serde_json::from_value(value.clone()).ok()
    }

    /// The prompt, or words for a question that came without one.
    pub fn question(&self) -> &str {
        if self.prompt.trim().is_empty() {
            "The agent is waiting for input"
        } else {
            &self.prompt
        }
    }
}

/// A task whose agent waits on a person, as `GET /api/tasks/waiting-input` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitingTask {
    /// The task's id.
    pub id: String,
    pub title: String,
    pub workspace_id: String,
    #[serde(default)]
    pub mission_id: Option<String>,
    #[serde(default)]
    pub worker_id: Option<String>,
    pub waiting_for: WaitingFor,
    /// When the agent last reported: since when it has waited, at the latest.
    #[serde(default)]
    pub since: Option<String>,
    /// Whether the agent is still there to read an answer; otherwise an answer becomes a
    /// follow-up task.
    #[serde(default)]
    pub live: bool,
}

/// `GET /api/tasks/waiting-input`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WaitingTasks {
    pub tasks: Vec<WaitingTask>,
}

/// `POST /api/workers/{id}/respond`'s answer: the follow-up task's id when the agent was
/// gone (Buildd's `{taskId}`), and how the answer went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Responded {
    #[serde(default)]
    pub task_id: Option<String>,
    #[serde(default)]
    pub delivered: Option<AnswerRoute>,
}

/// The follow-up task an answer becomes when its agent is gone: its title and description,
/// from the task's, the milestones the run reached, the question and the answer.
pub fn follow_up(
    title: &str,
    description: Option<&str>,
    milestones: &[Value],
    question: &str,
    answer: &str,
) -> (String, String) {
    let done: Vec<String> = milestones
        .iter()
        .map(|m| {
            let label = m
                .get("label")
                .or_else(|| m.get("type"))
                .and_then(Value::as_str)
                .unwrap_or("activity");
            format!("- {label}")
        })
        .collect();
    let done = if done.is_empty() {
        "No milestones recorded".to_string()
    } else {
        done.join("\n")
    };
    let description = format!(
        "## Original Task\n{}\n\n## What Was Accomplished\n{done}\n\n## Question Asked\n{question}\n\n## User Response\n{answer}",
        description.unwrap_or("")
    );
    (format!("Continue: {title}"), description)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn options_read_as_labels_whichever_way_the_runner_sent_them() {
        let first = json!({"type": "question", "prompt": "Which cache?",
                           "options": [{"label": "Redis", "description": "fast"}, {"label": "None"}]});
        let later =
            json!({"type": "question", "prompt": "Which cache?", "options": ["Redis", "None"]});
        assert_eq!(WaitingFor::of(&first), WaitingFor::of(&later));
        assert_eq!(WaitingFor::of(&later).unwrap().options, ["Redis", "None"]);
        let bare = WaitingFor::of(&json!({"type": "question"})).unwrap();
        assert_eq!(bare.question(), "The agent is waiting for input");
        assert!(bare.options.is_empty());
    }

    #[test]
    fn an_answer_to_a_gone_agent_carries_what_it_had_done() {
        let (title, text) = follow_up(
            "Add caching",
            Some("Cache the builds."),
            &[
                json!({"type": "phase", "label": "Read the code"}),
                json!({"type": "status"}),
            ],
            "Which cache?",
            "Redis",
        );
        assert_eq!(title, "Continue: Add caching");
        assert_eq!(
            text,
            "## Original Task\nCache the builds.\n\n## What Was Accomplished\n- Read the code\n- status\n\n## Question Asked\nWhich cache?\n\n## User Response\nRedis"
        );
        let (_, none) = follow_up("T", None, &[], "Q", "A");
        assert!(none.contains("No milestones recorded"));
    }
}
