//! The thread that runs requests' writes, one at a time, from taking the writer connection
//! to releasing it. A write makes several round trips to SQLite's own thread; run as a task
//! of the server's runtime, each answer would wake a worker thread that had gone to sleep
//! or wait behind every request being served, and the writer connection, which every
//! write needs in turn, would be held that much longer. Here the thread waits for the
//! answer by spinning briefly (a statement answers in microseconds) before it sleeps (a
//! commit's sync takes longer).
//!
//! Jobs run inside the server's runtime context, so they may spawn tasks and use its timers;
//! a job that panics is dropped (its transaction rolled back) and the thread goes on.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// How long the thread spins for an answer before it sleeps.
const SPIN: Duration = Duration::from_micros(100);

pub type Job = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Where jobs are sent; the thread ends once every sender is dropped.
#[derive(Clone)]
pub struct WriteThread {
    jobs: mpsc::Sender<Job>,
}

impl WriteThread {
    /// Starts the thread, inside the current runtime's context.
    pub fn start() -> std::io::Result<Self> {
        let runtime = tokio::runtime::Handle::current();
        let (jobs, queue) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("buildd-writes".into())
            .spawn(move || {
                let _context = runtime.enter();
                while let Ok(job) = queue.recv() {
                    run(job);
                }
            })?;
        Ok(Self { jobs })
    }

    /// Queues `job`; false once the thread is gone.
    pub fn send(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }
}

/// Polls `job` to its end on this thread.
fn run(mut job: Job) {
    let signal = Arc::new(Signal {
        woken: AtomicBool::new(false),
        thread: thread::current(),
    });
    let waker = Waker::from(signal.clone());
    let mut cx = Context::from_waker(&waker);
    loop {
        signal.woken.store(false, Ordering::SeqCst);
        match catch_unwind(AssertUnwindSafe(|| job.as_mut().poll(&mut cx))) {
            Ok(Poll::Pending) => signal.wait(),
            Ok(Poll::Ready(())) => return,
            Err(_) => {
                tracing::error!("a write panicked; its transaction is rolled back");
                return;
            }
        }
    }
}

/// Wakes the thread when the job it polls can go on.
struct Signal {
    woken: AtomicBool,
    thread: Thread,
}

impl Signal {
    fn wait(&self) {
        let started = Instant::now();
        while !self.woken.load(Ordering::SeqCst) {
            if started.elapsed() < SPIN {
                // Lets SQLite's thread run should it share this core.
                thread::yield_now();
            } else {
                thread::park_timeout(Duration::from_millis(50));
            }
        }
    }
}

impl Wake for Signal {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
        self.thread.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job waiting on the runtime's timer and on a task of the runtime goes on, and a job
    /// that panics does not stop the thread.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn jobs_wait_on_the_runtime_and_a_panic_stops_only_its_job() {
        let thread = WriteThread::start().unwrap();
        assert!(thread.send(Box::pin(async { panic!("a broken write") })));
        let (tell, told) = tokio::sync::oneshot::channel();
        assert!(thread.send(Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            let n = tokio::spawn(async { 41 }).await.unwrap();
            let _ = tell.send(n + 1);
        })));
        assert_eq!(told.await.unwrap(), 42);
    }
}
