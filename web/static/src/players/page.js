// The players' page: one HTML page (`players.html`) for `/me` (sign up, your games, play),
// `/players/{id}` (a profile), `/leaderboards[/{type}]` and `/import` (a game record), the view
// chosen by the address.

import '../i18n/page.js';
import { showImport } from './import.js';
import { showLeaderboard } from './leaderboard.js';
import { showMe } from './me.js';
import { showProfile } from './profile.js';

const [, first, second] = location.pathname.split('/').map(decodeURIComponent);

/** The site's navigation marks where the reader is. */
const current = first === 'me' ? 'nav-me' : first === 'leaderboards' ? 'nav-leaderboards' : first === 'import' ? 'nav-import' : null;
if (current) document.getElementById(current)?.setAttribute('aria-current', 'page');

if (first === 'players' && second) showProfile(second);
else if (first === 'leaderboards') showLeaderboard(second || null);
else if (first === 'import') showImport();
else showMe();
