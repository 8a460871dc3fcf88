//! The upstream mode over real sockets: a browser-like client → this server with
//! `--upstream` → a second server as the upstream (this API server itself, or a bare
//! listener where a test needs an upstream that streams, stalls or is gone).

mod common;

use axum::extract::Request;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use buildd_server::upstream::{self, Upstream, UpstreamOptions};
use common::TestApp;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Frame};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the upstream received: method, path with query, headers.
type Seen = Arc<Mutex<Vec<(String, String, HeaderMap)>>>;

async fn spawn(router: axum::Router) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}")
}

/// The API server as the upstream, recording every request it gets.
async fn api_upstream(app: &TestApp) -> (String, Seen) {
    let seen: Seen = Default::default();
    let record = seen.clone();
    let router =
        app.router
            .clone()
            .layer(middleware::from_fn(move |request: Request, next: Next| {
                let record = record.clone();
                async move {
                    record.lock().unwrap().push((
                        request.method().to_string(),
                        request.uri().to_string(),
                        request.headers().clone(),
                    ));
                    next.run(request).await
                }
            }));
    (spawn(router).await, seen)
}

async fn proxy_to(options: UpstreamOptions) -> String {
    let upstream = Upstream::new(&options).unwrap();
    spawn(upstream::app(upstream, None)).await
}

async fn proxy(upstream: &str) -> String {
    proxy_to(UpstreamOptions::new(upstream)).await
}

type Browser = Client<HttpConnector, Full<Bytes>>;

fn browser() -> Browser {
    Client::builder(TokioExecutor::new()).build_http()
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&self.body)))
    }
}

async fn send(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Answer {
    let mut request = hyper::Request::builder()
        .method(method)
        .uri(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = match body {
        Some(json) => {
            request = request.header("content-type", "application/json");
            Full::new(Bytes::from(json.to_string()))
        }
        None => Full::new(Bytes::new()),
    };
    let response = browser()
        .request(request.body(body).unwrap())
        .await
        .unwrap();
    let (parts, incoming) = response.into_parts();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body: incoming.collect().await.unwrap().to_bytes(),
    }
}

fn bearer(key: &str) -> String {
    format!("Bearer {key}")
}

#[tokio::test]
async fn forwards_the_path_query_and_only_the_api_headers() {
    let app = TestApp::new().await;
    let (upstream, seen) = api_upstream(&app).await;
    let proxy = proxy(&upstream).await;
    let auth = bearer(&app.admin);
    let path = format!("/api/tasks?workspaceId={}&status=pending", app.workspace);
    let headers = [
        ("authorization", auth.as_str()),
        ("accept", "application/json"),
        ("last-event-id", "5"),
        ("cookie", "session=secret"),
        ("origin", "http://dashboard.example"),
        ("x-forwarded-for", "10.0.0.1"),
        ("referer", "http://dashboard.example/missions"),
    ];
    let through = send(&proxy, "GET", &path, &headers, None).await;
    let direct = send(&upstream, "GET", &path, &headers, None).await;
    assert_eq!(through.status, StatusCode::OK);
    assert_eq!(through.json(), direct.json());

    let seen = seen.lock().unwrap();
    let (method, uri, got) = &seen[0];
    assert_eq!(method, "GET");
    assert_eq!(uri, &path);
    assert_eq!(got[header::AUTHORIZATION], auth.as_str());
    assert_eq!(got[header::ACCEPT], "application/json");
    assert_eq!(
        got["last-event-id"], "5",
        "a change stream resumes through the proxy"
    );
    assert_eq!(got[header::HOST], upstream.trim_start_matches("http://"));
    for dropped in ["cookie", "origin", "x-forwarded-for", "referer"] {
        assert!(!got.contains_key(dropped), "{dropped} reached the upstream");
    }
}

#[tokio::test]
async fn a_write_and_a_refusal_come_back_as_the_upstream_answered() {
    let app = TestApp::new().await;
    let (upstream, _) = api_upstream(&app).await;
    let proxy = proxy(&upstream).await;
    let auth = bearer(&app.admin);
    let created = send(
        &proxy,
        "POST",
        "/api/missions",
        &[("authorization", &auth)],
        Some(json!({"title": "Through the proxy", "workspaceId": app.workspace})),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    let id = created.json()["id"].as_str().unwrap().to_string();
    let (status, stored) = app
        .call("GET", &format!("/api/missions/{id}"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored["title"], "Through the proxy");

    let refused = send(
        &proxy,
        "POST",
        "/api/missions",
        &[("authorization", &auth)],
        Some(json!({"workspaceId": app.workspace})),
    )
    .await;
    let direct = send(
        &upstream,
        "POST",
        "/api/missions",
        &[("authorization", &auth)],
        Some(json!({"workspaceId": app.workspace})),
    )
    .await;
    assert_eq!(refused.status, direct.status);
    assert!(refused.status.is_client_error());
    assert_eq!(refused.json(), direct.json());

    let no_key = send(&proxy, "GET", "/api/missions", &[], None).await;
    assert_eq!(no_key.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn revalidation_and_gzip_pass_through() {
    let app = TestApp::new().await;
    let mission = app.mission("Cached").await;
    let (upstream, _) = api_upstream(&app).await;
    let proxy = proxy(&upstream).await;
    let auth = bearer(&app.admin);
    let path = format!("/api/missions/{mission}");
    let first = send(&proxy, "GET", &path, &[("authorization", &auth)], None).await;
    assert_eq!(first.status, StatusCode::OK);
    let etag = first.headers[header::ETAG].to_str().unwrap().to_string();
    let again = send(
        &proxy,
        "GET",
        &path,
        &[("authorization", &auth), ("if-none-match", &etag)],
        None,
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());

    let gzip = [
        ("authorization", auth.as_str()),
        ("accept-encoding", "gzip"),
    ];
    let through = send(&proxy, "GET", &path, &gzip, None).await;
    let direct = send(&upstream, "GET", &path, &gzip, None).await;
    assert_eq!(through.headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(through.body, direct.body, "the compressed bytes, untouched");
    let mut plain = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(&through.body[..]),
        &mut plain,
    )
    .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&plain).unwrap()["id"],
        mission.as_str()
    );
}

#[tokio::test]
async fn paths_outside_the_api_are_not_forwarded() {
    let app = TestApp::new().await;
    let (upstream, seen) = api_upstream(&app).await;
    let proxy = proxy(&upstream).await;
    let answer = send(&proxy, "GET", "/missions/abc", &[], None).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(answer.json()["error"].is_string());
    assert!(seen.lock().unwrap().is_empty());
}

/// An upstream on a bare socket: reads one request head, then answers with `reply`.
async fn raw_upstream<F, Fut>(reply: F) -> String
where
    F: FnOnce(tokio::net::TcpStream, Vec<u8>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            if socket.read(&mut byte).await.unwrap() == 0 {
                return;
            }
            head.push(byte[0]);
        }
        reply(socket, head).await;
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn an_answer_is_streamed_not_buffered() {
    let (release, released) = tokio::sync::oneshot::channel::<()>();
    let upstream = raw_upstream(|mut socket, _| async move {
        socket
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n")
            .await
            .unwrap();
        socket.write_all(b"5\r\nfirst\r\n").await.unwrap();
        // The rest only once the browser has read the first part through the proxy.
        let _ = released.await;
        let rest = vec![b'x'; 4 << 20];
        socket
            .write_all(format!("{:x}\r\n", rest.len()).as_bytes())
            .await
            .unwrap();
        socket.write_all(&rest).await.unwrap();
        socket.write_all(b"\r\n0\r\n\r\n").await.unwrap();
    })
    .await;
    let proxy = proxy(&upstream).await;
    let request = hyper::Request::get(format!("{proxy}/api/export"))
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = browser().request(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    // Were the answer buffered, this part would never come: the rest waits for it.
    let first = tokio::time::timeout(Duration::from_secs(20), body.frame())
        .await
        .expect("the first part arrives before the upstream has finished")
        .unwrap()
        .unwrap()
        .into_data()
        .unwrap();
    assert_eq!(&first[..], b"first");
    release.send(()).unwrap();
    let rest = body.collect().await.unwrap().to_bytes();
    assert_eq!(rest.len(), 4 << 20);
}

#[tokio::test]
async fn a_large_request_body_reaches_the_upstream_whole() {
    let (got, received) = tokio::sync::oneshot::channel::<usize>();
    let upstream = raw_upstream(|mut socket, head| async move {
        let head = String::from_utf8(head).unwrap().to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .expect("a length")
            .trim()
            .parse()
            .unwrap();
        let mut body = vec![0u8; length];
        socket.read_exact(&mut body).await.unwrap();
        assert!(body.iter().all(|b| *b == b'a'));
        got.send(body.len()).unwrap();
        socket
            .write_all(b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{\"ok\":true}")
            .await
            .unwrap();
    })
    .await;
    let proxy = proxy(&upstream).await;
    let size = 3 << 20;
    // Sent in pieces, as a browser uploads.
    let pieces = Pieces(
        (0..size / 65536)
            .map(|_| Bytes::from(vec![b'a'; 65536]))
            .collect(),
    );
    let client: Client<HttpConnector, Pieces> = Client::builder(TokioExecutor::new()).build_http();
    let request = hyper::Request::post(format!("{proxy}/api/artifacts"))
        .header("content-length", size.to_string())
        .body(pieces)
        .unwrap();
    let response = client.request(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(received.await.unwrap(), size);
}

/// A request body sent a piece at a time.
struct Pieces(std::collections::VecDeque<Bytes>);

impl hyper::body::Body for Pieces {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        std::task::Poll::Ready(self.0.pop_front().map(|piece| Ok(Frame::data(piece))))
    }
}

#[tokio::test]
async fn an_upstream_that_is_down_answers_502_naming_it() {
    // A port that was just free, with nobody listening.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gone = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let proxy = proxy(&gone).await;
    let answer = send(&proxy, "GET", "/api/missions", &[], None).await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    let error = answer.json()["error"].as_str().unwrap().to_string();
    assert!(error.contains(&gone), "{error}");
}

#[tokio::test]
async fn a_slow_upstream_answers_504_naming_it() {
    let upstream = raw_upstream(|socket, _| async move {
        // Holds the connection and never answers.
        tokio::time::sleep(Duration::from_secs(60)).await;
        drop(socket);
    })
    .await;
    let proxy = proxy_to(UpstreamOptions {
        answer_timeout: Duration::from_millis(300),
        ..UpstreamOptions::new(&upstream)
    })
    .await;
    let answer = send(&proxy, "GET", "/api/missions", &[], None).await;
    assert_eq!(answer.status, StatusCode::GATEWAY_TIMEOUT);
    let error = answer.json()["error"].as_str().unwrap().to_string();
    assert!(error.contains(&upstream), "{error}");
}

#[test]
fn a_bad_upstream_url_is_refused_with_the_reason() {
    for (url, reason) in [
        ("ftp://buildd.example", "https://"),
        ("buildd.example", "https://"),
        ("https://user:pw@buildd.example", "user name"),
        ("https://buildd.example/?x=1", "query"),
    ] {
        let error = Upstream::new(&UpstreamOptions::new(url)).err().unwrap();
        assert!(error.contains(reason), "{url}: {error}");
    }
    let prefixed = Upstream::new(&UpstreamOptions::new("https://buildd.example/base/")).unwrap();
    assert_eq!(prefixed.name(), "https://buildd.example/base");
}

mod tls {
    use super::*;
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
    use tokio_rustls::TlsAcceptor;

    /// A listener that speaks TLS, for `axum::serve`.
    struct TlsListener {
        tcp: TcpListener,
        acceptor: TlsAcceptor,
    }

    impl axum::serve::Listener for TlsListener {
        type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
        type Addr = std::net::SocketAddr;

        async fn accept(&mut self) -> (Self::Io, Self::Addr) {
            loop {
                let Ok((socket, addr)) = self.tcp.accept().await else {
                    continue;
                };
                // A client that refuses the certificate fails its handshake: wait for the next.
                if let Ok(stream) = self.acceptor.accept(socket).await {
                    return (stream, addr);
                }
            }
        }

        fn local_addr(&self) -> std::io::Result<Self::Addr> {
            self.tcp.local_addr()
        }
    }

    /// A CA, and a certificate for `localhost` it signed; returns the CA's PEM file.
    fn certificates(dir: &std::path::Path) -> (std::path::PathBuf, rustls::ServerConfig) {
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca_key = KeyPair::generate().unwrap();
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let leaf_key = KeyPair::generate().unwrap();
        let leaf = CertificateParams::new(vec!["localhost".to_string()])
            .unwrap()
            .signed_by(&leaf_key, &ca, &ca_key)
            .unwrap();
        let ca_file = dir.join("ca.pem");
        std::fs::write(&ca_file, ca.pem()).unwrap();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from(leaf.der().to_vec())],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der())),
        )
        .unwrap();
        (ca_file, config)
    }

    #[tokio::test]
    async fn an_https_upstream_signed_by_a_private_ca() {
        let app = TestApp::new().await;
        let dir = tempfile::tempdir().unwrap();
        let (ca_file, config) = certificates(dir.path());
        let tcp = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = tcp.local_addr().unwrap().port();
        let listener = TlsListener {
            tcp,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        };
        let router = app.router.clone();
        tokio::spawn(async move { axum::serve(listener, router).await });
        let url = format!("https://localhost:{port}");

        let trusted = proxy_to(UpstreamOptions {
            ca_file: Some(ca_file),
            ..UpstreamOptions::new(&url)
        })
        .await;
        let auth = bearer(&app.admin);
        let answer = send(
            &trusted,
            "GET",
            "/api/missions",
            &[("authorization", &auth)],
            None,
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
        assert!(answer.json()["missions"].is_array());

        // Without the CA, the certificate is not trusted: no request reaches the upstream.
        let untrusted = proxy(&url).await;
        let refused = send(
            &untrusted,
            "GET",
            "/api/missions",
            &[("authorization", &auth)],
            None,
        )
        .await;
        assert_eq!(refused.status, StatusCode::BAD_GATEWAY);
        assert!(refused.json()["error"].as_str().unwrap().contains(&url));
    }
}
