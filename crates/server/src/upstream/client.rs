//! The connection to the upstream Buildd: its address, an HTTP/1 client over rustls with the
//! webpki roots (and a private CA when given), and the time an answer may take.

use axum::body::Body;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How to reach the upstream.
#[derive(Clone, Debug)]
pub struct UpstreamOptions {
    /// `https://buildd.example` or `http://127.0.0.1:3100`, optionally with a path prefix.
    pub url: String,
    /// A PEM file of certificate authorities trusted besides the webpki roots.
    pub ca_file: Option<PathBuf>,
    /// How long opening a connection may take.
    pub connect_timeout: Duration,
    /// How long the upstream may take to start its answer (the status and headers).
    pub answer_timeout: Duration,
}

impl UpstreamOptions {
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            ca_file: None,
            connect_timeout: Duration::from_secs(10),
            answer_timeout: Duration::from_secs(30),
        }
    }
}

/// The upstream Buildd, cheap to clone (one connection pool).
#[derive(Clone)]
pub struct Upstream(Arc<Inner>);

struct Inner {
    scheme: String,
    authority: String,
    /// The URL's path without its trailing slash, put before every forwarded path.
    prefix: String,
    client: Client<HttpsConnector<HttpConnector>, Body>,
    answer_timeout: Duration,
}

impl Upstream {
    /// Checks the URL and builds the client; an error says what is wrong with the options.
    pub fn new(options: &UpstreamOptions) -> Result<Self, String> {
        let url = options.url.trim();
        let uri: axum::http::Uri = url
            .parse()
            .map_err(|e| format!("the upstream URL \"{url}\" is not a URL: {e}"))?;
        let scheme = match uri.scheme_str() {
            Some(s @ ("http" | "https")) => s.to_string(),
            _ => {
                return Err(format!(
                    "the upstream URL \"{url}\" must start with https:// or http://"
                ))
            }
        };
        let authority = uri
            .authority()
            .ok_or_else(|| format!("the upstream URL \"{url}\" names no host"))?;
        if authority.as_str().contains('@') {
            return Err(format!(
                "the upstream URL \"{url}\" carries a user name: keys go in the dashboard, not the URL"
            ));
        }
        if uri.query().is_some() {
            return Err(format!("the upstream URL \"{url}\" must not have a query"));
        }
        let prefix = uri.path().trim_end_matches('/').to_string();
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_connect_timeout(Some(options.connect_timeout));
        http.set_nodelay(true);
        let https = HttpsConnectorBuilder::new()
            .with_tls_config(tls_config(options.ca_file.as_ref())?)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(60))
            .build(https);
        Ok(Self(Arc::new(Inner {
            scheme,
            authority: authority.to_string(),
            prefix,
            client,
            answer_timeout: options.answer_timeout,
        })))
    }

    /// The upstream's address, as messages name it.
    pub fn name(&self) -> String {
        format!("{}://{}{}", self.0.scheme, self.0.authority, self.0.prefix)
    }

    /// The upstream URL of a path and query of this server.
    pub(super) fn url_of(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.name())
    }

    pub(super) fn client(&self) -> &Client<HttpsConnector<HttpConnector>, Body> {
        &self.0.client
    }

    pub(super) fn answer_timeout(&self) -> Duration {
        self.0.answer_timeout
    }
}

fn tls_config(ca_file: Option<&PathBuf>) -> Result<rustls::ClientConfig, String> {
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_file {
        let certificates = CertificateDer::pem_file_iter(path)
            .map_err(|e| format!("reading the CA file {}: {e}", path.display()))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("reading the CA file {}: {e}", path.display()))?;
        if certificates.is_empty() {
            return Err(format!(
                "the CA file {} holds no certificate",
                path.display()
            ));
        }
        for certificate in certificates {
            roots
                .add(certificate)
                .map_err(|e| format!("the CA file {}: {e}", path.display()))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth())
}
