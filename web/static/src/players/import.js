// The import page (`/import`): choose a game record (a file from "Download record", from this
// server or another), the server verifies it (the revealed seed against its commitment, every
// action against the rules, every die and deck against the revealed chance) and stores it as
// an imported game, whose replay opens from here. A record that does not verify is shown with
// the first move that fails and why; nothing is stored.

import { byId, h, replace } from '../dom.js';

export function showImport() {
  document.title = 'Board games: import a record';
  const result = h('div', { id: 'import-result', 'aria-live': 'polite' });
  const input = h('input', { type: 'file', id: 'import-file', accept: 'application/json,.json' });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) importFile(file, result);
  });
  replace(
    byId('view-body'),
    h(
      'section',
      { id: 'import', class: 'card', 'aria-labelledby': 'import-title' },
      h('h2', { id: 'import-title' }, 'Import a game record'),
      h('p', { class: 'hint' }, 'A record holds a whole game: its setup, every move and, once the game is over, the seed its dice and decks came from. Importing it checks all of that and keeps the game here, unrated, with its replay.'),
      h('label', { for: 'import-file' }, 'Record file (JSON)'),
      ' ',
      input,
      result,
    ),
  );
}

/**
 * Sends the record in `file` to the server and shows what it says.
 * @param {File} file
 * @param {HTMLElement} result
 */
async function importFile(file, result) {
  replace(result, h('p', {}, 'Verifying…'));
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    replace(result, h('p', { class: 'error', role: 'alert', id: 'import-refused' }, 'This file is not JSON: not a game record.'));
    return;
  }
  let res;
  try {
    res = await fetch('/v1/records', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(record) });
  } catch {
    replace(result, h('p', { class: 'error', role: 'alert' }, 'The server cannot be reached.'));
    return;
  }
  const body = await res.json().catch(() => null);
  if (res.status === 201 && body) {
    replace(
      result,
      h(
        'p',
        { id: 'import-verified' },
        `Verified: every move follows the rules and every die and deck the revealed seed. Imported as a new ${body.type} game. `,
        h('a', { href: `/games/${encodeURIComponent(body.game_id)}?seq=1`, class: 'button', id: 'import-replay' }, 'Open its replay'),
      ),
    );
    return;
  }
  const failure = body?.record;
  const where = failure?.move_index != null ? `move ${failure.move_index}` : 'the record';
  const rule = failure?.rule ? ` (rule ${failure.rule})` : '';
  replace(result, h('p', { class: 'error', role: 'alert', id: 'import-refused' }, `Not verified, at ${where}${rule}: ${body?.detail ?? res.statusText}. Nothing was imported.`));
}
