// The import page (`/import`): choose a game record (a file from "Download record", from this
// server or another), the server verifies it (the revealed seed against its commitment, every
// action against the rules, every die and deck against the revealed chance) and stores it as
// an imported game, whose replay opens from here. A record that does not verify is shown with
// the first move that fails and why; nothing is stored.

import { byId, h, replace } from '../dom.js';
import { t, tOr } from '../i18n/index.js';

export function showImport() {
  document.title = t('imp.title');
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
      h('h2', { id: 'import-title' }, t('imp.heading')),
      h('p', { class: 'hint' }, t('imp.hint')),
      h('label', { for: 'import-file' }, t('imp.file')),
      ' ',
      input,
      result,
    ),
  );
  document.body.dataset.ready = 'true';
}

/**
 * Sends the record in `file` to the server and shows what it says.
 * @param {File} file
 * @param {HTMLElement} result
 */
async function importFile(file, result) {
  replace(result, h('p', {}, t('imp.verifying')));
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    replace(result, h('p', { class: 'error', role: 'alert', id: 'import-refused' }, t('imp.notJson')));
    return;
  }
  let res;
  try {
    res = await fetch('/v1/records', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(record) });
  } catch {
    replace(result, h('p', { class: 'error', role: 'alert' }, t('imp.offline')));
    return;
  }
  const body = await res.json().catch(() => null);
  if (res.status === 201 && body) {
    replace(
      result,
      h(
        'p',
        { id: 'import-verified' },
        `${t('imp.verified', { game: tOr(`games.${body.type}`, body.type) })} `,
        h('a', { href: `/games/${encodeURIComponent(body.game_id)}?seq=1`, class: 'button', id: 'import-replay' }, t('imp.openReplay')),
      ),
    );
    return;
  }
  const failure = body?.record;
  const where = failure?.move_index != null ? t('imp.atMove', { n: failure.move_index }) : t('imp.atRecord');
  const rule = failure?.rule ? ` ${t('imp.rule', { rule: failure.rule })}` : '';
  // The server's reason stays in its words (English): it names the rule that failed.
  replace(result, h('p', { class: 'error', role: 'alert', id: 'import-refused' }, t('imp.refused', { where: `${where}${rule}`, why: body?.detail ?? res.statusText })));
}
