//! §13 debts and bankruptcy, §14 end of game.

use super::support::*;
use crate::monopoly::state::Lot;
use crate::monopoly::{Action, Config, EndReason, Event, Monopoly, PaymentReason, Template};
use crate::{Game, Seat};

/// A owes B 600 rent with cash 100.
fn owing(players: usize) -> crate::monopoly::State {
    let mut s = new_game(players);
    set_cash(&mut s, A, 100);
    own(&mut s, B, &[37, 39]);
    set_level(&mut s, 37, 2);
    set_level(&mut s, 39, 2);
    land_on(&mut s, A, 39);
    claim(&mut s, B);
    s
}

/// MO-DEBT-1, MO-D-13, MO-D-2: the debtor raises funds; bankruptcy only when selling and
/// mortgaging everything would not pay; meanwhile only the debtor's money-raising actions,
/// trades with the debtor and rent claims are taken.
#[test]
fn mo_debt_1_mo_d_13_mo_d_2_raising_funds_and_eligibility() {
    let mut s = owing(3);
    own(&mut s, A, &[6, 8, 9]);
    set_level(&mut s, 6, 1);
    set_level(&mut s, 8, 1);
    set_level(&mut s, 9, 1);
    // 100 + 3 × 25 + 50 + 50 + 60 = 335 < 600: eligible.
    assert!(listed(&s, A, &Action::DeclareBankruptcy));
    own(&mut s, A, &[31, 32, 34]);
    // + 150 + 150 + 160 = 795 ≥ 600: not eligible.
    refused(
        &mut s,
        A,
        Action::DeclareBankruptcy,
        "monopoly.bankruptcy_not_allowed",
    );
    refused(&mut s, A, Action::PayDebt, "monopoly.insufficient_cash");
    refused(
        &mut s,
        A,
        Action::LiftMortgage { square: 6 },
        "monopoly.debt_pending",
    );
    refused(
        &mut s,
        B,
        Action::Build { squares: vec![37] },
        "monopoly.debt_pending",
    );
    refused(
        &mut s,
        C,
        Action::Mortgage { square: 5 },
        "monopoly.debt_pending",
    );
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(A)]);
    let templates = Monopoly::action_templates(&s, Seat(C));
    assert!(!templates.is_empty());
    assert!(
        templates
            .iter()
            .all(|t| matches!(t, Template::OfferTrade { fixed, .. } if fixed.to == Seat(A))),
        "C may only offer to the debtor: {templates:?}"
    );
    ok(&mut s, A, Action::SellBuilding { square: 6 });
    for sq in [8, 9] {
        ok(&mut s, A, Action::SellBuilding { square: sq });
    }
    for sq in [31, 32, 34] {
        ok(&mut s, A, Action::Mortgage { square: sq });
    }
    assert_eq!(cash(&s, A), 100 + 75 + 460);
    ok(&mut s, A, Action::PayDebt);
    assert_eq!((cash(&s, A), cash(&s, B)), (35, 2100));
    assert!(s.debts.is_empty());
}

/// MO-DEBT-1: the debtor may also raise money by selling a property or a jail card to another
/// player, and then pays.
#[test]
fn mo_debt_1_the_debtor_sells_a_deed_and_a_jail_card_to_a_player() {
    let mut s = owing(3);
    own(&mut s, A, &[5]);
    let e08: crate::monopoly::Card = serde_json::from_str("\"E08\"").unwrap();
    s.decks[0].retain(|c| *c != e08);
    s.players[0].jail_cards = vec![e08];
    ok(
        &mut s,
        C,
        Action::OfferTrade {
            to: Seat(A),
            give_cash: 500,
            give_properties: vec![],
            give_cards: vec![],
            get_cash: 0,
            get_properties: vec![5],
            get_cards: vec![e08],
            lift: vec![],
        },
    );
    let offer = s.offers[0].offer;
    ok(
        &mut s,
        A,
        Action::AcceptTrade {
            offer,
            lift: vec![],
        },
    );
    assert_eq!(s.deed(5).unwrap().owner, Some(Seat(C)));
    assert_eq!(s.players[2].jail_cards, vec![e08]);
    assert_eq!(cash(&s, A), 600);
    ok(&mut s, A, Action::PayDebt);
    assert_eq!((cash(&s, A), cash(&s, B), cash(&s, C)), (0, 2100, 1000));
    assert!(s.debts.is_empty() && !s.players[0].bankrupt);
}

/// MO-DEBT-1: in the eligibility sum a hotel counts as 5 × H, halved: three hotels on
/// Hellblau (3 × 125) + their MV (160) + 100 cash = 635 ≥ 600, so no bankruptcy; counted as one
/// house each it would be 335.
#[test]
fn mo_debt_1_a_hotel_counts_five_houses_towards_eligibility() {
    let mut s = owing(3);
    own(&mut s, A, &[6, 8, 9]);
    for sq in [6, 8, 9] {
        set_level(&mut s, sq, 5);
    }
    refused(
        &mut s,
        A,
        Action::DeclareBankruptcy,
        "monopoly.bankruptcy_not_allowed",
    );
}

/// MO-BANKR-1, MO-BANKR-2: the bankrupt's buildings are sold to the bank at half price and
/// every deed is mortgaged; all the cash goes to the creditor player, with the deeds.
#[test]
fn mo_bankr_1_buildings_sold_and_every_deed_mortgaged_before_the_transfer() {
    let mut s = owing(3);
    own(&mut s, A, &[6, 8, 9]);
    for sq in [6, 8, 9] {
        set_level(&mut s, sq, 1);
    }
    let houses = s.bank_houses;
    ok(&mut s, A, Action::DeclareBankruptcy);
    // 100 cash + 3 × 25 for the houses + 50 + 50 + 60 MV = 335, all of it to B.
    assert_eq!(cash(&s, B), 1500 + 335);
    assert_eq!(cash(&s, A), 0);
    assert_eq!(cash(&s, C), 1500);
    assert_eq!(s.bank_houses, houses + 3);
    for sq in [6, 8, 9] {
        let deed = s.deed(sq).unwrap();
        assert_eq!(
            (deed.owner, deed.mortgaged, deed.level),
            (Some(Seat(B)), true, 0),
            "{sq}"
        );
    }
}

/// MO-BANKR-3: owing the bank, the bankrupt's cash goes to the bank (no player gains), the
/// GOOJF cards go under their own decks, and a deed nobody bids on returns to the bank unowned
/// and unmortgaged.
#[test]
fn mo_bankr_3_unbid_deeds_return_unmortgaged_and_cards_go_under_their_decks() {
    let mut s = new_game(3);
    set_cash(&mut s, A, 50);
    own(&mut s, A, &[1]);
    let (e08, g04): (crate::monopoly::Card, crate::monopoly::Card) = (
        serde_json::from_str("\"E08\"").unwrap(),
        serde_json::from_str("\"G04\"").unwrap(),
    );
    s.decks[0].retain(|c| *c != e08);
    s.decks[1].retain(|c| *c != g04);
    s.players[0].jail_cards = vec![g04, e08];
    land_on(&mut s, A, 4);
    ok(&mut s, A, Action::DeclareBankruptcy);
    assert!(s.players[0].jail_cards.is_empty());
    assert_eq!(s.decks[0].last(), Some(&e08));
    assert_eq!(s.decks[1].last(), Some(&g04));
    assert_eq!((s.decks[0].len(), s.decks[1].len()), (16, 16));
    assert_eq!((cash(&s, B), cash(&s, C)), (1500, 1500));
    assert!(s.players[1].jail_cards.is_empty() && s.players[2].jail_cards.is_empty());
    ok(&mut s, B, Action::PassAuction);
    ok(&mut s, C, Action::PassAuction);
    assert!(s.auction.is_none());
    let deed = s.deed(1).unwrap();
    assert_eq!((deed.owner, deed.mortgaged), (None, false));
    // MO-DEBT-2: the bankrupt leaves the game: nothing more is taken from A, and play goes on.
    refused(&mut s, A, Action::Roll, "monopoly.bankrupt");
    assert!(!Monopoly::active_seats(&s).contains(&Seat(A)));
    assert!(s.outcome.is_none());
}

/// MO-DEBT-2, MO-END-1: the last player not bankrupt wins.
#[test]
fn mo_debt_2_mo_end_1_last_solvent_player_wins() {
    let mut s = owing(2);
    let events = ok(&mut s, A, Action::DeclareBankruptcy);
    let Some(Event::GameEnded { outcome, reason }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(*reason, EndReason::LastSolvent);
    assert_eq!(outcome.winners, vec![Seat(B)]);
    assert_eq!(outcome.scores[0], 0);
    assert!(Monopoly::active_seats(&s).is_empty());
    refused(&mut s, B, Action::EndTurn, "game_over");
}

/// MO-BANKR-4, MO-D-16: several creditors share the cash pro rata (rounded down, the rest to
/// the bank); the estate goes to the bank's auctions.
#[test]
fn mo_bankr_4_mo_d_16_several_creditors_share_pro_rata() {
    let mut s = new_game(4);
    set_cash(&mut s, A, 61);
    own(&mut s, A, &[1]);
    let g04: crate::monopoly::Card = serde_json::from_str("\"G04\"").unwrap();
    s.decks[1].retain(|c| *c != g04);
    s.players[0].jail_cards = vec![g04];
    stack(&mut s, "E14");
    land_on(&mut s, A, 7);
    assert_eq!(s.debts[0].total(), 100);
    ok(&mut s, A, Action::DeclareBankruptcy);
    // 11 left + 30 for Badstraße = 41: 20 each to C and D, 1 to the bank.
    assert_eq!((cash(&s, C), cash(&s, D)), (1520, 1520));
    assert_eq!(cash(&s, B), 1550);
    let auction = s.auction.clone().unwrap();
    assert_eq!(auction.lot, Lot::Property { square: 1 });
    assert_eq!(auction.bidders, vec![Seat(B), Seat(C), Seat(D)]);
    // The cards too are handled as for a debt to the bank: under their own deck, to no creditor.
    assert_eq!(s.decks[1].last(), Some(&g04));
    assert!(s.players.iter().all(|p| p.jail_cards.is_empty()));
}

/// MO-BANKR-5: the bankrupt's pending rents lapse both ways and its offers are withdrawn.
#[test]
fn mo_bankr_5_rents_lapse_and_offers_are_withdrawn() {
    let mut s = owing(3);
    own(&mut s, A, &[5]);
    mortgage(&mut s, 5);
    s.rents.push(crate::monopoly::state::PendingRent {
        rent: 7,
        payer: Seat(C),
        owner: Seat(A),
        square: 5,
        amount: 25,
    });
    ok(
        &mut s,
        C,
        Action::OfferTrade {
            to: Seat(A),
            give_cash: 1,
            give_properties: vec![],
            give_cards: vec![],
            get_cash: 0,
            get_properties: vec![],
            get_cards: vec![],
            lift: vec![],
        },
    );
    let events = ok(&mut s, A, Action::DeclareBankruptcy);
    assert!(events.contains(&Event::RentLapsed { rent: 7 }));
    assert!(events.contains(&Event::TradeWithdrawn { offer: 0 }));
    assert!(s.rents.is_empty() && s.offers.is_empty());
    assert_eq!(cash(&s, C), 1500);
}

/// MO-END-2: after `round_limit` full rounds the highest net worth wins; ties share.
#[test]
fn mo_end_2_round_limit_ranks_by_net_worth() {
    let config = Config {
        round_limit: Some(1),
        ..Config::default()
    };
    let mut s = new_game_with(2, config);
    own(&mut s, A, &[37, 39]);
    set_level(&mut s, 39, 1);
    mortgage(&mut s, 37);
    place(&mut s, A, 16);
    roll(&mut s, A, &[[1, 3]]);
    ok(&mut s, A, Action::EndTurn);
    place(&mut s, B, 16);
    roll(&mut s, B, &[[1, 3]]);
    let events = ok(&mut s, B, Action::EndTurn);
    let Some(Event::GameEnded { outcome, reason }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(*reason, EndReason::RoundLimit);
    // A: 1500 + 400 + 175 (MV of the mortgaged Parkstraße) + 200 (a house).
    assert_eq!(outcome.scores, vec![2275, 1500]);
    assert_eq!(outcome.winners, vec![Seat(A)]);

    // A hotel counts as H + 4 × H: Schlossallee's 200 + 800.
    let mut s = new_game_with(2, config_with_limit());
    own(&mut s, A, &[37, 39]);
    set_level(&mut s, 37, 4);
    set_level(&mut s, 39, 5);
    place(&mut s, A, 16);
    roll(&mut s, A, &[[1, 3]]);
    ok(&mut s, A, Action::EndTurn);
    place(&mut s, B, 16);
    roll(&mut s, B, &[[1, 3]]);
    ok(&mut s, B, Action::EndTurn);
    // 1500 + 350 + 400 printed + 4 × 200 houses + 1000 for the hotel.
    assert_eq!(s.outcome.unwrap().scores, vec![4050, 1500]);

    let mut tie = new_game_with(2, config_with_limit());
    place(&mut tie, A, 16);
    roll(&mut tie, A, &[[1, 3]]);
    ok(&mut tie, A, Action::EndTurn);
    place(&mut tie, B, 16);
    roll(&mut tie, B, &[[1, 3]]);
    ok(&mut tie, B, Action::EndTurn);
    assert_eq!(tie.outcome.unwrap().winners, vec![Seat(A), Seat(B)]);

    // "after that many full rounds": a limit of 2 leaves the game running after one.
    let mut two = new_game_with(
        2,
        Config {
            round_limit: Some(2),
            ..Config::default()
        },
    );
    for seat in [A, B] {
        place(&mut two, seat, 16);
        roll(&mut two, seat, &[[1, 3]]);
        ok(&mut two, seat, Action::EndTurn);
    }
    assert!(two.outcome.is_none());
    assert_eq!(two.turn_seat(), Some(Seat(A)));
}

/// MO-BANKR-3: the bank auctions the bankrupt's deeds one at a time in square order, each
/// mortgage-free to its buyer.
#[test]
fn mo_bankr_3_the_estate_is_auctioned_in_square_order() {
    let mut s = new_game(3);
    set_cash(&mut s, A, 50);
    own(&mut s, A, &[3, 1]);
    land_on(&mut s, A, 4);
    ok(&mut s, A, Action::DeclareBankruptcy);
    assert_eq!(s.auction.clone().unwrap().lot, Lot::Property { square: 1 });
    ok(&mut s, B, Action::Bid { amount: 5 });
    ok(&mut s, C, Action::PassAuction);
    assert_eq!(s.auction.clone().unwrap().lot, Lot::Property { square: 3 });
    ok(&mut s, B, Action::PassAuction);
    // B's pass is final: C's bid wins at once.
    ok(&mut s, C, Action::Bid { amount: 7 });
    assert!(s.auction.is_none());
    for (square, owner) in [(1, B), (3, C)] {
        let deed = s.deed(square).unwrap();
        assert_eq!((deed.owner, deed.mortgaged), (Some(Seat(owner)), false));
    }
    assert_eq!((cash(&s, B), cash(&s, C)), (1495, 1493));
}

/// MO-END-1, MO-END-2: the round limit is off by default, so no number of rounds ends the
/// game; only bankruptcies do.
#[test]
fn mo_end_1_no_round_limit_by_default() {
    assert_eq!(Config::default().round_limit, None);
    let mut s = new_game(2);
    for _ in 0..3 {
        for seat in [A, B] {
            place(&mut s, seat, 16);
            roll(&mut s, seat, &[[1, 3]]);
            ok(&mut s, seat, Action::EndTurn);
        }
    }
    assert!(s.outcome.is_none());
    assert_eq!(s.turn_seat(), Some(Seat(A)));
}

fn config_with_limit() -> Config {
    Config {
        round_limit: Some(1),
        ..Config::default()
    }
}

/// MO-BANKR-2 (clarified): interest the creditor cannot pay is a debt to the bank, settled
/// deed by deed in square order: each deed's interest the cash covers is paid at once, each
/// one it does not cover is its own debt (seed 3004 opened one debt of M 64 while the creditor
/// held M 34). Südbahnhof's 10 is beyond M 7, Chausseestraße's 5 is not, Nordbahnhof's 10 is
/// beyond the M 2 left.
#[test]
fn mo_bankr_2_inherited_interest_is_settled_deed_by_deed_in_square_order() {
    let mut s = owing(3);
    own(&mut s, A, &[25, 5, 6]);
    for square in [5, 6, 25] {
        ok(&mut s, A, Action::Mortgage { square });
    }
    ok(&mut s, A, Action::DeclareBankruptcy);
    set_cash(&mut s, B, 7);
    let events = ok(&mut s, B, Action::SettleInheritance { lift: vec![] });
    let interest: Vec<(bool, i64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Paid {
                from: Some(Seat(B)),
                to: None,
                amount,
                reason: PaymentReason::Interest,
            } => Some((true, *amount)),
            Event::DebtOpened {
                debtor: Seat(B),
                creditor: None,
                amount,
                reason: PaymentReason::Interest,
                then_move: None,
            } => Some((false, *amount)),
            _ => None,
        })
        .collect();
    assert_eq!(interest, vec![(false, 10), (true, 5), (false, 10)]);
    assert_eq!(cash(&s, B), 2);
    let debt = s.debt_of(Seat(B)).expect("B owes the bank");
    assert_eq!(debt.lines.len(), 2);
    assert_eq!(debt.total(), 20);
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(B)]);
}

/// MO-D-2 (iii), MO-BANKR-2, MO-D-14: while the creditor's choice for inherited mortgaged deeds
/// is pending, only that creditor's choices are taken: neither the creditor's other standing
/// actions nor anything of another seat, and nobody else is listed anything.
#[test]
fn mo_d_2_iii_a_pending_inheritance_admits_only_the_creditors_choices() {
    let mut s = new_game(3);
    set_cash(&mut s, A, 100);
    own(&mut s, A, &[1, 3]);
    mortgage(&mut s, 1);
    own(&mut s, B, &[37, 39]);
    own(&mut s, C, &[6]);
    set_level(&mut s, 37, 2);
    set_level(&mut s, 39, 2);
    land_on(&mut s, A, 39);
    claim(&mut s, B);
    ok(&mut s, A, Action::DeclareBankruptcy);
    assert!(s.inheritance.is_some());
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(B)]);
    let offer = |to: u8| Action::OfferTrade {
        to: Seat(to),
        give_cash: 10,
        give_properties: vec![],
        give_cards: vec![],
        get_cash: 0,
        get_properties: vec![6],
        get_cards: vec![],
        lift: vec![],
    };
    for (seat, action) in [
        (B, Action::Mortgage { square: 37 }),
        (B, offer(C)),
        (C, Action::Mortgage { square: 6 }),
        (C, offer(B)),
    ] {
        refused(&mut s, seat, action, "monopoly.inheritance_pending");
    }
    refused(
        &mut s,
        C,
        Action::SettleInheritance { lift: vec![] },
        "monopoly.no_inheritance",
    );
    assert!(Monopoly::legal_actions(&s, Seat(C)).is_empty());
    assert!(Monopoly::legal_actions(&s, Seat(B))
        .iter()
        .all(|a| matches!(a, Action::SettleInheritance { .. })));
    ok(&mut s, B, Action::SettleInheritance { lift: vec![1] });
    assert!(s.inheritance.is_none());
}
