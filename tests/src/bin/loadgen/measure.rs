//! What one measured run yields, and the machine's CPU clock it is charged against.

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::Duration;

/// Latencies and failures as the clients record them during a run.
#[derive(Default)]
pub struct Tally {
    /// Every request sent, polls and stream reads included (not the streams' messages).
    pub requests: usize,
    /// Latencies of the applied action POSTs.
    pub latencies: Vec<Duration>,
    /// Non-2xx answers and transport errors of action POSTs, by status and code.
    pub failures: BTreeMap<String, usize>,
}

/// One run of one row: the service under one protocol, or the raw database transaction.
pub struct Measured {
    pub actions: usize,
    pub requests: usize,
    pub elapsed: Duration,
    /// Sorted.
    pub latencies: Vec<Duration>,
    pub failures: BTreeMap<String, usize>,
    /// CPU time the measured system spent during the run (see [`Scope`]), when the OS tells.
    pub cpu: Option<Duration>,
}

impl Measured {
    /// Closes a run that started at `cpu_before` (from [`cpu_now`]) `elapsed` ago.
    pub fn new(tally: Tally, elapsed: Duration, cpu_before: Option<Duration>) -> Measured {
        let cpu = cpu_now()
            .zip(cpu_before)
            .map(|(now, before)| now.saturating_sub(before));
        let mut latencies = tally.latencies;
        latencies.sort();
        Measured {
            actions: latencies.len(),
            requests: tally.requests,
            elapsed,
            latencies,
            failures: tally.failures,
            cpu,
        }
    }

    /// Applied actions per second.
    pub fn rate(&self) -> f64 {
        self.actions as f64 / self.elapsed.as_secs_f64()
    }

    /// Machine CPU per action, in ms.
    pub fn cpu_ms_per_action(&self) -> Option<f64> {
        let cpu = self.cpu?;
        (self.actions > 0).then(|| cpu.as_secs_f64() * 1000.0 / self.actions as f64)
    }

    /// HTTP requests per applied action.
    pub fn requests_per_action(&self) -> f64 {
        self.requests as f64 / self.actions.max(1) as f64
    }

    /// The latency below which a fraction `p` of the actions were answered, in ms.
    pub fn pct_ms(&self, p: f64) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies.len() as f64 * p).ceil() as usize).clamp(1, self.latencies.len());
        self.latencies[i - 1].as_secs_f64() * 1000.0
    }
}

/// Whose CPU time a run is charged: set once at start ([`charge_to`]).
static SCOPE: OnceLock<Scope> = OnceLock::new();

/// Whose CPU time counts.
#[derive(Debug, Clone, Copy)]
pub enum Scope {
    /// This process (the clients and the in-process service) and the PostgreSQL cluster it
    /// started, by the postmaster's process id: what the measured system spends, whatever
    /// else the machine runs at the same time.
    Processes { postmaster: u32 },
    /// The whole machine (the service or the database runs elsewhere, or the postmaster is
    /// unknown): every process counts.
    Machine,
}

/// Sets whose CPU time runs are charged (first call wins).
pub fn charge_to(scope: Scope) {
    let _ = SCOPE.set(scope);
}

/// The CPU clock of the current [`Scope`]: total CPU time spent so far, when the OS tells
/// (Linux `/proc`); the difference over a run is what the run cost.
pub fn cpu_now() -> Option<Duration> {
    match SCOPE.get().copied().unwrap_or(Scope::Machine) {
        Scope::Processes { postmaster } => processes_busy(postmaster),
        Scope::Machine => machine_busy(),
    }
}

/// CPU ticks of this process and of `postmaster` and its children (the backends, the WAL
/// writer, the checkpointer …), from `/proc/<pid>/stat`.
fn processes_busy(postmaster: u32) -> Option<Duration> {
    let mut ticks = process_ticks("self")?.1;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        // A process may end between the listing and the read: it is skipped.
        if let Some((ppid, t)) = process_ticks(&pid.to_string()) {
            if pid == postmaster || ppid == postmaster {
                ticks += t;
            }
        }
    }
    Some(ticks_to_duration(ticks))
}

/// (parent pid, user + system ticks) of a process.
fn process_ticks(pid: &str) -> Option<(u32, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold anything: fields are counted
    // after its closing one, from field 3 (state).
    let fields: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    let ppid = fields.get(1)?.parse().ok()?;
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((ppid, utime + stime))
}

/// USER_HZ is 100 on every Linux ABI Rust targets.
fn ticks_to_duration(ticks: u64) -> Duration {
    Duration::from_millis(ticks * 10)
}

/// CPU time all cores of the machine have spent busy since boot, from `/proc/stat`.
fn machine_busy() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = cpu
        .split_whitespace()
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal guest guest_nice: busy is user, nice,
    // system, irq and softirq (steal is the hypervisor's; guest is counted in user).
    let busy: u64 = [0, 1, 2, 5, 6].iter().filter_map(|&i| ticks.get(i)).sum();
    Some(ticks_to_duration(busy))
}
