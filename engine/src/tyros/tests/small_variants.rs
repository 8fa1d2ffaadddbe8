//! Spec §6: the seed's rule correction and small variants.

use super::support::*;
use crate::template::ActionTemplate;
use crate::tyros::cards::{Card, Cards};
use crate::tyros::config::ReshuffleRule;
use crate::tyros::event::Event;
use crate::tyros::{errors as e, Action, Config, Tyros};
use crate::{Game, Seat};
use serde_json::json;

/// TR-RC, TR-EOR-2, TR-D-12: by default the discards are shuffled with the rest of the pile at
/// the end of a round; the new order is secret.
#[test]
fn tr_rc_the_round_end_shuffles_discards_into_the_pile_by_default() {
    assert_eq!(Config::default().reshuffle_rule, ReshuffleRule::Shuffle);
    let mut s = table(4, Config::default());
    let all = s.draw_pile.clone();
    s.draw_pile = all[..45].to_vec();
    s.discard_pile = all[45..].to_vec();
    let before = Cards::count(&all);
    for seat in [W, R, G] {
        pass(&mut s, seat);
    }
    let events = pass(&mut s, B);
    let order = events
        .iter()
        .find_map(|e| match e {
            Event::DrawPileRebuilt {
                rule: ReshuffleRule::Shuffle,
                order,
                ..
            } => order.clone(),
            _ => None,
        })
        .expect("the pile is rebuilt by shuffling");
    assert_eq!(order.len(), 60);
    assert_eq!(Cards::count(&order), before);
    let seen = Tyros::redact(
        events
            .iter()
            .find(|e| matches!(e, Event::DrawPileRebuilt { .. }))
            .unwrap(),
        crate::Viewer::Seat(Seat(W)),
    )
    .unwrap();
    assert!(matches!(seen, Event::DrawPileRebuilt { order: None, .. }));
    assert!(s.discard_pile.is_empty());
    let _ = Card::Joker;
}

fn free_trade() -> Config {
    Config {
        player_trade_free: true,
        ..Config::default()
    }
}

/// TR-K1, TR-K1b: with `player_trade_free` a trade is no action: once per turn, before or after the
/// action; the turn ends after both, or by `end_turn` after the action.
#[test]
fn tr_k1_a_free_trade_goes_beside_the_action() {
    let mut s = table(4, free_trade());
    hand(&mut s, W, json!({"orange": 3}));
    hand(&mut s, R, json!({"green": 1}));
    let offer = Action::OfferTrade {
        to: Seat(R),
        give: cards(json!({"orange": 1})),
        get: cards(json!({"green": 1})),
    };
    // Before the action.
    accepted(&mut s, W, offer.clone());
    accepted(&mut s, R, Action::AcceptTrade);
    assert_eq!(
        (held(&s, W), held(&s, R)),
        (
            cards(json!({"orange": 2, "green": 1})),
            cards(json!({"orange": 1}))
        )
    );
    assert_eq!(
        s.turn().map(|t| (t.seat, t.traded, t.acted)),
        Some((Seat(W), true, false))
    );
    refused(&mut s, W, offer.clone(), e::TRADE_USED);
    refused(&mut s, W, Action::Pass, e::PASS_NOT_ALLOWED);
    accepted(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 1})),
        },
    );
    assert_eq!(
        s.turn().map(|t| t.seat),
        Some(Seat(R)),
        "action and trade done: the turn ends"
    );
    // After the action; or no trade and `end_turn`.
    hand(&mut s, R, json!({"yellow": 2}));
    accepted(
        &mut s,
        R,
        Action::BankSwap {
            cards: cards(json!({"yellow": 1})),
        },
    );
    assert_eq!(s.turn().map(|t| (t.seat, t.acted)), Some((Seat(R), true)));
    refused(&mut s, R, Action::Pass, e::ACTION_ALREADY_TAKEN);
    let listed = Tyros::legal_actions(&s, Seat(R));
    assert!(listed.contains(&Action::EndTurn));
    accepted(&mut s, R, Action::EndTurn);
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(2)));
    // A pass turn has no free trade: after a pass the turn is over.
    pass(&mut s, G);
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(3)));
}

/// TR-K1, TR-K1b: "A pass turn has no action, so no free trade is attached to it." An offer
/// (before the turn's action) whose trade would leave its proposer nothing but a pass is
/// refused when made (seeds 2022 and 2034 passed after such a trade); the offer templates keep
/// to offers that leave an action. Once a trade is made the turn takes an action: pass is
/// refused and not listed, and the listing has something to take. Without the option a player
/// trade is the turn's action.
#[test]
fn tr_k1_a_free_trade_goes_with_an_action_never_with_a_pass() {
    let mut s = table(4, free_trade());
    hand(&mut s, W, json!({"orange": 1}));
    hand(&mut s, R, json!({"green": 1}));
    let all_of_it = Action::OfferTrade {
        to: Seat(R),
        give: cards(json!({"orange": 1})),
        get: Cards::NONE,
    };
    refused(&mut s, W, all_of_it.clone(), e::TRADE_LEAVES_NO_ACTION);
    let mut r = rng(3);
    let offers: Vec<_> = Tyros::action_templates(&s, Seat(W))
        .iter()
        .map(ActionTemplate::of)
        .filter(|t| t.action_type == "offer_trade")
        .collect();
    // The whole hand for at least one card: a card stays for a bank trade.
    assert_eq!(offers.len(), 1);
    assert_eq!(offers[0].fixed["give"], json!({"orange": 1}));
    for template in &offers {
        for _ in 0..50 {
            let action: Action = serde_json::from_value(template.instantiate(&mut r)).unwrap();
            let mut tried = s.clone();
            accepted(&mut tried, W, action);
        }
    }
    assert!(Tyros::legal_actions(&s, Seat(W)).contains(&Action::Pass));

    hand(&mut s, W, json!({"orange": 2}));
    accepted(&mut s, W, all_of_it);
    assert!(Tyros::legal_actions(&s, Seat(R)).contains(&Action::AcceptTrade));
    accepted(&mut s, R, Action::AcceptTrade);
    assert_eq!(s.turn().map(|t| (t.seat, t.traded)), Some((Seat(W), true)));
    refused(&mut s, W, Action::Pass, e::PASS_NOT_ALLOWED);
    let listed = Tyros::legal_actions(&s, Seat(W));
    assert!(!listed.is_empty(), "an action is listed after the trade");
    let action = listed[0].clone();
    accepted(&mut s, W, action);
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(R)), "traded and acted");

    let mut s = table(4, Config::default());
    hand(&mut s, W, json!({"orange": 1}));
    accepted(
        &mut s,
        W,
        Action::OfferTrade {
            to: Seat(R),
            give: cards(json!({"orange": 1})),
            get: Cards::NONE,
        },
    );
    accepted(&mut s, R, Action::AcceptTrade);
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(R)));
    refused(&mut s, R, Action::EndTurn, e::CANNOT_END_TURN);
}

/// TR-K1, TR-K1a: with `bank_trade_once_per_round` the limit is per player (Red may still trade
/// with the bank after White did) and per round (White may again in the next round); a player
/// trade stays an action and is not limited.
#[test]
fn tr_k1_the_bank_trade_limit_is_per_player_and_per_round() {
    let mut s = table(
        4,
        Config {
            bank_trade_once_per_round: true,
            ..Config::default()
        },
    );
    hand(&mut s, W, json!({"orange": 2}));
    hand(&mut s, R, json!({"green": 2}));
    let swap = |json| Action::BankSwap { cards: cards(json) };
    accepted(&mut s, W, swap(json!({"orange": 1})));
    accepted(&mut s, R, swap(json!({"green": 1})));
    pass(&mut s, G);
    pass(&mut s, B);
    refused(&mut s, W, swap(json!({"orange": 1})), e::BANK_TRADE_USED);
    let gift = Action::OfferTrade {
        to: Seat(G),
        give: cards(json!({"orange": 1})),
        get: Cards::NONE,
    };
    accepted(&mut s, W, gift);
    accepted(&mut s, G, Action::AcceptTrade);
    // Everyone passes the round out; the next round's phases run to White's first turn.
    while !(s.round == 3 && s.turn().is_some_and(|t| t.seat == Seat(W))) {
        let seat = Tyros::active_seats(&s)[0];
        let legal = Tyros::legal_actions(&s, seat);
        let action = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            legal[0].clone()
        };
        accepted(&mut s, seat.0, action);
    }
    let card = held(&s, W).iter().next().map(|(c, _)| c).unwrap();
    let one = Cards::of(card, 1);
    accepted(&mut s, W, Action::BankSwap { cards: one });
}

/// TR-K2, TR-VAR-0: the small variants are plain options beside the big ones; every
/// combination sets up and the bonus option takes the seed's 9.
#[test]
fn tr_k2_and_tr_var_0_options_combine_freely() {
    for bits in 0..64u32 {
        let bit = |i: u32| bits & (1 << i) != 0;
        let config = Config {
            pirates: bit(0),
            action_cards: bit(1),
            galleys: bit(2),
            bank_trade_once_per_round: bit(3),
            player_trade_free: bit(4),
            bonus_city_in_all_empires: if bit(5) { 9 } else { 6 },
            ..Config::default()
        };
        for players in [3, 4] {
            let s = new_game(players, config.clone(), u64::from(bits));
            assert!(!Tyros::active_seats(&s).is_empty());
            assert_eq!(
                s.config.bonus_city_in_all_empires,
                if bit(5) { 9 } else { 6 }
            );
        }
    }
}
