//! Keeping the writes on one CPU. A write is a conversation between the write thread and the
//! writer connection's SQLite thread, one hand-off per statement. On different CPUs each
//! hand-off wakes a thread across CPUs and waits for that CPU to be free; on one CPU the
//! thread that waits yields straight to the one that answers. Other threads keep every CPU.

use std::io;

/// The CPU the writes run on when the operator leaves it to the server: the last one this
/// process may use, or none when it may use only one (there is nothing to keep apart).
pub fn default_writes_cpu() -> Option<usize> {
    let allowed = allowed_cpus().ok()?;
    if allowed.len() < 2 {
        return None;
    }
    allowed.last().copied()
}

/// The CPUs the calling thread may run on, in order.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> io::Result<Vec<usize>> {
    // SAFETY: `set` is a plain bit set that sched_getaffinity fills; CPU_ISSET only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect())
    }
}

/// Keeps the calling thread on `cpu`; returns the thread's id.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> io::Result<i64> {
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("there is no CPU {cpu}"),
        ));
    }
    // SAFETY: as above; sched_setaffinity only reads `set`, and gettid has no arguments.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(i64::from(libc::gettid()))
    }
}

#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> io::Result<Vec<usize>> {
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(_cpu: usize) -> io::Result<i64> {
    Err(io::ErrorKind::Unsupported.into())
}
