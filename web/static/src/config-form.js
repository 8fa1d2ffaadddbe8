// A form for a game's configuration, generated from its `config_schema` (GET /v1/game-types).
// The catalogue words the schema for players: each option's `title` is its label and its
// `description` the help under it; named choices are `oneOf` of `const` with a `title` each;
// `x-lobby: "more"` puts an option under "More options" and `"hidden"` leaves it out (the
// seat count is chosen apart); `x-order` is the order to show them in. The schema is self-contained (`$ref`s into its own `$defs`);
// references into the OpenAPI document's components, should a schema carry them, are
// resolved against `/openapi.json`.
//
// Field kinds: choices (a select), booleans (a checkbox), integers and numbers (a number
// input with the schema's bounds; empty for "none" where the option may be null), strings,
// and structured options as small grids of numbers: an object of numbers (a value per player
// count, a card split) gets an input per key, a list of numbers an input per place.

import { h, humanize } from './dom.js';
import { t, tOr } from './i18n/index.js';

/**
 * @typedef {{type?: string | string[], enum?: unknown[], const?: unknown, title?: string, default?: unknown,
 *   description?: string, minimum?: number, maximum?: number, properties?: Record<string, Schema>,
 *   items?: Schema, oneOf?: Schema[], anyOf?: Schema[], allOf?: Schema[], $ref?: string,
 *   $defs?: Record<string, Schema>, 'x-lobby'?: string}} Schema
 */

/** @typedef {{element: HTMLElement, value: () => Record<string, unknown>}} ConfigForm */

/**
 * Follows `$ref` and single-member `oneOf`/`anyOf`/`allOf` wrappers (used to carry a default
 * or a description) down to the schema that says what values are allowed. The outermost
 * title and description win: they are the option's own. Choices (`oneOf` of `const`) become
 * `enum` with their titles in `enumTitles`.
 * @param {Schema} schema
 * @param {Record<string, unknown>} components
 * @returns {Schema & {enumTitles?: string[], nullable?: boolean}}
 */
export function resolve(schema, components) {
  /** @type {Schema} */
  let current = schema;
  /** @type {Schema & {enumTitles?: string[], nullable?: boolean}} */
  const merged = {};
  for (let depth = 0; depth < 10; depth++) {
    const { oneOf, anyOf, allOf, $ref, ...rest } = current;
    Object.assign(merged, { ...rest, ...merged });
    const choices = oneOf ?? anyOf;
    const nonNull = choices?.filter((c) => c.type !== 'null');
    if (choices && nonNull && nonNull.length < choices.length) merged.nullable = true;
    const single = [allOf, nonNull].find((list) => list && list.length === 1);
    if ($ref) {
      const name = $ref.replace(/^#\/(components\/schemas|\$defs)\//, '');
      current = /** @type {Schema} */ (components[name] ?? {});
    } else if (single) {
      current = single[0];
    } else if (nonNull && nonNull.length && nonNull.every((c) => 'const' in c) && !merged.enum) {
      return { ...merged, enum: nonNull.map((c) => c.const), enumTitles: nonNull.map((c) => c.title ?? humanize(String(c.const))) };
    } else {
      if (Array.isArray(merged.type) && merged.type.includes('null')) merged.nullable = true;
      return merged;
    }
  }
  return merged;
}

/**
 * Whether the schema (or anything under it) needs the OpenAPI components to be understood.
 * @param {unknown} schema
 */
export function hasRefs(schema) {
  return JSON.stringify(schema ?? null).includes('"#/components/');
}

/**
 * The label and help of an option.
 * @param {string} name
 * @param {Schema} raw the property as the schema gives it
 * @param {Schema} field the resolved property
 */
function words(name, raw, field) {
  return { label: raw.title ?? field.title ?? humanize(name), help: raw.description ?? field.description ?? null };
}

/**
 * An option's words in the page's language: the catalogues' `cfg.{game}.{option}.title`,
 * `.help` and `.choice.{value}`, else the server's English (an option added to the server
 * before its words reach the catalogues still reads).
 * @param {string} game
 * @param {string} name
 * @param {{label: string, help: string | null}} english
 */
function translated(game, name, english) {
  const key = `cfg.${game}.${name}`;
  return { label: tOr(`${key}.title`, english.label), help: english.help === null ? null : tOr(`${key}.help`, english.help) };
}

/**
 * A grid of number inputs for an object of numbers or a list of numbers; `null` for any other
 * structure.
 * @param {string} id
 * @param {string} label
 * @param {Schema} field
 * @param {unknown} initial
 * @param {Record<string, unknown>} components
 * @returns {{element: HTMLElement, read: () => unknown} | null}
 */
function numberGrid(id, label, field, initial, components) {
  const types = Array.isArray(field.type) ? field.type : [field.type];
  /** @type {Array<{key: string, caption: string, input: HTMLInputElement}>} */
  let cells = [];
  let asList = false;
  if (types.includes('object') && field.properties) {
    const props = Object.entries(field.properties).map(([k, v]) => [k, resolve(v, components)]);
    if (!props.every(([, v]) => /** @type {Schema} */ (v).type === 'integer' || /** @type {Schema} */ (v).type === 'number')) return null;
    const values = /** @type {Record<string, unknown>} */ (initial && typeof initial === 'object' ? initial : {});
    cells = props.map(([k, v]) => {
      const key = /** @type {string} */ (k);
      const sub = /** @type {Schema} */ (v);
      const caption = /^\d+$/.test(key) ? t('cfg.nPlayers', { n: key }) : (sub.title ?? humanize(key));
      const input = h('input', { type: 'number', id: `${id}-${key}`, min: sub.minimum ?? 0, max: sub.maximum, step: 1, value: String(values[key] ?? 0) });
      return { key, caption, input };
    });
  } else if (types.includes('array') && Array.isArray(initial) && initial.every((n) => typeof n === 'number')) {
    asList = true;
    cells = initial.map((n, i) => ({ key: String(i), caption: `${i + 1}.`, input: h('input', { type: 'number', id: `${id}-${i}`, step: 1, value: String(n) }) }));
  } else {
    return null;
  }
  const element = h(
    'fieldset',
    { id, class: 'option-grid' },
    h('legend', {}, label),
    cells.map((c) => h('label', { for: c.input.id }, c.caption, c.input)),
  );
  return {
    element,
    read: () => (asList ? cells.map((c) => Number(c.input.value)) : Object.fromEntries(cells.map((c) => [c.key, Number(c.input.value)]))),
  };
}

/**
 * The fields of a configuration form.
 * @param {Schema} schema the game type's `config_schema`
 * @param {Record<string, unknown>} defaults the game type's `default_config`
 * @param {Record<string, unknown>} components the OpenAPI document's schemas
 * @param {string} game the game type, whose options' words the catalogues translate
 * @returns {ConfigForm}
 */
export function configForm(schema, defaults, components, game) {
  components = { ...components, ...(schema.$defs ?? {}) };
  const root = resolve(schema, components);
  /** @type {Array<() => [string, unknown] | null>} */
  const readers = [];
  /** @type {HTMLElement[]} */
  const main = [];
  /** @type {HTMLElement[]} */
  const more = [];
  const order = (/** @type {Schema} */ p) => /** @type {number} */ (/** @type {any} */ (p)['x-order'] ?? 1e9);
  const entries = Object.entries(root.properties ?? {}).sort(([, a], [, b]) => order(a) - order(b));
  for (const [name, raw] of entries) {
    if (raw['x-lobby'] === 'hidden') continue;
    const field = resolve(raw, components);
    const id = `config-${name}`;
    const initial = defaults[name] ?? field.default;
    const { label, help } = translated(game, name, words(name, raw, field));
    const hintId = `${id}-help`;
    const hint = help ? h('small', { class: 'hint', id: hintId }, help) : null;
    const described = help ? hintId : null;
    const types = Array.isArray(field.type) ? field.type : [field.type];
    /** @type {HTMLElement} */
    let element;
    if (field.enum) {
      const values = field.enum;
      const titles = (field.enumTitles ?? values.map((v) => humanize(String(v)))).map((title, i) => tOr(`cfg.${game}.${name}.choice.${values[i]}`, title));
      const select = h(
        'select',
        { id, name, 'aria-describedby': described },
        values.map((v, i) => h('option', { value: String(v), selected: v === initial }, titles[i])),
      );
      readers.push(() => [name, values.find((v) => String(v) === select.value)]);
      element = h('div', { class: 'field' }, h('label', { for: id }, label), select, hint);
    } else if (types.includes('boolean')) {
      const box = h('input', { id, name, type: 'checkbox', checked: initial === true, 'aria-describedby': described });
      readers.push(() => [name, box.checked]);
      element = h('div', { class: 'field check' }, box, h('label', { for: id }, label), hint);
    } else if (types.includes('integer') || types.includes('number')) {
      const input = h('input', {
        id,
        name,
        type: 'number',
        min: field.minimum,
        max: field.maximum,
        step: types.includes('integer') ? 1 : 'any',
        value: initial === undefined || initial === null ? '' : String(initial),
        placeholder: field.nullable ? t('common.none') : null,
        'aria-describedby': described,
      });
      readers.push(() => (input.value === '' ? null : [name, Number(input.value)]));
      element = h('div', { class: 'field' }, h('label', { for: id }, label), input, hint);
    } else {
      const grid = numberGrid(id, label, field, initial, components);
      if (grid) {
        const before = JSON.stringify(grid.read());
        // Sent only when changed, so that an untouched option keeps the server's default.
        readers.push(() => {
          const now = grid.read();
          return JSON.stringify(now) === before ? null : [name, now];
        });
        element = h('div', { class: 'field' }, grid.element, hint);
      } else if (types.includes('object') || types.includes('array') || (initial !== null && typeof initial === 'object')) {
        // Any other structure: its JSON, sent only when changed.
        const text = initial === undefined || initial === null ? '' : JSON.stringify(initial);
        const input = h('input', { id, name, type: 'text', class: 'json', spellcheck: false, value: text, 'aria-describedby': described });
        readers.push(() => {
          const now = input.value.trim();
          if (now === '' || now === text) return null;
          try {
            return [name, JSON.parse(now)];
          } catch {
            return [name, now];
          }
        });
        element = h('div', { class: 'field' }, h('label', { for: id }, label), input, hint);
      } else {
        const input = h('input', { id, name, type: 'text', value: initial === undefined || initial === null ? '' : String(initial), 'aria-describedby': described });
        readers.push(() => (input.value === '' ? null : [name, input.value]));
        element = h('div', { class: 'field' }, h('label', { for: id }, label), input, hint);
      }
    }
    (raw['x-lobby'] === 'more' ? more : main).push(element);
  }
  return {
    element: h(
      'div',
      { class: 'config' },
      main.length || more.length ? main : h('p', {}, t('cfg.noOptions')),
      more.length ? h('details', { class: 'more', id: 'more-options' }, h('summary', {}, t('cfg.more', { n: more.length })), more) : null,

    ),
    value: () =>
      Object.fromEntries(
        readers.map((read) => read()).filter(/** @returns {e is [string, unknown]} */ (e) => e !== null),
      ),
  };
}
