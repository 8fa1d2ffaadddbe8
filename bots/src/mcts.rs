//! The `mcts` level: information-set Monte Carlo tree search (single-observer ISMCTS, after
//! Cowling, Powley and Whitehouse 2012).
//!
//! Every iteration draws a fresh sample of the unseen ([`InfoSet::sample`]) and walks one
//! shared tree of *moves* with it: at each node only the moves possible in this sample count,
//! chosen by UCB1 with availability counts; the first move not yet in the tree is added, the
//! sample is played on by weighted random moves for a bounded number of actions, and the
//! evaluation's utilities go back up the path, each node credited with the utility of the seat
//! that made its move (max^n: every seat plays for itself). Chance is handled the same way:
//! the rules draw from the RNG as the sample is played, so a move's statistics average over
//! outcomes. The move played is the root's most visited.

use crate::candidates::{apply, own_actions};
use crate::evaluate::{utilities, BotGame};
use crate::info::InfoSet;
use crate::{Budget, Decision};
use engine::playout::{self, Choice};
use engine::Seat;
use rand::seq::IndexedRandom;
use rand::RngCore;
use std::time::Instant;

/// Search parameters besides the budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// UCB1 exploration constant for utilities in 0..1.
    pub exploration: f64,
    /// Actions played at random after the tree before the position is evaluated.
    pub rollout_depth: usize,
    /// Random instantiations considered per template at each node.
    pub per_template: usize,
    /// Multiplies the game's [`BotGame::LEAD`] in the utilities.
    pub lead_scale: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            exploration: 0.7,
            rollout_depth: 30,
            per_template: 4,
            lead_scale: 1.0,
        }
    }
}

struct Node<A> {
    /// The move leading here (`None` at the root) and who made it.
    action: Option<A>,
    mover: Seat,
    children: Vec<usize>,
    visits: u32,
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
            visits: 0,
            available: 0,
            total: 0.0,
        }
    }

    fn ucb(&self, exploration: f64) -> f64 {
        if self.visits == 0 {
            return f64::INFINITY;
        }
        let visits = f64::from(self.visits);
        self.total / visits + exploration * (f64::from(self.available.max(1)).ln() / visits).sqrt()
    }
}

/// How often the clock is read: every this many iterations.
const CLOCK_EVERY: u32 = 8;

/// Searches the seat's move within `budget` (iterations, and time if given).
pub fn search<G: BotGame>(
    info: &InfoSet<G>,
    budget: &Budget,
    settings: &Settings,
    rng: &mut dyn RngCore,
) -> Decision<G::Action> {
    let seat = info.seat();
    let start = Instant::now();
    let first = info.sample(rng);
    let root_moves = own_actions::<G>(&first, seat, settings.per_template, rng);
    if root_moves.len() <= 1 {
        return Decision {
            action: root_moves.into_iter().next(),
            iterations: 0,
            simulated_actions: 0,
        };
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
    let (mut scores, mut values, mut choices) = (Vec::new(), Vec::new(), Vec::new());
    let mut iterations = 0;
    while iterations < budget.iterations {
        if iterations % CLOCK_EVERY == 0 && budget.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
        iterations += 1;
        let mut sample = info.sample(rng);
        path.clear();
        path.push(0);
        let mut node = 0;
        loop {
            if G::outcome(&sample).is_some() {
                break;
            }
            // At the root the bot's own seat moves, also where the game waits for several
            // seats at once (an auction); below it, the first seat the game waits for.
            let (actor, moves) = if node == 0 {
                (seat, root_moves.clone())
            } else {
                let Some(&actor) = G::active_seats(&sample).first() else {
                    break;
                };
                (
                    actor,
                    own_actions::<G>(&sample, actor, settings.per_template, rng),
                )
            };
            if moves.is_empty() {
                break; // a game bug (an active seat without a move); judge the position as it is
            }
            let (next, expanded) = descend(&mut tree, node, actor, moves, settings, rng);
            let action = tree[next]
                .action
                .clone()
                .expect("only the root has no move");
            apply::<G>(&mut sample, actor, &action, rng);
            simulated += 1;
            path.push(next);
            node = next;
            if expanded {
                break;
            }
        }
        simulated += rollout::<G>(&mut sample, settings.rollout_depth, rng, &mut choices);
        utilities::<G>(&sample, settings.lead_scale, &mut scores, &mut values);
        for &n in &path {
            let node = &mut tree[n];
            node.visits += 1;
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
/// best UCB1 value.
fn descend<A: Clone + PartialEq>(
    tree: &mut Vec<Node<A>>,
    node: usize,
    actor: Seat,
    moves: Vec<A>,
    settings: &Settings,
    rng: &mut dyn RngCore,
) -> (usize, bool) {
    let mut available = Vec::with_capacity(moves.len());
    let mut untried = Vec::new();
    for action in moves {
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
    (best, tree[best].visits == 0)
}

/// Plays `sample` on for up to `depth` actions, each a weighted random choice among what any
/// seat may do ([`BotGame::playout_weight`]); returns the number played. `choices` is a buffer.
fn rollout<G: BotGame>(
    sample: &mut G::State,
    depth: usize,
    rng: &mut dyn RngCore,
    choices: &mut Vec<Choice<G::Action>>,
) -> u64 {
    let mut played = 0;
    while played < depth && G::outcome(sample).is_none() {
        playout::choices_into::<G>(sample, rng, choices);
        let Some(choice) = playout::pick(rng, choices, |c| G::playout_weight(sample, &c.action))
        else {
            break;
        };
        let (seat, action) = (choice.seat, choice.action.clone());
        apply::<G>(sample, seat, &action, rng);
        played += 1;
    }
    played as u64
}
