//! Full random games with their length and rate: a quick figure between bench runs, a steady
//! target for a profiler (`perf record`, `valgrind --tool=callgrind`), and the length of a
//! rollout with and without a policy that plays like people do.
//!
//! ```sh
//! cargo run --release -p engine --example random_games -- monopoly 50
//! cargo run --release -p engine --example random_games -- tyros 200 play
//! cargo run --release -p engine --example random_games -- acquire 1000 uniform 6
//! ```
//!
//! Arguments: game, games (50), policy (`uniform`), players (4). Games: `tycoon`, `acquire`,
//! `monopoly` (`round_limit = 100`, as benched), `monopoly-v1` (the same under rules version
//! 1's trade and interest options: one offer template per partner, as when issue 27 measured
//! ≈ 3,100 actions a game), `tyros` (base game), `tyros-all` (every variant).
//!
//! Policies: `uniform` (the default) picks uniformly among every seat's listed actions and
//! templates, exactly as the benches do (`playout::random_choice`). `play` picks uniformly
//! among the same choices but leaves out the standing actions people do not churn: no trade
//! offers and no withdrawals, and in Monopoly no lifting, and mortgaging or selling only to
//! pay a debt ([`play_weight`]); templates are filled only where the policy may take one
//! ([`Policy::weighs_templates`]). Rates are per second of the thread's CPU time where Linux
//! reports it (wall time otherwise). With `MIX=1` set, the share of each action type among the
//! actions played follows; with `ALLOCS=1`, the heap allocations per action and per game (the
//! whole step: listing, choosing, deciding, folding).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use engine::monopoly::{Action as MonopolyAction, Monopoly};
use engine::playout::{self, Choice};
use engine::tyros::{Action as TyrosAction, Tyros};
use engine::Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The system allocator, counting allocations while [`COUNTING`] is on.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's promises about `layout` hold for the system allocator too.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A game whose rollouts can be played like people play.
trait Policy: Game {
    /// The weight of `choice` in a rollout that plays like people: 0 leaves it out.
    fn play_weight(state: &Self::State, choice: &Choice<Self::Action>) -> u32;

    /// Whether some template of `state` may get a weight above 0 (filling every template to
    /// weigh it is most of a step where most templates are offers the policy leaves out).
    fn weighs_templates(_state: &Self::State) -> bool {
        true
    }
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

    /// Bids and an inheritance's lifting; accepting with lifts needs an offer, never made.
    fn weighs_templates(state: &Self::State) -> bool {
        state.auction.is_some() || state.inheritance.is_some()
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
    if G::weighs_templates(state) {
        playout::choices_into::<G>(state, rng, buffer);
    } else {
        buffer.clear();
        for seat in (0..G::seat_count(state)).map(|s| engine::Seat(s as u8)) {
            buffer.extend(
                G::legal_actions(state, seat)
                    .into_iter()
                    .map(|action| Choice {
                        seat,
                        action,
                        from_template: false,
                    }),
            );
        }
    }
    playout::pick(rng, buffer, |c| G::play_weight(state, c))
        .expect("the policy leaves some action")
        .clone()
}

/// Plays `games` seeded games of `players` with `config`; prints the mean length and the rate.
fn run<G: Policy>(label: &str, config: &G::Config, players: usize, games: u64, play: bool) {
    let mix = std::env::var_os("MIX").is_some();
    COUNTING.store(std::env::var_os("ALLOCS").is_some(), Ordering::Relaxed);
    let allocations_before = ALLOCATIONS.load(Ordering::Relaxed);
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
    if COUNTING.load(Ordering::Relaxed) {
        let allocations = (ALLOCATIONS.load(Ordering::Relaxed) - allocations_before) as f64;
        println!(
            "  {:.2} allocations per action, {:.0} per game (reallocations included)",
            allocations / steps as f64,
            allocations / games as f64
        );
    }
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
    let players: usize = args
        .next()
        .map_or(4, |s| s.parse().expect("a player count"));
    match game.as_str() {
        "tycoon" => {
            run::<engine::tycoon::Tycoon>("tycoon", &Default::default(), players, games, play)
        }
        "acquire" => {
            run::<engine::acquire::Acquire>("acquire", &Default::default(), players, games, play)
        }
        "monopoly" => {
            let config = engine::monopoly::Config {
                round_limit: Some(100),
                ..Default::default()
            };
            run::<Monopoly>("monopoly, round_limit 100", &config, players, games, play);
        }
        "monopoly-v1" => {
            let config = engine::monopoly::Config {
                round_limit: Some(100),
                ..engine::monopoly::Config::defaults(1)
            };
            let label = "monopoly rules v1, round_limit 100";
            run::<Monopoly>(label, &config, players, games, play);
        }
        "tyros" => run::<Tyros>("tyros base", &Default::default(), players, games, play),
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
            run::<Tyros>("tyros every variant", &config, players, games, play);
        }
        other => panic!("unknown game {other}"),
    }
}
