//! The dashboard on Buildd as it is: this server in its upstream mode in front of Buildd
//! v0.175's recorded answers, which lack this server's additions (no PR list, no runs
//! timeline, no team notes, no single-workspace read for keys, check-in fields kept only
//! with a schedule).

use crate::fixtures::check::{any_text, text_from, text_is, text_with};
use buildd_testkit::{Browser, RecordedBuildd, ThroughUpstream};

const MISSION: &str = "50000000-0000-4000-8000-000000000001";
/// The mission's newest planning run, whose plan waits for review (the older one it
/// replaced is `…0001`).
const PLAN: &str = "60000000-0000-4000-8000-000000000002";
const WORKSPACE: &str = "40000000-0000-4000-8000-000000000001";

struct OnBuildd {
    buildd: RecordedBuildd,
    dashboard: ThroughUpstream,
    browser: Browser,
}

/// A browser that connected on the Connect page with `key` of the recorded Buildd.
async fn connect(key: impl Fn(&RecordedBuildd) -> String) -> OnBuildd {
    connect_to(RecordedBuildd::start().await, key).await
}

/// The same, with `buildd`.
async fn connect_to(buildd: RecordedBuildd, key: impl Fn(&RecordedBuildd) -> String) -> OnBuildd {
    let dashboard = ThroughUpstream::start(&buildd.url()).await;
    let browser = Browser::start(1280).await;
    browser.goto(&dashboard.url("/connect")).await;
    browser.wait_for("[data-testid=key-input]").await;
    browser.fill("[data-testid=key-input]", &key(&buildd)).await;
    browser.click("[data-testid=connect-submit]").await;
    OnBuildd {
        buildd,
        dashboard,
        browser,
    }
}

async fn connected() -> OnBuildd {
    let on = connect(|b| b.admin_key.clone()).await;
    on.browser.wait_for("[data-testid=command-center]").await;
    on
}

impl OnBuildd {
    async fn open(&self, path: &str, landmark: &str) {
        self.browser.goto(&self.dashboard.url(path)).await;
        self.browser.wait_for(landmark).await;
    }

    /// Whether the header says changes show as they happen.
    async fn live(&self) -> bool {
        let live = self.browser.attr("[data-testid=server]", "data-live").await;
        assert!(live.is_some(), "the header names the server");
        live.as_deref() == Some("true")
    }

    /// The requests Buildd got for `method path` (path without query), with the recording
    /// that answered each.
    fn asked(&self, method: &str, path: &str) -> Vec<buildd_testkit::Received> {
        self.asked_after(0, method, path)
    }

    /// The same, of the requests after the first `before`.
    fn asked_after(
        &self,
        before: usize,
        method: &str,
        path: &str,
    ) -> Vec<buildd_testkit::Received> {
        self.buildd
            .received()
            .into_iter()
            .skip(before)
            .filter(|r| r.method == method && r.target.split('?').next() == Some(path))
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn connecting_lists_buildds_missions_and_says_what_it_does_not_provide() {
    let on = connected().await;
    let stored = on
        .browser
        .run("return localStorage.getItem('buildd.apiBase')")
        .await;
    assert_eq!(stored.as_str(), Some(""), "the API is on the page's origin");
    // Buildd has no PR list and no team notes: said in place, never asked.
    let missing = any_text(&on.browser, "[data-testid=not-offered]").await;
    assert!(!missing.is_empty());
    assert!(on.asked("GET", "/api/prs").is_empty());
    assert!(on.asked("GET", "/api/notes").is_empty());
    // Nor a change stream: the pages poll, and the header says they are not live.
    assert!(on.asked("GET", "/api/events").is_empty());
    assert!(!on.live().await, "the header says the page is live");

    on.browser.click("[data-testid=nav-missions]").await;
    text_with(
        &on.browser,
        "[data-testid=mission-card]",
        "Ref mission: health endpoint",
    )
    .await;
    on.open(
        &format!("/missions/{MISSION}"),
        "[data-testid=mission-title]",
    )
    .await;
    text_with(
        &on.browser,
        "[data-testid=mission-title]",
        "Ref mission: health endpoint",
    )
    .await;
    // Without Buildd's PR list, the mission's PRs are read from its tasks.
    text_with(&on.browser, "[data-testid=pr-list]", "read from the tasks").await;
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_key_is_told_on_the_connect_page_and_not_kept() {
    let on = connect(|_| "bld_not_a_key_of_this_buildd".to_string()).await;
    let error = any_text(&on.browser, "[data-testid=connect-error]").await;
    assert!(error.contains("rejected"), "{error}");
    let stored = on
        .browser
        .run("return localStorage.getItem('buildd.apiKey')")
        .await;
    assert!(stored.is_null(), "{stored}");
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_is_reviewed_and_approved_on_buildd() {
    let on = connected().await;
    on.open(&format!("/tasks/{PLAN}"), "[data-testid=plan-review]")
        .await;
    assert_eq!(on.browser.count("[data-testid=plan-step]").await, 1);
    // Buildd's answers carry no costs: the forecast says so rather than guess.
    text_from(
        &on.browser,
        "[data-testid=plan-forecast-text]",
        "No estimate yet",
    )
    .await;
    on.browser.click("[data-testid=approve-plan]").await;
    any_text(&on.browser, "[data-testid=plan-approved]").await;
    let approvals = on.asked("POST", &format!("/api/tasks/{PLAN}/approve-plan"));
    assert_eq!(approvals.len(), 1);
    assert_eq!(
        approvals[0].answered_by.as_deref(),
        Some("70-approve-second-plan")
    );
    // The approved plan is tracked from Buildd's mission: its step has no task there yet.
    text_is(
        &on.browser,
        "[data-testid=plan-outcome-summary]",
        "1 not started",
    )
    .await;
    text_with(&on.browser, "[data-testid=tracked-step]", "Single step").await;
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn step_comments_go_to_buildd_inside_its_feedback_text() {
    let on = connected().await;
    on.open(&format!("/tasks/{PLAN}"), "[data-testid=plan-review]")
        .await;
    on.browser.click("[data-testid=reject-plan]").await;
    text_with(
        &on.browser,
        "[data-testid=step-comment-count]",
        "This Buildd takes one feedback text",
    )
    .await;
    on.browser
        .click("[data-testid=plan-step][data-ref=only] [data-testid=comment-step]")
        .await;
    on.browser
        .type_into(
            "[data-testid=plan-step][data-ref=only] [data-testid=step-comment-input]",
            "Split it in two",
        )
        .await;
    on.browser
        .type_into(
            "[data-testid=reject-feedback]",
            "Split the work: endpoint first, docs second.",
        )
        .await;
    on.browser.click("[data-testid=send-feedback]").await;
    let path = format!("/api/tasks/{PLAN}/reject-plan");
    let sent = loop {
        let sent = on.asked("POST", &path);
        if !sent.is_empty() {
            break sent;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let body = sent[0].body.clone().expect("a JSON body");
    assert_eq!(
        body,
        serde_json::json!({"feedback":
            "Split the work: endpoint first, docs second.\n\nStep `only`: Split it in two"}),
        "only Buildd's own field, the comment folded into it"
    );
    assert_eq!(sent[0].answered_by.as_deref(), Some("12-reject-plan"));
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn workspace_settings_are_read_from_the_workspace_list() {
    let on = connected().await;
    on.open(
        &format!("/workspaces/{WORKSPACE}"),
        "[data-testid=workspace-policy-current]",
    )
    .await;
    let current = any_text(&on.browser, "[data-testid=workspace-policy-current]").await;
    assert!(current.starts_with("Default:"), "{current}");
    assert!(on.browser.absent("[data-testid=settings-error]").await);
    let list = on.asked("GET", "/api/workspaces");
    assert!(!list.is_empty(), "the row comes from the list");
    // Buildd records no PR facts to replay: the what-if says so and asks for nothing.
    on.browser
        .click("[data-testid=workspace-policy] [data-testid=edit-policy]")
        .await;
    let said = any_text(&on.browser, "[data-testid=what-if-not-offered]").await;
    assert!(said.starts_with("Not known on this server"), "{said}");
    assert!(on.asked("GET", "/api/insights/prs").is_empty());
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_persons_note_is_sent_as_the_users() {
    let on = connected().await;
    on.open(
        &format!("/missions/{MISSION}?tab=feed"),
        "[data-testid=feed]",
    )
    .await;
    on.browser
        .fill(
            "[data-testid=guidance-input]",
            "Prefer a plain JSON health check",
        )
        .await;
    on.browser.click("[data-testid=send-guidance]").await;
    let posted = loop {
        let posted = on.asked("POST", &format!("/api/missions/{MISSION}/notes"));
        if !posted.is_empty() {
            break posted;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let body = posted[0].body.clone().expect("a JSON body");
    assert_eq!(body["authorType"], "user");
    assert_eq!(body["title"], "Prefer a plain JSON health check");
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_checklist_buildd_does_not_keep_stays_in_the_editor_with_why() {
    let on = connected().await;
    on.open(
        &format!("/missions/{MISSION}?tab=settings"),
        "[data-testid=mission-title]",
    )
    .await;
    on.browser.click("[data-testid=edit-checklist]").await;
    on.browser
        .fill("[data-testid=checklist-input]", "- [ ] check CI")
        .await;
    on.browser.click("[data-testid=save-checklist]").await;
    let why = any_text(&on.browser, "[data-testid=unstored]").await;
    assert!(why.contains("check-ins on"), "{why}");
    assert_eq!(
        on.browser
            .value("[data-testid=checklist-input]")
            .await
            .as_deref(),
        Some("- [ ] check CI")
    );
    assert!(!on
        .asked("PATCH", &format!("/api/missions/{MISSION}"))
        .is_empty());
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_buildd_on_another_origin_is_explained_with_the_upstream_mode() {
    // The dashboard on one origin, Buildd (which sends no CORS headers) on another.
    let buildd = RecordedBuildd::start().await;
    let dashboard = ThroughUpstream::start(&buildd.url()).await;
    let browser = Browser::start(1280).await;
    browser.goto(&dashboard.url("/connect")).await;
    browser.wait_for("[data-testid=key-input]").await;
    browser
        .fill("[data-testid=base-input]", &buildd.url())
        .await;
    browser
        .fill("[data-testid=key-input]", &buildd.admin_key)
        .await;
    browser.click("[data-testid=connect-submit]").await;
    let why = any_text(&browser, "[data-testid=connect-error]").await;
    assert!(why.contains("another origin"), "{why}");
    assert!(why.contains("--upstream"), "{why}");
    let stored = browser
        .run("return localStorage.getItem('buildd.apiKey')")
        .await;
    assert!(stored.is_null(), "{stored}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_offered_list_that_answers_404_is_not_asked_again() {
    let buildd = RecordedBuildd::start_claiming_extras().await;
    let dashboard = ThroughUpstream::start(&buildd.url()).await;
    let browser = Browser::start(1280).await;
    browser.goto(&dashboard.url("/connect")).await;
    browser.wait_for("[data-testid=key-input]").await;
    browser
        .fill("[data-testid=key-input]", &buildd.admin_key)
        .await;
    browser.click("[data-testid=connect-submit]").await;
    browser.wait_for("[data-testid=command-center]").await;
    let on = OnBuildd {
        buildd,
        dashboard,
        browser,
    };
    // The board asked once, got Buildd's 404, and says so in place of the count.
    text_with(&on.browser, "[data-testid=waiting-on-you]", "does not list").await;
    let asked = |path: &str| on.asked("GET", path).len();
    assert!(asked("/api/prs") >= 1);
    let (prs, notes) = (asked("/api/prs"), asked("/api/notes"));
    let streams = asked("/api/events");
    assert!(streams >= 1, "the offered change stream was tried");
    // Two refresh rounds later, neither is asked again.
    tokio::time::sleep(std::time::Duration::from_secs(11)).await;
    assert_eq!(asked("/api/prs"), prs, "the PR list was asked again");
    assert_eq!(
        asked("/api/notes"),
        notes,
        "the team's notes were asked again"
    );
    assert!(asked("/api/missions") >= 2, "the board goes on refreshing");
    // The offered change stream answered 404 too: not tried again, and polling carries on.
    assert_eq!(
        asked("/api/events"),
        streams,
        "the change stream was tried again"
    );
    assert!(!on.live().await, "the header says the page is live");
    on.browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn spend_buildd_does_not_report_is_said_and_a_budget_is_set_through_its_patch() {
    let on = connected().await;
    // Buildd's mission carries no spend: said in place, never $0.
    on.open(&format!("/missions/{MISSION}"), "[data-testid=budget-card]")
        .await;
    let text = any_text(&on.browser, "[data-testid=budget-text]").await;
    assert_eq!(text, "No budget · spend not reported by this Buildd");
    assert!(!text.contains("$0"), "{text}");

    // Set budget sends Buildd's own PATCH {costBudgetUsd}; with no spend reported there is
    // nothing to replay it over, and nothing is said of what it would have done.
    on.browser.fill("[data-testid=budget-input]", "25").await;
    assert_eq!(on.browser.texts("[data-testid=budget-what-if]").await, [""]);
    on.browser.click("[data-testid=raise-budget-button]").await;
    let path = format!("/api/missions/{MISSION}");
    let sent = loop {
        let sent = on.asked("PATCH", &path);
        if !sent.is_empty() {
            break sent;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(
        sent[0].body,
        Some(serde_json::json!({"costBudgetUsd": 25.0}))
    );
    assert_eq!(
        sent[0].answered_by.as_deref(),
        Some("31-patch-mission-costbudget")
    );
    assert!(
        on.browser
            .absent("[data-testid=budget-error]:not(:empty)")
            .await
    );

    // A task without attempts: its total is not reported either.
    on.open(
        "/tasks/60000000-0000-4000-8000-000000000001",
        "[data-testid=task-cost-total]",
    )
    .await;
    let total = any_text(&on.browser, "[data-testid=task-cost-total]").await;
    assert_eq!(total, "Total: spend not reported by this Buildd");
    on.browser.close().await;
}

/// A task of no mission, claimed by Buildd's recorded runner, whose agent waits on a
/// question (`recordings/81-`).
const WAITING_TASK: &str = "c37e84f2-eb48-479c-bea8-98fcc5508b4b";

#[tokio::test(flavor = "multi_thread")]
async fn a_run_on_buildd_shows_its_figures_says_where_its_question_is_and_stop_is_sent_as_buildd_takes_it(
) {
    let on = connected().await;
    on.open(&format!("/tasks/{WAITING_TASK}"), "[data-testid=live-run]")
        .await;
    // What Buildd's task read carries: the run's figures.
    let stats = text_with(&on.browser, "[data-testid=run-stats]", "Commits").await;
    assert!(stats.contains("Files changed\n3"), "{stats}");
    assert!(stats.contains("+40/−12"), "{stats}");
    // What it does not: the question (answered in Buildd's own app) and the milestones.
    text_with(
        &on.browser,
        "[data-testid=agent-waiting-elsewhere]",
        "only in its own app",
    )
    .await;
    assert!(on.browser.absent("[data-testid=agent-waiting]").await);
    on.browser
        .wait_for("[data-testid=milestones-not-offered]")
        .await;

    on.browser.click("[data-testid=stop-task]").await;
    on.browser
        .fill("[data-testid=stop-reason]", "It is looping")
        .await;
    on.browser.click("[data-testid=stop-confirm]").await;
    // The recorded Buildd reads the task back as it was, so the page says the stop did not
    // stick, and keeps the reason.
    text_with(&on.browser, "[data-testid=stop-error]", "not stopped").await;
    assert_eq!(
        on.browser
            .value("[data-testid=stop-reason]")
            .await
            .as_deref(),
        Some("It is looping")
    );
    let sent = on.asked("PATCH", &format!("/api/tasks/{WAITING_TASK}"));
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0].body,
        Some(serde_json::json!({"status": "cancelled", "reason": "It is looping"}))
    );
    // Read before it was sent: Buildd would cancel a finished task too.
    let reads = on.asked("GET", &format!("/api/tasks/{WAITING_TASK}"));
    assert!(reads.len() >= 3, "{reads:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn opening_a_mission_on_buildd_asks_it_to_reconcile_its_prs_once_a_minute_at_most() {
    let on = connected().await;
    let path = format!("/api/missions/{MISSION}/reconcile");
    on.open(
        &format!("/missions/{MISSION}"),
        "[data-testid=mission-title]",
    )
    .await;
    on.browser
        .wait_answer("return 0", |_| !on.asked("POST", &path).is_empty())
        .await;
    // Away and back within the minute: not asked again.
    on.browser.click("[data-testid=nav-command]").await;
    on.browser.wait_for("[data-testid=command-center]").await;
    on.browser
        .click(&format!("a[href=\"/missions/{MISSION}\"]"))
        .await;
    on.browser.wait_for("[data-testid=mission-title]").await;
    on.browser.wait_for("[data-testid=tab-overview]").await;
    let asked = on.asked("POST", &path);
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].body, None);
    assert_eq!(
        asked[0].answered_by.as_deref(),
        Some("99-post-mission-reconcile")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_organizers_open_questions_on_buildd_wait_on_you_read_mission_by_mission() {
    let on = connected().await;
    // Buildd lists no team-wide notes: each open mission's questions are read instead.
    let item = text_with(
        &on.browser,
        "[data-testid=waiting-on-you]",
        "Answer: Should /healthz check the database?",
    )
    .await;
    assert!(item.to_lowercase().contains("question"), "{item}");
    let asked = on.asked("GET", &format!("/api/missions/{MISSION}/notes"));
    assert!(
        asked.iter().any(|r| r.target.ends_with("?type=question")),
        "{asked:?}"
    );
    assert!(on.asked("GET", "/api/notes").is_empty());
    // Not counted among what this server does not list.
    let missing = text_with(&on.browser, "[data-testid=waiting-on-you]", "does not list").await;
    assert!(!missing.contains("questions"), "{missing}");
    // Answered in place with its default, as a person's reply, as Buildd's page sends it.
    on.browser
        .click("[data-testid=answer-question] [data-testid=answer-option]")
        .await;
    on.browser
        .wait_answer("return 0", |_| {
            !on.asked("POST", &format!("/api/missions/{MISSION}/notes"))
                .is_empty()
        })
        .await;
    let sent = on.asked("POST", &format!("/api/missions/{MISSION}/notes"));
    assert_eq!(
        sent[0].body,
        Some(
            serde_json::json!({"type": "reply", "title": "no", "authorType": "user",
                                "replyTo": "96b25cfb-cdf4-447b-a5f0-e5e7a02cd522"})
        )
    );
    assert_eq!(
        sent[0].answered_by.as_deref(),
        Some("74-post-question-reply")
    );
    assert!(
        on.browser
            .absent("[data-testid=answer-question] [data-testid=answer-error]")
            .await
    );
}

/// A mission whose two tasks opened PRs on Buildd: #12 with CI green, #13 with CI failing
/// (`recordings/78-`).
const MISSION_WITH_PRS: &str = "50000000-0000-4000-8000-000000000002";

#[tokio::test(flavor = "multi_thread")]
async fn merge_on_buildd_is_refused_by_the_policy_or_sent_past_its_rails_and_buildds_answer_shown()
{
    let on = connected().await;
    on.open(
        &format!("/missions/{MISSION_WITH_PRS}"),
        "[data-testid=task-pr]",
    )
    .await;
    let row = |n: u32| format!("[data-testid=task-pr]:has(a[href$=\"/pull/{n}\"])");
    judged_then_merged(&on, row).await;
}

/// Merge on PR #13 (CI failing) then #12 (CI green) where `place` finds each: #13 is
/// refused on the CI rail and nothing is sent; #12 is sent once its rails are confirmed, and
/// Buildd's own answer (the recorded Buildd has no GitHub) is shown as it is.
async fn judged_then_merged(on: &OnBuildd, place: impl Fn(u32) -> String) {
    // CI failing: the policy holds it, naming the rail; nothing is sent.
    on.browser
        .click(&format!("{} [data-testid=merge-pr]", place(13)))
        .await;
    let refused = text_with(
        &on.browser,
        &format!("{} [data-testid=merge-refused]", place(13)),
        "the CI rail",
    )
    .await;
    assert!(refused.contains("failed"), "{refused}");
    assert!(on.asked("PUT", "/api/github/pr").is_empty());
    // CI green: a person may merge it past what Buildd cannot show, once confirmed.
    on.browser
        .click(&format!("{} [data-testid=merge-pr]", place(12)))
        .await;
    text_with(
        &on.browser,
        &format!("{} [data-testid=merge-past]", place(12)),
        "file listing",
    )
    .await;
    assert!(on.asked("PUT", "/api/github/pr").is_empty());
    on.browser
        .click(&format!("{} [data-testid=merge-past-confirm]", place(12)))
        .await;
    // Buildd's own answer, as it is (the recorded Buildd has no GitHub).
    text_with(
        &on.browser,
        &format!("{} [data-testid=merge-error]", place(12)),
        "Workspace not linked to GitHub repo",
    )
    .await;
    let sent = on.asked("PUT", "/api/github/pr");
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0].body,
        Some(serde_json::json!({"prNumber": 12, "workspaceId": WORKSPACE}))
    );
}

/// The "Waiting on you" item of PR `n`.
fn pr_item(n: u32) -> String {
    format!("[data-testid=waiting-item][data-subject$=\"/pull/{n}\"]")
}

#[tokio::test(flavor = "multi_thread")]
async fn buildds_open_prs_wait_on_you_and_merge_is_judged_on_a_fresh_read_of_their_mission() {
    let on = connect_to(RecordedBuildd::start_later().await, |b| b.admin_key.clone()).await;
    on.browser.wait_for("[data-testid=command-center]").await;
    // Buildd's list carries each task's PR address but not where CI stands: both open
    // PRs wait, and the list is not said to be missing.
    let list = text_with(&on.browser, "[data-testid=waiting-on-you]", "Merge PR #13").await;
    assert!(
        list.contains("Merge PR #12: Task of the OTHER mission"),
        "{list}"
    );
    assert!(list.to_lowercase().contains("pr to merge"), "{list}");
    assert!(!list.contains("pull requests"), "{list}");
    assert!(on
        .asked("GET", &format!("/api/missions/{MISSION_WITH_PRS}"))
        .is_empty());
    judged_then_merged(&on, pr_item).await;
    // Each Merge read the mission afresh.
    assert_eq!(
        on.asked("GET", &format!("/api/missions/{MISSION_WITH_PRS}"))
            .len(),
        2
    );
    on.browser.close().await;
}

/// A mission created held on Buildd (`recordings/102-`).
const HELD_MISSION: &str = "767c0958-fc8b-430a-bc06-1a07b9aa3298";

#[tokio::test(flavor = "multi_thread")]
async fn a_held_mission_is_armed_through_buildds_patch() {
    let on = connected().await;
    on.open(
        &format!("/missions/{HELD_MISSION}"),
        "[data-testid=mission-held]",
    )
    .await;
    on.browser.click("[data-testid=arm-mission]").await;
    // Buildd armed it (its recorded answer says `isHeld: false`), but its recorded read
    // still says held: the page reads it back and says the change did not stick.
    text_with(&on.browser, "[data-testid=arm-error]", "still held").await;
    let sent = on.asked("PATCH", &format!("/api/missions/{HELD_MISSION}"));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].body, Some(serde_json::json!({"arm": true})));
    assert_eq!(
        sent[0].answered_by.as_deref(),
        Some("101-patch-mission-arm-held")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn activity_on_buildd_filters_its_task_list_in_the_browser() {
    let on = connected().await;
    // The command center reads what runs itself (`?status=active`): once it has, only
    // Activity's reads follow.
    on.browser.wait_for("[data-testid=running-task]").await;
    let before = on.buildd.received().len();
    on.open("/activity?mission=none", "[data-testid=activity-row]")
        .await;
    // Buildd's `GET /api/tasks` takes no filters: it is read whole, filtered here.
    let titles = on.browser.texts("[data-testid=activity-title]").await;
    let mut sorted = titles.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "Nightly cleanup of carts",
            "Task with no mission",
            "Tidy the logs"
        ],
        "{titles:?}"
    );
    let asked = on.asked_after(before, "GET", "/api/tasks");
    assert!(!asked.is_empty());
    assert!(asked.iter().all(|r| r.target == "/api/tasks"), "{asked:?}");
    assert!(on.asked("GET", "/api/activity").is_empty());
}
