//! "New mission": a goal with its workspace, how it is worked (auto with or without
//! check-ins, or manual), whether a person closes it and, optionally, a budget that stops it
//! once spent. Created, it opens.

pub mod budget_field;
pub mod mission_draft;
pub mod mode_choices;
pub mod workspace_field;

use self::budget_field::BudgetField;
use self::mission_draft::MissionDraft;
use self::mode_choices::ModeChoices;
use self::workspace_field::WorkspaceField;
use crate::api;
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use buildd_core::requests::missions::NewMission as NewMissionRequest;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

#[component]
pub fn NewMission(
    /// The form closes.
    #[prop(into)]
    on_cancel: Callback<()>,
) -> impl IntoView {
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
                    <FormError
                        error=Signal::derive(move || {
                            title_error.get().then(|| "Give the mission a title.".to_string())
                        })
                        id="mission-title-error"
                        testid="new-mission-title-error"
                    />
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
                <WorkspaceField draft />
                <BudgetField draft error=budget_error />
                <ModeChoices draft />
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
