//! A note of the mission feed: who wrote it and when, what it says, and for an open question
//! its options, Reply and Skip.

use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::components::shared::markdown::Markdown;
use crate::format::time_ago;
use crate::state::mutation::Mutation;
use buildd_core::note::MissionNote;
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
pub fn Note(note: Memo<MissionNote>, reply: Reply) -> impl IntoView {
    let (id, kind, who) = note.with_untracked(|n| (n.id.clone(), n.kind.clone(), author(n)));
    let open_question =
        Memo::new(move |_| note.with(|n| n.kind == "question" && n.status == "open"));
    let title = Memo::new(move |_| note.with(|n| n.title.clone()));
    let body = Memo::new(move |_| note.with(|n| n.body.clone()));
    let options = Memo::new(move |_| note.with(|n| (n.options.clone(), n.default_choice.clone())));
    let Reply {
        busy,
        replying,
        text,
        send,
        ..
    } = reply;
    let answer = {
        let id = id.clone();
        move |answer: String| send.dispatch((id.clone(), answer))
    };
    let is_replying = {
        let id = id.clone();
        Memo::new(move |_| replying.with(|r| r.as_deref() == Some(id.as_str())))
    };
    let question = kind == "question";
    // An open question's options answer it in one click; the agent's default is marked.
    let choices = {
        let answer = answer.clone();
        move || {
            options.with(|(options, default)| {
                if options.is_empty() {
                    return None;
                }
                if !open_question.get() {
                    return Some(
                        view! {
                            <p class="small" data-testid="note-options">
                                {format!("Options: {}", options.join(" · "))}
                            </p>
                        }
                        .into_any(),
                    );
                }
                let buttons = options
                    .iter()
                    .map(|option| {
                        let is_default = default.as_deref() == Some(option.as_str());
                        let (answer, text) = (answer.clone(), option.clone());
                        view! {
                            <button
                                class=if is_default {
                                    "button button--small button--primary"
                                } else {
                                    "button button--small"
                                }
                                data-testid="note-option"
                                prop:disabled=busy
                                on:click=move |_| answer(text.clone())
                            >
                                {option.clone()}
                                {is_default.then_some(" (default)")}
                            </button>
                        }
                    })
                    .collect_view();
                Some(
                    view! {
                        <div class="actions note__options" data-testid="note-options">
                            {buttons}
                        </div>
                    }
                    .into_any(),
                )
            })
        }
    };
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
    let form = {
        let answer = answer.clone();
        move || {
            let answer = answer.clone();
            view! {
                <form
                    class="form"
                    on:submit=move |ev: leptos::ev::SubmitEvent| {
                        ev.prevent_default();
                        let typed = text.get_untracked().trim().to_string();
                        if !typed.is_empty() {
                            answer(typed)
                        }
                    }
                >
                    <input
                        placeholder="Your reply..."
                        data-testid="reply-input"
                        prop:value=text
                        on:input=move |ev| text.set(event_target_value(&ev))
                    />
                    <FormError error=move || send.error() testid="reply-error" />
                    <FormActions
                        save_testid="send-reply"
                        busy=busy
                        blocked=move || text.with(|r| r.trim().is_empty())
                        label="Send"
                        on_cancel=move |_| replying.set(None)
                    />
                </form>
            }
        }
    };
    let buttons = {
        let id = id.clone();
        move || {
            let (id, answer) = (id.clone(), answer.clone());
            let skip = move |_| {
                let text = options
                    .with_untracked(|(_, d)| d.clone())
                    .unwrap_or_else(|| "Accepted agent default".into());
                answer(text)
            };
            view! {
                <div class="actions">
                    <button
                        class="button"
                        data-testid="reply"
                        on:click=move |_| {
                            send.clear();
                            replying.set(Some(id.clone()));
                        }
                    >
                        "Reply"
                    </button>
                    <button
                        class="button button--ghost"
                        data-testid="skip"
                        prop:disabled=busy
                        on:click=skip
                    >
                        "Skip (use the default)"
                    </button>
                </div>
            }
        }
    };
    let actions = move || {
        open_question.get().then(|| {
            let (form, buttons) = (form.clone(), buttons.clone());
            move || {
                if is_replying.get() {
                    form().into_any()
                } else {
                    buttons().into_any()
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
            {choices}
            {default}
            {actions}
        </li>
    }
}
