//! `Reply`: what the feed's notes share to answer its questions.

use crate::state::mutation::Mutation;
use leptos::prelude::*;

/// Answering the feed's questions: one at a time, with the feed's one busy flag.
#[derive(Clone)]
pub struct Reply {
    pub mission_id: String,
    /// Guidance or an answer is on its way.
    pub busy: Signal<bool>,
    /// The question whose reply form is open.
    pub replying: RwSignal<Option<String>>,
    /// The answer typed so far.
    pub text: RwSignal<String>,
    /// Sends (question, answer).
    pub send: Mutation<(String, String)>,
}
