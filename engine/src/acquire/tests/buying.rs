//! Buying shares (spec §10: AQ-BUY). One test (at least) per rule, named after its ID and citing
//! the seed section it comes from; refusals check the code and that nothing changed.

use super::support::*;
use crate::acquire::{Acquire, Action, Event};
use crate::{Game, Seat};

#[test]
fn aq_buy_1_aq_comp_12_up_to_three_shares_of_active_chains() {
    // HK §4.6: "bis zu maximal drei Aktien ..., nur von aktiven Ketten".
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["5E", "5F"]);
    put_chain(&mut state, "airport", &["9E", "9F"]);
    to_buy_step(&mut state);
    refused(
        &state,
        0,
        Action::BuyShare {
            chain: chain("festival"),
        },
        "acquire.chain_not_active",
    );
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("airport"),
        },
    );
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    refused(
        &state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
        "acquire.buy_limit_reached",
    );
    assert_eq!(cash(&state, 0), 6000 - 300 - 200 - 300);
    // The shares come from the bank's stock.
    assert_eq!(
        (shares(&state, 0, "luxor"), shares(&state, 0, "airport")),
        (2, 1)
    );
    assert_eq!(
        (
            state.chain(chain("luxor")).bank_shares,
            state.chain(chain("airport")).bank_shares
        ),
        (23, 24)
    );
}

#[test]
fn aq_buy_2_aq_d13_price_at_the_size_after_placement_and_new_chains_at_once() {
    // HK §4.6: the price depends on the chain's size.
    let mut state = table(3);
    put_chain(&mut state, "prestige", &["5E", "5F", "5G", "5H"]);
    put(&mut state, &["9A"]);
    give_tiles(&mut state, 0, &["9B"]);
    accepted(&mut state, 0, found("9B", "luxor"));
    let e = accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    assert!(matches!(e[0], Event::ShareBought { price: 300, .. }));
    let e = accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("prestige"),
        },
    );
    assert!(matches!(e[0], Event::ShareBought { price: 600, .. }));
}

#[test]
fn aq_buy_3_bank_stock_and_cash_limit_purchases() {
    // HK §4.6: "Hat die Börse alle Aktien einer Kette verkauft ..."; no credit.
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["5E", "5F"]);
    put_chain(&mut state, "airport", &["9E", "9F"]);
    give_shares(&mut state, 1, "luxor", 25);
    state.players[0].cash = 100;
    to_buy_step(&mut state);
    refused(
        &state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
        "acquire.bank_out_of_shares",
    );
    refused(
        &state,
        0,
        Action::BuyShare {
            chain: chain("airport"),
        },
        "acquire.insufficient_cash",
    );
    assert_eq!(
        Acquire::legal_actions(&state, Seat(0)),
        vec![Action::EndTurn]
    );
}

/// AQ-BUY-4: every deal goes through the bank (HK §4.6). Buying, selling and trading move
/// shares between the acting seat and the bank only; no other seat's holdings or cash change,
/// and no action names another seat.
#[test]
fn aq_buy_4_every_share_deal_is_with_the_bank_never_between_players() {
    let mut state = three_chain_table(crate::acquire::Config::default());
    let mut deals = vec![
        (0, place("6E")),
        (0, Action::DisposeShares { sell: 3, trade: 0 }),
        (1, Action::DisposeShares { sell: 1, trade: 0 }),
        (1, Action::DisposeShares { sell: 2, trade: 2 }),
        (2, Action::DisposeShares { sell: 0, trade: 4 }),
    ];
    deals.extend((0..3).map(|_| {
        (
            0,
            Action::BuyShare {
                chain: chain("luxor"),
            },
        )
    }));
    for (seat, action) in deals {
        let before = state.clone();
        let events = accepted(&mut state, seat, action);
        for other in state.seats().filter(|s| s.0 != seat) {
            let (was, is) = (before.player(other), state.player(other));
            let bonus: i32 = events
                .iter()
                .filter_map(|e| match e {
                    Event::BonusesPaid { payouts, .. } => Some(payouts),
                    _ => None,
                })
                .flatten()
                .filter(|p| p.seat == other)
                .map(|p| p.amount)
                .sum();
            assert_eq!(is.shares, was.shares, "{other}'s shares moved");
            assert_eq!(is.cash, was.cash + bonus, "{other}'s cash moved");
        }
        for c in crate::acquire::Chain::all() {
            let (was, is) = (before.player(Seat(seat)), state.player(Seat(seat)));
            let seat_gain = i32::from(is.shares[c.index()]) - i32::from(was.shares[c.index()]);
            let bank_gain =
                i32::from(state.chain(c).bank_shares) - i32::from(before.chain(c).bank_shares);
            assert_eq!(
                seat_gain, -bank_gain,
                "{c}: only the bank is the other side"
            );
        }
    }
    assert_eq!(shares(&state, 0, "luxor"), 3);
    // Nor can a client name another seat in an action.
    for json in [
        serde_json::json!({"type": "trade_shares", "with": 1}),
        serde_json::json!({"type": "buy_share", "chain": "luxor", "from": 1}),
    ] {
        assert!(serde_json::from_value::<Action>(json).is_err());
    }
}
