//! One walk over what a seat may do, four answers: the whole list, its length, one entry, and
//! whether there is any.
//!
//! A game's listing walk hands each action it finds to a visitor as a recipe (`&dyn Fn() -> A`)
//! rather than as a built action, and stops where the visitor breaks. Listing builds every
//! recipe; counting ([`crate::Game::legal_action_count`]) builds none; picking
//! ([`crate::Game::legal_action`]) builds only the one asked for and stops there. The random
//! playout driver counts every seat's actions at every step and takes one, so what a recipe
//! defers (a move's path, a vector per action) is saved for all the others. Since all answers
//! come from the same walk, they cannot disagree on what is listed or in which order.

use std::ops::ControlFlow;

/// How a walk ended: `Break` when its visitor asked it to stop. Walks pass a visitor's break
/// on with `?`.
pub(crate) type Walk = ControlFlow<()>;

/// What a listing walk hands each action to.
pub(crate) type Visit<'v, A> = dyn FnMut(&dyn Fn() -> A) -> Walk + 'v;

/// Every action the walk finds, built, in order.
pub(crate) fn all<A>(walk: impl FnOnce(&mut Visit<'_, A>) -> Walk) -> Vec<A> {
    let mut out = Vec::new();
    let _ = walk(&mut |build| {
        out.push(build());
        Walk::Continue(())
    });
    out
}

/// How many actions the walk finds, none of them built.
pub(crate) fn count<A>(walk: impl FnOnce(&mut Visit<'_, A>) -> Walk) -> usize {
    let mut count = 0;
    let _ = walk(&mut |_| {
        count += 1;
        Walk::Continue(())
    });
    count
}

/// The `index`-th action the walk finds, the only one built; `None` past the end.
pub(crate) fn nth<A>(index: usize, walk: impl FnOnce(&mut Visit<'_, A>) -> Walk) -> Option<A> {
    let (mut seen, mut found) = (0, None);
    let _ = walk(&mut |build| {
        if seen == index {
            found = Some(build());
            return Walk::Break(());
        }
        seen += 1;
        Walk::Continue(())
    });
    found
}

/// Whether the walk finds any action, stopping at the first.
pub(crate) fn any<A>(walk: impl FnOnce(&mut Visit<'_, A>) -> Walk) -> bool {
    walk(&mut |_| Walk::Break(())).is_break()
}
