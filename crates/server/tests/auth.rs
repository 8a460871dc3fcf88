mod common;

use axum::http::StatusCode;
use buildd_server::db::sql;
use common::*;
use serde_json::json;

#[tokio::test]
async fn a_missing_or_unknown_key_is_401() {
    let app = TestApp::new().await;
    for path in ["/api/missions", "/api/tasks", "/api/workspaces"] {
        let (status, body) = app.call("GET", path, NO_KEY, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(body, json!({"error": "Unauthorized"}));
        let (status, _) = app.call("GET", path, "bld_0000", None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
    }
    let (status, _) = app.raw("GET", "/api/missions", "", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn mutations_need_an_admin_key() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let task = app.task(Some(&mission), "T").await;
    for key in [&app.worker, &app.trigger] {
        for (method, path, body) in [
            ("POST", "/api/missions".to_string(), json!({"title": "x"})),
            (
                "PATCH",
                format!("/api/missions/{mission}"),
                json!({"title": "x"}),
            ),
            ("DELETE", format!("/api/missions/{mission}"), json!({})),
            ("PATCH", format!("/api/tasks/{task}"), json!({"title": "x"})),
            ("POST", "/api/workspaces".to_string(), json!({"name": "x"})),
            (
                "PATCH",
                format!("/api/workspaces/{}", app.workspace),
                json!({"maxConcurrentTasks": 2}),
            ),
        ] {
            let (status, body) = app.call(method, &path, key, Some(body)).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}");
            assert_eq!(body["error"], "Requires admin-level API key");
        }
    }
    // Nothing was changed by the refused calls.
    let (_, m) = app
        .call("GET", &format!("/api/missions/{mission}"), &app.admin, None)
        .await;
    assert_eq!(m["title"], "M");
}

#[tokio::test]
async fn any_key_of_the_team_may_read() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    for key in [&app.admin, &app.worker, &app.trigger] {
        let (status, _) = app
            .call("GET", &format!("/api/missions/{mission}"), key, None)
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = app.call("GET", "/api/missions", key, None).await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test]
async fn keys_are_stored_only_as_hashes() {
    let app = TestApp::new().await;
    let mut tx = app.db.read().await.unwrap();
    let rows: Vec<(String, String)> =
        sql::query_as("SELECT api_key_hash, api_key_prefix FROM accounts")
            .fetch_all(&mut tx)
            .await
            .unwrap();
    assert_eq!(rows.len(), 4);
    for key in [&app.admin, &app.worker, &app.trigger, &app.other] {
        assert!(key.starts_with("bld_") && key.len() == 68);
        assert!(rows
            .iter()
            .all(|(hash, _)| hash != key && !hash.contains(&key[4..])));
        assert!(rows
            .iter()
            .any(|(hash, prefix)| *hash == buildd_server::keys::hash_key(key)
                && key.starts_with(prefix.as_str())));
    }
}

#[tokio::test]
async fn another_teams_objects_are_not_found() {
    let app = TestApp::new().await;
    let mission = app.mission("Secret").await;
    let task = app.task(Some(&mission), "Hidden").await;
    let cases = [
        (
            "GET",
            format!("/api/missions/{mission}"),
            "Mission not found",
        ),
        (
            "PATCH",
            format!("/api/missions/{mission}"),
            "Mission not found",
        ),
        (
            "DELETE",
            format!("/api/missions/{mission}"),
            "Mission not found",
        ),
        ("GET", format!("/api/tasks/{task}"), "Task not found"),
        ("PATCH", format!("/api/tasks/{task}"), "Task not found"),
        (
            "GET",
            format!("/api/workspaces/{}", app.workspace),
            "Workspace not found",
        ),
        (
            "PATCH",
            format!("/api/workspaces/{}", app.workspace),
            "Workspace not found",
        ),
    ];
    for (method, path, message) in cases {
        let (status, body) = app
            .call(method, &path, &app.other, Some(json!({"title": "stolen"})))
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}");
        assert_eq!(body["error"], message);
    }
    let (_, list) = app.call("GET", "/api/missions", &app.other, None).await;
    assert_eq!(list["missions"], json!([]));
    let (_, tasks) = app.call("GET", "/api/tasks", &app.other, None).await;
    assert_eq!(tasks["tasks"], json!([]));
    let (_, ws) = app.call("GET", "/api/workspaces", &app.other, None).await;
    assert_eq!(ws["workspaces"], json!([]));
    // Another team cannot file work into this team's mission or workspace either.
    let (status, _) = app
        .call(
            "POST",
            "/api/tasks",
            &app.other,
            Some(json!({"title": "x", "workspaceId": app.workspace})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = app
        .call(
            "POST",
            "/api/missions",
            &app.other,
            Some(json!({"title": "x", "workspaceId": app.workspace})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, m) = app
        .call("GET", &format!("/api/missions/{mission}"), &app.admin, None)
        .await;
    assert_eq!(m["title"], "Secret");
}

/// A key's account is kept in memory between requests, but a key whose account is deleted
/// is refused at its next request, as is a key never seen.
#[tokio::test]
async fn a_deleted_key_is_refused_at_once() {
    let app = TestApp::new().await;
    let (status, me) = app.call("GET", "/api/accounts/me", &app.worker, None).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    let (status, _) = app.call("GET", "/api/accounts/me", &app.worker, None).await;
    assert_eq!(status, StatusCode::OK);
    let mut tx = app.db.write().await.unwrap();
    buildd_server::keys::delete_account(&mut tx, me["id"].as_str().unwrap())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (status, _) = app.call("GET", "/api/accounts/me", &app.worker, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = app
        .call("GET", "/api/accounts/me", "bld_never_issued", None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
