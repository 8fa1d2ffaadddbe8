// The lobby list's filters (game, status, rated, clock), kept in the address's query
// (`/?type=tycoon&status=open&rated=yes&clock=per_move`) so that a filtered list survives a
// reload and can be shared. `GET /v1/games` filters by type and status itself ("Open seats" is
// the status `open`); it does not know rated or clock, so those are applied to the page of
// games it returns (`matches`), and a page asked with them is a larger one (`limit`).

/** @typedef {import('../api.js').GameSummary} GameSummary */
/** @typedef {{type: string, status: string, rated: '' | 'yes' | 'no', clock: '' | 'none' | 'per_move' | 'fischer'}} Filters */

/** The query's names, in the order they are written. */
const NAMES = /** @type {const} */ (['type', 'status', 'rated', 'clock']);

/**
 * The filters of an address's query; unknown values count as "any".
 * @param {string} search `location.search`
 * @returns {Filters}
 */
export function readFilters(search) {
  const q = new URLSearchParams(search);
  const rated = q.get('rated') ?? '';
  const clock = q.get('clock') ?? '';
  return {
    type: q.get('type') ?? '',
    status: q.get('status') ?? '',
    rated: rated === 'yes' || rated === 'no' ? rated : '',
    clock: clock === 'none' || clock === 'per_move' || clock === 'fischer' ? clock : '',
  };
}

/**
 * The address for these filters: `/` when none is set.
 * @param {Filters} f
 */
export function addressOf(f) {
  const q = new URLSearchParams();
  for (const name of NAMES) if (f[name]) q.set(name, f[name]);
  return q.size ? `/?${q}` : '/';
}

/**
 * Whether a filter the server does not apply is set.
 * @param {Filters} f
 */
export function filtersHere(f) {
  return f.rated !== '' || f.clock !== '';
}

/**
 * Whether a listed game passes the filters the server does not apply.
 * @param {Filters} f
 * @param {GameSummary} game
 */
export function matches(f, game) {
  if (f.rated === 'yes' && !game.rated) return false;
  if (f.rated === 'no' && game.rated) return false;
  const kind = game.clock?.kind ?? 'none';
  return f.clock === '' || kind === f.clock;
}
