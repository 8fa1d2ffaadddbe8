// A player's public profile (`/players/{id}`): name, since when, games played and won per game
// type, the rating per type (what the leaderboard ranks by, and the skill estimate behind it),
// and the latest rating changes, each with its game.

import { byId, h, replace } from '../dom.js';
import { t, tn } from '../i18n/index.js';
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
        h('summary', {}, t('prof.challenge', { name: profile.name })),
        challengeForm(profile, types, () => {
          location.href = '/me#challenges';
        }),
      )
    : h('p', {}, h('a', { href: '/me' }, t('prof.signIn')), ` ${t('prof.signInTo', { name: profile.name })}`);
  return h('section', { id: 'challenge-area', class: 'card', 'aria-label': t('chal.send', { name: profile.name }) }, body);
}

/** @param {string} id */
export async function showProfile(id) {
  let types;
  /** @type {PlayerProfile} */
  let profile;
  try {
    [types, profile] = await Promise.all([gameTypes(), players.profile(id)]);
  } catch (e) {
    replace(byId('view-body'), h('h2', {}, t('prof.noSuch')));
    showError(e);
    document.body.dataset.ready = 'true';
    return;
  }
  const title = (/** @type {string} */ type) => shortTitleOf(types, type);
  const you = identity()?.player_id === profile.player_id;
  document.title = t('prof.title', { name: profile.name });

  const rated = new Map(profile.ratings.map((r) => [r.type, r]));
  const kinds = [...new Set([...profile.records.map((r) => r.type), ...profile.ratings.map((r) => r.type)])];
  const perType = kinds.length
    ? scrolling(
        t('prof.perGameLabel'),
        h(
          'table',
          { id: 'ratings' },
          h('caption', {}, t('prof.perGame')),
          h(
            'thead',
            {},
            h('tr', {}, h('th', { scope: 'col' }, t('lobby.game')), h('th', { scope: 'col', class: 'num' }, t('prof.played')), h('th', { scope: 'col', class: 'num' }, t('prof.won')), h('th', { scope: 'col', class: 'num' }, t('prof.rating'))),
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
                      h('small', { class: 'skill' }, `${t('prof.skill', { skill: oneDecimal(rating.rating), uncertainty: oneDecimal(rating.uncertainty) })}, ${tn('prof.ratedGames', rating.games)}`),
                    )
                  : h('td', { class: 'num' }, t('prof.notRated')),
              );
            }),
          ),
        ),
      )
    : h('p', {}, t('prof.noGames'));

  const history = profile.rating_history.length
    ? scrolling(
        t('prof.changes'),
        h(
          'table',
          { id: 'rating-history' },
          h('caption', {}, t('prof.latest')),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('prof.finished')), h('th', { scope: 'col' }, t('lobby.game')), h('th', { scope: 'col', class: 'num' }, t('prof.place')), h('th', { scope: 'col', class: 'num' }, t('prof.rating')), h('th', { scope: 'col', class: 'num' }, t('prof.change')))),
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
    : h('p', {}, t('prof.noRated'));

  replace(
    byId('view-body'),
    h(
      'section',
      { id: 'profile', class: 'card', 'aria-labelledby': 'profile-name' },
      h('h2', { id: 'profile-name' }, profile.name, you ? h('span', { class: 'badge' }, t('prof.you')) : null),
      h('p', { id: 'profile-summary' }, `${t('prof.since', { date: dateText(profile.created_at) })} ${tn('prof.summary', profile.games_played, { won: profile.games_won })}`),
      perType,
      h('p', { class: 'hint' }, t('prof.ratingHint')),
    ),
    challengeSection(profile, types, you),
    h('section', { id: 'history', class: 'card', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, t('prof.history')), history),
  );
  document.body.dataset.ready = 'true';
}
