//! §5 rent, §6 buying and auctions, §7 building, §8 selling, §9 mortgages, §10 trading.

use super::support::*;
use crate::monopoly::state::{Building, Step, HOTEL};
use crate::monopoly::{Action, Card, Config, Event, Monopoly, Template};
use crate::template::{ActionTemplate, Domain, IntegerRange};
use crate::{Game, Seat};

fn card(id: &str) -> Card {
    serde_json::from_value(serde_json::json!(id)).unwrap()
}

/// MO-RENT-2: with `auto_collect_rent` the rent is paid on landing, without a claim.
#[test]
fn mo_rent_2_auto_collect_rent_pays_on_landing() {
    let mut s = new_game_with(
        3,
        Config {
            auto_collect_rent: true,
            ..Config::default()
        },
    );
    own(&mut s, B, &[24]);
    land_on(&mut s, A, 24);
    assert!(s.rents.is_empty());
    assert_eq!((cash(&s, A), cash(&s, B)), (1480, 1520));
}

/// MO-RENT-2, MO-D-17: only the owner claims, built streets included.
#[test]
fn mo_rent_2_mo_d_17_only_the_owner_claims_built_streets_too() {
    let mut s = new_game(3);
    own(&mut s, B, &[1, 3]);
    set_level(&mut s, 1, 1);
    set_level(&mut s, 3, 1);
    land_on(&mut s, A, 3);
    refused(
        &mut s,
        C,
        Action::ClaimRent { rent: 0 },
        "monopoly.not_rent_owner",
    );
    claim(&mut s, B);
    assert_eq!(cash(&s, B), 1520);
}

/// MO-D-3: the amount is fixed at landing, even if the owner builds before claiming.
#[test]
fn mo_d_3_rent_amount_fixed_at_landing() {
    let mut s = new_game(3);
    own(&mut s, B, &[1, 3]);
    land_on(&mut s, A, 3);
    ok(&mut s, B, Action::Build { squares: vec![3] });
    claim(&mut s, B);
    assert_eq!(cash(&s, A), 1500 - 8);
}

/// MO-BUY-1, MO-D-19: buy at the printed price; no roll before deciding; cash may be raised
/// first.
#[test]
fn mo_buy_1_mo_d_19_buy_at_printed_price_after_raising_cash() {
    let mut s = new_game(3);
    set_cash(&mut s, A, 100);
    own(&mut s, A, &[1, 37]);
    land_on(&mut s, A, 24);
    assert!(!listed(&s, A, &Action::BuyProperty));
    refused(&mut s, A, Action::BuyProperty, "monopoly.insufficient_cash");
    refused(&mut s, A, Action::Roll, "monopoly.decision_pending");
    ok(&mut s, A, Action::Mortgage { square: 37 });
    assert!(listed(&s, A, &Action::BuyProperty));
    ok(&mut s, A, Action::BuyProperty);
    assert_eq!(cash(&s, A), 100 + 175 - 240);
}

/// MO-BUY-1: the purchase itself.
#[test]
fn mo_buy_1_pays_the_bank_and_takes_the_deed() {
    let mut s = new_game(3);
    land_on(&mut s, A, 24);
    ok(&mut s, A, Action::BuyProperty);
    assert_eq!(cash(&s, A), 1500 - 240);
    assert_eq!(s.deed(24).unwrap().owner, Some(Seat(A)));
    assert!(!s.deed(24).unwrap().mortgaged, "the deed is taken face up");
    assert_eq!((cash(&s, B), cash(&s, C)), (1500, 1500), "paid to the bank");
}

/// MO-AUC-1, MO-AUC-2, MO-AUC-5, MO-D-5: everyone may bid, the decliner too; all bidders are
/// active until they pass; the high bidder waits; a pass is final.
#[test]
fn mo_auc_2_mo_auc_5_mo_d_5_open_outcry_protocol() {
    let mut s = new_game(3);
    land_on(&mut s, A, 24);
    ok(&mut s, A, Action::DeclineProperty);
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(A), Seat(B), Seat(C)]);
    let Template::Bid { params } = &Monopoly::action_templates(&s, Seat(B))[0] else {
        panic!("B's first template is a bid");
    };
    assert_eq!(params.amount, IntegerRange::new(1, 1500));
    refused(&mut s, B, Action::Roll, "monopoly.auction_running");
    ok(&mut s, A, Action::Bid { amount: 10 });
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(B), Seat(C)]);
    refused(
        &mut s,
        A,
        Action::Bid { amount: 11 },
        "monopoly.high_bidder_waits",
    );
    refused(
        &mut s,
        B,
        Action::Bid { amount: 10 },
        "monopoly.bid_too_low",
    );
    ok(&mut s, B, Action::PassAuction);
    refused(&mut s, B, Action::Bid { amount: 50 }, "monopoly.not_bidder");
    ok(&mut s, C, Action::Bid { amount: 11 });
    ok(&mut s, A, Action::PassAuction);
    assert_eq!(s.deed(24).unwrap().owner, Some(Seat(C)));
    refused(&mut s, C, Action::PassAuction, "monopoly.no_auction");
}

/// MO-AUC-4: the last bidder must buy; the proceeds go to the bank.
#[test]
fn mo_auc_4_last_bidder_buys_proceeds_to_the_bank() {
    let mut s = new_game(2);
    land_on(&mut s, A, 24);
    ok(&mut s, A, Action::DeclineProperty);
    ok(&mut s, B, Action::Bid { amount: 7 });
    let events = ok(&mut s, A, Action::PassAuction);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::AuctionWon { amount: 7, .. })));
    assert_eq!((cash(&s, A), cash(&s, B)), (1500, 1493));
    assert_eq!(s.deed(24).unwrap().owner, Some(Seat(B)));
}

/// MO-BUILD-1, MO-BUILD-5, MO-BUILD-6: only complete groups, at most 4 houses, then one hotel
/// and nothing more.
#[test]
fn mo_build_1_mo_build_5_mo_build_6_groups_limits_and_hotel() {
    let mut s = new_game(2);
    own(&mut s, A, &[1]);
    own(&mut s, B, &[3]);
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![1] },
        "monopoly.group_incomplete",
    );
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![3] },
        "monopoly.not_owner",
    );
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![5] },
        "monopoly.not_a_street",
    );
    own(&mut s, A, &[3]);
    ok(
        &mut s,
        A,
        Action::Build {
            squares: vec![1, 3, 1, 3, 1, 3, 1, 3],
        },
    );
    assert_eq!(s.deed(1).unwrap().level, 4, "4 houses");
    ok(
        &mut s,
        A,
        Action::Build {
            squares: vec![1, 3],
        },
    );
    assert_eq!(s.deed(3).unwrap().level, HOTEL);
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![3] },
        "monopoly.street_full",
    );
}

/// MO-BUILD-7: an empty bank stops building of that kind.
#[test]
fn mo_build_7_no_house_in_the_bank_no_building() {
    let mut s = new_game(2);
    own(&mut s, A, &[1, 3]);
    s.bank_houses = 0;
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![1] },
        "monopoly.bank_out_of_buildings",
    );
    // "until units are returned": a house sold back makes one available again.
    own(&mut s, B, &[37, 39]);
    s.deed_mut(37).unwrap().level = 1;
    ok(&mut s, B, Action::SellBuilding { square: 37 });
    assert_eq!(s.bank_houses, 1);
    // B's mortgage keeps B from building, so A's request meets no shortage (MO-BUILD-8).
    ok(&mut s, B, Action::Mortgage { square: 39 });
    ok(&mut s, A, Action::Build { squares: vec![1] });
    assert_eq!(s.bank_houses, 0);

    // A hotel needs a hotel in stock, even with houses in the bank.
    let mut s = new_game(2);
    own(&mut s, A, &[1, 3]);
    set_level(&mut s, 1, 4);
    set_level(&mut s, 3, 4);
    s.bank_hotels = 0;
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![1] },
        "monopoly.bank_out_of_buildings",
    );
}

/// MO-BUILD-8: without another possible builder there is no shortage; with one, the window
/// opens and a demand within the stock is filled at list price from the requester on.
#[test]
fn mo_build_8_demand_within_stock_filled_at_list_price() {
    let mut s = new_game(3);
    own(&mut s, A, &[1, 3]);
    s.bank_houses = 2;
    let mut alone = s.clone();
    ok(
        &mut alone,
        A,
        Action::Build {
            squares: vec![1, 3],
        },
    );
    assert!(alone.shortage.is_none());
    assert_eq!(alone.bank_houses, 0);
    // Trigger: a request for fewer units than the stock opens no window, even with another
    // possible builder.
    let mut fewer = s.clone();
    own(&mut fewer, B, &[37, 39]);
    fewer.bank_houses = 3;
    ok(
        &mut fewer,
        A,
        Action::Build {
            squares: vec![1, 3],
        },
    );
    assert!(fewer.shortage.is_none());
    assert_eq!(fewer.bank_houses, 1);
    own(&mut s, B, &[37, 39]);
    ok(
        &mut s,
        A,
        Action::Build {
            squares: vec![1, 3],
        },
    );
    let shortage = s.shortage.clone().unwrap();
    assert_eq!((shortage.building, shortage.stock), (Building::House, 2));
    assert_eq!(Monopoly::active_seats(&s), vec![Seat(B)]);
    refused(
        &mut s,
        A,
        Action::Build { squares: vec![1] },
        "monopoly.shortage_window_open",
    );
    refused(
        &mut s,
        B,
        Action::DeclareDemand {
            squares: vec![37, 37],
        },
        "monopoly.uneven",
    );
    ok(&mut s, B, Action::DeclareDemand { squares: vec![] });
    assert!(s.shortage.is_none());
    assert_eq!(s.deed(1).unwrap().level, 1);
    assert_eq!(cash(&s, A), 1400);
}

/// MO-SELL-1, MO-SELL-2: half price back, evenly.
#[test]
fn mo_sell_1_mo_sell_2_half_price_evenly() {
    let mut s = new_game(2);
    own(&mut s, A, &[6, 8, 9]);
    set_level(&mut s, 6, 2);
    set_level(&mut s, 8, 1);
    set_level(&mut s, 9, 1);
    refused(
        &mut s,
        A,
        Action::SellBuilding { square: 8 },
        "monopoly.uneven",
    );
    let houses = s.bank_houses;
    ok(&mut s, A, Action::SellBuilding { square: 6 });
    assert_eq!(cash(&s, A), 1525);
    // Sold to the bank: the house goes back to its stock, B gets nothing.
    assert_eq!(s.deed(6).unwrap().level, 1);
    assert_eq!(s.bank_houses, houses + 1);
    assert_eq!(cash(&s, B), 1500);
    refused(
        &mut s,
        A,
        Action::SellBuilding { square: 1 },
        "monopoly.not_owner",
    );
}

/// MO-SELL-4, MO-D-7: with fewer than 4 houses in the bank a hotel comes down as far as the
/// stock allows, the whole group kept even; each level given up pays half its price.
#[test]
fn mo_sell_4_mo_d_7_hotel_sale_when_the_bank_lacks_houses() {
    let mut s = new_game(2);
    own(&mut s, A, &[6, 8, 9]);
    for sq in [6, 8, 9] {
        set_level(&mut s, sq, HOTEL);
    }
    s.bank_houses = 2;
    let events = ok(&mut s, A, Action::SellBuilding { square: 9 });
    // No even configuration keeps a hotel (the others would need 4 houses on 9), so the
    // highest one with at most 2 houses is one house each on 6 and 8: 13 levels given up.
    let levels: Vec<u8> = [6, 8, 9]
        .iter()
        .map(|&q| s.deed(q).unwrap().level)
        .collect();
    assert_eq!(levels, vec![1, 1, 0]);
    assert!(
        matches!(events[0], Event::BuildingsSold { amount: 325, .. }),
        "{events:?}"
    );
    assert_eq!((s.bank_houses, s.bank_hotels), (0, 12));

    // With 4 houses in the bank the hotel is simply exchanged back (MO-SELL-3).
    let mut s = new_game(2);
    own(&mut s, A, &[6, 8, 9]);
    for sq in [6, 8, 9] {
        set_level(&mut s, sq, HOTEL);
    }
    s.bank_houses = 4;
    ok(&mut s, A, Action::SellBuilding { square: 9 });
    let levels: Vec<u8> = [6, 8, 9]
        .iter()
        .map(|&q| s.deed(q).unwrap().level)
        .collect();
    assert_eq!(levels, vec![HOTEL, HOTEL, 4]);
}

/// MO-MORT-1, MO-MORT-6: mortgage only without buildings in the group; deeds are never sold
/// back to the bank.
#[test]
fn mo_mort_1_mo_mort_6_mortgage_needs_an_unbuilt_group() {
    let mut s = new_game(2);
    own(&mut s, A, &[1, 3]);
    set_level(&mut s, 3, 1);
    refused(
        &mut s,
        A,
        Action::Mortgage { square: 1 },
        "monopoly.group_has_buildings",
    );
    ok(&mut s, A, Action::SellBuilding { square: 3 });
    ok(&mut s, A, Action::Mortgage { square: 1 });
    refused(
        &mut s,
        A,
        Action::Mortgage { square: 1 },
        "monopoly.already_mortgaged",
    );
    refused(
        &mut s,
        A,
        Action::LiftMortgage { square: 3 },
        "monopoly.not_mortgaged",
    );
    // MO-MORT-6: there is no action that sells a deed to the bank; only buildings go back.
    let sells_deeds = Monopoly::legal_actions(&s, Seat(A))
        .iter()
        .any(|a| matches!(a, Action::SellBuilding { .. }));
    assert!(!sells_deeds);
}

fn offer(to: u8, give: Vec<u8>, get: Vec<u8>, give_cash: i64) -> Action {
    Action::OfferTrade {
        to: Seat(to),
        give_cash,
        give_properties: give,
        give_cards: vec![],
        get_cash: 0,
        get_properties: get,
        get_cards: vec![],
        lift: vec![],
    }
}

/// MO-TRADE-1, MO-TRADE-2, MO-TRADE-4, MO-D-8: offers of cash, deeds and cards; accept,
/// reject, withdraw; a street of a built group cannot change hands.
#[test]
fn mo_trade_1_mo_trade_2_mo_trade_4_mo_d_8_offer_accept_reject_withdraw() {
    let mut s = new_game(3);
    own(&mut s, A, &[1, 3, 5]);
    own(&mut s, B, &[6]);
    set_level(&mut s, 1, 1);
    refused(
        &mut s,
        A,
        offer(B, vec![3], vec![], 0),
        "monopoly.group_has_buildings",
    );
    refused(
        &mut s,
        A,
        offer(A, vec![5], vec![], 0),
        "monopoly.trade_with_self",
    );
    refused(
        &mut s,
        A,
        offer(B, vec![6], vec![], 0),
        "monopoly.bad_trade_item",
    );
    ok(&mut s, A, offer(B, vec![5], vec![6], 10));
    refused(
        &mut s,
        A,
        offer(B, vec![5], vec![], 0),
        "monopoly.offer_already_open",
    );
    refused(
        &mut s,
        C,
        Action::AcceptTrade {
            offer: 0,
            lift: vec![],
        },
        "monopoly.not_offer_party",
    );
    ok(
        &mut s,
        B,
        Action::AcceptTrade {
            offer: 0,
            lift: vec![],
        },
    );
    assert_eq!(s.deed(5).unwrap().owner, Some(Seat(B)));
    assert_eq!(s.deed(6).unwrap().owner, Some(Seat(A)));
    assert_eq!((cash(&s, A), cash(&s, B)), (1490, 1510));

    ok(&mut s, A, offer(C, vec![6], vec![], 0));
    ok(&mut s, C, Action::RejectTrade { offer: 1 });
    ok(&mut s, A, offer(C, vec![6], vec![], 0));
    refused(
        &mut s,
        C,
        Action::WithdrawTrade { offer: 2 },
        "monopoly.not_offer_party",
    );
    ok(&mut s, A, Action::WithdrawTrade { offer: 2 });
    assert!(s.offers.is_empty());
}

/// MO-TRADE-4: on acceptance everything is checked again; an unaffordable accept is refused.
#[test]
fn mo_trade_4_accept_rechecks_ownership_and_cash() {
    let mut s = new_game(3);
    own(&mut s, A, &[5]);
    ok(&mut s, A, offer(B, vec![5], vec![], 0));
    let mut sold = s.clone();
    own(&mut sold, C, &[5]);
    refused(
        &mut sold,
        B,
        Action::AcceptTrade {
            offer: 0,
            lift: vec![],
        },
        "monopoly.bad_trade_item",
    );
    ok(&mut s, A, Action::WithdrawTrade { offer: 0 });
    ok(
        &mut s,
        A,
        Action::OfferTrade {
            to: Seat(B),
            give_cash: 0,
            give_properties: vec![5],
            give_cards: vec![],
            get_cash: 1000,
            get_properties: vec![],
            get_cards: vec![],
            lift: vec![],
        },
    );
    set_cash(&mut s, B, 999);
    refused(
        &mut s,
        B,
        Action::AcceptTrade {
            offer: 1,
            lift: vec![],
        },
        "monopoly.insufficient_cash",
    );
}

/// MO-TRADE-2, MO-D-20: a jail card is sold; used later, it goes under its own deck.
#[test]
fn mo_trade_2_mo_d_20_sold_jail_card_returns_to_its_deck() {
    let mut s = new_game(3);
    let e08 = card("E08");
    s.decks[0].retain(|c| *c != e08);
    s.players[1].jail_cards.push(e08);
    ok(
        &mut s,
        A,
        Action::OfferTrade {
            to: Seat(B),
            give_cash: 30,
            give_properties: vec![],
            give_cards: vec![],
            get_cash: 0,
            get_properties: vec![],
            get_cards: vec![e08],
            lift: vec![],
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
    assert_eq!(s.players[0].jail_cards, vec![e08]);
    s.players[0].in_jail = true;
    s.players[0].position = 10;
    ok(&mut s, A, Action::UseJailCard { card: e08 });
    assert_eq!(s.decks[0].last(), Some(&e08));
    assert_eq!(s.decks[0].len(), 16);
}

/// MO-TRADE-2, MO-TRADE-4 (amended): the offer templates list both sides' tradeable deeds,
/// cards and cash limits, one template per field an offer leads with (that field gives at
/// least one item, the fields before it nothing), so no instantiation is empty; the cash the
/// proposer may give leaves the interest on every mortgaged deed it may ask for. Every
/// instantiation is accepted (the template promise).
#[test]
fn mo_trade_2_mo_trade_4_offer_templates_move_something_and_are_accepted() {
    let mut s = new_game(3);
    own(&mut s, A, &[1, 3, 5]);
    own(&mut s, B, &[6, 8]);
    set_level(&mut s, 1, 1);
    ok(&mut s, B, Action::Mortgage { square: 8 });
    // Read generically: the same JSON as the typed templates (ActionTemplate::of).
    let to_b: Vec<_> = Monopoly::action_templates(&s, Seat(A))
        .iter()
        .map(ActionTemplate::of)
        .filter(|t| t.action_type == "offer_trade" && t.fixed["to"] == 1)
        .collect();
    fn fields(t: &ActionTemplate) -> Vec<&str> {
        t.params.keys().map(String::as_str).collect()
    }
    let at_least_one = |values: serde_json::Value| Domain::Subset {
        values: values.as_array().unwrap().clone(),
        min_items: 1,
        max_items: values.as_array().unwrap().len(),
    };
    // Led by get_properties, give_properties, get_cash, give_cash (nobody holds a card).
    assert_eq!(to_b.len(), 4, "{to_b:?}");
    assert_eq!(
        to_b[0].params["get_properties"],
        at_least_one(serde_json::json!([6, 8]))
    );
    assert_eq!(to_b[0].params["give_properties"], Domain::any_subset([5u8]));
    // A may give M 1500 less the 5 interest on the mortgaged Elisenstraße (MO-TRADE-3).
    assert_eq!(
        to_b[0].params["give_cash"],
        Domain::Integer { min: 0, max: 1495 }
    );
    assert_eq!(
        fields(&to_b[1]),
        ["get_cash", "give_cash", "give_properties"]
    );
    assert_eq!(
        to_b[1].params["give_properties"],
        at_least_one(serde_json::json!([5]))
    );
    assert_eq!(fields(&to_b[2]), ["get_cash", "give_cash"]);
    assert_eq!(
        to_b[2].params["get_cash"],
        Domain::Integer { min: 1, max: 1550 }
    );
    assert_eq!(fields(&to_b[3]), ["give_cash"]);
    assert_eq!(
        to_b[3].params["give_cash"],
        Domain::Integer { min: 1, max: 1495 }
    );
    let mut r = rng(4);
    for template in &to_b {
        for _ in 0..100 {
            let action: Action = serde_json::from_value(template.instantiate(&mut r)).unwrap();
            Monopoly::decide(&s, Seat(A), &action, &mut r)
                .unwrap_or_else(|e| panic!("{action:?}: {e}"));
        }
    }
    // Too poor for the interest: the mortgaged deed is left out of what A may ask for.
    set_cash(&mut s, A, 4);
    let asks = Monopoly::action_templates(&s, Seat(A))
        .iter()
        .map(ActionTemplate::of)
        .find(|t| t.action_type == "offer_trade" && t.fixed["to"] == 1)
        .unwrap();
    assert_eq!(
        asks.params["get_properties"],
        at_least_one(serde_json::json!([6]))
    );
    assert_eq!(asks.params["give_cash"], Domain::Integer { min: 0, max: 4 });
    assert_eq!(s.turn.unwrap().step, Step::Roll);
}
