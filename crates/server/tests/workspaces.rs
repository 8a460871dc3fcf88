mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn list_create_and_read() {
    let app = TestApp::new().await;
    let (status, created) = app
        .call(
            "POST",
            "/api/workspaces",
            &app.admin,
            Some(json!({"name": "api", "repo": "https://github.com/acme/api.git"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let ws = &created["workspace"];
    assert_keys(
        ws,
        &[
            "id",
            "name",
            "repo",
            "localPath",
            "accessMode",
            "dataClass",
            "maxConcurrentTasks",
            "gitConfig",
            "configStatus",
            "teamId",
            "createdAt",
            "updatedAt",
        ],
    );
    assert_eq!(ws["repo"], "acme/api");
    assert_eq!(ws["gitConfig"], json!({}));
    let id = ws["id"].as_str().unwrap();
    let (status, read) = app
        .call("GET", &format!("/api/workspaces/{id}"), &app.worker, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read["workspace"]["name"], "api");
    let (_, list) = app.call("GET", "/api/workspaces", &app.admin, None).await;
    let names: Vec<&str> = list["workspaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["api", "web"]);
    assert!(
        !list.to_string().contains("apiKey"),
        "no account data leaks"
    );
}

#[tokio::test]
async fn create_validates() {
    let app = TestApp::new().await;
    for (body, code, message) in [
        (json!({}), StatusCode::BAD_REQUEST, "name is required"),
        (
            json!({"name": "x", "repo": "not a repo"}),
            StatusCode::BAD_REQUEST,
            "repo must look like",
        ),
        (
            json!({"name": "web"}),
            StatusCode::CONFLICT,
            "name: a workspace called \"web\" already exists",
        ),
    ] {
        let (status, answer) = app
            .call("POST", "/api/workspaces", &app.admin, Some(body.clone()))
            .await;
        assert_eq!(status, code, "{body}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(message),
            "{answer}"
        );
    }
}

#[tokio::test]
async fn patch_merges_git_config_and_validates() {
    let app = TestApp::new().await;
    let path = format!("/api/workspaces/{}", app.workspace);
    let (status, ok) = app
        .call(
            "PATCH",
            &path,
            &app.admin,
            Some(json!({"gitConfig": {"autoMergeOnGreenCI": false}, "maxConcurrentTasks": 5})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ok, json!({"success": true}));
    app.call(
        "PATCH",
        &path,
        &app.admin,
        Some(json!({"gitConfig": {"defaultBranch": "trunk"}, "defaultBranch": "trunk"})),
    )
    .await;
    let (_, read) = app.call("GET", &path, &app.admin, None).await;
    assert_eq!(
        read["workspace"]["gitConfig"],
        json!({"autoMergeOnGreenCI": false, "defaultBranch": "trunk"})
    );
    assert_eq!(read["workspace"]["maxConcurrentTasks"], 5);
    assert_eq!(read["workspace"]["localPath"], "trunk");
    for (body, message) in [
        (json!({"accessMode": "public"}), "accessMode must be"),
        (json!({"dataClass": "secret"}), "dataClass must be"),
        (
            json!({"maxConcurrentTasks": 0}),
            "maxConcurrentTasks must be an integer >= 1",
        ),
        (json!({"gitConfig": "x"}), "gitConfig must be an object"),
        (
            json!({"gitConfig": {"autoMergeOnGreenCI": "no"}}),
            "gitConfig.autoMergeOnGreenCI must be true or false",
        ),
        (
            json!({"gitConfig": {"policyConfig": {"reviewerPatchEvidence": 1}}}),
            "gitConfig.policyConfig.reviewerPatchEvidence must be true or false",
        ),
        (
            json!({"gitConfig": {"migrationsPath": ["db"]}}),
            "gitConfig.migrationsPath must be a string or null",
        ),
        (json!({"name": ""}), "name must be a non-empty string"),
    ] {
        let (status, answer) = app
            .call("PATCH", &path, &app.admin, Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(message),
            "{answer}"
        );
    }
    let (_, read) = app.call("GET", &path, &app.admin, None).await;
    assert_eq!(
        read["workspace"]["maxConcurrentTasks"], 5,
        "refused patches change nothing"
    );
    assert_ne!(
        read["workspace"]["accessMode"],
        Value::String("public".into())
    );
}
