//! Spec §10 as amended for rules version 2 (issue 24): an offer moves something, the proposer
//! can pay its own side when making it and again on acceptance, and an offer stands on the
//! deeds as they were when it was made. The situations come from refereed games (the seeds
//! named in each test) and are built here by moves.

use super::support::*;
use crate::monopoly::{Action, Config, Event};
use crate::Seat;

/// An offer to `to`: `give` deeds and `give_cash` for `get` deeds and `get_cash`.
fn offer(to: u8, give: &[u8], give_cash: i64, get: &[u8], get_cash: i64) -> Action {
    Action::OfferTrade {
        to: Seat(to),
        give_cash,
        give_properties: give.to_vec(),
        give_cards: vec![],
        get_cash,
        get_properties: get.to_vec(),
        get_cards: vec![],
        lift: vec![],
    }
}

fn accept(offer: u32) -> Action {
    Action::AcceptTrade {
        offer,
        lift: vec![],
    }
}

/// The `(offer, square)` of every lapse in `events`.
fn lapses(events: &[Event]) -> Vec<(u32, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TradeLapsed { offer, square } => Some((*offer, *square)),
            _ => None,
        })
        .collect()
}

/// Makes `action` (an offer) as `seat`; returns the new offer's id.
fn offered(state: &mut crate::monopoly::State, seat: u8, action: Action) -> u32 {
    let id = state.next_offer;
    ok(state, seat, action);
    assert!(state.offers.iter().any(|o| o.offer == id));
    id
}

/// MO-TRADE-4 (amended), seed 3004: A offers Poststraße (9) plus M 24 for M 138, then
/// mortgages Poststraße and takes M 60. The offer lapses with an event naming the deed and can
/// no longer be accepted (before, B received a mortgaged deed and had to pay M 66 to lift it).
/// The mirror case: C asks for B's Chausseestraße (6) and B mortgages it; that offer lapses
/// too (before, C was charged interest it never chose). A deed no offer names changes nothing.
#[test]
fn mo_trade_4_an_offer_lapses_when_a_deed_it_names_is_mortgaged() {
    let mut s = new_game(3);
    own(&mut s, A, &[5, 9]);
    own(&mut s, B, &[6]);
    let bait = offered(&mut s, A, offer(B, &[9], 24, &[], 138));
    let events = ok(&mut s, A, Action::Mortgage { square: 5 });
    assert!(lapses(&events).is_empty(), "no offer names Südbahnhof");
    let events = ok(&mut s, A, Action::Mortgage { square: 9 });
    assert_eq!(lapses(&events), vec![(bait, 9)]);
    assert_eq!(cash(&s, A), 1500 + 100 + 60);
    assert!(s.offers.is_empty());
    refused(&mut s, B, accept(bait), "monopoly.no_such_offer");
    assert_eq!(s.deed(9).unwrap().owner, Some(Seat(A)));
    assert_eq!(cash(&s, B), 1500);

    let asked = offered(&mut s, C, offer(B, &[], 50, &[6], 0));
    assert!(listed(&s, B, &accept(asked)));
    let events = ok(&mut s, B, Action::Mortgage { square: 6 });
    assert_eq!(lapses(&events), vec![(asked, 6)]);
    assert!(!listed(&s, B, &accept(asked)));
    refused(&mut s, B, accept(asked), "monopoly.no_such_offer");
    assert_eq!(cash(&s, C), 1500, "no interest charged");
}

/// MO-TRADE-4 (amended): a deed named in an offer that is lifted, built on, or changes owner
/// in another trade makes the offer lapse as well, in the same action, after its own events.
#[test]
fn mo_trade_4_an_offer_lapses_when_a_deed_it_names_is_lifted_built_on_or_traded() {
    let mut s = new_game(3);
    own(&mut s, A, &[1, 3, 25]);
    own(&mut s, B, &[15]);
    ok(&mut s, B, Action::Mortgage { square: 15 });
    // Lifted: A asked for a mortgaged Bahnhof, expecting to pay its interest.
    let lifted = offered(&mut s, A, offer(B, &[], 100, &[15], 0));
    let events = ok(&mut s, B, Action::LiftMortgage { square: 15 });
    assert!(matches!(
        events[0],
        Event::MortgageLifted { square: 15, .. }
    ));
    assert_eq!(lapses(&events), vec![(lifted, 15)]);
    // Built on: Turmstraße gets a house.
    let built = offered(&mut s, A, offer(C, &[3], 0, &[], 100));
    let events = ok(&mut s, A, Action::Build { squares: vec![3] });
    assert_eq!(lapses(&events), vec![(built, 3)]);
    // Changes owner: C buys Nordbahnhof from A, so A's offer of it to B lapses.
    let first = offered(&mut s, A, offer(B, &[25], 0, &[], 200));
    let second = offered(&mut s, C, offer(A, &[], 300, &[25], 0));
    let events = ok(&mut s, A, accept(second));
    assert!(matches!(events[0], Event::TradeExecuted { .. }));
    assert_eq!(lapses(&events), vec![(first, 25)]);
    assert_eq!(s.deed(25).unwrap().owner, Some(Seat(C)));
    assert!(s.offers.is_empty());
}

/// MO-TRADE-2 (amended), seed 3029: an offer in which neither side gives anything is refused
/// (it was offered and accepted); a gift of anything, cash included, is still an offer.
#[test]
fn mo_trade_2_an_offer_of_nothing_for_nothing_is_refused() {
    let mut s = new_game(6);
    refused(&mut s, D, offer(A, &[], 0, &[], 0), "monopoly.empty_offer");
    assert!(s.offers.is_empty());
    let gift = offered(&mut s, D, offer(A, &[], 1, &[], 0));
    ok(&mut s, A, accept(gift));
    assert_eq!((cash(&s, A), cash(&s, D)), (1501, 1499));
}

/// MO-TRADE-4 (amended), seed 3082: A holds M 8 and offers M 1 for B's three mortgaged deeds,
/// M 11 of interest due and none lifted: refused, as A could not pay its side. An offer A can
/// pay is taken; when A's cash falls below its side (rent paid to C) before B answers, the
/// accept is refused and no longer listed.
#[test]
fn mo_trade_4_an_offer_the_proposer_cannot_pay_is_refused_and_checked_on_acceptance() {
    let mut s = new_game(3);
    own(&mut s, B, &[1, 3, 6]);
    for square in [1, 3, 6] {
        ok(&mut s, B, Action::Mortgage { square });
    }
    own(&mut s, C, &[11]);
    set_cash(&mut s, A, 8);
    // 1 + 3 + 3 + 5 = 12 > 8.
    refused(
        &mut s,
        A,
        offer(B, &[], 1, &[1, 3, 6], 0),
        "monopoly.insufficient_cash",
    );
    set_cash(&mut s, A, 20);
    let id = offered(&mut s, A, offer(B, &[], 1, &[1, 3, 6], 0));
    assert!(listed(&s, B, &accept(id)));
    land_on(&mut s, A, 11);
    claim(&mut s, C);
    assert_eq!(cash(&s, A), 10);
    assert!(!listed(&s, B, &accept(id)));
    refused(&mut s, B, accept(id), "monopoly.insufficient_cash");
    ok(&mut s, B, Action::RejectTrade { offer: id });
}

/// MO-TRADE-4 (amended): an offer of more cash than the proposer holds, or asking more than the
/// addressee holds, is refused under the protocol's rule, not MO-TRADE-2 (which says what may
/// be traded, not what can be paid); in either rules version.
#[test]
fn mo_trade_4_an_offer_beyond_the_cash_held_cites_the_protocol() {
    for version in [1, 2] {
        let mut s = new_game_with(3, Config::defaults(version));
        set_cash(&mut s, A, 100);
        for (give, get) in [(101, 0), (0, 1501)] {
            let refusal = act_with(&mut s, A, offer(B, &[], give, &[], get), &[]).unwrap_err();
            assert_eq!(refusal.code, "monopoly.insufficient_cash");
            assert_eq!(refusal.rule, "MO-TRADE-4", "version {version}");
        }
    }
}

/// MO-TRADE-3, MO-TRADE-4: an accept the accepting party cannot pay for is rejected, counting
/// the MO-TRADE-3 costs of the mortgaged deed received (10 % interest, or MV + 10 % to lift);
/// the interest goes to the bank, and the deed arrives still mortgaged.
#[test]
fn mo_trade_4_an_accept_that_cannot_pay_the_mortgage_costs_is_refused() {
    let mut s = new_game(3);
    own(&mut s, A, &[35]);
    mortgage(&mut s, 35);
    let id = offered(&mut s, A, offer(B, &[35], 0, &[], 0));
    set_cash(&mut s, B, 5);
    refused(&mut s, B, accept(id), "monopoly.insufficient_cash");
    set_cash(&mut s, B, 50);
    refused(
        &mut s,
        B,
        Action::AcceptTrade {
            offer: id,
            lift: vec![35],
        },
        "monopoly.insufficient_cash",
    );
    ok(&mut s, B, accept(id));
    let deed = s.deed(35).unwrap();
    assert_eq!((deed.owner, deed.mortgaged), (Some(Seat(B)), true));
    assert_eq!(
        (cash(&s, A), cash(&s, B), cash(&s, C)),
        (1500, 40, 1500),
        "the 10 interest goes to the bank"
    );
}

/// MO-TRADE-3, MO-TRADE-4: the choice is made per mortgaged deed received, the proposer's in
/// the offer: A lifts Hauptbahnhof (100 + 10) and keeps Südbahnhof mortgaged (10 interest); B
/// gets only the agreed price.
#[test]
fn mo_trade_3_the_proposer_chooses_per_deed_in_the_offer() {
    let mut s = new_game(3);
    own(&mut s, B, &[5, 35]);
    mortgage(&mut s, 5);
    mortgage(&mut s, 35);
    let id = offered(
        &mut s,
        A,
        Action::OfferTrade {
            to: Seat(B),
            give_cash: 50,
            give_properties: vec![],
            give_cards: vec![],
            get_cash: 0,
            get_properties: vec![5, 35],
            get_cards: vec![],
            lift: vec![35],
        },
    );
    ok(&mut s, B, accept(id));
    assert!(s.deed(5).unwrap().mortgaged);
    assert!(!s.deed(35).unwrap().mortgaged);
    assert_eq!(
        (cash(&s, A), cash(&s, B), cash(&s, C)),
        (1500 - 50 - 110 - 10, 1550, 1500)
    );
}
