//! The mission feed: notes and questions from agents and people, newest first. A person sends
//! guidance or answers a question; the text stays when sending fails.

use crate::api;
use crate::components::markdown::{InlineMarkdown, Markdown};
use crate::format::time_ago;
use crate::state::refresh::Polled;
use crate::state::write::{refused, Write};
use buildd_core::note::{threads, MissionNote, NotesPage};
use leptos::prelude::*;

/// What a person is writing in the feed. Lives above the refreshed list.
#[derive(Clone, Copy)]
pub struct FeedState {
    pub guidance: RwSignal<String>,
    pub send: Write,
    /// The question being answered, and the answer so far.
    pub replying: RwSignal<Option<String>>,
    pub reply: RwSignal<String>,
    /// Shares `send`'s busy flag: one note goes out at a time, guidance or reply.
    pub reply_send: Write,
    /// Pages read past the newest one, oldest last, and where the next one starts.
    pub older: RwSignal<Vec<MissionNote>>,
    pub older_cursor: RwSignal<Option<String>>,
    pub older_done: RwSignal<bool>,
    pub older_read: Write,
}

impl Default for FeedState {
    fn default() -> Self {
        let send = Write::new();
        Self {
            guidance: RwSignal::default(),
            send,
            replying: RwSignal::default(),
            reply: RwSignal::default(),
            reply_send: send.sharing_busy(),
            older: RwSignal::default(),
            older_cursor: RwSignal::default(),
            older_done: RwSignal::default(),
            older_read: Write::new(),
        }
    }
}

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
fn Note(
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

#[component]
pub fn Feed(
    notes: Polled<NotesPage>,
    mission_id: String,
    state: FeedState,
    refresh: Callback<()>,
) -> impl IntoView {
    let send = {
        let mission_id = mission_id.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let text = state.guidance.get_untracked().trim().to_string();
            if text.is_empty() {
                return;
            }
            let mission_id = mission_id.clone();
            state.send.send_then_clear(
                state.guidance,
                |c| async move { api::post_note(&c, &mission_id, "guidance", &text).await },
                refused("Not sent"),
                refresh,
            );
        }
    };
    // Once older pages are read, every note the refreshed newest page shows is kept too, so
    // one that slides out of it stays on screen between the newest page and the older ones.
    Effect::new(move |_| {
        if let Some(Ok(page)) = notes.get() {
            if state.older.with_untracked(|o| !o.is_empty()) {
                let mut older = state.older.get_untracked();
                for n in page.notes.iter().rev() {
                    // The newest copy wins: a question answered since shows answered.
                    match older.iter_mut().find(|o| o.id == n.id) {
                        Some(kept) => *kept = n.clone(),
                        None => older.insert(0, n.clone()),
                    }
                }
                older.sort_by(|a, b| b.created_at.cmp(&a.created_at));
                // Only a change re-renders the list, so a reply being typed keeps its focus.
                if state.older.with_untracked(|o| *o != older) {
                    state.older.set(older);
                }
            }
        }
    });
    // The newest page refreshes by itself; older pages are read on request and kept.
    let load_older = {
        let mission_id = mission_id.clone();
        move |_| {
            let cursor = state.older_cursor.get_untracked().or_else(|| {
                notes.with_untracked(|n| match n {
                    Some(Ok(page)) => page.next_cursor.clone(),
                    _ => None,
                })
            });
            let Some(cursor) = cursor else { return };
            let mission_id = mission_id.clone();
            state.older_read.send(
                |c| async move { api::older_notes(&c, &mission_id, &cursor).await },
                |e| format!("Older notes could not be loaded: {e}"),
                move |page| {
                    let newest = notes.with_untracked(|n| match n {
                        Some(Ok(p)) => p.notes.clone(),
                        _ => vec![],
                    });
                    state.older.update(|o| {
                        for n in newest.into_iter().chain(page.notes) {
                            if !o.iter().any(|k| k.id == n.id) {
                                o.push(n);
                            }
                        }
                        o.sort_by(|a, b| b.created_at.cmp(&a.created_at));
                    });
                    state
                        .older_done
                        .set(!page.has_more || page.next_cursor.is_none());
                    state.older_cursor.set(page.next_cursor);
                },
            );
        }
    };
    view! {
        <section class="card" data-testid="feed">
            <h2 class="card__title">"Feed"</h2>
            <form class="form feed__composer" on:submit=send>
                <label for="guidance" class="sr-only">"Guidance for the agents"</label>
                <input
                    id="guidance"
                    placeholder="Send guidance to all agents..."
                    data-testid="guidance-input"
                    prop:value=move || state.guidance.get()
                    on:input=move |ev| state.guidance.set(event_target_value(&ev))
                />
                {move || state.send.error().map(|e| view! { <p class="form__error" role="alert" data-testid="guidance-error">{e}</p> })}
                <div class="actions">
                    <button class="button button--primary" type="submit" data-testid="send-guidance"
                        prop:disabled=move || state.send.busy() || state.guidance.with(|g| g.trim().is_empty())>
                        "Send"
                    </button>
                </div>
            </form>
            {move || match notes.get() {
                None => view! { <p class="muted">"Loading feed..."</p> }.into_any(),
                Some(Err(_)) => view! { <p class="muted">"The feed could not be loaded."</p> }.into_any(),
                Some(Ok(page)) if page.notes.is_empty() => view! {
                    <div class="panel-state panel-state--empty">
                        <p class="panel-state__title">"No feed activity yet"</p>
                        <p class="muted">"Agent decisions, questions, and updates will appear here"</p>
                    </div>
                }
                .into_any(),
                Some(Ok(page)) => {
                    let more = page.has_more && page.next_cursor.is_some();
                    let mut shown = page.notes;
                    // Notes kept from earlier pages, newest first, after the newest page.
                    let older: Vec<_> = state.older.with(|o| {
                        o.iter().filter(|o| !shown.iter().any(|n| n.id == o.id)).cloned().collect()
                    });
                    shown.extend(older);
                    let load_older = load_older.clone();
                    // Replies sit under what they answer.
                    let threads = threads(&shown);
                    view! {
                        <ul class="notes">
                            {threads.into_iter().map(|(n, replies)| view! {
                                <Note note=n mission_id=mission_id.clone() state=state refresh=refresh />
                                {(!replies.is_empty()).then(|| view! {
                                    <li class="note__thread">
                                        <ul class="notes notes--replies" data-testid="note-replies">
                                            {replies.into_iter().map(|r| view! {
                                                <Note note=r mission_id=mission_id.clone() state=state refresh=refresh />
                                            }).collect_view()}
                                        </ul>
                                    </li>
                                })}
                            }).collect_view()}
                        </ul>
                        {move || state.older_read.error().map(|e| view! { <p class="form__error" role="alert" data-testid="older-error">{e}</p> })}
                        {(more && !state.older_done.get()).then(|| view! {
                            <div class="actions">
                                <button class="button" data-testid="older-notes"
                                    prop:disabled=move || state.older_read.busy()
                                    on:click=load_older.clone()>
                                    {move || if state.older_read.busy() { "Loading..." } else { "Show older" }}
                                </button>
                            </div>
                        })}
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
