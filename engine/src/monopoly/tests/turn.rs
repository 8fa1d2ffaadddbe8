//! §3 the turn, §4 squares, §11 jail, §12 cards.

use super::support::*;
use crate::monopoly::state::Step;
use crate::monopoly::{Action, Card, Event, JailExit, Monopoly, Template};
use crate::{Game, Seat};

fn card(id: &str) -> Card {
    serde_json::from_value(serde_json::json!(id)).unwrap()
}

/// MO-TURN-1, MO-TURN-2, MO-SQ-2: roll, move clockwise by the total, resolve the square.
#[test]
fn mo_turn_1_mo_turn_2_mo_sq_2_roll_move_and_resolve() {
    let mut s = new_game(2);
    let events = roll(&mut s, A, &[[2, 4]]);
    assert!(events.contains(&Event::DiceRolled {
        seat: Seat(A),
        dice: [2, 4]
    }));
    assert_eq!(s.players[0].position, 6);
    assert_eq!(s.turn.unwrap().step, Step::Buy { square: 6 });
    assert_eq!(
        Monopoly::legal_actions(&s, Seat(A)),
        vec![Action::BuyProperty, Action::DeclineProperty]
    );
}

/// MO-TURN-7: the explicit end of the turn passes the dice to the next seat, only when
/// nothing is owed.
#[test]
fn mo_turn_7_end_turn_only_when_nothing_is_owed() {
    let mut s = new_game(3);
    refused(&mut s, A, Action::EndTurn, "monopoly.turn_not_finished");
    roll(&mut s, A, &[[2, 4]]);
    refused(&mut s, A, Action::EndTurn, "monopoly.decision_pending");
    refused(&mut s, A, Action::Roll, "monopoly.decision_pending");
    ok(&mut s, A, Action::BuyProperty);
    refused(&mut s, A, Action::Roll, "monopoly.roll_not_owed");
    refused(&mut s, B, Action::Roll, "not_your_turn");
    ok(&mut s, A, Action::EndTurn);
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(B)]);
}

/// MO-TURN-8, MO-JAIL-5, MO-BUILD-9, MO-D-2: standing actions from seats not on turn, also in
/// jail: claims, building, selling, mortgaging, offers.
#[test]
fn mo_turn_8_mo_jail_5_mo_build_9_standing_actions_off_turn_and_in_jail() {
    let mut s = new_game(3);
    own(&mut s, C, &[1, 3, 5]);
    s.players[2].in_jail = true;
    s.players[2].position = 10;
    land_on(&mut s, A, 5);
    assert!(listed(&s, C, &Action::ClaimRent { rent: 0 }));
    assert!(listed(&s, C, &Action::Build { squares: vec![1] }));
    assert!(listed(&s, C, &Action::Mortgage { square: 5 }));
    assert!(Monopoly::action_templates(&s, Seat(C))
        .iter()
        .any(|t| matches!(t, Template::OfferTrade { .. })));
    ok(&mut s, C, Action::Build { squares: vec![1] });
    ok(&mut s, C, Action::SellBuilding { square: 1 });
    claim(&mut s, C);
    ok(&mut s, C, Action::Mortgage { square: 5 });
    assert_eq!(
        Monopoly::active_seats(&s),
        vec![Seat(A)],
        "the game still waits for A"
    );
}

/// MO-SQ-4: one's own property costs nothing.
#[test]
fn mo_sq_4_own_property_nothing_happens() {
    let mut s = new_game(2);
    own(&mut s, A, &[6]);
    let events = roll(&mut s, A, &[[2, 4]]);
    assert!(rents_owed(&events).is_empty());
    assert_eq!(s.turn.unwrap().step, Step::Done);
}

/// MO-SQ-7, MO-JAIL-6: landing on 10 is a visit.
#[test]
fn mo_sq_7_mo_jail_6_visiting_jail() {
    let mut s = new_game(2);
    place(&mut s, A, 6);
    roll(&mut s, A, &[[1, 3]]);
    assert_eq!(s.players[0].position, 10);
    assert!(!s.players[0].in_jail);
    assert_eq!(s.turn.unwrap().step, Step::Done);
}

/// MO-SQ-8: Frei Parken does nothing, no jackpot; taxes went to the bank.
#[test]
fn mo_sq_8_frei_parken_nothing() {
    let mut s = new_game(2);
    place(&mut s, A, 16);
    let events = roll(&mut s, A, &[[1, 3]]);
    assert_eq!(s.players[0].position, 20);
    assert!(!events.iter().any(|e| matches!(e, Event::Paid { .. })));
    assert_eq!(cash(&s, A), 1500);
    // B paid the Einkommensteuer earlier: it went to the bank, so A finds no jackpot on 20.
    let mut s = new_game(2);
    place(&mut s, B, 1);
    give_turn(&mut s, B);
    roll(&mut s, B, &[[1, 2]]);
    assert_eq!(cash(&s, B), 1300);
    ok(&mut s, B, Action::EndTurn);
    place(&mut s, A, 16);
    roll(&mut s, A, &[[1, 3]]);
    assert_eq!(s.players[0].position, 20);
    assert_eq!((cash(&s, A), cash(&s, B)), (1500, 1300));
}

/// MO-SQ-9, MO-JAIL-1: square 30: to jail at once, no salary though LOS lies on the way.
#[test]
fn mo_sq_9_go_to_jail_square() {
    let mut s = new_game(2);
    place(&mut s, A, 26);
    roll(&mut s, A, &[[1, 3]]);
    assert!(s.players[0].in_jail && s.players[0].position == 10);
    assert_eq!(cash(&s, A), 1500);
    assert_eq!(s.turn_seat(), Some(Seat(B)));
}

/// MO-JAIL-1: "the turn ends": doubles that land on square 30 bring no re-roll.
#[test]
fn mo_jail_1_doubles_onto_square_30_end_the_turn() {
    let mut s = new_game(2);
    place(&mut s, A, 26);
    let events = roll(&mut s, A, &[[2, 2]]);
    assert!(s.players[0].in_jail && s.players[0].position == 10);
    assert!(!events.iter().any(|e| matches!(e, Event::SalaryPaid { .. })));
    assert_eq!(cash(&s, A), 1500);
    assert_eq!(s.turn_seat(), Some(Seat(B)));
    refused(&mut s, A, Action::Roll, "not_your_turn");
}

/// MO-JAIL-1 (2), MO-CARD-3: a card that sends to jail after doubles ends the turn: the doubles
/// re-roll is owed only when the player did not go to jail.
#[test]
fn mo_jail_1_mo_card_3_jail_card_after_doubles_ends_the_turn() {
    let mut s = new_game(2);
    stack(&mut s, "E07");
    place(&mut s, A, 3);
    roll(&mut s, A, &[[2, 2]]);
    assert!(s.players[0].in_jail && s.players[0].position == 10);
    assert_eq!(cash(&s, A), 1500, "no salary on the way to jail");
    assert_eq!(s.turn_seat(), Some(Seat(B)));
}

/// MO-JAIL-2, MO-JAIL-3, MO-D-11: a jail card before rolling on a later jail turn; it goes
/// under its own deck.
#[test]
fn mo_jail_3_mo_d_11_card_on_the_second_jail_turn() {
    let mut s = new_game(3);
    s.players[0].in_jail = true;
    s.players[0].position = 10;
    s.players[0].jail_attempts = 1;
    let g04 = card("G04");
    s.decks[1].retain(|c| *c != g04);
    s.players[0].jail_cards.push(g04);
    assert!(listed(&s, A, &Action::UseJailCard { card: g04 }));
    assert!(listed(&s, A, &Action::PayJailFine));
    let events = ok(&mut s, A, Action::UseJailCard { card: g04 });
    assert!(events.contains(&Event::LeftJail {
        seat: Seat(A),
        how: JailExit::Card
    }));
    assert_eq!(s.decks[1].last(), Some(&g04));
    assert!(s.players[0].jail_cards.is_empty());
    assert_eq!(cash(&s, A), 1500, "the card costs nothing");
    refused(&mut s, A, Action::PayJailFine, "monopoly.not_in_jail");
    // Then roll and play the turn as usual.
    roll(&mut s, A, &[[1, 2]]);
    assert_eq!(s.players[0].position, 13);
    assert!(!s.players[0].in_jail);
}

/// MO-JAIL-3: the fine or a card comes before the roll, not after.
#[test]
fn mo_jail_3_no_fine_after_rolling() {
    let mut s = new_game(3);
    s.players[0].in_jail = true;
    s.players[0].position = 10;
    roll(&mut s, A, &[[1, 2]]);
    // The failed attempt ended A's turn.
    refused(&mut s, A, Action::PayJailFine, "not_your_turn");
    // On the third jail turn the fine is still offered before the roll, and frees A.
    give_turn(&mut s, A);
    s.players[0].jail_attempts = 2;
    assert!(listed(&s, A, &Action::PayJailFine));
    let events = ok(&mut s, A, Action::PayJailFine);
    assert!(events.contains(&Event::LeftJail {
        seat: Seat(A),
        how: JailExit::Fine
    }));
    assert_eq!(cash(&s, A), 1450);
    roll(&mut s, A, &[[1, 2]]);
    assert_eq!(s.players[0].position, 13);
}

/// MO-JAIL-4: a third failed attempt without M 50 is a debt; the move follows the payment.
#[test]
fn mo_jail_4_unpaid_third_fine_is_a_debt_then_the_move() {
    let mut s = new_game(3);
    s.players[0].in_jail = true;
    s.players[0].position = 10;
    s.players[0].jail_attempts = 2;
    set_cash(&mut s, A, 20);
    own(&mut s, A, &[1]);
    roll(&mut s, A, &[[4, 2]]);
    assert_eq!(s.players[0].position, 10);
    assert_eq!(s.debts[0].then_move, Some([4, 2]));
    refused(&mut s, A, Action::PayDebt, "monopoly.insufficient_cash");
    ok(&mut s, A, Action::Mortgage { square: 1 });
    let events = ok(&mut s, A, Action::PayDebt);
    assert!(events.contains(&Event::LeftJail {
        seat: Seat(A),
        how: JailExit::ThirdAttempt
    }));
    assert_eq!(s.players[0].position, 16);
    assert_eq!(cash(&s, A), 0);
}

/// MO-JAIL-4: the unpaid third fine is a debt to the bank; if the player goes bankrupt
/// instead, the move does not happen.
#[test]
fn mo_jail_4_bankrupt_over_the_third_fine_does_not_move() {
    let mut s = new_game(3);
    s.players[0].in_jail = true;
    s.players[0].position = 10;
    s.players[0].jail_attempts = 2;
    set_cash(&mut s, A, 20);
    roll(&mut s, A, &[[4, 2]]);
    let debt = &s.debts[0];
    assert_eq!(debt.debtor, Seat(A));
    assert_eq!(
        debt.lines.iter().map(|l| l.creditor).collect::<Vec<_>>(),
        vec![None],
        "owed to the bank"
    );
    assert_eq!(debt.total(), 50);
    let events = ok(&mut s, A, Action::DeclareBankruptcy);
    assert!(s.players[0].bankrupt);
    assert!(!events.iter().any(|e| matches!(e, Event::Moved { .. })));
    assert!(!events.iter().any(|e| matches!(e, Event::LeftJail { .. })));
    assert_ne!(s.players[0].position, 16);
    assert_eq!((cash(&s, B), cash(&s, C)), (1500, 1500));
}

/// MO-CARD-1, MO-CARD-2: the top card is drawn and shown, then goes under; a jail card is
/// kept (the deck has 15) and returns under its own deck after use.
#[test]
fn mo_card_1_mo_card_2_draw_shown_under_the_deck_jail_card_kept() {
    let mut s = new_game(2);
    stack(&mut s, "E09");
    let before = s.decks[0].clone();
    let events = land_on(&mut s, A, 7);
    assert!(events.contains(&Event::CardDrawn {
        seat: Seat(A),
        deck: crate::monopoly::Deck::Ereignis,
        card: card("E09")
    }));
    assert_eq!(s.decks[0].last(), Some(&card("E09")));
    // Under the deck, the rest in the same order: nothing is reshuffled.
    let mut rotated = before[1..].to_vec();
    rotated.push(before[0]);
    assert_eq!(s.decks[0], rotated);
    assert_eq!(cash(&s, A), 1550);
    ok(&mut s, A, Action::EndTurn);
    stack(&mut s, "E08");
    land_on(&mut s, B, 22);
    assert_eq!(s.decks[0].len(), 15);
    assert_eq!(s.players[1].jail_cards, vec![card("E08")]);
}

/// MO-CARD-3, MO-TURN-4: after a card move the doubles re-roll is still owed.
#[test]
fn mo_card_3_card_move_keeps_the_doubles_reroll() {
    let mut s = new_game(2);
    stack(&mut s, "E05");
    place(&mut s, A, 5);
    roll(&mut s, A, &[[1, 1]]);
    assert_eq!(s.players[0].position, 5);
    assert_eq!(cash(&s, A), 1700, "Südbahnhof lies past LOS");
    ok(&mut s, A, Action::DeclineProperty);
    for seat in [A, B] {
        ok(&mut s, seat, Action::PassAuction);
    }
    assert_eq!(s.turn.unwrap().step, Step::Roll);
}

/// MO-CARD-3: the new square is resolved normally: reaching LOS by a card pays the salary
/// once, and a move back onto the Einkommensteuer pays the tax to the bank.
#[test]
fn mo_card_3_reaching_los_pays_once_and_a_tax_square_is_paid() {
    let mut s = new_game(2);
    stack(&mut s, "E01");
    let events = land_on(&mut s, A, 7);
    assert_eq!(s.players[0].position, 0);
    let salaries = events
        .iter()
        .filter(|e| matches!(e, Event::SalaryPaid { .. }))
        .count();
    assert_eq!((salaries, cash(&s, A)), (1, 1700));

    let mut s = new_game(2);
    stack(&mut s, "E06");
    land_on(&mut s, A, 7);
    assert_eq!(s.players[0].position, 4);
    assert_eq!((cash(&s, A), cash(&s, B)), (1300, 1500));
}

/// MO-CARD-4 (G05): from each Gemeinschaftsfeld to the next Bahnhof (2→5, 17→25, 33→35);
/// unowned, it is offered for purchase.
#[test]
fn mo_card_4_g05_to_the_next_bahnhof_unowned_is_offered() {
    for (from, to) in [(2, 5), (17, 25), (33, 35)] {
        let mut s = new_game(3);
        stack(&mut s, "G05");
        let events = land_on(&mut s, A, from);
        assert_eq!(s.players[0].position, to, "from {from}");
        assert!(
            events.contains(&Event::PurchaseOffered {
                seat: Seat(A),
                square: to
            }),
            "from {from}"
        );
    }
}

/// MO-CARD-4 (G06): pay the fine or draw an Ereigniskarte.
#[test]
fn mo_card_4_g06_pay_or_draw() {
    let mut s = new_game(2);
    stack(&mut s, "G06");
    land_on(&mut s, A, 17);
    assert_eq!(
        Monopoly::legal_actions(&s, Seat(A))
            .into_iter()
            .filter(|a| matches!(a, Action::PayCardFine | Action::DrawCard))
            .count(),
        2
    );
    refused(&mut s, A, Action::EndTurn, "monopoly.decision_pending");
    let mut paid = s.clone();
    ok(&mut paid, A, Action::PayCardFine);
    assert_eq!(cash(&paid, A), 1490);
    stack(&mut s, "E11");
    ok(&mut s, A, Action::DrawCard);
    assert_eq!(cash(&s, A), 1600);
    assert_eq!(s.turn.unwrap().step, Step::Done);
}

/// MO-CARD-6, MO-D-18: E14 pays each other player in seat order from the drawer's left; what
/// cannot be paid is a debt to that player.
#[test]
fn mo_card_6_mo_d_18_e14_pays_each_in_order_debts_for_the_rest() {
    let mut s = new_game(4);
    set_cash(&mut s, A, 60);
    stack(&mut s, "E14");
    let events = land_on(&mut s, A, 7);
    let paid: Vec<Option<Seat>> = events
        .iter()
        .filter_map(|e| match e {
            Event::Paid { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(paid, vec![Some(Seat(B))]);
    let debt = &s.debts[0];
    let creditors: Vec<Option<Seat>> = debt.lines.iter().map(|l| l.creditor).collect();
    assert_eq!(creditors, vec![Some(Seat(C)), Some(Seat(D))]);
    assert_eq!(debt.total(), 100);
}

/// MO-CARD-6: the per-player cards count only players not bankrupt, in seat order from the
/// drawer's left (B draws: C, D, then A).
#[test]
fn mo_card_6_e14_skips_the_bankrupt_and_starts_left_of_the_drawer() {
    let mut s = new_game(4);
    s.players[2].bankrupt = true;
    give_turn(&mut s, B);
    set_cash(&mut s, B, 60);
    stack(&mut s, "E14");
    let events = land_on(&mut s, B, 7);
    let paid: Vec<Option<Seat>> = events
        .iter()
        .filter_map(|e| match e {
            Event::Paid { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(paid, vec![Some(Seat(D))], "C is bankrupt: D first");
    let creditors: Vec<Option<Seat>> = s.debts[0].lines.iter().map(|l| l.creditor).collect();
    assert_eq!(creditors, vec![Some(Seat(A))]);
    assert_eq!(s.debts[0].total(), 50);
    assert_eq!((cash(&s, C), cash(&s, D)), (1500, 1550));
}
