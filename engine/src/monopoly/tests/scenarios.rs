//! The spec's test scenarios MO-T-1..34 (§17), with the spec's numbers. Players A, B, C in seat
//! order; dice are scripted.

use super::support::*;
use crate::monopoly::state::{Lot, Step, HOTEL};
use crate::monopoly::{Action, Config, Event, Monopoly, PaymentReason, UtilityRentDice};
use crate::{Game, Seat};

fn rent_paid(events: &[Event]) -> Vec<i64> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Paid {
                amount,
                reason: PaymentReason::Rent,
                ..
            } => Some(*amount),
            _ => None,
        })
        .collect()
}

/// MO-T-1, MO-RENT-1, MO-SQ-3: base rent of a single street.
#[test]
fn mo_t_1_badstrasse_alone_rents_2() {
    let mut s = new_game(3);
    own(&mut s, B, &[1]);
    let events = land_on(&mut s, A, 1);
    assert_eq!(rents_owed(&events), vec![2]);
    assert_eq!(rent_paid(&claim(&mut s, B)), vec![2]);
}

/// MO-T-2, MO-RENT-4: a complete unmortgaged group doubles the base rent.
#[test]
fn mo_t_2_complete_braun_group_doubles_turmstrasse_to_8() {
    let mut s = new_game(3);
    own(&mut s, B, &[1, 3]);
    assert_eq!(rents_owed(&land_on(&mut s, A, 3)), vec![8]);
}

/// MO-T-3, MO-RENT-3, MO-RENT-4, MO-MORT-4: one mortgaged street stops the doubling for the
/// group (the seed's rule), and yields no rent itself.
#[test]
fn mo_t_3_mortgaged_badstrasse_stops_doubling_and_yields_nothing() {
    let mut s = new_game(3);
    own(&mut s, B, &[1, 3]);
    mortgage(&mut s, 1);
    assert_eq!(rents_owed(&land_on(&mut s, A, 3)), vec![4]);
    give_turn(&mut s, A);
    let events = land_on(&mut s, A, 1);
    assert!(rents_owed(&events).is_empty(), "{events:?}");
    assert!(s.rents.iter().all(|r| r.square != 1));
}

/// MO-T-4, MO-RENT-5: houses and hotel columns, no doubling.
#[test]
fn mo_t_4_schlossallee_with_3_houses_1400_with_hotel_2000() {
    let mut s = new_game(3);
    own(&mut s, B, &[37, 39]);
    set_level(&mut s, 37, 3);
    set_level(&mut s, 39, 3);
    assert_eq!(rents_owed(&land_on(&mut s, A, 39)), vec![1400]);
    set_level(&mut s, 37, 4);
    set_level(&mut s, 39, HOTEL);
    give_turn(&mut s, A);
    assert_eq!(rents_owed(&land_on(&mut s, A, 39)), vec![2000]);
}

/// MO-T-5, MO-RENT-2, MO-D-3: unclaimed rent lapses at the next player's first roll.
#[test]
fn mo_t_5_unclaimed_rent_lapses_when_the_next_player_rolls() {
    let mut s = new_game(3);
    own(&mut s, C, &[24]);
    land_on(&mut s, A, 24);
    let rent = pending_rents(&s, C)[0];
    ok(&mut s, A, Action::EndTurn);
    assert_eq!(s.turn_seat(), Some(Seat(B)));
    let events = roll(&mut s, B, &[[1, 2]]);
    assert!(events.contains(&Event::RentLapsed { rent }));
    assert_eq!(cash(&s, A), 1500);
    refused(
        &mut s,
        C,
        Action::ClaimRent { rent },
        "monopoly.no_such_rent",
    );
}

/// MO-T-6, MO-RENT-2: a claim before the next player's first roll is paid; the next player
/// who owns the street claims before his own first roll.
#[test]
fn mo_t_6_claim_before_the_next_roll_is_paid() {
    let mut s = new_game(3);
    own(&mut s, C, &[24]);
    land_on(&mut s, A, 24);
    ok(&mut s, A, Action::EndTurn);
    claim(&mut s, C);
    assert_eq!((cash(&s, A), cash(&s, C)), (1480, 1520));

    let mut s = new_game(3);
    own(&mut s, B, &[24]);
    land_on(&mut s, A, 24);
    ok(&mut s, A, Action::EndTurn);
    assert_eq!(s.turn_seat(), Some(Seat(B)));
    claim(&mut s, B);
    assert_eq!((cash(&s, A), cash(&s, B)), (1480, 1520));
}

/// MO-T-7, MO-D-3, MO-TURN-4: the payer's own roll after doubles does not close the window.
#[test]
fn mo_t_7_rent_survives_the_payers_doubles_reroll() {
    let mut s = new_game(3);
    own(&mut s, B, &[6]);
    let events = roll(&mut s, A, &[[3, 3]]);
    assert_eq!(rents_owed(&events), vec![6]);
    assert_eq!(s.turn.unwrap().step, Step::Roll, "doubles: roll again");
    roll(&mut s, A, &[[1, 2]]);
    assert_eq!(rent_paid(&claim(&mut s, B)), vec![6]);
}

/// MO-T-8, MO-RENT-7 (amended), MO-COMP-16: a Werk alone: the rent roll × 4. By default the
/// payer rolls afresh for the rent (the seed's "Werfen Sie beide Würfel"): the rent roll is
/// (3,4), not the move's (1,3). With `utility_rent_dice = move` A's move roll (3,4) is the
/// rent roll and no dice are thrown for the rent.
#[test]
fn mo_t_8_wasserwerk_alone_rents_7_times_4() {
    let mut s = new_game(3);
    own(&mut s, B, &[28]);
    place(&mut s, A, 24);
    let events = roll(&mut s, A, &[[1, 3], [3, 4]]);
    assert_eq!(rents_owed(&events), vec![28]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::RentOwed {
            dice: Some([3, 4]),
            ..
        }
    )));

    let mut s = new_game_with(3, move_dice());
    own(&mut s, B, &[28]);
    place(&mut s, A, 21);
    // The script holds only the move: a roll for the rent would run out of dice.
    let events = roll(&mut s, A, &[[3, 4]]);
    assert_eq!(rents_owed(&events), vec![28]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::RentOwed {
            dice: Some([3, 4]),
            ..
        }
    )));
}

fn move_dice() -> Config {
    Config {
        utility_rent_dice: UtilityRentDice::Move,
        ..Config::default()
    }
}

/// MO-T-9, MO-RENT-7 (amended), MO-D-4: both Werke, one mortgaged (not 28): the rent roll
/// × 10, with either source of the rent roll.
#[test]
fn mo_t_9_both_werke_one_mortgaged_rent_7_times_10() {
    let mut s = new_game(3);
    own(&mut s, B, &[12, 28]);
    mortgage(&mut s, 12);
    place(&mut s, A, 24);
    assert_eq!(rents_owed(&roll(&mut s, A, &[[1, 3], [3, 4]])), vec![70]);

    let mut s = new_game_with(3, move_dice());
    own(&mut s, B, &[12, 28]);
    mortgage(&mut s, 12);
    place(&mut s, A, 21);
    assert_eq!(rents_owed(&roll(&mut s, A, &[[3, 4]])), vec![70]);
}

/// MO-RENT-7 (amended), MO-RENT-2 (amended): with `utility_rent_dice = move` the roll that
/// frees a player from jail is the rent roll too; the amount is fixed at landing from the rent
/// roll and the later claim pays exactly that. A token that came by card has no move roll, so
/// the payer rolls (no card of the default deck leads to a Werk: the landing is resolved
/// directly here).
#[test]
fn mo_rent_7_mo_rent_2_with_move_dice_the_freeing_roll_counts_and_the_amount_is_fixed() {
    let mut s = new_game_with(3, move_dice());
    own(&mut s, B, &[12]);
    s.players[0].in_jail = true;
    place(&mut s, A, 10);
    let events = roll(&mut s, A, &[[1, 1]]);
    assert_eq!(rents_owed(&events), vec![8], "(1,1) from jail to 12: 2 × 4");
    ok(&mut s, A, Action::EndTurn);
    let paid = claim(&mut s, B);
    assert!(paid.iter().any(|e| matches!(
        e,
        Event::Paid {
            amount: 8,
            reason: PaymentReason::Rent,
            ..
        }
    )));

    let mut scratch = crate::scratch::Scratch::<Monopoly>::new(&s);
    let c = Seat(C);
    scratch.state.players[usize::from(C)].position = 12;
    scratch.land(c, 1, None, &mut Dice::new(&[[5, 6]]));
    assert_eq!(rents_owed(&scratch.events), vec![44], "rolled for: 11 × 4");
}

/// MO-T-10, MO-RENT-6, MO-COMP-15: 25 / 50 / 100 / 200 by Bahnhöfe owned.
#[test]
fn mo_t_10_westbahnhof_rent_by_count_25_50_100_200() {
    for (owned, rent) in [
        (&[15][..], 25),
        (&[5, 15], 50),
        (&[5, 15, 25], 100),
        (&[5, 15, 25, 35], 200),
    ] {
        let mut s = new_game(3);
        own(&mut s, B, owned);
        assert_eq!(rents_owed(&land_on(&mut s, A, 15)), vec![rent]);
    }
}

/// MO-T-11, MO-CARD-4: G05 moves to the next Bahnhof with double rent.
#[test]
fn mo_t_11_g05_from_17_to_nordbahnhof_rent_2_times_50() {
    let mut s = new_game(3);
    own(&mut s, B, &[25, 35]);
    stack(&mut s, "G05");
    let events = land_on(&mut s, A, 17);
    assert_eq!(s.players[0].position, 25);
    assert_eq!(rents_owed(&events), vec![100]);
}

/// MO-T-12, MO-TURN-3, MO-SQ-1: passing LOS pays 200, then the square is resolved.
#[test]
fn mo_t_12_from_38_roll_5_passes_los_and_lands_on_turmstrasse() {
    let mut s = new_game(3);
    place(&mut s, A, 38);
    let events = roll(&mut s, A, &[[2, 3]]);
    assert_eq!(s.players[0].position, 3);
    assert_eq!(cash(&s, A), 1700);
    assert!(events.contains(&Event::PurchaseOffered {
        seat: Seat(A),
        square: 3
    }));
}

/// MO-T-13, MO-TURN-3: landing on LOS pays once.
#[test]
fn mo_t_13_landing_on_los_pays_200_once() {
    let mut s = new_game(3);
    place(&mut s, A, 35);
    let events = roll(&mut s, A, &[[2, 3]]);
    let salaries = events
        .iter()
        .filter(|e| matches!(e, Event::SalaryPaid { .. }))
        .count();
    assert_eq!((salaries, cash(&s, A)), (1, 1700));
}

/// MO-T-14, MO-JAIL-1, MO-TURN-6, MO-SQ-5: E07 sends to jail without salary; the turn ends.
#[test]
fn mo_t_14_e07_on_36_to_jail_no_salary_turn_ends() {
    let mut s = new_game(3);
    stack(&mut s, "E07");
    land_on(&mut s, A, 36);
    let a = &s.players[0];
    assert!(a.in_jail && a.position == 10);
    assert_eq!(cash(&s, A), 1500);
    assert_eq!(s.turn_seat(), Some(Seat(B)));
}

/// MO-T-15, MO-TURN-5, MO-SQ-6: the third doubles go to jail; the token does not move.
#[test]
fn mo_t_15_third_doubles_to_jail_cash_1300() {
    let mut s = new_game(3);
    roll(&mut s, A, &[[2, 2]]);
    assert_eq!((s.players[0].position, cash(&s, A)), (4, 1300));
    roll(&mut s, A, &[[3, 3]]);
    assert_eq!(s.players[0].position, 10);
    assert!(!s.players[0].in_jail, "MO-SQ-7: visiting");
    let events = roll(&mut s, A, &[[5, 5]]);
    assert!(!events.iter().any(|e| matches!(e, Event::Moved { .. })));
    assert!(s.players[0].in_jail);
    assert_eq!(cash(&s, A), 1300);
    assert_eq!(
        (cash(&s, B), cash(&s, C)),
        (1500, 1500),
        "MO-SQ-6: the tax went to the bank"
    );
    assert_eq!(s.turn_seat(), Some(Seat(B)));
}

fn jailed(players: usize) -> crate::monopoly::State {
    let mut s = new_game(players);
    s.players[0].position = 10;
    s.players[0].in_jail = true;
    s
}

/// MO-T-16, MO-JAIL-2: two failed attempts stay; the third pays 50 and moves by that roll.
#[test]
fn mo_t_16_third_failed_attempt_pays_50_and_moves_to_16() {
    let mut s = jailed(3);
    roll(&mut s, A, &[[1, 2]]);
    assert!(s.players[0].in_jail && s.turn_seat() == Some(Seat(B)));
    assert_eq!(s.players[0].position, 10, "a failed attempt does not move");
    give_turn(&mut s, A);
    roll(&mut s, A, &[[3, 5]]);
    assert!(s.players[0].in_jail);
    assert_eq!(s.players[0].position, 10);
    assert_eq!(
        cash(&s, A),
        1500,
        "failed 1st and 2nd attempts cost nothing"
    );
    give_turn(&mut s, A);
    let events = roll(&mut s, A, &[[4, 2]]);
    assert!(events.contains(&Event::Paid {
        from: Some(Seat(A)),
        to: None,
        amount: 50,
        reason: PaymentReason::JailFine
    }));
    assert_eq!(s.players[0].position, 16);
    assert_eq!(s.turn.unwrap().step, Step::Buy { square: 16 });
    assert!(!s.players[0].in_jail);
    assert_eq!(
        (cash(&s, A), cash(&s, B), cash(&s, C)),
        (1450, 1500, 1500),
        "the fine goes to the bank"
    );
}

/// MO-T-17, MO-JAIL-2, MO-D-9: doubles free the player with no extra roll.
#[test]
fn mo_t_17_doubles_in_jail_free_and_move_without_extra_roll() {
    let mut s = jailed(3);
    s.players[0].jail_attempts = 1;
    own(&mut s, B, &[18]);
    let events = roll(&mut s, A, &[[4, 4]]);
    assert!(events.contains(&Event::LeftJail {
        seat: Seat(A),
        how: crate::monopoly::JailExit::Doubles
    }));
    assert_eq!(cash(&s, A), 1500, "free: no fine");
    assert!(!s.players[0].in_jail);
    assert_eq!(s.players[0].position, 18);
    assert_eq!(s.turn.unwrap().step, Step::Done);
}

/// MO-T-18, MO-JAIL-2, MO-D-10: after paying, doubles count as usual.
#[test]
fn mo_t_18_pay_then_doubles_roll_again() {
    let mut s = jailed(3);
    own(&mut s, B, &[14]);
    let events = ok(&mut s, A, Action::PayJailFine);
    assert!(events.contains(&Event::Paid {
        from: Some(Seat(A)),
        to: None,
        amount: 50,
        reason: PaymentReason::JailFine
    }));
    assert_eq!(cash(&s, A), 1450);
    assert_eq!((cash(&s, B), cash(&s, C)), (1500, 1500));
    roll(&mut s, A, &[[2, 2]]);
    assert_eq!(s.players[0].position, 14);
    assert_eq!(s.turn.unwrap().step, Step::Roll);
}

/// MO-T-19, MO-MORT-2, MO-MORT-3: Parkstraße +175, lifted for 193.
#[test]
fn mo_t_19_parkstrasse_mortgage_175_lift_193() {
    let mut s = new_game(3);
    own(&mut s, A, &[37]);
    ok(&mut s, A, Action::Mortgage { square: 37 });
    assert_eq!(cash(&s, A), 1675);
    assert!(s.deed(37).unwrap().mortgaged, "face down");
    assert_eq!(s.deed(37).unwrap().owner, Some(Seat(A)), "A keeps the deed");
    ok(&mut s, A, Action::LiftMortgage { square: 37 });
    assert_eq!(cash(&s, A), 1675 - 193);
    assert!(!s.deed(37).unwrap().mortgaged, "face up again");
    assert_eq!(
        (cash(&s, B), cash(&s, C)),
        (1500, 1500),
        "only the bank pays"
    );
}

/// MO-T-20, MO-MORT-3, MO-D-12: Wasserwerk +75 / −83, Poststraße +60 / −66.
#[test]
fn mo_t_20_wasserwerk_and_poststrasse_mortgage_and_lift() {
    for (square, mv, lift) in [(28, 75, 83), (9, 60, 66)] {
        let mut s = new_game(3);
        own(&mut s, A, &[square]);
        ok(&mut s, A, Action::Mortgage { square });
        assert_eq!(cash(&s, A), 1500 + mv);
        ok(&mut s, A, Action::LiftMortgage { square });
        assert_eq!(cash(&s, A), 1500 + mv - lift);
    }
}

fn buy_hauptbahnhof(lift: Vec<u8>) -> crate::monopoly::State {
    let mut s = new_game(3);
    own(&mut s, B, &[35]);
    mortgage(&mut s, 35);
    ok(
        &mut s,
        A,
        Action::OfferTrade {
            to: Seat(B),
            give_cash: 50,
            give_properties: vec![],
            give_cards: vec![],
            get_cash: 0,
            get_properties: vec![35],
            get_cards: vec![],
            lift,
        },
    );
    ok(
        &mut s,
        B,
        Action::AcceptTrade {
            offer: 0,
            lift: vec![],
        },
    );
    s
}

/// MO-T-21, MO-TRADE-3 (b), MO-MORT-5: 10 % now, the full lift later (interest twice).
#[test]
fn mo_t_21_mortgaged_hauptbahnhof_bought_for_50_interest_10_lift_110_later() {
    let mut s = buy_hauptbahnhof(vec![]);
    assert_eq!((cash(&s, A), cash(&s, B)), (1500 - 50 - 10, 1550));
    assert!(s.deed(35).unwrap().mortgaged);
    ok(&mut s, A, Action::LiftMortgage { square: 35 });
    assert_eq!(cash(&s, A), 1440 - 110);
}

/// MO-T-22, MO-TRADE-3 (a): lifted at once for MV + 10 %.
#[test]
fn mo_t_22_mortgaged_hauptbahnhof_lifted_at_once_for_110() {
    let s = buy_hauptbahnhof(vec![35]);
    assert_eq!(cash(&s, A), 1500 - 50 - 110);
    assert!(!s.deed(35).unwrap().mortgaged);
}

/// MO-T-23, MO-BANKR-1, MO-BANKR-2, MO-DEBT-1, MO-RENT-8, MO-D-14: liquidation, then all to the
/// creditor, who pays 10 % on each mortgage or lifts it.
#[test]
fn mo_t_23_bankrupt_to_b_with_130_and_three_mortgaged_deeds() {
    let setup = || {
        let mut s = new_game(3);
        set_cash(&mut s, A, 100);
        own(&mut s, A, &[1, 3, 5]);
        mortgage(&mut s, 1);
        mortgage(&mut s, 5);
        stack(&mut s, "G04");
        s.decks[1].remove(0);
        s.players[0]
            .jail_cards
            .push(serde_json::from_str("\"G04\"").unwrap());
        own(&mut s, B, &[37, 39]);
        set_level(&mut s, 37, 2);
        set_level(&mut s, 39, 2);
        land_on(&mut s, A, 39);
        claim(&mut s, B);
        assert_eq!(s.debts[0].total(), 600);
        refused(&mut s, A, Action::EndTurn, "monopoly.debt_pending");
        ok(&mut s, A, Action::DeclareBankruptcy);
        s
    };
    let mut s = setup();
    assert_eq!(cash(&s, B), 1500 + 130);
    for sq in [1, 3, 5] {
        let deed = s.deed(sq).unwrap();
        assert_eq!((deed.owner, deed.mortgaged), (Some(Seat(B)), true));
    }
    assert_eq!(s.players[1].jail_cards.len(), 1);
    assert!(s.players[0].bankrupt);
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(B)]);
    ok(&mut s, B, Action::SettleInheritance { lift: vec![] });
    assert_eq!(cash(&s, B), 1630 - 16);

    let mut s = setup();
    ok(&mut s, B, Action::SettleInheritance { lift: vec![1, 5] });
    assert_eq!(cash(&s, B), 1630 - 33 - 110 - 3);
    assert!(!s.deed(1).unwrap().mortgaged && s.deed(3).unwrap().mortgaged);
}

/// MO-T-24, MO-BANKR-3, MO-AUC-1, MO-AUC-2: debt to the bank: cash to the bank, the estate
/// auctioned mortgage-free among the others (the bankrupt does not bid).
#[test]
fn mo_t_24_bankrupt_to_the_bank_badstrasse_auctioned_face_up() {
    let mut s = new_game(3);
    set_cash(&mut s, A, 50);
    own(&mut s, A, &[1]);
    land_on(&mut s, A, 4);
    assert_eq!(s.debts[0].total(), 200);
    ok(&mut s, A, Action::DeclareBankruptcy);
    assert!(s.players[0].bankrupt);
    let auction = s.auction.clone().expect("the bank auctions Badstraße");
    assert_eq!(auction.lot, Lot::Property { square: 1 });
    assert_eq!(auction.bidders, vec![Seat(B), Seat(C)]);
    ok(&mut s, B, Action::Bid { amount: 20 });
    ok(&mut s, C, Action::PassAuction);
    let deed = s.deed(1).unwrap();
    assert_eq!((deed.owner, deed.mortgaged), (Some(Seat(B)), false));
    assert_eq!(cash(&s, B), 1480);
}

/// MO-T-25, MO-BUILD-3, MO-BUILD-4: one house each for 150; a second on 6 is fine, two
/// ahead is not.
#[test]
fn mo_t_25_hellblau_three_houses_then_even_building() {
    let mut s = new_game(3);
    own(&mut s, A, &[6, 8, 9]);
    ok(
        &mut s,
        A,
        Action::Build {
            squares: vec![6, 8, 9],
        },
    );
    assert_eq!(cash(&s, A), 1350);
    assert_eq!(
        (cash(&s, B), cash(&s, C)),
        (1500, 1500),
        "MO-BUILD-3: paid to the bank"
    );
    assert_eq!(s.bank_houses, 29);
    ok(&mut s, A, Action::Build { squares: vec![6] });
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![6] },
        "monopoly.uneven",
    );

    let mut s = new_game(3);
    own(&mut s, A, &[6, 8, 9]);
    set_level(&mut s, 6, 1);
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![6] },
        "monopoly.uneven",
    );

    // Several units in one action: every intermediate state must be even, not only the last
    // (2, 1, 1 is even, but 2, 0, 0 on the way is not).
    let mut s = new_game(3);
    own(&mut s, A, &[6, 8, 9]);
    refused(
        &mut s,
        A,
        Action::Build {
            squares: vec![6, 6, 8, 9],
        },
        "monopoly.uneven",
    );
    ok(
        &mut s,
        A,
        Action::Build {
            squares: vec![6, 8, 9, 6],
        },
    );
    assert_eq!(s.deed(6).unwrap().level, 2);
}

/// MO-T-26, MO-BUILD-6, MO-SELL-3: the hotel exchange both ways.
#[test]
fn mo_t_26_hotel_on_schlossallee_bought_and_sold() {
    let mut s = new_game(3);
    own(&mut s, A, &[37, 39]);
    set_level(&mut s, 37, 4);
    set_level(&mut s, 39, 4);
    let (houses, hotels) = (s.bank_houses, s.bank_hotels);
    // The other street of the group must have 4 houses first (MO-BUILD-4).
    let mut three = s.clone();
    set_level(&mut three, 37, 3);
    refused(
        &mut three,
        A,
        Action::Build { squares: vec![39] },
        "monopoly.uneven",
    );
    ok(&mut s, A, Action::Build { squares: vec![39] });
    assert_eq!(cash(&s, A), 1300);
    assert_eq!(s.deed(39).unwrap().level, HOTEL);
    assert_eq!((s.bank_houses, s.bank_hotels), (houses + 4, hotels - 1));
    ok(&mut s, A, Action::SellBuilding { square: 39 });
    assert_eq!(cash(&s, A), 1400);
    assert_eq!(s.deed(39).unwrap().level, 4);
    assert_eq!((s.bank_houses, s.bank_hotels), (houses, hotels));
}

/// MO-T-27, MO-BUILD-2: a mortgaged street blocks building in its group.
#[test]
fn mo_t_27_mortgaged_badstrasse_blocks_building_on_turmstrasse() {
    let mut s = new_game(3);
    own(&mut s, A, &[1, 3]);
    mortgage(&mut s, 1);
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![3] },
        "monopoly.group_mortgaged",
    );
}

fn opernplatz_auction() -> crate::monopoly::State {
    let mut s = new_game(3);
    land_on(&mut s, A, 24);
    ok(&mut s, A, Action::DeclineProperty);
    s
}

/// MO-T-28, MO-AUC-2, MO-AUC-3, MO-AUC-4, MO-AUC-5, MO-BUY-2: open outcry, +1 at least,
/// passes final, the last bidder buys; the variant: a bid above one's cash (MO-AUC-3).
#[test]
fn mo_t_28_opernplatz_auction_b_wins_for_150() {
    let mut s = opernplatz_auction();
    ok(&mut s, B, Action::Bid { amount: 1 });
    ok(&mut s, C, Action::Bid { amount: 100 });
    ok(&mut s, B, Action::Bid { amount: 150 });
    ok(&mut s, A, Action::PassAuction);
    ok(&mut s, C, Action::PassAuction);
    assert_eq!(s.deed(24).unwrap().owner, Some(Seat(B)));
    assert_eq!(cash(&s, B), 1350);
    // The proceeds go to the bank: the lander and the outbid C pay and get nothing.
    assert_eq!((cash(&s, A), cash(&s, C)), (1500, 1500));
    assert_eq!(
        s.turn.unwrap().step,
        Step::Done,
        "the lander's turn goes on"
    );

    let mut s = opernplatz_auction();
    set_cash(&mut s, C, 90);
    ok(&mut s, B, Action::Bid { amount: 1 });
    refused(
        &mut s,
        C,
        Action::Bid { amount: 100 },
        "monopoly.insufficient_cash",
    );
}

/// MO-T-29, MO-AUC-6: nobody bids, nothing is sold.
#[test]
fn mo_t_29_nobody_bids_opernplatz_stays_unowned() {
    let mut s = opernplatz_auction();
    for seat in [A, B, C] {
        ok(&mut s, seat, Action::PassAuction);
    }
    assert!(s.auction.is_none());
    assert_eq!(s.deed(24).unwrap().owner, None);
    assert_eq!(
        (cash(&s, A), cash(&s, B), cash(&s, C)),
        (1500, 1500, 1500),
        "nothing is paid"
    );
}

/// MO-T-30, MO-BUILD-8, MO-D-6: demand 4 > stock 2: two single-unit auctions.
#[test]
fn mo_t_30_shortage_of_2_houses_auctioned_one_at_a_time() {
    let mut s = new_game(3);
    own(&mut s, A, &[1, 3]);
    own(&mut s, B, &[37, 39]);
    s.bank_houses = 2;
    // The other 30 houses stand on C's streets.
    own(&mut s, C, &[6, 8, 9, 11, 13, 14, 16, 18]);
    for sq in [6, 8, 9, 11, 13, 14] {
        s.deed_mut(sq).unwrap().level = 4;
    }
    own(&mut s, C, &[19]);
    for sq in [16, 18, 19] {
        s.deed_mut(sq).unwrap().level = 2;
    }
    ok(
        &mut s,
        A,
        Action::Build {
            squares: vec![1, 3],
        },
    );
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(B), Seat(C)]);
    assert!(s.shortage.is_some());
    ok(
        &mut s,
        B,
        Action::DeclareDemand {
            squares: vec![37, 39],
        },
    );
    ok(&mut s, C, Action::DeclareDemand { squares: vec![] });
    let auction = s
        .auction
        .clone()
        .expect("demand 4 > 2: units are auctioned");
    assert_eq!(auction.bidders, vec![Seat(A), Seat(B)]);
    // The opening bid is at least `building_auction_min_bid` (1).
    refused(&mut s, A, Action::Bid { amount: 0 }, "monopoly.bid_too_low");
    // A unit nobody bids on stays in the bank.
    let mut unbid = s.clone();
    ok(&mut unbid, A, Action::PassAuction);
    ok(&mut unbid, B, Action::PassAuction);
    assert_eq!(
        (unbid.deed(1).unwrap().level, unbid.deed(37).unwrap().level),
        (0, 0)
    );
    assert_eq!(unbid.bank_houses, 2);
    assert_eq!((cash(&unbid, A), cash(&unbid, B)), (1500, 1500));
    ok(&mut s, A, Action::Bid { amount: 60 });
    ok(&mut s, B, Action::PassAuction);
    assert_eq!(s.deed(1).unwrap().level, 1);
    assert_eq!(cash(&s, A), 1440, "the bid replaces the list price");
    ok(&mut s, A, Action::PassAuction);
    ok(&mut s, B, Action::Bid { amount: 5 });
    assert_eq!(s.deed(37).unwrap().level, 1);
    assert!(s.shortage.is_none() && s.auction.is_none());
    assert_eq!(s.bank_houses, 0);
}

/// MO-T-31, MO-CARD-3: E06 back three squares onto a Gemeinschaftsfeld: draw there.
#[test]
fn mo_t_31_e06_from_36_back_to_33_draws_a_gemeinschaftskarte() {
    let mut s = new_game(3);
    stack(&mut s, "E06");
    stack(&mut s, "G14");
    let events = land_on(&mut s, A, 36);
    assert_eq!(s.players[0].position, 33);
    let drawn: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::CardDrawn { card, .. } => Some(card.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(drawn, vec!["E06", "G14"]);
    assert_eq!(cash(&s, A), 1510);
}

/// MO-T-32, MO-CARD-5: repairs count houses, and a hotel only as a hotel.
#[test]
fn mo_t_32_repairs_4_houses_and_a_hotel_275_and_200() {
    for (card, cost) in [("E16", 275), ("E15", 200)] {
        let mut s = new_game(3);
        own(&mut s, A, &[37, 39]);
        set_level(&mut s, 37, 4);
        set_level(&mut s, 39, HOTEL);
        stack(&mut s, card);
        land_on(&mut s, A, 36);
        assert_eq!(cash(&s, A), 1500 - cost, "{card}");
    }
}

/// MO-T-33, MO-CARD-3: back to Badstraße, no salary, then buy or auction.
#[test]
fn mo_t_33_g02_from_2_back_to_badstrasse_without_salary() {
    let mut s = new_game(3);
    stack(&mut s, "G02");
    place(&mut s, A, 38);
    roll(&mut s, A, &[[1, 3]]);
    assert_eq!(s.players[0].position, 1);
    assert_eq!(
        cash(&s, A),
        1700,
        "only the LOS passed on the way to 2 paid"
    );
    assert_eq!(s.turn.unwrap().step, Step::Buy { square: 1 });
}

/// MO-T-34, MO-CARD-6: birthday with 4 players: 10 from each of 3.
#[test]
fn mo_t_34_g08_with_4_players_collects_30() {
    let mut s = new_game(4);
    stack(&mut s, "G08");
    roll(&mut s, A, &[[1, 1]]);
    assert_eq!(cash(&s, A), 1530);
    for seat in [B, C, D] {
        assert_eq!(cash(&s, seat), 1490);
    }
}
