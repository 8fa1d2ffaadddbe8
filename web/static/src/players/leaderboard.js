// A game type's leaderboard (`/leaderboards/{type}`; `/leaderboards` shows the first type):
// players by rating, best first, paged, with the signed-in player's row marked. A link per
// game type switches between boards.

import { byId, h, replace } from '../dom.js';
import * as players from './api.js';
import { clearError, gameTypes, oneDecimal, shortTitleOf, showError, titleOf } from './common.js';
import { openChallengeDialog } from './challenges.js';
import { identity } from './identity.js';

const PAGE_SIZE = 25;

/** @param {string | null} asked the type in the address, if any */
export async function showLeaderboard(asked) {
  let types;
  try {
    types = await gameTypes();
  } catch (e) {
    showError(e);
    return;
  }
  const type = asked ?? types[0]?.type ?? '';
  if (!asked) history.replaceState(null, '', `/leaderboards/${encodeURIComponent(type)}`);
  document.title = `Board games: ${titleOf(types, type)} leaderboard`;
  replace(
    byId('view-body'),
    h(
      'section',
      { id: 'leaderboard', class: 'card', 'aria-labelledby': 'leaderboard-title' },
      h('h2', { id: 'leaderboard-title' }, `Leaderboard: ${titleOf(types, type)}`),
      h(
        'nav',
        { class: 'type-tabs', 'aria-label': 'Games' },
        types.map((t) => h('a', { href: `/leaderboards/${encodeURIComponent(t.type)}`, 'aria-current': t.type === type ? 'page' : null, class: 'button' }, shortTitleOf(types, t.type))),
      ),
      h('p', { class: 'hint' }, 'Ranked by rating: the skill estimate less three times its uncertainty, so that a few lucky games do not top the board. Only rated games count.'),
      h(
        'div',
        { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Leaderboard' },
        h(
          'table',
          { class: 'leaderboard' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'num' }, 'Rating'), h('th', { scope: 'col', class: 'num' }, 'Games'))),
          h('tbody', { id: 'leaderboard-rows' }),
        ),
      ),
      h(
        'nav',
        { class: 'paging', 'aria-label': 'Pages' },
        h('button', { type: 'button', id: 'board-prev' }, '← Higher'),
        h('span', { id: 'board-page' }),
        h('button', { type: 'button', id: 'board-next' }, 'Lower →'),
      ),
    ),
  );
  /** @type {string[]} cursors of the pages before this one */
  const previous = [];
  /** @type {string | undefined} */
  let cursor;
  const me = identity()?.player_id;
  const load = async () => {
    clearError();
    const body = byId('leaderboard-rows');
    let page;
    try {
      page = await players.leaderboard(type, { cursor, limit: PAGE_SIZE });
    } catch (e) {
      replace(body);
      showError(e);
      return;
    }
    replace(
      body,
      page.entries.length
        ? page.entries.map((e) =>
            h(
              'tr',
              { 'data-player': e.player_id, class: e.player_id === me ? 'you' : null },
              h('td', { class: 'num' }, e.rank),
              h(
                'th',
                { scope: 'row' },
                h(
                  'span',
                  { class: 'who' },
                  h('a', { href: `/players/${e.player_id}` }, e.name),
                  e.player_id === me ? h('span', { class: 'badge' }, 'you') : null,
                  // Signed in: challenge anyone else on the board.
                  me && e.player_id !== me
                    ? h('button', { type: 'button', class: 'challenge-player', 'aria-label': `Challenge ${e.name}`, onclick: () => openChallengeDialog({ player_id: e.player_id, name: e.name }, types) }, 'Challenge')
                    : null,
                ),
              ),
              h('td', { class: 'num rating' }, oneDecimal(e.conservative), h('small', { class: 'skill' }, `skill ${oneDecimal(e.rating)} ± ${oneDecimal(e.uncertainty)}`)),
              h('td', { class: 'num' }, e.games),
            ),
          )
        : h('tr', {}, h('td', { colspan: 4 }, 'Nobody has played a rated game of this yet.')),
    );
    const prev = /** @type {HTMLButtonElement} */ (byId('board-prev'));
    const next = /** @type {HTMLButtonElement} */ (byId('board-next'));
    prev.disabled = previous.length === 0;
    next.disabled = !page.next_cursor;
    next.onclick = () => {
      previous.push(cursor ?? '');
      cursor = page.next_cursor ?? undefined;
      load();
    };
    prev.onclick = () => {
      cursor = previous.pop() || undefined;
      load();
    };
    replace(byId('board-page'), `Page ${previous.length + 1}`);
  };
  await load();
  document.body.dataset.ready = 'true';
}
