// A game type's leaderboard (`/leaderboards/{type}`; `/leaderboards` shows the first type):
// players by rating, best first, paged, with the signed-in player's row marked. A link per
// game type switches between boards.

import { byId, h, replace } from '../dom.js';
import { t } from '../i18n/index.js';
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
  document.title = t('board.title', { game: titleOf(types, type) });
  replace(
    byId('view-body'),
    h(
      'section',
      { id: 'leaderboard', class: 'card', 'aria-labelledby': 'leaderboard-title' },
      h('h2', { id: 'leaderboard-title' }, t('board.heading', { game: titleOf(types, type) })),
      h(
        'nav',
        { class: 'type-tabs', 'aria-label': t('lobby.games') },
        types.map((g) => h('a', { href: `/leaderboards/${encodeURIComponent(g.type)}`, 'aria-current': g.type === type ? 'page' : null, class: 'button' }, shortTitleOf(types, g.type))),
      ),
      h('p', { class: 'hint' }, t('board.hint')),
      h(
        'div',
        { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('board.label') },
        h(
          'table',
          { class: 'leaderboard' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, t('board.rank')), h('th', { scope: 'col' }, t('board.player')), h('th', { scope: 'col', class: 'num' }, t('prof.rating')), h('th', { scope: 'col', class: 'num' }, t('board.games')))),
          h('tbody', { id: 'leaderboard-rows' }),
        ),
      ),
      h(
        'nav',
        { class: 'paging', 'aria-label': t('lobby.pages') },
        h('button', { type: 'button', id: 'board-prev' }, t('board.higher')),
        h('span', { id: 'board-page' }),
        h('button', { type: 'button', id: 'board-next' }, t('board.lower')),
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
                  e.player_id === me ? h('span', { class: 'badge' }, t('prof.you')) : null,
                  // Signed in: challenge anyone else on the board.
                  me && e.player_id !== me
                    ? h('button', { type: 'button', class: 'challenge-player', 'aria-label': t('chal.send', { name: e.name }), onclick: () => openChallengeDialog({ player_id: e.player_id, name: e.name }, types) }, t('board.challenge'))
                    : null,
                ),
              ),
              h('td', { class: 'num rating' }, oneDecimal(e.conservative), h('small', { class: 'skill' }, t('prof.skill', { skill: oneDecimal(e.rating), uncertainty: oneDecimal(e.uncertainty) }))),
              h('td', { class: 'num' }, e.games),
            ),
          )
        : h('tr', {}, h('td', { colspan: 4 }, t('board.empty'))),
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
    replace(byId('board-page'), t('lobby.page', { n: previous.length + 1 }));
  };
  await load();
  document.body.dataset.ready = 'true';
}
