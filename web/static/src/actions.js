// The caller's legal actions as controls, for any game: listed actions as buttons (a select
// when a kind has many), action templates as forms whose fields are limited to their domains,
// and a chooser for a board click that stands for several actions (a city reached with two
// tickets, a tile that founds any of several chains). Submitting goes through `act`; the server
// stays the judge.

import { composedParams, formKey, groupTemplates, isEmpty, pickTemplate } from './compose.js';
import { h, humanize, replace } from './dom.js';
import { t, tOr } from './i18n/index.js';

/**
 * A template field's name in the page's language ("give_cash" → "Geld geben").
 * @param {string} field
 */
export function fieldName(field) {
  return tOr(`field.${field}`, humanize(field));
}

/** @typedef {import('./api.js').Action} Action */
/** @typedef {import('./api.js').ActionTemplate} ActionTemplate */
/** @typedef {import('./api.js').TemplateDomain} TemplateDomain */
/**
 * Submits an action; `form`, the key of the form it came from, is forgotten once the action is
 * taken (the form then starts afresh). Resolves to whether it was taken.
 * @typedef {(action: Action, form?: string) => Promise<boolean | void>} Act
 */
/** @typedef {(action: Action) => string} Describe */
/**
 * A template value in words (a square's name for a square number, a seat's name for a seat
 * index), or `null` for the plain wording.
 * @typedef {(field: string, value: unknown) => string | null} DescribeValue
 */

/**
 * A template value as a form shows it: the board's words for it when it has some.
 * @param {DescribeValue} label
 * @param {string} field
 * @param {unknown} value
 */
function valueLabel(label, field, value) {
  return label(field, value) ?? (typeof value === 'string' ? humanize(value) : JSON.stringify(value));
}

/** Kinds with more listed actions than this get a select instead of buttons. */
const MAX_BUTTONS = 8;

/**
 * A stable key for an action, to find it again after a re-render.
 * @param {unknown} action
 */
export function actionKey(action) {
  return JSON.stringify(action);
}

/**
 * The listed actions, grouped by kind, as buttons or a select per kind (labelled by
 * `kindLabels` where the board names the kind).
 * @param {Action[]} actions
 * @param {Describe} describe
 * @param {Act} act
 * @param {Record<string, string>} [kindLabels]
 */
export function actionList(actions, describe, act, kindLabels = {}) {
  /** @type {Map<string, Action[]>} */
  const groups = new Map();
  for (const a of actions) {
    const list = groups.get(a.type) ?? [];
    list.push(a);
    groups.set(a.type, list);
  }
  return [...groups.entries()].map(([type, list]) => {
    if (list.length <= MAX_BUTTONS) {
      return h(
        'div',
        { class: 'action-group', 'data-kind': type },
        list.map((a) =>
          h(
            'button',
            { type: 'button', class: 'action', 'data-action': actionKey(a), onclick: () => act(a) },
            describe(a),
          ),
        ),
      );
    }
    const id = `choose-${type}`;
    const select = h(
      'select',
      { id },
      list.map((a, i) => h('option', { value: i, 'data-action': actionKey(a) }, describe(a))),
    );
    return h(
      'div',
      { class: 'action-group', 'data-kind': type },
      h('label', { for: id }, kindLabels[type] ?? humanize(type)),
      select,
      h('button', { type: 'button', class: 'action', onclick: () => act(list[Number(select.value)]) }, t('actions.doIt')),
    );
  });
}

/**
 * A form field for one free field of a template, limited to its domain; returns the element
 * and a reader that gives the value or a sentence saying what is wrong.
 * @param {string} template
 * @param {string} field
 * @param {TemplateDomain} domain
 * @param {DescribeValue} words
 * @param {string[] | null} [order] the order of a counts field's keys (a game's colours)
 * @returns {{element: HTMLElement, read: () => {value: unknown} | {error: string}}}
 */
function domainField(template, field, domain, words, order = null) {
  const id = `tpl-${template}-${field}`;
  const label = h('label', { for: id }, fieldName(field));
  switch (domain.kind) {
    case 'integer': {
      const { min, max } = domain;
      const number = h('input', { id, type: 'number', min, max, step: 1, value: min, required: true, 'data-control': field });
      const range = h('input', { type: 'range', min, max, step: 1, value: min, 'aria-label': t('actions.slider', { field: fieldName(field) }), 'data-control': `${field}:range` });
      range.addEventListener('input', () => (number.value = range.value));
      number.addEventListener('input', () => (range.value = number.value));
      return {
        element: h('div', { class: 'field' }, label, h('div', { class: 'range' }, range, number), h('small', { class: 'hint' }, t('actions.range', { min, max }))),
        read: () => {
          const v = Number(number.value);
          return Number.isInteger(v) && v >= min && v <= max
            ? { value: v }
            : { error: t('actions.wholeNumber', { field: fieldName(field), min, max }) };
        },
      };
    }
    case 'one_of': {
      const select = h(
        'select',
        { id, 'data-control': field },
        domain.values.map((v, i) => h('option', { value: i }, valueLabel(words, field, v))),
      );
      return {
        element: h('div', { class: 'field' }, label, select),
        read: () => ({ value: domain.values[Number(select.value)] }),
      };
    }
    case 'subset': {
      const boxes = domain.values.map((v, i) =>
        h('label', { class: 'check' }, h('input', { type: 'checkbox', value: i, 'data-control': `${field}:${JSON.stringify(v)}` }), valueLabel(words, field, v)),
      );
      const { min_items: min, max_items: max } = domain;
      return {
        element: h('fieldset', { id }, h('legend', {}, `${fieldName(field)} (${t('actions.range', { min, max })})`), boxes),
        read: () => {
          const chosen = boxes
            .map((b) => /** @type {HTMLInputElement} */ (b.querySelector('input')))
            .filter((b) => b.checked)
            .map((b) => domain.values[Number(b.value)]);
          return chosen.length >= min && chosen.length <= max
            ? { value: chosen }
            : { error: t('actions.chooseRange', { min, max, field: fieldName(field) }) };
        },
      };
    }
    case 'counts': {
      const rank = (/** @type {string} */ key) => (order?.includes(key) ? order.indexOf(key) : 1e9);
      const keys = Object.entries(domain.limits).sort(([a], [b]) => rank(a) - rank(b));
      const inputs = keys.map(([key, limit]) => {
        const said = valueLabel(words, field, key);
        const input = h('input', { type: 'number', min: 0, max: limit, step: 1, value: 0, 'aria-label': said, 'data-control': `${field}:${key}` });
        return { key, limit, input, element: h('label', { class: 'count' }, h('span', {}, said, h('small', {}, ` ${t('actions.upTo', { limit })}`)), input) };
      });
      const { min_total: min, max_total: max } = domain;
      return {
        element: h(
          'fieldset',
          { id, class: 'counts' },
          h('legend', {}, min === max ? t('actions.exactly', { field: fieldName(field), n: min }) : t('actions.inAll', { field: fieldName(field), min, max })),
          inputs.map((i) => i.element),
        ),
        read: () => {
          /** @type {Record<string, number>} */
          const counts = {};
          let total = 0;
          for (const { key, limit, input } of inputs) {
            const n = Number(input.value);
            if (!Number.isInteger(n) || n < 0 || n > limit) {
              return { error: t('actions.fromZero', { field: valueLabel(words, field, key), limit }) };
            }
            if (n > 0) counts[key] = n;
            total += n;
          }
          return total >= min && total <= max
            ? { value: counts }
            : { error: t('actions.addUp', { field: fieldName(field), min, max, total }) };
        },
      };
    }
  }
}

/**
 * A form per template: its fixed fields as given, a field per free parameter; `label` words
 * the values (fixed ones and the choices of a field) where the board knows better than a
 * number, and `named` the form itself (its heading, what submitting does, the terms, what to
 * say when nothing is filled in). A choice among no values (a subset of nothing) is no field:
 * it is sent empty. Templates of a type in `composed` that share their fixed fields are one
 * form (`compose.js`), which submits the template its values fit. Every form carries its key
 * (`data-form-key`) so that `form-memory.js` keeps what the user filled in.
 * @param {ActionTemplate[]} templates
 * @param {Act} act
 * @param {DescribeValue} [label]
 * @param {(template: ActionTemplate) => {title: string, submit: string, hint?: string, empty?: string} | null} [named]
 * @param {(template: ActionTemplate) => boolean} [open] whether a form is shown open; the
 *   others are folded under their title (a trade offer while the game waits for a bid)
 * @param {string[] | null} [order] the order of counts fields' keys
 * @param {string[]} [composed] the template types whose templates for one thing are one form
 */
export function templateForms(templates, act, label = () => null, named = () => null, open = () => true, order = null, composed = []) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  return groupTemplates(templates, composed).map((group) => {
    const { template: tpl, index: n } = group[0];
    // Two forms of one key (two templates alike, not composed) are told apart by their turn.
    const base = formKey(tpl);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const key = count > 1 ? `${base}~${count}` : base;
    const shown = open(tpl);
    const name = `${tpl.type}-${n}`;
    const words = named(tpl);
    const composer = composed.includes(tpl.type);
    const params = composer ? composedParams(group) : /** @type {Record<string, TemplateDomain>} */ (tpl.params);
    /** @type {Record<string, unknown>} */
    const empty = {};
    const free = Object.entries(params).filter(([field, domain]) => {
      const nothing = domain.kind === 'subset' && domain.values.length === 0;
      if (nothing) empty[field] = [];
      return !nothing;
    });
    const fields = free.map(([field, domain]) => ({ field, ...domainField(name, field, domain, label, order) }));
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const given = ('fixed' in tpl && tpl.fixed) || {};
    const fixed = Object.entries(given);
    const title = words?.title ?? humanize(tpl.type);
    /** @param {string[]} problems */
    const refuse = (problems) => {
      replace(error, problems.join(' '));
      error.hidden = problems.length === 0;
    };
    const form = h(
      'form',
      {
        class: 'template',
        'data-template': tpl.type,
        'data-template-index': n,
        'data-template-indices': group.map((g) => g.index).join(' '),
        'data-form-key': shown ? key : null,
        // Our own checks say what is wrong in words, in the page.
        novalidate: true,
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          /** @type {Record<string, unknown>} */
          const values = { ...empty };
          const problems = [];
          for (const f of fields) {
            const got = f.read();
            if ('error' in got) problems.push(got.error);
            else values[f.field] = got.value;
          }
          refuse(problems);
          if (problems.length) return;
          let chosen = tpl;
          if (composer) {
            const picked = pickTemplate(group, values, fieldName);
            if ('problems' in picked) {
              const nothing = Object.values(values).every(isEmpty);
              refuse(nothing ? [words?.empty ?? t('actions.fillOne')] : picked.problems);
              return;
            }
            chosen = picked.fits.template;
            // What the chosen template has no field for is left out (it is empty).
            for (const field of Object.keys(values)) if (!(field in chosen.params)) delete values[field];
          }
          const chosenFixed = ('fixed' in chosen && chosen.fixed) || {};
          act(/** @type {Action} */ (/** @type {unknown} */ ({ type: chosen.type, ...chosenFixed, ...values })), key);
        },
      },
      h('h3', { class: shown ? null : 'visually-hidden' }, title),
      words?.hint
        ? h('p', { class: 'hint' }, words.hint)
        : fixed.length
          ? h('p', { class: 'hint' }, fixed.map(([k, v]) => `${fieldName(k)}: ${valueLabel(label, k, v)}`).join(', '))
          : null,
      fields.map((f) => f.element),
      error,
      h('button', { type: 'submit', class: 'action' }, words?.submit ?? humanize(tpl.type)),
    );
    return shown ? form : h('details', { class: 'template-box', 'data-template': tpl.type, 'data-form-key': key }, h('summary', {}, title), form);
  });
}

/**
 * Acts on one of `actions`: at once when there is one, else after asking which (a modal
 * chooser; Escape cancels).
 * @param {Action[]} actions
 * @param {Describe} describe
 * @param {Act} act
 * @param {string} question
 */
export function offer(actions, describe, act, question) {
  if (actions.length === 1) {
    act(actions[0]);
    return;
  }
  const dialog = h(
    'dialog',
    { class: 'chooser', 'aria-label': question },
    h('h2', {}, question),
    h(
      'div',
      { class: 'choices' },
      actions.map((a) =>
        h(
          'button',
          {
            type: 'button',
            class: 'action',
            'data-action': actionKey(a),
            onclick: () => {
              dialog.close();
              act(a);
            },
          },
          describe(a),
        ),
      ),
    ),
    h('button', { type: 'button', class: 'cancel', onclick: () => dialog.close() }, t('common.cancel')),

  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
