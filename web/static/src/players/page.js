// The players' page: one HTML page (`players.html`) for `/me` (sign up, your games, play),
// `/players/{id}` (a profile) and `/leaderboards[/{type}]`, the view chosen by the address.

import { showLeaderboard } from './leaderboard.js';
import { showMe } from './me.js';
import { showProfile } from './profile.js';

const [, first, second] = location.pathname.split('/').map(decodeURIComponent);

/** The site's navigation marks where the reader is. */
const current = first === 'me' ? 'nav-me' : first === 'leaderboards' ? 'nav-leaderboards' : null;
if (current) document.getElementById(current)?.setAttribute('aria-current', 'page');

if (first === 'players' && second) showProfile(second);
else if (first === 'leaderboards') showLeaderboard(second || null);
else showMe();
