//! How the server gets its write speed out of SQLite, fenced apart so the rest of `db/`
//! reads as plain group commit. None of it changes what a write does, only how fast:
//! - [`write_thread`]: requests' writes run on a thread of their own, which waits for
//!   SQLite's answers by spinning briefly instead of waking the runtime's workers;
//! - [`cpu`]: that thread and SQLite's own are kept on one CPU, so their hand-offs stay in
//!   one cache;
//! - [`sqlite_thread`]: SQLite's thread is reached through a SQL function, the only code that
//!   runs there;
//! - [`checkpointer`]: committed pages are copied back into the database file beside the
//!   writer, not inside its commits.

mod checkpointer;
pub mod cpu;
mod sqlite_thread;
mod write_thread;

pub(super) use checkpointer::{Checkpointer, BACKSTOP_PAGES};
pub(super) use sqlite_thread::writer_thread;
pub(super) use write_thread::WriteThread;

/// The write thread's id, keeping it on `cpu` when one is given (from the thread itself).
pub(super) async fn write_thread_id(
    thread: &WriteThread,
    cpu: Option<usize>,
) -> Result<i64, sqlx::Error> {
    let (answer, answered) = tokio::sync::oneshot::channel();
    let sent = thread.send(Box::pin(async move {
        let pinned = match cpu {
            Some(cpu) => cpu::pin_current_thread(cpu)
                .map_err(|e| format!("keeping the write thread on CPU {cpu}: {e}")),
            None => Ok(()),
        };
        let _ = answer.send(pinned.map(|()| cpu::current_thread_id()));
    }));
    match answered.await {
        Ok(tid) if sent => tid.map_err(sqlx::Error::Protocol),
        _ => Err(sqlx::Error::Protocol("the write thread is gone".into())),
    }
}
