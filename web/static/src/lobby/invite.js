// "Invite a player" in the lobby: a signed-in player names another player, chooses the game
// (the challenge form of the players' pages, `../players/challenges.js`) and the server sends
// the challenge (`POST /v1/challenges` takes a player's name as well as an id); the answer waits
// on "Your games". Nobody signed in: how to sign in, or to invite with an open seat's link.

import { byId, h, replace } from '../dom.js';
import { t } from '../i18n/index.js';
import { challengeForm } from '../players/challenges.js';
import { identity } from '../players/identity.js';

/** @typedef {import('../api.js').GameType} GameType */

/**
 * Fills the lobby's "Invite a player" section.
 * @param {GameType[]} types
 */
export function showInvite(types) {
  const body = byId('invite-body');
  if (!identity()) {
    replace(body, h('p', { id: 'invite-sign-in' }, h('a', { href: '/me' }, t('people.invite.signIn')), ` ${t('people.invite.orLink')}`));
    return;
  }
  const name = h('input', { id: 'invite-name', type: 'text', required: true, minlength: 2, maxlength: 24, autocomplete: 'off', spellcheck: false });
  const chosen = h('div', { id: 'invite-form-box' });
  const form = h(
    'form',
    { id: 'invite-form', class: 'invite-form' },
    h('div', { class: 'field' }, h('label', { for: 'invite-name' }, t('people.invite.name')), name),
    h('button', { type: 'submit', id: 'invite-go' }, t('people.invite.go')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const who = name.value.trim();
    if (!who) return;
    // The server resolves the name when the challenge is sent: an unknown one is refused there.
    replace(
      chosen,
      challengeForm({ player_id: who, name: who }, types, () => {
        const news = document.getElementById('challenge-news');
        news?.append(' ', h('a', { href: '/me#challenges', id: 'invite-see' }, t('people.invite.see')));
      }),
    );
  });
  replace(body, form, chosen);
}
