//! Monopoly speed: full random 4-player games with `round_limit = 100` and the cost per action
//! (see `common`). Run with `cargo bench -p engine --bench monopoly`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::monopoly::{Config, Monopoly};

fn monopoly(c: &mut Criterion) {
    let config = Config {
        round_limit: Some(100),
        ..Config::default()
    };
    common::bench_game::<Monopoly>(c, "monopoly", &[4], &config);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(8));
    targets = monopoly
}
criterion_main!(benches);
