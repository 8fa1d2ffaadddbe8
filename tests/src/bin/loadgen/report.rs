//! The table: medians over runs, a row per client count and protocol, the raw database
//! transaction of the same client count beside each.

use std::collections::BTreeMap;

use crate::clients::{Placement, Variant};
use crate::measure::Measured;

/// One measurement of a run.
pub enum Row {
    Raw(Measured),
    Service(Variant, Measured),
}

/// Every run of one client count.
#[derive(Default)]
struct ByClients {
    raw: Vec<Measured>,
    service: BTreeMap<Variant, Vec<Measured>>,
}

pub struct Report {
    clients: Vec<usize>,
    variants: Vec<Variant>,
    rows: BTreeMap<usize, ByClients>,
}

/// The median of `values` (the mean of the middle two for an even count); 0 when empty.
fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn median_of(runs: &[Measured], f: impl Fn(&Measured) -> f64) -> f64 {
    median(runs.iter().map(f).collect())
}

/// The median CPU per action, or `–` when the OS does not tell.
fn cpu(runs: &[Measured]) -> String {
    let known: Vec<f64> = runs
        .iter()
        .filter_map(Measured::cpu_ms_per_action)
        .collect();
    if known.is_empty() {
        "–".into()
    } else {
        format!("{:.2}", median(known))
    }
}

impl Report {
    pub fn new(clients: &[usize], variants: &[Variant]) -> Report {
        Report {
            clients: clients.to_vec(),
            variants: variants.to_vec(),
            rows: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, clients: usize, row: Row) {
        let by = self.rows.entry(clients).or_default();
        match row {
            Row::Raw(m) => by.raw.push(m),
            Row::Service(p, m) => by.service.entry(p).or_default().push(m),
        }
    }

    /// 5xx answers and transport failures of every run.
    pub fn server_errors(&self) -> usize {
        self.service_runs()
            .flat_map(|(_, _, runs)| runs)
            .flat_map(|m| &m.failures)
            .filter(|(what, _)| what.starts_with('5') || what.starts_with("transport"))
            .map(|(_, n)| n)
            .sum()
    }

    pub fn any_row_without_actions(&self) -> bool {
        self.service_runs()
            .flat_map(|(_, _, runs)| runs)
            .any(|m| m.actions == 0)
    }

    fn service_runs(&self) -> impl Iterator<Item = (usize, Variant, &[Measured])> {
        self.clients.iter().flat_map(move |&c| {
            self.variants.iter().filter_map(move |&p| {
                let runs = self.rows.get(&c)?.service.get(&p)?;
                Some((c, p, runs.as_slice()))
            })
        })
    }

    pub fn print(&self, cores: usize, runs: usize) {
        println!(
            "| Clients | Protocol | Database work on | Requests/action | Actions/s | p50 ms | p95 ms | p99 ms | max ms | CPU ms/action | Raw DB tx/s | Raw p99 ms | Raw CPU ms/tx | Service / raw |"
        );
        println!("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (clients, variant, service) in self.service_runs() {
            let raw = &self.rows[&clients].raw;
            let (raw_rate, raw_p99, raw_cpu, ratio) = if raw.is_empty() {
                ("–".into(), "–".into(), "–".into(), "–".into())
            } else {
                // Each run's service rate against the raw rate of the same run.
                let ratios: Vec<f64> = service
                    .iter()
                    .zip(raw)
                    .map(|(s, r)| 100.0 * s.rate() / r.rate())
                    .collect();
                let (lo, hi) = ratios
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
                let ratio = if ratios.len() > 1 {
                    format!("{:.0} % ({lo:.0}–{hi:.0})", median(ratios))
                } else {
                    format!("{:.0} %", median(ratios))
                };
                (
                    format!("{:.0}", median_of(raw, Measured::rate)),
                    format!("{:.1}", median_of(raw, |m| m.pct_ms(0.99))),
                    cpu(raw),
                    ratio,
                )
            };
            println!(
                "| {clients} | {} | {} | {:.2} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {raw_rate} | {raw_p99} | {raw_cpu} | {ratio} |",
                variant.protocol.name(),
                variant.placement.name(),
                median_of(service, Measured::requests_per_action),
                median_of(service, Measured::rate),
                median_of(service, |m| m.pct_ms(0.50)),
                median_of(service, |m| m.pct_ms(0.95)),
                median_of(service, |m| m.pct_ms(0.99)),
                median_of(service, |m| m.pct_ms(1.0)),
                cpu(service),
            );
        }
        println!();
        if runs > 1 {
            println!(
                "Medians of {runs} runs; the ratio's range over the runs in brackets (each run's service rate against that run's raw rate)."
            );
        }
        println!(
            "CPU ms/action: CPU time of the load generator's process (clients and service) and of its PostgreSQL per action or raw transaction, or of the whole machine when the service or the database runs elsewhere; with {cores} cores, {cores} s of CPU per second is the ceiling. Requests/action: HTTP requests (polls, stream openings, actions) per applied action."
        );
        println!();
        for (clients, variant, service) in self.service_runs() {
            let mut failures: BTreeMap<&str, usize> = BTreeMap::new();
            for m in service {
                for (what, n) in &m.failures {
                    *failures.entry(what).or_default() += n;
                }
            }
            let name = match variant.placement {
                Placement::Workers => variant.protocol.name().to_string(),
                other => format!("{} ({})", variant.protocol.name(), other.name()),
            };
            if failures.is_empty() {
                println!("- {clients} clients, {name}: every action POST answered 2xx");
            } else {
                let list: Vec<String> =
                    failures.iter().map(|(k, n)| format!("{n} × {k}")).collect();
                println!("- {clients} clients, {name}: non-2xx: {}", list.join(", "));
            }
        }
    }
}
