//! The data file's tables: tickets, loan cards, cities and tracks (spec §1, §2).

use super::support::{city, ticket};
use crate::tycoon::data::*;

#[test]
fn ty_comp_6_decks_hold_18_scheduled_and_36_charter_tickets() {
    let b = board();
    assert_eq!(b.deck(Deck::Scheduled).count(), 18);
    assert_eq!(b.deck(Deck::Charter).count(), 36);
    assert!(b
        .deck(Deck::Charter)
        .all(|t| b.ticket(t).deck == Deck::Charter));
}

#[test]
fn ty_comp_7_loan_cards_are_14_of_10_and_10_of_16() {
    let b = board();
    let l10 = &b.loans[LoanKind::Loan10.index()];
    let l16 = &b.loans[LoanKind::Loan16.index()];
    assert_eq!(
        (l10.cards, l10.amount, l10.repay, l10.repay_extended),
        (14, 10, 12, 16)
    );
    assert_eq!(
        (l16.cards, l16.amount, l16.repay, l16.repay_extended),
        (10, 16, 20, 30)
    );
}

#[test]
fn ty_comp_9_cities_lie_on_a_3_by_3_grid_without_duplicates() {
    let b = board();
    let mut cells: Vec<(u8, u8)> = b.cities.iter().map(|c| (c.row, c.col)).collect();
    cells.sort();
    cells.dedup();
    assert_eq!(cells.len(), 9);
    assert!(cells.iter().all(|&(r, c)| r < 3 && c < 3));
}

#[test]
fn ty_comp_11_track_has_13_spaces_with_space_0_paying_nothing() {
    let b = board();
    for c in &b.cities {
        assert_eq!(c.track[0], [0, 0], "{}", c.id);
    }
    assert_eq!(b.unbuildable_space, 12);
    assert_eq!(b.red_spaces, vec![7, 9, 11]);
}

#[test]
fn seed_anchors_new_york_5_is_20_10_and_10_is_24_12() {
    let b = board();
    let ny = b.city(city("new_york"));
    assert_eq!(ny.track[5], [20, 10]);
    assert_eq!(ny.track[10], [24, 12]);
    assert_eq!((ny.landing_costs, ny.factory_costs), ([4, 5], [8, 10]));
}

#[test]
fn seed_tickets_s09_is_cairo_2_steps_for_5_and_c25_costs_2() {
    let b = board();
    let s09 = b.ticket(ticket("S09"));
    let cairo = city("cairo");
    assert_eq!(s09.price, 5);
    assert_eq!(
        s09.route,
        Route::Scheduled {
            dest: cairo,
            steps: 2
        }
    );
    let c25 = b.ticket(ticket("C25"));
    assert_eq!(c25.price, 2);
}

#[test]
fn seed_distribution_pays_2_for_2_cities_5_for_3_and_40_for_9() {
    let d = &board().distribution;
    assert_eq!((d[0], d[2], d[3], d[9]), (0, 2, 5, 40));
}

#[test]
fn ids_round_trip_through_json() {
    let t = Ticket(8);
    assert_eq!(serde_json::to_string(&t).unwrap(), "\"S09\"");
    let back: Ticket = serde_json::from_str("\"S09\"").unwrap();
    assert_eq!(back, t);
    assert!(serde_json::from_str::<City>("\"atlantis\"").is_err());
}
