//! What a Monopoly position is worth to each seat. At the round limit net worth decides
//! (MO-END-2), otherwise the last player standing wins (and the scores are net worths), so a
//! seat is worth its net worth now, money already owed to or by it, the rent its deeds will
//! earn from the other players in the rounds to come, the rent its complete colour groups
//! could earn once built up, and less for cash too thin to pay the rents it may meet.

use engine::monopoly::data::{board, DeedKind};
use engine::monopoly::state::{Lot, State};
use engine::monopoly::Monopoly;
use engine::{Game, Seat};

/// The chance that one other player's turn ends on a given square: a token moves about seven
/// squares a roll and rolls a little more than once a turn.
pub const LANDING_CHANCE: f64 = 1.0 / 35.0;
/// Rounds ahead a position's rents are counted for: rents compound into bankruptcies quickly,
/// and a board changes.
const HORIZON_ROUNDS: f64 = 10.0;
/// The share of a complete group's built-up rent credited before the houses stand: money and
/// time must still be found for them.
const BUILD_POTENTIAL: f64 = 0.5;
/// Houses per street a complete group is valued at once built up (the usual sweet spot).
const TARGET_HOUSES: u8 = 3;
/// What a mark of cash below the largest rent one may meet is worth less: such cash is the
/// way into mortgages and bankruptcy.
const THIN_CASH: f64 = 0.25;
/// The dice total a Werk's rent is reckoned with.
const AVERAGE_DICE: i64 = 7;

/// Each seat's expected final score into `scores`.
pub fn estimate(state: &State, scores: &mut Vec<f64>) {
    scores.clear();
    if let Some(outcome) = Monopoly::outcome(state) {
        scores.extend(outcome.scores.iter().map(|&s| s as f64));
        return;
    }
    if let Some(resolved) = auction_settled(state) {
        return estimate(&resolved, scores);
    }
    let b = board();
    scores.extend(state.seats().map(|s| state.net_worth(s) as f64));
    for rent in &state.rents {
        scores[rent.owner.index()] += rent.amount as f64;
        scores[rent.payer.index()] -= rent.amount as f64;
    }
    for debt in &state.debts {
        for line in &debt.lines {
            scores[debt.debtor.index()] -= line.amount as f64;
            if let Some(creditor) = line.creditor {
                scores[creditor.index()] += line.amount as f64;
            }
        }
    }
    let solvent = state.solvent().count();
    let opponents = solvent.saturating_sub(1) as f64;
    let weight = LANDING_CHANCE * opponents * horizon(state);
    let mut danger = vec![0i64; state.players.len()];
    for (d, deed) in state.deeds.iter().enumerate() {
        let Some(owner) = deed.owner else { continue };
        if state.player(owner).bankrupt {
            continue;
        }
        let rent = rent_now(state, d, owner);
        scores[owner.index()] += rent as f64 * weight;
        for seat in state.solvent().filter(|&s| s != owner) {
            danger[seat.index()] = danger[seat.index()].max(rent);
        }
    }
    for (g, group) in b.groups.iter().enumerate() {
        let Some(owner) = complete_owner(state, g) else {
            continue;
        };
        if state.player(owner).bankrupt {
            continue;
        }
        // What building the group up to the target would add, as far as cash reaches.
        let mut gain = 0i64;
        let mut cost = 0i64;
        for &d in &group.deeds {
            let deed = &state.deeds[d];
            if deed.level >= TARGET_HOUSES || deed.mortgaged {
                continue;
            }
            if let DeedKind::Street { rents, .. } = &b.deed(d).kind {
                gain += rents[usize::from(TARGET_HOUSES)] - rent_now(state, d, owner);
                cost += group.house_cost * i64::from(TARGET_HOUSES - deed.level);
            }
        }
        if gain > 0 {
            let cash = state.player(owner).cash.max(0) as f64;
            let affordable = (cash / cost.max(1) as f64).min(1.0);
            scores[owner.index()] += BUILD_POTENTIAL * affordable * gain as f64 * weight;
        }
    }
    for seat in state.solvent() {
        let cash = state.player(seat).cash;
        let short = (danger[seat.index()] - cash).max(0);
        scores[seat.index()] -= THIN_CASH * short as f64;
    }
    for seat in state.seats().filter(|&s| state.player(s).bankrupt) {
        scores[seat.index()] = 0.0;
    }
}

/// The rounds still to be played that rents are counted for.
fn horizon(state: &State) -> f64 {
    match state.config.round_limit {
        Some(limit) => f64::from(limit.saturating_sub(state.rounds_completed)).min(HORIZON_ROUNDS),
        None => HORIZON_ROUNDS,
    }
}

/// The state as if the running auction of a deed ended now with the high bid (the lot goes
/// back to the bank when nobody bid); `None` without such an auction. Bids are judged by what
/// they would buy.
fn auction_settled(state: &State) -> Option<State> {
    let auction = state.auction.as_ref()?;
    let Lot::Property { square } = auction.lot else {
        return None;
    };
    let mut settled = state.clone();
    settled.auction = None;
    if let Some(high) = auction.high {
        settled.player_mut(high.seat).cash -= high.amount;
        if let Some(deed) = settled.deed_mut(square) {
            deed.owner = Some(high.seat);
        }
    }
    Some(settled)
}

/// The owner of every street of colour group `g`, if one seat holds them all.
pub fn complete_owner(state: &State, g: usize) -> Option<Seat> {
    let deeds = &board().groups[g].deeds;
    let owner = state.deeds[deeds[0]].owner?;
    deeds
        .iter()
        .all(|&d| state.deeds[d].owner == Some(owner))
        .then_some(owner)
}

/// The rent deed `d` owned by `owner` asks now (MO-RENT-3..7), a Werk's at an average roll.
pub fn rent_now(state: &State, d: usize, owner: Seat) -> i64 {
    let b = board();
    let deed = &state.deeds[d];
    if deed.mortgaged {
        return 0;
    }
    let data = b.deed(d);
    let same_kind = || {
        b.deeds
            .iter()
            .zip(&state.deeds)
            .filter(|(other, o)| {
                std::mem::discriminant(&other.kind) == std::mem::discriminant(&data.kind)
                    && o.owner == Some(owner)
            })
            .count()
    };
    match &data.kind {
        DeedKind::Street { group, rents, .. } => {
            if deed.level > 0 {
                rents[usize::from(deed.level)]
            } else if complete_owner(state, *group) == Some(owner)
                && !b.groups[*group]
                    .deeds
                    .iter()
                    .any(|&g| state.deeds[g].mortgaged)
            {
                2 * rents[0]
            } else {
                rents[0]
            }
        }
        DeedKind::Railway { rents } => rents[same_kind().clamp(1, rents.len()) - 1],
        DeedKind::Utility { multipliers } => {
            multipliers[same_kind().clamp(1, multipliers.len()) - 1] * AVERAGE_DICE
        }
    }
}
