//! Buildd v0.175 as it was recorded: a loopback server that answers each request with the
//! real answer captured for the same request (`../shared/buildd/captures/`, `more-captures/`
//! and this crate's `recordings/`, taken from the same Buildd: the account read and the
//! answers for routes it lacks), so the dashboard meets Buildd's shapes, refusals and
//! missing endpoints in CI, where the real Buildd cannot run.
//!
//! A request is matched by method, path and key (the captures' admin, worker and other-team
//! keys map to the three keys below). Among the recordings of one request, a read answers
//! the newest, and a write the one whose body names the same fields, the next one each time
//! it is repeated (approving twice gets Buildd's second answer). A request without a
//! recording gets Buildd's answer for a route it lacks: Next.js's 404 page.

use axum::body::to_bytes;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The key of the recorded admin account, as the captures redact it.
const ADMIN: &str = "ADMIN_KEY";
const WORKER: &str = "WORKER_KEY";
const OTHER_TEAM: &str = "OTHER_TEAM_KEY";

/// One recorded request and Buildd's answer.
#[derive(Clone, Debug)]
struct Recording {
    name: String,
    method: String,
    path: String,
    query: BTreeSet<String>,
    /// `ADMIN_KEY`, `WORKER_KEY`, `OTHER_TEAM_KEY`, or empty for no key.
    key: String,
    fields: BTreeSet<String>,
    status: StatusCode,
    content_type: Option<String>,
    body: String,
}

/// A request as the recorded Buildd received it.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    /// With its query.
    pub target: String,
    pub body: Option<Value>,
    /// The recording that answered, or none.
    pub answered_by: Option<String>,
}

#[derive(Default)]
struct Log {
    received: Vec<Received>,
    /// How often each recording group (method, path, key, fields) was asked.
    asked: HashMap<String, usize>,
}

#[derive(Clone)]
struct Recorded {
    recordings: Arc<Vec<Recording>>,
    keys: Arc<HashMap<String, &'static str>>,
    log: Arc<Mutex<Log>>,
}

/// The recorded Buildd on a loopback port, stopped when dropped.
pub struct RecordedBuildd {
    pub addr: SocketAddr,
    /// The recorded team's admin, worker and other team's keys.
    pub admin_key: String,
    pub worker_key: String,
    pub other_team_key: String,
    state: Recorded,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for RecordedBuildd {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The clone: the first ancestor of the package under test with `shared/` beside it (read
/// at run time: a cached binary may come from another clone).
fn clone_root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let mut dir = manifest.unwrap_or_else(|| PathBuf::from("."));
    loop {
        if dir.join("../shared/buildd").is_dir() {
            return dir;
        }
        if !dir.pop() {
            panic!("no shared/buildd beside the clone: the captures are read from there");
        }
    }
}

/// Which of Buildd's states a recorded Buildd answers from.
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    /// As seeded: the mission list before any PR was opened.
    Seeded,
    /// As seeded, but claiming this server's additions (see `start_claiming_extras`).
    ClaimingExtras,
    /// Later: the mission list once two tasks had opened PRs.
    Later,
}

/// Recordings taken later than the seeded state, answered only by a `Later` Buildd.
const LATER: [&str; 2] = [
    "104-get-missions-with-prs",
    "105-get-mission-orders-questions",
];

impl RecordedBuildd {
    pub async fn start() -> Self {
        Self::start_with(Variant::Seeded).await
    }

    /// The same, but claiming this server's additions in its capabilities while lacking
    /// their routes, as a server that lists more than it serves: what the dashboard does when
    /// an offered endpoint answers 404.
    pub async fn start_claiming_extras() -> Self {
        Self::start_with(Variant::ClaimingExtras).await
    }

    /// The same Buildd later, once two tasks of "Other mission" opened PRs: its mission
    /// list carries them.
    pub async fn start_later() -> Self {
        Self::start_with(Variant::Later).await
    }

    async fn start_with(variant: Variant) -> Self {
        let root = clone_root();
        let mut recordings = Vec::new();
        for dir in ["captures", "more-captures"] {
            recordings.extend(read_dir(&root.join("../shared/buildd").join(dir)));
        }
        recordings.extend(read_dir(&root.join("crates/testkit/recordings")));
        assert!(
            recordings.len() >= 55,
            "only {} recordings",
            recordings.len()
        );
        recordings.sort_by(|a, b| a.name.cmp(&b.name));
        if variant != Variant::Later {
            recordings.retain(|r| !LATER.contains(&r.name.as_str()));
        }
        if variant == Variant::ClaimingExtras {
            let ours =
                serde_json::to_string(&buildd_core::capabilities::Capabilities::of_this_server())
                    .expect("capabilities");
            for r in recordings
                .iter_mut()
                .filter(|r| r.path == "/api/missions/capabilities")
            {
                r.body = ours.clone();
            }
            // Lacking the extras' routes: Buildd's refusal of a key on the one it serves
            // to a browser session alone would read as a refused key.
            recordings.retain(|r| r.path != "/api/tasks/waiting-input");
        }
        let admin_key = "bld_recorded_admin".to_string();
        let worker_key = "bld_recorded_worker".to_string();
        let other_team_key = "bld_recorded_other".to_string();
        let keys = HashMap::from([
            (admin_key.clone(), ADMIN),
            (worker_key.clone(), WORKER),
            (other_team_key.clone(), OTHER_TEAM),
        ]);
        let state = Recorded {
            recordings: Arc::new(recordings),
            keys: Arc::new(keys),
            log: Default::default(),
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let router = Router::new().fallback(answer).with_state(state.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self {
            addr,
            admin_key,
            worker_key,
            other_team_key,
            state,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, oldest first.
    pub fn received(&self) -> Vec<Received> {
        self.state.log.lock().expect("log").received.clone()
    }
}

async fn answer(State(state): State<Recorded>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = to_bytes(body, 16 << 20).await.unwrap_or_default();
    let body: Option<Value> = serde_json::from_slice(&bytes).ok();
    let key = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|k| state.keys.get(k).copied().unwrap_or("UNKNOWN"))
        .unwrap_or("");
    let path = parts.uri.path().to_string();
    let query = query_pairs(parts.uri.query().unwrap_or(""));
    let fields = field_names(body.as_ref());
    let method = parts.method.to_string();
    let mut log = state.log.lock().expect("log");
    let chosen = choose(
        &state.recordings,
        &method,
        &path,
        &query,
        key,
        &fields,
        &mut log,
    );
    log.received.push(Received {
        method,
        target: parts.uri.to_string(),
        body,
        answered_by: chosen.map(|r| r.name.clone()),
    });
    drop(log);
    match chosen {
        Some(r) => replay(r),
        None => replay(
            state
                .recordings
                .iter()
                .find(|r| r.name.ends_with("-absent"))
                .expect("a recorded answer for a route Buildd lacks"),
        ),
    }
}

/// A recording's status, content type and body.
fn replay(r: &Recording) -> Response {
    let mut response = (r.status, r.body.clone()).into_response();
    if let Some(kind) = r
        .content_type
        .as_deref()
        .and_then(|c| HeaderValue::from_str(c).ok())
    {
        response.headers_mut().insert(header::CONTENT_TYPE, kind);
    }
    response
}

fn choose<'a>(
    recordings: &'a [Recording],
    method: &str,
    path: &str,
    query: &BTreeSet<String>,
    key: &str,
    fields: &BTreeSet<String>,
    log: &mut Log,
) -> Option<&'a Recording> {
    let same_request: Vec<&Recording> = recordings
        .iter()
        .filter(|r| r.method == method && r.path == path)
        .collect();
    if same_request.is_empty() {
        return None;
    }
    // A key Buildd does not know, or none, gets its 401, whatever the path.
    let by_key: Vec<&Recording> = same_request
        .iter()
        .copied()
        .filter(|r| r.key == key)
        .collect();
    if by_key.is_empty() {
        return recordings
            .iter()
            .find(|r| r.key.is_empty() && r.status == StatusCode::UNAUTHORIZED)
            .filter(|_| key.is_empty() || key == "UNKNOWN");
    }
    let best_query = by_key.iter().map(|r| overlap(&r.query, query)).max()?;
    let by_query: Vec<&Recording> = by_key
        .into_iter()
        .filter(|r| overlap(&r.query, query) == best_query)
        .collect();
    if method == "GET" {
        return by_query.last().copied();
    }
    let best_fields = by_query.iter().map(|r| overlap(&r.fields, fields)).max()?;
    let group: Vec<&Recording> = by_query
        .into_iter()
        .filter(|r| overlap(&r.fields, fields) == best_fields)
        .collect();
    let id = format!("{method} {path} {key} {}", group[0].name);
    let asked = log.asked.entry(id).or_default();
    let chosen = group[(*asked).min(group.len() - 1)];
    *asked += 1;
    Some(chosen)
}

/// How alike two sets of query pairs or field names are: those in common, less those only
/// one side has.
fn overlap(recorded: &BTreeSet<String>, asked: &BTreeSet<String>) -> i64 {
    let common = recorded.intersection(asked).count() as i64;
    common * 2 - recorded.symmetric_difference(asked).count() as i64
}

fn query_pairs(query: &str) -> BTreeSet<String> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

fn field_names(body: Option<&Value>) -> BTreeSet<String> {
    body.and_then(Value::as_object)
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

fn read_dir(dir: &Path) -> Vec<Recording> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("the captures at {}: {e}", dir.display()));
    entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "http"))
        .map(|file| {
            let text = std::fs::read_to_string(&file).expect("a capture");
            parse(
                &file.file_stem().unwrap_or_default().to_string_lossy(),
                &text,
            )
            .unwrap_or_else(|| panic!("{} is not a capture", file.display()))
        })
        .collect()
}

/// A capture: `### name`, comments, the request (line, headers, blank, body), then
/// `### response` and the response (status line, headers, blank, body).
fn parse(name: &str, text: &str) -> Option<Recording> {
    let (request, response) = text.split_once("### response")?;
    let mut lines = request.lines().skip_while(|l| !l.contains(" HTTP/1.1"));
    let mut line = lines.next()?.split_whitespace();
    let method = line.next()?.to_string();
    let target = line.next()?;
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut key = String::new();
    let mut request_body = String::new();
    let mut in_body = false;
    for l in lines {
        if in_body {
            request_body.push_str(l);
            request_body.push('\n');
        } else if l.trim().is_empty() {
            in_body = true;
        } else if let Some(value) = l.strip_prefix("Authorization: ") {
            // `Bearer bld_545c90de…(ADMIN_KEY)`
            key = value
                .rsplit_once('(')
                .map(|(_, tag)| tag.trim_end_matches(')').to_string())
                .unwrap_or_default();
        }
    }
    let body_json: Option<Value> = serde_json::from_str(request_body.trim()).ok();
    let mut lines = response.lines().skip_while(|l| !l.starts_with("HTTP/1.1"));
    let status: u16 = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let mut content_type = None;
    let mut body = String::new();
    let mut in_body = false;
    for l in lines {
        if in_body {
            body.push_str(l);
            body.push('\n');
        } else if l.trim().is_empty() {
            in_body = true;
        } else if let Some((name, value)) = l.split_once(':') {
            if name.eq_ignore_ascii_case("content-type") {
                content_type = Some(value.trim().to_string());
            }
        }
    }
    Some(Recording {
        name: name.to_string(),
        method,
        path: path.to_string(),
        query: query_pairs(query),
        key,
        fields: field_names(body_json.as_ref()),
        status: StatusCode::from_u16(status).ok()?,
        content_type,
        body: body.trim_end().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_reads_as_its_request_and_answer() {
        let text = "### 27-approve\n# captured\n\nPOST /api/tasks/t1/approve-plan?x=1 HTTP/1.1\n\
            Host: h\nAuthorization: Bearer bld_0dbe…(WORKER_KEY)\nContent-Type: application/json\n\n\
            {\"a\": 1}\n\n### response\nHTTP/1.1 403 Forbidden\ncontent-type: application/json\n\n\
            {\"error\": \"Requires admin\"}\n";
        let r = parse("27-approve", text).unwrap();
        assert_eq!(
            (r.method.as_str(), r.path.as_str()),
            ("POST", "/api/tasks/t1/approve-plan")
        );
        assert_eq!(r.key, "WORKER_KEY");
        assert!(r.query.contains("x=1"));
        assert!(r.fields.contains("a"));
        assert_eq!(r.status, StatusCode::FORBIDDEN);
        assert_eq!(r.body, "{\"error\": \"Requires admin\"}");
    }
}
