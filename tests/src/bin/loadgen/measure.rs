//! What one measured run yields, and the machine's CPU clock it is charged against.

use std::collections::BTreeMap;
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
    /// CPU time the whole machine spent during the run (every process: client, service,
    /// PostgreSQL), when the OS tells (`/proc/stat`).
    pub machine_cpu: Option<Duration>,
}

impl Measured {
    /// Closes a run that started at `busy` (from [`machine_busy`]) `elapsed` ago.
    pub fn new(tally: Tally, elapsed: Duration, busy: Option<Duration>) -> Measured {
        let machine_cpu = machine_busy_since(busy);
        let mut latencies = tally.latencies;
        latencies.sort();
        Measured {
            actions: latencies.len(),
            requests: tally.requests,
            elapsed,
            latencies,
            failures: tally.failures,
            machine_cpu,
        }
    }

    /// Applied actions per second.
    pub fn rate(&self) -> f64 {
        self.actions as f64 / self.elapsed.as_secs_f64()
    }

    /// Machine CPU per action, in ms.
    pub fn cpu_ms_per_action(&self) -> Option<f64> {
        let cpu = self.machine_cpu?;
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

/// CPU time all cores of the machine have spent busy since boot, from `/proc/stat` (Linux);
/// `None` elsewhere. The difference over a run is what the run cost the machine, whoever
/// spent it.
pub fn machine_busy() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = cpu
        .split_whitespace()
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal guest guest_nice: busy is user, nice,
    // system, irq and softirq (steal is the hypervisor's; guest is counted in user).
    let busy: u64 = [0, 1, 2, 5, 6].iter().filter_map(|&i| ticks.get(i)).sum();
    // USER_HZ is 100 on every Linux ABI Rust targets.
    Some(Duration::from_millis(busy * 10))
}

/// CPU the machine spent since `before` (from [`machine_busy`]).
fn machine_busy_since(before: Option<Duration>) -> Option<Duration> {
    Some(machine_busy()?.saturating_sub(before?))
}
