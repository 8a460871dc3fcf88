//! "New mission": a goal with its workspace, how it is worked (auto with or without
//! check-ins, or manual), whether a person closes it and, optionally, a budget that stops it
//! once spent. Created, it opens.

use crate::api;
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::connection::use_connection;
use crate::state::mutation::{refused, Mutation};
use crate::state::request::with_connection;
use buildd_core::budget::{budget_value, typed_budget};
use buildd_core::money::Usd;
use buildd_core::requests::missions::NewMission as NewMissionRequest;
use buildd_core::requests::Patch;
use buildd_core::OrchestrationMode;
use buildd_core::WorkspaceList;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

const BUDGET_HINT: &str = "In US dollars. Once its agents have spent it, nothing new starts \
                           until you raise it.";

/// The form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct MissionDraft {
    pub title: String,
    pub description: String,
    pub workspace: String,
    pub manual: bool,
    pub check_ins: bool,
    pub requires_review: bool,
    /// The budget as typed; empty for none.
    pub budget: String,
}

impl Default for MissionDraft {
    fn default() -> Self {
        Self {
            title: String::new(),
            description: String::new(),
            workspace: String::new(),
            manual: false,
            check_ins: true,
            requires_review: false,
            budget: String::new(),
        }
    }
}

impl MissionDraft {
    /// The budget typed, checked by the server's rule: `Ok(None)` when left empty.
    fn budget(&self) -> Result<Option<Usd>, String> {
        if self.budget.trim().is_empty() {
            return Ok(None);
        }
        typed_budget(&self.budget).map(Some)
    }

    /// The mission to create, with `budget` as checked.
    fn request(&self, budget: Option<Usd>) -> NewMissionRequest {
        let text = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        NewMissionRequest {
            description: text(&self.description),
            orchestration_mode: Some(if self.manual {
                OrchestrationMode::Manual
            } else {
                OrchestrationMode::Auto
            }),
            requires_review: Some(self.requires_review),
            // Check-ins are an auto mission's: a manual one has none.
            is_heartbeat: Patch::Value(!self.manual && self.check_ins),
            workspace_id: text(&self.workspace),
            cost_budget_usd: match budget {
                Some(_) => Patch::Value(budget_value(budget)),
                None => Patch::Absent,
            },
            ..NewMissionRequest::new(self.title.trim())
        }
    }
}

#[component]
pub fn NewMission(
    /// The form closes.
    #[prop(into)]
    on_cancel: Callback<()>,
) -> impl IntoView {
    let connection = use_connection();
    let workspaces = LocalResource::new(move || {
        with_connection(&connection, |c| async move { api::workspaces(&c).await })
    });
    let draft = RwSignal::new(MissionDraft::default());
    let title_error = RwSignal::new(false);
    let budget_error = RwSignal::new(None::<String>);
    let navigate = use_navigate();
    // Created, it opens.
    let create = Mutation::request(
        move |c, mission: &NewMissionRequest| {
            let (mission, navigate) = (mission.clone(), navigate.clone());
            async move {
                let id = api::create_mission(&c, &mission).await?;
                navigate(&format!("/missions/{id}"), Default::default());
                Ok(())
            }
        },
        refused("The mission was not created"),
    );
    // The first workspace is chosen until the person picks one.
    Effect::new(move |_| {
        if let Some(Ok(WorkspaceList { workspaces })) = workspaces.get() {
            if draft.with_untracked(|d| d.workspace.is_empty()) {
                if let Some(first) = workspaces.first() {
                    let id = first.id.clone();
                    draft.update(|d| d.workspace = id);
                }
            }
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let d = draft.get_untracked();
        // Both fields say what is wrong at once; nothing is sent until neither does.
        let untitled = d.title.trim().is_empty();
        title_error.set(untitled);
        let budget = d.budget();
        budget_error.set(budget.clone().err());
        if let (Ok(budget), false) = (budget, untitled) {
            create.dispatch(d.request(budget));
        }
    };
    let set = move |f: fn(&mut MissionDraft, String)| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev);
            draft.update(|d| f(d, v));
        }
    };
    let checked = move |f: fn(&mut MissionDraft, bool)| {
        move |ev: leptos::ev::Event| {
            let on = event_target_checked(&ev);
            draft.update(|d| f(d, on));
        }
    };
    view! {
        <section class="card" data-testid="new-mission">
            <h2 class="card__title">"New mission"</h2>
            <form class="form" on:submit=submit novalidate>
                <div class="field">
                    <label class="field__label" for="mission-title">
                        "Title"
                    </label>
                    <input
                        id="mission-title"
                        data-testid="new-mission-title"
                        autofocus
                        aria-describedby="mission-title-error"
                        aria-invalid=move || title_error.get().to_string()
                        prop:value=move || draft.with(|d| d.title.clone())
                        on:input=move |ev| {
                            title_error.set(false);
                            set(|d, v| d.title = v)(ev)
                        }
                    />
                    {move || {
                        title_error
                            .get()
                            .then(|| {
                                view! {
                                    <p
                                        class="form__error"
                                        id="mission-title-error"
                                        data-testid="new-mission-title-error"
                                    >
                                        "Give the mission a title."
                                    </p>
                                }
                            })
                    }}
                </div>
                <div class="field">
                    <label class="field__label" for="mission-description">
                        "Goal"
                    </label>
                    <p class="field__hint" id="mission-description-hint">
                        "What done looks like, for the organizer that plans it. Markdown."
                    </p>
                    <textarea
                        id="mission-description"
                        rows="4"
                        data-testid="new-mission-description"
                        aria-describedby="mission-description-hint"
                        prop:value=move || draft.with(|d| d.description.clone())
                        on:input=set(|d, v| d.description = v)
                    ></textarea>
                </div>
                <div class="field">
                    <label class="field__label" for="mission-workspace">
                        "Workspace"
                    </label>
                    {move || match workspaces.get() {
                        None => {
                            view! { <p class="muted small">"Loading workspaces…"</p> }.into_any()
                        }
                        Some(Err(e)) => {
                            view! {
                                <p class="form__error">
                                    {format!("The workspaces could not be read: {e}")}
                                </p>
                            }
                                .into_any()
                        }
                        Some(Ok(list)) => {
                            view! {
                                <select
                                    id="mission-workspace"
                                    data-testid="new-mission-workspace"
                                    prop:value=move || draft.with(|d| d.workspace.clone())
                                    on:change=set(|d, v| d.workspace = v)
                                >
                                    {list
                                        .workspaces
                                        .into_iter()
                                        .map(|w| {
                                            view! { <option value=w.id.clone()>{w.name}</option> }
                                        })
                                        .collect_view()}
                                </select>
                            }
                                .into_any()
                        }
                    }}
                </div>
                <div class="field">
                    <label class="field__label" for="mission-budget">
                        "Budget (optional)"
                    </label>
                    <p class="field__hint" id="mission-budget-hint">
                        {BUDGET_HINT}
                    </p>
                    <input
                        id="mission-budget"
                        class="raise-budget__input"
                        inputmode="decimal"
                        autocomplete="off"
                        placeholder="25.00"
                        data-testid="new-mission-budget"
                        aria-describedby="mission-budget-hint mission-budget-error"
                        aria-invalid=move || budget_error.with(Option::is_some).to_string()
                        prop:value=move || draft.with(|d| d.budget.clone())
                        on:input=move |ev| {
                            budget_error.set(None);
                            set(|d, v| d.budget = v)(ev)
                        }
                    />
                    <p
                        class="form__error"
                        id="mission-budget-error"
                        data-testid="new-mission-budget-error"
                    >
                        {move || budget_error.get()}
                    </p>
                </div>
                <fieldset class="choices">
                    <legend class="field__label">"How it is worked"</legend>
                    <label class="checkbox">
                        <input
                            type="radio"
                            name="mission-mode"
                            data-testid="new-mission-auto"
                            prop:checked=move || draft.with(|d| !d.manual)
                            on:change=move |_| draft.update(|d| d.manual = false)
                        />
                        "Auto: the organizer plans each next step as work finishes"
                    </label>
                    <label
                        class="checkbox checkbox--nested"
                        class:hidden=move || draft.with(|d| d.manual)
                    >
                        <input
                            type="checkbox"
                            data-testid="new-mission-check-ins"
                            prop:checked=move || draft.with(|d| d.check_ins)
                            on:change=checked(|d, on| d.check_ins = on)
                        />
                        "Hourly check-ins restart it when it stalls"
                    </label>
                    <label class="checkbox">
                        <input
                            type="radio"
                            name="mission-mode"
                            data-testid="new-mission-manual"
                            prop:checked=move || draft.with(|d| d.manual)
                            on:change=move |_| draft.update(|d| d.manual = true)
                        />
                        "Manual: it plans when you ask"
                    </label>
                </fieldset>
                <label class="checkbox">
                    <input
                        type="checkbox"
                        data-testid="new-mission-requires-review"
                        prop:checked=move || draft.with(|d| d.requires_review)
                        on:change=checked(|d, on| d.requires_review = on)
                    />
                    "A person closes it: once its work is done it waits for Close mission"
                </label>
                <FormError error=move || create.error() testid="new-mission-error" />
                <FormActions
                    save_testid="create-mission"
                    busy=move || create.busy()
                    label="Create mission"
                    working="Creating…"
                    on_cancel=on_cancel
                />
            </form>
        </section>
    }
}
