//! The `mcts` level: information-set Monte Carlo tree search (single-observer ISMCTS, after
//! Cowling, Powley and Whitehouse 2012).
//!
//! Every iteration draws a fresh sample of the unseen ([`InfoSet::sample`]) and walks one
//! shared tree of *moves* with it: at each node only the moves possible in this sample count,
//! chosen by UCB1 with availability counts; the first move not yet in the tree is added, the
//! sample is played on by the game's playout policy ([`BotGame::playout_move`]) for a bounded
//! number of actions, and the evaluation's utilities go back up the path, each node credited
//! with the utility of the seat that made its move (max^n: every seat plays for itself).
//! Chance is handled the same way: the rules draw from the RNG as the sample is played, so a
//! move's statistics average over outcomes. The move played is the root's most visited.
//!
//! A new node starts with the evaluation of the position its move leads to, counted as
//! [`Settings::prior_visits`] visits (progressive bias): the search begins where the `greedy`
//! level ends and leaves it only where the simulations show better.

use crate::candidates::apply;
use crate::cpu::thread_cpu_time;
use crate::evaluate::{next_actor, utilities, BotGame};
use crate::greedy::best_of;
use crate::info::InfoSet;
use crate::{Budget, Decision};
use engine::playout::Choice;
use engine::Seat;
use rand::seq::IndexedRandom;
use rand::{Rng, RngCore};
use std::time::Instant;

/// Search parameters besides the budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// UCB1 exploration constant for utilities in 0..1.
    pub exploration: f64,
    /// Actions played by the playout policy after the tree before the position is evaluated.
    pub rollout_depth: usize,
    /// Random instantiations considered per template at each node.
    pub per_template: usize,
    /// Multiplies the game's [`BotGame::LEAD`] in the utilities.
    pub lead_scale: f64,
    /// Visits a new node's own evaluation counts for.
    pub prior_visits: f64,
    /// The share of playout moves chosen as the `greedy` level would (the best evaluation one
    /// ply ahead) instead of by the game's playout policy; `None`: the game's
    /// [`BotGame::GREEDY_PLAYOUT`].
    pub greedy_playout: Option<f64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            exploration: 0.7,
            rollout_depth: 30,
            per_template: 4,
            lead_scale: 1.0,
            prior_visits: 0.0,
            greedy_playout: None,
        }
    }
}

struct Node<A> {
    /// The move leading here (`None` at the root) and who made it.
    action: Option<A>,
    mover: Seat,
    children: Vec<usize>,
    /// Visits, the prior's virtual ones included.
    visits: f64,
    /// Iterations in which this node's move was possible when its parent was passed.
    available: u32,
    /// Sum of the mover's utilities over the visits.
    total: f64,
}

impl<A> Node<A> {
    fn new(action: Option<A>, mover: Seat) -> Self {
        Node {
            action,
            mover,
            children: Vec::new(),
            visits: 0.0,
            available: 0,
            total: 0.0,
        }
    }

    fn ucb(&self, exploration: f64) -> f64 {
        if self.visits == 0.0 {
            return f64::INFINITY;
        }
        self.total / self.visits
            + exploration * (f64::from(self.available.max(1)).ln() / self.visits).sqrt()
    }
}

/// How often the clocks are read: every this many iterations.
const CLOCK_EVERY: u32 = 8;

/// Searches the seat's move within `budget` (iterations, and time if given).
pub fn search<G: BotGame>(
    info: &InfoSet<G>,
    budget: &Budget,
    settings: &Settings,
    rng: &mut dyn RngCore,
) -> Decision<G::Action> {
    let seat = info.seat();
    let (start, cpu_start) = (Instant::now(), thread_cpu_time());
    let first = info.sample(rng);
    let unsearched = |action| Decision {
        action,
        iterations: 0,
        simulated_actions: 0,
    };
    if let Some(reflex) = G::reflex(&first, seat, info.memory(), rng) {
        return unsearched(Some(reflex));
    }
    let mut root_moves = Vec::new();
    G::bot_moves(
        &first,
        seat,
        info.memory(),
        settings.per_template,
        rng,
        &mut root_moves,
    );
    if root_moves.len() <= 1 {
        return unsearched(root_moves.pop());
    }
    // The root's moves are the seat's own, the same in every sample: fix them once.
    let mut tree: Vec<Node<G::Action>> = vec![Node::new(None, seat)];
    for action in &root_moves {
        let child = tree.len();
        tree.push(Node::new(Some(action.clone()), seat));
        tree[0].children.push(child);
    }
    let mut simulated = 0u64;
    let mut path = Vec::new();
    let (mut scores, mut values, mut buffer, mut moves) = (
        Vec::new(),
        Vec::new(),
        Vec::<Choice<G::Action>>::new(),
        Vec::new(),
    );
    let default_memory = G::Memory::default();
    let mut iterations = 0;
    while iterations < budget.iterations {
        if iterations % CLOCK_EVERY == 0 && budget.spent(start, cpu_start) {
            break;
        }
        iterations += 1;
        let mut sample = info.sample(rng);
        path.clear();
        path.push(0);
        let mut node = 0;
        loop {
            // At the root the bot's own seat moves (also where the game waits for several
            // seats at once, an auction); below it, whoever the bots' table order names.
            let actor = if node == 0 {
                moves.clone_from(&root_moves);
                seat
            } else {
                let Some(actor) = next_actor::<G>(&sample) else {
                    break;
                };
                G::bot_moves(
                    &sample,
                    actor,
                    &default_memory,
                    settings.per_template,
                    rng,
                    &mut moves,
                );
                actor
            };
            if moves.is_empty() {
                break; // a game bug (an active seat without a move); judge the position as it is
            }
            let (next, expanded) = descend(&mut tree, node, actor, &mut moves, settings, rng);
            let action = tree[next]
                .action
                .clone()
                .expect("only the root has no move");
            apply::<G>(&mut sample, actor, &action, rng);
            simulated += 1;
            path.push(next);
            node = next;
            if expanded {
                if settings.prior_visits > 0.0 {
                    utilities::<G>(&sample, settings.lead_scale, &mut scores, &mut values);
                    let prior = &mut tree[next];
                    prior.visits += settings.prior_visits;
                    prior.total += settings.prior_visits * values[actor.index()];
                }
                break;
            }
        }
        simulated += rollout::<G>(&mut sample, settings, rng, &mut buffer);
        utilities::<G>(&sample, settings.lead_scale, &mut scores, &mut values);
        for &n in &path {
            let node = &mut tree[n];
            node.visits += 1.0;
            node.total += values[node.mover.index()];
        }
    }
    let best = tree[0]
        .children
        .iter()
        .copied()
        .max_by(|&a, &b| {
            (tree[a].visits, tree[a].total)
                .partial_cmp(&(tree[b].visits, tree[b].total))
                .expect("utilities are finite")
        })
        .expect("the root has moves");
    Decision {
        action: tree[best].action.clone(),
        iterations,
        simulated_actions: simulated,
    }
}

/// One step down from `node`, where `actor` may make `moves` in this iteration's sample: a new
/// child for a move not yet tried (returned with `true`), else the available child with the
/// best UCB1 value. `moves` is consumed (left empty or partly moved out).
fn descend<A: Clone + PartialEq>(
    tree: &mut Vec<Node<A>>,
    node: usize,
    actor: Seat,
    moves: &mut Vec<A>,
    settings: &Settings,
    rng: &mut dyn RngCore,
) -> (usize, bool) {
    let mut available = Vec::with_capacity(moves.len());
    let mut untried = Vec::new();
    for action in moves.drain(..) {
        let child = tree[node]
            .children
            .iter()
            .copied()
            .find(|&c| tree[c].mover == actor && tree[c].action.as_ref() == Some(&action));
        match child {
            Some(c) => available.push(c),
            None => untried.push(action),
        }
    }
    if let Some(action) = untried.choose(rng) {
        let child = tree.len();
        tree.push(Node::new(Some(action.clone()), actor));
        tree[node].children.push(child);
        return (child, true);
    }
    let mut best = available[0];
    let mut best_value = f64::NEG_INFINITY;
    for &c in &available {
        tree[c].available += 1;
        let value = tree[c].ucb(settings.exploration);
        if value > best_value {
            best = c;
            best_value = value;
        }
    }
    (best, tree[best].visits == 0.0)
}

/// Plays `sample` on for up to [`Settings::rollout_depth`] actions, each by the game's playout
/// policy or (a [`Settings::greedy_playout`] share of them) the best move one ply ahead;
/// returns the number played. `buffer` is scratch space.
pub fn rollout<G: BotGame>(
    sample: &mut G::State,
    settings: &Settings,
    rng: &mut dyn RngCore,
    buffer: &mut Vec<Choice<G::Action>>,
) -> u64 {
    let mut played = 0;
    let mut moves = Vec::new();
    let default_memory = G::Memory::default();
    let greedy_share = settings.greedy_playout.unwrap_or(G::GREEDY_PLAYOUT);
    while played < settings.rollout_depth {
        let next = if greedy_share > 0.0 && rng.random_bool(greedy_share) {
            next_actor::<G>(sample).and_then(|seat| {
                G::bot_moves(sample, seat, &default_memory, 1, rng, &mut moves);
                let moves = std::mem::take(&mut moves);
                best_of::<G>(std::slice::from_ref(sample), seat, moves, rng).map(|a| (seat, a))
            })
        } else {
            G::playout_move(sample, rng, buffer)
        };
        let Some((seat, action)) = next else {
            break;
        };
        apply::<G>(sample, seat, &action, rng);
        played += 1;
    }
    played as u64
}
