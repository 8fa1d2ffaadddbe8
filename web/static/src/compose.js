// One form for several templates of one action (a composer): a game may list one template per
// shape an action can take (Monopoly's trade offers under rules version 2: one per field an
// offer may lead with, each requiring that field and leaving the ones before it out), and a
// person should see one form per partner, not six that each refuse what the others allow. The
// composer's fields are the union of the templates' fields, each as wide as any template
// allows; when submitted, it picks the first template whose domains the values fit.

import { t } from './i18n/index.js';

/** @typedef {import('./api.js').ActionTemplate} ActionTemplate */
/** @typedef {import('./api.js').TemplateDomain} TemplateDomain */

/**
 * A template with its place in the list the server gave (forms and tests refer to it).
 * @typedef {{template: ActionTemplate, index: number}} Listed
 */

/**
 * The key of a template's form: its type and fixed fields. Templates that share it act on the
 * same thing (the same partner); a composer stands for all of them, and a form the user is
 * filling in is found again by it after a re-render.
 * @param {ActionTemplate} t
 */
export function formKey(t) {
  const fixed = ('fixed' in t && t.fixed) || {};
  return `${t.type}:${JSON.stringify(fixed)}`;
}

/**
 * The templates grouped into forms, in the server's order: those of a type in `composed`
 * that share their fixed fields are one group; every other template is a group of its own.
 * @param {ActionTemplate[]} templates
 * @param {string[]} composed
 * @returns {Listed[][]}
 */
export function groupTemplates(templates, composed) {
  /** @type {Map<string, Listed[]>} */
  const groups = new Map();
  templates.forEach((template, index) => {
    const key = composed.includes(template.type) ? formKey(template) : `#${index}`;
    const group = groups.get(key) ?? [];
    group.push({ template, index });
    groups.set(key, group);
  });
  return [...groups.values()];
}

/**
 * One domain as wide as `a` and `b` together (the same kind; else `a`).
 * @param {TemplateDomain} a
 * @param {TemplateDomain} b
 * @returns {TemplateDomain}
 */
function widen(a, b) {
  const union = (/** @type {unknown[]} */ x, /** @type {unknown[]} */ y) => [...x, ...y.filter((v) => !x.some((w) => JSON.stringify(w) === JSON.stringify(v)))];
  if (a.kind === 'integer' && b.kind === 'integer') return { ...a, min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
  if (a.kind === 'one_of' && b.kind === 'one_of') return /** @type {TemplateDomain} */ ({ ...a, values: union(a.values, b.values) });
  if (a.kind === 'subset' && b.kind === 'subset') {
    return /** @type {TemplateDomain} */ ({ ...a, values: union(a.values, b.values), min_items: Math.min(a.min_items, b.min_items), max_items: Math.max(a.max_items, b.max_items) });
  }
  if (a.kind === 'counts' && b.kind === 'counts') {
    /** @type {Record<string, number>} */
    const limits = { ...a.limits };
    for (const [k, v] of Object.entries(b.limits)) limits[k] = Math.max(limits[k] ?? 0, v);
    return { ...a, limits, min_total: Math.min(a.min_total, b.min_total), max_total: Math.max(a.max_total, b.max_total) };
  }
  return a;
}

/**
 * A domain that also allows its field left empty (no cash, no item).
 * @param {TemplateDomain} d
 * @returns {TemplateDomain}
 */
function emptyAllowed(d) {
  if (d.kind === 'integer') return { ...d, min: Math.min(d.min, 0) };
  if (d.kind === 'subset') return { ...d, min_items: 0 };
  if (d.kind === 'counts') return { ...d, min_total: 0 };
  return d;
}

/**
 * The composer's fields: every field of the group's templates, in the order of the one with
 * the most, each domain as wide as the templates allow together and emptiable: the template
 * picked on submitting checks its own minimums (`pickTemplate`), and says nothing filled in
 * in the game's words, also when there is one template only.
 * @param {Listed[]} group
 * @returns {Record<string, TemplateDomain>}
 */
export function composedParams(group) {
  const widest = [...group].sort((x, y) => Object.keys(y.template.params).length - Object.keys(x.template.params).length);
  /** @type {Record<string, TemplateDomain>} */
  const params = {};
  for (const { template } of widest) {
    for (const [field, domain] of Object.entries(/** @type {Record<string, TemplateDomain>} */ (template.params))) {
      params[field] = params[field] ? widen(params[field], domain) : domain;
    }
  }
  for (const field of Object.keys(params)) params[field] = emptyAllowed(/** @type {TemplateDomain} */ (params[field]));
  return params;
}

/**
 * Whether a value leaves its field as if left out (no cash, no item): a template without the
 * field takes it so.
 * @param {unknown} value
 */
export function isEmpty(value) {
  if (value === 0 || value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(/** @type {object} */ (value)).every((n) => n === 0);
  return false;
}

/**
 * What is wrong with `value` for `domain`, in words, or `null` when it fits.
 * @param {string} label the field's name as the form shows it
 * @param {TemplateDomain} domain
 * @param {unknown} value
 * @returns {string | null}
 */
export function misfit(label, domain, value) {
  switch (domain.kind) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= domain.min && value <= domain.max ? null : t('actions.wholeNumber', { field: label, min: domain.min, max: domain.max });
    case 'one_of':
      return domain.values.some((v) => JSON.stringify(v) === JSON.stringify(value)) ? null : t('actions.chooseOffered', { field: label });
    case 'subset': {
      const items = Array.isArray(value) ? value : [];
      const allowed = items.every((v) => domain.values.some((w) => JSON.stringify(w) === JSON.stringify(v)));
      return allowed && items.length >= domain.min_items && items.length <= domain.max_items ? null : t('actions.chooseRange', { min: domain.min_items, max: domain.max_items, field: label });
    }
    case 'counts': {
      const counts = /** @type {Record<string, number>} */ (value ?? {});
      const limits = /** @type {Record<string, number>} */ (domain.limits);
      let total = 0;
      for (const [key, n] of Object.entries(counts)) {
        if (n > (limits[key] ?? 0)) return t('actions.atMost', { field: label, n: limits[key] ?? 0, key });
        total += n;
      }
      return total >= domain.min_total && total <= domain.max_total ? null : t('actions.addUp', { field: label, min: domain.min_total, max: domain.max_total, total });

    }
  }
}

/**
 * The template of `group` that the filled-in `values` fit (its own domains, and nothing filled
 * in where it has no field), or the problems of the nearest one: the first that has every
 * filled-in field, with the fewest problems.
 * @param {Listed[]} group
 * @param {Record<string, unknown>} values by field
 * @param {(field: string) => string} label a field's name as the form shows it
 * @returns {{fits: Listed} | {problems: string[]}}
 */
export function pickTemplate(group, values, label) {
  /** @type {{problems: string[], covers: boolean} | null} */
  let nearest = null;
  for (const listed of group) {
    const params = /** @type {Record<string, TemplateDomain>} */ (listed.template.params);
    const problems = [];
    let covers = true;
    for (const [field, value] of Object.entries(values)) {
      const domain = params[field];
      if (!domain) {
        if (!isEmpty(value)) covers = false;
        continue;
      }
      const wrong = misfit(label(field), domain, value);
      if (wrong) problems.push(wrong);
    }
    if (covers && problems.length === 0) return { fits: listed };
    const better = !nearest || (covers && !nearest.covers) || (covers === nearest.covers && problems.length < nearest.problems.length);
    if (better) nearest = { problems, covers };
  }
  return { problems: nearest?.problems ?? [] };
}
