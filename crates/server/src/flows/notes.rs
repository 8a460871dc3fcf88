//! Posting to a mission's feed: a person's note or answer plans an auto mission again.

use super::organizer::{wake, Trigger};
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::notes::{insert_note, NewNote};
use buildd_core::note::MissionNote;
use buildd_core::{AuthorType, TriggerSource};

/// Writes `note` on `mission_id`; when a person wrote it, the organizer plans again.
pub async fn post(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
    n: NewNote<'_>,
) -> ApiResult<MissionNote> {
    let (author, reply) = (n.author == AuthorType::User, n.reply_to.is_some());
    let note = insert_note(tx, team_id, Some(mission_id), n).await?;
    if author {
        let source = if reply {
            TriggerSource::OwnerAnswer
        } else {
            TriggerSource::OwnerNote
        };
        let trigger = Trigger {
            source,
            task_id: None,
        };
        wake(tx, mission_id, trigger).await?;
    }
    Ok(note)
}
