// A form for a game's configuration, generated from its `config_schema` (GET /v1/game-types).
// The schema is self-contained (`$ref`s into its own `$defs`); references into the OpenAPI
// document's components, should a schema carry them, are resolved against `/openapi.json`.
// Supported field kinds: string enums (a select), booleans (a checkbox), integers and numbers (a
// number input with the schema's bounds), strings, and objects and arrays (their JSON).

import { h, humanize } from './dom.js';

/** @typedef {{type?: string | string[], enum?: unknown[], const?: unknown, default?: unknown, description?: string, minimum?: number, maximum?: number, properties?: Record<string, Schema>, oneOf?: Schema[], anyOf?: Schema[], allOf?: Schema[], $ref?: string, $defs?: Record<string, Schema>}} Schema */

/** @typedef {{element: HTMLElement, value: () => Record<string, unknown>}} ConfigForm */

/**
 * Follows `$ref` and single-member `oneOf`/`anyOf`/`allOf` wrappers (used to carry a default
 * or a description) down to the schema that says what values are allowed.
 * @param {Schema} schema
 * @param {Record<string, unknown>} components
 * @returns {Schema}
 */
export function resolve(schema, components) {
  /** @type {Schema} */
  let current = schema;
  /** @type {Schema} */
  const merged = {};
  for (let depth = 0; depth < 10; depth++) {
    const { oneOf, anyOf, allOf, $ref, ...rest } = current;
    Object.assign(merged, { ...rest, ...merged });
    const single = [oneOf, anyOf, allOf].find((list) => list && list.length === 1);
    const choices = oneOf ?? anyOf;
    if ($ref) {
      const name = $ref.replace(/^#\/(components\/schemas|\$defs)\//, '');
      current = /** @type {Schema} */ (components[name] ?? {});
    } else if (single) {
      current = single[0];
    } else if (choices && choices.every((c) => 'const' in c) && !merged.enum) {
      // A documented enum: one `const` per value.
      return { ...merged, enum: choices.map((c) => c.const) };
    } else {
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
 * The fields of a configuration form.
 * @param {Schema} schema the game type's `config_schema`
 * @param {Record<string, unknown>} defaults the game type's `default_config`
 * @param {Record<string, unknown>} components the OpenAPI document's schemas
 * @returns {ConfigForm}
 */
export function configForm(schema, defaults, components) {
  components = { ...components, ...(schema.$defs ?? {}) };
  const root = resolve(schema, components);
  /** @type {Array<() => [string, unknown] | null>} */
  const readers = [];
  const fields = Object.entries(root.properties ?? {}).map(([name, raw]) => {
    const field = resolve(raw, components);
    const id = `config-${name}`;
    const initial = defaults[name] ?? field.default;
    const hint = field.description ? h('small', { class: 'hint' }, field.description) : null;
    const types = Array.isArray(field.type) ? field.type : [field.type];
    if (field.enum) {
      const select = h(
        'select',
        { id, name },
        field.enum.map((v) =>
          h('option', { value: String(v), selected: v === initial }, humanize(String(v))),
        ),
      );
      readers.push(() => [name, field.enum?.find((v) => String(v) === select.value)]);
      return h('div', { class: 'field' }, h('label', { for: id }, humanize(name)), select, hint);
    }
    if (types.includes('boolean')) {
      const box = h('input', { id, name, type: 'checkbox', checked: initial === true });
      readers.push(() => [name, box.checked]);
      return h('div', { class: 'field check' }, box, h('label', { for: id }, humanize(name)), hint);
    }
    if (types.includes('integer') || types.includes('number')) {
      const input = h('input', {
        id,
        name,
        type: 'number',
        min: field.minimum,
        max: field.maximum,
        step: types.includes('integer') ? 1 : 'any',
        value: initial === undefined ? '' : String(initial),
      });
      readers.push(() => (input.value === '' ? null : [name, Number(input.value)]));
      return h('div', { class: 'field' }, h('label', { for: id }, humanize(name)), input, hint);
    }
    if (types.includes('object') || types.includes('array') || (initial !== null && typeof initial === 'object')) {
      // A structured option (counts per player count, a card split, a score table): its
      // JSON, sent only when changed, so that an untouched field keeps the server's default.
      const text = initial === undefined || initial === null ? '' : JSON.stringify(initial);
      const input = h('input', { id, name, type: 'text', class: 'json', spellcheck: false, value: text });
      readers.push(() => {
        const now = input.value.trim();
        if (now === '' || now === text) return null;
        try {
          return [name, JSON.parse(now)];
        } catch {
          // Not JSON: sent as typed, and the server's refusal says what it expects.
          return [name, now];
        }
      });
      return h('div', { class: 'field' }, h('label', { for: id }, `${humanize(name)} (JSON)`), input, hint);
    }
    const input = h('input', { id, name, type: 'text', value: initial === undefined || initial === null ? '' : String(initial) });
    readers.push(() => (input.value === '' ? null : [name, input.value]));
    return h('div', { class: 'field' }, h('label', { for: id }, humanize(name)), input, hint);
  });
  return {
    element: h('div', { class: 'config' }, fields.length ? fields : h('p', {}, 'No options.')),
    value: () =>
      Object.fromEntries(
        readers.map((read) => read()).filter(/** @returns {e is [string, unknown]} */ (e) => e !== null),
      ),
  };
}
