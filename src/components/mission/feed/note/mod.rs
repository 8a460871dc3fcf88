//! A note of the mission feed: who wrote it and when, what it says, and for an open question
//! its options, Reply and Skip.

pub mod note_choices;
pub mod note_labels;
pub mod question_buttons;
pub mod reply;
pub mod reply_form;

use self::note_choices::NoteChoices;
use self::note_labels::{author, kind_label};
use self::question_buttons::QuestionButtons;
use self::reply::Reply;
use self::reply_form::ReplyForm;
use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::components::shared::markdown::Markdown;
use crate::format::time_ago;
use buildd_core::note::MissionNote;
use buildd_core::NoteKind;
use leptos::prelude::*;

#[component]
pub fn Note(note: Memo<MissionNote>, reply: Reply) -> impl IntoView {
    let (id, kind, who) = note.with_untracked(|n| (n.id.clone(), n.kind.clone(), author(n)));
    let open_question = Memo::new(move |_| note.with(MissionNote::is_open_question));
    let title = Memo::new(move |_| note.with(|n| n.title.clone()));
    let body = Memo::new(move |_| note.with(|n| n.body.clone()));
    let options = Memo::new(move |_| note.with(|n| (n.options.clone(), n.default_choice.clone())));
    let (busy, replying, send) = (reply.busy, reply.replying, reply.send);
    let answer = {
        let id = id.clone();
        Callback::new(move |answer: String| send.dispatch((id.clone(), answer)))
    };
    let is_replying = {
        let id = id.clone();
        Memo::new(move |_| replying.with(|r| r.as_deref() == Some(id.as_str())))
    };
    let question = kind == NoteKind::Question;
    let default = move || {
        options.with(|(options, default)| {
            default
                .clone()
                .filter(|_| options.is_empty() || !open_question.get())
                .map(|d| {
                    view! {
                        <p class="small muted" data-testid="note-default">
                            {format!("Default: {d}")}
                        </p>
                    }
                })
        })
    };
    let actions = move || {
        open_question.get().then(|| {
            let (id, reply) = (id.clone(), reply.clone());
            move || {
                if is_replying.get() {
                    view! { <ReplyForm reply=reply.clone() answer /> }.into_any()
                } else {
                    let id = id.clone();
                    view! { <QuestionButtons id options reply=reply.clone() answer /> }.into_any()
                }
            }
        })
    };
    view! {
        <li
            class=move || if open_question.get() { "note note--question" } else { "note" }
            data-testid="note"
        >
            <div class="note__head small">
                <span class="chip chip--outline">{kind_label(&kind)}</span>
                <span>{who}</span>
                <span class="muted">{move || note.with(|n| time_ago(Some(&n.created_at)))}</span>
                {question
                    .then(|| {
                        view! {
                            <span class="muted">
                                {move || note.with(|n| format!("· {}", n.status))}
                            </span>
                        }
                    })}
            </div>
            // A note with a body has a heading; a person's short note is its words alone.
            {move || match body.get() {
                Some(body) => {
                    view! {
                        <p class="note__title">
                            <strong>
                                <InlineMarkdown source=title />
                            </strong>
                        </p>
                        <Markdown source=body />
                    }
                        .into_any()
                }
                None => {
                    view! {
                        <p class="note__title">
                            <InlineMarkdown source=title />
                        </p>
                    }
                        .into_any()
                }
            }}
            <NoteChoices options open_question busy answer />
            {default}
            {actions}
        </li>
    }
}
