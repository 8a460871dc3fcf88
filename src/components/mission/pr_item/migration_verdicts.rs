//! `<MigrationVerdicts>`: a PR's migration statements, each expand or contract and why.

use super::pr_facts::statements;
use buildd_core::pull_request::{PullRequest, Verdict};
use leptos::prelude::*;

/// Nothing for a PR without migrations.
#[component]
pub fn MigrationVerdicts(pr: Memo<PullRequest>) -> impl IntoView {
    move || {
        let statements = pr.with(statements);
        (!statements.is_empty()).then(|| {
            view! {
                <table class="verdicts" data-testid="migration-verdicts">
                    <thead>
                        <tr>
                            <th>"Verdict"</th>
                            <th>"Why"</th>
                            <th>"Statement"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {statements
                            .into_iter()
                            .map(|(path, s)| {
                                let verdict = match s.verdict {
                                    Verdict::Expand => "EXPAND",
                                    Verdict::Contract => "CONTRACT",
                                };
                                view! {
                                    <tr class=format!("verdict--{}", verdict.to_lowercase())>
                                        <td>
                                            <strong>{verdict}</strong>
                                        </td>
                                        <td>{s.reason}</td>
                                        <td>
                                            <code title=path>{s.statement}</code>
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            }
        })
    }
}
