//! Fingerprints of seeded random games, for speed work that must not change a single move.
//!
//! Plays the benches' uniformly random games (`playout::random_choice`, then `decide` and
//! `evolve`) for a range of seeds of every game and prints one hash per game, player count and
//! config. Every step hashes what a client could observe: each seat's legal actions, its
//! templates (and their count), the choice made, the events and the state, all in their JSON
//! form. Run it before and after a change and compare the output: any difference in any step of
//! any game changes the line.
//!
//! ```sh
//! cargo run --release -p engine --example fingerprint            # every game, 20 seeds
//! cargo run --release -p engine --example fingerprint -- 100 tyros
//! ```

use std::hash::{DefaultHasher, Hasher};

use engine::{playout, Game, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Feeds the JSON form of `value` to `hasher` (JSON is the API's form, so a representation
/// change inside the engine that keeps the API keeps the hash).
fn feed(hasher: &mut DefaultHasher, value: &impl Serialize) {
    let json = serde_json::to_vec(value).expect("engine types serialize");
    hasher.write(&json);
    hasher.write_u8(0xff);
}

/// The hash of `seeds` random games of `players` with `config`, and their total steps.
fn fingerprint<G: Game>(config: &G::Config, players: usize, seeds: u64) -> (u64, usize) {
    let mut hasher = DefaultHasher::new();
    let mut steps = 0;
    for seed in 0..seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let setup = G::setup(config, players, &mut rng).expect("valid setup");
        feed(&mut hasher, &setup);
        let mut state = G::replay(&setup);
        while G::outcome(&state).is_none() {
            for seat in (0..players).map(|s| Seat(s as u8)) {
                feed(&mut hasher, &G::legal_actions(&state, seat));
                feed(&mut hasher, &G::action_templates(&state, seat));
                hasher.write_usize(G::action_template_count(&state, seat));
            }
            feed(&mut hasher, &G::active_seats(&state));
            let choice = playout::random_choice::<G>(&state, &mut rng).expect("someone may act");
            hasher.write_u8(choice.seat.0);
            feed(&mut hasher, &choice.action);
            let events = G::decide(&state, choice.seat, &choice.action, &mut rng)
                .expect("listed actions are legal");
            feed(&mut hasher, &events);
            for event in &events {
                G::evolve(&mut state, event);
            }
            feed(&mut hasher, &state);
            steps += 1;
        }
        feed(&mut hasher, &G::outcome(&state));
    }
    (hasher.finish(), steps)
}

fn report<G: Game>(label: &str, config: &G::Config, players: &[usize], seeds: u64) {
    for &n in players {
        let (hash, steps) = fingerprint::<G>(config, n, seeds);
        println!("{label} {n}p seeds 0..{seeds}: {hash:016x} ({steps} steps)");
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().map_or(20, |s| s.parse().expect("a seed count"));
    let only: Vec<String> = args.collect();
    let wanted = |game: &str| only.is_empty() || only.iter().any(|o| o == game);
    if wanted("tycoon") {
        report::<engine::tycoon::Tycoon>("tycoon", &Default::default(), &[2, 4], seeds);
    }
    if wanted("acquire") {
        report::<engine::acquire::Acquire>("acquire", &Default::default(), &[2, 4, 6], seeds);
    }
    if wanted("monopoly") {
        use engine::monopoly::{Config, InheritedInterest, Monopoly, TradeOffers, UtilityRentDice};
        let limited = Config {
            round_limit: Some(100),
            ..Config::default()
        };
        report::<Monopoly>("monopoly round_limit 100", &limited, &[2, 4, 6], seeds);
        let auto = Config {
            round_limit: Some(40),
            auto_collect_rent: true,
            ..Config::default()
        };
        report::<Monopoly>("monopoly auto rent, 40 rounds", &auto, &[3], seeds);
        // Rules version 1's trade and interest options, and the other utility dice.
        let older = Config {
            round_limit: Some(60),
            trade_offers: TradeOffers::AsAccepted,
            inherited_interest: InheritedInterest::InTotal,
            utility_rent_dice: UtilityRentDice::Move,
            ..Config::default()
        };
        report::<Monopoly>("monopoly rules v1 trades, 60 rounds", &older, &[4], seeds);
    }
    if wanted("tyros") {
        use engine::tyros::{Config, Tyros};
        report::<Tyros>("tyros base", &Config::default(), &[3, 4], seeds);
        let all = Config {
            pirates: true,
            action_cards: true,
            galleys: true,
            bank_trade_once_per_round: true,
            player_trade_free: true,
            bonus_city_in_all_empires: 9,
            ..Config::default()
        };
        report::<Tyros>("tyros every variant", &all, &[4], seeds);
    }
}
