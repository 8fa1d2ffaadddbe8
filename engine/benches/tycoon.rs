//! Tycoon speed: full random games and the cost per action (see `common`). Run with
//! `cargo bench -p engine --bench tycoon`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::tycoon::Tycoon;

fn tycoon(c: &mut Criterion) {
    common::bench_game::<Tycoon>(c, "tycoon", &[2, 4], &Default::default());
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(4));
    targets = tycoon
}
criterion_main!(benches);
