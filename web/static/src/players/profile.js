// A player's public profile (`/players/{id}`): name, since when, games played and won per game
// type, the rating per type (what the leaderboard ranks by, and the skill estimate behind it),
// and the latest rating changes, each with its game.

import { byId, h, replace } from '../dom.js';
import * as players from './api.js';
import { conservative, dateText, gameTypes, oneDecimal, ordinal, shortTitleOf, showError, signed } from './common.js';
import { challengeForm } from './challenges.js';
import { identity } from './identity.js';

/** @typedef {import('./api.js').PlayerProfile} PlayerProfile */

/**
 * A table that scrolls sideways on its own on a narrow screen (the page never does).
 * @param {string} label
 * @param {HTMLTableElement} table
 */
function scrolling(label, table) {
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': label }, table);
}

/**
 * "Challenge Ann": for a signed-in reader on another player's profile; once sent, the reader's
 * own page, where the challenge waits for its answer and opens the game.
 * @param {PlayerProfile} profile
 * @param {import('../api.js').GameType[]} types
 * @param {boolean} you
 */
function challengeSection(profile, types, you) {
  if (you) return null;
  const body = identity()
    ? h(
        'details',
        { id: 'challenge', open: location.hash === '#challenge' },
        h('summary', {}, `Challenge ${profile.name} to a game`),
        challengeForm(profile, types, () => {
          location.href = '/me#challenges';
        }),
      )
    : h('p', {}, h('a', { href: '/me' }, 'Sign up or sign in'), ` to challenge ${profile.name} to a game.`);
  return h('section', { id: 'challenge-area', class: 'card', 'aria-label': `Challenge ${profile.name}` }, body);
}

/** @param {string} id */
export async function showProfile(id) {
  let types;
  /** @type {PlayerProfile} */
  let profile;
  try {
    [types, profile] = await Promise.all([gameTypes(), players.profile(id)]);
  } catch (e) {
    replace(byId('view-body'), h('h2', {}, 'No such player'));
    showError(e);
    document.body.dataset.ready = 'true';
    return;
  }
  const title = (/** @type {string} */ type) => shortTitleOf(types, type);
  const you = identity()?.player_id === profile.player_id;
  document.title = `Board games: ${profile.name}`;

  const rated = new Map(profile.ratings.map((r) => [r.type, r]));
  const kinds = [...new Set([...profile.records.map((r) => r.type), ...profile.ratings.map((r) => r.type)])];
  const perType = kinds.length
    ? scrolling(
        'Results and ratings per game',
        h(
          'table',
          { id: 'ratings' },
          h('caption', {}, 'Per game'),
          h(
            'thead',
            {},
            h('tr', {}, h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col', class: 'num' }, 'Played'), h('th', { scope: 'col', class: 'num' }, 'Won'), h('th', { scope: 'col', class: 'num' }, 'Rating')),
          ),
          h(
            'tbody',
            {},
            kinds.map((type) => {
              const record = profile.records.find((r) => r.type === type);
              const rating = rated.get(type);
              return h(
                'tr',
                { 'data-type': type },
                h('th', { scope: 'row' }, h('a', { href: `/leaderboards/${encodeURIComponent(type)}` }, title(type))),
                h('td', { class: 'num' }, record?.played ?? 0),
                h('td', { class: 'num' }, record?.won ?? 0),
                rating
                  ? h(
                      'td',
                      { class: 'num rating' },
                      oneDecimal(rating.conservative),
                      h('small', { class: 'skill' }, `skill ${oneDecimal(rating.rating)} ± ${oneDecimal(rating.uncertainty)}, ${rating.games} rated game${rating.games === 1 ? '' : 's'}`),
                    )
                  : h('td', { class: 'num' }, 'not rated'),
              );
            }),
          ),
        ),
      )
    : h('p', {}, 'No finished games yet.');

  const history = profile.rating_history.length
    ? scrolling(
        'Rating changes',
        h(
          'table',
          { id: 'rating-history' },
          h('caption', {}, 'Latest rated games'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Finished'), h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col', class: 'num' }, 'Place'), h('th', { scope: 'col', class: 'num' }, 'Rating'), h('th', { scope: 'col', class: 'num' }, 'Change'))),
          h(
            'tbody',
            {},
            profile.rating_history.map((c) => {
              const before = conservative(c.rating_before, c.uncertainty_before);
              const after = conservative(c.rating_after, c.uncertainty_after);
              return h(
                'tr',
                { 'data-game': c.game_id },
                h('td', {}, dateText(c.finished_at)),
                h('td', {}, h('a', { href: `/games/${c.game_id}` }, title(c.type))),
                h('td', { class: 'num' }, ordinal(c.place)),
                h('td', { class: 'num' }, `${oneDecimal(before)} → ${oneDecimal(after)}`),
                h('td', { class: `num ${after >= before ? 'up' : 'down'}` }, signed(after - before)),
              );
            }),
          ),
        ),
      )
    : h('p', {}, 'No rated games yet.');

  replace(
    byId('view-body'),
    h(
      'section',
      { id: 'profile', class: 'card', 'aria-labelledby': 'profile-name' },
      h('h2', { id: 'profile-name' }, profile.name, you ? h('span', { class: 'badge' }, 'you') : null),
      h('p', { id: 'profile-summary' }, `Playing since ${dateText(profile.created_at)}. ${profile.games_played} game${profile.games_played === 1 ? '' : 's'} finished, ${profile.games_won} won.`),
      perType,
      h('p', { class: 'hint' }, 'Rating: the skill estimate less three times its uncertainty, what the leaderboards rank by. It grows as rated games make the estimate surer.'),
    ),
    challengeSection(profile, types, you),
    h('section', { id: 'history', class: 'card', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'Rating history'), history),
  );
  document.body.dataset.ready = 'true';
}
