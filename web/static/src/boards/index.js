// The board of each game type, one module per game. A game without a module of its own is
// still playable and watchable through the generic one (its view as a table, its actions as
// buttons); adding a game's drawing is one module implementing `BoardModule` and one line in
// `BOARDS`.

import acquire from './acquire.js';
import generic from './generic.js';
import monopoly from './monopoly.js';
import tycoon from './tycoon.js';
import tyros from './tyros.js';

/** @typedef {import('../api.js').Action} Action */

/**
 * What a board module gets: the view, the game's data file, names, and the viewer's actions.
 * @typedef {object} BoardContext
 * @property {any} view the game's view, as the viewer may see it
 * @property {any} data the game's data file (`data/{type}.json`), or `null`
 * @property {any} config the game's configuration (from its `game_started` event, for games
 *   whose first event carries it), or `null` when not known
 * @property {number | null} seat the viewer's seat; `null` for a spectator
 * @property {(seat: number) => string} name the display name of a seat
 * @property {Action[]} legal the viewer's legal actions now (none in a replay)
 * @property {(actions: Action[], question: string) => void} offer act on one of `actions`
 *   (asking `question` when there are several)
 */

/**
 * What describing an event or an action needs: names and the data file, no view.
 * @typedef {Pick<BoardContext, 'data' | 'name'> & {view?: any, seat?: number | null, config?: any}} Lookup
 */

/**
 * @typedef {object} BoardModule
 * @property {(ctx: BoardContext) => Node} render the board, as SVG and tables
 * @property {(ctx: BoardContext, seat: number) => Array<[string, string | Node]>} playerRows
 *   the game's facts about one player, for the player panel
 * @property {(event: any, ctx: Lookup) => string} describeEvent one sentence per event
 * @property {(action: any, ctx: Lookup) => string} describeAction a button label
 * @property {(ctx: BoardContext) => string | null} [status] one line on where the game stands
 * @property {(field: string, value: unknown, ctx: Lookup) => string | null} [describeValue] a
 *   value of a template's field in words (a square's name, a seat's name), for the forms;
 *   `null` leaves the plain wording
 */

/** @type {Record<string, BoardModule>} */
const BOARDS = { tycoon, acquire, monopoly, tyros };

/**
 * The board module of a game type.
 * @param {string} type
 * @returns {BoardModule}
 */
export function boardFor(type) {
  return BOARDS[type] ?? generic;
}
