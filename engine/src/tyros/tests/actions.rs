//! Spec §4, Phase 3: the turn loop and actions A–E and passing.

use super::support::*;
use crate::tyros::cards::{Card, Empire::*};
use crate::tyros::config::TyrosShipyard;
use crate::tyros::event::{BankForm, Event};
use crate::tyros::state::{DueReason, Phase};
use crate::tyros::{errors as e, Action, Config, Tyros};
use crate::{Game, Seat, Viewer};
use serde_json::json;

/// TR-ACT-0, TR-ACT-P: one action or a pass per turn; passing is not final; the phase ends
/// when all players have passed in succession.
#[test]
fn tr_act_0_and_tr_act_p_the_action_phase_ends_after_passes_in_succession() {
    let mut s = table(4, Config::default());
    hand(&mut s, G, json!({"orange": 2}));
    pass(&mut s, W);
    pass(&mut s, R);
    // Grey acts after two passes: the count starts over.
    accepted(
        &mut s,
        G,
        Action::BankSwap {
            cards: cards(json!({"orange": 1})),
        },
    );
    assert!(matches!(s.phase, Phase::Actions { passes: 0, .. }));
    pass(&mut s, B);
    // White passed before and may still act (passing is not final).
    hand(&mut s, W, json!({"orange": 1}));
    accepted(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 1})),
        },
    );
    refused(&mut s, W, Action::Pass, "not_your_turn");
    for seat in [R, G, B] {
        pass(&mut s, seat);
        assert!(matches!(s.phase, Phase::Actions { .. }));
    }
    let events = pass(&mut s, W);
    assert!(events.contains(&Event::ActionPhaseEnded));
}

/// TR-ACT-A, TR-D-6, TR-D-7: a path must be simple and adjacent; Tyros may be crossed but is no
/// destination; neutral fields are no destination; without a path the cheapest is taken.
#[test]
fn tr_act_a_paths_are_simple_and_end_on_an_empire_field() {
    let mut s = table(4, Config::default());
    empire(&mut s, Green, &["31", "28"]);
    let w = ship(&mut s, W, "32");
    hand(&mut s, W, json!({"green": 5}));
    refused(&mut s, W, move_by(w, &["31"]), e::INVALID_PATH);
    refused(
        &mut s,
        W,
        move_by(w, &["TY", "32", "TY", "31"]),
        e::INVALID_PATH,
    );
    refused(&mut s, W, move_by(w, &["TY"]), e::INVALID_DESTINATION);
    refused(
        &mut s,
        W,
        move_by(w, &["TY", "31", "30"]),
        e::INVALID_DESTINATION,
    );
    let mut bad_end = move_by(w, &["TY", "31"]);
    if let Action::Move { to, .. } = &mut bad_end {
        *to = cell("28");
    }
    refused(&mut s, W, bad_end, e::INVALID_PATH);
    // Without a path: the shortest (TY-31, 2 cards).
    let events = accepted(
        &mut s,
        W,
        Action::Move {
            ship: w,
            to: cell("31"),
            path: None,
            wind: false,
            cost: Some(2),
        },
    );
    assert!(events
        .iter()
        .any(|ev| matches!(ev, Event::ShipMoved { path, .. } if *path == cells(&["TY", "31"]))));
    assert_eq!(held(&s, W), cards(json!({"green": 3})));
}

/// TR-ACT-A, TR-D-6: the listed move is the cheapest affordable path with its total cost; a
/// wrong `cost` guard is refused.
#[test]
fn tr_act_a_listed_moves_carry_the_cheapest_path_and_its_cost() {
    let mut s = table(
        4,
        Config {
            pirates: true,
            ..Config::default()
        },
    );
    empire(&mut s, Green, &["9"]);
    pirate(&mut s, "23");
    ship(&mut s, W, "TY");
    hand(&mut s, W, json!({"green": 7, "orange": 1}));
    let listed: Vec<Action> = Tyros::legal_actions(&s, Seat(W))
        .into_iter()
        .filter(|a| matches!(a, Action::Move { to, .. } if *to == cell("9")))
        .collect();
    assert_eq!(listed.len(), 1);
    let Action::Move {
        path: Some(path),
        cost: Some(cost),
        ..
    } = &listed[0]
    else {
        panic!("{listed:?}")
    };
    assert_eq!(*cost, 7, "a 7-cell path around the pirate beats 7 + 1 toll");
    assert_eq!(path.len(), 7);
    assert!(!path.contains(&cell("23")));
    let mut wrong = listed[0].clone();
    if let Action::Move { cost, .. } = &mut wrong {
        *cost = Some(8);
    }
    refused(&mut s, W, wrong, e::COST_MISMATCH);
    accepted(&mut s, W, listed[0].clone());
    assert_eq!(held(&s, W), cards(json!({"orange": 1})));
}

/// TR-ACT-A, TR-D-5, TR-D-19: tribute is one card of the payer's choice, paid once for ending
/// on a rival city, never for passing one; a move the hand cannot pay is refused whole.
#[test]
fn tr_act_a_tribute_is_one_card_of_choice_and_only_at_the_destination() {
    let mut s = table(4, Config::default());
    empire(&mut s, Violet, &["22", "21", "17"]);
    city(&mut s, R, "22");
    city(&mut s, G, "21");
    let w = ship(&mut s, W, "16");
    hand(&mut s, W, json!({"violet": 3, "orange": 1, "yellow": 1}));
    let events = accepted(&mut s, W, move_by(w, &["21", "22"]));
    let dues = owed(&events);
    assert_eq!(dues.len(), 2);
    assert_eq!(
        (dues[1].reason, dues[1].to, dues[1].count),
        (DueReason::Tribute, Some(Seat(R)), 1)
    );
    // The colour part is paid by itself; the tribute card is White's choice.
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W)]);
    pay(&mut s, W, json!({"yellow": 1}));
    assert_eq!(held(&s, R), cards(json!({"yellow": 1})));
    assert!(held(&s, G).is_empty(), "nothing for passing Grey's city");
    // The path of 2 cost 2 violet, to the discard pile; White keeps the rest.
    assert_eq!(held(&s, W), cards(json!({"violet": 1, "orange": 1})));
    assert_eq!(
        s.discard_pile,
        vec![crate::tyros::Card::Violet, crate::tyros::Card::Violet]
    );
    let mut s = table(4, Config::default());
    empire(&mut s, Violet, &["22", "21"]);
    city(&mut s, R, "22");
    let w = ship(&mut s, W, "21");
    hand(&mut s, W, json!({"violet": 1}));
    refused(&mut s, W, move_by(w, &["22"]), e::CANNOT_AFFORD);
}

/// TR-ACT-B: a city needs an own ship on an empire field, no rival ship, no city yet and a
/// marker; it costs 5 cards of the colour and sends the chosen ship home.
#[test]
fn tr_act_b_founding_a_city() {
    let mut s = table(4, Config::default());
    empire(&mut s, Orange, &["12", "13"]);
    let a = ship(&mut s, W, "12");
    let b = ship(&mut s, W, "12");
    hand(&mut s, W, json!({"orange": 4, "joker": 1}));
    let events = accepted(&mut s, W, Action::FoundCity { ship: b });
    assert_eq!(
        paid(&events),
        vec![(DueReason::City, cards(json!({"orange": 4, "joker": 1})))]
    );
    assert_eq!(s.field(cell("12")).city, Some(Seat(W)));
    assert_eq!((s.ship(a).at, s.ship(b).at), (Some(cell("12")), None));
    assert_eq!(s.player(Seat(W)).cities_left, 9);
    give_turn(&mut s, W);
    hand(&mut s, W, json!({"orange": 5}));
    refused(&mut s, W, Action::FoundCity { ship: a }, e::CITY_SITE_TAKEN);
    let c = ship(&mut s, W, "13");
    s.players[usize::from(W)].cities_left = 0;
    refused(&mut s, W, Action::FoundCity { ship: c }, e::NO_CITY_MARKERS);
    s.players[usize::from(W)].cities_left = 3;
    hand(&mut s, W, json!({"orange": 4}));
    refused(&mut s, W, Action::FoundCity { ship: c }, e::CANNOT_AFFORD);
    let t = ship(&mut s, W, "TY");
    refused(
        &mut s,
        W,
        Action::FoundCity { ship: t },
        e::NOT_AN_EMPIRE_FIELD,
    );
    let r = ship(&mut s, R, "13");
    refused(&mut s, W, Action::FoundCity { ship: r }, e::NOT_YOUR_SHIP);
}

/// TR-ACT-C, TR-D-8: a ship is built in an own city with room for 1 card of its colour, or in
/// Tyros for any card while the player has no city (`tyros_shipyard`).
#[test]
fn tr_act_c_building_ships_in_cities_and_in_tyros() {
    let mut s = table(4, Config::default());
    empire(&mut s, Yellow, &["12"]);
    hand(&mut s, W, json!({"yellow": 1, "violet": 1}));
    let events = accepted(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("TY"),
            galley: false,
        },
    );
    assert!(events
        .iter()
        .any(|ev| matches!(ev, Event::ShipBuilt { at, .. } if at.is_tyros())));
    assert_eq!(
        Tyros::active_seats(&s),
        vec![Seat(W)],
        "any card: White chooses"
    );
    pay(&mut s, W, json!({"violet": 1}));
    give_turn(&mut s, W);
    city(&mut s, W, "12");
    refused(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("TY"),
            galley: false,
        },
        e::NOT_A_SHIPYARD,
    );
    refused(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("13"),
            galley: false,
        },
        e::NOT_A_SHIPYARD,
    );
    ship(&mut s, R, "12");
    let events = accepted(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("12"),
            galley: false,
        },
    );
    assert_eq!(s.ship_count(cell("12")), 2);
    // 1 card of the field's colour (yellow), and the new ship is White's.
    assert_eq!(
        paid(&events),
        vec![(DueReason::Build, cards(json!({"yellow": 1})))]
    );
    assert!(held(&s, W).is_empty());
    assert_eq!(
        s.ships_at(cell("12"))
            .filter(|&id| s.ship(id).owner == Seat(W))
            .count(),
        1
    );
    give_turn(&mut s, W);
    hand(&mut s, W, json!({"yellow": 1}));
    refused(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("12"),
            galley: false,
        },
        e::SHIPYARD_FULL,
    );
    for ship in s.ships.iter_mut().filter(|x| x.owner == Seat(W)) {
        ship.at.get_or_insert(cell("TY"));
    }
    refused(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("TY"),
            galley: false,
        },
        e::NO_SHIP_IN_SUPPLY,
    );
    for (rule, allowed) in [(TyrosShipyard::Always, true), (TyrosShipyard::Never, false)] {
        let mut s = table(
            4,
            Config {
                tyros_shipyard: rule,
                ..Config::default()
            },
        );
        empire(&mut s, Yellow, &["12"]);
        city(&mut s, W, "12");
        hand(&mut s, W, json!({"yellow": 1}));
        let r = act(
            &mut s,
            W,
            Action::BuildShip {
                at: cell("TY"),
                galley: false,
            },
        );
        assert_eq!(r.is_ok(), allowed);
    }
}

/// TR-ACT-D, TR-K1: bank trades are counted per round only to tell whether there was one; a
/// player who trades with the bank turn after turn (a bot found 256 in one round) never
/// overflows the count (evolve never fails).
#[test]
fn tr_act_d_bank_trades_in_a_round_are_counted_without_overflow() {
    let mut s = table(4, Config::default());
    s.player_mut(Seat(W)).bank_trades = u8::MAX;
    hand(&mut s, W, json!({"orange": 1}));
    accepted(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 1})),
        },
    );
    assert_eq!(s.player(Seat(W)).bank_trades, u8::MAX);
}

/// TR-ACT-D, TR-D-9: the bank swaps 1–3 cards for as many from the pile, or gives a chosen
/// colour for 3 cards and shuffles the pile; without that colour in the pile the 3 cards are
/// discarded all the same, the pile is shuffled and the action is spent (TR-ACT-D (2) amended,
/// rules version 2; version 1 in `versions.rs`).
#[test]
fn tr_act_d_trading_with_the_bank() {
    let mut s = table(4, Config::default());
    hand(&mut s, W, json!({"orange": 4}));
    refused(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 4})),
        },
        e::BAD_CARD_COUNT,
    );
    refused(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"green": 1})),
        },
        e::CARDS_NOT_IN_HAND,
    );
    refused(
        &mut s,
        W,
        Action::BankSwap {
            cards: Default::default(),
        },
        e::BAD_CARD_COUNT,
    );
    let top: Vec<Card> = s.draw_pile[s.draw_pile.len() - 3..].to_vec();
    let pile = s.draw_pile.len();
    let events = accepted(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 3})),
        },
    );
    assert!(events.contains(&Event::BankTraded {
        seat: Seat(W),
        form: BankForm::Swap
    }));
    assert_eq!(
        held(&s, W),
        cards(json!({"orange": 1})).plus(&crate::tyros::Cards::count(&top))
    );
    assert_eq!(&s.discard_pile[..], &[Card::Orange; 3]);
    assert_eq!(s.draw_pile.len(), pile - 3, "as many drawn as discarded");
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(R)), "it was the action");
    // Form (2).
    let mut s = table(4, Config::default());
    hand(&mut s, W, json!({"orange": 3}));
    s.draw_pile.insert(0, Card::Violet);
    let violets = s.draw_pile.iter().filter(|c| **c == Card::Violet).count();
    let pile = s.draw_pile.len();
    refused(
        &mut s,
        W,
        Action::BankPick {
            colour: Violet,
            cards: cards(json!({"orange": 2})),
        },
        e::BAD_CARD_COUNT,
    );
    let events = accepted(
        &mut s,
        W,
        Action::BankPick {
            colour: Violet,
            cards: cards(json!({"orange": 3})),
        },
    );
    assert!(events.contains(&Event::CardTakenFromPile {
        seat: Seat(W),
        card: Card::Violet
    }));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::DrawPileShuffled { .. })));
    assert_eq!(held(&s, W), cards(json!({"violet": 1})));
    // The violet came out of the pile; the 3 cards went to the discard pile.
    assert_eq!(s.draw_pile.len(), pile - 1);
    assert_eq!(
        s.draw_pile.iter().filter(|c| **c == Card::Violet).count(),
        violets - 1
    );
    assert_eq!(&s.discard_pile[..], &[Card::Orange; 3]);
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(R)), "it was the action");
    // No violet left in the pile: the search fails, the cards are gone, the turn is spent.
    let mut s = table(4, Config::default());
    hand(&mut s, W, json!({"orange": 4}));
    s.draw_pile.retain(|c| *c != Card::Violet);
    let pile = s.draw_pile.len();
    let events = accepted(
        &mut s,
        W,
        Action::BankPick {
            colour: Violet,
            cards: cards(json!({"orange": 3})),
        },
    );
    assert!(events.contains(&Event::PileSearchFailed {
        seat: Seat(W),
        colour: Violet
    }));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::CardTakenFromPile { .. })));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::DrawPileShuffled { .. })));
    assert_eq!(held(&s, W), cards(json!({"orange": 1})));
    assert_eq!(&s.discard_pile[..], &[Card::Orange; 3]);
    assert_eq!(s.draw_pile.len(), pile);
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(R)));
}

/// TR-ACT-E, TR-D-10: a public offer; the recipient accepts or rejects; a rejected or withdrawn
/// offer leaves the turn open; an accepted trade is the action; gifts are allowed.
#[test]
fn tr_act_e_trading_with_a_player_by_offer_and_answer() {
    let mut s = table(4, Config::default());
    hand(&mut s, W, json!({"orange": 2}));
    hand(&mut s, R, json!({"green": 1}));
    let offer = Action::OfferTrade {
        to: Seat(R),
        give: cards(json!({"orange": 2})),
        get: cards(json!({"green": 1})),
    };
    refused(
        &mut s,
        W,
        Action::OfferTrade {
            to: Seat(W),
            give: cards(json!({"orange": 1})),
            get: Default::default(),
        },
        e::INVALID_OFFER,
    );
    refused(
        &mut s,
        W,
        Action::OfferTrade {
            to: Seat(R),
            give: Default::default(),
            get: Default::default(),
        },
        e::INVALID_OFFER,
    );
    accepted(&mut s, W, offer.clone());
    assert_eq!(Tyros::active_seats(&s), vec![Seat(R)]);
    assert!(Tyros::legal_actions(&s, Seat(W)).contains(&Action::WithdrawTrade));
    refused(&mut s, W, Action::Pass, e::DECISION_PENDING);
    let events = accepted(&mut s, R, Action::RejectTrade);
    assert!(events.contains(&Event::TradeRejected {
        from: Seat(W),
        to: Seat(R)
    }));
    assert_eq!(s.turn().map(|t| (t.seat, t.acted)), Some((Seat(W), false)));
    assert_eq!(
        (held(&s, W), held(&s, R)),
        (cards(json!({"orange": 2})), cards(json!({"green": 1}))),
        "a rejected offer moves no card"
    );
    accepted(&mut s, W, offer.clone());
    accepted(&mut s, W, Action::WithdrawTrade);
    assert_eq!(s.turn().map(|t| (t.seat, t.acted)), Some((Seat(W), false)));
    assert_eq!(held(&s, W), cards(json!({"orange": 2})));
    hand(&mut s, G, json!({"yellow": 1}));
    accepted(&mut s, W, offer);
    let events = accepted(&mut s, R, Action::AcceptTrade);
    let accepted_trade = Event::TradeAccepted {
        from: Seat(W),
        to: Seat(R),
        give: cards(json!({"orange": 2})),
        get: cards(json!({"green": 1})),
    };
    assert!(events.contains(&accepted_trade));
    // Trades are public: every viewer sees the cards that changed hands.
    for viewer in [Viewer::Spectator, Viewer::Seat(Seat(G))] {
        let seen: Vec<Event> = events
            .iter()
            .filter_map(|e| Tyros::redact(e, viewer))
            .collect();
        assert!(seen.contains(&accepted_trade), "{viewer:?}");
    }
    assert_eq!(
        (held(&s, W), held(&s, R)),
        (cards(json!({"green": 1})), cards(json!({"orange": 2})))
    );
    assert_eq!(held(&s, G), cards(json!({"yellow": 1})), "nobody else's");
    assert_eq!(
        s.turn().map(|t| t.seat),
        Some(Seat(R)),
        "the trade was White's action"
    );
    // A gift; and an offer the recipient cannot meet can only be rejected.
    let mut s = table(4, Config::default());
    hand(&mut s, R, json!({"green": 1}));
    accepted(
        &mut s,
        W,
        Action::OfferTrade {
            to: Seat(R),
            give: Default::default(),
            get: cards(json!({"green": 1})),
        },
    );
    accepted(&mut s, R, Action::AcceptTrade);
    assert_eq!(held(&s, W), cards(json!({"green": 1})));
    assert!(held(&s, R).is_empty());
    let mut s = table(4, Config::default());

    hand(&mut s, W, json!({"orange": 1}));
    hand(&mut s, R, json!({"yellow": 1}));
    accepted(
        &mut s,
        W,
        Action::OfferTrade {
            to: Seat(R),
            give: cards(json!({"orange": 1})),
            get: cards(json!({"green": 1})),
        },
    );
    assert_eq!(Tyros::legal_actions(&s, Seat(R)), vec![Action::RejectTrade]);
    refused(&mut s, R, Action::AcceptTrade, e::CARDS_NOT_IN_HAND);
}

/// TR-D-19: a cost the hand cannot pay makes the action illegal; a levy takes what exists.
#[test]
fn tr_d_19_unaffordable_actions_are_illegal_and_never_partly_paid() {
    let mut s = table(4, Config::default());
    empire(&mut s, Green, &["31", "27"]);
    let w = ship(&mut s, W, "TY");
    hand(&mut s, W, json!({"green": 1, "orange": 5}));
    refused(&mut s, W, move_by(w, &["31", "27"]), e::CANNOT_AFFORD);
    assert!(!Tyros::legal_actions(&s, Seat(W))
        .iter()
        .any(|a| matches!(a, Action::Move { to, .. } if *to == cell("27"))));
    assert_eq!(held(&s, W), cards(json!({"green": 1, "orange": 5})));
}

/// TR-ACT-0, TR-RND-1: actions out of their phase or with nothing to answer are refused with
/// their own codes.
#[test]
fn tr_act_0_actions_out_of_place_are_refused() {
    let mut s = table(4, Config::default());
    empire(&mut s, Green, &["31"]);
    let supply = s.ships_in_supply(Seat(W)).next().unwrap();
    hand(&mut s, W, json!({"green": 2}));
    let to_31 = Action::Move {
        ship: supply,
        to: cell("31"),
        path: None,
        wind: false,
        cost: None,
    };
    refused(&mut s, W, to_31.clone(), e::SHIP_NOT_ON_BOARD);
    refused(
        &mut s,
        W,
        Action::PlaceTile {
            tile: crate::tyros::data::Tile(30),
            empire: None,
        },
        e::WRONG_PHASE,
    );
    refused(&mut s, R, Action::AcceptTrade, e::NO_OFFER);
    refused(&mut s, W, Action::WithdrawTrade, e::NO_OFFER);
    refused(
        &mut s,
        W,
        Action::Pay {
            cards: cards(json!({"green": 1})),
        },
        e::NO_DUE,
    );
    let laid = Action::LayFightCards {
        cards: cards(json!({"green": 1})),
    };
    refused(&mut s, W, laid, e::NO_FIGHT_DECISION);
    let choice = Action::ChooseFightDiscard {
        cards: cards(json!({"green": 1})),
    };
    refused(&mut s, W, choice, e::NO_FIGHT_DECISION);
    refused(
        &mut s,
        W,
        Action::Keep {
            cards: cards(json!({"green": 2})),
        },
        e::NO_KEEP_DUE,
    );
    s.phase = crate::tyros::state::Phase::Expansion {
        step: 0,
        placed: false,
        drew: false,
    };
    let on_board = ship(&mut s, W, "TY");
    refused(&mut s, W, move_by(on_board, &["31"]), e::WRONG_PHASE);
}
