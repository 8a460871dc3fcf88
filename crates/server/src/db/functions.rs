//! Rules of buildd-core made callable from SQL on this server's connections, so the triggers
//! that keep the claim queue apply the same rule as the rest of the server rather than a
//! copy of it: `buildd_dependency_satisfied(status, has_open_pr)` is
//! `buildd_core::dependencies::dependency_satisfied`, and `buildd_claim_stop(status,
//! is_held)` is `buildd_core::claims::ClaimStop`. A connection that lacks them (the
//! `sqlite3` shell) cannot write tasks, workers or missions; it reads every table.

use buildd_core::claims::ClaimStop;
use buildd_core::dependencies::dependency_satisfied;
use buildd_core::{MissionStatus, TaskStatus};
use libsqlite3_sys as ffi;
use sqlx::SqliteConnection;
use std::ffi::{c_int, CStr};
use std::os::raw::c_void;

const DEPENDENCY_SATISFIED: &CStr = c"buildd_dependency_satisfied";
const CLAIM_STOP: &CStr = c"buildd_claim_stop";

/// Registers the functions on `conn`.
pub async fn register(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    // Innocuous: triggers call them, and they read nothing but their arguments.
    let flags = ffi::SQLITE_UTF8 | ffi::SQLITE_DETERMINISTIC | ffi::SQLITE_INNOCUOUS;
    let function: SqlFunction = dependency_satisfied_sql;
    define(conn, DEPENDENCY_SATISFIED, 2, flags, Some(function)).await?;
    let function: SqlFunction = claim_stop_sql;
    define(conn, CLAIM_STOP, 2, flags, Some(function)).await
}

pub(super) type SqlFunction =
    unsafe extern "C" fn(*mut ffi::sqlite3_context, c_int, *mut *mut ffi::sqlite3_value);

/// Defines SQL function `name` of `args` arguments on `conn` as `function`, or removes it
/// (`None`).
pub(super) async fn define(
    conn: &mut SqliteConnection,
    name: &CStr,
    args: c_int,
    flags: c_int,
    function: Option<SqlFunction>,
) -> Result<(), sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    // SAFETY: `db` is the open connection, held by `handle` so nothing else uses it; the
    // name is a NUL-terminated string SQLite copies, and the callback a plain function that
    // reads only its arguments. Defining a name again with no callbacks removes it.
    let code = unsafe {
        ffi::sqlite3_create_function_v2(
            db,
            name.as_ptr(),
            args,
            flags,
            std::ptr::null_mut::<c_void>(),
            function,
            None,
            None,
            None,
        )
    };
    if code == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(sqlx::Error::Protocol(format!(
            "registering {name:?} failed with SQLite code {code}"
        )))
    }
}

/// `buildd_dependency_satisfied(status TEXT, has_open_pr INTEGER) -> 0 | 1`.
unsafe extern "C" fn dependency_satisfied_sql(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite passes `argc` (2, as registered) valid values, each alive until the
    // call returns.
    unsafe {
        let [status, open_pr] = args(argc, argv) else {
            ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
            return;
        };
        let open_pr = ffi::sqlite3_value_int64(*open_pr) != 0;
        let settled = dependency_satisfied(&TaskStatus::parse(text(*status)), open_pr);
        ffi::sqlite3_result_int(ctx, c_int::from(settled));
    }
}

/// `buildd_claim_stop(status TEXT, is_held INTEGER) -> 0 | 1 | 2`.
unsafe extern "C" fn claim_stop_sql(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: as `dependency_satisfied_sql`.
    unsafe {
        let [status, held] = args(argc, argv) else {
            ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
            return;
        };
        let held = ffi::sqlite3_value_int64(*held) != 0;
        let stop = ClaimStop::of(&MissionStatus::parse(text(*status)), held);
        ffi::sqlite3_result_int64(ctx, stop.code());
    }
}

/// A call's arguments.
///
/// # Safety
/// `argv` holds `argc` values, as SQLite passes them to a function.
unsafe fn args<'a>(
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) -> &'a [*mut ffi::sqlite3_value] {
    // SAFETY: as the caller promises.
    unsafe { std::slice::from_raw_parts(argv, usize::try_from(argc).unwrap_or(0)) }
}

/// A text argument, `""` when NULL or not UTF-8.
///
/// # Safety
/// `value` is an argument of the running call; the text lives until the call returns.
unsafe fn text<'a>(value: *mut ffi::sqlite3_value) -> &'a str {
    // SAFETY: the pointer, when not null, points at `bytes` bytes alive for the call.
    unsafe {
        let text = ffi::sqlite3_value_text(value);
        if text.is_null() {
            return "";
        }
        let bytes = usize::try_from(ffi::sqlite3_value_bytes(value)).unwrap_or(0);
        std::str::from_utf8(std::slice::from_raw_parts(text, bytes)).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::{ConnectOptions, Connection};

    /// A connection of its own with the functions registered.
    async fn registered() -> SqliteConnection {
        let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
            .in_memory(true)
            .connect()
            .await
            .unwrap();
        register(&mut conn).await.unwrap();
        conn
    }

    /// The SQL function answers as the core rule over every status and open-PR state.
    #[tokio::test]
    async fn the_sql_function_is_the_core_rule() {
        let mut conn = registered().await;
        let statuses = TaskStatus::ALL.iter().map(TaskStatus::as_str);
        for status in statuses.chain(["unknown"]) {
            for open_pr in [false, true] {
                let (sql,): (bool,) = sqlx::query_as("SELECT buildd_dependency_satisfied(?, ?)")
                    .bind(status)
                    .bind(open_pr)
                    .fetch_one(&mut conn)
                    .await
                    .unwrap();
                let core = dependency_satisfied(&TaskStatus::parse(status), open_pr);
                assert_eq!(sql, core, "{status}, open PR {open_pr}");
            }
        }
        let (null,): (bool,) = sqlx::query_as("SELECT buildd_dependency_satisfied(NULL, 0)")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert!(!null);
        conn.close().await.unwrap();
    }

    /// The claim-stop function answers as the core rule over every status and hold.
    #[tokio::test]
    async fn the_claim_stop_function_is_the_core_rule() {
        let mut conn = registered().await;
        let statuses = MissionStatus::ALL.iter().map(MissionStatus::as_str);
        for status in statuses.chain(["unknown"]) {
            for held in [false, true] {
                let (sql,): (i64,) = sqlx::query_as("SELECT buildd_claim_stop(?, ?)")
                    .bind(status)
                    .bind(held)
                    .fetch_one(&mut conn)
                    .await
                    .unwrap();
                let core = ClaimStop::of(&MissionStatus::parse(status), held).code();
                assert_eq!(sql, core, "{status}, held {held}");
            }
        }
        conn.close().await.unwrap();
    }
}
