//! Over a real loopback socket: the API and the dashboard's files from one origin.

mod common;

use buildd_core::AccountLevel;
use buildd_server::{app, demo, keys, Db};
use std::io::{Read, Write};
use std::net::TcpStream;

fn get(addr: std::net::SocketAddr, path: &str, key: Option<&str>) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let auth = key
        .map(|k| format!("Authorization: Bearer {k}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\n{auth}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_lowercase(), body.to_string())
}

#[tokio::test(flavor = "multi_thread")]
async fn serves_the_api_and_the_dashboard_with_deep_links() {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<html>mission control</html>").unwrap();
    std::fs::write(dist.join("app.js"), "console.log(1)").unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).await.unwrap();
    let mut tx = db.write().await.unwrap();
    let team = keys::ensure_team(&mut tx, "T").await.unwrap();
    let key = keys::create_key(&mut tx, &team, &AccountLevel::Admin, "k")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app(db, Some(&dist));
    tokio::spawn(async move { axum::serve(listener, router).await });

    let result = tokio::task::spawn_blocking(move || {
        let (status, head, body) = get(addr, "/api/missions", Some(&key));
        assert_eq!(status, 200);
        assert!(head.contains("content-type: application/json"));
        assert_eq!(body_json(&body)["missions"], serde_json::json!([]));
        let (status, _, body) = get(addr, "/api/missions", None);
        assert_eq!(status, 401);
        assert!(body.contains("Unauthorized"));
        let (status, _, body) = get(addr, "/api/no-such-thing", Some(&key));
        assert_eq!(status, 404, "unknown API paths are JSON 404s, not the app");
        assert!(body.contains("Not found"));
        for path in ["/", "/missions/123", "/tasks/abc"] {
            let (status, head, body) = get(addr, path, None);
            assert_eq!(status, 200, "{path}");
            assert!(body.contains("mission control"), "{path}");
            assert!(head.contains("cache-control: no-cache"));
        }
        let (status, _, body) = get(addr, "/app.js", None);
        assert_eq!(status, 200);
        assert_eq!(body, "console.log(1)");
    })
    .await;
    result.unwrap();
}

/// The body of a response that may be chunked.
fn body_json(body: &str) -> serde_json::Value {
    let start = body.find('{').unwrap();
    let end = body.rfind('}').unwrap();
    serde_json::from_str(&body[start..=end]).unwrap()
}

#[tokio::test]
async fn the_demo_seeds_once_and_shows_every_state() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("demo.db")).await.unwrap();
    assert!(demo::seed_if_empty(&db).await.unwrap());
    assert!(
        !demo::seed_if_empty(&db).await.unwrap(),
        "a second start adds nothing"
    );
    let key = demo::dashboard_key(&db).await.unwrap();
    let router = app(db, None);
    let get = |path: &str| {
        let req = axum::http::Request::get(path)
            .header("Authorization", format!("Bearer {key}"))
            .body(axum::body::Body::empty())
            .unwrap();
        let router = router.clone();
        async move {
            let res = tower::ServiceExt::oneshot(router, req).await.unwrap();
            http_body_util::BodyExt::collect(res.into_body())
                .await
                .unwrap()
                .to_bytes()
        }
    };
    let list: buildd_core::MissionList =
        serde_json::from_slice(&get("/api/missions").await).unwrap();

    // Every PR a demo task shows is in the mission's PR list, merged or open alike.
    let prs: buildd_core::pull_request::PullRequestList =
        serde_json::from_slice(&get("/api/prs").await).unwrap();
    let mut shown = 0;
    for m in &list.missions {
        for w in m.tasks.iter().flat_map(|t| &t.workers) {
            let Some(number) = w.pr_number else { continue };
            let pr = prs
                .prs
                .iter()
                .find(|p| p.number == number)
                .expect("PR listed");
            assert_eq!(pr.mission_id.as_deref(), Some(m.mission.id.as_str()));
            assert_eq!(
                pr.state.as_str() == "merged",
                w.merged_at.is_some(),
                "PR #{number}"
            );
            shown += 1;
        }
    }
    assert!(
        shown >= 2 && shown == prs.prs.len(),
        "{shown} of {}",
        prs.prs.len()
    );

    // Every failed task says why.
    let mut failed = 0;
    for m in &list.missions {
        let detail: serde_json::Value =
            serde_json::from_slice(&get(&format!("/api/missions/{}", m.mission.id)).await).unwrap();
        for t in detail["tasks"].as_array().unwrap() {
            if t["status"] == "failed" {
                failed += 1;
                assert!(
                    t["result"]["error"].as_str().is_some_and(|e| !e.is_empty()),
                    "{t}"
                );
            }
        }
    }
    assert!(failed > 0, "the demo shows a failure");
    assert_eq!(list.missions.len(), 6);
    use buildd_core::grouping::{mission_group, MissionGroup};
    let mut groups: Vec<MissionGroup> = list
        .missions
        .iter()
        .map(|m| {
            let p = buildd_core::compute_progress(&m.mission.status, &m.tasks);
            mission_group(&m.mission, &m.tasks, &p, m.next_run_at.as_deref())
        })
        .collect();
    groups.sort();
    groups.dedup();
    assert_eq!(
        groups,
        MissionGroup::ALL.to_vec(),
        "the demo fills every group"
    );
    let states: std::collections::HashSet<String> = list
        .missions
        .iter()
        .flat_map(|m| m.segments.iter().map(|s| s.state.as_str().to_string()))
        .collect();
    for state in ["solid", "half", "ghost", "notch", "empty"] {
        assert!(states.contains(state), "no {state} segment in the demo");
    }

    // Agents spent money; the mission with a plan in review sits near its budget, with
    // less left than one step costs at most.
    use buildd_core::money::Usd;
    let spend = |m: &buildd_core::MissionListItem| {
        Usd::parse(m.mission.spend_usd.as_deref().unwrap()).unwrap()
    };
    assert!(list.missions.iter().all(|m| spend(m) > Usd::ZERO));
    let health = list
        .missions
        .iter()
        .find(|m| m.mission.title == "Add a health endpoint")
        .unwrap();
    let budget = Usd::parse(health.mission.cost_budget_usd.as_deref().unwrap()).unwrap();
    let left = budget - spend(health);
    assert!(left > Usd::ZERO && left < Usd::from_cents(150), "{left}");
}
