//! The SQL function that runs once on the writer connection, to name its SQLite thread and
//! keep it on a CPU (see [`super::cpu`]): SQL is the only way to run code on that thread.

use super::super::functions::{define, SqlFunction};
use super::cpu;
use libsqlite3_sys as ffi;
use sqlx::SqliteConnection;
use std::ffi::{c_int, CStr};

const WRITER_THREAD: &CStr = c"buildd_writer_thread";

/// Names `conn`'s SQLite thread `buildd-writer` and keeps it on `cpu` when one is given;
/// returns the thread's id. The function that does it exists only for this one call.
pub async fn writer_thread(
    conn: &mut SqliteConnection,
    cpu: Option<usize>,
) -> Result<i64, sqlx::Error> {
    let function: SqlFunction = writer_thread_sql;
    define(conn, WRITER_THREAD, 1, ffi::SQLITE_UTF8, Some(function)).await?;
    let tid = sqlx::query_scalar::<_, i64>("SELECT buildd_writer_thread(?)")
        .bind(cpu.map(|cpu| i64::try_from(cpu).unwrap_or(i64::MAX)))
        .fetch_one(&mut *conn)
        .await;
    define(conn, WRITER_THREAD, 1, ffi::SQLITE_UTF8, None).await?;
    tid
}

/// `buildd_writer_thread(cpu INTEGER | NULL) -> thread id`, run on the connection's own
/// thread: names it, and keeps it on `cpu` unless that is NULL.
unsafe extern "C" fn writer_thread_sql(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite passes `argc` (1, as registered) valid values; the message is copied
    // by SQLite before the call returns (its length is given).
    unsafe {
        let args = std::slice::from_raw_parts(argv, usize::try_from(argc).unwrap_or(0));
        let [cpu] = args else {
            ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
            return;
        };
        cpu::name_current_thread(cpu::WRITER_THREAD_NAME);
        if ffi::sqlite3_value_type(*cpu) != ffi::SQLITE_NULL {
            let cpu = usize::try_from(ffi::sqlite3_value_int64(*cpu)).unwrap_or(usize::MAX);
            if let Err(e) = cpu::pin_current_thread(cpu) {
                let message = format!("keeping SQLite's thread on CPU {cpu}: {e}");
                let len = c_int::try_from(message.len()).unwrap_or(0);
                ffi::sqlite3_result_error(ctx, message.as_ptr().cast(), len);
                return;
            }
        }
        ffi::sqlite3_result_int64(ctx, cpu::current_thread_id());
    }
}
