//! A note of the mission feed: who wrote it and when, what it says, and for an open question
//! its options, Reply and Skip.

use super::feed::FeedState;
use crate::api;
use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::components::shared::markdown::Markdown;
use crate::format::time_ago;
use crate::state::write::refused;
use buildd_core::note::MissionNote;
use leptos::prelude::*;

/// The note's type as a chip; a reviewer's verdict reads as one.
fn kind_label(kind: &str) -> String {
    match kind {
        "reviewer_approved" => "REVIEWER: APPROVED".into(),
        "reviewer_request_changes" => "REVIEWER: CHANGES REQUESTED".into(),
        "reviewer_escalated" => "REVIEWER: ESCALATED".into(),
        other => other.to_uppercase(),
    }
}

fn author(note: &MissionNote) -> &'static str {
    match note.author_type.as_str() {
        "user" => "You",
        "system" => "System",
        _ => "Agent",
    }
}

#[component]
pub fn Note(
    note: MissionNote,
    mission_id: String,
    state: FeedState,
    refresh: Callback<()>,
) -> impl IntoView {
    let open_question = note.kind == "question" && note.status == "open";
    let id = note.id.clone();
    let default = note.default_choice.clone();
    let answer = {
        let id = id.clone();
        move |text: String| {
            let (mission_id, id) = (mission_id.clone(), id.clone());
            state.reply_send.send(
                |c| async move { api::reply_note(&c, &mission_id, &id, &text).await },
                refused("Not sent"),
                move |_| {
                    state.replying.set(None);
                    state.reply.set(String::new());
                    refresh.run(());
                },
            );
        }
    };
    let skip = {
        let answer = answer.clone();
        let text = default
            .clone()
            .unwrap_or_else(|| "Accepted agent default".into());
        move |_| answer(text.clone())
    };
    let this = id.clone();
    let is_replying =
        Memo::new(move |_| state.replying.with(|r| r.as_deref() == Some(this.as_str())));
    view! {
        <li class="note" class:note--question=open_question data-testid="note">
            <div class="note__head small">
                <span class="chip chip--outline">{kind_label(&note.kind)}</span>
                <span>{author(&note)}</span>
                <span class="muted">{time_ago(Some(&note.created_at))}</span>
                {(note.kind == "question").then(|| view! { <span class="muted">{format!("· {}", note.status)}</span> })}
            </div>
            // A note with a body has a heading; a person's short note is its words alone.
            {match note.body.clone() {
                Some(body) => view! {
                    <p class="note__title"><strong><InlineMarkdown source=note.title.clone() /></strong></p>
                    <Markdown source=body />
                }.into_any(),
                None => view! {
                    <p class="note__title"><InlineMarkdown source=note.title.clone() /></p>
                }.into_any(),
            }}
            // An open question's options answer it in one click; the agent's default is marked.
            {(!note.options.is_empty()).then(|| {
                if !open_question {
                    return view! {
                        <p class="small" data-testid="note-options">{format!("Options: {}", note.options.join(" · "))}</p>
                    }
                    .into_any();
                }
                let buttons = note
                    .options
                    .iter()
                    .map(|option| {
                        let is_default = default.as_deref() == Some(option.as_str());
                        let answer = answer.clone();
                        let text = option.clone();
                        view! {
                            <button
                                class="button button--small"
                                class:button--primary=is_default
                                data-testid="note-option"
                                prop:disabled=move || state.send.busy()
                                on:click=move |_| answer(text.clone())
                            >
                                {option.clone()}
                                {is_default.then_some(" (default)")}
                            </button>
                        }
                    })
                    .collect_view();
                view! { <div class="actions note__options" data-testid="note-options">{buttons}</div> }.into_any()
            })}
            {default.clone().filter(|_| note.options.is_empty() || !open_question).map(|d| view! {
                <p class="small muted" data-testid="note-default">{format!("Default: {d}")}</p>
            })}
            {open_question.then(|| {
                let answer = answer.clone();
                let skip = skip.clone();
                let id = id.clone();
                view! {
                    {move || if is_replying.get() {
                        let answer = answer.clone();
                        view! {
                            <form class="form" on:submit=move |ev: leptos::ev::SubmitEvent| {
                                ev.prevent_default();
                                let text = state.reply.get_untracked().trim().to_string();
                                if !text.is_empty() { answer(text) }
                            }>
                                <input
                                    placeholder="Your reply..."
                                    data-testid="reply-input"
                                    prop:value=move || state.reply.get()
                                    on:input=move |ev| state.reply.set(event_target_value(&ev))
                                />
                                {move || state.reply_send.error().map(|e| view! { <p class="form__error" role="alert" data-testid="reply-error">{e}</p> })}
                                <div class="actions">
                                    <button class="button button--primary" type="submit" data-testid="send-reply"
                                        prop:disabled=move || state.send.busy() || state.reply.with(|r| r.trim().is_empty())>
                                        "Send"
                                    </button>
                                    <button class="button" type="button" on:click=move |_| state.replying.set(None)>"Cancel"</button>
                                </div>
                            </form>
                        }
                        .into_any()
                    } else {
                        let id = id.clone();
                        let skip = skip.clone();
                        view! {
                            <div class="actions">
                                <button class="button" data-testid="reply" on:click=move |_| {
                                    state.reply_send.clear_error();
                                    state.replying.set(Some(id.clone()));
                                }>"Reply"</button>
                                <button class="button button--ghost" data-testid="skip" prop:disabled=move || state.send.busy() on:click=skip.clone()>
                                    "Skip (use the default)"
                                </button>
                            </div>
                        }
                        .into_any()
                    }}
                }
            })}
        </li>
    }
}
