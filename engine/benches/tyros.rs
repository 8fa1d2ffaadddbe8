//! Tyros speed: full random games and the cost per action (see `common`), with the base rules
//! and with every variant on. Run with `cargo bench -p engine --bench tyros`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::tyros::{Config, Tyros};

fn tyros(c: &mut Criterion) {
    common::bench_game::<Tyros>(c, "tyros", &[3, 4], &Config::default());
    let all = Config {
        pirates: true,
        action_cards: true,
        galleys: true,
        bank_trade_once_per_round: true,
        player_trade_free: true,
        bonus_city_in_all_empires: 9,
        ..Config::default()
    };
    common::bench_game::<Tyros>(c, "tyros_all_variants", &[4], &all);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = tyros
}
criterion_main!(benches);
