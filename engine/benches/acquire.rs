//! Acquire speed: full random games and the cost per action (see `common`). Run with
//! `cargo bench -p engine --bench acquire`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::acquire::Acquire;

fn acquire(c: &mut Criterion) {
    common::bench_game::<Acquire>(c, "acquire", &[2, 4, 6], &Default::default());
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(4));
    targets = acquire
}
criterion_main!(benches);
