// The game page's menu: the rules, the reader's settings (a sound on your turn, the pace of
// other players' moves) and the game's own commands (call the game off, resign, a rematch),
// in `#menu-game`. It is a disclosure (`<details>`) so that it needs no script to open and
// reads well to a screen reader.

import { byId, h, replace } from './dom.js';
import { t } from './i18n/index.js';
import { unlockSound, turnChime } from './motion.js';
import { changeSettings, settings } from './settings.js';

/**
 * @param {() => Node[]} commands the game's commands now, asked each time the menu opens
 */
export function setUpMenu(commands) {
  const menu = /** @type {HTMLDetailsElement} */ (byId('menu'));
  const now = settings();
  const sound = h('input', { type: 'checkbox', id: 'setting-sound', checked: now.sound });
  sound.addEventListener('change', () => {
    changeSettings({ sound: sound.checked });
    if (sound.checked) {
      unlockSound();
      turnChime();
    }
  });
  const pace = h(
    'select',
    { id: 'setting-pace' },
    h('option', { value: 'slow', selected: now.pace === 'slow' }, t('menu.pace.slow')),
    h('option', { value: 'normal', selected: now.pace === 'normal' }, t('menu.pace.normal')),
    h('option', { value: 'instant', selected: now.pace === 'instant' }, t('menu.pace.instant')),
  );
  pace.addEventListener('change', () => changeSettings({ pace: /** @type {import('./settings.js').Pace} */ (pace.value) }));
  const rules = h('a', { href: '#rules', id: 'menu-rules' }, t('game.howToPlay'));
  rules.addEventListener('click', () => {
    /** @type {HTMLDetailsElement} */ (byId('rules')).open = true;
    menu.open = false;
  });
  const game = h('div', { id: 'menu-game' });
  replace(
    byId('menu-body'),
    h('p', {}, rules),
    h('p', {}, h('a', { href: '/me', id: 'menu-my-games' }, t('nav.me'))),
    h('div', { class: 'field check' }, sound, h('label', { for: 'setting-sound' }, t('menu.sound'))),
    h('div', { class: 'field' }, h('label', { for: 'setting-pace' }, t('menu.pace')), pace),

    game,
  );
  menu.addEventListener('toggle', () => {
    // Asked afresh at each opening (the game moves on while the menu is closed).
    const now = menu.open ? commands() : [];
    for (const c of now) c.addEventListener('click', () => (menu.open = false));
    replace(game, now.length ? h('div', { class: 'menu-commands' }, now) : null);
  });
  document.addEventListener('click', (e) => {
    if (menu.open && e.target instanceof Node && !menu.contains(e.target)) menu.open = false;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) {
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
  });
}
