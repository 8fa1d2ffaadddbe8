// The lobby list's filters (game, status, rated, clock), kept in the address's query
// (`/?type=tycoon&status=open&rated=yes&clock=per_move`) so that a filtered list survives a
// reload and can be shared. `GET /v1/games` applies all four ("Open seats" is the status
// `open`), so every page is a full page of matching games.

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
 * The list's query for these filters: the address says `rated=yes|no`, the API `true|false`.
 * @param {Filters} f
 * @returns {{type: string, status: string, rated: string, clock: string}}
 */
export function listQuery(f) {
  return {
    type: f.type,
    status: f.status,
    rated: f.rated === 'yes' ? 'true' : f.rated === 'no' ? 'false' : '',
    clock: f.clock,
  };
}
