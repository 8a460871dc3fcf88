//! Keeping the writes on one CPU. A write is a conversation between the write thread and the
//! writer connection's SQLite thread, one hand-off per statement. On different CPUs each
//! hand-off wakes a thread across CPUs and waits for that CPU to be free; on one CPU the
//! thread that waits yields straight to the one that answers. Other threads keep every CPU.
//! Both threads have names of their own (`buildd-writes`, `buildd-writer`), and the CPU time
//! they use is read here: per write, it tells a slow machine from a dear write.

use std::ffi::CStr;
use std::io;
use std::time::Duration;

/// The name of the writer connection's SQLite thread, as `top -H` shows it.
pub(crate) const WRITER_THREAD_NAME: &CStr = c"buildd-writer";

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

/// Keeps the calling thread on `cpu`.
#[cfg(target_os = "linux")]
pub(crate) fn pin_current_thread(cpu: usize) -> io::Result<()> {
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("there is no CPU {cpu}"),
        ));
    }
    // SAFETY: as above; sched_setaffinity only reads `set`.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

/// The calling thread's id.
#[cfg(target_os = "linux")]
pub(crate) fn current_thread_id() -> i64 {
    // SAFETY: gettid has no arguments and cannot fail.
    i64::from(unsafe { libc::gettid() })
}

/// Names the calling thread `name` (at most 15 bytes are kept).
#[cfg(target_os = "linux")]
pub(crate) fn name_current_thread(name: &CStr) {
    // SAFETY: PR_SET_NAME reads a NUL-terminated string, which `name` is.
    unsafe {
        libc::prctl(libc::PR_SET_NAME, name.as_ptr() as libc::c_ulong, 0, 0, 0);
    }
}

/// The CPU time, user and system, that thread `tid` of this process has used.
#[cfg(target_os = "linux")]
pub(crate) fn thread_cpu(tid: i64) -> io::Result<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat"))?;
    let unreadable = || io::Error::new(io::ErrorKind::InvalidData, format!("thread {tid}: {stat}"));
    // The name may hold spaces and parentheses: fields are counted after its last `)`, from
    // the state (field 3), so utime and stime (fields 14 and 15) are the 12th and 13th.
    let (_, after_name) = stat.rsplit_once(')').ok_or_else(unreadable)?;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    let (Some(user), Some(system)) = (ticks(11), ticks(12)) else {
        return Err(unreadable());
    };
    // SAFETY: sysconf only reads its argument.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let per_second = u64::try_from(per_second)
        .ok()
        .filter(|&t| t > 0)
        .ok_or_else(unreadable)?;
    Ok(Duration::from_secs_f64(
        (user + system) as f64 / per_second as f64,
    ))
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn current_thread_id() -> i64 {
    0
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn name_current_thread(_name: &CStr) {}

#[cfg(not(target_os = "linux"))]
pub(crate) fn thread_cpu(_tid: i64) -> io::Result<Duration> {
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> io::Result<Vec<usize>> {
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn pin_current_thread(_cpu: usize) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}
