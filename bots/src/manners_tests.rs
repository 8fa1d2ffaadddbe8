//! The bots' manners and the end of every game, checked on whole games of bots only (every
//! level, small search budgets so that the suite takes seconds): every game of every type,
//! player count and variant ends; Monopoly bots never undo their own moves in a turn, keep at
//! most one offer open, make at most one a turn and one to the same seat in a few rounds, never
//! press one that was refused since the deeds changed and never let a rent lapse; Tyros bots
//! make no offers and trade with the bank at most once a round.

use crate::arena::{play_game, play_observed, Tally};
use crate::games::monopoly::manners::OFFER_GAP_ROUNDS;
use crate::games::tyros::BANK_TRADES_PER_ROUND;
use crate::{Bot, BotGame, Budget, Level};
use engine::acquire::Acquire;
use engine::monopoly::{self, Monopoly};
use engine::tycoon::Tycoon;
use engine::tyros::{self, Tyros};
use engine::{Game, Seat};
use serde_json::{json, Value};

/// Far above the longest game measured (see `docs/bots.md`).
const MAX_ACTIONS: usize = 20_000;

/// Tables of `players`: all `random`, all `greedy`, and `mcts` (with a budget small enough for
/// a test) among `greedy` and `random`.
fn lineups(players: usize) -> Vec<Vec<Bot>> {
    let mcts = Bot {
        budget: Budget::iterations(6),
        ..Bot::new(Level::Mcts)
    };
    let mixed = (0..players)
        .map(|s| match s % 3 {
            0 => mcts,
            1 => Bot::new(Level::Greedy),
            _ => Bot::new(Level::Random),
        })
        .collect();
    vec![
        vec![Bot::new(Level::Random); players],
        vec![Bot::new(Level::Greedy); players],
        mixed,
    ]
}

/// Plays every lineup of `players` with `config` and returns the longest game in actions.
fn every_table_ends<G: BotGame>(config: &Value, players: usize, seed: u64) -> usize
where
    G::Config: Sync,
{
    let config = G::read_config(config, G::RULES_VERSION).expect("a valid config");
    let mut longest = 0;
    for (i, bots) in lineups(players).into_iter().enumerate() {
        let mut tallies = vec![Tally::default(); players];
        let seed = seed + i as u64;
        let (_, actions) = play_game::<G>(&config, &bots, seed, MAX_ACTIONS, &mut tallies)
            .unwrap_or_else(|_| panic!("{} {players} seed {seed}: the bots stalled", G::NAME));
        longest = longest.max(actions);
    }
    longest
}

#[test]
fn every_game_of_bots_ends_at_every_player_count() {
    let none = json!({});
    for players in 2..=4 {
        every_table_ends::<Tycoon>(&none, players, 10);
    }
    for players in 2..=6 {
        every_table_ends::<Acquire>(&none, players, 20);
    }
    for players in [2, 3, 4, 6] {
        for config in [json!({}), json!({ "round_limit": 12 })] {
            let longest = every_table_ends::<Monopoly>(&config, players, 30);
            eprintln!("monopoly {players} {config}: longest game {longest} actions");
        }
    }
}

#[test]
fn every_tyros_variant_of_bots_ends() {
    let variants = [
        json!({}),
        json!({ "pirates": true }),
        json!({ "action_cards": true }),
        json!({ "galleys": true }),
        json!({ "pirates": true, "galleys": true }),
        json!({ "bank_trade_once_per_round": true }),
        json!({ "player_trade_free": true }),
        json!({ "pirates": true, "galleys": true, "action_cards": true,
                "player_trade_free": true, "cant_place_tile": "pass",
                "reshuffle_rule": "flip_under", "tyros_shipyard": "always" }),
    ];
    for players in 3..=4 {
        for config in &variants {
            let longest = every_table_ends::<Tyros>(config, players, 40);
            eprintln!("tyros {players} {config}: longest game {longest} actions");
        }
    }
}

/// What the Monopoly checks remember of the current turn.
#[derive(Default)]
struct TurnLog {
    actions: usize,
    mortgaged: Vec<(Seat, u8)>,
    lifted: Vec<(Seat, u8)>,
    built: Vec<(Seat, u8)>,
    sold: Vec<(Seat, u8)>,
    offered: Vec<Seat>,
}

#[test]
fn monopoly_bots_mind_their_manners() {
    let mut longest_turn = 0;
    let (mut offers, mut refusals, mut claims) = (0, 0, 0);
    for players in [2, 4] {
        for (l, bots) in lineups(players).into_iter().enumerate() {
            for seed in 0..3 {
                let mut turn = TurnLog::default();
                // Per proposer: the seats that refused it since the deeds last changed.
                let mut refused: Vec<Vec<Seat>> = vec![Vec::new(); players];
                let mut open: Vec<(u32, Seat, Seat)> = Vec::new();
                // The round of each (proposer, addressee)'s last offer.
                let mut last_offer: Vec<(Seat, Seat, u32)> = Vec::new();
                let mut observe = |state: &monopoly::State,
                                   seat: Seat,
                                   action: &monopoly::Action,
                                   events: &[monopoly::Event]| {
                    use monopoly::Action as A;
                    let here =
                        format!("{players} players, lineup {l}, seed {seed}: {seat} {action:?}");
                    turn.actions += 1;
                    // Undoing the turn's own lift or build is allowed only when a debt leaves
                    // nothing else to sell or mortgage.
                    let undoes = |square: u8, turn: &TurnLog| {
                        turn.lifted.contains(&(seat, square))
                            || turn.built.contains(&(seat, square))
                    };
                    let forced = || {
                        Monopoly::legal_actions(state, seat)
                            .iter()
                            .all(|a| match a {
                                A::Mortgage { square } | A::SellBuilding { square } => {
                                    undoes(*square, &turn)
                                }
                                _ => true,
                            })
                    };
                    match *action {
                        A::Mortgage { square } | A::SellBuilding { square } => {
                            assert!(
                                !undoes(square, &turn) || forced(),
                                "own move undone: {here}"
                            );
                            if matches!(action, A::Mortgage { .. }) {
                                turn.mortgaged.push((seat, square));
                            } else {
                                turn.sold.push((seat, square));
                            }
                        }
                        A::LiftMortgage { square } => {
                            assert!(
                                !turn.mortgaged.contains(&(seat, square)),
                                "mortgage undone: {here}"
                            );
                            turn.lifted.push((seat, square));
                        }
                        A::Build { ref squares } => {
                            assert!(
                                !turn.sold.contains(&(seat, squares[0])),
                                "sale undone: {here}"
                            );
                            turn.built.push((seat, squares[0]));
                        }
                        A::WithdrawTrade { .. } => panic!("an offer withdrawn: {here}"),
                        A::OfferTrade { to, .. } => {
                            offers += 1;
                            assert!(
                                !state.offers.iter().any(|o| o.from == seat),
                                "a second open offer: {here}"
                            );
                            assert!(
                                !turn.offered.contains(&seat),
                                "a second offer this turn: {here}"
                            );
                            assert!(
                                !refused[seat.index()].contains(&to),
                                "an offer pressed after a refusal: {here}"
                            );
                            turn.offered.push(seat);
                            let round = state.rounds_completed;
                            if let Some(&(_, _, last)) =
                                last_offer.iter().find(|o| o.0 == seat && o.1 == to)
                            {
                                assert!(
                                    round >= last + OFFER_GAP_ROUNDS,
                                    "offers {} rounds apart: {here}",
                                    round - last
                                );
                            }
                            last_offer.retain(|o| !(o.0 == seat && o.1 == to));
                            last_offer.push((seat, to, round));
                        }
                        A::ClaimRent { .. } => claims += 1,
                        _ => {}
                    }
                    for event in events {
                        use monopoly::Event as E;
                        match event {
                            E::TurnStarted { .. } => {
                                longest_turn = longest_turn.max(turn.actions);
                                turn = TurnLog::default();
                            }
                            E::TradeOffered { offer } => {
                                open.push((offer.offer, offer.from, offer.to))
                            }
                            E::TradeRejected { offer } => {
                                refusals += 1;
                                if let Some(&(_, from, to)) = open.iter().find(|o| o.0 == *offer) {
                                    refused[from.index()].push(to);
                                }
                            }
                            E::RentLapsed { .. } => panic!("a rent lapsed: {here}"),
                            E::PropertyBought { .. }
                            | E::AuctionWon { .. }
                            | E::TradeExecuted { .. }
                            | E::BuildingBought { .. }
                            | E::BuildingsSold { .. }
                            | E::Mortgaged { .. }
                            | E::MortgageLifted { .. }
                            | E::PropertyTransferred { .. }
                            | E::PlayerBankrupt { .. } => refused.iter_mut().for_each(Vec::clear),
                            _ => {}
                        }
                    }
                };
                let mut tallies = vec![Tally::default(); players];
                play_observed::<Monopoly>(
                    &Default::default(),
                    &bots,
                    100 + seed,
                    MAX_ACTIONS,
                    &mut tallies,
                    &mut observe,
                )
                .expect("the game ends");
            }
        }
    }
    eprintln!(
        "monopoly: longest turn {longest_turn} actions; {offers} offers, {refusals} refused; {claims} rents claimed"
    );
    assert!(offers > 0 && claims > 0, "bots trade and claim rent");
    assert!(longest_turn < 200, "a turn of {longest_turn} actions");
}

#[test]
fn tyros_bots_make_no_offers_and_trade_with_the_bank_at_most_once_a_round() {
    for players in 3..=4 {
        for (l, bots) in lineups(players).into_iter().enumerate() {
            let mut observe =
                |state: &tyros::State, seat: Seat, action: &tyros::Action, _: &[tyros::Event]| {
                    let here = format!("{players} players, lineup {l}: {seat} {action:?}");
                    match action {
                        tyros::Action::OfferTrade { .. } | tyros::Action::WithdrawTrade => {
                            panic!("a bot offered a trade: {here}")
                        }
                        tyros::Action::BankSwap { .. } | tyros::Action::BankPick { .. } => assert!(
                            state.player(seat).bank_trades < BANK_TRADES_PER_ROUND,
                            "a second bank trade this round: {here}"
                        ),
                        _ => {}
                    }
                };
            let mut tallies = vec![Tally::default(); players];
            play_observed::<Tyros>(
                &Default::default(),
                &bots,
                7,
                MAX_ACTIONS,
                &mut tallies,
                &mut observe,
            )
            .expect("the game ends");
        }
    }
}
