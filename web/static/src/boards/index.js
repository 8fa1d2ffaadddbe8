// The board of each game type, one module per game, loaded when a page shows that game (a
// page loads one board's script, not four). A game without a module of its own is still
// playable and watchable through the generic one (its view as a table, its actions as
// buttons); adding a game's drawing is one module implementing `BoardModule` and one line in
// `BOARDS`.

/** @typedef {import('../api.js').Action} Action */
/** @typedef {import('../api.js').ActionTemplate} ActionTemplate */
/** @typedef {import('../api.js').EventDto} EventDto */

/**
 * What a board module gets: the position shown, the game's data file, names, and the viewer's
 * actions there.
 * @typedef {object} BoardContext
 * @property {any} view the game's view, as the viewer may see it
 * @property {any} data the game's data file (`data/{type}.json`), or `null`
 * @property {any} [layout] where the board lies on the world (`data/{type}-layout.json`), for
 *   a board that asks for it (`BoardModule.layout`); `null` when it could not be loaded, and
 *   the board is drawn without its map
 * @property {any} config the game's configuration (from its `game_started` event, for games
 *   whose first event carries it), or `null` when not known
 * @property {number | null} seat the viewer's seat; `null` for a spectator
 * @property {(seat: number) => string} name the display name of a seat
 * @property {Action[]} legal the viewer's legal actions now (none in a replay)
 * @property {ActionTemplate[]} templates the viewer's action templates now
 * @property {any[]} recent the events of the move just shown, to mark on the board
 * @property {EventDto[]} events the log up to the position shown
 * @property {(actions: Action[], question: string) => void} offer act on one of `actions`
 *   (asking `question` when there are several)
 * @property {(action: Action) => Promise<boolean | void>} act submit one action
 * @property {(actions: Action[]) => Promise<void>} actAll submit several, one after another,
 *   stopping at the first refusal
 */

/**
 * What describing an event or an action needs: names and the data file, no view.
 * @typedef {Pick<BoardContext, 'data' | 'name'> & {view?: any, seat?: number | null, config?: any}} Lookup
 */

/**
 * What the game waits for now, told next to the actions: one line, and the facts a player
 * needs to decide (the terms of an offer, the lot and the high bid, the costs).
 * @typedef {{title: string, details?: Array<string | Node>}} Prompt
 */

/**
 * A template's form in the game's words.
 * @typedef {{title: string, submit: string, hint?: string, empty?: string}} TemplateWords
 */

/**
 * The final score sheet: a column per part of the score, a row per seat; the total is the
 * outcome's score.
 * @typedef {{caption: string, columns: string[], rows: Array<Array<string | number>>, note?: string}} ScoreSheet
 */

/**
 * @typedef {object} BoardModule
 * @property {number} minWidth the drawing's smallest readable width in CSS pixels (a narrow
 *   screen pans it)
 * @property {boolean} [layout] the board is drawn on a map and needs its layout file
 * @property {string} [spaces] the board's spaces (a CSS selector within the drawing) that the
 *   arrow keys move between: the drawing is one tab stop (`roving.js`)
 * @property {(ctx: BoardContext) => {drawing: Element, panels?: Node[]}} render the board as
 *   SVG, and the tables beside it
 * @property {(ctx: BoardContext, seat: number) => Array<[string, string | Node]>} playerRows
 *   the game's facts about one player, for the player panel
 * @property {(event: any, ctx: Lookup) => string} describeEvent one sentence per event
 * @property {(action: any, ctx: Lookup) => string} describeAction a button label that says
 *   what the action does and costs
 * @property {(action: any, ctx: BoardContext) => string[]} [preview] what a legal move would
 *   do before it is made (what it costs and brings, what changes), a line each, for the help
 *   on the board and on the move's control (`help.js`); from the view and the data file only
 * @property {(ctx: BoardContext) => string | null} [status] one line on where the game stands
 * @property {(ctx: BoardContext) => Prompt | null} [prompt] what the game waits for
 * @property {(template: ActionTemplate, ctx: Lookup) => TemplateWords | null} [describeTemplate]
 * @property {(field: string, value: unknown, ctx: Lookup) => string | null} [describeValue] a
 *   value of a template's field in words (a square's name, a seat's name), for the forms;
 *   `null` leaves the plain wording
 * @property {(ctx: BoardContext) => {kinds: string[], controls: Node[]}} [controls] the
 *   board's own controls for some kinds of actions (a form instead of a list of every
 *   combination); every action of `kinds` must be reachable through them
 * @property {Array<[string, string[]]>} rules a short summary of the rules: headings and
 *   paragraphs
 * @property {Record<string, string>} [kindLabels] a label for a kind of action offered as a
 *   choice among many ("Sail a ship")
 * @property {string[]} [countOrder] the order of the keys of a form's counts (a game's
 *   colours, as printed)
 * @property {string[]} [composedTemplates] the template types shown as one form per thing
 *   they act on (one trade composer per partner): the game lists several templates of the
 *   type for one partner, one per shape the action may take (`compose.js`)
 * @property {string[]} [openTemplates] the templates that are the decision at hand (a bid, a
 *   payment) and are shown open; the others are folded while there are other moves
 * @property {(score: number) => string} [scoreText] a final score as the game writes it (money
 *   as money, like the score sheet beside it); a plain number without it
 * @property {(ctx: BoardContext) => ScoreSheet | null} [scoreSheet] how the final scores came
 *   about
 */

/** The games with a board of their own. */
const BOARDS = ['tycoon', 'acquire', 'monopoly', 'tyros'];

/**
 * The board module of a game type.
 * @param {string} type
 * @returns {Promise<BoardModule>}
 */
export async function loadBoard(type) {
  const name = BOARDS.includes(type) ? type : 'generic';
  return (await import(`./${name}.js`)).default;
}
