//! Full random games with their length and rate: a quick figure between bench runs, a steady
//! target for a profiler (`perf record`, `valgrind --tool=callgrind`), and the length of a
//! rollout with and without a policy that plays like people do.
//!
//! ```sh
//! cargo run --release -p engine --example random_games -- monopoly 50
//! cargo run --release -p engine --example random_games -- tyros 200 play
//! ```
//!
//! Games: `tycoon`, `acquire`, `monopoly` (4 players, `round_limit = 100`, as benched),
//! `tyros` (4 players, base game), `tyros-all` (4 players, every variant).
//!
//! Policies: `uniform` (the default) picks uniformly among every seat's listed actions and
//! templates, exactly as the benches do (`playout::random_choice`). `play` picks uniformly
//! among the same choices but leaves out the standing actions people do not churn: no trade
//! offers and no withdrawals, and in Monopoly no lifting, and mortgaging or selling only to
//! pay a debt ([`play_weight`]). Rates are per second of the thread's CPU time where Linux
//! reports it (wall time otherwise). With `MIX=1` set, the share of each action type among the
//! actions played follows.

use std::time::Instant;

use engine::monopoly::{Action as MonopolyAction, Monopoly};
use engine::playout::{self, Choice};
use engine::tyros::{Action as TyrosAction, Tyros};
use engine::Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A game whose rollouts can be played like people play.
trait Policy: Game {
    /// The weight of `choice` in a rollout that plays like people: 0 leaves it out.
    fn play_weight(state: &Self::State, choice: &Choice<Self::Action>) -> u32;
}

impl Policy for engine::tycoon::Tycoon {
    fn play_weight(_: &Self::State, _: &Choice<Self::Action>) -> u32 {
        1
    }
}

impl Policy for engine::acquire::Acquire {
    fn play_weight(_: &Self::State, _: &Choice<Self::Action>) -> u32 {
        1
    }
}

impl Policy for Monopoly {
    /// No trading, no lifting; mortgages and sales only by the seat raising funds.
    fn play_weight(state: &Self::State, choice: &Choice<MonopolyAction>) -> u32 {
        use MonopolyAction as A;
        match choice.action {
            A::OfferTrade { .. } | A::WithdrawTrade { .. } | A::LiftMortgage { .. } => 0,
            A::Mortgage { .. } | A::SellBuilding { .. } => {
                u32::from(state.raising_funds() == Some(choice.seat))
            }
            _ => 1,
        }
    }
}

impl Policy for Tyros {
    /// No trade offers (an open offer stops the game until it is answered).
    fn play_weight(_: &Self::State, choice: &Choice<TyrosAction>) -> u32 {
        match choice.action {
            TyrosAction::OfferTrade { .. } | TyrosAction::WithdrawTrade => 0,
            _ => 1,
        }
    }
}

/// One step's choice under `policy` (`play` or `uniform`).
fn choose<G: Policy>(
    state: &G::State,
    play: bool,
    rng: &mut ChaCha8Rng,
    buffer: &mut Vec<Choice<G::Action>>,
) -> Choice<G::Action> {
    if !play {
        return playout::random_choice::<G>(state, rng).expect("someone may act");
    }
    playout::choices_into::<G>(state, rng, buffer);
    playout::pick(rng, buffer, |c| G::play_weight(state, c))
        .expect("the policy leaves some action")
        .clone()
}

/// Plays `games` seeded games of `players` with `config`; prints the mean length and the rate.
fn run<G: Policy>(label: &str, config: &G::Config, players: usize, games: u64, play: bool) {
    let mix = std::env::var_os("MIX").is_some();
    let mut kinds: std::collections::BTreeMap<String, u64> = Default::default();
    let mut buffer = Vec::new();
    let start = Instant::now();
    let cpu_start = cpu_time();
    let mut steps = 0u64;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let setup = G::setup(config, players, &mut rng).expect("valid setup");
        let mut state = G::replay(&setup);
        while G::outcome(&state).is_none() {
            let choice = choose::<G>(&state, play, &mut rng, &mut buffer);
            let events = G::decide(&state, choice.seat, &choice.action, &mut rng)
                .expect("listed actions are legal");
            for event in &events {
                G::evolve(&mut state, event);
            }
            if mix {
                let json = serde_json::to_value(&choice.action).expect("actions serialize");
                *kinds
                    .entry(json["type"].as_str().unwrap_or("?").to_string())
                    .or_default() += 1;
            }
            steps += 1;
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_time().zip(cpu_start).map(|(end, start)| end - start);
    let (seconds, clock) = cpu.map_or((wall, "wall"), |cpu| (cpu, "CPU"));
    let policy = if play { "play" } else { "uniform" };
    println!(
        "{label}, {players} players, {policy}: {games} games, {:.0} actions each, {:.2} µs {clock} per action, {:.0} games per {clock} second",
        steps as f64 / games as f64,
        seconds * 1e6 / steps as f64,
        games as f64 / seconds
    );
    for (kind, n) in kinds {
        println!("  {kind}: {:.1} %", n as f64 * 100.0 / steps as f64);
    }
}

/// This thread's time on a CPU so far, in seconds (Linux's scheduler statistics): on a shared
/// machine wall time counts the other processes' work too.
fn cpu_time() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 * 1e-9)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let game = args.next().unwrap_or_else(|| "monopoly".into());
    let games: u64 = args.next().map_or(50, |s| s.parse().expect("a game count"));
    let play = match args.next().as_deref() {
        None | Some("uniform") => false,
        Some("play") => true,
        Some(other) => panic!("unknown policy {other}: uniform or play"),
    };
    match game.as_str() {
        "tycoon" => run::<engine::tycoon::Tycoon>("tycoon", &Default::default(), 4, games, play),
        "acquire" => {
            run::<engine::acquire::Acquire>("acquire", &Default::default(), 4, games, play)
        }
        "monopoly" => {
            let config = engine::monopoly::Config {
                round_limit: Some(100),
                ..Default::default()
            };
            run::<Monopoly>("monopoly, round_limit 100", &config, 4, games, play);
        }
        "tyros" => run::<Tyros>("tyros base", &Default::default(), 4, games, play),
        "tyros-all" => {
            let config = engine::tyros::Config {
                pirates: true,
                action_cards: true,
                galleys: true,
                bank_trade_once_per_round: true,
                player_trade_free: true,
                bonus_city_in_all_empires: 9,
                ..Default::default()
            };
            run::<Tyros>("tyros every variant", &config, 4, games, play);
        }
        other => panic!("unknown game {other}"),
    }
}
