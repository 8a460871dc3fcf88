//! Which server runs the scheduler's chores. On SQLite, the one server. On Postgres, the one
//! whose session holds an advisory lock: a connection of its own, outside the pool, so the
//! lock lives exactly as long as that session. When the leading server stops or loses its
//! connection, Postgres ends the session, the lock is free, and the next server to ask takes
//! it over.

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection, PgConnection};

/// Advisory lock key of the chores.
const CHORES: i64 = 0x6368_6f72_6573;

pub struct Leader(Inner);

enum Inner {
    Sqlite,
    Postgres {
        options: Box<PgConnectOptions>,
        /// The session holding the lock, once it is ours.
        session: Option<PgConnection>,
    },
}

impl Leader {
    pub(super) fn sqlite() -> Self {
        Self(Inner::Sqlite)
    }

    pub(super) fn postgres(options: PgConnectOptions) -> Self {
        Self(Inner::Postgres {
            options: Box::new(options),
            session: None,
        })
    }

    /// Whether this server leads now: it held the lock and its session still answers, or
    /// it took the lock just now.
    pub async fn leads(&mut self) -> bool {
        let Inner::Postgres { options, session } = &mut self.0 else {
            return true;
        };
        if let Some(held) = session {
            if held.ping().await.is_ok() {
                return true;
            }
            // The session is gone, and the lock with it: ask again as anyone would.
            *session = None;
        }
        let Ok(mut conn) = options.connect().await else {
            return false;
        };
        let taken: Result<(bool,), _> = sqlx::query_as("SELECT pg_try_advisory_lock($1)")
            .bind(CHORES)
            .fetch_one(&mut conn)
            .await;
        match taken {
            Ok((true,)) => {
                *session = Some(conn);
                true
            }
            _ => {
                let _ = conn.close().await;
                false
            }
        }
    }
}
