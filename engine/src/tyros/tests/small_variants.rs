//! Spec §6: the seed's rule correction and small variants.

use super::support::*;
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

/// TR-K1b: after a free trade a player with no possible action may still pass; without the
/// option a player trade is the turn's action.
#[test]
fn tr_k1_after_a_free_trade_pass_only_when_no_action_is_possible() {
    let mut s = table(4, free_trade());
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
    assert!(held(&s, W).is_empty());
    assert_eq!(Tyros::legal_actions(&s, Seat(W)), vec![Action::Pass]);
    pass(&mut s, W);
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
