//! One walk over what a seat may do, three answers: the whole list, its length, one entry.
//!
//! A game's listing walk hands each action it finds to a visitor as a recipe (`&dyn Fn() -> A`)
//! rather than as a built action. Listing builds every recipe; counting
//! ([`crate::Game::legal_action_count`]) builds none; picking ([`crate::Game::legal_action`])
//! builds only the one asked for. The random playout driver counts every seat's actions at
//! every step and takes one, so what a recipe defers (a move's path, a vector per action) is
//! saved for all the others. Since all three answers come from the same walk, they cannot
//! disagree on what is listed or in which order.

/// What a listing walk hands each action to.
pub(crate) type Visit<'v, A> = dyn FnMut(&dyn Fn() -> A) + 'v;

/// Every action the walk finds, built, in order.
pub(crate) fn all<A>(walk: impl FnOnce(&mut Visit<'_, A>)) -> Vec<A> {
    let mut out = Vec::new();
    walk(&mut |build| out.push(build()));
    out
}

/// How many actions the walk finds, none of them built.
pub(crate) fn count<A>(walk: impl FnOnce(&mut Visit<'_, A>)) -> usize {
    let mut count = 0;
    walk(&mut |_| count += 1);
    count
}

/// The `index`-th action the walk finds, the only one built; `None` past the end.
pub(crate) fn nth<A>(index: usize, walk: impl FnOnce(&mut Visit<'_, A>)) -> Option<A> {
    let (mut seen, mut found) = (0, None);
    walk(&mut |build| {
        if seen == index {
            found = Some(build());
        }
        seen += 1;
    });
    found
}
