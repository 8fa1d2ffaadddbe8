// What the user has put into the action forms, kept across re-renders: the page redraws its
// controls after every move (also another player's, and while those are played back the forms
// are not shown at all), and a half-filled trade offer or bid must not reset, fold or lose the
// focus under the user's hands. Each form is known by its key (`data-form-key`, on the form or
// on the `details` it is folded in: the template's type and fixed fields), each control by
// `data-control` (its field, and the value of a checkbox or the key of a count), so a value is
// put back only where the same control still exists and still allows it; a form the game no
// longer offers is forgotten.

/**
 * A form the user has touched: its controls' values and whether it is unfolded.
 * @typedef {{controls: Map<string, {value: string, checked: boolean}>, open: boolean | null}} Kept
 */

/** @type {Map<string, Kept>} */
const kept = new Map();
/**
 * The control that had the focus when it was last inside a kept form (its form's key and
 * control's key); `null` once the focus moved anywhere else.
 * @type {{form: string, control: string} | null}
 */
let focus = null;

/** @param {EventTarget | null} target */
function formOf(target) {
  return target instanceof Element ? /** @type {HTMLElement | null} */ (target.closest('[data-form-key]')) : null;
}

/**
 * Notes the state of the form around `target` (typed into, ticked, unfolded).
 * @param {EventTarget | null} target
 */
function note(target) {
  const form = formOf(target);
  const key = form?.dataset.formKey;
  if (!form || !key) return;
  /** @type {Kept} */
  const state = { controls: new Map(), open: null };
  for (const el of form.querySelectorAll('[data-control]')) {
    const input = /** @type {HTMLInputElement} */ (el);
    state.controls.set(input.dataset.control ?? '', { value: input.value, checked: !!input.checked });
  }
  // A folded form's key is on its `details` (`closest` starts at the element itself).
  const box = form.closest('details');
  if (box) state.open = box.open;
  kept.set(key, state);
}

/**
 * Starts keeping the forms that `root` will hold (the list of the viewer's moves; it stays in
 * the page while its content is redrawn).
 * @param {HTMLElement} root
 */
export function keepForms(root) {
  root.addEventListener('input', (e) => note(e.target));
  root.addEventListener('change', (e) => note(e.target));
  // `toggle` does not bubble: heard on the way down.
  root.addEventListener('toggle', (e) => note(e.target), true);
  document.addEventListener('focusin', (e) => {
    const form = formOf(e.target);
    const control = e.target instanceof HTMLElement ? e.target.dataset.control : undefined;
    const key = form?.dataset.formKey;
    focus = form && key && control !== undefined ? { form: key, control } : null;
  });
  // The user leaving a control for nowhere (a click on the board) lets the focus go; a control
  // the redraw removed or disabled keeps its claim.
  root.addEventListener('focusout', (e) => {
    const el = /** @type {HTMLInputElement} */ (e.target);
    setTimeout(() => {
      if (el.isConnected && !el.disabled && document.activeElement !== el && formOf(document.activeElement) === null) focus = null;
    });
  });
}

/**
 * Whether `input` can take `value` (a number within its bounds, an option still offered).
 * @param {HTMLInputElement | HTMLSelectElement} input
 * @param {string} value
 */
function allows(input, value) {
  if (input instanceof HTMLSelectElement) return [...input.options].some((o) => o.value === value);
  if (input.type !== 'number' && input.type !== 'range') return true;
  const n = Number(value);
  const min = input.min === '' ? -Infinity : Number(input.min);
  const max = input.max === '' ? Infinity : Number(input.max);
  return value !== '' && n >= min && n <= max;
}

/**
 * Puts the kept state back into the forms now in `root`, and the focus where it was when it
 * was lost with the redraw. `live`: the forms shown are all the game offers now (not a
 * playback's, which shows none), so a kept form that is missing is gone for good.
 * @param {HTMLElement} root
 * @param {boolean} live
 */
export function restoreForms(root, live) {
  const present = new Set();
  for (const form of root.querySelectorAll('[data-form-key]')) {
    const key = /** @type {HTMLElement} */ (form).dataset.formKey ?? '';
    present.add(key);
    const state = kept.get(key);
    if (!state) continue;
    for (const el of form.querySelectorAll('[data-control]')) {
      const input = /** @type {HTMLInputElement} */ (el);
      const saved = state.controls.get(input.dataset.control ?? '');
      if (!saved) continue;
      if (input.type === 'checkbox') input.checked = saved.checked;
      else if (allows(input, saved.value)) input.value = saved.value;
    }
    const box = form.closest('details');
    if (box && state.open !== null) box.open = state.open;
  }
  if (live) {
    for (const key of [...kept.keys()]) if (!present.has(key)) kept.delete(key);
  }
  const active = document.activeElement;
  if (focus && (!active || active === document.body)) {
    const form = [...root.querySelectorAll('[data-form-key]')].find((f) => /** @type {HTMLElement} */ (f).dataset.formKey === focus?.form);
    const control = form ? [...form.querySelectorAll('[data-control]')].find((c) => /** @type {HTMLElement} */ (c).dataset.control === focus?.control) : null;
    if (control instanceof HTMLElement && !(/** @type {HTMLInputElement} */ (control).disabled)) control.focus({ preventScroll: true });
  }
}

/**
 * Whether the focus belongs to a kept form (then the page's own focus keeping leaves it be).
 */
export function holdsFocus() {
  return focus !== null;
}

/**
 * Forgets the form `key` (its action was taken).
 * @param {string} key
 */
export function forgetForm(key) {
  kept.delete(key);
  if (focus?.form === key) focus = null;
}
